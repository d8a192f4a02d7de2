#!/usr/bin/env bash
# pfs/bench/accuracy.sh BUILD [PROFILE...] - emulation accuracy: fixed
# operation sequences timed under libiosage-pfs.so against what the cost
# model predicts for them (pfs-accuracy), for each profile (default: every
# profiles/*.pfs). Run by `make bench`. Figures depend on the machine's
# load, which is printed first. ACC_DILATION sets IOSAGE_PFS_DILATION
# (default 1: the model as is).
set -u
build=$(cd "${1:?usage: accuracy.sh BUILD [PROFILE...]}" && pwd); shift
root=$(cd "$(dirname "$0")/../.." && pwd)
profiles=("$@")
[ ${#profiles[@]} -gt 0 ] || profiles=("$root"/profiles/*.pfs)
[ -x "$build/pfs/pfs-accuracy" ] || { echo "accuracy.sh: $build/pfs/pfs-accuracy not built"; exit 1; }
mnt=$(mktemp -d /dev/shm/pfs-acc.XXXXXX) || exit 1
trap 'rm -rf "$mnt"' EXIT
echo "pfs accuracy: load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, dilation ${ACC_DILATION:-1}"
for prof in "${profiles[@]}"; do
  echo "profile $(basename "$prof" .pfs):"
  LD_PRELOAD=$build/pfs/libiosage-pfs.so IOSAGE_PFS_PROFILE=$prof IOSAGE_PFS_MOUNT=$mnt \
    IOSAGE_PFS_DILATION=${ACC_DILATION:-1} "$build/pfs/pfs-accuracy" "$prof" "$mnt" || exit 1
done
