#!/usr/bin/env bash
# tests/cli/run.sh IOSAGE EXAMPLE_WRITER - the command line keeps its promises:
# help on stdout with exit 0, usage errors as one stderr line with exit 2,
# unreadable input as one stderr line with exit 3, data on stdout.
#
# Every case's whole stdout and stderr are compared with tests/cli/golden/
# <case>.out and .err (the temporary directory written as <tmp>). After an
# intended change, IOSAGE_CLI_REFRESH=1 rewrites the golden files; review
# them with git diff.
set -u
export TZ=UTC
iosage=$1
writer=$2
golden=$(cd "$(dirname "$0")" && pwd)/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# same_as_golden NAME: 1 when $tmp/out and $tmp/err are the golden files of
# case NAME (written first with IOSAGE_CLI_REFRESH)
same_as_golden() {
  local slug ok=1 s
  slug=$(printf '%s' "$1" | tr -c 'A-Za-z0-9_-' '-')
  for s in out err; do
    sed "s|$tmp|<tmp>|g" "$tmp/$s" >"$tmp/$s.golden"
    if [ -n "${IOSAGE_CLI_REFRESH:-}" ]; then
      mkdir -p "$golden" && cp "$tmp/$s.golden" "$golden/$slug.$s"
    fi
    if ! cmp -s "$tmp/$s.golden" "$golden/$slug.$s"; then
      echo "FAIL $1: $s differs from tests/cli/golden/$slug.$s:" >&2
      diff "$golden/$slug.$s" "$tmp/$s.golden" 2>&1 | head -5 >&2
      ok=0
    fi
  done
  [ $ok -eq 1 ]
}

# expect NAME WANT_RC WANT_STDOUT_LINES(or -) WANT_STDERR_LINES(or -) CMD...
expect() {
  local name=$1 rc=$2 out_lines=$3 err_lines=$4
  shift 4
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  local ok=1
  [ "$got" -eq "$rc" ] || ok=0
  if [ "$out_lines" != - ] && [ "$(wc -l <"$tmp/out")" -ne "$out_lines" ]; then ok=0; fi
  if [ "$err_lines" != - ] && [ "$(wc -l <"$tmp/err")" -ne "$err_lines" ]; then ok=0; fi
  same_as_golden "$name" || ok=0
  if [ $ok -eq 1 ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name: exit $got (want $rc), stdout $(wc -l <"$tmp/out") lines, stderr:" >&2
    head -3 "$tmp/err" >&2
  fi
}

expect "help" 0 - 0 "$iosage" --help
expect "help mentions dump" 0 1 0 sh -c "\"$iosage\" --help | grep -c '^  dump '"
expect "version" 0 1 0 "$iosage" --version
expect "no command" 2 0 1 "$iosage"
expect "unknown command" 2 0 1 "$iosage" frobnicate
expect "unknown option" 2 0 1 "$iosage" --frobnicate
expect "dump help" 0 - 0 "$iosage" dump --help
expect "dump no log" 2 0 1 "$iosage" dump
expect "dump bad flag" 2 0 1 "$iosage" dump --bogus x.darshan
expect "dump two logs" 2 0 1 "$iosage" dump a.darshan b.darshan
expect "dump missing file" 3 0 1 "$iosage" dump "$tmp/missing.darshan"
printf 'not a log at all, only text\n' >"$tmp/text.darshan"
expect "dump text file" 3 0 1 "$iosage" dump "$tmp/text.darshan"
: >"$tmp/empty.darshan"
expect "dump empty file" 3 0 1 "$iosage" dump "$tmp/empty.darshan"

# Our own log: written, dumped, values as written.
"$writer" "$tmp/demo.darshan"
expect "writer" 0 0 0 "$writer" "$tmp/demo2.darshan"
expect "dump demo" 0 - 0 "$iosage" dump "$tmp/demo.darshan"
TZ=UTC "$iosage" dump --all "$tmp/demo.darshan" >"$tmp/demo.txt" 2>/dev/null
check_line() {
  if grep -qF -- "$1" "$tmp/demo.txt"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL demo dump lacks: $1" >&2; fi
}
check_line "# nprocs: 4"
check_line "# run time: 2.5000"
check_line "# start_time_asci: Tue Dec  2 08:00:00 2025"
check_line "# metadata: lib_ver = 3.4.7"
check_line "POSIX	-1	"
check_line "	POSIX_WRITES	4096	/lus/scratch/demo/out.dat	/lus/scratch	lustre"
check_line "	MPIIO_INDEP_WRITES	4096	/lus/scratch/demo/out.dat	/lus/scratch	lustre"
check_line "	STDIO_BYTES_WRITTEN	2048	/home/demo/run.log	/home	nfs"
check_line "total_POSIX_BYTES_WRITTEN: 16777216"

# The Drishti-like baseline: one JSON line per log, an error object for an
# unreadable one (exit 3, the others still evaluated).
expect "rules help" 0 - 0 "$iosage" rules --help
expect "rules no log" 2 0 1 "$iosage" rules
expect "rules bad flag" 2 0 1 "$iosage" rules --bogus "$tmp/demo.darshan"
expect "rules demo" 0 1 0 "$iosage" rules "$tmp/demo.darshan"
expect "rules demo and missing" 3 2 1 "$iosage" rules "$tmp/demo.darshan" "$tmp/missing.darshan"
"$iosage" rules "$tmp/missing.darshan" 2>/dev/null | grep -q '^{"file":".*missing.darshan","error":"' &&
  pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL rules error line" >&2; }

# A truncated copy: what can be read is printed, the problem is one line, exit 3.
head -c 1500 "$tmp/demo.darshan" >"$tmp/cut.darshan"
expect "dump truncated" 3 - 1 "$iosage" dump "$tmp/cut.darshan"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
