#!/usr/bin/env bash
# make bench: how fast iosage reads and dumps the shared Darshan log corpus.
#
#   scripts/bench.sh BUILD/iosage
#
# Reports (1) the time to load every log into memory (in one process, best of
# 5 rounds) and (2) the wall time of `iosage dump --all` run once per log, one
# process each, sequentially and two at a time. The reference figure for
# darshan-parser 3.5.0 --all on the same 94 readable logs, one process each,
# on this kind of 2-core machine is about 2.4 s wall.
set -euo pipefail
iosage=${1:-build/iosage}
builddir=$(dirname "$iosage")
shared=${IOSAGE_SHARED_LOGS:-$(cd "$(dirname "$0")/.." && pwd)/../shared/darshan-logs}
if [ ! -d "$shared" ]; then
  echo "bench: $shared not found; nothing to measure" >&2
  exit 0
fi
mapfile -t logs < <(find "$shared" -maxdepth 1 -name '*.darshan' | sort)
echo "corpus: ${#logs[@]} logs in $shared"

"$builddir/tests/bench_read" -r 5 "${logs[@]}"

timeit() { # prints wall seconds of "$@"
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || true
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}
dump_all() { for l in "${logs[@]}"; do TZ=UTC "$iosage" dump --all "$l" >/dev/null 2>&1 || true; done; }
dump_par() { printf '%s\0' "${logs[@]}" | TZ=UTC xargs -0 -n1 -P2 "$iosage" dump --all >/dev/null 2>&1 || true; }
best_seq=999 best_par=999
for _ in 1 2 3; do
  t=$(timeit dump_all); best_seq=$(awk -v a="$t" -v b="$best_seq" 'BEGIN { print (a < b) ? a : b }')
  t=$(timeit dump_par); best_par=$(awk -v a="$t" -v b="$best_par" 'BEGIN { print (a < b) ? a : b }')
done
printf 'dump --all: %d logs, one process each: %.3f s sequential, %.3f s two at a time (best of 3)\n' \
  "${#logs[@]}" "$best_seq" "$best_par"
printf 'reference: darshan-parser 3.5.0 about 2.4 s wall; speed-up %.1fx (sequential)\n' \
  "$(awk -v t="$best_seq" 'BEGIN { print 2.4 / t }')"
