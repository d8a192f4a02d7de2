#!/usr/bin/env bash
# tests/gen/run.sh IOSAGE BENCH_DIR TRACER - `iosage gen` end to end: a tiny
# sweep under mpirun with the tracer gives logs whose counters match the
# configuration, a manifest with one row per run, resumption, and failed
# runs recorded rather than fatal.
set -u
iosage=$1 bench=$2 tracer=$3
. "$(dirname "$0")/../testlib.sh"

cat >"$tmp/t.sweep" <<'SWEEP'
# id        kernel    ranks repeats labels                               group flags
small_posix ior_like  4     2       access_granularity,interface_choice  ood   --api posix --transfer 256 --block 64k
big_coll    ior_like  2     1       healthy                              train --api mpiio --collective --transfer 1m --block 2m
missing     nope_like 2     1       healthy                              train
SWEEP

gen() { "$iosage" gen "$tmp/t.sweep" -o "$tmp/out" -j 2 -q --bench-dir "$bench" --tracer "$tracer"; }
gen
check "exit with a failed run" $? 1
m="$tmp/out/manifest.tsv"
# two mpiruns starting in the same moment (ctest -j 2 starts this test and
# tests/model together) can make one fail to launch: seen once in CI, the
# run then passing on resume; one resume here, before the counts
if [ "$(awk -F'\t' '$11=="ok"' "$m" | wc -l)" -lt 3 ]; then
  echo "gen: a run failed besides missing-r0 (launch collision?): resuming once" >&2
  gen
fi
check "manifest rows" "$(tail -n +2 "$m" | wc -l)" 4
check "ok runs" "$(awk -F'\t' '$11=="ok"' "$m" | wc -l)" 3
check "failed run recorded" "$(awk -F'\t' '$1=="missing-r0"{print substr($11,1,6)}' "$m")" failed
check "ood split" "$(awk -F'\t' '$1=="small_posix-r1"{print $10}' "$m")" ood
check "labels kept" "$(awk -F'\t' '$1=="small_posix-r0"{print $6}' "$m")" access_granularity,interface_choice
seed0=$(awk -F'\t' '$1=="small_posix-r0"{print $7}' "$m")
seed1=$(awk -F'\t' '$1=="small_posix-r1"{print $7}' "$m")
[ "$seed0" != "$seed1" ] && ok || bad "repeats share a seed"

# counters of the small POSIX run: 4 ranks x 64 KiB in 256-byte writes,
# one shared file reduced to a rank -1 record
log="$tmp/out/logs/small_posix-r0.darshan"
val() { TZ=UTC "$iosage" dump "$log" | awk -F'\t' -v c="$1" '$1=="POSIX" && $2=="-1" && $4==c && $6 ~ /ior_like\.dat$/ {print $5}'; }
check "POSIX_WRITES" "$(val POSIX_WRITES)" 1024
check "POSIX_BYTES_WRITTEN" "$(val POSIX_BYTES_WRITTEN)" 262144
check "POSIX_SIZE_WRITE_100_1K" "$(val POSIX_SIZE_WRITE_100_1K)" 1024
check "nprocs" "$(TZ=UTC "$iosage" dump "$log" | awk '/^# nprocs:/{print $3}')" 4
log="$tmp/out/logs/big_coll-r0.darshan"
coll=$(TZ=UTC "$iosage" dump "$log" | awk -F'\t' '$1=="MPI-IO" && $2=="-1" && $4=="MPIIO_COLL_WRITES" {print $5}')
check "MPIIO_COLL_WRITES" "$coll" 4

# resume: nothing to run again but the failed run
out=$("$iosage" gen "$tmp/t.sweep" -o "$tmp/out" -j 2 --bench-dir "$bench" --tracer "$tracer" 2>&1 >/dev/null | tail -1)
case "$out" in *"0 ok, 1 failed, 3 already done"*) ok ;; *) bad "resume: $out" ;; esac
check "manifest rows after resume" "$(tail -n +2 "$m" | wc -l)" 4

# a bad sweep: one line naming the file and line, exit 3
printf 'x ior_like 2 1 not_a_pattern train\n' >"$tmp/bad.sweep"
"$iosage" gen "$tmp/bad.sweep" -o "$tmp/out2" --bench-dir "$bench" --tracer "$tracer" 2>"$tmp/err"
check "bad sweep exit" $? 3
check "bad sweep one line" "$(wc -l <"$tmp/err")" 1
grep -q "bad.sweep.*line 1.*not_a_pattern" "$tmp/err" && ok || bad "bad sweep message: $(cat "$tmp/err")"
"$iosage" gen "$tmp/t.sweep" 2>/dev/null
check "no -o is a usage error" $? 2

finish
