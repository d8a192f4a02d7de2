#!/usr/bin/env bash
# Without IOSAGE_LOG the log is <exe>_id<jobid>_<pid>.darshan in
# IOSAGE_LOGDIR; a job launcher and a disabled tracer write nothing; a
# forked child that only sets up a command writes no log of its own.
#
#   naming_test.sh TRACER.so WORKDIR
set -u
tracer=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

env LD_PRELOAD="$tracer" IOSAGE_LOGDIR="$work" SLURM_JOB_ID=4242 \
  /bin/sh -c 'echo hello > "$0/out.txt"; /bin/cat "$0/out.txt" >/dev/null; exit 0' "$work" \
  || fail "traced shell failed"
ls "$work"/sh_id4242_*.darshan >/dev/null 2>&1 || fail "no sh_id4242_<pid>.darshan"
ls "$work"/cat_id4242_*.darshan >/dev/null 2>&1 || fail "no cat_id4242_<pid>.darshan"
n=$(ls "$work"/*.darshan | wc -l)
[ "$n" -eq 2 ] || fail "expected 2 logs (sh, cat), found $n"

rm -f "$work"/*.darshan
env LD_PRELOAD="$tracer" IOSAGE_LOGDIR="$work" IOSAGE_TRACE_DISABLE=1 /bin/true \
  || fail "disabled tracer broke /bin/true"
n=$(ls "$work"/*.darshan 2>/dev/null | wc -l)
[ "$n" -eq 0 ] || fail "IOSAGE_TRACE_DISABLE still wrote $n logs"

mkdir -p "$work/bin" && ln -sf /bin/true "$work/bin/mpirun"
env LD_PRELOAD="$tracer" IOSAGE_LOGDIR="$work" "$work/bin/mpirun" \
  || fail "traced launcher failed"
n=$(ls "$work"/*.darshan 2>/dev/null | wc -l)
[ "$n" -eq 0 ] || fail "a launcher (mpirun) wrote $n logs"
echo "naming_test: ok"
