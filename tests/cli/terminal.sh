#!/usr/bin/env bash
# tests/cli/terminal.sh IOSAGE TRACER - issue 17, point 4: a file name from a
# log cannot act on the user's terminal.
#   - a log whose file name holds ESC ]0;...BEL (retitle), ESC [2J (clear)
#     and a C1 CSI (U+009B) is written by the tracer;
#   - `iosage dump` into a file (or a pipe) prints the name byte for byte,
#     as darshan-parser does; on a terminal (a pty, python3's pty module) it
#     prints \xHH for each of those bytes and no ESC, BEL or C1 at all, the
#     rest of the text unchanged;
#   - `iosage batch --format csv`, `iosage archive jobs` (text and CSV)
#     and `iosage label` show them as \xHH too (formula prefixes:
#     tests/batch/test_batch.c); the JSON lines keep the exact bytes;
#   - an error line naming such a file stays one line, escaped.
set -u
export TZ=UTC
iosage=$1
tracer=$2
py=/usr/bin/python3
if [ ! -x "$py" ] || [ ! -f "$tracer" ]; then
  echo "terminal: no $py or no tracer: skipped"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() {
  echo "FAIL $1" >&2
  fail=$((fail + 1))
}

name=$(printf '=x\033]0;pwned\007y\033[2J\302\233z')
escaped='=x\x1b]0;pwned\x07y\x1b[2J\xc2\x9bz'
mkdir "$tmp/run"
LD_PRELOAD=$tracer IOSAGE_LOG=$tmp/evil.darshan \
  bash -c 'echo data >"$1"' _ "$tmp/run/$name"
log=$(ls "$tmp"/evil*.darshan 2>/dev/null | head -1)
[ -n "$log" ] || { echo "FAIL the tracer wrote no log" >&2; exit 1; }

# not a terminal: the raw bytes, as darshan-parser prints them
"$iosage" dump "$log" >"$tmp/file.txt" 2>/dev/null
grep -aqF "$tmp/run/$name	" "$tmp/file.txt" && ok || bad "dump to a file: raw name missing"

# a terminal: every byte that acts on it escaped (pty: \n arrives as \r\n)
"$py" - "$iosage" "$log" >"$tmp/tty.txt" <<'PY' || bad "dump on a pty failed"
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], "dump", sys.argv[2]])
out = b""
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(out.replace(b"\r\n", b"\n"))
sys.exit(os.waitstatus_to_exitcode(status))
PY
grep -aqF "$tmp/run/$escaped	" "$tmp/tty.txt" && ok || bad "dump on a pty: escaped name missing"
if LC_ALL=C grep -aq $'[\033\007]\|\302\233' "$tmp/tty.txt"; then
  bad "dump on a pty printed a raw ESC, BEL or C1"
else
  ok
fi
# the same text otherwise: escape the file's bytes as the dump does
"$py" - "$tmp/file.txt" "$tmp/tty.txt" <<'PY' && ok || bad "dump on a pty differs beyond the escapes"
import sys
raw = open(sys.argv[1], "rb").read()
tty = open(sys.argv[2], "rb").read()
for b, e in ((b"\\", b"\\\\"), (b"\x1b", b"\\x1b"), (b"\x07", b"\\x07"),
             (b"\xc2\x9b", b"\\xc2\\x9b")):
    raw = raw.replace(b, e)
sys.exit(0 if raw == tty else 1)
PY

# CSV views: \xHH and the formula prefix neutralised; JSON exact
cp "$log" "$tmp/run/$name.darshan"
"$iosage" batch -q --format csv "$tmp/run" >"$tmp/rows.csv" 2>/dev/null
grep -aqF "$tmp/run/$escaped.darshan," "$tmp/rows.csv" && ok || bad "batch CSV: escaped file name missing"
LC_ALL=C grep -aq $'[\033\007]' "$tmp/rows.csv" && bad "batch CSV holds a raw control" || ok
"$iosage" batch -q --format jsonl "$tmp/run" >"$tmp/rows.jsonl" 2>/dev/null
"$py" - "$tmp/rows.jsonl" "$tmp/run/$name.darshan" <<'PY' && ok || bad "batch JSON: name not exact"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
sys.exit(0 if rows[0]["file"] == sys.argv[2] else 1)
PY
mkdir "$tmp/db"
"$iosage" batch -q --db "$tmp/db/a.db" "$tmp/run" >/dev/null 2>&1
"$iosage" archive jobs "$tmp/db/a.db" --format csv >"$tmp/jobs.csv" 2>/dev/null
LC_ALL=C grep -aq $'[\033\007]' "$tmp/jobs.csv" && bad "archive CSV holds a raw control" || ok
grep -aqF 'x\x1b]0;pwned\x07y' "$tmp/jobs.csv" && ok || bad "archive CSV: escaped exe missing"
grep -aqF "'-" "$tmp/jobs.csv" && bad "archive CSV quoted a number" || ok
# text views: the archive's table and label's TSV row (a tab or line feed
# in a name would also break the row)
"$iosage" archive jobs "$tmp/db/a.db" >"$tmp/jobs.txt" 2>/dev/null
LC_ALL=C grep -aq $'[\033\007]' "$tmp/jobs.txt" && bad "archive text holds a raw control" || ok
grep -aqF 'x\x1b]0;pwned\x07y' "$tmp/jobs.txt" && ok || bad "archive text: escaped exe missing"
tabname=$(printf 'a\tb\nc')
cp "$log" "$tmp/run/$tabname$name.darshan"
"$iosage" label --verbose "$tmp/run/$tabname$name.darshan" >"$tmp/label.tsv" 2>/dev/null
[ "$(wc -l <"$tmp/label.tsv")" -eq 1 ] && ok || bad "label: a name with a line feed broke the row"
LC_ALL=C grep -aq $'[\033\007]' "$tmp/label.tsv" && bad "label holds a raw control" || ok
grep -aqF "$tmp/run/a\x09b\x0ac$escaped.darshan	" "$tmp/label.tsv" && ok || bad "label: escaped path missing"

# error lines: a damaged log whose name holds controls and a line feed is
# named on one line, escaped
mkdir "$tmp/bad"
badname=$(printf 'b\033]0;pwned\007\nc.darshan')
echo garbage >"$tmp/bad/$badname"
"$iosage" analyze "$tmp/bad/$badname" >/dev/null 2>"$tmp/err.txt"
[ "$(wc -l <"$tmp/err.txt")" -eq 1 ] && ok || bad "error line: the name's line feed split it"
LC_ALL=C grep -aq $'[\033\007]' "$tmp/err.txt" && bad "error line holds a raw control" || ok
grep -aqF "b\x1b]0;pwned\x07\x0ac.darshan: header:" "$tmp/err.txt" && ok || bad "error line: escaped name missing: $(cat "$tmp/err.txt")"

echo "terminal: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
