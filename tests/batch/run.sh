#!/usr/bin/env bash
# tests/batch/run.sh IOSAGE WRITER [IOSAGE_MPI [SHARED_LOGS]] - `iosage batch`
# and iosage-mpi keep their promises:
#   - one row per log, in input order, error rows for a truncated copy of a
#     log and a file that is not a log, exit status 3 then;
#   - the job id, uid and nprocs of a row are those `iosage dump` prints;
#   - CSV quoting survives a path with a comma, a quote and a newline (read
#     back with Python's csv module), every JSONL line is valid JSON;
#   - byte-identical output for -j1, -j2, and mpirun -np 2 and -np 4, in
#     both formats; --summary counts; -o is atomic (no file on failure);
#   - directories are searched recursively, list files and stdin lists work.
# IOSAGE_MPI may be "-" (MPI not built: those checks are skipped).
set -u
iosage=$1
writer=$2
mpi=${3:--}
shared=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none # containers lack CMA
py=/usr/bin/python3
[ -x "$py" ] || py=python3
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*" >&2; }
check() { # check NAME WANT GOT
  if [ "$2" = "$3" ]; then ok; else bad "$1: want '$2', got '$3'"; fi
}

# --- the inputs ----------------------------------------------------------
mkdir -p "$tmp/logs/sub" "$tmp/out"
"$writer" "$tmp/logs/demo.darshan" || { echo "writer failed" >&2; exit 1; }
cp "$tmp/logs/demo.darshan" "$tmp/logs/sub/b_copy.darshan"
weird=$'a,b "q"\nc.darshan'
cp "$tmp/logs/demo.darshan" "$tmp/logs/sub/$weird"
head -c 100 "$tmp/logs/demo.darshan" >"$tmp/logs/sub/cut.darshan"
cp "$tmp/logs/demo.darshan" "$tmp/logs/sub/"$'\xff'".darshan" # not UTF-8
printf 'not a log at all, only text\n' >"$tmp/logs/text.darshan"
mkdir -p "$tmp/logs/many" # more logs than one model call takes (32)
for i in $(seq -w 1 40); do cp "$tmp/logs/demo.darshan" "$tmp/logs/many/m$i.darshan"; done
printf 'ignored: no .darshan suffix\n' >"$tmp/logs/notes.txt"
n_shared=0 n_err=2 # cut.darshan and text.darshan
if [ -n "$shared" ] && [ -d "$shared" ]; then
  for f in aroraish_wrf.exe_id2135019_12-3-45527-5597752660095964326_5076852.darshan \
           darshan-apmpi-2nodes-64mpi.darshan \
           mdtest-easy_api_POSIX_n_100000__0.ini.darshan; do
    if [ -f "$shared/$f" ]; then
      cp "$shared/$f" "$tmp/logs/$f"
      n_shared=$((n_shared + 1))
      case $f in mdtest*) n_err=$((n_err + 1)) ;; esac # damaged job region
    fi
  done
fi
# In name order: aroraish, darshan-apmpi, demo, mdtest, notes.txt (not a
# log name: skipped), many/ (40 copies of demo), sub/ ("a,b...", b_copy,
# cut, \xff), text.
n_logs=$((46 + n_shared))

run() { # run OUT ARGS...: iosage batch -q ARGS -o OUT; prints the exit status
  "$iosage" batch -q "${@:2}" -o "$1" 2>"$tmp/err"
  echo $?
}

# --- rows, errors, values --------------------------------------------------
check "exit status with error rows" 3 "$(run "$tmp/out/j1.jsonl" -j1 "$tmp/logs")"
check "row count" "$n_logs" "$(wc -l <"$tmp/out/j1.jsonl")"
check "no temporary file left" 0 "$(find "$tmp/out" -name '*.tmp.*' | wc -l)"
"$py" - "$tmp/out/j1.jsonl" "$tmp" "$weird" >"$tmp/py.out" 2>&1 <<'EOF' || bad "jsonl rows: $(cat "$tmp/py.out")"
import json, sys
path, tmp, weird = sys.argv[1], sys.argv[2], sys.argv[3]
rows = [json.loads(l) for l in open(path, encoding="utf-8")]
by = {r["file"][len(tmp) + 6:]: r for r in rows}
assert by["sub/cut.darshan"]["status"] == "error", by["sub/cut.darshan"]
assert "shorter than" in by["sub/cut.darshan"]["error"], by["sub/cut.darshan"]
assert by["text.darshan"]["status"] == "error", by["text.darshan"]
assert set(by["text.darshan"]) == {"file", "status", "error"}
d = by["demo.darshan"]
assert d["status"] == "ok" and d["error"] is None, d
assert d["exe"] == "/home/demo/bin/ior-like -a mpiio -t 4k -b 4m", d
assert d["run_time"] == 2.5, d
assert 0 < d["io_time_share"] <= 1, d
assert len(d["patterns"]) == 7, d
assert by["sub/" + weird]["job_id"] == 4242, by.keys()
assert by["sub/\ufffd.darshan"]["status"] == "ok", by.keys()  # U+FFFD
order = [r["file"].replace("\ufffd", "\U0010ffff") for r in rows]
assert order == sorted(order), order  # here the same as byte order per level
EOF
[ -s "$tmp/py.out" ] || ok
dump_field() { TZ=UTC "$iosage" dump "$1" | sed -n "s/^# $2: //p"; }
row_field() { "$py" -c 'import json,sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["file"].endswith("/" + sys.argv[2]): print(r[sys.argv[3]])' "$tmp/out/j1.jsonl" "$1" "$2"; }
for f in demo.darshan aroraish_wrf.exe_id2135019_12-3-45527-5597752660095964326_5076852.darshan; do
  [ -f "$tmp/logs/$f" ] || continue
  check "$f job id as dump" "$(dump_field "$tmp/logs/$f" jobid)" "$(row_field "$f" job_id)"
  check "$f nprocs as dump" "$(dump_field "$tmp/logs/$f" nprocs)" "$(row_field "$f" nprocs)"
  check "$f uid as dump" "$(dump_field "$tmp/logs/$f" uid)" "$(row_field "$f" uid)"
done
if [ "$n_shared" -gt 0 ]; then
  check "wrf job id" 2135019 "$(row_field aroraish_wrf.exe_id2135019_12-3-45527-5597752660095964326_5076852.darshan job_id)"
  check "wrf nprocs" 224 "$(row_field aroraish_wrf.exe_id2135019_12-3-45527-5597752660095964326_5076852.darshan nprocs)"
  check "damaged shared log is an error row" error \
        "$(row_field mdtest-easy_api_POSIX_n_100000__0.ini.darshan status)"
fi

# --- the same output for every thread count and format ---------------------
run "$tmp/out/j2.jsonl" -j2 "$tmp/logs" >/dev/null
cmp -s "$tmp/out/j1.jsonl" "$tmp/out/j2.jsonl" && ok || bad "-j1 and -j2 JSONL differ"
run "$tmp/out/j1.csv" -j1 "$tmp/logs" >/dev/null
run "$tmp/out/j2.csv" -j2 --format csv "$tmp/logs" >/dev/null
cmp -s "$tmp/out/j1.csv" "$tmp/out/j2.csv" && ok || bad "-j1 and -j2 CSV differ"
"$py" - "$tmp/out/j1.csv" "$tmp" "$weird" "$n_logs" >"$tmp/py.out" 2>&1 <<'EOF' || bad "csv: $(cat "$tmp/py.out")"
import csv, sys
path, tmp, weird, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rows = list(csv.DictReader(open(path, newline="", encoding="utf-8")))
assert len(rows) == n, len(rows)
files = [r["file"] for r in rows]
# CSV text cells show control characters as \xHH (docs/batch.md)
weird = weird.replace("\n", "\\x0a")
assert tmp + "/logs/sub/" + weird in files, files
w = rows[files.index(tmp + "/logs/sub/" + weird)]
assert w["job_id"] == "4242" and w["nprocs"] == "4" and w["status"] == "ok", w
assert w["exe"] == "/home/demo/bin/ior-like -a mpiio -t 4k -b 4m", w
assert all(len(r) == len(rows[0]) and None not in r for r in rows)
cut = rows[files.index(tmp + "/logs/sub/cut.darshan")]
assert cut["status"] == "error" and cut["job_id"] == "", cut
EOF
[ -s "$tmp/py.out" ] || ok

# --- lists, stdin, summary, atomic output, usage -----------------------------
printf '%s\n' "$tmp/logs/demo.darshan" "" "$tmp/logs/sub/cut.darshan" >"$tmp/list.txt"
run "$tmp/out/list.jsonl" "$tmp/list.txt" >/dev/null
check "list file rows" 2 "$(wc -l <"$tmp/out/list.jsonl")"
"$iosage" batch -q - <"$tmp/list.txt" >"$tmp/out/stdin.jsonl" 2>/dev/null
cmp -s "$tmp/out/list.jsonl" "$tmp/out/stdin.jsonl" && ok || bad "stdin list differs from list file"
"$iosage" batch -q --summary "$tmp/logs" >"$tmp/out/summary.txt" 2>/dev/null
check "summary count line" "logs: $n_logs ($((n_logs - n_err)) read completely, 0 partly, $n_err not read)" \
      "$(head -1 "$tmp/out/summary.txt")"
"$iosage" batch -q -o "$tmp/nodir/out.jsonl" "$tmp/logs" 2>/dev/null
check "unwritable -o exit status" 4 $?
[ ! -e "$tmp/nodir" ] && ok || bad "a failed -o left something behind"
"$iosage" batch --format xml "$tmp/logs" >/dev/null 2>&1
check "bad --format" 2 $?
"$iosage" batch >/dev/null 2>&1
check "no PATH" 2 $?
"$iosage" batch -q "$tmp/logs/demo.darshan" >/dev/null 2>&1
check "all logs read" 0 $?

# --- MPI: the same bytes with 2 and 4 ranks ---------------------------------
mpirun_retry() { # one retry: two mpiruns starting together may collide
  local rc=1
  for _ in 1 2; do
    # leak checking off under MPI only: Open MPI keeps its own allocations
    ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 \
      mpirun --oversubscribe --bind-to none "$@" >"$tmp/mpi.out" 2>"$tmp/mpi.err"
    rc=$?
    if [ $rc -eq 3 ] || [ $rc -eq 0 ]; then echo $rc; return; fi
    grep -q "File exists" "$tmp/mpi.err" || { echo $rc; return; }
    sleep 1
  done
  echo $rc
}
if [ "$mpi" != - ] && command -v mpirun >/dev/null; then
  for run_spec in 1:jsonl 2:jsonl 4:jsonl 4:csv; do # 1: no parts at all
    np=${run_spec%%:*} fmt=${run_spec#*:}
    {
      rc=$(mpirun_retry -np $np "$mpi" -q --format $fmt -o "$tmp/out/mpi$np.$fmt" "$tmp/logs")
      check "mpi -np $np $fmt exit status" 3 "$rc"
      [ "$rc" = 3 ] || head -5 "$tmp/mpi.err" >&2
      cmp -s "$tmp/out/j1.$fmt" "$tmp/out/mpi$np.$fmt" && ok || bad "mpi -np $np $fmt differs from -j1"
    }
  done
  # more ranks than logs: ranks without rows write empty parts (rank 0 has
  # the one row)
  mpirun_retry -np 4 "$mpi" -q "$tmp/logs/demo.darshan" >/dev/null
  "$iosage" batch -q "$tmp/logs/demo.darshan" >"$tmp/out/one.jsonl" 2>/dev/null
  cmp -s "$tmp/out/one.jsonl" "$tmp/mpi.out" && ok || bad "mpi -np 4 on one log differs"
  rc=$(mpirun_retry -np 2 "$mpi" -q --summary "$tmp/logs")
  cmp -s "$tmp/out/summary.txt" "$tmp/mpi.out" && ok || bad "mpi summary differs"
  # --profile: the stage lines of batch, then rank 0's own phases and the
  # ranks' least-most; the rows as without it
  rc=$(mpirun_retry -np 2 "$mpi" -q --profile -o "$tmp/out/prof.jsonl" "$tmp/logs")
  cmp -s "$tmp/out/j1.jsonl" "$tmp/out/prof.jsonl" && ok || bad "mpi --profile rows differ"
  grep -Eq "^profile: $n_logs logs in [0-9.]+ s wall with 2 workers" "$tmp/mpi.err" &&
    grep -Eq '^profile: rank 0 alone: listing and sharing the inputs [0-9.]+ s, merging the parts [0-9.]+ s$' "$tmp/mpi.err" &&
    grep -Eq '^profile: each of the 2 ranks \(least-most\): logs [0-9.]+-[0-9.]+ s \(in the stages [0-9.]+-[0-9.]+\), part file [0-9.]+-[0-9.]+ s, waiting for the others [0-9.]+-[0-9.]+ s$' "$tmp/mpi.err" &&
    ok || { bad "mpi --profile lines"; cat "$tmp/mpi.err" >&2; }
  check "no parts left" 0 "$(find "$tmp" . -maxdepth 2 -name '.iosage-mpi.*' 2>/dev/null | wc -l)"
else
  echo "batch: MPI not built or no mpirun: MPI checks skipped" >&2
fi

# --- criteria_only: what the report's "check it by hand" warning says ------
# agic_e3sm_8 (the project's own run): rank 0 moves 5.7x the mean rank's
# bytes, which the written criteria call rank imbalance and the models,
# trained on the configuration's labels, do not report
e3sm=$(cd "$(dirname "$0")/../.." && pwd)/data/hpc-runs/logs/agic_e3sm_8-r0.darshan
if [ -f "$e3sm" ]; then
  "$iosage" batch -q -o "$tmp/out/e3sm.jsonl" "$e3sm" 2>/dev/null
  check "criteria_only of agic_e3sm_8" '["parallelism_efficiency"] False' \
    "$("$py" -c 'import json,sys; d=json.loads(open(sys.argv[1]).readline()); print(json.dumps(d["criteria_only"]), d["patterns"]["parallelism_efficiency"]["detected"])' "$tmp/out/e3sm.jsonl")"
  "$iosage" analyze --format json -o "$tmp/out/e3sm.json" "$e3sm" 2>/dev/null
  check "the report warns of the same" 1 \
    "$("$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum("find Rank imbalance here, which the models do not report" in w for w in d["warnings"]))' "$tmp/out/e3sm.json")"
fi

echo "batch: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
