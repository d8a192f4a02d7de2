#!/usr/bin/env bash
# make demo: run a benchmark kernel with a known bottleneck under the
# iosage tracer, then analyze its Darshan log offline (no LLM, no network).
#
#   scripts/demo.sh [BUILD_DIR]      (default: build)
#
# The kernel: ior_like, 4 MPI ranks writing and reading one shared file in
# 4 KiB POSIX requests (bench/sweeps/default.sweep's agic_posix_4: many small
# requests to a shared file without collective MPI-IO). The job script and
# ROMIO hints file in examples/demo/ are passed with --config, as a user
# would pass their own.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
tracer=$build/trace/libiosage-trace-mpi.so
kernel=$build/bench/ior_like
for f in "$tracer" "$kernel" "$build/iosage"; do
  if [ ! -e "$f" ]; then
    echo "demo: $f is missing (MPI not found at build time?)" >&2
    exit 1
  fi
done
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
out=$build/demo
mkdir -p "$out"
log=$out/ior-small.darshan
rm -f "$log"
echo "demo: running 4 ranks of ior_like under the tracer -> $log" >&2
# Two mpiruns starting at the same instant can collide on /tmp/ompi.vm.0:
# one retry.
run() {
  mpirun --oversubscribe --bind-to none -np 4 \
    -x LD_PRELOAD="$PWD/$tracer" -x IOSAGE_LOG="$PWD/$log" \
    "$kernel" --api posix --transfer 4k --block 16m >"$out/kernel.out" 2>&1
}
run || { sleep 1; run; } || { cat "$out/kernel.out" >&2; exit 1; }
echo "demo: iosage analyze --config examples/demo/job.sh --config examples/demo/romio-hints $log" >&2
echo >&2
"$build/iosage" analyze --config examples/demo/job.sh \
  --config examples/demo/romio-hints "$log"
