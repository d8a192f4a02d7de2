# tests/testlib.sh - what the shell tests share; source it after `set -u`:
#
#   . "$(dirname "$0")/../testlib.sh"
#
# gives $tmp (a directory removed at exit), the counters pass and fail,
# ok, bad MESSAGE (counted, printed on stderr as "FAIL: MESSAGE"),
# check NAME GOT WANT, and finish NAME, the last command: one summary
# line, and the script's status (0 when nothing failed).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi; }
finish() {
  echo "${1:+$1: }$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
