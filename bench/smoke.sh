#!/usr/bin/env bash
# bench/smoke.sh - run every benchmark kernel with a tiny configuration and
# check it: exit 0, exactly one summary line on stdout, nothing on stderr,
# no read-back mismatch. Also checks --help (exit 0) and a bad flag (exit 2,
# one stderr line) for each kernel, run without mpirun.
#
#   bench/smoke.sh BINDIR [NP]     NP ranks (default 2), oversubscribed
#
# MPIRUN overrides the launcher (default: mpirun). Exit status: 0 all
# passed, 1 some case failed, 77 no launcher (ctest: skipped). A kernel
# that is not built (h5bench_like without HDF5) is skipped with a notice.
set -u

bindir=${1:?usage: smoke.sh BINDIR [NP]}
np=${2:-2}
mpirun=${MPIRUN:-mpirun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

if ! command -v "$mpirun" >/dev/null 2>&1; then
  echo "smoke: no MPI launcher '$mpirun'; skipping"
  exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-smoke-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
passed=0

# report NAME ARGS STATUS WHY: print a failure with the captured streams.
report_fail() {
  echo "FAIL $1 $2: $3"
  sed 's/^/    stdout: /' "$tmp/out"
  sed 's/^/    stderr: /' "$tmp/err"
  fail=1
}

# run KERNEL ARGS...: one MPI run, checked.
run() {
  local k=$1; shift
  if [ ! -x "$bindir/$k" ]; then
    echo "skip $k $* (not built)"
    return
  fi
  local t0 t1 rc
  t0=$(date +%s.%N)
  "$mpirun" --oversubscribe --bind-to none -np "$np" "$bindir/$k" \
    --dir "$tmp/run" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  t1=$(date +%s.%N)
  if [ $rc -ne 0 ]; then
    report_fail "$k" "$*" "exit status $rc"
  elif [ "$(wc -l <"$tmp/out")" -ne 1 ] ||
       ! grep -q "^$k ranks=$np .* mismatches=0\$" "$tmp/out"; then
    report_fail "$k" "$*" "not one good summary line"
  elif [ -s "$tmp/err" ]; then
    report_fail "$k" "$*" "unexpected stderr"
  else
    passed=$((passed + 1))
    printf 'ok   %-13s %5.2fs  %s\n' "$k" "$(echo "$t1 - $t0" | bc)" "$*"
  fi
}

# usage KERNEL: --help and a bad flag, as a singleton (no launcher).
usage() {
  local k=$1
  [ -x "$bindir/$k" ] || return
  if ! "$bindir/$k" --help >"$tmp/out" 2>"$tmp/err" ||
     ! head -1 "$tmp/out" | grep -q "^usage: "; then
    report_fail "$k" "--help" "no usage on stdout with exit 0"
    return
  fi
  "$bindir/$k" --no-such-flag >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ $rc -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || [ -s "$tmp/out" ]
  then
    report_fail "$k" "--no-such-flag" "want exit 2 and one stderr line, got $rc"
    return
  fi
  passed=$((passed + 1))
  printf 'ok   %-13s usage: --help exits 0, a bad flag exits 2\n' "$k"
}

for k in ior_like mdtest_like hacc_like h5bench_like dlio_like imbalance \
         stdio_heavy wrf_like e3sm_like ckpt_like amrex_like postproc_like; do
  usage "$k"
done

small="--transfer 16k --block 64k --segments 2"
for api in posix mpiio hdf5 pnetcdf; do
  if ! "$bindir/ior_like" --help 2>/dev/null |
       grep -q "^Interfaces in this build:.* $api"; then
    echo "skip ior_like --api $api (not in this build)"
    continue
  fi
  coll=--collective
  [ $api = posix ] && coll=
  run ior_like --api $api $small $coll
  run ior_like --api $api $small --file-per-proc --random --independent
done
run ior_like --api posix $small --fsync-per-write --reread 2
run ior_like --api mpiio $small --write --keep
run ior_like --api mpiio $small --read
run ior_like --api posix $small --read

# --stripe-count sets the run directory's default layout for the emulated
# file system (the attribute `iosage pfs setstripe` sets); a value that is
# not -1 or 1..4096 is a usage error
stripe_check() {
  rm -rf "$tmp/run"
  run ior_like --api posix $small --stripe-count -1 --keep
  local got
  got=$(python3 -c 'import os, sys
print(os.getxattr(sys.argv[1], "user.iosage.stripe").decode())' "$tmp/run" 2>&1)
  case $got in
    "-1 0") passed=$((passed + 1))
            echo "ok   ior_like      --stripe-count -1: directory layout '-1 0'" ;;
    *"Operation not supported"*) echo "skip --stripe-count (no user attributes here)" ;;
    *) echo "FAIL ior_like --stripe-count -1: layout '$got', want '-1 0'"; fail=1 ;;
  esac
  "$bindir/ior_like" --stripe-count 0 >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ $rc -ne 2 ] || ! grep -q "^ior_like: --stripe-count: '0' is not -1 or 1..4096" "$tmp/err"; then
    report_fail ior_like "--stripe-count 0" "want exit 2 and the range, got $rc"
  else
    passed=$((passed + 1))
    echo "ok   ior_like      --stripe-count 0: exit 2"
  fi
  rm -rf "$tmp/run"
}
stripe_check
run mdtest_like --files-per-rank 10 --depth 2 --fanout 2 --write-bytes 1k
run mdtest_like --files-per-rank 10 --shared-dir --stat-other --write-bytes 0
run hacc_like --particles 1000
run hacc_like --particles 1000 --api posix --file-per-proc --transfer 1k
run h5bench_like --rank-bytes 64k --datasets 2 --steps 2 --verify
run h5bench_like --rank-bytes 64k --block 4k --layout chunked --chunk 16k \
    --independent --datasets 2 --steps 2 --verify
run dlio_like --files 8 --record 4k --records-per-file 4
run dlio_like --files 8 --record 4k --records-per-file 4 --shuffle --epochs 2
run imbalance --factor 4 --block 64k --transfer 16k
run imbalance --factor 4 --block 64k --transfer 16k --api mpiio \
    --file-per-proc
run stdio_heavy --record 64 --records 100 --text
run stdio_heavy --record 4k --records 16 --rank0-only

# the application-like kernels (issue 15): a healthy and a pathological
# configuration each, every interface this build has
tiny_wrf="--patch 8 --levels 2 --vars 2 --steps 2"
run wrf_like --api posix $tiny_wrf
run wrf_like --api mpiio $tiny_wrf --io serial
run wrf_like --api posix $tiny_wrf --io split --fsync-per-write
for api in hdf5 pnetcdf; do
  if "$bindir/wrf_like" --help 2>/dev/null | grep -q "^Interfaces in this build:.* $api"; then
    run wrf_like --api $api $tiny_wrf
    run ckpt_like --api $api --state 64k --transfer 16k
  fi
done
run e3sm_like --cells 64 --vars 2
run e3sm_like --cells 64 --vars 2 --io-tasks 1 --decomp cyclic
run e3sm_like --cells 64 --vars 2 --rearranger none --decomp cyclic --independent
run ckpt_like --api posix --mode nn --state 64k --checkpoints 3
run ckpt_like --api mpiio --state 64k --transfer 4k --layout strided --random-restart
run ckpt_like --api posix --state 64k --transfer 16k --heavy-factor 3 --restart-reads 2
run amrex_like --fab 16k --verify
run amrex_like --fab 16k --transfer 4k --nfiles 1 --heavy-factor 2 --verify
run postproc_like --inputs 4 --input-size 16k
run postproc_like --parallel --inputs 6 --input-size 16k --chunk 4k --random-chunks --outputs 2 --output-size 1k --passes 2

if [ $fail -ne 0 ]; then
  echo "smoke: FAILED ($passed passed)"
  exit 1
fi
echo "smoke: all $passed passed on $np ranks"
