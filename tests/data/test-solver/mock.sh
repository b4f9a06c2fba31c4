#!/bin/sh
case "$1" in
  inc-unsupported)
    while IFS= read -r line; do
      case "$line" in
        *set-logic*) echo unsupported ;;
        *check-sat*) echo sat ;;
        *) echo success ;;
      esac
    done ;;
  inc-missing-lib)
    echo "mock: error while loading shared libraries: libmock.so.1: cannot open shared object file" >&2
    exit 127 ;;
  inc-segv-later)
    n=0
    while IFS= read -r line; do
      n=$((n + 1))
      if [ "$n" -ge 4 ]; then echo "mock: assertion failed in module Y" >&2; kill -SEGV $$; fi
      echo success
    done ;;
  inc-buffered) cat > /dev/null ;;
  always-sat) echo sat ;;
  segv) echo "mock: fatal error in module X" >&2; kill -SEGV $$ ;;
  short-core) echo unsat; echo "(smtcomp1 smtcomp2 smtcomp3)" ;;
esac
