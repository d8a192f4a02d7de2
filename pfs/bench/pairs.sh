#!/usr/bin/env bash
# pfs/bench/pairs.sh BUILD PROFILE|native NP KERNEL 'BASELINE FLAGS' 'CHANGED FLAGS'
# Eleven alternating pairs of one kernel configuration and a changed one,
# natively or on the emulated file system of PROFILE (no tracer, no
# analyzer: for changes `iosage validate` cannot measure because the
# analysis does not propose them). Prints the median of the kernel-time
# ratios baseline/changed and the interval of ratios 3 and 9 of 11 (93.5%),
# as docs/validation.md computes them.
set -u
build=$(cd "$1" && pwd) prof=$2 np=$3 kernel=$4 base=$5 chg=$6
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
mnt=$(mktemp -d /dev/shm/pfs-pairs.XXXXXX) || exit 1
trap 'rm -rf "$mnt"' EXIT
env=()
if [ "$prof" != native ]; then
  env=(-x LD_PRELOAD="$build/pfs/libiosage-pfs.so" -x IOSAGE_PFS_PROFILE="$prof"
       -x IOSAGE_PFS_MOUNT="$mnt" -x OMPI_MCA_io_ompio_num_aggregators=1)
fi
one() {  # FLAGS -> kernel seconds
  rm -rf "${mnt:?}"/*
  mkdir -p "$mnt/run"
  # shellcheck disable=SC2086
  mpirun -np "$np" --oversubscribe --bind-to none --mca mpi_yield_when_idle 1 "${env[@]}" \
    "$build/bench/$kernel" $1 --dir "$mnt/run" 2>&1 | sed -n "s|^$kernel .* seconds=\([^ ]*\).*|\1|p"
}
ratios=()
for i in $(seq 1 11); do
  b=$(one "$base"); c=$(one "$chg")
  r=$(awk -v b="$b" -v c="$c" 'BEGIN{printf "%.4f", b/c}')
  echo "pair $i: $b s -> $c s, ratio $r" >&2
  ratios+=("$r")
done
printf '%s\n' "${ratios[@]}" | sort -g | awk '{r[NR]=$1} END {printf "median %.2fx, interval %.2f-%.2f (ratios 3 and 9 of %d)\n", r[6], r[3], r[9], NR}'
