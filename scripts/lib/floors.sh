# shellcheck shell=bash
# The ingestion floors of issue 39 for the same bytes, sourced by
# scripts/bench-ingest and scripts/bench-competition: the result XMLs of DIR
# through the fastest known bzip2 decoder on every core (`lbzip2 -dc -n nproc`;
# without lbzip2, `bzip2 -dc` in nproc processes), the log ZIPs through
# `unzip -p` in nproc processes. Output on stdout.
xml_floor() {
  if command -v lbzip2 > /dev/null; then
    find "$1" -name '*.xml.bz2' -print0 | sort -z | xargs -0 cat | lbzip2 -dc -n "$(nproc)"
  else
    find "$1" -name '*.xml.bz2' -print0 | xargs -0 -n 10 -P "$(nproc)" bzip2 -dc
  fi
}
log_floor() {
  find "$1" -name '*.logfiles.zip' -print0 |
    xargs -0 -n 10 -P "$(nproc)" sh -c 'for z; do unzip -p "$z"; done' _
}
xml_floor_name=$(command -v lbzip2 > /dev/null && echo "lbzip2 -dc -n $(nproc)" || echo "bzip2 -dc x$(nproc)")
# secs_of CMD...: wall seconds of CMD, its output discarded.
secs_of() { local t0 t1; t0=$(date +%s.%N); "$@" > /dev/null; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }
