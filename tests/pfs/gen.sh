#!/usr/bin/env bash
# tests/pfs/gen.sh IOSAGE - `iosage gen --pfs`: a 4-rank run of interleaved
# 4 KiB POSIX writes to one shared file on the small HDD profile. The
# tracer (preloaded before the emulator) must see the emulated time, the
# emulator's own look-ups must not show in the log, and the emulated mount
# must be gone afterwards. Skips (77) without the kernels or the tracer.
set -u
iosage=$1
dir=$(dirname "$iosage")
[ -x "$dir/bench/ior_like" ] && [ -f "$dir/trace/libiosage-trace-mpi.so" ] &&
  [ -f "$dir/pfs/libiosage-pfs.so" ] || { echo "skip: kernels, tracer or emulator not built"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export TMPDIR=$work
cat >"$work/s.sweep" <<'EOS'
il ior_like 4 1 access_granularity train --api posix --transfer 4k --block 4k --segments 64 --write
EOS
gen() { "$iosage" gen "$work/s.sweep" -o "$work/out" --pfs lustre-hdd-small -q; }
# two mpiruns starting together (ctest -j 2) can make one fail to launch
# (tests/gen/run.sh saw it in CI; this test failed once the same way under
# `ctest -j 2`, passing when run again): say so and resume once
if ! gen; then
  echo "gen --pfs failed once (launch collision?): $(cat "$work"/out/logs/*.out 2>/dev/null | head -5); resuming" >&2
  gen || fail "gen failed: $(cat "$work"/out/logs/*.out)"
fi
log=$work/out/logs/il-r0.darshan
[ -f "$log" ] || fail "no log"
dump=$("$iosage" dump "$log") || fail "dump"
wt=$(awk '$4 == "POSIX_F_WRITE_TIME" && $6 ~ /ior_like.dat$/ {s += $5} END {print s+0}' <<<"$dump")
writes=$(awk '$4 == "POSIX_WRITES" && $6 ~ /ior_like.dat$/ {s += $5} END {print s+0}' <<<"$dump")
stats=$(awk '$4 == "POSIX_STATS" && $6 ~ /ior_like.dat$/ {s += $5} END {print s+0}' <<<"$dump")
seeks=$(awk '$4 == "POSIX_SEEKS" && $6 ~ /ior_like.dat$/ {s += $5} END {print s+0}' <<<"$dump")
echo "writes=$writes write_time=$wt stats=$stats seeks=$seeks"
[ "$writes" = 256 ] || fail "POSIX_WRITES $writes, want 256"
# 256 requests that cannot merge, each a 4 KiB RPC of 2.4 ms on one target:
# the close waits for them, but the writes themselves only for the dirty
# limit; the ranks' write time is still well above what tmpfs takes
/usr/bin/python3 -c "import sys; sys.exit(0 if $wt > 0.05 else 1)" || fail "write time $wt s: the tracer did not see the emulated cost"
[ "$seeks" = 0 ] || fail "the emulator's lseek calls reached the log ($seeks)"
[ "$stats" -le 4 ] || fail "the emulator's fstat calls reached the log ($stats)"
ls "$work" | grep -q '^iosage-pfs\.' && fail "the emulated mount was left behind"
echo "ok: gen --pfs"
