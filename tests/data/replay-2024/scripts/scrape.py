#!/usr/bin/env python3
"""Scrape the published SMT-COMP result pages (Hugo; archive/<year>/results/<page>/index.html
of SMT-COMP/smt-comp.github.io, HEAD) into the structure of the hand-made references
published-2025-{incremental,parallel}.json read by tests/it/scoring_replay.rs.

Per page: {"title", "benchmarks", "non_competitive", "tables": {kind: [row]}, "winners"}.
A row holds "solver", "competing" and one key per column the page shows (COLS; a column
not in COLS keeps its header text, e.g. "Division", "Time Score"). Numbers stay numbers
("-" or empty is null); cpu/wall are floats; counts are ints, also where the 2024 pages
print them in exponent form ("2.370581e+06", Go's shortest float format, exact).
Reproduced quirk of the references: in best-overall rows the contribution <td> is nested
inside the solver <td>, so a cell restarts at every <td>: "solver" holds the contribution
(as text), the solver name and the "Contribution" key are lost.
Added keys, absent from the references: "<col>_over_base" (2025 rows of derived solvers:
"4228444 (base +1576)" gives correct 4228444, correct_over_base 1576), "logics" (division
pages: logic -> benchmarks) and "rankings" (results-<track> summary page: division ->
scheme -> {"winner", "ranking"}).

  scrape.py [--year 2024] [--tracks incremental unsat-core parallel cloud] [--out DIR]
  scrape.py --check-2025   # 2025 incremental + parallel vs the references; exit 1 if any differ
  scrape.py --site-dir DIR --out OUT [--tracks ...]
      # pages of a Hugo build instead (DIR/results/<page>/index.html, DIR = its public/ dir),
      # written to OUT/scraped-<track>.json.gz; with --check-2025: that build vs the references
      # (scripts/check-website builds our export into the organizers' site and reads it so)
"""
import argparse
import gzip
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser

REPO = os.environ.get("SMTCOMP_WEBSITE_REPO",
                      "/work/.mirror/SMT-COMP+smt-comp.github.io/repo")
REF_DIR = os.environ.get("PUBLISHED_2025_DIR", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "scoring"))
OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACKS = ["incremental", "unsat-core", "parallel", "cloud"]

COLS = {"Solver": "solver", "Error Score": "error", "Correct Score": "correct",
        "CPU Time Score": "cpu", "Wall Time Score": "wall", "Solved": "solved",
        "Solved SAT": "solved_sat", "Solved UNSAT": "solved_unsat", "Unsolved": "unsolved",
        "Abstained": "abstained", "Timeout": "timeout", "Memout": "memout"}
TEXT_COLS = {"solver", "Division"}
FLOAT_COLS = {"cpu", "wall"}
COUNT_COLS = {"error", "correct", "solved", "solved_sat", "solved_unsat", "unsolved", "abstained",
              "timeout", "memout"}
KINDS = {"sequential", "parallel", "sat", "unsat", "twentyfour"}


def ws(s):
    return " ".join(s.split())


class Page(HTMLParser):
    """Tables (id, header, rows of (text, sup text), row class, preceding <h3>), <h1> text
    and the page text. A cell restarts at every <td> and ends at the first </td>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text, self.tables, self.h1 = [], [], ""
        self.cur = self.cell = self.heading = None
        self.h3, self.in_h1, self.sup, self.is_th = "", False, False, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.cur = {"id": a.get("id"), "head": [], "rows": [], "after": self.h3}
            self.tables.append(self.cur)
        elif tag == "tr" and self.cur is not None:
            self.cur["rows"].append({"cls": a.get("class") or "", "cells": []})
        elif tag in ("td", "th") and self.cur is not None:
            self.cell, self.sup_text, self.is_th = [], [], tag == "th"
        elif tag == "h1":
            self.in_h1 = True
        elif tag == "h3":
            self.heading = []
        elif tag == "sup":
            self.sup = True

    def handle_endtag(self, tag):
        if tag == "table":
            self.cur = None
        elif tag in ("td", "th") and self.cell is not None and self.cur is not None:
            if self.is_th:
                self.cur["head"].append(ws("".join(self.cell)))
            else:
                self.cur["rows"][-1]["cells"].append((ws("".join(self.cell)), self.sup_text))
            self.cell = None
        elif tag in ("h1", "h2"):  # 2024 pages close <h1> of the rankings with </h2>
            self.in_h1 = False
        elif tag == "h3" and self.heading is not None:
            self.h3, self.heading = ws("".join(self.heading)), None
        elif tag == "sup":
            self.sup = False

    def handle_data(self, data):
        self.text.append(data)
        if self.in_h1:
            self.h1 += data
        if self.heading is not None:
            self.heading.append(data)
        if self.cell is not None:
            (self.sup_text if self.sup else self.cell).append(data)


def num(key, s):
    if s in ("", "-"):
        return None
    if key in FLOAT_COLS:
        return float(s)
    try:
        return int(s)
    except ValueError:
        v = float(s)
    return int(v) if key in COUNT_COLS and v.is_integer() else v


def row_dict(keys, r):
    d = {"competing": "non-competing" not in r["cls"]
         and not any("n" in x for _, sup in r["cells"] for x in sup)}
    assert len(r["cells"]) <= len(keys), (keys, r)
    for k, (v, _) in zip(keys, r["cells"]):
        m = re.fullmatch(r"(\S+) \(base ([+-]\d+)\)", v)  # 2025: derived solver
        if m and k not in TEXT_COLS:
            v, d[k + "_over_base"] = m.group(1), int(m.group(2))
        d[k] = v if k in TEXT_COLS else num(k, v)
    return d


def parse_page(name, html):
    p = Page()
    p.feed(html)
    text = ws("".join(p.text))
    m = re.search(r"Benchmarks\s*:\s*(\d+)", text)
    page = {"title": name, "benchmarks": int(m.group(1)) if m else None,
            "non_competitive": "non-competitive" in p.h1, "tables": {}, "winners": {}}
    m = re.search(r"Logics:(.*?)(Winners|$)", text)
    if m:
        page["logics"] = {a: int(b) for a, b in re.findall(r"(\S+) : (\d+) benchmarks", m.group(1))}
    rankings = {}
    for t in p.tables:
        rows = [r for r in t["rows"] if r["cells"]]
        if t["id"] in KINDS:
            keys = [COLS.get(h, h) for h in t["head"]]
            out = [row_dict(keys, r) for r in rows]
            if out:
                page["tables"][t["id"]] = out
        elif t["head"] == ["Scoring Scheme", "Winner", "Ranking"]:
            rankings[t["after"]] = {
                r["cells"][0][0]: {"winner": r["cells"][1][0],
                                   "ranking": [s.strip() for s in r["cells"][2][0].split(",")
                                               if s.strip()]} for r in rows}
        elif t["id"] is None and not page["winners"] and len(rows) == 1:
            page["winners"] = dict(zip(t["head"], (c for c, _ in rows[0]["cells"])))
        else:
            raise SystemExit(f"{name}: unknown table {t['id']} {t['head']}")
    if rankings:
        page["rankings"] = rankings
    return page


def git(*args):
    return subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True,
                          check=True).stdout


def scrape(year, track, site_dir=None):
    """Pages of one track: archive/<year>/results/ at the mirror's HEAD, or with site_dir the
    Hugo output DIR/results/<page>/index.html (year unused)."""
    pages = {}
    if site_dir is not None:
        root = os.path.join(site_dir, "results")
        for d in sorted(os.listdir(root)) if os.path.isdir(root) else []:
            f = os.path.join(root, d, "index.html")
            if re.fullmatch(rf"[a-z0-9_-]+-{track}", d) and os.path.isfile(f):
                with open(f, encoding="utf-8") as fh:
                    pages[d] = parse_page(d, fh.read())
        return pages
    for f in git("ls-tree", "-r", "--name-only", "HEAD", f"archive/{year}/results/").split():
        m = re.fullmatch(rf"archive/{year}/results/([a-z0-9_-]+-{track})/index\.html", f)
        if m:
            pages[m.group(1)] = parse_page(m.group(1), git("show", f"HEAD:{f}"))
    return pages


def dump(obj):
    return json.dumps(obj, indent=1, sort_keys=True) + "\n"


def write(pages, path):
    with open(path, "wb") as fh:
        with gzip.GzipFile(filename="", mode="wb", fileobj=fh, mtime=0, compresslevel=9) as gz:
            gz.write(dump(pages).encode())


def diff(ours, ref, path, out):
    """Leaf values of ref compared with ours; keys only ours has go to out["extra"]."""
    if isinstance(ref, dict) and isinstance(ours, dict):
        for k in ref:
            diff(ours.get(k, "<missing>"), ref[k], f"{path}/{k}", out)
        for k in ours.keys() - ref.keys():
            out["extra"].setdefault(k, []).append(path)
    elif isinstance(ref, list) and isinstance(ours, list):
        if len(ref) != len(ours):
            out["diff"].append(f"{path}: {len(ours)} entries vs {len(ref)}")
        for i, (a, b) in enumerate(zip(ours, ref)):
            diff(a, b, f"{path}[{i}]", out)
    else:
        out["n"] += 1
        if ours != ref or type(ours) is not type(ref):
            out["diff"].append(f"{path}: {ours!r} vs reference {ref!r}")


def strip(obj, keys):
    if isinstance(obj, dict):
        return {k: strip(v, keys) for k, v in obj.items() if k not in keys}
    return [strip(v, keys) for v in obj] if isinstance(obj, list) else obj


def check_2025(site_dir=None):
    bad = 0
    for track in ("incremental", "parallel"):
        ref_path = os.path.join(REF_DIR, f"published-2025-{track}.json")
        with open(ref_path) as fh:
            ref_text = fh.read()
        ours = scrape(2025, track, site_dir)
        out = {"n": 0, "diff": [], "extra": {}}
        diff(ours, json.loads(ref_text), "", out)
        stripped = strip(ours, set(out["extra"]))
        print(f"{track}: {len(ours)} pages, {out['n']} reference values compared, "
              f"{len(out['diff'])} differ; without the added keys byte-identical to "
              f"{ref_path}: {dump(stripped).rstrip() == ref_text.rstrip()}")
        for k, paths in sorted(out["extra"].items()):
            print(f"  added key {k!r} ({len(paths)} times; not in the reference), e.g. {paths[0]}")
        for d in out["diff"][:20]:
            print("  DIFF", d)
        bad += len(out["diff"])
    return 1 if bad else 0


def summary(pages):
    tables = sum(len(p["tables"]) for p in pages.values())
    rows = sum(len(r) for p in pages.values() for r in p["tables"].values())
    return f"{len(pages)} pages, {tables} tables, {rows} rows"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--year", type=int, default=2024)
    ap.add_argument("--tracks", nargs="+", default=TRACKS, choices=TRACKS)
    ap.add_argument("--out", default=None, help=f"output directory (default {OUT})")
    ap.add_argument("--check-2025", action="store_true")
    ap.add_argument("--site-dir", metavar="DIR",
                    help="read DIR/results/<page>/index.html (a Hugo build) instead of the mirror")
    a = ap.parse_args()
    if a.site_dir is not None and not os.path.isdir(os.path.join(a.site_dir, "results")):
        ap.error(f"--site-dir {a.site_dir}: no results/ directory")
    if a.check_2025:
        return check_2025(a.site_dir)
    if a.site_dir is not None and a.out is None:
        ap.error("--site-dir needs --out (the default --out holds the published pages)")
    for track in a.tracks:
        pages = scrape(a.year, track, a.site_dir)
        name = f"scraped-{track}" if a.site_dir is not None else f"published-{a.year}-{track}"
        path = os.path.join(a.out or OUT, f"{name}.json.gz")
        write(pages, path)
        print(f"{path}: {summary(pages)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
