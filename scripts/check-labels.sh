#!/usr/bin/env bash
# scripts/check-labels.sh - do the logs of a generated dataset show what their
# configurations claim?
#
#   scripts/check-labels.sh [-b IOSAGE] [-t MIN] [-v] DATASET_DIR
#
# Runs `iosage label` (the LABELING.md criteria) over every log the manifest
# (DATASET_DIR/manifest.tsv, written by `iosage gen`) lists as ok, and compares
# each run's labeler result with its configuration's labels: a run agrees when
# the set of patterns the labeler finds (or "healthy") is exactly the set the
# configuration claims. Prints
#   - per configuration: runs, agreeing runs, agreement, and the labeler's most
#     frequent other result (worst configurations first; -v: all of them),
#   - per pattern: runs claimed positive, runs the labeler finds positive, both,
#   - per split: runs, healthy runs (claimed),
#   - totals: runs, healthy share, run agreement, generation time, size.
#
# Exit status: 0 every configuration agrees in at least MIN of its runs
# (default 0.8, i.e. 80%); 1 some configuration is below MIN; 2 usage error;
# 3 the manifest or the labeler could not be read or run.
set -u -o pipefail

iosage=${IOSAGE:-}
min=0.8
verbose=0
usage() {
    echo "usage: $0 [-b IOSAGE] [-t MIN_AGREEMENT] [-v] DATASET_DIR" >&2
    exit 2
}
while getopts "b:t:vh" opt; do
    case $opt in
    b) iosage=$OPTARG ;;
    t) min=$OPTARG ;;
    v) verbose=1 ;;
    h)
        sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'
        exit 0
        ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
dir=$1
here=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "$iosage" ]; then
    for c in "$here/build/iosage" "$here/build-ds/iosage" "$(command -v iosage || true)"; do
        if [ -n "$c" ] && [ -x "$c" ]; then iosage=$c; break; fi
    done
fi
[ -n "$iosage" ] && [ -x "$iosage" ] || { echo "$0: no iosage binary (use -b)" >&2; exit 3; }
case $iosage in /*) ;; *) iosage=$PWD/$iosage ;; esac
manifest=$dir/manifest.tsv
[ -r "$manifest" ] || { echo "$0: cannot read $manifest" >&2; exit 3; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The logs of the ok runs, relative to the dataset directory.
awk -F'\t' 'NR > 1 && $11 == "ok" { print $9 }' "$manifest" >"$tmp/logs"
if [ ! -s "$tmp/logs" ]; then
    echo "$0: no finished runs in $manifest" >&2
    exit 3
fi
# Label them (a log that cannot be read is reported by iosage and left out).
(cd "$dir" && xargs -d '\n' -n 256 "$iosage" label <"$tmp/logs") >"$tmp/labels" 2>"$tmp/errors"
if [ ! -s "$tmp/labels" ]; then
    echo "$0: iosage label produced nothing:" >&2
    head -3 "$tmp/errors" >&2
    exit 3
fi
gen_seconds=$(awk -F'\t' 'NR > 1 { s += $8 } END { printf "%.0f", s }' "$manifest")
size=$(du -sh "$dir" 2>/dev/null | cut -f1)
nerr=$(wc -l <"$tmp/errors")

awk -F'\t' -v min="$min" -v verbose="$verbose" -v gen_seconds="$gen_seconds" \
    -v size="$size" -v nerr="$nerr" '
BEGIN {
    np = split("access_granularity metadata_intensity parallelism_efficiency " \
               "access_pattern interface_choice file_strategy " \
               "throughput_utilization", pid, " ")
    for (p = 1; p <= np; p++) order[pid[p]] = p
}
# A label list in pattern order ("healthy" when empty).
function norm(s,    n, a, i, p, have, out) {
    n = split(s, a, ",")
    for (i = 1; i <= n; i++) if (a[i] in order) have[order[a[i]]] = 1
    out = ""
    for (p = 1; p <= np; p++) if (p in have) out = out (out == "" ? "" : ",") pid[p]
    return out == "" ? "healthy" : out
}
FNR == NR { # labeler output: file, 7 flags, healthy, evidence
    got = ""
    for (p = 1; p <= np; p++) if ($(p + 1) == 1) got = got (got == "" ? "" : ",") pid[p]
    labeled[$1] = (got == "" ? "healthy" : got)
    next
}
FNR == 1 { next } # manifest header
$11 != "ok" { failed++; next }
{
    run = $1; cfg = $2; split_ = $10
    claim = norm($6)
    if (!(cfg in nruns)) { corder[++ncfg] = cfg; cdesc[cfg] = $3 " np=" $5 " [" claim "]" }
    nruns[cfg]++
    splits[split_]++
    if (claim == "healthy") { hsplit[split_]++; claimed_healthy++ }
    total++
    if (!($9 in labeled)) { unread[cfg]++; next }
    got = labeled[$9]
    if (got == claim) { agree[cfg]++; agree_all++ }
    else other[cfg, got]++
    if (got == "healthy") found_healthy++
    for (p = 1; p <= np; p++) {
        c = index("," claim ",", "," pid[p] ",") > 0
        g = index("," got ",", "," pid[p] ",") > 0
        pc[p] += c; pg[p] += g; pb[p] += (c && g)
    }
}
END {
    bad = 0
    for (i = 1; i <= ncfg; i++) {
        c = corder[i]
        a = agree[c] / nruns[c]
        best = ""; bn = 0
        for (k in other) {
            split(k, kk, SUBSEP)
            if (kk[1] == c && other[k] > bn) { bn = other[k]; best = kk[2] }
        }
        line[i] = sprintf("%-28s %4d %4d %5.0f%%  %s%s", c, nruns[c], agree[c] + 0, 100 * a,
                          cdesc[c], bn ? "  labeler: " best " (" bn ")" : "")
        ratio[i] = a
        if (a < min) bad++
    }
    printf "# per configuration (agreement = labeler result equals the claimed labels)\n"
    printf "%-28s %4s %4s %6s  %s\n", "config", "runs", "ok", "agree", "kernel ranks [claimed]"
    for (i = 1; i <= ncfg; i++) idx[i] = i
    for (i = 2; i <= ncfg; i++) { # insertion sort, worst agreement first
        v = idx[i]
        for (j = i - 1; j >= 1 && ratio[idx[j]] > ratio[v]; j--) idx[j + 1] = idx[j]
        idx[j + 1] = v
    }
    for (i = 1; i <= ncfg; i++) if (verbose || ratio[idx[i]] < 1) printf "%s\n", line[idx[i]]
    if (!verbose) printf "(%d configurations agree in every run; -v lists them)\n", ncfg - shown(ratio)
    printf "\n# per pattern: runs claimed positive, runs the labeler finds positive, both\n"
    for (p = 1; p <= np; p++) printf "%-24s %6d %6d %6d\n", pid[p], pc[p], pg[p], pb[p]
    printf "%-24s %6d %6d\n", "healthy", claimed_healthy, found_healthy
    printf "\n# per split: runs (claimed healthy)\n"
    n = split("train validation test ood", sn, " ")
    for (i = 1; i <= n; i++) printf "%-12s %6d (%d)\n", sn[i], splits[sn[i]], hsplit[sn[i]]
    printf "\n# totals\n"
    printf "runs ok %d, failed %d, unreadable logs %d\n", total, failed, nerr
    printf "healthy share (claimed) %.1f%%\n", total ? 100 * claimed_healthy / total : 0
    printf "run agreement %.1f%% (%d of %d)\n", total ? 100 * agree_all / total : 0, agree_all, total
    printf "configurations %d, below %.0f%% agreement: %d\n", ncfg, 100 * min, bad
    printf "generation time (sum of run wall seconds) %d s; size %s\n", gen_seconds, size
    exit bad ? 1 : 0
}
function shown(r,    i, s) { s = 0; for (i = 1; i <= ncfg; i++) if (r[i] < 1) s++; return s }
' "$tmp/labels" "$manifest"
