#!/usr/bin/env python3
"""Pure-Python port of the 2023 organizers' scoring (tools/scoring/score.py at
SMT-COMP/smt-comp HEAD, last changed 2023-06-29, run as
`score.py -y 2023 -t 1200 -T ct|pt -D new-divisions.json --gen-md`), applied to
results-{parallel,cloud}-2023.json.gz, compared with every number of
published-2023-{parallel,cloud}.json. Prints mismatches and writes
raw/rescored-<track>.json.gz (our computed pages) for NOTES.md.

Options (to test hypotheses): --dedup (score each (solver, benchmark) once),
--no-decisions (ignore sq-disagreements-decision.csv).
"""
import argparse
import gzip
import json
import os
import sys
from collections import defaultdict

OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RAW = os.path.join(OUT, "raw")
UNK = "unknown"


def page_name(div, track):
    return div.lower().replace("+", "-").replace("_", "-") + "-" + track


def load(track, decisions=True, dedup=False):
    runs = json.load(gzip.open(os.path.join(OUT, f"results-{track}-2023.json.gz")))["results"]
    exp = json.load(gzip.open(os.path.join(RAW, "expected.json.gz")))
    rows = []
    seen = set()
    for r in runs:
        f = r["file"]
        path = "./" + "/".join([f["logic"]] + f["family"] + [f["name"]])
        e = exp[path]["status"] if decisions else exp[path]["status_smtlib"]
        key = (r["solver"], path)
        if dedup and key in seen:
            continue
        seen.add(key)
        rows.append({
            "solver": r["solver"], "logic": f["logic"],
            # score.py's "benchmark": the path below the logic
            "benchmark": "/".join(f["family"] + [f["name"]]),
            "cpu": r["cpu_time"], "wall": r["wallclock_time"],
            "status": "complete", "result": r["result"], "expected": e,
            "input": r["input_file"],
        })
    return rows


def remove_disagreements(data):
    unsound = {d["solver"] for d in data if d["expected"] != UNK and d["result"] != UNK
               and d["result"] != d["expected"]}
    res = defaultdict(set)
    for d in data:
        if d["expected"] == UNK and d["solver"] not in unsound and d["result"] in ("sat", "unsat"):
            res[(d["logic"], d["benchmark"])].add(d["result"])
    bad = {b for (l, b), s in res.items() if len(s) > 1}  # note: by benchmark name only
    return [d for d in data if d["benchmark"] not in bad], bad, unsound


def score_logic(rows, limit, filt):
    """score() of score.py for one logic; returns per-row dicts."""
    n_bench = len({d["benchmark"] for d in rows})
    out = []
    for d in rows:
        x = dict(d)
        x.update(correct=0, error=0, correct_sat=0, correct_unsat=0, timeout=0,
                 memout=0, unsolved=0, division_size=n_bench)
        if x["wall"] > limit:  # time_column = wallclock (parallel scoring)
            x.update(cpu=float(limit), wall=float(limit), status="timeout", result=UNK)
        if x["status"].startswith("timeout"):
            x["timeout"] = 1
        out.append(x)
    B = None
    if filt:
        neg = "sat" if filt == "unsat" else "unsat"
        B = {x["benchmark"] for x in out
             if x["expected"] == filt or (x["result"] == filt and x["expected"] == UNK)}
        for x in out:
            if x["benchmark"] not in B and x["result"] != filt:
                x.update(cpu=0.0, wall=0.0, result=UNK)
            if x["result"] == neg:  # year >= 2021
                x.update(cpu=0.0, wall=0.0, result=UNK)
    for x in out:
        solved = (x["result"] in ("sat", "unsat") and x["wall"] <= limit
                  and (x["expected"] == UNK or x["result"] == x["expected"]))
        x["solved"] = solved
        if solved:
            x["correct"] = 1
            x["correct_sat"] = int(x["result"] == "sat")
            x["correct_unsat"] = int(x["result"] == "unsat")
        if x["result"] != UNK and x["result"] != x["expected"] and x["expected"] != UNK:
            x["error"] = 1
        x["score_cpu"] = x["cpu"] if solved else 0.0
        x["score_wall"] = x["wall"] if solved else 0.0
        if x["correct"] == 0:
            x["unsolved"] = 1
        if filt and x["benchmark"] not in B:
            x["unsolved"] = 0
    return out


KINDS = [("parallel", 1200, None), ("sat", 1200, "sat"), ("unsat", 1200, "unsat"),
         ("twentyfour", 24, None)]


def score_track(track, data):
    divmap = json.load(open(os.path.join(RAW, "new-divisions.json")))["track_" + track]
    logics = sorted({d["logic"] for d in data})
    pages = {}
    per_kind_rows = {}
    for kind, limit, filt in KINDS:
        groups = {}
        for lg in logics:
            groups[lg] = (score_logic([d for d in data if d["logic"] == lg], limit, filt), None)
        for div, lgs in divmap.items():
            parts = [groups[l][0] for l in lgs if l in groups and l in logics]
            if parts:
                rows = [x for p in parts for x in p]
                size = sum(p[0]["division_size"] for p in parts)
                groups[div] = (rows, {l: groups[l][0][0]["division_size"] for l in lgs if l in logics})
        per_kind_rows[kind] = groups
        for g, (rows, used) in groups.items():
            size = sum(used.values()) if used else rows[0]["division_size"]
            agg = {}
            for x in rows:
                a = agg.setdefault(x["solver"], defaultdict(float))
                for k in ("correct", "error", "correct_sat", "correct_unsat", "score_cpu",
                          "score_wall", "timeout", "memout", "unsolved"):
                    a[k] += x[k]
            table = []
            for s, a in agg.items():
                table.append({"solver": s, "competing": True, "error": int(a["error"]),
                              "correct": int(a["correct"]), "wall": a["score_wall"],
                              "cpu": a["score_cpu"], "solved": int(a["correct"]),
                              "solved_sat": int(a["correct_sat"]),
                              "solved_unsat": int(a["correct_unsat"]),
                              "unsolved": int(a["unsolved"]),
                              "abstained": size - int(a["correct"] + a["unsolved"]),
                              "timeout": int(a["timeout"]), "memout": int(a["memout"])})
            # group_and_rank_solvers: error asc, correct desc, wall asc, cpu asc
            table.sort(key=lambda r: (r["error"], -r["correct"], r["wall"], r["cpu"]))
            pn = page_name(g, track)
            p = pages.setdefault(pn, {"title": pn, "benchmarks": size, "tables": {},
                                      "group": g, "logics": used})
            p["tables"][kind] = table
    # biggest lead (parallel kind only is published for ct/pt)
    bl = []
    for div in divmap:
        pn = page_name(div, track)
        if pn not in pages:
            continue
        t = pages[pn]["tables"]["parallel"]
        if len({r["solver"] for r in t}) <= 1:
            continue
        first, second = t[0], t[1]
        if first["correct"] == 0:
            continue
        bl.append({"solver": first["solver"], "second": second["solver"], "Division": div,
                   "correct": (1 + first["correct"]) / (1 + second["correct"]),
                   "Time Score": (1 + second["wall"]) / (1 + first["wall"])})
    bl.sort(key=lambda x: (x["correct"], x["Time Score"]), reverse=True)
    return pages, bl, per_kind_rows


def compare(track, pages, bl, published):
    mism = []
    n = 0
    for pn, pub in published.items():
        if pn.startswith("results-"):
            continue
        if pn.startswith("biggest-lead"):
            theirs = pub["tables"].get("parallel", [])
            n += 1
            if len(theirs) != len(bl):
                mism.append(f"{pn}: {len(bl)} rows vs {len(theirs)}")
            for o, p in zip(bl, theirs):
                for k, ov, pv, tol in (("solver", o["solver"], p["solver"], None),
                                       ("Division", o["Division"], p["Division_published"], None),
                                       ("correct", o["correct"], p["correct"], 1e-8),
                                       ("Time Score", o["Time Score"], p["Time Score"], 1e-8)):
                    n += 1
                    ok = ov == pv if tol is None else abs(ov - pv) <= tol
                    if not ok:
                        mism.append(f"{pn}/{o['Division']}: {k} {ov} vs {pv}")
            continue
        ours = pages.get(pn)
        n += 1
        if ours is None:
            mism.append(f"{pn}: page missing")
            continue
        n += 1
        if ours["benchmarks"] != pub["benchmarks"]:
            mism.append(f"{pn}: benchmarks {ours['benchmarks']} vs {pub['benchmarks']}")
        if pub.get("logics") and {k: v for k, v in ours["logics"].items()} != pub["logics"]:
            mism.append(f"{pn}: logics {ours['logics']} vs {pub['logics']}")
        for kind, theirs in pub["tables"].items():
            o = ours["tables"][kind]
            n += 1
            if len(o) != len(theirs):
                mism.append(f"{pn}/{kind}: {len(o)} rows vs {len(theirs)}")
            for orow, prow in zip(o, theirs):
                n += 1
                if orow["solver"] != prow["solver"]:
                    mism.append(f"{pn}/{kind}: order {orow['solver']} vs {prow['solver']}")
                ob = {r["solver"]: r for r in o}[prow["solver"]]
                for f in ("error", "correct", "solved", "solved_sat", "solved_unsat",
                          "unsolved", "abstained", "timeout", "memout"):
                    if prow[f] is None:
                        continue
                    n += 1
                    if ob[f] != prow[f]:
                        mism.append(f"{pn}/{kind}/{prow['solver']}: {f} {ob[f]} vs {prow[f]}")
                n += 1
                if abs(round(ob["wall"], 3) - prow["wall"]) > 1e-9:
                    mism.append(f"{pn}/{kind}/{prow['solver']}: wall {ob['wall']:.4f} vs {prow['wall']}")
    # hidden md winners (score.py md_get_div_winner: the rank-1 row if its
    # correct score > 0, else "-"); rank 1 = first after (error, -correct, wall, cpu)
    labels = {"parallel": "Parallel Performance", "sat": "SAT Performance",
              "unsat": "UNSAT Performance", "twentyfour": "24 seconds Performance"}
    for pn, pub in published.items():
        mw = pub.get("md_winners_not_shown")
        if not mw or pn.startswith(("results-", "biggest-lead")):
            if mw and pn.startswith("biggest-lead"):
                n += 1
                w = bl[0]["solver"] if bl else "-"
                if w != mw["Parallel Performance"]:
                    mism.append(f"{pn}: md winner {w} vs {mw}")
            continue
        for kind, lab in labels.items():
            t = pages[pn]["tables"][kind]
            w = t[0]["solver"] if t[0]["correct"] > 0 else "-"
            n += 1
            if w != mw[lab]:
                mism.append(f"{pn}/{kind}: md winner {w} vs {mw[lab]}")
    return n, mism


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dedup", action="store_true")
    ap.add_argument("--no-decisions", action="store_true")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    total_bad = 0
    for track in ("parallel", "cloud"):
        data = load(track, decisions=not a.no_decisions, dedup=a.dedup)
        data, bad, unsound = remove_disagreements(data)
        pages, bl, _ = score_track(track, data)
        published = json.load(open(os.path.join(OUT, f"published-2023-{track}.json")))
        n, mism = compare(track, pages, bl, published)
        print(f"{track}: runs {len(data)}, disagreements removed {sorted(bad)}, unsound {sorted(unsound)}; "
              f"{n} published values compared, {len(mism)} differ")
        if not a.quiet:
            for m in mism:
                print("  ", m)
        total_bad += len(mism)
        if not (a.dedup or a.no_decisions):
            with gzip.GzipFile(os.path.join(RAW, f"rescored-{track}.json.gz"), "wb", mtime=0) as g:
                g.write(json.dumps({"pages": pages, "biggest_lead": bl}, sort_keys=True).encode())
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
