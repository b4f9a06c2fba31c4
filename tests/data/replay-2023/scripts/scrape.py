#!/usr/bin/env python3
"""Scrape the published SMT-COMP 2023 Parallel and Cloud result pages
(archive/2023/results/*-{parallel,cloud}.html of SMT-COMP/smt-comp.github.io)
into the structure of tests/data/scoring/published-2025-parallel.json.

Per page: {"title", "benchmarks", "non_competitive", "tables", "winners"} as in
2025, plus 2023-only keys: "experimental" (the page says "This track is
experimental ... no winner is selected"), "time_limit", "memory_limit",
"generated", "heading", "logics" (division pages: logic -> benchmarks), and on
the summary page "rankings" (division -> scheme -> ranked solver list).

Columns the 2023 pages do not show are null: "cpu" everywhere (only "Wall Time
Score" is shown), "abstained" in the parallel and twentyfour tables (only the
sat/unsat tables have an "N/A" column).
"""
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser

REPO = os.environ.get("SMTCOMP_WEBSITE_REPO", "/work/.mirror/SMT-COMP+smt-comp.github.io/repo")  # git dir of SMT-COMP/smt-comp.github.io
OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

COLS = {
    "Error Score": "error",
    "Correct Score": "correct",
    "CPU Time Score": "cpu",
    "Wall Time Score": "wall",
    "Solved": "solved",
    "Solved SAT": "solved_sat",
    "Solved UNSAT": "solved_unsat",
    "Unsolved": "unsolved",
    "N/A": "abstained",
    "Abstained": "abstained",
    "Timeout": "timeout",
    "Memout": "memout",
}
FLOAT_COLS = {"cpu", "wall"}
ALL_FIELDS = ["abstained", "competing", "correct", "cpu", "error", "memout", "solved",
              "solved_sat", "solved_unsat", "solver", "timeout", "unsolved", "wall"]


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text = []          # all text, for regexes
        self.tables = []        # [{"id", "head": [...], "rows": [[cell...]], "row_attrs": []}]
        self.cur = None
        self.cell = None
        self.in_th = False
        self.h = None
        self.headings = []      # (tag, text, href)
        self.href = None
        self.sup = False
        self.cell_sup = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.cur = {"id": a.get("id"), "head": [], "rows": [], "row_cls": [],
                        "after": self.headings[-1] if self.headings else None}
            self.tables.append(self.cur)
        elif tag == "tr" and self.cur is not None:
            self.cur["rows"].append([])
            self.cur["row_cls"].append(a.get("class"))
        elif tag in ("td", "th") and self.cur is not None:
            self.cell = []
            self.in_th = tag == "th"
            self.cell_sup = []
        elif tag in ("h1", "h2", "h3"):
            self.h = [tag, [], None]
        elif tag == "a":
            self.href = a.get("href")
            if self.h is not None:
                self.h[2] = self.href
        elif tag == "sup":
            self.sup = True

    def handle_endtag(self, tag):
        if tag == "table":
            self.cur = None
        elif tag in ("td", "th") and self.cur is not None and self.cell is not None:
            txt = " ".join("".join(self.cell).split())
            if self.in_th:
                self.cur["head"].append(txt)
            else:
                self.cur["rows"][-1].append((txt, list(self.cell_sup)))
            self.cell = None
        elif tag in ("h1", "h2", "h3") and self.h is not None:
            self.headings.append((self.h[0], " ".join("".join(self.h[1]).split()), self.h[2]))
            self.h = None
        elif tag == "sup":
            self.sup = False

    def handle_data(self, data):
        self.text.append(data)
        if self.cell is not None:
            if self.sup:
                self.cell_sup.append(data.strip())
            else:
                self.cell.append(data)
        if self.h is not None:
            self.h[1].append(data)


def num(s, as_float=False):
    if as_float:
        return float(s)
    try:
        return int(s)
    except ValueError:
        return float(s)


def parse_page(name, html):
    p = Page()
    p.feed(html)
    text = " ".join("".join(p.text).split())
    page = {"title": name}
    m = re.search(r"Benchmarks\s*:\s*(\d+)", text)
    page["benchmarks"] = int(m.group(1)) if m else None
    # 2023 pages never mark a division non-competitive (no badge, no text).
    page["non_competitive"] = False
    page["experimental"] = "This track is experimental" in text
    m = re.search(r"Time Limit:\s*(\d+)\s*seconds", text)
    page["time_limit"] = int(m.group(1)) if m else None
    m = re.search(r"Memory Limit:\s*(\S+)\s*GB", text)
    page["memory_limit"] = m.group(1) if m else None
    m = re.search(r"Page generated on (\S+ \S+ \S+)", text)
    page["generated"] = m.group(1) if m else None
    h2 = [h for h in p.headings if h[0] == "h2"]
    page["heading"] = h2[0][1] if h2 else None
    m = re.search(r"Logics:(.*?)This track", text)
    if m:
        page["logics"] = {a: int(b) for a, b in
                          re.findall(r"(\S+) : (\d+) benchmarks", m.group(1))}
    tables = {}
    rankings = {}
    for t in p.tables:
        tid = t["id"]
        rows = [r for r in t["rows"] if r]
        if tid in ("parallel", "sat", "unsat", "twentyfour", "sequential"):
            keys = [COLS[h] if h in COLS else h for h in t["head"][1:]]
            out = []
            for r, cls in zip(t["rows"], t["row_cls"]):
                if not r:
                    continue
                d = {f: None for f in ALL_FIELDS}
                d["solver"] = r[0][0]
                d["competing"] = not (cls and "non-competing" in cls) and "n" not in r[0][1]
                assert len(r) == len(keys) + 1, (name, tid, r, keys)
                for k, (v, _) in zip(keys, r[1:]):
                    d[k] = num(v, k in FLOAT_COLS)
                out.append(d)
            if out:
                tables[tid] = out
        elif tid and tid.endswith("-lc"):
            kind = tid[:-3]
            out = []
            assert t["head"] == ["Solver", "Correct Score", "Time Score", "Division"], t["head"]
            for r in rows:
                out.append({"Division": r[3][0].replace("+", "_"),
                            "Division_published": r[3][0],
                            "Time Score": float(r[2][0]),
                            "competing": "n" not in r[0][1],
                            "correct": num(r[1][0]),
                            "solver": r[0][0]})
            if out:
                tables[kind] = out
        elif t["head"] == ["Scoring Scheme", "Ranking"]:
            div = t["after"][1]
            rankings[div] = {r[0][0]: [s.strip() for s in r[1][0].split(",")] for r in rows}
        else:
            raise SystemExit(f"{name}: unknown table {tid} {t['head']}")
    page["tables"] = tables
    # 2023 pages of these tracks name no winner anywhere (experimental track).
    page["winners"] = {}
    if rankings:
        page["rankings"] = rankings
    return page


MD_KEYS = {"winner_seq": "Sequential Performance", "winner_par": "Parallel Performance",
           "winner_sat": "SAT Performance", "winner_unsat": "UNSAT Performance",
           "winner_24s": "24 seconds Performance"}


MD_COMMIT = "4b9b91a9"  # smt-comp.github.io: last commit with _results_2023/*.md


def md_winners():
    """winner_* fields of the Jekyll sources (_results_2023/*.md at
    smt-comp.github.io 4b9b91a9): computed by score.py but NOT shown, because
    _layouts/result.html prints them only when the track status is not
    "experimental" (_data/tracks.yml: track_cloud/track_parallel experimental)."""
    out = {}
    files = subprocess.run(["git", "-C", REPO, "ls-tree", "-r", "--name-only", MD_COMMIT,
                            "_results_2023/"], capture_output=True, text=True,
                           check=True).stdout.split()
    for f in files:
        fn = os.path.basename(f)
        if not re.search(r"-(parallel|cloud)\.md$", fn):
            continue
        stem = fn[:-3]
        div, track = stem.rsplit("-", 1)
        if div in ("biggest-lead", "results"):
            name = stem
        else:
            name = div.lower().replace("+", "-").replace("_", "-") + "-" + track
        text = subprocess.run(["git", "-C", REPO, "show", f"{MD_COMMIT}:{f}"],
                              capture_output=True, text=True, check=True).stdout
        w = {}
        for line in text.splitlines():
            m = re.match(r"(winner_\w+): (.*)$", line.strip())
            if m:
                w[MD_KEYS[m.group(1)]] = m.group(2).strip().strip('"')
        out[name] = w
    return out


def main():
    mdw = md_winners()
    files = subprocess.run(["git", "-C", REPO, "ls-tree", "-r", "--name-only", "HEAD",
                            "archive/2023/results/"], capture_output=True, text=True,
                           check=True).stdout.split()
    for track in ("parallel", "cloud"):
        pages = {}
        for f in sorted(files):
            base = os.path.basename(f)
            if not base.endswith(f"-{track}.html"):
                continue
            html = subprocess.run(["git", "-C", REPO, "show", f"HEAD:{f}"],
                                  capture_output=True, text=True, check=True).stdout
            name = base[:-len(".html")]
            pages[name] = parse_page(name, html)
            if name in mdw:
                pages[name]["md_winners_not_shown"] = mdw[name]
        path = os.path.join(OUT, f"published-2023-{track}.json")
        with open(path, "w") as fh:
            json.dump(pages, fh, indent=1, sort_keys=True)
        print(path, len(pages))


if __name__ == "__main__":
    sys.exit(main())
