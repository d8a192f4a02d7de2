#!/usr/bin/env bash
# pfs/bench/calibrate.sh BUILD [PROFILE...] - the calibration tables of
# docs/pfs.md: the benchmark kernels run under the emulator, each profile
# (default: every profiles/*.pfs), markdown on stdout. Each row gives what
# the kernel measured, what the cost model predicts for the same pattern
# where pfs-model has it, and how far the emulated elapsed time drifted from
# the model (the library's own counters, IOSAGE_PFS_STATS).
#
# Takes minutes (the emulator sleeps as long as the file system would
# take); the figures depend on the machine's load: say what it was.
#
# Every run is dilated (IOSAGE_PFS_DILATION=D, the model D times slower
# than the clock) so that the bandwidth asked of this machine stays below
# what it can copy into tmpfs; the tables give the measured figures
# converted back (bandwidths and rates x D, times / D). D per profile
# below, or CAL_DILATION for all.
set -u
build=${1:?usage: calibrate.sh BUILD [PROFILE...]}; shift
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$build" && pwd)
profiles=("$@")
[ ${#profiles[@]} -gt 0 ] || profiles=("$root"/profiles/*.pfs)
lib=$build/pfs/libiosage-pfs.so
bench=$build/bench
iosage=$build/iosage
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
mnt=$(mktemp -d /dev/shm/pfs-cal.XXXXXX) || exit 1
trap 'rm -rf "$mnt" "$mnt.stats"' EXIT

# run PROFILE NP STRIPE_COUNT KERNEL FLAGS... -> sets $sum (summary line)
# and $stats (the emulator's counters line). One aggregator per node, as
# ROMIO's cb_nodes default (all ranks here share one node).
run() {
  local prof=$1 np=$2 count=$3; shift 3
  rm -rf "$mnt"/* "$mnt.stats"
  mkdir -p "$mnt/run"
  if [ "$count" != default ]; then
    "$iosage" pfs setstripe -c "$count" "$mnt/run" || exit 1
  fi
  sum=$(mpirun -np "$np" --oversubscribe --bind-to none --mca mpi_yield_when_idle 1 \
        -x LD_PRELOAD="$lib" -x IOSAGE_PFS_PROFILE="$prof" -x IOSAGE_PFS_MOUNT="$mnt" \
        -x IOSAGE_PFS_STATS="$mnt.stats" -x OMPI_MCA_io_ompio_num_aggregators=1 \
        -x IOSAGE_PFS_DILATION="$dil" \
        "$bench/$1" "${@:2}" --dir "$mnt/run" 2>&1 | grep "^$1 ")
  stats=$(tail -1 "$mnt.stats" 2>/dev/null)
}
mul() {  # A B -> A*B
  awk -v a="$1" -v b="$2" 'BEGIN{ if (a == "") print "-"; else printf "%.1f", a*b }'
}
div() {  # A B -> A/B
  awk -v a="$1" -v b="$2" 'BEGIN{ if (a == "") print "-"; else printf "%.4f", a/b }'
}
field() {  # KEY LINE
  sed -n "s|.* $1=\([^ ]*\).*|\1|p" <<<" $2"
}
model_fpp() {  # PROFILE NP -> MiB/s the model gives (pfs-model's first table)
  "$build/pfs/pfs-model" "$1" | awk -v np="$2" '/^file per process/{t=1} t && $1=="ranks" && $2==np {print $3; exit}'
}

echo "Machine load when measured: $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min), $(nproc) cores."
for prof in "${profiles[@]}"; do
  name=$(basename "$prof" .pfs)
  case "$name" in
    lustre-hdd-small) dil=8 ;; gpfs-like) dil=16 ;; lustre-flash-large) dil=512 ;; *) dil=8 ;;
  esac
  dil=${CAL_DILATION:-$dil}
  echo
  echo "### $name (dilation $dil)"
  echo
  echo "File per process, 1 MiB POSIX writes, 16 MiB per rank, the profile's default layout (ior_like --file-per-proc):"
  echo
  echo "| ranks | MiB/s measured | MiB/s model | drift % (sleep drift %) |"
  echo "|---|---|---|---|"
  for np in 1 2 4 8 16 32; do
    run "$prof" "$np" default ior_like --api posix --file-per-proc --transfer 1m --block 16m --write
    echo "| $np | $(mul "$(field MiB/s "$sum")" "$dil") | $(model_fpp "$prof" "$np") | $(field drift_pct "$stats") ($(field sleep_drift_pct "$stats")) |"
  done
  echo
  echo "One shared file (stripe count 4), 8 ranks, 1 MiB per rank:"
  echo
  echo "| pattern | MiB/s | seconds | write RPCs | lock revocations | drift % (sleep drift %) |"
  echo "|---|---|---|---|---|---|"
  run "$prof" 8 4 ior_like --api posix --shared --block 4k --transfer 4k --segments 256 --write
  echo "| POSIX 4 KiB interleaved | $(mul "$(field MiB/s "$sum")" "$dil") | $(div "$(field seconds "$sum")" "$dil") | $(field write_rpcs "$stats") | $(field revocations "$stats") | $(field drift_pct "$stats") ($(field sleep_drift_pct "$stats")) |"
  run "$prof" 8 4 ior_like --api posix --shared --block 1m --transfer 1m --write
  echo "| POSIX 1 MiB per-rank blocks | $(mul "$(field MiB/s "$sum")" "$dil") | $(div "$(field seconds "$sum")" "$dil") | $(field write_rpcs "$stats") | $(field revocations "$stats") | $(field drift_pct "$stats") ($(field sleep_drift_pct "$stats")) |"
  run "$prof" 8 4 ior_like --api mpiio --independent --shared --block 4k --transfer 4k --segments 256 --write
  echo "| MPI-IO 4 KiB interleaved, independent | $(mul "$(field MiB/s "$sum")" "$dil") | $(div "$(field seconds "$sum")" "$dil") | $(field write_rpcs "$stats") | $(field revocations "$stats") | $(field drift_pct "$stats") ($(field sleep_drift_pct "$stats")) |"
  run "$prof" 8 4 ior_like --api mpiio --collective --shared --block 4k --transfer 4k --segments 256 --write
  echo "| MPI-IO 4 KiB interleaved, collective | $(mul "$(field MiB/s "$sum")" "$dil") | $(div "$(field seconds "$sum")" "$dil") | $(field write_rpcs "$stats") | $(field revocations "$stats") | $(field drift_pct "$stats") ($(field sleep_drift_pct "$stats")) |"
  echo
  echo "Creates (mdtest_like, 200 empty files per rank, a directory per rank):"
  echo
  echo "| ranks | creates/s measured | drift % (sleep drift %) |"
  echo "|---|---|---|"
  for np in 1 2 4 8 16 32; do
    run "$prof" "$np" 1 mdtest_like --files-per-rank 200 --write-bytes 0 --phases create,remove
    cs=$(field create_s "$sum")
    echo "| $np | $(awk -v n="$np" -v s="$cs" -v d="$dil" 'BEGIN{ if (s > 0) printf "%.0f", n*200/s*d; else print "-" }') | $(field drift_pct "$stats") ($(field sleep_drift_pct "$stats")) |"
  done
  echo
  echo "fsync after every 1 MiB write (1 rank, 32 MiB, ior_like --fsync-per-write):"
  echo
  echo "| | seconds | ms per write | commits |"
  echo "|---|---|---|---|"
  run "$prof" 1 1 ior_like --api posix --file-per-proc --transfer 1m --block 32m --write
  s=$(awk -v s="$(field seconds "$sum")" -v d="$dil" 'BEGIN{printf "%.4f", s/d}')
  echo "| no fsync | $s | $(awk -v s="$s" 'BEGIN{printf "%.2f", s/32*1000}') | $(field commits "$stats") |"
  run "$prof" 1 1 ior_like --api posix --file-per-proc --transfer 1m --block 32m --write --fsync-per-write
  s=$(awk -v s="$(field seconds "$sum")" -v d="$dil" 'BEGIN{printf "%.4f", s/d}')
  echo "| fsync per write | $s | $(awk -v s="$s" 'BEGIN{printf "%.2f", s/32*1000}') | $(field commits "$stats") |"
  echo
  echo "One shared file, 8 ranks writing 16 MiB blocks in 1 MiB requests, by stripe count:"
  echo
  echo "| stripe count | MiB/s | drift % (sleep drift %) |"
  echo "|---|---|---|"
  for c in 1 2 4 8 -1; do
    run "$prof" 8 "$c" ior_like --api posix --shared --block 16m --transfer 1m --write
    echo "| $c | $(mul "$(field MiB/s "$sum")" "$dil") | $(field drift_pct "$stats") ($(field sleep_drift_pct "$stats")) |"
  done
done
