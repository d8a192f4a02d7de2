#!/usr/bin/env bash
# tests/model_bin/run.sh MODEL_BIN SOURCE_DIR - the build step that makes
# the embedded models' binary forms (cmake/tools/model_bin.c):
#   - a model of the default bundle gets XGBoost's binary format ("binf"
#     first), checked by the tool to give the same model back (no line on
#     stderr, which the UBJSON fallback would print), and for the gate the
#     same bytes as the gate.json.bin `iosage train` wrote into the bundle;
#   - a file that is no model (cards.json, bundle.json) gets an empty form;
#   - a model file whose hash is not the one its bundle.json lists stops
#     the build (exit 1) and leaves no form behind;
#   - a missing input: exit 1 with its name.
set -u
tool=$1 src=$2
. "$(dirname "$0")/../testlib.sh"
export OMP_NUM_THREADS=1 ASAN_OPTIONS=detect_leaks=0

bundle=$src/models/default
for m in gate access_granularity savings-balance_io; do
  "$tool" "$bundle/$m.json" "$tmp/$m.bin" 2>"$tmp/err"
  check "$m: exit" "$?" 0
  check "$m: binary format" "$(head -c 4 "$tmp/$m.bin")" binf
  check "$m: no fallback line" "$(cat "$tmp/err")" ""
done
# the form `iosage train` wrote into the bundle is the one the build makes
# (the same check, src/model/xgb_form.c), when the same XGBoost made both
if grep -q "\"xgboost_version\": \"$(dpkg-query -W -f '${Version}' libxgboost0 2>/dev/null | sed 's/[-+~].*//')\"" "$bundle/bundle.json"; then
  cmp -s "$tmp/gate.bin" "$bundle/gate.json.bin" && ok ||
    bad "gate: the build's form is not the bundle's gate.json.bin"
fi
for f in cards.json bundle.json; do
  "$tool" "$bundle/$f" "$tmp/$f.bin" 2>"$tmp/err"
  check "$f: exit" "$?" 0
  check "$f: empty form" "$(stat -c %s "$tmp/$f.bin")" 0
done

# a bundle whose gate.json is not the one bundle.json lists
mkdir "$tmp/b"
cp "$bundle/bundle.json" "$tmp/b/"
sed 's/"num_trees"/"num_trees" /' "$bundle/gate.json" >"$tmp/b/gate.json"
: >"$tmp/b.bin"
"$tool" "$tmp/b/gate.json" "$tmp/b.bin" 2>"$tmp/err"
check "changed model: exit" "$?" 1
grep -q "do not belong together" "$tmp/err" || bad "changed model: $(cat "$tmp/err")"
[ -e "$tmp/b.bin" ] && bad "changed model: a form was left behind" || ok

"$tool" "$tmp/missing.json" "$tmp/m.bin" 2>"$tmp/err"
check "missing input: exit" "$?" 1
grep -q "missing.json: cannot read" "$tmp/err" || bad "missing input: $(cat "$tmp/err")"

finish model_bin
