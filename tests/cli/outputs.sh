#!/usr/bin/env bash
# tests/cli/outputs.sh IOSAGE EXAMPLE_WRITER IOSAGE_MPI|- - issue 17, points
# 1 and 2: no command writes over one of its inputs, and every failed write
# is reported.
#   - every option that names an output (analyze -o and --save-prompt,
#     batch and iosage-mpi -o and --db, train -o, gen -o, validate --json,
#     archive site -o) is refused with one line and exit 2 when it is an
#     input: the same path, another spelling of it, a symbolic or a hard
#     link; an output directory that holds an input is refused too; the
#     input is left byte for byte as it was and nothing else is written;
#   - stdout on /dev/full (every command that prints) and -o /dev/full: one
#     line naming the output and "No space left on device", exit 4; an
#     existing output file is left as it was when a write fails, and no
#     temporary file is left behind.
set -u
export TZ=UTC
iosage=$1
writer=$2
mpi=${3:--}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
if [ ! -c /dev/full ]; then
  echo "outputs: no /dev/full: skipped"
  exit 77
fi

bad() {
  echo "FAIL $1" >&2
  fail=$((fail + 1))
}

# expect NAME RC STDERR_REGEX CMD...: exit status RC and exactly one line on
# stderr, matching STDERR_REGEX
expect() {
  local name=$1 rc=$2 re=$3
  shift 3
  "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local got=$?
  if [ "$got" -ne "$rc" ]; then
    bad "$name: exit $got, want $rc: $(head -2 "$tmp/err")"
  elif [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
    bad "$name: want one line on stderr, got: $(cat "$tmp/err")"
  elif ! grep -Eq -- "$re" "$tmp/err"; then
    bad "$name: stderr '$(cat "$tmp/err")' lacks /$re/"
  else
    pass=$((pass + 1))
  fi
}

# same FILE COPY: FILE is still byte for byte COPY
same() {
  if cmp -s "$1" "$2"; then pass=$((pass + 1)); else bad "$1 was changed"; fi
}

# no_temp DIR: no temporary file (*.tmp.*) left in DIR
no_temp() {
  local left
  left=$(find "$1" -name '*.tmp*' | head -3)
  if [ -z "$left" ]; then pass=$((pass + 1)); else bad "left behind: $left"; fi
}

cd "$tmp" || exit 1
mkdir logs
"$writer" logs/a.darshan
cp logs/a.darshan logs/b.darshan
cp logs/a.darshan keep.darshan
ln -s a.darshan logs/link.darshan
ln logs/b.darshan hard.darshan
printf 'romio_cb_write enable\n' >hints
cp hints hints.keep

# --- point 1: outputs over inputs ------------------------------------------
clash='refusing to write (over|into) it$'
expect "analyze -o LOG" 2 "analyze: -o logs/a.darshan is the input logs/a.darshan: $clash" \
  "$iosage" analyze logs/a.darshan -o logs/a.darshan --format json
expect "analyze -o other spelling" 2 "$clash" \
  "$iosage" analyze logs/a.darshan -o ./logs/../logs//a.darshan
expect "analyze -o symlink" 2 "$clash" "$iosage" analyze logs/link.darshan -o logs/a.darshan
expect "analyze -o hard link" 2 "$clash" "$iosage" analyze logs/b.darshan -o hard.darshan
expect "analyze --save-prompt LOG" 2 "--save-prompt logs/a.darshan is the input" \
  "$iosage" analyze logs/a.darshan --save-prompt logs/a.darshan
expect "analyze -o CONFIG" 2 "-o hints is the input hints" \
  "$iosage" analyze logs/a.darshan --config hints -o hints
expect "analyze -o = --save-prompt" 2 "--save-prompt r.txt is the input r.txt" \
  "$iosage" analyze logs/a.darshan -o r.txt --save-prompt r.txt
# not yet created: the same normalised path
expect "analyze --save-prompt = -o, new" 2 "$clash" \
  "$iosage" analyze logs/a.darshan -o new.txt --save-prompt ./new.txt
expect "batch -o LOG in DIR" 2 "batch: -o logs/b.darshan is the input logs/b.darshan: $clash" \
  "$iosage" batch -q logs -o logs/b.darshan
expect "batch -o LOG" 2 "$clash" "$iosage" batch -q logs/b.darshan -o hard.darshan --format csv
printf '%s\n' "$tmp/logs/a.darshan" >list.txt
cp list.txt list.keep
expect "batch -o list file" 2 "-o list.txt is the input list.txt" "$iosage" batch -q list.txt -o list.txt
expect "batch --db LOG" 2 "--db logs/a.darshan is the input" "$iosage" batch -q logs --db logs/a.darshan
expect "batch -o = --db" 2 "-o x.db is the input x.db" "$iosage" batch -q logs --db x.db -o x.db
mkdir ds
cp logs/a.darshan ds/
expect "train -o DATASET" 2 "train: -o ds holds the input ds: refusing to write into it" \
  "$iosage" train ds -o ds
expect "train -o parent of DATASET" 2 "$clash" "$iosage" train ds -o .
mkdir gen
printf 'kernel ag\n' >gen/x.sweep
cp gen/x.sweep sweep.keep
expect "gen -o DIR holding SWEEP" 2 "gen: -o gen holds the input gen/x.sweep: $clash" \
  "$iosage" gen gen/x.sweep -o gen
printf 'name x\n' >s.scenario
cp s.scenario s.keep
expect "validate --json SCENARIO" 2 "validate: --json s.scenario is the input s.scenario" \
  "$iosage" validate s.scenario --json s.scenario
if "$iosage" batch -q logs --db arch.db -o rows.csv 2>/dev/null || [ -s arch.db ]; then
  cp arch.db arch.keep
  expect "archive site -o DIR holding DB" 2 "archive: -o . holds the input arch.db: $clash" \
    "$iosage" archive site arch.db -o .
  same arch.db arch.keep
else
  bad "batch --db arch.db did not make an archive"
fi
if [ "$mpi" != - ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  ASAN_OPTIONS=detect_leaks=0 expect "iosage-mpi -o LOG" 2 "iosage-mpi: batch: -o logs/a.darshan is the input" \
    "$mpi" -q logs -o logs/a.darshan
  ASAN_OPTIONS=detect_leaks=0 expect "iosage-mpi --db LOG" 2 "--db hard.darshan is the input" \
    "$mpi" -q logs/b.darshan --db hard.darshan
fi
same logs/a.darshan keep.darshan
same logs/b.darshan keep.darshan
same hints hints.keep
same list.txt list.keep
same gen/x.sweep sweep.keep
same s.scenario s.keep
for f in r.txt new.txt x.db ds/bundle.json ds/cards.json gen/manifest.tsv index.html; do
  [ -e "$f" ] && bad "$f was written by a refused command"
done
pass=$((pass + 1))

# --- point 2: failed writes ------------------------------------------------
full='cannot write: No space left on device$'
out_full="^iosage: standard output: $full"
expect "analyze > /dev/full" 4 "$out_full" sh -c "\"$iosage\" analyze logs/a.darshan >/dev/full"
expect "analyze json > /dev/full" 4 "$out_full" sh -c "\"$iosage\" analyze --format json logs/a.darshan >/dev/full"
expect "dump > /dev/full" 4 "$out_full" sh -c "\"$iosage\" dump logs/a.darshan >/dev/full"
expect "dump --all > /dev/full" 4 "$out_full" sh -c "\"$iosage\" dump --all logs/a.darshan >/dev/full"
expect "dump --dxt > /dev/full" 4 "$out_full" sh -c "\"$iosage\" dump --dxt logs/a.darshan >/dev/full"
expect "detect > /dev/full" 4 "$out_full" sh -c "\"$iosage\" detect logs/a.darshan >/dev/full"
expect "rules > /dev/full" 4 "$out_full" sh -c "\"$iosage\" rules logs/a.darshan >/dev/full"
expect "label > /dev/full" 4 "$out_full" sh -c "\"$iosage\" label logs/a.darshan >/dev/full"
expect "batch > /dev/full" 4 "$out_full" sh -c "\"$iosage\" batch -q logs >/dev/full"
expect "batch --summary > /dev/full" 4 "$out_full" sh -c "\"$iosage\" batch -q --summary logs >/dev/full"
expect "archive jobs > /dev/full" 4 "$out_full" sh -c "\"$iosage\" archive jobs arch.db >/dev/full"
expect "archive sql > /dev/full" 4 "$out_full" sh -c "\"$iosage\" archive sql jobs >/dev/full"
expect "pfs getstripe > /dev/full" 4 "$out_full" sh -c "\"$iosage\" pfs getstripe hints >/dev/full"
for cmd in eval gen train validate pfs; do
  expect "$cmd --help > /dev/full" 4 "$out_full" sh -c "\"$iosage\" $cmd --help >/dev/full"
done
expect "help > /dev/full" 4 "$out_full" sh -c "\"$iosage\" --help >/dev/full"
expect "version > /dev/full" 4 "$out_full" sh -c "\"$iosage\" --version >/dev/full"
expect "analyze --help > /dev/full" 4 "$out_full" sh -c "\"$iosage\" analyze --help >/dev/full"
expect "analyze -o /dev/full" 4 "^iosage: /dev/full: $full" "$iosage" analyze logs/a.darshan -o /dev/full
expect "analyze --save-prompt /dev/full" 4 "^iosage: /dev/full: $full" \
  "$iosage" analyze logs/a.darshan --save-prompt /dev/full -q
expect "batch -o /dev/full" 4 "^iosage: /dev/full: $full" "$iosage" batch -q logs -o /dev/full
if [ "$mpi" != - ]; then
  ASAN_OPTIONS=detect_leaks=0 expect "iosage-mpi -o /dev/full" 4 "/dev/full: $full" \
    "$mpi" -q logs -o /dev/full
  ASAN_OPTIONS=detect_leaks=0 expect "iosage-mpi > /dev/full" 4 "^iosage-mpi: standard output: $full" \
    sh -c "\"$mpi\" -q logs >/dev/full"
fi
[ -c /dev/full ] && pass=$((pass + 1)) || bad "/dev/full is no longer a device"
# a good run writes -o; an output that cannot be replaced keeps the old file
"$iosage" analyze logs/a.darshan -o report.txt 2>/dev/null
cp report.txt report.keep
mkdir ro
cp report.txt ro/report.txt
chmod 500 ro
if [ "$(id -u)" -ne 0 ]; then
  expect "analyze -o in a read-only dir" 4 "^iosage: ro/report.txt: cannot write: Permission denied$" \
    "$iosage" analyze logs/a.darshan -o ro/report.txt
  same ro/report.txt report.keep
fi
chmod 700 ro
expect "analyze -o missing dir" 4 "^iosage: no/such/r.txt: cannot write: No such file or directory$" \
  "$iosage" analyze logs/a.darshan -o no/such/r.txt
expect "batch -o a directory" 4 "^iosage: ro: cannot write: Is a directory$" \
  "$iosage" batch -q logs -o ro
no_temp "$tmp"

echo "outputs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
