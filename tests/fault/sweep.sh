#!/usr/bin/env bash
# tests/fault/sweep.sh MODE IOSAGE WRITER SHIM SHARED_LOGS DATA_LOGS
#
# Fault injection (issue 17, point 5): run each case below once without a
# fault (the shim counts its allocations A and writes W), then again with
# the Nth allocation failing (ENOMEM) and with the Nth write failing
# (ENOSPC, then EIO), and check every run:
#   - no crash, no sanitizer report (ASan, LeakSanitizer: no leak, UBSan);
#   - exit 0 with the same output as the run without a fault (the failure
#     was absorbed, e.g. a fallback), or exit 3 or 4 with a message on
#     stderr;
#   - an output file (-o) is either the complete new one or, after a
#     failure, the old one byte for byte, and no temporary file is left.
# MODE: sample (N = 1, 98, 195, ... : every 97th, for `make check`), or full
# (`make stress`): every N, except that of the allocations made inside
# jansson (json_loadb, json_object_set, json_dumps: 96% of an analyze run's,
# from parsing the built-in model bundle and building the report) only
# every 7th is failed: each fails one of the few jansson calls of iosage's
# code, and failing all of them would take hours without reaching new
# code. Writes are few: every N in both modes.
# Jobs: IOSAGE_FAULT_JOBS runs at a time (default 2); IOSAGE_FAULT_CASES: a
# regular expression, only the cases whose names match. Prints one line per
# case (runs, failures) and every failing run; exit 1 when any failed.
#
# The cases: the reader (dump --all) on 10 logs of different formats (3.00
# to 3.41, little- and big-endian, HDF5/PnetCDF/DXT modules, and logs
# written by the project's tracer), the writer (iosage-example-writer), a
# batch of 20 logs (-o, CSV), and analyze in every format (text, md, json,
# html) with --save-prompt.
set -u
# every path made absolute: each run starts in a directory of its own
# (`make stress` passes paths relative to the source tree)
abs() { case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
mode=$1 iosage=$(abs "$2") writer=$(abs "$3") shim=$(abs "$4")
shared=$(abs "$5") data=$(abs "$6")
jobs=${IOSAGE_FAULT_JOBS:-2}
[ "$mode" = full ] && stride=1 || stride=97
if [ ! -d "$shared" ] || [ ! -d "$data" ]; then
  echo "fault: no $shared or $data: skipped"
  exit 77
fi
export TZ=UTC
# the shim comes before the sanitizer runtime (see fault.c)
export ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=1:abort_on_error=0
# the loader's own allocations look like leaks through the shim (lsan.supp)
export LSAN_OPTIONS=print_suppressions=0:suppressions=$(cd "$(dirname "$0")" && pwd)/lsan.supp
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- the cases: NAME|OUT|COMMAND|GROUP (OUT: "-" for stdout, else a file
# the command writes; {OUT} in COMMAND is replaced by its path). Cases of
# one GROUP run the same steps up to a point (analyze of one log in every
# format: reading, the models, the document; then the view): in full mode
# the first allocations they share with a case of the group already swept
# (the same call sites in the same order, IOSAGE_FAULT_TRACE) are not
# failed again -------------------------------------------------------------
cases=()
for f in mpi-io-test-x86_64-3.0.0.darshan mpi-io-test-ppc64-3.0.1.darshan \
         mpi-io-test-x86_64-3.1.2.darshan mpi-io-test-ppc64-3.1.8.darshan \
         mpi-io-test-x86_64-3.2.1.darshan mpi-io-test-x86_64-3.4.0-pre1.darshan \
         mpi-io-test-x86_64-3.4.7.darshan \
         shane_ior-HDF5_id540575-540575_9-7-54660-17763983738006033572_1.darshan; do
  [ -f "$shared/$f" ] && cases+=("dump ${f%%_id*}|-|$iosage dump --all $shared/$f")
done
mapfile -t runs < <(ls "$data" | grep '\.darshan$' | head -20)
[ "${#runs[@]}" -eq 20 ] || { echo "fault: fewer than 20 logs in $data"; exit 77; }
cases+=("dump ${runs[0]}|-|$iosage dump --all $data/${runs[0]}")
cases+=("dump --dxt ${runs[1]}|-|$iosage dump --dxt $data/${runs[1]}")
cases+=("writer|out.darshan|$writer {OUT}")
mkdir "$tmp/batch"
for f in "${runs[@]}"; do ln -s "$data/$f" "$tmp/batch/$f"; done
cases+=("batch of 20|rows.csv|$iosage batch -q -j 1 --format csv $tmp/batch -o {OUT}")
log=$data/${runs[0]}
for fmt in text md json html; do
  cases+=("analyze $fmt|report.$fmt|$iosage analyze -q --format $fmt $log -o {OUT}|analyze")
done
cases+=("analyze --save-prompt|prompt.txt|$iosage analyze -q $log --save-prompt {OUT}|analyze")

# run_one DIR NAME OUT CMD FAULT_ENV...: one run in a fresh DIR; prints
# nothing when it passed, else one line saying why
run_one() {
  local dir=$1 name=$2 out=$3 cmd=$4
  shift 4
  rm -rf "$dir" && mkdir -p "$dir"
  local target=$dir/stdout.txt
  if [ "$out" != - ]; then
    target=$dir/$out
    printf 'the old output\n' >"$target"
  fi
  local c=${cmd//\{OUT\}/$target}
  (cd "$dir" && timeout 120 env LD_PRELOAD="$shim" "$@" $c >"$dir/stdout.txt" \
     2>"$dir/stderr.txt")
  local rc=$? why=
  echo $rc >"$dir/rc"
  if grep -q 'CHECK failed: .*pthread_getattr_np' "$dir/stderr.txt"; then
    # the ASan runtime's own check, when glibc's fopen of /proc/self/maps
    # inside pthread_getattr_np (for a thread it starts) gets the failing
    # allocation: the sanitizer's limit, not iosage's; not counted
    :
  elif grep -qE 'AddressSanitizer|LeakSanitizer|runtime error|UndefinedBehavior' "$dir/stderr.txt"; then
    why="sanitizer: $(grep -m1 -E 'ERROR|runtime error' "$dir/stderr.txt")"
  elif [ $rc -ge 124 ]; then
    why="exit $rc (crash or timeout)"
  elif [ $rc -eq 0 ]; then
    cmp -s "$target" "$tmp/ref/$name.out" || why="exit 0 but the output differs"
  elif [ $rc -ne 3 ] && [ $rc -ne 4 ]; then
    why="exit $rc"
  elif ! [ -s "$dir/stderr.txt" ]; then
    why="exit $rc without a message"
  elif [ "$out" != - ] && ! cmp -s "$target" "$tmp/ref/$name.out" &&
       [ "$(cat "$target")" != "the old output" ]; then
    why="exit $rc and a partial $out"
  fi
  if [ -z "$why" ] && [ -n "$(find "$dir" -name '*.tmp*' | head -1)" ]; then
    why="a temporary file was left"
  fi
  [ -n "$why" ] && echo "$why: $(head -c 200 "$dir/stderr.txt" | tr '\n' ' ')"
  return 0
}

# where noting_malloc lies in iosage (0 0: not found, nothing matches)
read -r jansson_lo jansson_hi < <(nm -S --defined-only "$iosage" 2>/dev/null |
  awk '$4 == "noting_malloc" { print $1, $2 }' | head -1 |
  while read -r a n; do echo $((16#$a)) $((16#$a + 16#$n)); done)
jansson_lo=${jansson_lo:-0} jansson_hi=${jansson_hi:-0}

mkdir "$tmp/ref"
total_runs=0 total_fail=0 bad_cases=0 n_cases=0
for spec in "${cases[@]}"; do
  IFS='|' read -r name out cmd group <<<"$spec"
  [[ $name =~ ${IOSAGE_FAULT_CASES:-.} ]] || continue
  n_cases=$((n_cases + 1))
  slug=$(printf '%s' "$name" | tr -c 'A-Za-z0-9' '_')
  # the run without a fault: counts and the reference output
  ref=$tmp/ref/$slug
  run_one "$ref" "$slug" "$out" "$cmd" IOSAGE_FAULT_REPORT="$tmp/ref/$slug.count" \
    IOSAGE_FAULT_TRACE="$tmp/ref/$slug.trace" >/dev/null
  [ "$out" = - ] && cp "$ref/stdout.txt" "$tmp/ref/$slug.out" || cp "$ref/$out" "$tmp/ref/$slug.out"
  read -r _ allocs _ writes <"$tmp/ref/$slug.count" 2>/dev/null || allocs=0
  if ! grep -q . "$tmp/ref/$slug.count" 2>/dev/null || [ "$(cat "$ref/rc")" != 0 ]; then
    echo "FAIL $name: the run without a fault failed: $(head -c 300 "$ref/stderr.txt")"
    bad_cases=$((bad_cases + 1))
    continue
  fi
  # every run with a fault, $jobs at a time
  # full mode: the allocations shared with a case of the group already
  # swept are skipped (see the cases)
  first=1 shared=
  if [ "$mode" = full ] && [ -n "$group" ]; then
    for t in "$tmp/ref"/*.trace.$group; do
      [ -f "$t" ] || continue
      same=$(cmp "$t" "$tmp/ref/$slug.trace" 2>/dev/null | sed -n 's/.*line \([0-9]*\).*/\1/p')
      [ -z "$same" ] && same=$(($(wc -l <"$t") + 1)) # one is a prefix of the other
      [ "$same" -gt "$first" ] && first=$same shared=" (the first $((same - 1)) as in $(basename "${t%.trace.*}"))"
    done
    cp "$tmp/ref/$slug.trace" "$tmp/ref/$slug.trace.$group"
  fi
  list=$tmp/list.$slug
  : >"$list"
  if [ "$mode" = full ]; then
    # every N from first, but only every 7th of those made inside jansson
    # (see the top): called from libjansson, or from iosage's noting_malloc,
    # which src/common/json.c gives jansson as its allocator
    awk -v first="$first" -v lo="$jansson_lo" -v hi="$jansson_hi" '
      function hex(s,   i, c, v) {
        v = 0; s = tolower(s); sub(/^\+?0x/, "", s)
        for (i = 1; i <= length(s); i++) {
          c = index("0123456789abcdef", substr(s, i, 1)); v = v * 16 + c - 1
        }
        return v
      }
      function jansson() {
        if ($1 ~ /^libjansson/) return 1
        return $1 ~ /^iosage/ && hex($2) >= lo && hex($2) < hi
      }
      NR >= first && (!jansson() || NR % 7 == 0) { print "IOSAGE_FAULT_MALLOC=" NR }' \
      "$tmp/ref/$slug.trace" >>"$list"
  else
    for ((n = first; n <= allocs; n += stride)); do echo "IOSAGE_FAULT_MALLOC=$n" >>"$list"; done
  fi
  for ((n = 1; n <= writes; n++)); do
    echo "IOSAGE_FAULT_WRITE=$n IOSAGE_FAULT_ERRNO=ENOSPC" >>"$list"
    echo "IOSAGE_FAULT_WRITE=$n IOSAGE_FAULT_ERRNO=EIO" >>"$list"
  done
  n_runs=$(wc -l <"$list")
  export -f run_one
  export tmp shim
  fails=$(awk '{print NR " " $0}' "$list" |
    xargs -P "$jobs" -L 1 bash -c 'i=$1; shift; r=$(run_one "$tmp/run.'"$slug"'.$i" "'"$slug"'" "'"$out"'" "'"$cmd"'" "$@"); rm -rf "$tmp/run.'"$slug"'.$i"; [ -n "$r" ] && echo "  $* -> $r"' _)
  n_fail=0
  [ -n "$fails" ] && n_fail=$(printf '%s\n' "$fails" | wc -l)
  echo "fault: $name: $allocs allocations$shared, $writes writes: $n_runs runs, $n_fail failed"
  [ -n "$fails" ] && printf '%s\n' "$fails" | head -20
  total_runs=$((total_runs + n_runs))
  total_fail=$((total_fail + n_fail))
done
echo "fault ($mode): $n_cases cases, $total_runs runs, $total_fail failed"
[ "$total_fail" -eq 0 ] && [ "$bad_cases" -eq 0 ]
