#!/bin/sh
# smtcomp_checker BENCHMARK SOLVER_OUTPUT for cvc5's internal proof format
# (used by tests/proof_wrapper_cvc5.rs).
#
# The proof is accepted (`valid`) iff cvc5 with its built-in proof checker
# (--check-proofs) re-solves the benchmark as unsat, its checker accepts the
# proof it produced, and that output is byte-identical to the submitted one
# (cvc5 is deterministic). Otherwise the proof is `invalid`. A `sat` answer
# gives `sat`; anything else (unknown, error, unsat without proof) `unknown`.
CVC5=${CVC5:-cvc5}
bench=$1
out=$2
case "$(head -n 1 "$out")" in
  unsat) ;;
  sat) echo sat; exit 0 ;;
  *) echo unknown; exit 0 ;;
esac
lines=$(wc -l < "$out")
if [ "$lines" -le 1 ]; then echo unknown; exit 0; fi
ref=$(mktemp) || exit 1
trap 'rm -f "$ref"' EXIT
if "$CVC5" --lang smt2 --check-proofs "$bench" > "$ref" && cmp -s "$ref" "$out"; then
  echo valid
else
  echo invalid
fi
echo "proof_lines=$((lines - 1))"
echo "checked_by=cvc5-check-proofs"
