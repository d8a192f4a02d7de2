#!/usr/bin/env bash
# tests/pfs/run.sh LIB WORKLOAD PROFILES_DIR MPIEXEC - the preload library
# in real runs (see tests.cmake). Exit 77 (skip) without the library.
set -u
lib=$1 wl=$2 profiles=$3 mpiexec=${4:-}
[ -f "$lib" ] || { echo "skip: $lib not built"; exit 77; }
work=$(mktemp -d /dev/shm/pfs-test.XXXXXX) || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
py=/usr/bin/python3
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# The tests' ASan runtime must come first; the library is not instrumented.
export ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0

# 1. Without IOSAGE_PFS_PROFILE and _MOUNT nothing changes: same bytes, the
#    emulator never switches on (no stats line although asked for one), no
#    attribute, no sleeping.
unset IOSAGE_PFS_PROFILE IOSAGE_PFS_MOUNT IOSAGE_PFS_JOB IOSAGE_PFS_STATS
"$wl" interleaved "$work/plain" >/dev/null || fail "plain run"
LD_PRELOAD=$lib IOSAGE_PFS_STATS=$work/off.stats "$wl" interleaved "$work/preloaded" >"$work/out" ||
  fail "preloaded run without IOSAGE_PFS_*"
cmp -s "$work/plain" "$work/preloaded" || fail "the preloaded run wrote other bytes"
[ ! -e "$work/off.stats" ] || fail "the emulator switched on without a profile and a mount"
$py -c "import os,sys; sys.exit(1 if 'user.iosage.stripe' in os.listxattr('$work/preloaded') else 0)" \
  || fail "layout attribute set without IOSAGE_PFS_*"
s=$(sed -n 's/^seconds=//p' "$work/out")
$py -c "import sys; sys.exit(0 if $s < 0.2 else 1)" || fail "64 small writes took $s s without emulation"
echo "ok: nothing changes without IOSAGE_PFS_* ($s s)"

# 2. A bad profile: one line naming the file, exit 2.
printf 'ost.count = 4\nost.cuont = 3\n' >"$work/bad.pfs"
mkdir -p "$work/mnt"
LD_PRELOAD=$lib IOSAGE_PFS_PROFILE=$work/bad.pfs IOSAGE_PFS_MOUNT=$work/mnt \
  "$wl" blocks "$work/mnt/x" >"$work/out" 2>"$work/err"
rc=$?
[ $rc = 2 ] || fail "bad profile: exit $rc, want 2"
grep -q "bad.pfs: line 2: unknown key 'ost.cuont'" "$work/err" || fail "bad profile message: $(cat "$work/err")"
[ ! -e "$work/mnt/x" ] || fail "bad profile: the program ran anyway"
echo "ok: bad profile -> $(head -1 "$work/err")"

# 3. Two ranks, one shared file under the small HDD profile: interleaved
#    4 KiB writes revoke locks and are slower than per-rank blocks.
#    The mount's directory default makes a stripe 256 KiB: one rank's block.
[ -n "$mpiexec" ] && [ -x "$mpiexec" ] || { echo "skip: no mpiexec for the 2-rank part"; exit 0; }
$py -c "import os; os.setxattr('$work/mnt', 'user.iosage.stripe', b'1 262144')" || fail "setxattr on tmpfs"

run2() {  # MODE FILE STATS
  "$mpiexec" -np 2 --oversubscribe --bind-to none \
    -x LD_PRELOAD="$lib" -x IOSAGE_PFS_PROFILE="$profiles/lustre-hdd-small.pfs" \
    -x IOSAGE_PFS_MOUNT="$work/mnt" -x IOSAGE_PFS_STATS="$3" -x ASAN_OPTIONS \
    "$wl" "$1" "$2"
}
run2 interleaved "$work/mnt/il" "$work/il.stats" >"$work/il.out" || fail "interleaved run"
run2 blocks "$work/mnt/bl" "$work/bl.stats" >"$work/bl.out" || fail "blocks run"
il=$(sed -n 's/^seconds=//p' "$work/il.out")
bl=$(sed -n 's/^seconds=//p' "$work/bl.out")
echo "interleaved 4 KiB: $il s, per-rank blocks: $bl s"
cat "$work/il.stats" "$work/bl.stats"
$py -c "import sys; sys.exit(0 if $il > 3 * $bl else 1)" || fail "interleaved ($il s) not 3x slower than blocks ($bl s)"
# interleaved: 128 requests that cannot merge, each its own 4 KiB RPC (and
# lock revocations when the ranks overlap in time); blocks: one 256 KiB
# RPC per rank, no revocation
rpcs=$(sed -n 's/.* write_rpcs=\([0-9]*\).*/\1/p' "$work/il.stats")
[ "${rpcs:-0}" -ge 128 ] || fail "interleaved: $rpcs write RPCs, want >= 128"
grep -q ' write_rpcs=2 ' "$work/bl.stats" || fail "blocks: write RPCs"
grep -q ' revocations=0 ' "$work/bl.stats" || fail "blocks: revocations"
# the model's minimum for the interleaved run: 128 RPCs of 4 KiB on one
# target, 2.4 ms each (less 5%: a rank may start up to 2 ms of credit early
# and leave 100 us of debt unslept)
$py -c "import sys; sys.exit(0 if $il > 0.95 * 128 * 0.0024 else 1)" || fail "interleaved faster ($il s) than 128 small RPCs"
echo "ok: 2 ranks, interleaved slower than blocks"

# 4. Layouts: a new file carries its directory's default; MPI-IO hints
#    override it.
lay=$($py -c "import os; print(os.getxattr('$work/mnt/bl','user.iosage.stripe').decode())")
case "$lay" in "1 262144 "*) ;; *) fail "directory default gave layout '$lay'";; esac
"$mpiexec" -np 2 --oversubscribe --bind-to none -x LD_PRELOAD="$lib" \
  -x IOSAGE_PFS_PROFILE="$profiles/lustre-hdd-small.pfs" -x IOSAGE_PFS_MOUNT="$work/mnt" \
  -x ASAN_OPTIONS "$wl" mpicreate "$work/mnt/hinted" || fail "mpicreate run"
lay=$($py -c "import os; print(os.getxattr('$work/mnt/hinted','user.iosage.stripe').decode())")
case "$lay" in "3 2097152 "*) ;; *) fail "MPI-IO hints gave layout '$lay'";; esac
echo "ok: layouts ($lay from striping_factor=3 striping_unit=2097152)"
