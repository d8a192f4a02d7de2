#!/usr/bin/env bash
# pfs/bench/drift.sh BUILD [ROUNDS] - where the time of a 128-rank
# file-per-process job under the emulator goes, and what the tracer's log
# shows of it. Markdown on stdout.
#
# One job: 128 ranks of ior_like, 4 MiB a rank in 1 MiB POSIX writes to one
# file each, under the tracer and the emulator (small HDD profile), Open MPI
# in yield mode. Four configurations, run alternately ROUNDS times (default
# 2) so that they see the same load:
#   D=8  / D=32     the dilation: the model's aggregate bandwidth
#                   (12 targets, 2.8 GB/s) over D against what two loaded
#                   cores copy into tmpfs
#   clock real / model   IOSAGE_PFS_VCLOCK=0 / 1: the tracer's clock is the
#                   real one, or leaves out what the emulated calls lasted
#                   beyond the model (trace/src/lustre.c)
# Columns: the emulator's counters (model and actual seconds of the emulated
# calls summed over ranks, drift, the share of real calls slower than the
# model, sleep drift, the sleeps taken and how late each woke on average),
# and the log's POSIX time (read + write + meta, summed
# over the files on the emulated mount) against the model's.
set -u
build=$(cd "${1:?usage: drift.sh BUILD [ROUNDS]}" && pwd)
rounds=${2:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
prof=$root/profiles/lustre-hdd-small.pfs
np=${DRIFT_RANKS:-128}
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# the data on tmpfs, reached through a link outside /dev (the tracer, like
# Darshan, leaves out files under /dev), as `iosage gen --pfs` does
back=$(mktemp -d /dev/shm/pfs-drift.XXXXXX) || exit 1
mnt=$(mktemp -u "${TMPDIR:-/tmp}/pfs-drift.XXXXXX")
ln -s "$back" "$mnt" || exit 1
trap 'rm -rf "$back" "$mnt" "$mnt.stats" "$mnt.out" "$mnt.darshan"' EXIT
field() { sed -n "s|.* $1=\([^ ]*\).*|\1|p" <<<" $2"; }

# job DILATION VCLOCK -> one table row
job() {
  local dil=$1 vc=$2
  rm -rf "$mnt"/* "$mnt.stats" "$mnt.darshan"
  mkdir -p "$mnt/run"
  local load=$(cut -d' ' -f1 /proc/loadavg)
  mpirun -np "$np" --oversubscribe --bind-to none --mca mpi_yield_when_idle 1 \
    -x LD_PRELOAD="$build/trace/libiosage-trace-mpi.so:$build/pfs/libiosage-pfs.so" \
    -x IOSAGE_PFS_PROFILE="$prof" -x IOSAGE_PFS_MOUNT="$mnt" \
    -x IOSAGE_PFS_STATS="$mnt.stats" -x IOSAGE_PFS_DILATION="$dil" \
    -x IOSAGE_PFS_VCLOCK="$vc" -x IOSAGE_LOG="$mnt.darshan" -x IOSAGE_TRACE_QUIET=1 \
    "$build/bench/ior_like" --api posix --file-per-proc --transfer 1m --block 4m \
    --write --dir "$mnt/run" >"$mnt.out" 2>&1
  local st=$(tail -1 "$mnt.stats" 2>/dev/null)
  local model=$(field model_s "$st") actual=$(field actual_s "$st")
  local logt=$("$build/iosage" dump "$mnt.darshan" 2>/dev/null | awk -F'\t' -v m="$mnt" '
    $1 == "POSIX" && index($6, m "/") == 1 &&
    ($4 == "POSIX_F_READ_TIME" || $4 == "POSIX_F_WRITE_TIME" || $4 == "POSIX_F_META_TIME") {s += $5}
    END {printf "%.3f", s}')
  local excess=$(field excess_s "$st")
  awk -v d="$dil" -v vc="$vc" -v ld="$load" -v mo="$model" -v ac="$actual" \
      -v dr="$(field drift_pct "$st")" -v sd="$(field sleep_drift_pct "$st")" \
      -v ex="$excess" -v lt="$logt" -v k="$(field seconds "$(grep '^ior_like ' "$mnt.out")")" \
      -v sl="$(field sleeps "$st")" 'BEGIN {
    printf "| %s | %s | %s | %s | %.2f | %.2f | %s | %.1f | %s | %s | %.1f | %.2f | %+.1f |\n",
      d, (vc == 1 ? "model" : "real"), ld, k, mo, ac, dr, (mo > 0 ? 100 * ex / mo : 0), sd,
      sl, (sl > 0 ? 1000 * (ac - ex - mo) / sl : 0), lt, (mo > 0 ? 100 * (lt - mo) / mo : 0) }'
}

echo "$np ranks, $(nproc) cores, profile $(basename "$prof"); load average at the start of each job in its row."
echo
echo "| D | tracer clock | load | kernel s | model s | actual s | drift % | real calls beyond model, % of model | sleep drift % | sleeps | late per sleep, ms | log POSIX s | log vs model % |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for r in $(seq "$rounds"); do
  for cfg in "8 0" "8 1" "32 0" "32 1"; do
    job $cfg
  done
done
