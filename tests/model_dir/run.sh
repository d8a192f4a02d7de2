#!/usr/bin/env bash
# tests/model_dir/run.sh IOSAGE SOURCE_DIR - a directory bundle (--model DIR)
# loads its models from the binary forms `iosage train` writes beside them
# (<model>.json.bin, whose hash bundle.json or savings.json lists), and
# from the JSON when a form is missing, stale or made by another XGBoost:
#   - the committed bundle lists a form for every model, with the hash of
#     the file that is there;
#   - the report of a log is the same with and without the forms;
#   - with every model's JSON damaged, the forms still give that report
#     (so they, not the JSON, were loaded: classifiers and savings models);
#   - a form whose bytes changed, or a bundle.json naming another XGBoost,
#     sends the loader back to the JSON, whose damage it then reports
#     (exit 3, "file_hash differs");
#   - a damaged savings model without a form: exit 3, the error names the
#     bundle and the file.
set -u
iosage=$1 src=$2
. "$(dirname "$0")/../testlib.sh"
export OMP_NUM_THREADS=1
py=/usr/bin/python3
[ -x "$py" ] || py=python3

bundle=$src/models/default
# a run with findings and savings (access granularity, larger_requests)
log=$src/data/hpc-runs/logs/ag_amrex_16-r0.darshan

# --- the committed bundle lists every form, with the right hash --------------
"$py" - "$bundle" >"$tmp/forms" <<'PY'
import json, os, sys
d = sys.argv[1]
def fnv(path):
    h = 0xcbf29ce484222325
    for b in open(path, "rb").read():
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return "fnv1a64:%016x" % h
listed = [(m["file"], m.get("binary_hash")) for m in json.load(open(d + "/bundle.json"))["models"]]
listed += [(c["file"], c.get("binary_hash")) for c in json.load(open(d + "/savings.json"))["changes"]]
for f, h in listed:
    form = d + "/" + f + ".bin"
    print(f, "ok" if h and os.path.exists(form) and fnv(form) == h else "BAD")
PY
check "forms listed" "$(wc -l <"$tmp/forms")" 17
check "forms with their hash" "$(grep -c ' ok$' "$tmp/forms")" 17

# --- the same report with and without the forms --------------------------------
report() { # report DIR: the JSON report of $log with bundle DIR, DIR's name cut
  "$iosage" analyze -q --format json --model "$1" "$log" 2>"$tmp/err" |
    sed "s#$1#BUNDLE#g"
}
cp -r "$bundle" "$tmp/forms_dir"
mkdir "$tmp/json_dir"
cp "$bundle"/*.json "$tmp/json_dir/"
report "$tmp/forms_dir" >"$tmp/with_forms.json"
check "with forms: exit" "$?" 0
report "$tmp/json_dir" >"$tmp/json_only.json"
check "JSON only: exit" "$?" 0
cmp -s "$tmp/with_forms.json" "$tmp/json_only.json" && ok ||
  bad "the report differs with and without the forms"
grep -q '"expected_saving"' "$tmp/with_forms.json" && ok ||
  bad "the report has no expected saving (no savings model used)"

# --- with every JSON model damaged, the forms still load -----------------------
for f in "$tmp/forms_dir"/*.json; do
  case $(basename "$f") in bundle.json|savings.json|cards.json) continue ;; esac
  head -c 1000 "$f" >"$f.cut" && mv "$f.cut" "$f" # not JSON any more
done
report "$tmp/forms_dir" >"$tmp/damaged_json.json"
check "forms over damaged JSON: exit" "$?" 0
cmp -s "$tmp/with_forms.json" "$tmp/damaged_json.json" && ok ||
  bad "the forms did not give the same report: $(cat "$tmp/err")"

# --- a changed form: back to the (damaged) JSON --------------------------------
cp "$tmp/forms_dir/gate.json.bin" "$tmp/gate.bin.saved"
printf '\001' | dd of="$tmp/forms_dir/gate.json.bin" bs=1 seek=100 conv=notrunc 2>/dev/null
"$iosage" analyze -q --model "$tmp/forms_dir" "$log" >/dev/null 2>"$tmp/err"
check "changed form: exit" "$?" 3
grep -q "gate.json.*file_hash differs" "$tmp/err" && ok ||
  bad "changed form: $(cat "$tmp/err")"
cp "$tmp/gate.bin.saved" "$tmp/forms_dir/gate.json.bin"

# --- another XGBoost wrote the bundle: back to the JSON --------------------------
sed 's/"xgboost_version": "[^"]*"/"xgboost_version": "0.0.0"/' \
  "$bundle/bundle.json" >"$tmp/forms_dir/bundle.json"
"$iosage" analyze -q --model "$tmp/forms_dir" "$log" >/dev/null 2>"$tmp/err"
check "other XGBoost: exit" "$?" 3
grep -q "file_hash differs" "$tmp/err" && ok || bad "other XGBoost: $(cat "$tmp/err")"

# --- a damaged savings model without its form: named in the error -------------
rm "$tmp/json_dir/savings-larger_requests.json.bin" 2>/dev/null
head -c 1000 "$bundle/savings-larger_requests.json" >"$tmp/json_dir/savings-larger_requests.json"
"$iosage" analyze -q --model "$tmp/json_dir" "$log" >/dev/null 2>"$tmp/err"
check "damaged savings JSON: exit" "$?" 3
grep -q "json_dir: savings-larger_requests.json: xgboost: load model" "$tmp/err" && ok ||
  bad "damaged savings JSON: $(cat "$tmp/err")"

finish model_dir
