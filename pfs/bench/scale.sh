#!/usr/bin/env bash
# pfs/bench/scale.sh BUILD [PROFILE] - 64- and 128-rank jobs on this machine
# under the emulator: start-up time, memory, and how far the emulated time
# drifts from the model. Markdown on stdout.
#
#   start-up   wall time of mpirun for a kernel run with almost no I/O
#   memory     peak of the summed resident memory of the ranks (ps, every
#              0.2 s) and the job's shared segment
#   drift      the emulator's counters (IOSAGE_PFS_STATS): time the emulated
#              calls lasted against what the model said; "sleep drift"
#              leaves out real calls slower than the model
set -u
build=$(cd "${1:?usage: scale.sh BUILD [PROFILE]}" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
prof=${2:-$root/profiles/lustre-hdd-small.pfs}
dil=${SCALE_DILATION:-8}
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
mnt=$(mktemp -d /dev/shm/pfs-scale.XXXXXX) || exit 1
trap 'rm -rf "$mnt" "$mnt.stats" "$mnt.rss" "$mnt.out"' EXIT
field() { sed -n "s|.* $1=\([^ ]*\).*|\1|p" <<<" $2"; }

# job NP KERNEL FLAGS... -> $wall, $sum, $stats, $rss_mib
job() {
  local np=$1 kernel=$2; shift 2
  rm -rf "$mnt"/* "$mnt.stats" "$mnt.rss"
  mkdir -p "$mnt/run"
  local t0=$(date +%s.%N)
  mpirun -np "$np" --oversubscribe --bind-to none --mca mpi_yield_when_idle 1 \
    -x LD_PRELOAD="$build/pfs/libiosage-pfs.so" -x IOSAGE_PFS_PROFILE="$prof" \
    -x IOSAGE_PFS_MOUNT="$mnt" -x IOSAGE_PFS_STATS="$mnt.stats" \
    -x IOSAGE_PFS_DILATION="$dil" -x OMPI_MCA_io_ompio_num_aggregators=1 \
    "$build/bench/$kernel" "$@" --dir "$mnt/run" >"$mnt.out" 2>&1 &
  local pid=$! peak=0
  while kill -0 $pid 2>/dev/null; do
    kb=$(ps -C "$kernel" -o rss= | awk '{s+=$1} END {print s+0}')
    [ "$kb" -gt "$peak" ] && peak=$kb
    sleep 0.2
  done
  wait $pid
  wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b-a}')
  sum=$(grep "^$kernel " "$mnt.out")
  stats=$(tail -1 "$mnt.stats" 2>/dev/null)
  rss_mib=$((peak / 1024))
}

echo "Machine load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores; profile $(basename "$prof"), dilation $dil."
echo
echo "| ranks | job | mpirun wall s | kernel s | ranks' RSS MiB (sum) | calls | model s | actual s | drift % | sleep drift % |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for np in 16 64 128; do
  job "$np" ior_like --api posix --file-per-proc --transfer 1k --block 1k --write
  echo "| $np | start-up (1 KiB a rank) | $wall | $(field seconds "$sum") | $rss_mib | $(field calls "$stats") | $(field model_s "$stats") | $(field actual_s "$stats") | $(field drift_pct "$stats") | $(field sleep_drift_pct "$stats") |"
  job "$np" ior_like --api posix --file-per-proc --transfer 1m --block 4m --write
  echo "| $np | file per process, 4 MiB a rank | $wall | $(field seconds "$sum") | $rss_mib | $(field calls "$stats") | $(field model_s "$stats") | $(field actual_s "$stats") | $(field drift_pct "$stats") | $(field sleep_drift_pct "$stats") |"
  job "$np" mdtest_like --files-per-rank 50 --write-bytes 0 --phases create,stat,remove
  echo "| $np | mdtest_like, 50 files a rank | $wall | $(field seconds "$sum") | $rss_mib | $(field calls "$stats") | $(field model_s "$stats") | $(field actual_s "$stats") | $(field drift_pct "$stats") | $(field sleep_drift_pct "$stats") |"
done
echo
echo "Shared segment per job: $(stat -c %s /dev/shm/iosage-pfs-* 2>/dev/null | head -1) bytes (while one exists)."
