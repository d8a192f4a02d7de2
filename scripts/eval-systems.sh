#!/usr/bin/env bash
# scripts/eval-systems.sh - do the models hold when the file system changes?
# (issue 15 point 3: train on half of the drawn systems, test on the other
# half, micro F1 drop <= 0.05)
#
#   scripts/eval-systems.sh BUILD/iosage [DATASET] [OUT_DIR]
#
# DATASET (default data/hpc-runs) has the manifest column `system` that
# `iosage gen --pfs-random` writes: `native` or BASE~ID:ost=N,ost_mibs=M,...
# Each split below trains a bundle with the default parameters on one half of
# the runs (the manifest's validation runs of that half stay validation, its
# other runs become train) and scores it on every run of the other half
# (`iosage eval --split test`):
#
#   base A->B   trained on native and lustre-hdd-small runs, tested on
#               lustre-flash-large and gpfs-like runs; B->A the reverse
#   speed s->f  drawn systems only: trained on the slower half by aggregate
#               write bandwidth (ost x ost_mibs), tested on the faster
#               half; f->s the reverse
#   random      the same sizes drawn at random (seeded), the control: the
#               drop of a split is the random split's micro F1 minus its own
#
# Prints one Markdown table; leaves each split's manifest and bundle in
# OUT_DIR (default: eval-systems next to the binary).
set -euo pipefail
iosage=$(cd "$(dirname "${1:?usage: scripts/eval-systems.sh BUILD/iosage [DATASET] [OUT_DIR]}")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
data=$(cd "${2:-$root/data/hpc-runs}" && pwd)
out=${3:-$(dirname "$iosage")/eval-systems}
mkdir -p "$out"
export OMP_WAIT_POLICY=passive

# split_manifest NAME HALF_EXPR: HALF_EXPR (awk, over the row's fields and
# `sys`, `base`, `bw`) is 1 for the training half, 0 for the test half,
# -1 to leave the run out. Log paths become absolute.
split_manifest() {
  local name=$1 expr=$2 median=${3:-0}
  mkdir -p "$out/$name"
  awk -F'\t' -v OFS='\t' -v dir="$data" -v median="$median" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
    {
      sys = $c["system"]; base = sys; sub(/~.*/, "", base)
      bw = -1
      if (match(sys, /ost=[0-9]+/)) ost = substr(sys, RSTART + 4, RLENGTH - 4)
      if (match(sys, /ost_mibs=[0-9.]+/)) bw = ost * substr(sys, RSTART + 9, RLENGTH - 9)
      half = ('"$expr"')
      if (half < 0) next
      if (half == 1) { if ($c["split"] != "validation") $c["split"] = "train" }
      else $c["split"] = "test"
      $c["log"] = dir "/" $c["log"]
      print
    }' "$data/manifest.tsv" >"$out/$name/manifest.tsv"
}

# the median aggregate bandwidth of the drawn systems
median=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  match($c["system"], /ost=[0-9]+/) { ost = substr($c["system"], RSTART + 4, RLENGTH - 4)
    match($c["system"], /ost_mibs=[0-9.]+/); print ost * substr($c["system"], RSTART + 9, RLENGTH - 9) }' \
  "$data/manifest.tsv" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')

split_manifest baseAB '(base == "native" || base == "lustre-hdd-small") ? 1 : 0'
split_manifest baseBA '(base == "native" || base == "lustre-hdd-small") ? 0 : 1'
split_manifest speedSF 'bw < 0 ? -1 : (bw <= median ? 1 : 0)' "$median"
split_manifest speedFS 'bw < 0 ? -1 : (bw <= median ? 0 : 1)' "$median"

# random_like NAME: the runs of NAME's manifest, halves of the same sizes
# drawn at random among the same runs
random_like() {
  local name=$1
  mkdir -p "$out/$name-random"
  awk -F'\t' -v OFS='\t' 'BEGIN { srand(15) }
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
    { n++; row[n] = $0; if ($c["split"] == "test") tests++ }
    END {
      for (i = 1; i <= n; i++) order[i] = i
      for (i = n; i > 1; i--) { j = int(rand() * i) + 1; t = order[i]; order[i] = order[j]; order[j] = t }
      for (k = 1; k <= n; k++) {
        $0 = row[order[k]]
        if (k <= tests) $c["split"] = "test"
        else if ($c["split"] == "test") $c["split"] = "train"
        print
      }
    }' "$out/$name/manifest.tsv" >"$out/$name-random/manifest.tsv"
}

f1() { awk '/^micro F1/ { m = $3 } /^healthy flagged/ { h = $3 } END { print m, h }'; }
printf '| split | train runs | test runs | micro F1 | healthy flagged | random halves micro F1 | drop |\n'
printf '|---|---|---|---|---|---|---|\n'
for name in baseAB baseBA speedSF speedFS; do
  random_like "$name"
  for d in "$name" "$name-random"; do
    "$iosage" train "$out/$d" -o "$out/$d/bundle" -q
  done
  read -r m h < <("$iosage" eval "$out/$name/bundle" "$out/$name" --split test -q | f1)
  read -r rm _ < <("$iosage" eval "$out/$name-random/bundle" "$out/$name-random" --split test -q | f1)
  ntest=$(awk -F'\t' 'NR > 1 && $0 ~ /\ttest\t/' "$out/$name/manifest.tsv" | wc -l)
  ntrain=$(( $(wc -l <"$out/$name/manifest.tsv") - 1 - ntest ))
  case $name in
    baseAB) label="native + lustre-hdd-small -> lustre-flash-large + gpfs-like" ;;
    baseBA) label="lustre-flash-large + gpfs-like -> native + lustre-hdd-small" ;;
    speedSF) label="slower half -> faster half (drawn, ost x ost_mibs <= $median MiB/s)" ;;
    speedFS) label="faster half -> slower half" ;;
  esac
  awk -v l="$label" -v a="$ntrain" -v b="$ntest" -v m="$m" -v h="$h" -v r="$rm" \
    'BEGIN { printf "| %s | %d | %d | %.3f | %.3f | %.3f | %+.3f |\n", l, a, b, m, h, r, r - m }'
done
