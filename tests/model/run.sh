#!/usr/bin/env bash
# tests/model/run.sh IOSAGE BENCH_DIR TRACER - train -> eval -> detect end to
# end on a tiny dataset made with `iosage gen`: the bundle is complete and
# byte-identical when trained again (with another thread count), eval gives
# the documented JSON keys, detect gives one JSON line per log with every
# pattern, finds the known-bad runs and passes the healthy ones, reports an
# unreadable log in its line and exits 3; the I/O share gate makes runs
# under 5% I/O healthy; eval --compare, --loko and --errors give the
# documented keys and known values. Exit 77 (skip) without mpirun.
set -u
iosage=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") bench=$2 tracer=$3
command -v mpirun >/dev/null 2>&1 || { echo "no mpirun: skipped"; exit 77; }
py=/usr/bin/python3
[ -x "$py" ] || py=python3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
. "$(dirname "$0")/../testlib.sh"

cat >"$tmp/t.sweep" <<'SWEEP'
# id      kernel      ranks repeats labels                               group flags
ok_coll   ior_like    2     6       healthy                              train --api mpiio --collective --transfer 1m --block 2m
ok_posix  ior_like    2     4       healthy                              train --api posix --transfer 1m --block 2m
small     ior_like    2     6       access_granularity,interface_choice  train --api posix --transfer 4k --block 16m
imb       imbalance   4     4       parallelism_efficiency               train --factor 5 --block 1m
meta      mdtest_like 2     6       metadata_intensity                   train --files-per-rank 100 --write-bytes 0
idle      dlio_like   2     2       healthy                              train --files 2 --record 4k --records-per-file 2 --compute-us 200000
SWEEP
"$iosage" gen "$tmp/t.sweep" -o "$tmp/ds" -j 2 -q --bench-dir "$bench" --tracer "$tracer"
rc=$?
[ "$rc" -le 1 ] && ok || bad "gen exit $rc"
# a run may fail on a busy machine (gen exits 1): count what was made
ok_rows=$(awk -F'\t' 'NR>1 && $11=="ok"' "$tmp/ds/manifest.tsv" | wc -l)
[ "$ok_rows" -ge 20 ] && ok || bad "only $ok_rows ok runs"
# one corrupt log among the ok rows: reported and skipped by train and eval
bad_run=$(awk -F'\t' 'NR>1 && $2=="ok_posix" && $11=="ok" {print $9; exit}' "$tmp/ds/manifest.tsv")
printf 'garbage\n' >"$tmp/ds/$bad_run"

# --- train --------------------------------------------------------------------
# b1 and b2 without detection rule 1's exception (--gate-outvote 0): on 28
# short runs a pattern model's score moves with the timing of the runs, and
# the checks below on detect and --loko should not; the exception has its
# unit test (tests/unit/model), and b3 is trained with the default.
"$iosage" train "$tmp/ds" -o "$tmp/b1" --threads 1 --gate-outvote 0 2>"$tmp/err"
check "train" $? 0
grep -q "skipped $(basename "$bad_run" .darshan): " "$tmp/err" && ok || bad "corrupt log not reported: $(cat "$tmp/err")"
grep -q "^train: $((ok_rows - 1)) runs" "$tmp/err" && ok || bad "train summary: $(grep '^train:' "$tmp/err" | head -1)"
for f in bundle.json gate.json access_granularity.json metadata_intensity.json \
         parallelism_efficiency.json access_pattern.json interface_choice.json \
         file_strategy.json throughput_utilization.json; do
  [ -s "$tmp/b1/$f" ] && ok || bad "bundle file $f missing"
done
"$iosage" train "$tmp/ds" -o "$tmp/b2" --threads 2 --gate-outvote 0 -q 2>"$tmp/err2"
check "train again" $? 0
check "quiet train prints nothing" "$(wc -c <"$tmp/err2")" 0
diff -r "$tmp/b1" "$tmp/b2" >/dev/null && ok || bad "retrained bundle differs"
"$iosage" train "$tmp/ds" -o "$tmp/b3" --seed 7 -q 2>/dev/null
grep -q '"gate_outvote": 0.5' "$tmp/b3/bundle.json" && ok || bad "default gate_outvote not 0.5"
grep -q '"gate_outvote": 0,\|"gate_outvote": 0.0' "$tmp/b1/bundle.json" && ok || bad "b1: gate_outvote not 0"
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
# beside every model its binary form (--model DIR loads it), hash listed
import os
d = os.path.dirname(sys.argv[1])
def fnv(path):
    h = 0xcbf29ce484222325
    for c in open(path, "rb").read():
        h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
    return "fnv1a64:%016x" % h
for m in b["models"]:
    form = os.path.join(d, m["file"] + ".bin")
    assert open(form, "rb").read(4) == b"binf", form
    assert m["binary_hash"] == fnv(form), form
PY

# --- the I/O share gate (detection rule 0) ---------------------------------------
# These short runs spend 1-30% of their run time in I/O (MPI start-up
# dominates), so the gate at 5% decides some of them by timing; the idle runs
# (0.4 s of emulated compute around 16 KiB of reads: 0.08-0.18% measured) are
# under it on any machine. Check it end to end on b1: every run whose slowest
# rank is clearly under 5% in I/O (the labeler's figure, under 4.5%) is
# healthy. The rest of the test uses b0, the
# same bundle with the gate off, so that it does not depend on timing.
grep -q '"io_share_gate": 0.05' "$tmp/b1/bundle.json" && ok || bad "bundle.json: no io_share_gate 0.05"
mkdir -p "$tmp/b0"
cp "$tmp/b1"/*.json "$tmp/b0/"
sed 's/"io_share_gate": 0.05/"io_share_gate": 0/' "$tmp/b1/bundle.json" >"$tmp/b0/bundle.json"
(cd "$tmp/ds" && "$iosage" label logs/*.darshan) >"$tmp/labels.tsv" 2>/dev/null
(cd "$tmp/ds" && "$iosage" detect --no-shap --model "$tmp/b1" logs/*.darshan) >"$tmp/gated.jsonl" 2>/dev/null
"$py" - "$tmp/labels.tsv" "$tmp/gated.jsonl" <<'PY' && ok || bad "I/O share gate: $(head -c 400 "$tmp/gated.jsonl")"
import json, re, sys
share = {}
for line in open(sys.argv[1]):
    m = re.search(r"slowest rank ([0-9.]+)% of run", line)
    if m:
        share[line.split("\t")[0]] = float(m.group(1)) / 100
low = 0
for line in open(sys.argv[2]):
    d = json.loads(line)
    if share.get(d["file"], 1) < 0.045:
        low += 1
        assert d["healthy"]["detected"], d
        assert not any(p["detected"] for p in d["patterns"].values()), d
assert low >= 2, "no run under the gate"   # the two idle runs at least
PY

# --- eval ---------------------------------------------------------------------
"$iosage" eval "$tmp/b0" "$tmp/ds" --split all --format json -q >"$tmp/eval.json"
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
"$iosage" eval "$tmp/b0" "$tmp/ds" -q >"$tmp/eval.txt"
check "eval text" $? 0
grep -q "^micro F1 " "$tmp/eval.txt" && grep -q "^access_granularity " "$tmp/eval.txt" && ok || bad "eval table: $(head -3 "$tmp/eval.txt")"
"$iosage" eval "$tmp/b0" "$tmp/ds" --split nope 2>/dev/null
check "eval bad split" $? 2
"$iosage" eval "$tmp/nope" "$tmp/ds" 2>"$tmp/err"
check "eval missing bundle" $? 3
check "eval missing bundle: one line" "$(wc -l <"$tmp/err")" 1

# --- eval --compare, --loko, --errors -------------------------------------------
"$iosage" eval "$tmp/b0" "$tmp/ds" --split all --compare --format json -q >"$tmp/cmp.json"
check "eval --compare" $? 0
"$iosage" eval "$tmp/b0" "$tmp/ds" --split all --compare --format json -q >"$tmp/cmp2.json"
cmp -s "$tmp/cmp.json" "$tmp/cmp2.json" && ok || bad "eval --compare is not reproducible"
"$py" - "$tmp/cmp.json" "$tmp/eval.json" <<'PY' && ok || bad "eval --compare JSON: $(cat "$tmp/cmp.json")"
import json, sys
c = json.loads(open(sys.argv[1]).read())
e = json.loads(open(sys.argv[2]).read())
keys = {"split", "runs", "micro_f1", "macro_f1", "hamming_loss", "subset_accuracy",
        "healthy_flagged", "per_pattern"}
assert set(c) == keys | {"random_forest", "rules"}, sorted(c)
assert {k: c[k] for k in keys} == e          # the models' figures as without --compare
for m in ("random_forest", "rules"):
    assert set(c[m]) == keys - {"split"}, (m, sorted(c[m]))
    assert c[m]["runs"] == e["runs"] and len(c[m]["per_pattern"]) == 7
assert c["random_forest"]["micro_f1"] > 0.6, c["random_forest"]
# the rules see the 4 KiB writes (access_granularity) of every "small" run
assert c["rules"]["per_pattern"]["access_granularity"]["recall"] == 1.0, c["rules"]
PY
"$iosage" eval "$tmp/b0" "$tmp/ds" --compare -q >"$tmp/cmp.txt"
grep -q '^| micro F1 | ' "$tmp/cmp.txt" && grep -q '^| micro precision | ' "$tmp/cmp.txt" &&
  grep -q '^| access_granularity | ' "$tmp/cmp.txt" && ok || bad "compare table: $(head -5 "$tmp/cmp.txt")"
"$iosage" eval "$tmp/b0" "$tmp/ds" --loko --format json -q >"$tmp/loko.json"
check "eval --loko" $? 0
(cd "$tmp/ds" && "$iosage" rules logs/imb-*.darshan) >"$tmp/imb-rules.jsonl" 2>/dev/null
"$py" - "$tmp/loko.json" $((ok_rows - 1)) "$tmp/imb-rules.jsonl" <<'PY' && ok || bad "eval --loko JSON: $(cat "$tmp/loko.json")"
import json, sys
rows = json.loads(open(sys.argv[1]).read())["loko"]
assert [r["kernel"] for r in rows] == ["dlio_like", "imbalance", "ior_like", "mdtest_like"], rows
assert sum(r["models"]["runs"] for r in rows) == int(sys.argv[2])
for r in rows:
    assert r["models"]["runs"] == r["random_forest"]["runs"] == r["rules"]["runs"]
imb = rows[1]
# parallelism_efficiency comes only from the imbalance kernel: without it
# no model can report it; the rules score what `iosage rules` says
assert imb["models"]["micro_f1"] in (0, None) and imb["random_forest"]["micro_f1"] in (0, None), imb
# Training and evaluation read a run's configuration label without a
# pattern the run cannot show (under the healthy gate, or under every floor
# of the pattern: src/model/dataset.c), and on these 0.1 s runs timing
# decides that; so of the D imbalance runs `iosage rules` flags, between
# D - (n - support) and min(D, support) are among the labeled ones.
pe = [json.loads(l)["patterns"][2] for l in open(sys.argv[3])]
assert all(p["id"] == "parallelism_efficiency" for p in pe)
n, flagged = len(pe), sum(p["detected"] for p in pe)
got = imb["rules"]["per_pattern"]["parallelism_efficiency"]
support = got["support"]
assert 0 <= support <= n, (imb, n)
hits = round((got["recall"] or 0) * support)
assert abs((got["recall"] or 0) * support - hits) < 1e-3, got
assert max(0, flagged - (n - support)) <= hits <= min(flagged, support), (got, n, flagged)
PY
"$iosage" eval "$tmp/b0" "$tmp/ds" --split all --compare --errors -q >"$tmp/err.txt"
check "eval --errors" $? 0
"$py" - "$tmp/err.txt" <<'PY' && ok || bad "eval --errors: $(tail -5 "$tmp/err.txt")"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
errs = [i for i, l in enumerate(lines) if re.match(r"^F[PN] (models|random_forest|rules) [a-z_]+ \S+", l)]
assert lines[-1] == "%d errors" % len(errs), (lines[-1], len(errs))
for i in errs:   # each with the labeler's evidence line
    assert lines[i + 1].startswith("    labeler: nprocs "), lines[i + 1]
PY
"$iosage" eval "$tmp/b0" "$tmp/ds" --errors --format json 2>/dev/null
check "eval --errors --format json" $? 2

# --- detect -------------------------------------------------------------------
logs=$(awk -F'\t' 'NR>1 && $11=="ok" && ($2=="small" || $2=="ok_coll") {print $9}' "$tmp/ds/manifest.tsv")
(cd "$tmp/ds" && "$iosage" detect --model "$tmp/b0" $logs logs/missing.darshan) >"$tmp/det.jsonl" 2>"$tmp/err"
check "detect with a missing log" $? 3
"$py" - "$tmp/det.jsonl" $(echo $logs | wc -w) <<'PY' && ok || bad "detect output: $(head -c 600 "$tmp/det.jsonl")"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == int(sys.argv[2]) + 1, len(lines)
wrong = []
for line in lines[:-1]:
    d = json.loads(line)
    assert set(d) == {"file", "healthy", "patterns"}, sorted(d)
    assert set(d["healthy"]) == {"score", "detected"}
    assert len(d["patterns"]) == 7
    for pid, p in d["patterns"].items():
        # "floor": the model's report taken back under the pattern's floor
        # (src/model/detect.c rule 4; on these short runs timing decides it)
        assert {"score", "detected"} <= set(p) <= {"score", "detected", "shap", "floor"}, p
        assert ("shap" in p) == p["detected"], (pid, p)
        for s in p.get("shap", []):
            assert set(s) == {"feature", "value", "contribution"}
        assert len(p.get("shap", [])) <= 5
    # a model of 28 short runs: runs whose timing moved under a busy
    # machine may fall on the wrong side (seen in CI: small-r1 under the
    # gate once; small-r1 and small-r4 both wrong on 2026-12-06, three
    # reruns passing; three of them wrong in a later CI run, when the
    # small runs wrote 4 MiB a rank: with two `yes` processes beside it,
    # 2 of 5 datasets had a known-bad run look healthy. With 16 MiB a
    # rank, 5 of 5 passed under the same load); at most two of the six
    # known-bad runs and one of the healthy ones, every other run must be
    # right
    if "/small-" in d["file"]:   # the known-bad runs
        right = (not d["healthy"]["detected"] and
                 d["patterns"]["access_granularity"]["detected"])
        if right:
            assert d["patterns"]["access_granularity"]["shap"], d["file"]
    else:                        # the healthy ones
        right = (d["healthy"]["detected"] and
                 not any(p["detected"] for p in d["patterns"].values()))
    if not right:
        wrong.append(d["file"])
bad_runs = [f for f in wrong if "/small-" in f]
assert len(bad_runs) <= 2 and len(wrong) - len(bad_runs) <= 1, wrong
last = json.loads(lines[-1])
assert set(last) == {"file", "error"} and last["file"] == "logs/missing.darshan"
PY
"$iosage" detect --model "$tmp/b0" --no-shap $(awk -F'\t' 'NR>1 && $2=="small" {print "'"$tmp/ds/"'"$9; exit}' "$tmp/ds/manifest.tsv") >"$tmp/one.jsonl"
check "detect --no-shap" $? 0
grep -q '"shap"' "$tmp/one.jsonl" && bad "--no-shap printed shap" || ok
"$iosage" detect --model "$tmp/b0" 2>/dev/null
check "detect without a log" $? 2
sed 's/"feature_schema_version": [0-9]*/"feature_schema_version": 999/' "$tmp/b1/bundle.json" >"$tmp/b2/bundle.json"
"$iosage" detect --model "$tmp/b2" "$tmp/ds/$bad_run" >/dev/null 2>"$tmp/err"
check "schema mismatch exit" $? 3
grep -q "b2: bundle.json: feature schema version 999 in the bundle, 3 in this iosage" "$tmp/err" && ok || bad "schema mismatch message: $(cat "$tmp/err")"
for c in train eval detect; do
  "$iosage" $c --help >/dev/null
  check "$c --help" $? 0
done

finish
