#!/usr/bin/env bash
# tests/savings/run.sh IOSAGE BENCH_DIR TRACER SRC - measured and predicted
# savings (docs/savings.md) end to end:
#   measure  a tiny dataset made by `iosage gen` on drawn emulated systems,
#            `iosage savings measure` with 3 pairs: one row per change line,
#            the saving inside its ratio interval, per-write syncs dropped
#            save more than 30% of the I/O time on the emulated HDD Lustre;
#            run again: nothing measured, the table unchanged (resume);
#            a bad changes file: one line naming file and line, exit 3;
#   labels   the table of savings labels against the configuration labels;
#   models   trained on data/hpc-runs (its committed savings.tsv) into a copy
#            of models/default: savings.json lists the changes with the
#            table's row counts; analyze puts expected_saving on every change
#            and ranks by it; with one model removed, that change is ranked
#            by the typical saving (the median of the measured rows); batch
#            fills best_change for a run with a pattern and leaves it empty
#            for a healthy one; eval prints the documented figures, and
#            eval --rows the rows behind them (same rows, same Spearman).
# Exit 77 (skip) without mpirun.
set -u
iosage=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") bench=$2 tracer=$3 src=$4
command -v mpirun >/dev/null 2>&1 || { echo "no mpirun: skipped"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
. "$(dirname "$0")/../testlib.sh"

# --- measure ------------------------------------------------------------------
cat >"$tmp/t.sweep" <<'SWEEP'
tu_sync  ior_like 2 2 throughput_utilization              train --api posix --fsync-per-write --transfer 256k --block 4m
agic     ior_like 2 1 access_granularity,interface_choice train --api posix --transfer 64k --block 2m
fine     ior_like 2 1 healthy                             train --api mpiio --collective --transfer 1m --block 2m
SWEEP
cat >"$tmp/t.changes" <<'CHANGES'
# a comment
tu_sync  throughput_utilization drop_syncs      --api posix --transfer 256k --block 4m
agic     access_granularity     larger_requests --api posix --transfer 1m --block 2m
agic     interface_choice       collective_io   --api mpiio --collective --transfer 64k --block 2m
CHANGES
"$iosage" gen "$tmp/t.sweep" -o "$tmp/ds" -j 1 -q --bench-dir "$bench" \
    --tracer "$tracer" --pfs-random lustre-hdd-small --native-share 0
check "gen" $? 0
"$iosage" savings measure --runs 3 --bench-dir "$bench" -q "$tmp/t.sweep" \
    "$tmp/t.changes" "$tmp/ds"
check "measure" $? 0
table=$tmp/ds/savings.tsv
check "rows" "$(awk 'NR>1' "$table" | wc -l)" 3
check "header" "$(head -1 "$table" | cut -f1-6)" "$(printf 'run_id\tconfig_id\tpattern\tchange_id\tsystem\tpairs')"
check "pairs" "$(awk -F'\t' 'NR>1 {print $6}' "$table" | sort -u)" 3
check "runs of the dataset" "$(awk -F'\t' 'NR>1 {print $1}' "$table" | sort -u | tr '\n' ' ')" "agic-r0 tu_sync-r0 "
check "emulated" "$(awk -F'\t' 'NR>1 {print $5}' "$table" | sort -u)" emulated
# the saving is 1 - 1/(median ratio), so it lies between 1 - 1/lo and 1 - 1/hi
inside=$(awk -F'\t' 'NR>1 { s=$9; lo=1-1/$10; hi=1-1/$11;
  if (s < lo - 1e-3 || s > hi + 1e-3) bad++ } END { print bad+0 }' "$table")
check "saving inside its interval" "$inside" 0
# pays = saving >= 10% and the lower ratio above 1
pays=$(awk -F'\t' 'NR>1 { want = ($9 >= 0.10 && $10 > 1) ? 1 : 0;
  if ($15 != want) bad++ } END { print bad+0 }' "$table")
check "pays column" "$pays" 0
sync_saving=$(awk -F'\t' '$4=="drop_syncs" {print ($9 > 0.30) ? "big" : $9}' "$table")
check "drop_syncs saves > 30% of the I/O time" "$sync_saving" big
cp "$table" "$tmp/before.tsv"
"$iosage" savings measure --runs 3 --bench-dir "$bench" "$tmp/t.sweep" \
    "$tmp/t.changes" "$tmp/ds" 2>"$tmp/err"
check "resume exit" $? 0
grep -q "0 configuration(s) measured, 2 already in" "$tmp/err" && ok || bad "resume: $(tail -1 "$tmp/err")"
cmp -s "$table" "$tmp/before.tsv" && ok || bad "resume changed the table"
printf 'agic access_granularity no_such_change --transfer 1m\n' >"$tmp/bad.changes"
"$iosage" savings measure "$tmp/t.sweep" "$tmp/bad.changes" "$tmp/ds" 2>"$tmp/err"
check "bad changes exit" $? 3
check "bad changes lines" "$(wc -l <"$tmp/err")" 1
grep -q "bad.changes.*line 1: 'access_granularity no_such_change' is not a change id" "$tmp/err" && ok || bad "bad changes message: $(cat "$tmp/err")"
"$iosage" savings measure "$tmp/t.sweep" "$tmp/t.changes" 2>/dev/null
check "usage exit" $? 2
# --run 2: each configuration's second ok run (its own drawn system), on a
# copy; agic has one run only and is skipped, tu_sync-r1 gets its row
cp -r "$tmp/ds" "$tmp/ds2"
"$iosage" savings measure --run 2 --runs 3 --bench-dir "$bench" "$tmp/t.sweep" \
    "$tmp/t.changes" "$tmp/ds2" 2>"$tmp/err"
check "--run 2 exit" $? 0
grep -q "^savings: agic: no ok run 2 in $tmp/ds2, skipped" "$tmp/err" && ok || bad "--run 2 skip: $(cat "$tmp/err")"
check "--run 2 rows" "$(awk -F'\t' 'NR>1 {print $1}' "$tmp/ds2/savings.tsv" | sort | tr '\n' ' ')" "agic-r0 agic-r0 tu_sync-r0 tu_sync-r1 "
check "--run 2 system" "$(cmp -s "$tmp/ds/logs/tu_sync-r0.pfs" "$tmp/ds/logs/tu_sync-r1.pfs"; echo $?)" 1
"$iosage" savings measure --run 0 "$tmp/t.sweep" "$tmp/t.changes" "$tmp/ds2" 2>"$tmp/err"
check "--run 0 exit" $? 2
grep -q "savings: --run takes K from 1 to 1000, got '0'" "$tmp/err" && ok || bad "--run 0: $(cat "$tmp/err")"

# --- labels -------------------------------------------------------------------
"$iosage" savings labels "$tmp/ds" >"$tmp/labels"
check "labels exit" $? 0
grep -q '^| throughput_utilization | 1 | ' "$tmp/labels" && ok || bad "labels table: $(cat "$tmp/labels")"
grep -q '^| all | 3 | ' "$tmp/labels" && ok || bad "labels total: $(cat "$tmp/labels")"
mkdir "$tmp/empty"
"$iosage" savings labels "$tmp/empty" >"$tmp/out" 2>"$tmp/err"
check "labels without measured changes" $? 3
grep -q "^iosage: savings: $tmp/empty/savings.tsv: no measured changes" "$tmp/err" && ok || bad "labels empty: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] && ok || bad "labels empty printed a table"
"$iosage" savings eval "$tmp/empty" extra 2>"$tmp/err"
check "eval with two operands" $? 2

# --- models on data/hpc-runs ---------------------------------------------------
data=$src/data/hpc-runs
if [ -s "$data/savings.tsv" ]; then
  mkdir "$tmp/bundle"
  cp "$src"/models/default/*.json "$tmp/bundle/"
  rm -f "$tmp"/bundle/savings*.json
  "$iosage" savings train "$data" "$tmp/bundle" 2>"$tmp/err"
  check "train" $? 0
  # every change with 5+ rows measured on an emulated system has a model
  # with the table's count (native rows are the page cache's: not learned)
  want=$(awk -F'\t' 'NR>1 && $5=="emulated" {n[$4]++} END {for (c in n) if (n[c] >= 5) print c, n[c]}' "$data/savings.tsv" | sort)
  got=$(/usr/bin/python3 -c '
import json, sys
for c in json.load(open(sys.argv[1]))["changes"]:
    print(c["change_id"], c["measured_rows"])' "$tmp/bundle/savings.json" | sort)
  check "models per change" "$got" "$want"
  # a run of a configuration with 2 measured changes: both get a saving, ranked
  run=$(awk -F'\t' 'NR>1 {n[$1]++} END {for (r in n) if (n[r] >= 2) print r}' "$data/savings.tsv" | sort | head -1)
  "$iosage" analyze --model "$tmp/bundle" --format json "$data/logs/$run.darshan" >"$tmp/a.json"
  check "analyze" $? 0
  ranked=$(/usr/bin/python3 -c '
import json, sys
ch = json.load(open(sys.argv[1]))["advice"]["changes"]
s = [c["expected_saving"]["io_time_share"] for c in ch if "expected_saving" in c]
ok = len(s) >= 1 and s == sorted(s, reverse=True) and [c["rank"] for c in ch] == list(range(1, len(ch) + 1))
ok = ok and all(c["expected_saving"]["range"][0] <= c["expected_saving"]["io_time_share"] + 1e-9 for c in ch if "expected_saving" in c)
print("ranked" if ok else "not ranked: %s" % s)' "$tmp/a.json")
  check "changes ranked by expected saving ($run)" "$ranked" ranked
  "$iosage" analyze --model "$tmp/bundle" "$data/logs/$run.darshan" | grep -q "expected saving: " && ok || bad "text view has no expected saving"
  # a change without a model: ranked by the typical saving (the median of
  # every emulated row, clipped, as savings.json stores it), capped by the
  # share its operations take, and said to be no prediction
  typical=$(/usr/bin/python3 -c '
import csv, json, statistics, sys
rows = [max(-1.0, min(1.0, float(r["io_saving"]))) for r in
        csv.DictReader(open(sys.argv[1]), delimiter="\t") if r["system"] == "emulated"]
t = json.load(open(sys.argv[2]))["typical_saving"]
n = {}
for r in csv.DictReader(open(sys.argv[1]), delimiter="\t"):
    if r["system"] == "emulated":
        n[r["change_id"]] = n.get(r["change_id"], 0) + 1
few = {c: k for c, k in n.items() if k < 5}
print("same" if abs(t["io_time_share"] - statistics.median(rows)) < 1e-6 and
      t["measured_rows"] == len(rows) and t["too_few_rows"] == few
      else "differs: %s %s %d %s" % (t, statistics.median(rows), len(rows), few))' \
      "$data/savings.tsv" "$tmp/bundle/savings.json")
  check "typical saving = median of the emulated rows" "$typical" same
  cp -r "$tmp/bundle" "$tmp/bundle_less"
  gone=$(/usr/bin/python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["advice"]["changes"]
s = json.load(open(sys.argv[2]))
gone = a[0]["change_id"]
s["changes"] = [c for c in s["changes"] if c["change_id"] != gone]
json.dump(s, open(sys.argv[2], "w"))
print(gone)' "$tmp/a.json" "$tmp/bundle_less/savings.json")
  "$iosage" analyze --model "$tmp/bundle_less" --format json "$data/logs/$run.darshan" >"$tmp/less.json"
  check "analyze, a change without a model" $? 0
  ranked=$(/usr/bin/python3 -c '
import json, sys
ch = json.load(open(sys.argv[1]))["advice"]["changes"]
t = json.load(open(sys.argv[2]))["typical_saving"]
gone = [c for c in ch if c["change_id"] == sys.argv[3]]
key = [c["expected_saving"]["io_time_share"] if "expected_saving" in c else c["typical_saving"]["io_time_share"] for c in ch]
ok = len(gone) == 1 and "expected_saving" not in gone[0]
ok = ok and abs(gone[0]["typical_saving"]["median"] - t["io_time_share"]) < 1e-9
ok = ok and gone[0]["typical_saving"]["io_time_share"] <= t["io_time_share"] + 1e-9
ok = ok and gone[0]["typical_saving"]["change_measured_runs"] == 0  # its model is gone, not listed as too few
ok = ok and key == sorted(key, reverse=True) and [c["rank"] for c in ch] == list(range(1, len(ch) + 1))
print("ranked" if ok else "not ranked: %s %s" % (key, gone))' "$tmp/less.json" "$tmp/bundle/savings.json" "$gone")
  check "a change without a model ranked by the typical saving ($gone)" "$ranked" ranked
  "$iosage" analyze --model "$tmp/bundle_less" "$data/logs/$run.darshan" | tr '\n' ' ' | tr -s ' ' |
    grep -q "expected saving: not predicted (this change was never measured); ranked" && ok ||
    bad "text view of a change without a model: $("$iosage" analyze --model "$tmp/bundle_less" "$data/logs/$run.darshan" | grep -A2 'expected saving')"
  healthy=$(awk -F'\t' '$6=="healthy" && $11=="ok" {print $1; exit}' "$data/manifest.tsv")
  "$iosage" batch --format csv --model "$tmp/bundle" "$data/logs/$run.darshan" \
      "$data/logs/$healthy.darshan" >"$tmp/b.csv"
  check "batch" $? 0
  col=$(head -1 "$tmp/b.csv" | tr ',' '\n' | grep -n '^best_change$' | cut -d: -f1)
  check "batch best_change of a healthy run" "$(grep -F "$healthy" "$tmp/b.csv" | awk -F, -v c="$col" '{print $c}')" ""
  best=$(grep -F "$run.darshan" "$tmp/b.csv" | awk -F, -v c="$col" '{print $c}')
  [ -n "$best" ] && ok || bad "batch best_change empty for $run"
  "$iosage" savings eval "$data" >"$tmp/eval"
  check "eval" $? 0
  grep -q '^top-ranked change = largest measured saving: ' "$tmp/eval" && ok || bad "eval: $(cat "$tmp/eval")"
  grep -q '^healthy configurations with every predicted saving under 5%: ' "$tmp/eval" && ok || bad "eval healthy: $(cat "$tmp/eval")"
  grep -q '^healthy runs, one by one, with every predicted saving under 5%: ' "$tmp/eval" && ok || bad "eval healthy runs: $(cat "$tmp/eval")"
  # the test and ood splits' healthy runs, seen through the classifiers
  shown=$(sed -n 's/^healthy runs the classifiers never saw, every saving analyze shows under 5%: \([0-9]*\) of \([0-9]*\) .*/\1 \2/p' "$tmp/eval")
  [ -n "$shown" ] && [ "${shown#* }" -gt 0 ] && [ "${shown% *}" -le "${shown#* }" ] && ok || bad "eval shown: $(cat "$tmp/eval")"
  # --rows: the scored rows behind the table. Per change, the measured rows
  # are the table's emulated rows (savings clipped to [-1, 1]), the
  # predictions stay under their cap, and their Spearman correlation is the
  # table's; every healthy run of a healthy configuration is there.
  "$iosage" savings eval --rows "$data" >"$tmp/rows.tsv"
  check "eval --rows" $? 0
  rows=$(/usr/bin/python3 -c '
import csv, sys
def ranks(v):
    o = sorted(range(len(v)), key=lambda i: v[i]); r = [0.0] * len(v); i = 0
    while i < len(o):
        j = i
        while j + 1 < len(o) and v[o[j + 1]] == v[o[i]]: j += 1
        for k in range(i, j + 1): r[o[k]] = (i + j) / 2
        i = j + 1
    return r
def spearman(a, b):
    ra, rb = ranks(a), ranks(b); n = len(a); ma, mb = sum(ra) / n, sum(rb) / n
    c = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    d = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return c / d if d else float("nan")
want = {}
for r in csv.DictReader(open(sys.argv[2]), delimiter="\t"):
    if r["system"] == "emulated":
        want.setdefault(r["change_id"], []).append(
            (r["run_id"], round(max(-1.0, min(1.0, float(r["io_saving"]))), 4)))
got, bad = {}, []
for r in csv.DictReader(open(sys.argv[1]), delimiter="\t"):
    if float(r["predicted"]) > float(r["cap"]) + 1e-6:
        bad.append("over cap: %s %s" % (r["run_id"], r["change_id"]))
    if r["row"] == "healthy" and float(r["measured"]) != 0:
        bad.append("healthy with a saving: %s" % r["run_id"])
    if r["row"] == "measured":
        got.setdefault(r["change_id"], []).append(
            (r["run_id"], round(float(r["measured"]), 4), float(r["predicted"])))
for c, rows in want.items():
    if sorted(rows) != sorted((a, b) for a, b, _ in got.get(c, [])):
        bad.append("rows of %s differ" % c)
table = {}
for line in open(sys.argv[3]):
    f = [x.strip() for x in line.split("|")]
    if len(f) > 4 and f[2].isdigit():
        table[f[1].split()[-1]] = (int(f[2]), f[3])
for c, rows in got.items():
    n, rho = table.get(c, (None, None))
    mine = spearman([b for _, b, _ in rows], [p for _, _, p in rows])
    if n != len(rows) or (rho != "nan" and abs(float(rho) - mine) > 0.0015):
        bad.append("%s: table %s %s, rows %d %.3f" % (c, n, rho, len(rows), mine))
print("; ".join(bad) if bad else "agree")' "$tmp/rows.tsv" "$data/savings.tsv" "$tmp/eval")
  check "eval --rows agrees with savings.tsv and the table" "$rows" agree
else
  echo "no $data/savings.tsv: model checks skipped"
fi

finish savings
