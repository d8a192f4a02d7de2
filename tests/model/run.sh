#!/usr/bin/env bash
# tests/model/run.sh IOSAGE BENCH_DIR TRACER - train -> eval -> detect end to
# end on a tiny dataset made with `iosage gen`: the bundle is complete and
# byte-identical when trained again (with another thread count), eval gives
# the documented JSON keys, detect gives one JSON line per log with every
# pattern, finds the known-bad runs and passes the healthy ones, reports an
# unreadable log in its line and exits 3. Exit 77 (skip) without mpirun.
set -u
iosage=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") bench=$2 tracer=$3
command -v mpirun >/dev/null 2>&1 || { echo "no mpirun: skipped"; exit 77; }
py=/usr/bin/python3
[ -x "$py" ] || py=python3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi; }

cat >"$tmp/t.sweep" <<'SWEEP'
# id      kernel      ranks repeats labels                               group flags
ok_coll   ior_like    2     6       healthy                              train --api mpiio --collective --transfer 1m --block 2m
ok_posix  ior_like    2     4       healthy                              train --api posix --transfer 1m --block 2m
small     ior_like    2     6       access_granularity,interface_choice  train --api posix --transfer 4k --block 4m
imb       imbalance   4     4       parallelism_efficiency               train --factor 5 --block 1m
meta      mdtest_like 2     6       metadata_intensity                   train --files-per-rank 100 --write-bytes 0
SWEEP
"$iosage" gen "$tmp/t.sweep" -o "$tmp/ds" -j 2 -q --bench-dir "$bench" --tracer "$tracer"
rc=$?
[ "$rc" -le 1 ] && ok || bad "gen exit $rc"
# a run may fail on a busy machine (gen exits 1): count what was made
ok_rows=$(awk -F'\t' 'NR>1 && $11=="ok"' "$tmp/ds/manifest.tsv" | wc -l)
[ "$ok_rows" -ge 20 ] && ok || bad "only $ok_rows ok runs"
# one corrupt log among the ok rows: reported and skipped by train and eval
bad_run=$(awk -F'\t' 'NR>1 && $2=="ok_posix" {print $9; exit}' "$tmp/ds/manifest.tsv")
printf 'garbage\n' >"$tmp/ds/$bad_run"

# --- train --------------------------------------------------------------------
"$iosage" train "$tmp/ds" -o "$tmp/b1" --threads 1 2>"$tmp/err"
check "train" $? 0
grep -q "skipped $(basename "$bad_run" .darshan): " "$tmp/err" && ok || bad "corrupt log not reported: $(cat "$tmp/err")"
grep -q "^train: $((ok_rows - 1)) runs" "$tmp/err" && ok || bad "train summary: $(grep '^train:' "$tmp/err" | head -1)"
for f in bundle.json gate.json access_granularity.json metadata_intensity.json \
         parallelism_efficiency.json access_pattern.json interface_choice.json \
         file_strategy.json throughput_utilization.json; do
  [ -s "$tmp/b1/$f" ] && ok || bad "bundle file $f missing"
done
"$iosage" train "$tmp/ds" -o "$tmp/b2" --threads 2 -q 2>"$tmp/err2"
check "train again" $? 0
check "quiet train prints nothing" "$(wc -c <"$tmp/err2")" 0
diff -r "$tmp/b1" "$tmp/b2" >/dev/null && ok || bad "retrained bundle differs"
"$iosage" train "$tmp/ds" -o "$tmp/b3" --seed 7 -q 2>/dev/null
cmp -s "$tmp/b1/bundle.json" "$tmp/b3/bundle.json" && bad "--seed changes nothing" || ok

"$py" - "$tmp/b1/bundle.json" <<'PY' && ok || bad "bundle.json content"
import json, sys
b = json.load(open(sys.argv[1]))
need = ["format", "bundle_version", "feature_schema_version", "features", "patterns",
        "seed", "parameters", "training_data", "models", "metrics"]
missing = [k for k in need if k not in b]
assert not missing, missing
assert b["format"] == "iosage-model-bundle" and b["seed"] == 42
assert len(b["features"]) >= 100 and len(b["patterns"]) == 7
assert [m["id"] for m in b["models"]] == ["gate"] + b["patterns"]
assert all(0 <= m["threshold"] <= 1 for m in b["models"])
assert b["training_data"]["hash"].startswith("fnv1a64:")
assert b["training_data"]["skipped_runs"] == 1
assert b["parameters"]["tree_method"] == "hist"
PY

# --- eval ---------------------------------------------------------------------
"$iosage" eval "$tmp/b1" "$tmp/ds" --split all --format json -q >"$tmp/eval.json"
check "eval json" $? 0
"$py" - "$tmp/eval.json" $((ok_rows - 1)) <<'PY' && ok || bad "eval JSON keys: $(cat "$tmp/eval.json")"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1
e = json.loads(lines[0])
assert set(e) == {"split", "runs", "micro_f1", "macro_f1", "hamming_loss",
                  "subset_accuracy", "healthy_flagged", "per_pattern"}, sorted(e)
assert e["split"] == "all" and e["runs"] == int(sys.argv[2])
assert len(e["per_pattern"]) == 7
for p in e["per_pattern"].values():
    assert set(p) == {"precision", "recall", "f1", "support"}
assert e["micro_f1"] > 0.6, e["micro_f1"]  # tiny data: a sanity bound
PY
"$iosage" eval "$tmp/b1" "$tmp/ds" -q >"$tmp/eval.txt"
check "eval text" $? 0
grep -q "^micro F1 " "$tmp/eval.txt" && grep -q "^access_granularity " "$tmp/eval.txt" && ok || bad "eval table: $(head -3 "$tmp/eval.txt")"
"$iosage" eval "$tmp/b1" "$tmp/ds" --split nope 2>/dev/null
check "eval bad split" $? 2
"$iosage" eval "$tmp/nope" "$tmp/ds" 2>"$tmp/err"
check "eval missing bundle" $? 3
check "eval missing bundle: one line" "$(wc -l <"$tmp/err")" 1

# --- detect -------------------------------------------------------------------
logs=$(awk -F'\t' 'NR>1 && $11=="ok" && ($2=="small" || $2=="ok_coll") {print $9}' "$tmp/ds/manifest.tsv")
(cd "$tmp/ds" && "$iosage" detect --model "$tmp/b1" $logs logs/missing.darshan) >"$tmp/det.jsonl" 2>"$tmp/err"
check "detect with a missing log" $? 3
"$py" - "$tmp/det.jsonl" $(echo $logs | wc -w) <<'PY' && ok || bad "detect output: $(head -c 600 "$tmp/det.jsonl")"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == int(sys.argv[2]) + 1, len(lines)
for line in lines[:-1]:
    d = json.loads(line)
    assert set(d) == {"file", "healthy", "patterns"}, sorted(d)
    assert set(d["healthy"]) == {"score", "detected"}
    assert len(d["patterns"]) == 7
    for pid, p in d["patterns"].items():
        assert {"score", "detected"} <= set(p) <= {"score", "detected", "shap"}
        assert ("shap" in p) == p["detected"], (pid, p)
        for s in p.get("shap", []):
            assert set(s) == {"feature", "value", "contribution"}
        assert len(p.get("shap", [])) <= 5
    if "/small-" in d["file"]:   # the known-bad runs
        assert not d["healthy"]["detected"], d["file"]
        assert d["patterns"]["access_granularity"]["detected"], d["file"]
        assert d["patterns"]["access_granularity"]["shap"], d["file"]
    else:                        # the healthy ones
        assert d["healthy"]["detected"], d["file"]
        assert not any(p["detected"] for p in d["patterns"].values()), d["file"]
last = json.loads(lines[-1])
assert set(last) == {"file", "error"} and last["file"] == "logs/missing.darshan"
PY
"$iosage" detect --model "$tmp/b1" --no-shap $(awk -F'\t' 'NR>1 && $2=="small" {print "'"$tmp/ds/"'"$9; exit}' "$tmp/ds/manifest.tsv") >"$tmp/one.jsonl"
check "detect --no-shap" $? 0
grep -q '"shap"' "$tmp/one.jsonl" && bad "--no-shap printed shap" || ok
"$iosage" detect --model "$tmp/b1" 2>/dev/null
check "detect without a log" $? 2
sed 's/"feature_schema_version": [0-9]*/"feature_schema_version": 999/' "$tmp/b1/bundle.json" >"$tmp/b2/bundle.json"
"$iosage" detect --model "$tmp/b2" "$tmp/ds/$bad_run" >/dev/null 2>"$tmp/err"
check "schema mismatch exit" $? 3
grep -q "b2: bundle.json: feature schema version 999 in the bundle, 1 in this iosage" "$tmp/err" && ok || bad "schema mismatch message: $(cat "$tmp/err")"
for c in train eval detect; do
  "$iosage" $c --help >/dev/null
  check "$c --help" $? 0
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
