#!/usr/bin/env bash
# Per-call overhead of the tracer (libiosage-trace.so), three ways:
#
#   1. end to end: 10^6 x 4 KiB pwrite to a file in /tmp, one process
#      without and one with LD_PRELOAD (best of ROUNDS runs each);
#   2. paired: one traced process alternating blocks of 1000 calls through
#      the wrapper and straight to libc (median of ROUNDS runs);
#   3. bookkeeping alone: the wrapper's work without the system call
#      (clock reads, checks, lock, counters; median of ROUNDS runs).
#
# On a quiet machine 1 and 2 agree with 3; on a busy or virtual one the
# system call's own noise (hundreds of ns) hides the difference in 1 and 2,
# and 3 is the figure to quote.
#
#   trace/bench/overhead.sh [BUILD_DIR]        (default: build)
#   COUNT=1000000 ROUNDS=5 trace/bench/overhead.sh build
set -euo pipefail
build=${1:-build}
count=${COUNT:-1000000}
rounds=${ROUNDS:-5}
bench="$build/trace/iosage-trace-overhead"
book="$build/trace/iosage-trace-book-bench"
lib="$build/trace/libiosage-trace.so"
for f in "$bench" "$book" "$lib"; do
  [ -e "$f" ] || { echo "overhead.sh: $f not found (build first)" >&2; exit 1; }
done
tmp=$(mktemp -d /tmp/iosage-overhead.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

traced() { LD_PRELOAD="$lib" IOSAGE_LOG="$tmp/bench.darshan" "$@"; }
min() { sort -g | head -1; }
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

: >"$tmp/plain"; : >"$tmp/traced"; : >"$tmp/paired"; : >"$tmp/book"
for ((i = 0; i < rounds; i++)); do
  "$bench" -n "$count" -f "$tmp/f" | awk '{print $5}' >>"$tmp/plain"
  traced "$bench" -n "$count" -f "$tmp/f" | awk '{print $5}' >>"$tmp/traced"
  traced "$bench" -p -n "$count" -f "$tmp/f" | awk '{print $10}' >>"$tmp/paired"
  "$book" -n $((count * 10)) | awk '{print $3}' >>"$tmp/book"
done
[ -s "$tmp/bench.darshan" ] || { echo "overhead.sh: the traced run wrote no log" >&2; exit 1; }
p=$(min <"$tmp/plain"); t=$(min <"$tmp/traced")
pd=$(median <"$tmp/paired"); bk=$(median <"$tmp/book")
awk -v p="$p" -v t="$t" -v pd="$pd" -v bk="$bk" -v n="$count" -v r="$rounds" 'BEGIN {
  printf "iosage tracer overhead (%d x 4 KiB pwrite to /tmp, %d rounds)\n", n, r
  printf "  end to end, without tracer   %8.1f ns/call (best)\n", p
  printf "  end to end, with tracer      %8.1f ns/call (best)\n", t
  printf "  end to end, difference       %8.1f ns/call\n", t - p
  printf "  paired in one process        %8.1f ns/call (median)\n", pd
  printf "  bookkeeping per traced call  %8.1f ns/call (median)\n", bk
}'
