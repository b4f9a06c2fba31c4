#!/bin/sh
# Mock Unsat-Core solver: answers as z3 does, but drops the first name of
# z3's unsat core (a deliberately wrong core when the core is minimal).
out=$(z3 -smt2 "$1")
printf '%s\n' "$out" | head -n 1
printf '%s\n' "$out" | sed -n '2,$p' | tr '\n' ' ' | sed 's/^ *( *[^ )]*/(/'
echo
