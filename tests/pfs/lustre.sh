#!/usr/bin/env bash
# tests/pfs/lustre.sh IOSAGE PROFILES_DIR MPIEXEC - the tracer on the
# emulated file system writes LUSTRE records and a `lustre` mount entry, as
# the Darshan runtime does on Lustre (trace/src/lustre.c), and our reader,
# dump and report read them back:
#   1. a directory set to 4 stripes of 2 MiB (`iosage pfs setstripe`), one
#      file shared by 2 ranks: one rank -1 LUSTRE record, stripe count 4,
#      size 2 MiB, 4 distinct OST ids; the POSIX record of the file is on
#      the lustre mount with Lustre's 1 MiB file alignment;
#   2. a directory of 1 stripe, one file per rank: one record per rank,
#      each on one target, the two files on different targets;
#   3. the tracer without the emulator: no LUSTRE record, no lustre mount.
# Skips (77) without the kernels, the tracer, the emulator or mpiexec.
set -u
iosage=$1 profiles=$2 mpiexec=${3:-}
dir=$(dirname "$iosage")
tracer=$dir/trace/libiosage-trace-mpi.so pfs=$dir/pfs/libiosage-pfs.so
ior=$dir/bench/ior_like
[ -x "$ior" ] && [ -f "$tracer" ] && [ -f "$pfs" ] ||
  { echo "skip: kernels, tracer or emulator not built"; exit 77; }
[ -n "$mpiexec" ] && [ -x "$mpiexec" ] || { echo "skip: no mpiexec"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# In the sanitizer build the kernel is instrumented and the preloaded
# libraries are not: the ASan runtime need not come first.
export ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0
mnt=$work/mnt
mkdir -p "$mnt/wide" "$mnt/fpp" || exit 1
"$iosage" pfs setstripe -c 4 -S 2m "$mnt/wide" || fail "setstripe wide"
"$iosage" pfs setstripe -c 1 -S 1m "$mnt/fpp" || fail "setstripe fpp"

# run LOG PRELOAD ARGS...: 2 ranks of ior_like, traced into LOG
run() {
  local log=$1 preload=$2
  shift 2
  "$mpiexec" -np 2 --oversubscribe --bind-to none \
    -x LD_PRELOAD="$preload" -x IOSAGE_LOG="$log" -x IOSAGE_TRACE_QUIET=1 -x ASAN_OPTIONS \
    -x IOSAGE_PFS_PROFILE="$profiles/lustre-hdd-small.pfs" \
    -x IOSAGE_PFS_MOUNT="$mnt" -x IOSAGE_PFS_JOB="lustre-test-$$-${log##*/}" \
    "$ior" --api posix --transfer 1m --block 4m --keep "$@" >"$log.out" 2>&1 ||
    fail "ior_like $*: $(cat "$log.out")"
  [ -f "$log" ] || fail "no log $log"
}
# field NAME DUMP: "rank value" of every LUSTRE/POSIX line NAME, one a line
field() { awk -v n="$1" -F'\t' '$4 == n {print $2, $5}' <<<"$2"; }

# 1. one shared file, 4 stripes of 2 MiB
run "$work/wide.darshan" "$tracer:$pfs" --dir "$mnt/wide"
dump=$("$iosage" dump "$work/wide.darshan") || fail "dump wide"
grep -qP "^# mount entry:\t\Q$mnt\E\tlustre$" <<<"$dump" || fail "no lustre mount entry for $mnt"
[ "$(field LUSTRE_COMP1_STRIPE_COUNT "$dump")" = "-1 4" ] || fail "stripe count: $(field LUSTRE_COMP1_STRIPE_COUNT "$dump")"
[ "$(field LUSTRE_COMP1_STRIPE_SIZE "$dump")" = "-1 2097152" ] || fail "stripe size: $(field LUSTRE_COMP1_STRIPE_SIZE "$dump")"
[ "$(field LUSTRE_NUM_STRIPES "$dump")" = "-1 4" ] || fail "stripes: $(field LUSTRE_NUM_STRIPES "$dump")"
ids=$(awk -F'\t' '$4 ~ /^LUSTRE_COMP1_OST_ID_/ {print $5}' <<<"$dump" | sort -u | wc -l)
[ "$ids" = 4 ] || fail "$ids distinct OST ids, want 4"
# the file's POSIX record: on the lustre mount, 1 MiB alignment
awk -F'\t' -v f="$mnt/wide/ior_like.dat" '$4 == "POSIX_FILE_ALIGNMENT" && $6 == f && $5 == 1048576 && $8 == "lustre" {ok = 1} END {exit !ok}' <<<"$dump" ||
  fail "the POSIX record is not on the lustre mount with 1 MiB alignment"
# the report reads them: one file of 4 stripes
json=$("$iosage" analyze -q --format json "$work/wide.darshan") || fail "analyze wide"
/usr/bin/python3 -c '
import json, sys
lu = json.loads(sys.stdin.read())["summary"]["lustre"]
sys.exit(0 if (lu["stripe_count_min"], lu["stripe_count_max"], lu["stripe_size_max"]) == (4, 4, 2097152) else 1)' <<<"$json" ||
  fail "analyze summary: not one layout of 4 stripes of 2 MiB"
echo "ok: shared file, 4 stripes of 2 MiB on 4 distinct OSTs, lustre mount"

# 2. one file per rank, 1 stripe each
run "$work/fpp.darshan" "$tracer:$pfs" --dir "$mnt/fpp" --file-per-proc
dump=$("$iosage" dump "$work/fpp.darshan") || fail "dump fpp"
counts=$(field LUSTRE_COMP1_STRIPE_COUNT "$dump" | sort | tr '\n' ' ')
[ "$counts" = "0 1 1 1 " ] || fail "per-rank stripe counts: '$counts', want ranks 0 and 1 with 1 each"
ost=$(awk -F'\t' '$4 == "LUSTRE_COMP1_OST_ID_0" {print $5}' <<<"$dump" | sort -u | wc -l)
[ "$ost" = 2 ] || fail "the two files share a target ($ost distinct)"
echo "ok: file per process, one record per rank, on different targets"

# 3. the tracer alone: nothing Lustre
run "$work/plain.darshan" "$tracer" --dir "$mnt/wide"
dump=$("$iosage" dump "$work/plain.darshan") || fail "dump plain"
grep -q "^LUSTRE" <<<"$dump" && fail "LUSTRE records without the emulator"
grep -qP "\tlustre$" <<<"$dump" && fail "a lustre mount without the emulator"
echo "ok: without the emulator no LUSTRE data"
