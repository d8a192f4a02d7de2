#!/usr/bin/env bash
# tests/limits/run.sh IOSAGE EXAMPLE_WRITER [PEAK_KB] - bounded memory on hostile logs
# (issue 17 point 6): a log whose POSIX region is a zlib stream of 2 GiB of
# zeros (2 MB stored) is refused at the region's inflation limit
# (src/darshan/internal.h, IOS_INFLATE_RATIO) with one line naming the module
# and the limit; dump exits 3, analyze reports the rest of the log with a
# warning, batch writes the other logs' rows; peak memory stays bounded.
# Before the limit: analyze took 28 s and 4.8 GB on this log.
set -u
iosage=$1 writer=$2 limit_kb=${3:-102400}
py=/usr/bin/python3
[ -x "$py" ] || { echo "no /usr/bin/python3: skipped"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

"$writer" "$tmp/good.darshan" >/dev/null || { echo "writer failed"; exit 1; }
stored=$("$py" "$here/mkbomb.py" "$tmp/good.darshan" "$tmp/bomb.darshan" 2)
[ "$stored" -lt 2200000 ] && ok || bad "bomb region of $stored bytes, want about 2 MB"

# peak KB (ru_maxrss of the child), exit status, then the command's stderr
peak() {
  "$py" - "$@" <<'PY'
import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, p.returncode)
sys.stdout.write(p.stderr.decode(errors="replace"))
PY
}
# PEAK_KB: 100 MB for a release build (70-80 MB measured), more for the
# sanitizer build (tests/limits/tests.cmake); 4.8 GB before the limit.

out=$(peak "$iosage" dump --all "$tmp/bomb.darshan")
read -r kb rc <<<"$(head -1 <<<"$out")"
msg=$(sed -n 2,99p <<<"$out" | grep '^iosage:')
[ "$rc" = 3 ] && ok || bad "dump exit $rc, want 3"
[ "$kb" -lt "$limit_kb" ] && ok || bad "dump peak $kb KB"
[ "$(wc -l <<<"$msg")" = 1 ] && ok || bad "dump: not one iosage line: $msg"
grep -q "bomb.darshan: POSIX module: region inflates past its limit of 63.70 MiB (32 times its 1.99 MiB stored, at least 16.00 MiB, at most 1024.00 MiB" <<<"$msg" \
  && ok || bad "dump message: $msg"

out=$(peak "$iosage" analyze "$tmp/bomb.darshan" --format json -o "$tmp/r.json")
read -r kb rc <<<"$(head -1 <<<"$out")"
[ "$rc" = 0 ] && ok || bad "analyze exit $rc"
[ "$kb" -lt "$limit_kb" ] && ok || bad "analyze peak $kb KB"
"$py" - "$tmp/r.json" <<'PY' && ok || bad "analyze warning: $(head -c 600 "$tmp/r.json")"
import json, sys
d = json.load(open(sys.argv[1]))
w = [x for x in d["warnings"] if x.startswith("the POSIX region was not read whole (region inflates past its limit of 63.70 MiB")]
assert len(w) == 1, d["warnings"]
assert d["job"]["partial"] is True
PY

mkdir "$tmp/dir"
cp "$tmp/bomb.darshan" "$tmp/dir/a-bomb.darshan"
cp "$tmp/good.darshan" "$tmp/dir/b-good.darshan"
cp "$tmp/good.darshan" "$tmp/dir/c-good.darshan"
out=$(peak "$iosage" batch "$tmp/dir" --format csv -o "$tmp/b.csv")
read -r kb rc <<<"$(head -1 <<<"$out")"
[ "$rc" = 0 ] && ok || bad "batch exit $rc"
[ "$kb" -lt "$limit_kb" ] && ok || bad "batch peak $kb KB"
"$py" - "$tmp/b.csv" <<'PY' && ok || bad "batch rows: $(cut -c1-200 "$tmp/b.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
st = {r["file"].rsplit("/", 1)[1]: (r["status"], r["error"]) for r in rows}
assert st["a-bomb.darshan"][0] == "partial", st
assert "inflates past its limit" in st["a-bomb.darshan"][1], st
assert st["b-good.darshan"] == ("ok", "") and st["c-good.darshan"] == ("ok", ""), st
PY

# the limits are adjustable: the good log's regions pass by default and are
# refused under a cap of 100 bytes; a ratio of 2000 lets the bomb through
# as far as the cap (64 MiB here, so it is still refused, at 64 MiB)
"$iosage" dump --all "$tmp/good.darshan" >/dev/null 2>&1
[ $? = 0 ] && ok || bad "good log refused by default"
msg=$(IOSAGE_MAX_REGION_BYTES=100 "$iosage" dump --all "$tmp/good.darshan" 2>&1 >/dev/null | grep '^iosage:' | head -1)
grep -q "region inflates past its limit of 100 bytes (32 times its [0-9]* bytes stored, at least 100 bytes, at most 100 bytes" <<<"$msg" \
  && ok || bad "IOSAGE_MAX_REGION_BYTES: $msg"
msg=$(IOSAGE_MAX_INFLATE_RATIO=2000 IOSAGE_MAX_REGION_BYTES=67108864 "$iosage" dump --all "$tmp/bomb.darshan" 2>&1 >/dev/null | grep '^iosage:')
grep -q "limit of 64.00 MiB (2000 times its 1.99 MiB stored, at least 16.00 MiB, at most 64.00 MiB" <<<"$msg" \
  && ok || bad "IOSAGE_MAX_INFLATE_RATIO: $msg"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
