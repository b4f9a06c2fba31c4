#!/usr/bin/env python3
"""The organizers' 2024 results as replay test data (standard library and git only).

Reads, from the organizers' website repository (a bare git directory, HEAD):
  data/results-{inc,uc,parallel,cloud}-2024.json.gz  (their results files)
  data/benchmarks-2024.json.gz                      (their 2024 inventory)
and writes next to this script's directory:
  results-<track>-2024.json.gz   the same results, compact JSON (no indentation)
  inventory-2024.json.gz         the inventory restricted to the benchmarks those results name
                                 and the one whose results they removed (REMOVED)
  submissions/<solver>.json      stand-in submissions: each solver entered, per track, in
                                 the logics it has results in or a row on the published logic
                                 page of (published-2024-<track>.json.gz, from scrape.py: a
                                 Parallel solver is listed, unsolved, on logics only the Cloud
                                 Track ran); the 2024 registrations are not in the repository.
                                 Every solver competitive, each its own team (no 2024 page
                                 marks a solver non-competing)
Deterministic: sorted keys, gzip mtime 0.
"""
import gzip
import json
import os
import re
import subprocess
import sys
from collections import defaultdict

REPO = os.environ.get("SMTCOMP_WEBSITE_REPO", "/work/.mirror/SMT-COMP+smt-comp.github.io/repo")
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACKS = {"inc": "incremental", "uc": "unsat-core", "parallel": "parallel", "cloud": "cloud"}
# Their 2024 Config.removed_results ("wrong status in SMTLIB"): results removed after the
# runs; the Unsat Core pages still count the benchmark (scoring::editions::p2024).
REMOVED = [(False, "QF_BV", ("20230221-oisc-gurtner",), "SLL-NESTED-8-32-sp-not-excluded.smt2")]
TRACK_NAME = {"incremental": "Incremental", "unsat-core": "UnsatCore",
              "parallel": "Parallel", "cloud": "Cloud"}
SUBMISSION_TRACK = {"Incremental": "Incremental", "UnsatCore": "UnsatCore",
                    "Parallel": "Parallel", "Cloud": "Cloud"}


def git_json_gz(path):
    raw = subprocess.run(["git", "-C", REPO, "show", f"HEAD:{path}"], check=True,
                         capture_output=True).stdout
    return json.loads(gzip.decompress(raw))


def write_gz(name, value):
    data = json.dumps(value, sort_keys=True, separators=(",", ":")).encode() + b"\n"
    with open(os.path.join(HERE, name), "wb") as f:
        with gzip.GzipFile(fileobj=f, mode="wb", mtime=0, compresslevel=9) as g:
            g.write(data)


def key(file):
    return (bool(file["incremental"]), file["logic"], tuple(file["family"]), file["name"])


def main():
    used = set()
    entered = defaultdict(lambda: defaultdict(set))  # solver -> track -> logics
    for short, track in TRACKS.items():
        results = git_json_gz(f"data/results-{short}-2024.json.gz")
        for r in results["results"]:
            used.add(key(r["file"]))
            entered[r["solver"]][r["track"]].add(r["file"]["logic"])
        write_gz(f"results-{track}-2024.json.gz", results)
        print(f"results-{track}-2024.json.gz: {len(results['results'])} runs", file=sys.stderr)
    logics = {b[1].lower(): b[1] for b in used}
    for short, track in TRACKS.items():
        pages = os.path.join(HERE, f"published-2024-{track}.json.gz")
        for name, page in json.load(gzip.open(pages)).items():
            logic = logics.get(name.rsplit("-" + track, 1)[0])
            if logic is None or "logics" in page:
                continue  # a division, recognition or summary page
            for rows in page.get("tables", {}).values():
                for row in rows:
                    entered[row["solver"]][TRACK_NAME[track]].add(logic)
    used.update(REMOVED)
    inventory = git_json_gz("data/benchmarks-2024.json.gz")
    kept = {}
    for part, entries in inventory.items():
        if isinstance(entries, list):
            kept[part] = [e for e in entries if key(e["file"]) in used]
        else:
            kept[part] = entries
    write_gz("inventory-2024.json.gz", kept)
    n = sum(len(v) for v in kept.values() if isinstance(v, list))
    print(f"inventory-2024.json.gz: {n} of the {len(used)} benchmarks run", file=sys.stderr)
    subs = os.path.join(HERE, "submissions")
    os.makedirs(subs, exist_ok=True)
    for solver, tracks in sorted(entered.items()):
        sub = {
            "name": solver,
            "contributors": [f"{solver} authors"],
            "contacts": ["SMT-COMP organizers <smt-comp@cs.nyu.edu>"],
            "archive": {"url": "https://example.org/smt-comp-2024-replay.tar.gz"},
            "website": "https://smt-comp.github.io/2024/participants/",
            "system_description": "https://smt-comp.github.io/2024/participants/",
            "command": ["./run"],
            "solver_type": "Standalone",
            "participations": [
                {"tracks": [SUBMISSION_TRACK[t]], "logics": sorted(logics)}
                for t, logics in sorted(tracks.items())
            ],
            "seed": 1,
            "competitive": True,
            "final": False,
        }
        name = re.sub(r"[^A-Za-z0-9._+-]", "_", solver)
        with open(os.path.join(subs, f"{name}.json"), "w") as f:
            json.dump(sub, f, indent=2, sort_keys=True)
            f.write("\n")
    print(f"submissions/: {len(entered)} stand-ins", file=sys.stderr)


if __name__ == "__main__":
    main()
