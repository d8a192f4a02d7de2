#!/usr/bin/env bash
# tests/report/schema_generated.sh IOSAGE WRITER SOURCE_DIR - the documents
# iosage itself writes validate against docs/report-schema.json, not only the
# hand-made fixtures: `analyze --format json` on our demo log (with and
# without a config file), on bench-runs logs with different patterns and a
# healthy one, on an LLM run that fell back (no key), and on the public logs
# of ../shared when present.
set -u
iosage=$1
writer=$2
src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
docs=$tmp/docs
mkdir -p "$docs"
export TZ=UTC

"$writer" "$tmp/demo.darshan" || { echo "schema_generated: writer failed" >&2; exit 1; }
printf 'cb_buffer_size 1048576\nromio_cb_write enable\n' >"$tmp/romio-hints"

# analyze NAME ARGS...: one document into $docs/NAME.json (exit 0 or 1 only)
analyze() {
    local name=$1
    shift
    env -u OPENAI_API_KEY -u IOSAGE_LLM_API_KEY "$iosage" analyze -q --format json "$@" \
        >"$docs/$name.json"
    local rc=$?
    if [ $rc -ne 0 ]; then
        echo "schema_generated: analyze $* exited $rc" >&2
        exit 1
    fi
}

analyze demo "$tmp/demo.darshan"
analyze demo-config --config "$tmp/romio-hints" "$tmp/demo.darshan"
runs=$src/data/bench-runs/logs
for run in ag_fpp_64b fs_md agic_indep mi_md pe_ tu_ ic_ h_ior_coll; do
    log=$(ls "$runs"/"$run"*.darshan 2>/dev/null | head -1)
    [ -n "$log" ] && analyze "run-$run" "$log"
done
one=$(ls "$runs"/agic_indep*.darshan 2>/dev/null | head -1)
[ -n "$one" ] && analyze llm-fallback --llm openai:none --config "$tmp/romio-hints" "$one"
shared=$src/../shared/darshan-logs
if [ -d "$shared" ]; then
    for log in $(ls "$shared"/*.darshan | head -8); do
        analyze "shared-$(basename "$log" .darshan)" "$log"
    done
else
    echo "schema_generated: $shared absent: public logs left out"
fi

# the fallback really is recorded in the document checked
if [ -n "$one" ] && ! grep -q '"fallback": "LLM openai:none not used' "$docs/llm-fallback.json"; then
    echo "schema_generated: the LLM fallback document has no advice.fallback" >&2
    exit 1
fi
exec /usr/bin/python3 "$src/tests/report/check_schema.py" "$src/docs/report-schema.json" "$docs"
