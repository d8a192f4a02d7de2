#!/usr/bin/env bash
# Run a workload under the tracer, then check the log it wrote.
#
#   run_trace_test.sh serial TRACER.so WORKLOAD CHECKER WORKDIR
#   run_trace_test.sh mpi    TRACER.so WORKLOAD CHECKER WORKDIR NPROCS [MPIRUN]
#
# The workload gets WORKDIR/data as its directory and IOSAGE_LOG points at
# WORKDIR/log.darshan; the checker gets the log, the directory (and NPROCS).
# Exit status: the workload's if it failed, else the checker's.
set -u
mode=$1 tracer=$2 workload=$3 checker=$4 work=$5
np=${6:-1}
mpirun=${7:-mpirun}

rm -rf "$work"
mkdir -p "$work/data"
log="$work/log.darshan"

if [ "$mode" = serial ]; then
  env LD_PRELOAD="$tracer" IOSAGE_LOG="$log" "$workload" "$work/data" \
    >"$work/stdout" 2>"$work/stderr"
  rc=$?
else
  if [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
  # Only the ranks get the tracer (-x), not mpirun itself.
  "$mpirun" -np "$np" --oversubscribe --bind-to none \
    -x LD_PRELOAD="$tracer" -x IOSAGE_LOG="$log" \
    "$workload" "$work/data" >"$work/stdout" 2>"$work/stderr"
  rc=$?
fi
if [ $rc -ne 0 ]; then
  echo "workload failed with status $rc" >&2
  cat "$work/stderr" >&2
  exit $rc
fi
if [ ! -s "$log" ]; then
  echo "no log written at $log" >&2
  cat "$work/stderr" >&2
  exit 1
fi
if [ "$mode" = serial ]; then
  "$checker" "$log" "$work/data"
else
  "$checker" "$log" "$work/data" "$np"
fi
