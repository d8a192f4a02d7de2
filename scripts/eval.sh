#!/usr/bin/env bash
# make eval: every table of docs/evaluation.md, measured again.
#
#   scripts/eval.sh BUILD/iosage [OUT_DIR]
#
# With the bundle models/default and the dataset data/hpc-runs:
#   1. training is reproducible: `iosage train` (and `iosage savings
#      train` when the dataset has savings.tsv) into OUT/retrained, timed,
#      and its model files compared with models/default (cards.json, made
#      by other code, is not compared);
#   2. test and ood splits: models vs random forest vs rule baseline
#      (`iosage eval --compare`);
#   3. leave one kernel out (`iosage eval --loko`);
#   4. the real logs of ../shared/darshan-logs with LABELS.tsv (usable
#      logs): the same comparison, and every false positive and false
#      negative with its evidence (`--errors`).
# Each table goes to OUT/<name>.md (default OUT: build/eval next to the
# binary) and to stdout. Exit 1 when the retrained bundle differs.
set -euo pipefail
iosage=$(cd "$(dirname "${1:?usage: scripts/eval.sh BUILD/iosage [OUT_DIR]}")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-$(dirname "$iosage")/eval}
bundle=$root/models/default
data=$root/data/hpc-runs
shared=${IOSAGE_SHARED_LOGS:-$root/../shared/darshan-logs}
mkdir -p "$out"
export OMP_WAIT_POLICY=passive

section() { printf '\n## %s\n\n' "$1"; }

# --- 1. reproducible training -------------------------------------------------
section "Training (iosage train $data)"
rm -rf "$out/retrained"
t0=$(date +%s.%N)
"$iosage" train "$data" -o "$out/retrained" -q
# the savings models of the bundle too, when the dataset has measured ones
if [ -s "$data/savings.tsv" ]; then
  "$iosage" savings train "$data" "$out/retrained" >/dev/null
fi
t1=$(date +%s.%N)
same=yes
for f in "$bundle"/*.json "$bundle"/*.bin; do
  name=$(basename "$f")
  [ "$name" = cards.json ] && continue
  cmp -s "$f" "$out/retrained/$name" || { same=no; echo "differs: $name"; }
done
awk -v a="$t0" -v b="$t1" -v s="$same" 'BEGIN {
  printf "training took %.1f s; model files identical to models/default: %s\n", b - a, s }' |
  tee "$out/training.md"

# --- 2. test and ood ------------------------------------------------------------
for split in test ood; do
  section "$split split"
  echo "\`iosage eval models/default data/hpc-runs --split $split --compare\`"
  echo
  "$iosage" eval "$bundle" "$data" --split "$split" --compare -q | tee "$out/$split.md"
done

# --- 3. leave one kernel out ----------------------------------------------------
section "Leave one kernel out"
echo "\`iosage eval models/default data/hpc-runs --loko\`"
echo
"$iosage" eval "$bundle" "$data" --loko -q | tee "$out/loko.md"

# --- 4. the real logs -----------------------------------------------------------
if [ ! -f "$shared/LABELS.tsv" ]; then
  echo "eval: $shared/LABELS.tsv not found: no real-log table" >&2
  [ "$same" = yes ]
  exit $?
fi
real=$out/real-logs
mkdir -p "$real"
# LABELS.tsv -> a dataset manifest: usable logs, all in the test split
awk -F'\t' -v dir="$(cd "$shared" && pwd)" '
  BEGIN { OFS = "\t"; print "run_id", "labels", "log", "split", "status" }
  NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i; next }
  $2 == "yes" { l = ""; for (i = 3; i <= 9; i++) if ($i == 1) l = l (l ? "," : "") h[i]
                print $1, (l ? l : "healthy"), dir "/" $1, "test", "ok" }' \
  "$shared/LABELS.tsv" >"$real/manifest.tsv"
section "Real logs (LABELS.tsv, usable logs)"
echo "\`iosage eval models/default REAL --compare --train-data data/hpc-runs --errors\`"
echo
"$iosage" eval "$bundle" "$real" --compare --train-data "$data" --errors -q |
  tee "$out/real.md"

# --- 5. when the file system changes --------------------------------------------
section "When the file system changes (scripts/eval-systems.sh)"
"$root/scripts/eval-systems.sh" "$iosage" "$data" "$out/systems" | tee "$out/systems.md"

# --- 6. savings (docs/savings.md) -------------------------------------------------
if [ -s "$data/savings.tsv" ]; then
  section "Savings labels (iosage savings labels)"
  "$iosage" savings labels "$data" | tee "$out/savings-labels.md"
  section "Predicted savings, 5 folds of configurations (iosage savings eval)"
  "$iosage" savings eval "$data" | tee "$out/savings-eval.md"
  section "Predicted savings, one kernel family left out (iosage savings eval --by-kernel)"
  "$iosage" savings eval --by-kernel "$data" | tee "$out/savings-eval-loko.md"
fi
[ "$same" = yes ]
