#!/usr/bin/env bash
# process_logs.sh TRACER.so WL_FORK IOSAGE WORKDIR - the tracer never loses a
# process's log (issue 17 point 3): every process of a traced job writes its
# own log, under IOSAGE_LOG for the first and with its pid inserted for the
# others (run.darshan, run.<pid>.darshan, run.<pid>.1.darshan); no log ever
# replaces another file; a forked child writes a log of its own I/O (always
# with its pid in the name), none when it touched only the standard
# streams; an exec writes the replaced process's log first; 8 threads
# count exactly.
set -u
tracer=$1 wl=$2 iosage=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# value COUNTER FILE_SUFFIX LOG: the counter of the record whose name ends
# in FILE_SUFFIX (0 when there is none)
value() {
  "$iosage" dump "$3" | awk -v c="$1" -v f="$2" '
    $4 == c && substr($6, length($6) - length(f) + 1) == f { v += $5; n++ }
    END { print n ? v : 0 }'
}
# the sum of a counter over the records of every log given
total() {
  local c=$1; shift
  for l in "$@"; do "$iosage" dump "$l"; done |
    awk -v c="$c" '$4 == c && $6 !~ /^</ { v += $5 } END { print v + 0 }'
}

# --- 1. a script whose commands are traced processes ----------------------------
d=$work/script
mkdir -p "$d"
printf 'keep me\n' >"$d/old.darshan"
env LD_PRELOAD="$tracer" IOSAGE_LOG="$d/run.darshan" IOSAGE_TRACE_QUIET=1 \
  bash -c 'dd if=/dev/zero of="$0/a" bs=4096 count=10 2>/dev/null
           dd if=/dev/zero of="$0/b" bs=8192 count=5 2>/dev/null
           dd if=/dev/zero of="$0/c" bs=1024 count=3 2>/dev/null
           cat "$0/a" >/dev/null; true' "$d" || bad "traced script failed"
logs=("$d"/run*.darshan)
# bash, three dd and one cat: five processes, five logs
[ "${#logs[@]}" = 5 ] && ok || bad "script: ${#logs[@]} logs, want 5: ${logs[*]}"
[ -f "$d/run.darshan" ] && ok || bad "script: no run.darshan"
others=$(ls "$d" | grep -cE '^run\.[0-9]+\.darshan$')
[ "$others" = 4 ] && ok || bad "script: $others logs named run.<pid>.darshan, want 4"
w=$(total POSIX_BYTES_WRITTEN "${logs[@]}")
[ "$w" = $((40960 + 40960 + 3072)) ] && ok || bad "script: $w bytes written over the logs, want 84992"
r=$(total POSIX_BYTES_READ "${logs[@]}")
[ "$r" = 40960 ] && ok || bad "script: $r bytes read, want 40960"
n=$(for l in "${logs[@]}"; do "$iosage" dump "$l" | grep -c '^# exe: dd '; done | awk '{s += $1} END {print s}')
[ "$n" = 3 ] && ok || bad "script: $n logs of dd, want 3"
[ "$(cat "$d/old.darshan")" = "keep me" ] && ok || bad "an unrelated file changed"
ls "$d" | grep -q '\.part$' && bad "a temporary file was left" || ok

# --- 2. an existing log is never replaced -----------------------------------------
d=$work/exists
mkdir -p "$d"
printf 'not a log\n' >"$d/run.darshan"
env LD_PRELOAD="$tracer" IOSAGE_LOG="$d/run.darshan" IOSAGE_TRACE_QUIET=1 \
  dd if=/dev/zero of="$d/x" bs=4096 count=2 2>/dev/null || bad "dd failed"
[ "$(cat "$d/run.darshan")" = "not a log" ] && ok || bad "run.darshan was replaced"
l=$(ls "$d" | grep -E '^run\.[0-9]+\.darshan$')
[ -n "$l" ] && [ "$(value POSIX_BYTES_WRITTEN /x "$d/$l")" = 8192 ] && ok || bad "no run.<pid>.darshan with 8192 bytes: $(ls "$d")"

# --- 3. exec: the replaced process's log is written first ------------------------------
d=$work/exec
mkdir -p "$d"
env LD_PRELOAD="$tracer" IOSAGE_LOG="$d/run.darshan" IOSAGE_TRACE_QUIET=1 \
  /bin/sh -c 'echo hello >"$0/f"; exec /bin/cat "$0/f"' "$d" >/dev/null || bad "sh; exec cat failed"
logs=("$d"/run*.darshan)
[ "${#logs[@]}" = 2 ] && ok || bad "exec: ${#logs[@]} logs, want 2 (sh before its exec, cat)"
[ "$(value POSIX_BYTES_WRITTEN /f "$d/run.darshan")" = 6 ] && ok || bad "exec: the shell's write of f is not in run.darshan"
l=$(ls "$d" | grep -E '^run\.[0-9]+\.darshan$')
[ -n "$l" ] && [ "$(value POSIX_BYTES_READ /f "$d/$l")" = 6 ] && ok || bad "exec: cat's read of f"

# --- 4. a program that forks --------------------------------------------------------
d=$work/fork
mkdir -p "$d"
env LD_PRELOAD="$tracer" IOSAGE_LOG="$d/run.darshan" IOSAGE_TRACE_QUIET=1 \
  "$wl" fork "$d" || bad "wl_fork fork failed"
logs=("$d"/run*.darshan)
[ "${#logs[@]}" = 2 ] && ok || bad "fork: ${#logs[@]} logs, want 2"
child="" parent=""
for l in "${logs[@]}"; do
  if [ "$(value POSIX_BYTES_WRITTEN /child.dat "$l")" != 0 ]; then child=$l; else parent=$l; fi
done
# a forked child never takes the first name, though it exits first
[ "$parent" = "$d/run.darshan" ] && ok || bad "fork: the parent's log is $parent"
[[ "$child" =~ /run\.[0-9]+\.darshan$ ]] && ok || bad "fork: the child's log is $child"
[ "$(value POSIX_BYTES_WRITTEN /child.dat "$child")" = 20480 ] && ok || bad "fork: child.dat in the child's log"
[ "$(value POSIX_BYTES_WRITTEN /shared.dat "$child")" = 8192 ] && ok || bad "fork: the inherited descriptor in the child's log: $(value POSIX_BYTES_WRITTEN /shared.dat "$child")"
[ "$(value POSIX_OPENS /parent.dat "$child")" = 0 ] && ok || bad "fork: the parent's untouched file is in the child's log"
[ "$(value POSIX_BYTES_WRITTEN /parent.dat "$parent")" = 16384 ] && ok || bad "fork: parent.dat in the parent's log"
[ "$(value POSIX_BYTES_WRITTEN /shared.dat "$parent")" = 4096 ] && ok || bad "fork: shared.dat in the parent's log"
[ "$(value POSIX_BYTES_WRITTEN /child.dat "$parent")" = 0 ] && ok || bad "fork: the child's file is in the parent's log"

# --- 5. eight threads ------------------------------------------------------------------
d=$work/threads
mkdir -p "$d"
env LD_PRELOAD="$tracer" IOSAGE_LOG="$d/run.darshan" IOSAGE_TRACE_QUIET=1 \
  "$wl" threads "$d" || bad "wl_fork threads failed"
l=$d/run.darshan
[ "$(value POSIX_WRITES /all.dat "$l")" = 128 ] && ok || bad "threads: all.dat writes $(value POSIX_WRITES /all.dat "$l"), want 128"
[ "$(value POSIX_BYTES_WRITTEN /all.dat "$l")" = 524288 ] && ok || bad "threads: all.dat bytes"
[ "$(value POSIX_MAX_BYTE_WRITTEN /all.dat "$l")" = 524287 ] && ok || bad "threads: all.dat max byte"
[ "$(total POSIX_WRITES "$l")" = 256 ] && ok || bad "threads: $(total POSIX_WRITES "$l") writes in all, want 256"
[ "$(total POSIX_OPENS "$l")" = 9 ] && ok || bad "threads: $(total POSIX_OPENS "$l") opens, want 9"

echo "process_logs: $pass passed, $fail failed"
[ "$fail" = 0 ]
