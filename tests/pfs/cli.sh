#!/usr/bin/env bash
# tests/pfs/cli.sh IOSAGE - `iosage pfs setstripe|getstripe|script`.
set -u
iosage=$1
work=$(mktemp -d /dev/shm/pfs-cli.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect() {  # WANT_RC WANT_TEXT CMD...
  local want=$1 text=$2; shift 2
  out=$("$@" 2>&1); rc=$?
  [ $rc = "$want" ] || fail "$*: exit $rc, want $want ($out)"
  case "$out" in *"$text"*) ;; *) fail "$*: '$out' lacks '$text'";; esac
}
mkdir "$work/d"
expect 0 "" "$iosage" pfs setstripe -c 4 -S 4m "$work/d"
expect 0 "d: stripe_count=4 stripe_size=4194304" "$iosage" pfs getstripe "$work/d"
expect 0 "" "$iosage" pfs setstripe -c -1 -i 3 "$work/d/f"
[ -f "$work/d/f" ] && [ ! -s "$work/d/f" ] || fail "setstripe did not make an empty file"
expect 0 "f: stripe_count=-1 stripe_size=1048576 stripe_index=3" "$iosage" pfs getstripe "$work/d/f"
expect 3 "has a layout already" "$iosage" pfs setstripe -c 2 "$work/d/f"
expect 0 "no layout of its own" "$iosage" pfs getstripe "$work"
expect 2 "bad stripe size '3k'" "$iosage" pfs setstripe -S 3k "$work/g"
expect 2 "bad stripe count '0'" "$iosage" pfs setstripe -c 0 "$work/g"
expect 2 "unknown setstripe option '-E'" "$iosage" pfs setstripe -E 64m "$work/g"
expect 2 "unknown pfs subcommand" "$iosage" pfs stripe "$work/g"
expect 0 "Usage: iosage pfs setstripe" "$iosage" pfs --help
[ ! -e "$work/g" ] || fail "a usage error made a file"
mkdir "$work/out"
printf '#!/bin/bash\n#SBATCH -N 4\nlfs setstripe -c 8 -S 2m $SCR/out   # wide\nlfs setstripe --stripe-count 2 ${SCR}/ckpt.h5\n# lfs setstripe -c 9 $SCR/nothing\n' >"$work/job.sh"
SCR=$work expect 0 "2 lfs setstripe lines applied" "$iosage" pfs script "$work/job.sh"
expect 0 "out: stripe_count=8 stripe_size=2097152" "$iosage" pfs getstripe "$work/out"
expect 0 "ckpt.h5: stripe_count=2 stripe_size=1048576" "$iosage" pfs getstripe "$work/ckpt.h5"
[ ! -e "$work/nothing" ] || fail "a commented line was applied"
expect 3 "No such file" "$iosage" pfs script "$work/missing.sh"
echo "ok: iosage pfs"
