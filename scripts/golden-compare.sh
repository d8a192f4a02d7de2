#!/bin/bash
# golden-compare.sh - run every output command of one iosage binary on a set
# of logs into a directory, or compare two such directories.
#
#   scripts/golden-compare.sh run IOSAGE OUTDIR LOGDIR...
#       dump --all, dump --dxt and analyze (text, md, html, json) per log;
#       detect, label --verbose, rules and batch (csv, jsonl) over all of
#       them at once. stdout, stderr and the exit status of each run are
#       kept. Logs are named by their path as given, so run both binaries
#       from the same directory with the same LOGDIR arguments.
#   scripts/golden-compare.sh diff OLD NEW
#       list the files that differ (exit 1 when any does).
#
# A refactor that must not change outputs runs "run" with the binary built
# before it and with the one built after, then "diff". TZ is set to UTC and
# colour is off, so the outputs do not depend on the terminal or the zone.
# JOBS (default 2) runs that many logs at once. STRIDE=N (default 1) runs
# the per-log commands (dump, analyze) on every Nth log of data/bench-runs
# only (all the others still), for a quick
# pass on a loaded machine; the many-log commands always see every log.
set -u
export TZ=UTC NO_COLOR=1 LC_ALL=C

usage() {
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}

# One command on one log: out/<name>.<tag>.{out,err,rc}
run_one() {
    local bin=$1 out=$2 tag=$3 log=$4
    shift 4
    local name
    name=$(printf '%s' "$log" | tr '/' '_')
    "$bin" "$@" "$log" >"$out/$name.$tag.out" 2>"$out/$name.$tag.err"
    echo $? >"$out/$name.$tag.rc"
}
export -f run_one

per_log() {
    local bin=$1 out=$2 log=$3
    run_one "$bin" "$out" dump-all "$log" dump --all
    run_one "$bin" "$out" dump-dxt "$log" dump --dxt
    local f
    for f in text md html json; do
        run_one "$bin" "$out" "analyze-$f" "$log" analyze -M --format "$f"
    done
}
export -f per_log

run_all() {
    local bin=$1 out=$2
    shift 2
    [ -x "$bin" ] || { echo "golden-compare: $bin: not an executable" >&2; exit 2; }
    rm -rf "$out"
    mkdir -p "$out/per-log"
    local list=$out/logs.txt
    find "$@" -type f \( -name '*.darshan' -o -name '*.darshan.gz' \
        -o -name '*.darshan_partial' \) | LC_ALL=C sort >"$list"
    echo "golden-compare: $(wc -l <"$list") logs" >&2
    awk -v s="${STRIDE:-1}" '!/bench-runs/ || (n++ % s) == 0' "$list" >"$out/per-log.txt"
    xargs -a "$out/per-log.txt" -d '\n' -P "${JOBS:-2}" -I{} \
        bash -c 'per_log "$0" "$1" "$2"' "$bin" "$out/per-log" {}
    # the commands that take many logs at once
    xargs -a "$list" -d '\n' "$bin" detect >"$out/detect.out" 2>"$out/detect.err"
    echo $? >"$out/detect.rc"
    xargs -a "$list" -d '\n' "$bin" label --header --verbose \
        >"$out/label.out" 2>"$out/label.err"
    echo $? >"$out/label.rc"
    xargs -a "$list" -d '\n' "$bin" rules >"$out/rules.out" 2>"$out/rules.err"
    echo $? >"$out/rules.rc"
    "$bin" batch -q -j 2 --format csv - <"$list" >"$out/batch.csv" 2>"$out/batch-csv.err"
    echo $? >"$out/batch-csv.rc"
    "$bin" batch -q -j 2 --format jsonl - <"$list" >"$out/batch.jsonl" 2>"$out/batch-jsonl.err"
    echo $? >"$out/batch-jsonl.rc"
}

diff_dirs() {
    local a=$1 b=$2
    if diff -rq "$a" "$b"; then
        echo "golden-compare: identical ($(find "$a" -type f | wc -l) files)"
        return 0
    fi
    return 1
}

case "${1:-}" in
run) [ $# -ge 4 ] || usage; shift; run_all "$@" ;;
diff) [ $# -eq 3 ] || usage; diff_dirs "$2" "$3" ;;
*) usage ;;
esac
