#!/usr/bin/env bash
# With IOSAGE_TRACE_MAX_RECORDS=3 the tracer keeps 3 POSIX records, marks
# the module partial, and the traced program still runs correctly.
#
#   limit_test.sh TRACER.so WORKLOAD CHECKER WORKDIR
set -u
tracer=$1 workload=$2 checker=$3 work=$4
rm -rf "$work" && mkdir -p "$work/data"
env LD_PRELOAD="$tracer" IOSAGE_LOG="$work/log.darshan" IOSAGE_TRACE_MAX_RECORDS=3 \
  "$workload" "$work/data" >"$work/stdout" 2>"$work/stderr" \
  || { echo "workload failed"; cat "$work/stderr"; exit 1; }
"$checker" --limit "$work/log.darshan" 3
