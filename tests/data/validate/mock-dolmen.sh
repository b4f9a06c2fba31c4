#!/bin/sh
# Mock Dolmen (exit codes and last stderr lines as in anchor spec 8.2).
# The model arrives on stdin; the benchmark is the last argument.
for a in "$@"; do bench=$a; done
case "$*" in *--check-model=true*) ;; *) echo "E:missing-check-model" >&2; exit 1 ;; esac
[ -f "$bench" ] || { echo "E:no-benchmark" >&2; exit 1; }
input=$(cat)
case "$input" in
  *WRONG*) echo "F:model E:bad-model" >&2; exit 5 ;;
  *PARTIAL*) echo "E:partial-dstr" >&2; exit 1 ;;
  *ARRAY*)
    case "$*" in
      *--force-smtlib2-logic=ALL*) exit 0 ;;
      *) echo "E:forbidden-array-sort" >&2; exit 1 ;;
    esac ;;
  *SLOW*) exit 2 ;;
  *STRANGE*) echo "E:something-new" >&2; exit 1 ;;
  sat*) exit 0 ;;
  *) echo "E:parsing-error" >&2; exit 1 ;;
esac
