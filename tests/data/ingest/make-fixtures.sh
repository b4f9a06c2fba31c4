#!/bin/bash
# Produces the real-BenchExec fixtures of tests/ingest_fixtures.rs (run once;
# the outputs are committed). Needs benchexec (scripts/install-deps), z3 and a
# release build of smtcomp-trace-executor. Runs take about a minute.
#
#   tests/data/ingest/make-fixtures.sh
#
# Layout: bx/ holds the tool-info modules, fixture solvers, generated tasks
# and benchmark definitions; real/ receives BenchExec's output
# (`--startTime 2025-06-01 12:00:00`, so file names are fixed). The broken
# inputs (broken/) are hand-edited copies made at the end of this script.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
venv=${SMTCOMP_TOOLS:-$HOME/.local/share/smtcomp-tools/venv}
bx="$here/bx"
cd "$bx"
Z3=$(command -v z3 || echo "$venv/bin/z3")
[ -x "$Z3" ] || Z3="$venv/bin/z3"
cp "$repo/target/release/smtcomp-trace-executor" bin/
: > smt.prp

task() { # task DIR/NAME 'yaml extra' 'smt2 body'
  local path=$1 extra=$2 body=$3
  mkdir -p "$(dirname "$path")"
  printf '%s\n' "$body" > "$path.smt2"
  {
    echo "format_version: '2.0'"
    echo "input_files: '$(basename "$path").smt2'"
    printf '%s\n' "$extra" | sed '/^$/d'
  } > "$path.yml"
}
prop() { # expected verdict line(s)
  if [ -n "$1" ]; then
    printf "properties:\n  - property_file: '%s'\n    expected_verdict: %s\n" "$2" "$1"
  else
    printf "properties:\n  - property_file: '%s'\n" "$2"
  fi
}
SAT='(set-logic QF_LIA)
(declare-fun x () Int)
(assert (> x 2))
(check-sat)
(exit)'
UNSAT='(set-logic QF_LIA)
(declare-fun x () Int)
(assert (> x 2))
(assert (< x 1))
(check-sat)
(exit)'
mode() { printf '; fx-mode: %s\n(set-logic QF_UF)\n(check-sat)\n' "$1"; }
P=../../smt.prp
rm -rf tasks uc mv pe inc
# single query: every status kind
task tasks/QF_LIA/1_sat "$(prop true $P)" "$SAT"
task tasks/QF_LIA/2_unsat "$(prop false $P)" "$UNSAT"
task tasks/QF_LIA/3_wrong "$(prop false $P)" "$SAT"
task tasks/QF_LIA/4_nostatus "$(prop '' $P)" "$SAT"
task tasks/QF_BV/5_timeout "$(prop true $P)" "$(mode timeout)"
task tasks/QF_BV/6_satthenhang "$(prop true $P)" "$(mode sat-then-hang)"
task tasks/QF_BV/7_oom "$(prop true $P)" "$(mode oom)"
task tasks/QF_BV/8_segv "$(prop true $P)" "$(mode segv)"
task tasks/QF_UF/9_exit3 "$(prop true $P)" "$(mode exit3)"
task tasks/QF_UF/10_error "$(prop true $P)" "$(mode error)"
task tasks/QF_UF/11_unknown "$(prop true $P)" "$(mode unknown)"
task tasks/QF_UF/12_failed "$(prop true $P)
options:
  mode: failed" "$SAT"
task tasks/QF_UF/13_raise "$(prop true $P)
options:
  mode: raise" "$SAT"
task tasks/QF_LIA/dup "$(prop true $P)" "$SAT"
task tasks/QF_BV/dup "$(prop false $P)" "$UNSAT"
# unsat core
UC='(set-option :produce-unsat-cores true)
(set-logic QF_LIA)
(declare-fun x () Int)
(assert (! (> x 2) :named smtcomp1))
(assert (! (> x 0) :named smtcomp2))
(assert (! (< x 1) :named smtcomp3))
(check-sat)
(get-unsat-core)
(exit)'
task uc/QF_LIA/1_real "$(prop false $P)" "$UC"
task uc/QF_UF/2_quoted "$(prop false $P)" "$(mode uc-quoted)"
task uc/QF_UF/3_empty "$(prop false $P)" "$(mode uc-empty)"
task uc/QF_UF/4_two "$(prop false $P)" "$(mode uc-two)"
task uc/QF_UF/5_unsupported "$(prop false $P)" "$(mode uc-unsupported)"
task uc/QF_LIA/6_sat "$(prop true $P)" "$SAT"
# model validation
MV='(set-option :produce-models true)
(set-logic QF_LIA)
(declare-fun x () Int)
(declare-fun y () Int)
(assert (> x 2))
(assert (= y (+ x 1)))
(check-sat)
(get-model)
(exit)'
task mv/QF_LIA/1_model "$(prop true $P)" "$MV"
task mv/QF_LIA/2_unsat "$(prop false $P)" "$UNSAT"
# proof exhibition
task pe/QF_UF/1_valid "$(prop false $P)" "$(mode proof-valid)"
task pe/QF_UF/2_invalid "$(prop false $P)" "$(mode proof-invalid)"
# incremental (trace-executor input: expected answers, marker, script)
inc() { # inc NAME 'expected...' 'solver answers'
  mkdir -p inc/QF_LIA
  { for a in $2; do echo "$a"; done
    echo '--- BENCHMARK BEGINS HERE ---'
    echo "(set-info :fx-answers \"$3\")"
    echo '(set-logic QF_LIA)'
    for a in $2; do echo '(push 1)'; echo '(check-sat)'; echo '(pop 1)'; done
    echo '(exit)'; } > "inc/QF_LIA/$1.smt2"
  printf "format_version: '2.0'\ninput_files: '%s.smt2'\nproperties:\n  - property_file: '../../smt.prp'\n" "$1" > "inc/QF_LIA/$1.yml"
}
inc 1_ok "sat unsat sat" "sat unsat sat"
inc 2_wrong "sat sat sat" "sat unsat sat"
inc 3_hang "sat sat sat" "sat"
inc 4_unknown "sat unsat" "unknown unsat"

def() { # def FILE TOOL RUNDEF-NAME INCLUDE-DIR [options...]
  local file=$1 tool=$2 name=$3 dir=$4; shift 4
  {
    echo '<?xml version="1.0"?>'
    echo '<!DOCTYPE benchmark PUBLIC "+//IDN sosy-lab.org//DTD BenchExec benchmark 3.30//EN" "https://www.sosy-lab.org/benchexec/benchmark-3.30.dtd">'
    echo "<benchmark tool=\"tools.$tool\" timelimit=\"2s\" hardtimelimit=\"3s\" memlimit=\"200MB\" cpuCores=\"1\">"
    echo "  <rundefinition name=\"$name\">"
    for o in "$@"; do echo "    <option>$o</option>"; done
    echo "  </rundefinition>"
    echo "  <tasks name=\"task\">"
    echo "    <include>$dir/*/*.yml</include>"
    echo "    <propertyfile>smt.prp</propertyfile>"
    echo "  </tasks>"
    echo "</benchmark>"
  } > "$file"
}
def fx_SingleQuery.xml fxsmt 'fxsolver,0,SingleQuery' tasks
def fx_UnsatCore.xml fxsmt 'fxsolver,0,UnsatCore' uc
def fx_ModelValidation.xml fxsmt 'fxsolver,0,ModelValidation' mv
def fx_ProofExhibition.xml fxsmt 'fxsolver,0,ProofExhibition' pe
def fx_Incremental.xml fxinc 'fxsolver,0,Incremental' inc "$bx/bin/fx-inc-solver"

out="$here/real"
rm -rf "$out"; mkdir -p "$out"
for d in fx_SingleQuery fx_UnsatCore fx_ModelValidation fx_ProofExhibition fx_Incremental; do
  mkdir -p "$out/$d"
  # Safe invocation (benchexec-formats.md 6.6-6.7): own session, output to a
  # file, hard timeout, then SIGKILL whatever is left in the process group.
  setsid env PYTHONPATH="$bx" PATH="$bx/bin:$(dirname "$Z3"):$PATH" timeout -s KILL 300 \
    "$venv/bin/benchexec" "$d.xml" --tool-directory "$bx" -o "$out/$d/" --no-container \
    --startTime '2025-06-01 12:00:00' >"$out/$d.benchexec.log" 2>&1 </dev/null &
  pid=$!
  wait $pid || { echo "benchexec $d exited with $?"; cat "$out/$d.benchexec.log"; }
  kill -KILL -- -$pid 2>/dev/null || true
  rm -rf "$out/$d"/*.txt
done
rm -f "$out"/*.benchexec.log bin/smtcomp-trace-executor

# Broken inputs: hand-edited copies of the real outputs.
b="$here/broken"
rm -rf "$b"; mkdir -p "$b"/{truncated,corruptzip,missinglog,missingcols,nozip}
sq="$out/fx_SingleQuery/fx_SingleQuery.2025-06-01_12-00-00"
x="results.fxsolver,0,SingleQuery.task.xml.bz2"
# truncated .bz2: the first half of the compressed bytes
n=$(stat -c %s "$sq.$x")
head -c $((n / 2)) "$sq.$x" > "$b/truncated/fx_SingleQuery.2025-06-01_12-00-00.$x"
cp "$sq.logfiles.zip" "$b/truncated/"
# corrupt ZIP: the XML with a ZIP whose bytes are garbage after the first 100
cp "$sq.$x" "$b/corruptzip/"
{ head -c 100 "$sq.logfiles.zip"; head -c 2000 /dev/zero | tr '\0' 'x'; } > "$b/corruptzip/fx_SingleQuery.2025-06-01_12-00-00.logfiles.zip"
# missing log: the UC ZIP without the member of 1_real.yml
uc="$out/fx_UnsatCore/fx_UnsatCore.2025-06-01_12-00-00"
cp "$uc.results.fxsolver,0,UnsatCore.task.xml.bz2" "$b/missinglog/"
cp "$uc.logfiles.zip" "$b/missinglog/"
python3 - "$b/missinglog/fx_UnsatCore.2025-06-01_12-00-00.logfiles.zip" <<'PY'
import sys, zipfile
p = sys.argv[1]
src = zipfile.ZipFile(p).infolist()
data = {i.filename: zipfile.ZipFile(p).read(i) for i in src}
with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED) as z:
    for i in src:
        if not i.filename.endswith(".1_real.yml.log"):
            z.writestr(i, data[i.filename])
PY
# run missing columns: cputime/walltime/memory of 1_sat and the status of
# 2_unsat removed; 4_nostatus loses its category
bzip2 -dc "$sq.$x" | python3 -c '
import re, sys
t = sys.stdin.read()
def strip(run, titles):
    global t
    i = t.index("/tasks/%s\"" % run)
    j = t.index("</run>", i)
    body = t[i:j]
    for title in titles:
        body = re.sub(r"\s*<column title=\"%s\" value=\"[^\"]*\"( hidden=\"true\")?/>" % title, "", body)
    t = t[:i] + body + t[j:]
strip("QF_LIA/1_sat.yml", ["cputime", "walltime", "memory"])
strip("QF_LIA/2_unsat.yml", ["status"])
strip("QF_LIA/4_nostatus.yml", ["category"])
sys.stdout.write(t)' | bzip2 > "$b/missingcols/fx_SingleQuery.2025-06-01_12-00-00.$x"
cp "$sq.logfiles.zip" "$b/missingcols/"
# no ZIP at all next to the XML
cp "$sq.$x" "$b/nozip/"
echo "fixtures written to $out and $b"
