#!/usr/bin/env bash
# tests/gen/random.sh IOSAGE - `iosage gen --pfs-random`: every run draws
# its own system from its seed. Checks that a drawn run has its profile
# beside the log (logs/<run>.pfs) with every figure inside the documented
# ranges and ran on the emulated mount, that a native run has none and ran
# outside it, that the manifest's system column names what was drawn, that
# the draw depends on the run id only (a second sweep elsewhere draws the
# same systems), and that a manifest from before the system column is
# resumed. Skips (77) without the kernels, the tracer or the emulator.
# Runs one at a time (-j 1): two mpiruns starting together in a fresh
# TMPDIR can race on creating Open MPI's session directory.
set -u
iosage=$1
dir=$(dirname "$iosage")
[ -x "$dir/bench/ior_like" ] && [ -f "$dir/trace/libiosage-trace-mpi.so" ] &&
  [ -f "$dir/pfs/libiosage-pfs.so" ] || { echo "skip: kernels, tracer or emulator not built"; exit 77; }
work=$(mktemp -d) || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
export TMPDIR=$work
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi; }

cat >"$work/s.sweep" <<'EOF'
w ior_like 2 6 healthy train --api posix --file-per-proc --transfer 64k --block 128k --write
EOF
gen() { "$iosage" gen "$work/s.sweep" -o "$1" -j 1 -q \
          --pfs-random lustre-hdd-small,lustre-flash-large,gpfs-like --native-share 40; }
gen "$work/a" || bad "gen failed: $(cat "$work"/a/logs/*.out)"
m=$work/a/manifest.tsv
check "header" "$(head -1 "$m" | cut -f11,12)" "$(printf 'status\tsystem')"
check "ok runs" "$(awk -F'\t' 'NR > 1 && $11 == "ok"' "$m" | wc -l)" 6

# ranges of docs/dataset.md ("Randomized systems")
in_range() { /usr/bin/python3 -c "import sys; v=float('$2'); sys.exit(0 if $3 <= v <= $4 else 1)" ||
             bad "$1 = $2 outside [$3, $4]"; }
key() { awk -F' = ' -v k="$1" '$1 == k {print $2}' "$2"; }
native=0 drawn=0
for r in 0 1 2 3 4 5; do
  id=w-r$r pfs=$work/a/logs/w-r$r.pfs
  sys=$(awk -F'\t' -v id="$id" '$1 == id {print $12}' "$m")
  path=$("$iosage" dump "$work/a/logs/$id.darshan" |
         awk -F'\t' '$1 == "POSIX" && $6 ~ /ior_like\.dat\.0$/ {print $6; exit}')
  if [ "$sys" = native ]; then
    native=$((native + 1))
    [ -e "$pfs" ] && bad "$id: native run with a profile"
    case $path in */iosage-pfs.*) bad "$id: native run on the emulated mount ($path)" ;; *) ok ;; esac
    continue
  fi
  drawn=$((drawn + 1))
  [ -f "$pfs" ] || { bad "$id: no $pfs"; continue; }
  check "$id: column names the profile" "${sys%%:*}" "$(key name "$pfs")"
  case $path in */iosage-pfs.*/mnt/*) ok ;; *) bad "$id: not on the emulated mount ($path)" ;; esac
  in_range "$id ost.count" "$(key ost.count "$pfs")" 1 64
  in_range "$id ost.write_mibs" "$(key ost.write_mibs "$pfs")" 190 4770
  in_range "$id ost.write_rpc_us" "$(key ost.write_rpc_us "$pfs")" 50 2000
  in_range "$id mds.open_us" "$(key mds.open_us "$pfs")" 20 1000
  case $(key stripe.size "$pfs") in 64k|128k|256k|512k|1m|2m|4m|8m|16m) ok ;;
    *) bad "$id stripe.size $(key stripe.size "$pfs")" ;; esac
  case $(key stripe.count "$pfs") in -1|1|2|4|8|16) ok ;;
    *) bad "$id stripe.count $(key stripe.count "$pfs")" ;; esac
  case $(key client.cache "$pfs") in 64m|128m|256m|512m|1g|2g|4g|8g) ok ;;
    *) bad "$id client.cache $(key client.cache "$pfs")" ;; esac
done
# the six run ids draw 3 native and 3 emulated systems (fixed by their seeds)
check "native runs" "$native" 3
check "drawn runs" "$drawn" 3

# the same run ids elsewhere draw the same systems
gen "$work/b" || bad "second gen failed"
for f in "$work"/a/logs/*.pfs; do
  cmp -s "$f" "$work/b/logs/$(basename "$f")" && ok || bad "$(basename "$f") drawn differently"
done
check "same system column" "$(cut -f1,12 "$work/b/manifest.tsv")" "$(cut -f1,12 "$m")"

# a manifest from before the system column: its ok run is not run again,
# and its row gets "-" (unknown system)
mkdir -p "$work/c/logs"
cp "$work/a/logs/w-r0.darshan" "$work/c/logs/"
printf 'run_id\tconfig_id\tkernel\tflags\tranks\tlabels\tseed\twall_seconds\tlog\tsplit\tstatus\n' >"$work/c/manifest.tsv"
awk -F'\t' -v OFS='\t' '$1 == "w-r0" {NF = 11; print}' "$m" >>"$work/c/manifest.tsv"
out=$("$iosage" gen "$work/s.sweep" -o "$work/c" --pfs-random gpfs-like 2>&1 >/dev/null | tail -1)
case $out in *"5 ok, 0 failed, 1 already done"*) ok ;; *) bad "resume of an old manifest: $out" ;; esac
check "old row padded" "$(awk -F'\t' '$1 == "w-r0" {print NF, $11, $12}' "$work/c/manifest.tsv")" "12 ok -"

# without --native-share, 20% of the draws are native: for these six seeds
# the runs whose first draw is under 0.2 (w-r0 0.084, w-r3 0.040, w-r5 0.071;
# the others 0.44-0.86). Until 2026-12-03 the default was lost (no native run).
"$iosage" gen "$work/s.sweep" -o "$work/e" -j 1 -q --pfs-random gpfs-like 2>/dev/null
check "native runs at the default share" \
    "$(awk -F'\t' 'NR > 1 && $12 == "native" {print $1}' "$work/e/manifest.tsv")" "$(printf 'w-r0\nw-r3\nw-r5')"

"$iosage" gen "$work/s.sweep" -o "$work/d" --pfs gpfs-like --pfs-random gpfs-like 2>/dev/null
check "--pfs with --pfs-random is a usage error" $? 2
"$iosage" gen "$work/s.sweep" -o "$work/d" --native-share 50 2>/dev/null
check "--native-share without --pfs-random is a usage error" $? 2
"$iosage" gen "$work/s.sweep" -o "$work/d" --pfs-random gpfs-like --native-share 101 2>/dev/null
check "--native-share over 100 is a usage error" $? 2
"$iosage" gen "$work/s.sweep" -o "$work/d" --pfs-random no-such-profile 2>"$work/err"
check "unknown base profile exit" $? 3
check "unknown base profile one line" "$(wc -l <"$work/err")" 1

echo "random: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
