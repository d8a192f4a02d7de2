#!/usr/bin/env bash
# Conformance of `iosage dump` with darshan-parser / darshan-dxt-parser 3.5.0.
#
#   run.sh IOSAGE_BIN SHARED_DIR
#
# SHARED_DIR is shared/darshan-logs (logs plus expected/ reference output).
# For every log with reference output:
#   parser  expected/<log>.parser.txt.gz        vs  TZ=UTC iosage dump --all
#           (and expected/<log>.parser.stderr.txt lines appear on its stderr)
#   dxt     expected/<log>.dxt.txt.gz           vs  iosage dump --dxt
#           expected/<log>.dxt.show-incomplete.txt.gz
#                                               vs  iosage dump --dxt --show-incomplete
#           expected/<log>.dxt.error.txt        =>  iosage dump --dxt exits 3
#   errors  expected/<log>.error.txt (darshan-parser failed): iosage dump --all
#           exits 3 with exactly one stderr line, or exits 0 (and then the
#           reference's partial stdout, if saved, is a prefix of ours); it
#           never crashes.
# Output is compared byte for byte, line by line, except the lines listed in
# ALLOWLIST.md (the ALLOW table below; keep both in step).
#
# Prints "N of M logs match" per kind, each mismatch with its first differing
# line, and exits 1 on any mismatch, 77 when SHARED_DIR is absent.
# JOBS (default 2) sets the parallelism.
set -u

BIN=${1:?usage: run.sh IOSAGE_BIN SHARED_DIR}
SHARED=${2:?usage: run.sh IOSAGE_BIN SHARED_DIR}
JOBS=${JOBS:-2}

if [ ! -d "$SHARED/expected" ]; then
    echo "conformance: $SHARED/expected not found; skipped"
    exit 77
fi
if [ ! -x "$BIN" ]; then
    echo "conformance: $BIN is not an executable" >&2
    exit 1
fi

# Allow-list: "<log file glob>|<kind>|<extended regex of expected lines>".
# Lines matching the regex are dropped from both outputs before comparing.
# Every entry is justified in ALLOWLIST.md.
ALLOW=(
)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/iosage-conf.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
export BIN SHARED WORK
export ALLOW_TEXT
ALLOW_TEXT=$(printf '%s\n' "${ALLOW[@]+"${ALLOW[@]}"}")

# allow_filter LOG KIND FILE: FILE without the allow-listed lines (stdout).
allow_filter() {
    local log=$1 kind=$2 file=$3 re="" glob k r
    while IFS='|' read -r glob k r; do
        [ -n "$glob" ] || continue
        # shellcheck disable=SC2053
        if [[ $log == $glob ]] && [ "$k" = "$kind" ]; then
            re=${re:+$re|}$r
        fi
    done <<<"$ALLOW_TEXT"
    if [ -n "$re" ]; then
        grep -a -v -E "$re" "$file"
    else
        cat "$file"
    fi
}

# show_line FILE N: line N of FILE, visible and cut to 220 characters.
show_line() {
    sed -n "${2}{p;q}" "$1" | cut -c1-220 | cat -v
}

# compare LOG KIND EXPECTED_GZ OUT RC: one result line on stdout.
compare() {
    local log=$1 kind=$2 exp_gz=$3 out=$4 rc=$5 tag
    tag="$WORK/$kind.$(printf '%s' "$log" | cksum | cut -d' ' -f1)"
    gzip -dc "$exp_gz" >"$tag.exp"
    allow_filter "$log" "$kind" "$tag.exp" >"$tag.e"
    allow_filter "$log" "$kind" "$out" >"$tag.g"
    if [ "$rc" -ge 128 ]; then
        echo "FAIL $kind $log: crashed (exit $rc)"
        return
    fi
    local msg
    if msg=$(cmp "$tag.e" "$tag.g" 2>&1); then
        echo "OK $kind $log"
        return
    fi
    local line
    line=$(printf '%s\n' "$msg" | sed -n 's/.*line \([0-9][0-9]*\).*/\1/p' | head -n1)
    [ -n "$line" ] || line=1
    case $msg in
    *EOF*) echo "FAIL $kind $log: outputs differ in length ($msg) at line $line";;
    *) echo "FAIL $kind $log: first difference at line $line";;
    esac
    echo "      expected: $(show_line "$tag.e" "$line")"
    echo "      iosage:   $(show_line "$tag.g" "$line")"
    rm -f "$tag.exp" "$tag.e" "$tag.g"
}

# check_one KIND LOG: run iosage for one case; the report goes to a file of
# its own (parallel jobs must not interleave their lines).
check_one() {
    local id
    id=$(printf '%s' "$2" | cksum | cut -d' ' -f1)
    run_one "$1" "$2" >"$WORK/res.$1.$id" 2>&1
}

run_one() {
    local kind=$1 log=$2 out rc err
    out="$WORK/out.$kind.$(printf '%s' "$log" | cksum | cut -d' ' -f1)"
    err="$out.stderr"
    case $kind in
    parser)
        TZ=UTC "$BIN" dump --all "$SHARED/$log" >"$out" 2>"$err"
        rc=$?
        local experr="$SHARED/expected/$log.parser.stderr.txt" missing
        if [ -f "$experr" ] && [ "$rc" -lt 128 ]; then
            # darshan-parser's own stderr lines must all be there too
            missing=$(grep -vxF -f "$err" "$experr" | head -n1)
            if [ -n "$missing" ]; then
                echo "FAIL parser $log: stderr lacks the reference's line"
                echo "      expected: $missing"
                return
            fi
        fi
        compare "$log" parser "$SHARED/expected/$log.parser.txt.gz" "$out" "$rc"
        ;;
    dxt)
        TZ=UTC "$BIN" dump --dxt "$SHARED/$log" >"$out" 2>"$err"
        rc=$?
        compare "$log" dxt "$SHARED/expected/$log.dxt.txt.gz" "$out" "$rc"
        ;;
    dxt-incomplete)
        TZ=UTC "$BIN" dump --dxt --show-incomplete "$SHARED/$log" >"$out" 2>"$err"
        rc=$?
        compare "$log" dxt-incomplete \
            "$SHARED/expected/$log.dxt.show-incomplete.txt.gz" "$out" "$rc"
        ;;
    dxt-error)
        TZ=UTC "$BIN" dump --dxt "$SHARED/$log" >"$out" 2>"$err"
        rc=$?
        if [ "$rc" -eq 3 ]; then
            echo "OK dxt-error $log"
        else
            echo "FAIL dxt-error $log: exit $rc, expected 3 (darshan-dxt-parser fails on it)"
        fi
        ;;
    error)
        TZ=UTC "$BIN" dump --all "$SHARED/$log" >"$out" 2>"$err"
        rc=$?
        local nerr
        nerr=$(wc -l <"$err")
        if [ "$rc" -eq 3 ] && [ "$nerr" -eq 1 ]; then
            echo "OK error $log (exit 3: $(cut -c1-160 "$err"))"
        elif [ "$rc" -eq 0 ]; then
            local part="$SHARED/expected/$log.parser.partial-stdout.txt.gz"
            if [ -f "$part" ]; then
                gzip -dc "$part" >"$out.part"
                local n
                n=$(wc -c <"$out.part")
                if cmp -s -n "$n" "$out.part" "$out"; then
                    echo "OK error $log (read; reference output is a prefix)"
                else
                    echo "FAIL error $log: exit 0 but the reference's partial output is not a prefix of ours"
                    echo "      $(cmp -n "$n" "$out.part" "$out" 2>&1 | head -n1)"
                fi
            else
                echo "OK error $log (read)"
            fi
        else
            echo "FAIL error $log: exit $rc with $nerr stderr lines (want exit 3 with one line, or 0)"
            head -n3 "$err" | sed 's/^/      /'
        fi
        ;;
    esac
    rm -f "$out" "$err" "$out.part"
}
export -f allow_filter show_line compare check_one run_one

# The cases, one per line: "<kind> <log>".
cases() {
    local f log
    for f in "$SHARED"/expected/*.parser.txt.gz; do
        [ -e "$f" ] || continue
        log=$(basename "$f" .parser.txt.gz)
        [ -f "$SHARED/$log" ] && echo "parser $log"
    done
    for f in "$SHARED"/expected/*.dxt.txt.gz; do
        [ -e "$f" ] || continue
        log=$(basename "$f" .dxt.txt.gz)
        [ -f "$SHARED/$log" ] && echo "dxt $log"
    done
    for f in "$SHARED"/expected/*.dxt.show-incomplete.txt.gz; do
        [ -e "$f" ] || continue
        log=$(basename "$f" .dxt.show-incomplete.txt.gz)
        [ -f "$SHARED/$log" ] && echo "dxt-incomplete $log"
    done
    for f in "$SHARED"/expected/*.dxt.error.txt; do
        [ -e "$f" ] || continue
        log=$(basename "$f" .dxt.error.txt)
        [ -f "$SHARED/$log" ] && echo "dxt-error $log"
    done
    for f in "$SHARED"/expected/*.error.txt; do
        [ -e "$f" ] || continue
        case $f in *.dxt.error.txt) continue;; esac
        log=$(basename "$f" .error.txt)
        [ -f "$SHARED/$log" ] && echo "error $log"
    done
}

start=$(date +%s)
# Largest logs first so that the parallel jobs finish together.
cases | while read -r kind log; do
    printf '%s %s %s\n' "$(stat -c %s "$SHARED/$log")" "$kind" "$log"
done | sort -rn | cut -d' ' -f2- |
    xargs -P "$JOBS" -L 1 bash -c 'check_one "$0" "$1"'
end=$(date +%s)
: >"$WORK/results"
for kind in parser dxt dxt-incomplete dxt-error error; do
    for f in "$WORK"/res."$kind".*; do
        [ -e "$f" ] && printf '%s\t%s\n' "$(head -n1 "$f" | cut -d' ' -f3)" "$f"
    done | sort | cut -f2 | while read -r f; do cat "$f"; done >>"$WORK/results"
done

status=0
summary() {
    local label=$1; shift
    local total=0 ok=0 k
    for k in "$@"; do
        total=$((total + $(grep -c "^[A-Z]* $k " "$WORK/results")))
        ok=$((ok + $(grep -c "^OK $k " "$WORK/results")))
    done
    echo "$label: $ok of $total logs match"
    [ "$ok" -eq "$total" ] || status=1
}
summary "parser (dump --all)" parser
summary "dxt (dump --dxt)" dxt
summary "dxt (dump --dxt --show-incomplete)" dxt-incomplete
summary "dxt (dump --dxt exits 3 where darshan-dxt-parser fails)" dxt-error
summary "logs darshan-parser cannot read (exit 3 + one line, or read)" error
if grep -q '^FAIL' "$WORK/results"; then
    echo
    echo "mismatches:"
    awk '/^FAIL/ {show = 1} /^OK/ {show = 0} show' "$WORK/results"
fi
echo "conformance: $((end - start)) s"
exit $status
