#!/usr/bin/env bash
# make bench, part 4: cost against log size (issue 12). Logs of 10^2 .. 10^6
# POSIX records are written once with the project's writer
# (tests/perf/bench_make_log, kept in BUILD/bench-scale/) and read by
#   - `iosage batch -j 1` (read + features + detection) on a directory of
#     k links to the log (k = 10^6 / records, 1 to 1000: about 10^6 records
#     a run, a second of CPU or more, so that GNU time's 10 ms steps do not
#     show; with 10^5 / records, 10^4 records were 10 logs in 0.09 s and
#     read 0.50 us/record one run, 0.80 another): CPU ms per log
#     from GNU time minus a run on a missing file (start-up and model load),
#     the stage split of --profile, and peak RSS;
#   - `iosage dump --all` up to 10^5 records (10^6 would print 8 GB): CPU
#     ms per process including start-up, and peak RSS.
# Best of ROUNDS (default 3; at most 3 for 10^6). Linear cost means a flat
# "us/record" column. "of_which_sys" is the part of it spent in the kernel
# (GNU time's system time), nearly all of it the page faults that give the
# process fresh zeroed memory: the links of a small log reuse the memory
# of the one before, a log above glibc's 32 MiB mmap ceiling gets fresh
# pages every time, and on this virtual machine a page the guest has not
# touched for a while costs several times what a recycled one does.
#
#   scripts/bench-scale.sh BUILD_DIR
#
# The last column, instructions per record (valgrind's callgrind, net of a
# run on a missing file; when valgrind is installed, up to SCALE_INSTR_MAX
# records, default 10^5: 10^6 takes about 5 minutes), is the work itself:
# flat there while us/record rises means the rise is the memory system
# (the working set leaving the caches), not the algorithm.
#
# Environment: SCALE_MAX (default 1000000) is the largest record count.
set -euo pipefail
build=${1:-build}
rounds=${ROUNDS:-3}
max=${SCALE_MAX:-1000000}
iosage=$build/iosage
maker=$build/tests/bench_make_log
if [ ! -x "$maker" ] || ! /usr/bin/time -f %M true >/dev/null 2>&1; then
  echo "scale: $maker or GNU time missing; skipped"
  exit 0
fi
cache=$build/bench-scale
mkdir -p "$cache"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# gnu CMD...: "cpu_seconds peak_kib sys_seconds" of one run (exit status
# ignored)
gnu() {
  { /usr/bin/time -f 'gnu %U %S %M' "$@" >/dev/null 2>"$tmp/gnu" </dev/null || true; }
  awk '/^gnu/ { printf "%.4f %d %.4f\n", $2 + $3, $4, $3 }' "$tmp/gnu"
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a < b) ? a : b }'; }

read -r base _ basesys < <(gnu "$iosage" batch -q -j 1 -o "$tmp/o.jsonl" "$tmp/missing.darshan")
imax=${SCALE_INSTR_MAX:-100000}
instr() { # instructions of one run of "$@" (callgrind), or nothing
  command -v valgrind >/dev/null || return 0
  { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null </dev/null || true; } |
    awk '/Collected :/ { print $NF }'
}
ibase=$(instr "$iosage" batch -q -j 1 -o "$tmp/o.jsonl" "$tmp/missing.darshan")
echo "scale: POSIX records per log, 1 process, best of $rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  (batch CPU is net of start-up and model load, $base s; region = decompressed POSIX region)"
printf '  %9s %10s %10s | %10s %9s %9s %8s %8s %8s %9s | %10s %9s %9s | %9s\n' records log_MiB region_MiB \
  batch_ms us/record of_which_sys decode features predict peak_MiB dump_ms us/record peak_MiB instr/rec
for n in 100 1000 10000 100000 1000000; do
  [ "$n" -le "$max" ] || break
  log=$cache/n$n.darshan
  # made again when the maker (and the writer in it) is newer
  [ -s "$log" ] && [ "$log" -nt "$maker" ] || "$maker" "$n" "$log"
  r=$rounds
  [ "$n" -ge 1000000 ] && [ "$r" -gt 3 ] && r=3
  # batch: a directory holding k links to this log (enough logs for GNU
  # time's 10 ms resolution), CPU per log = (CPU - start-up) / k
  k=$((1000000 / n))
  [ "$k" -lt 1 ] && k=1
  [ "$k" -gt 1000 ] && k=1000
  rm -rf "$tmp/d" && mkdir "$tmp/d"
  abs=$(cd "$(dirname "$log")" && pwd)/$(basename "$log")
  for ((i = 0; i < k; i++)); do ln -s "$abs" "$tmp/d/c$i.darshan"; done
  best= peak=0 bestsys=0
  for ((i = 0; i < r; i++)); do
    read -r cpu kib sys < <(gnu "$iosage" batch -q -j 1 -o "$tmp/o.jsonl" "$tmp/d")
    if [ "$(min "$cpu" "$best")" = "$cpu" ]; then best=$cpu bestsys=$sys; fi
    [ "$kib" -gt "$peak" ] && peak=$kib
  done
  "$iosage" batch -q --profile -j 1 -o "$tmp/o.jsonl" "$tmp/d" 2>"$tmp/prof" || true
  split=$(sed -n 's/^profile: per log (ms, summed over workers): read \([0-9.]*\), decode (decompress + records) \([0-9.]*\), features \([0-9.]*\), predict \([0-9.]*\)$/\2 \3 \4/p' "$tmp/prof")
  read -r dec feat pred <<<"${split:-- - -}"
  # dump --all, up to 10^5 records: CPU per process from wait4 (the
  # timer of scripts/bench.sh, microsecond resolution), peak from GNU time
  dbest=- dpeak=0
  if [ "$n" -le 100000 ]; then
    echo "$log" >"$tmp/in"
    dbest=$(/usr/bin/python3 "$(dirname "$0")/bench_time.py" --rounds "$r" \
              --repeat "$(( n <= 1000 ? 10 : 1 ))" --inputs "$tmp/in" "d=$iosage dump --all" |
            awk -v rep="$(( n <= 1000 ? 10 : 1 ))" '{ printf "%.6f", $3 / rep }')
    read -r _ dpeak < <(TZ=UTC gnu "$iosage" dump --all "$log")
  fi
  # instructions of the batch, net of the start
  ipr=-
  if [ -n "$ibase" ] && [ "$n" -le "$imax" ]; then
    itot=$(instr "$iosage" batch -q -j 1 -o "$tmp/o.jsonl" "$tmp/d")
    [ -n "$itot" ] && ipr=$(awk -v t="$itot" -v b="$ibase" -v k="$k" -v n="$n" \
                               'BEGIN { printf "%.0f", (t - b) / (k * n) }')
  fi
  awk -v n="$n" -v size="$(stat -c %s "$log")" -v b="$best" -v base="$base" -v pk="$peak" -v k="$k" \
      -v ipr="$ipr" \
      -v bs="$bestsys" -v bases="$basesys" \
      -v dec="$dec" -v feat="$feat" -v pred="$pred" -v d="$dbest" -v dpk="$dpeak" 'BEGIN {
    net = (b - base) / k; if (net < 0) net = 0
    nets = (bs - bases) / k; if (nets < 0) nets = 0
    dump = (d == "-") ? "-" : sprintf("%.2f", d * 1000)
    dus = (d == "-") ? "-" : sprintf("%.2f", d * 1e6 / n)
    dmb = (d == "-") ? "-" : sprintf("%.1f", dpk / 1024)
    printf "  %9d %10.2f %10.2f | %10.3f %9.2f %9.2f %8s %8s %8s %9.1f | %10s %9s %9s | %9s\n",
      n, size / 1048576, n * 704 / 1048576, net * 1000, net * 1e6 / n, nets * 1e6 / n, dec, feat, pred,
      pk / 1024, dump, dus, dmb, ipr }'
done
echo "  (of_which_sys: the kernel's share of us/record, mostly giving the process fresh zeroed pages;"
echo "   decode/features/predict: ms of wall time per stage from --profile; dump_ms: CPU per process, start-up included;"
echo "   instr/rec: instructions of the batch per record, net of start-up and model load (callgrind))"
