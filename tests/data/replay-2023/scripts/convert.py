#!/usr/bin/env python3
"""Convert the SMT-COMP 2023 AWS (Parallel, Cloud) runs to the results format.

Follows 2023/results/aws/join.py of SMT-COMP/smt-comp exactly:
  * each per-solver file `<track>-<solver>.adjust-smt.csv.gz` is read with
    columns (benchmark, millisecond, result), header skipped;
  * cpu time = wallclock time = millisecond / 1000;
  * result: "sat" -> sat, "unsat" -> unsat, anything else (infrastructure_timeout,
    unknown, error, failure) -> starexec-unknown, written here as "unknown";
  * status = "complete" for every run (so no run is a timeout/memout for the
    1200 s scoring: see NOTES.md);
  * benchmark: strip "/home/mww/smtcomp/2023/benchmarks/aws_selection_2023/<track>",
    look the rest up in <track>-pairs.csv.gz (key "input file", value
    "original name", the solver column is ignored), replace "/non-incremental/"
    by "./".

Extra top-level fields (ignored by the Rust RunRecord reader, which does not deny
unknown fields): "aws_result" (the raw AWS answer) and "input_file" (the scrambled
name the solver actually ran on), so that duplicated benchmarks stay
distinguishable.

Also writes inventory-aws-2023.json: the selected benchmarks with the status the
organizers scored with (SMT-LIB_non_incremental_benchmarks_all_assertions.csv,
overridden by results/sq-disagreements-decision.csv as
tools/process-results/process_results.py does) and the number of asserts.
"""
import csv
import gzip
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
RAW = os.path.join(OUT, "raw")
REPO = os.environ.get("SMTCOMP_ORGANIZERS_REPO", "/work/.mirror/SMT-COMP+smt-comp/repo")  # git dir of SMT-COMP/smt-comp

PREFIX = "/home/mww/smtcomp/2023/benchmarks/aws_selection_2023/"

TRACKS = [
    ("cloud", "Cloud", [("cloud-vampire.adjust-smt.csv.gz", "Vampire"),
                        ("cloud-cvc5.adjust-smt.csv.gz", "cvc5")]),
    ("parallel", "Parallel", [("parallel-vampire.adjust-smt.csv.gz", "Vampire"),
                              ("parallel-iprover.adjust-smt.csv.gz", "iProver"),
                              ("parallel-z3-owl.adjust-smt.csv.gz", "Z3-Owl")]),
]


def convert_result(r):
    # join.py convert_result: sat/unsat kept, everything else starexec-unknown
    if r == "sat":
        return "sat"
    if r == "unsat":
        return "unsat"
    return "unknown"


def smt2file(smtlib_name):
    # "./LOGIC/fam1/fam2/name.smt2"
    assert smtlib_name.startswith("./"), smtlib_name
    parts = smtlib_name[2:].split("/")
    return {"incremental": False, "logic": parts[0], "family": parts[1:-1],
            "name": parts[-1]}


def load_pairs(track):
    pairs = {}
    with gzip.open(os.path.join(RAW, f"{track}-pairs.csv.gz"), "rt") as f:
        for row in csv.DictReader(f):
            # join.py: pairs[input file] = original name (last one wins; all agree)
            old = pairs.get(row["input file"])
            assert old is None or old == row["original name"]
            pairs[row["input file"]] = row["original name"]
    return pairs


def load_expected(names):
    """status from the 2023 benchmark list, overridden by the decisions file."""
    cmd = (f"git -C {REPO} show HEAD:2023/prep/SMT-LIB_benchmarks.tar.xz | xz -dc | "
           "tar xO SMT-LIB_non_incremental_benchmarks_all_assertions.csv")
    p = subprocess.Popen(cmd, shell=True, stdout=subprocess.PIPE, text=True)
    exp = {}
    for row in csv.DictReader(p.stdout):
        if row["benchmark"] in names:
            exp[row["benchmark"]] = (row["status"], int(row["number of asserts"]))
    p.wait()
    decided = {}
    with open(os.path.join(RAW, "sq-disagreements-decision.csv")) as f:
        rd = csv.reader(f)
        next(rd)
        for line in rd:
            decided[line[0]] = line[1]
    out = {}
    for b, (st, na) in exp.items():
        d = decided.get(b[2:])
        out[b] = {"status_smtlib": st, "status": d if d else st,
                  "decided": d is not None, "asserts": na}
    return out


def main():
    all_names = set()
    per_track = {}
    for track, Track, files in TRACKS:
        pairs = load_pairs(track)
        runs = []
        for fname, solver in files:
            with gzip.open(os.path.join(RAW, fname), "rt") as f:
                rd = csv.reader(f)
                next(rd)  # header=0 with names=columns: the header line is dropped
                for bench, ms, res in rd:
                    ms = int(ms)  # pandas parses " 6150" as int 6150
                    res = res.strip()
                    comp = bench.removeprefix(PREFIX + track)
                    orig = pairs[comp].replace("/non-incremental/", "./")
                    all_names.add(orig)
                    t = ms / 1000.0
                    runs.append({
                        "track": Track,
                        "solver": solver,
                        "file": smt2file(orig),
                        "result": convert_result(res),
                        "cpu_time": t,
                        "wallclock_time": t,
                        "memory_usage": 0.0,
                        "nb_answers": None,
                        "aws_result": res,
                        "input_file": comp,
                    })
        per_track[track] = runs
        path = os.path.join(OUT, f"results-{track}-2023.json.gz")
        with gzip.GzipFile(path, "wb", mtime=0) as g:
            g.write(json.dumps({"results": runs}, indent=None,
                               separators=(",", ":")).encode())
        print(path, len(runs))

    exp = load_expected(all_names)
    assert set(exp) == all_names, all_names - set(exp)
    inv = {"incremental": [], "non_incremental": []}
    for b in sorted(exp):
        e = exp[b]
        inv["non_incremental"].append({"file": smt2file(b), "status": e["status"],
                                       "asserts": e["asserts"]})
    with gzip.GzipFile(os.path.join(OUT, "inventory-aws-2023.json.gz"), "wb", mtime=0) as g:
        g.write(json.dumps(inv, separators=(",", ":")).encode())
    with gzip.GzipFile(os.path.join(OUT, "raw", "expected.json.gz"), "wb", mtime=0) as g:
        g.write(json.dumps(exp, indent=0, sort_keys=True).encode())
    print("benchmarks", len(exp), "decided", sum(e["decided"] for e in exp.values()))


if __name__ == "__main__":
    sys.exit(main())
