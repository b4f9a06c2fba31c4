#!/usr/bin/env python3
"""Checks (a)-(e) of NOTES.md, computed from results-*-2023.json.gz,
raw/expected.json.gz and published-2023-*.json. Prints a plain-text report."""
import gzip
import json
import os
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rescore  # noqa: E402

OUT = rescore.OUT
RAW = rescore.RAW


def pub(track):
    return json.load(open(os.path.join(OUT, f"published-2023-{track}.json")))


def row(p, page, kind, solver):
    return next(r for r in p[page]["tables"][kind] if r["solver"] == solver)


def main():
    exp = json.load(gzip.open(os.path.join(RAW, "expected.json.gz")))
    for track in ("parallel", "cloud"):
        P = pub(track)
        data = rescore.load(track)
        divmap = json.load(open(os.path.join(RAW, "new-divisions.json")))["track_" + track]
        logic_div = {l: d for d, ls in divmap.items() for l in ls}
        print(f"=================== {track.upper()} ===================")
        print("runs", len(data), Counter(d["solver"] for d in data))
        print("aws results", Counter((r["solver"], r["aws_result"]) for r in json.load(
            gzip.open(os.path.join(OUT, f"results-{track}-2023.json.gz")))["results"]))

        # ---- (a) 24 s
        over = [d for d in data if d["wall"] > 24]
        near = [d for d in data if 23.5 <= d["wall"] <= 24.5]
        print("\n(a) runs with wall > 24 s:", len(over), "of", len(data),
              "; runs within [23.5, 24.5] s:", [(d["solver"], d["wall"], d["result"]) for d in near])
        # per (logic page, solver): published 24 s timeout == #runs > 24 s
        ok = bad = 0
        for pn, p in P.items():
            if "twentyfour" not in p["tables"]:
                continue
            g = rescore.page_name  # noqa
            logics = list(p["logics"]) if p.get("logics") else [pn.rsplit("-", 1)[0]]
            for r in p["tables"]["twentyfour"]:
                n_over = sum(1 for d in data if d["solver"] == r["solver"] and
                             d["logic"].lower().replace("_", "-") in [l.lower().replace("_", "-") for l in logics]
                             and d["wall"] > 24)
                if n_over == r["timeout"]:
                    ok += 1
                else:
                    bad += 1
                    print("   24s timeout mismatch", pn, r["solver"], n_over, r["timeout"])
        print(f"   24 s tables: published timeout == #runs over 24 s in {ok} rows, differs in {bad}")
        solved_late = [d for d in data if d["result"] in ("sat", "unsat") and 24 < d["wall"] <= 1200
                       and (d["expected"] == "unknown" or d["expected"] == d["result"])]
        print("   correct answers between 24 s and 1200 s (count in 1200 s table, timeout in 24 s table):",
              len(solved_late), Counter(d["solver"] for d in solved_late))
        fast_unknown = [d for d in data if d["result"] == "unknown" and d["wall"] <= 24]
        print("   non-answers within 24 s (unsolved but NOT timeout in 24 s table):", len(fast_unknown),
              [(d["solver"], d["logic"], d["wall"]) for d in fast_unknown][:10])
        t1200 = sum(r["timeout"] for p in P.values() for k, rows in p["tables"].items()
                    if k != "twentyfour" for r in rows if "timeout" in r and r["timeout"] is not None)
        it = [d for d in data if d["wall"] >= 1200]
        print("   runs at exactly 1200.000 s (AWS infrastructure_timeout):", len(it),
              "; sum of Timeout over all published parallel/sat/unsat tables:", t1200)

        # ---- (b) wrong answers
        wrong = [d for d in data if d["result"] in ("sat", "unsat") and d["expected"] != "unknown"
                 and d["result"] != d["expected"]]
        print("\n(b) wrong answers:", len(wrong), Counter(d["solver"] for d in wrong))
        byl = defaultdict(list)
        for d in wrong:
            byl[(d["logic"], d["solver"])].append(d)
        for (lg, s), ws in sorted(byl.items()):
            pn = rescore.page_name(lg, track)
            r = row(P, pn, "parallel", s)
            rr = [d for d in data if d["logic"] == lg and d["solver"] == s]
            all_answers = sum(d["wall"] for d in rr if d["result"] in ("sat", "unsat"))
            good = sum(d["wall"] for d in rr if d["result"] in ("sat", "unsat") and d not in ws)
            n_ans = sum(1 for d in rr if d["result"] in ("sat", "unsat"))
            decided = [exp["./" + d["logic"] + "/" + d["benchmark"]]["decided"] for d in ws]
            print(f"   {pn} {s}: {len(ws)} wrong ({sum(decided)} on decided benchmarks; "
                  f"answers {[d['result'] for d in ws][:3]} vs expected {[d['expected'] for d in ws][:3]}, "
                  f"times {[d['wall'] for d in ws][:3]}); published error={r['error']} "
                  f"correct={r['correct']} (sat/unsat answers given: {n_ans}) unsolved={r['unsolved']} "
                  f"wall={r['wall']} ; sum over correct answers={good:.3f}, over all answers={all_answers:.3f}")
            for k in ("sat", "unsat", "twentyfour"):
                x = row(P, pn, k, s)
                print(f"        {k}: error={x['error']} correct={x['correct']} unsolved={x['unsolved']} "
                      f"abstained={x['abstained']} wall={x['wall']}")

        # ---- (c) duplicates
        runs = json.load(gzip.open(os.path.join(OUT, f"results-{track}-2023.json.gz")))["results"]
        inputs = defaultdict(set)
        for r in runs:
            f = r["file"]
            inputs["/".join([f["logic"]] + f["family"] + [f["name"]])].add(r["input_file"])
        dups = {k: sorted(v) for k, v in inputs.items() if len(v) > 1}
        print(f"\n(c) benchmarks run under two scrambled names: {len(dups)}; "
              f"extra runs: {sum(1 for r in runs if '/'.join([r['file']['logic']] + r['file']['family'] + [r['file']['name']]) in dups) // 2}")
        for k, v in dups.items():
            rs = [(r["solver"], r["input_file"].rsplit("/", 1)[1], r["result"], r["wallclock_time"])
                  for r in runs if "/".join([r["file"]["logic"]] + r["file"]["family"] + [r["file"]["name"]]) == k]
            e = exp["./" + k]["status"]
            print(f"   {k} (status {e}): {rs}")
        for pn, p in P.items():
            for k, rows in p["tables"].items():
                for r in rows:
                    if r.get("abstained") is not None and isinstance(r["abstained"], int) and r["abstained"] < 0:
                        print(f"   NEGATIVE abstained published: {pn}/{k}/{r['solver']}: benchmarks={p['benchmarks']} "
                              f"correct={r['correct']} unsolved={r['unsolved']} abstained={r['abstained']}")
        # sum of runs per solver per logic page vs benchmarks
        for pn, p in P.items():
            if p.get("logics") or "parallel" not in p["tables"] or pn.startswith("biggest"):
                continue
            for r in p["tables"]["parallel"]:
                tot = r["correct"] + r["unsolved"]
                if tot != p["benchmarks"]:
                    print(f"   logic page {pn} {r['solver']}: correct+unsolved={tot} > Benchmarks={p['benchmarks']} "
                          f"(abstained would be {p['benchmarks'] - tot}, column not shown on logic pages)")

        # ---- (d) experimental / winners
        exp_pages = sum(1 for p in P.values() if p["experimental"])
        named = sum(1 for p in P.values() if p["winners"])
        print(f"\n(d) pages saying 'This track is experimental ... no winner is selected': {exp_pages}/{len(P)}; "
              f"pages naming a winner: {named}")

        # ---- (e) time limit
        tl = Counter(p["time_limit"] for p in P.values())
        ml = Counter(p["memory_limit"] for p in P.values())
        print(f"\n(e) Time Limit on pages: {dict(tl)}; Memory Limit: {dict(ml)}; "
              f"max run time {max(d['wall'] for d in data)}; cpu==wall for all runs: "
              f"{all(d['cpu'] == d['wall'] for d in data)}")
        print()


if __name__ == "__main__":
    main()
