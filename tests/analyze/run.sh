#!/usr/bin/env bash
# tests/analyze/run.sh IOSAGE SOURCE_DIR - `iosage analyze` end to end.
#
# Logs: two runs of the project's own dataset (data/bench-runs): agic_posix_4
# (4 ranks, 4 KiB POSIX requests to one shared file: access_granularity and
# interface_choice) and h_ior_coll_4 (collective 1 MiB MPI-IO: healthy).
# The LLM is tests/llm/fake_llm.py on a local port.
set -euo pipefail
iosage=$1
src=$2
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
bad=$src/data/bench-runs/logs/agic_posix_4-r0.darshan
good=$src/data/bench-runs/logs/h_ior_coll_4-r0.darshan
[ -f "$bad" ] && [ -f "$good" ] || { echo "analyze: dataset logs missing"; exit 77; }
tmp=$(mktemp -d)
server=
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
# jget FILE EXPR: evaluate a Python expression over the JSON document d
jget() { "$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
expect() { # expect NAME ACTUAL WANTED
  if [ "$2" == "$3" ]; then ok "$1 = $3"; else fail "$1: got '$2', want '$3'"; fi
}

# --- offline: the pattern job -------------------------------------------------
cp "$here/../../examples/demo/romio-hints" "$tmp/romio-hints"
cp "$here/../../examples/demo/job.sh" "$tmp/job.sh"
"$iosage" analyze --format json --config "$tmp/romio-hints" --config "$tmp/job.sh" \
  "$bad" >"$tmp/bad.json"
expect "findings" "$(jget "$tmp/bad.json" 'sorted(f["pattern"] for f in d["findings"])')" \
  "['access_granularity', 'interface_choice']"
expect "advice source" "$(jget "$tmp/bad.json" 'd["advice"]["source"]')" offline
expect "changes only for detected patterns" \
  "$(jget "$tmp/bad.json" 'all(c["pattern"] in ("access_granularity","interface_choice") for c in d["advice"]["changes"]) and len(d["advice"]["changes"]) >= 2')" True
expect "ranks 1.." "$(jget "$tmp/bad.json" '[c["rank"] for c in d["advice"]["changes"]]')" "[1, 2]"
expect "configs read" "$(jget "$tmp/bad.json" '[c["kind"] for c in d["configs"]]')" \
  "['mpiio_hints', 'job_script']"
expect "hint named" \
  "$(jget "$tmp/bad.json" 'any((c["where"] or {}).get("key") == "romio_cb_write" for c in d["advice"]["changes"])')" True
expect "job nprocs" "$(jget "$tmp/bad.json" 'd["job"]["nprocs"]')" 4
expect "schema" "$(jget "$tmp/bad.json" 'd["schema"] + "/" + str(d["version"])')" "iosage-report/1"

# --- offline: the healthy job -------------------------------------------------
"$iosage" analyze --format json "$good" >"$tmp/good.json"
expect "healthy" "$(jget "$tmp/good.json" 'd["detection"]["healthy"]')" True
expect "healthy: no findings, no change" \
  "$(jget "$tmp/good.json" 'len(d["findings"]) + len(d["advice"]["changes"])')" 0

# --- the views ------------------------------------------------------------------
"$iosage" analyze "$bad" >"$tmp/bad.txt"
grep -q "interface" "$tmp/bad.txt" && ok "text names the pattern" || fail "text view"
grep -q $'\x1b' "$tmp/bad.txt" && fail "colour without a terminal" || ok "no colour in a pipe"
# (to a file: grep -q on a pipe can exit before the last write, and the
# writer's SIGPIPE then fails the pipeline under pipefail)
"$iosage" analyze -C "$bad" >"$tmp/bad-color.txt"
grep -q $'\x1b' "$tmp/bad-color.txt" && ok "-C colours" || fail "-C does not colour"
"$iosage" analyze --format md -o "$tmp/bad.md" "$bad"
grep -q "^#" "$tmp/bad.md" && ok "markdown written with -o" || fail "markdown view"
"$iosage" analyze --format html -o "$tmp/bad.html" "$bad"
n=$(grep -o "<svg" "$tmp/bad.html" | wc -l)
[ "$n" -ge 3 ] && ok "html has $n charts" || fail "html charts: $n"
grep -qi "<script" "$tmp/bad.html" && fail "html has a script" || ok "html without scripts"
"$iosage" analyze "$good" >"$tmp/good.txt"
grep -qi "no change" "$tmp/good.txt" && ok "healthy text says no change" \
  || fail "healthy text view"

# --- bad input: one line, exit 3, no output file ------------------------------
printf 'not a darshan log\n' >"$tmp/junk.darshan"
set +e
"$iosage" analyze -o "$tmp/out.html" --format html "$tmp/junk.darshan" 2>"$tmp/err"
rc=$?
set -e
expect "exit for a bad log" "$rc" 3
expect "one error line" "$(wc -l <"$tmp/err")" 1
grep -q "junk.darshan" "$tmp/err" && ok "error names the file" || fail "error line: $(cat "$tmp/err")"
[ -e "$tmp/out.html" ] && fail "partial output left" || ok "no output file"
set +e
"$iosage" analyze --config "$tmp/missing.txt" "$bad" >/dev/null 2>"$tmp/err"; rc=$?
"$iosage" analyze --format pdf "$bad" >/dev/null 2>&1; rc2=$?
"$iosage" analyze -o "$tmp/no/such/dir/r.txt" "$bad" 2>/dev/null; rc3=$?
"$iosage" analyze --fail-on "$bad" >/dev/null 2>&1; rc4=$?
"$iosage" analyze --fail-on "$good" >/dev/null 2>&1; rc5=$?
set -e
expect "missing config" "$rc" 3
grep -q "missing.txt" "$tmp/err" && ok "config error names the file" || fail "config error: $(cat "$tmp/err")"
expect "bad format" "$rc2" 2
[ "$rc3" -ne 0 ] && ok "unwritable -o fails ($rc3)" || fail "unwritable -o succeeded"
expect "--fail-on with patterns" "$rc4" 1
expect "--fail-on healthy" "$rc5" 0

# --- --save-prompt --------------------------------------------------------------
"$iosage" analyze --save-prompt "$tmp/prompt.txt" --config "$tmp/romio-hints" "$bad" >/dev/null
grep -q "UNTRUSTED DATA" "$tmp/prompt.txt" && ok "prompt marks config text" || fail "prompt markers"
grep -q "romio_cb_write disable" "$tmp/prompt.txt" && ok "prompt holds the config" || fail "prompt config"
grep -q "file_strategy" "$tmp/prompt.txt" && grep -q "metadata_intensity" "$tmp/prompt.txt" \
  && fail "prompt names undetected patterns" || ok "prompt names only detected patterns"

# --- the LLM step against the fake server --------------------------------------
"$py" "$here/../llm/fake_llm.py" --port-file "$tmp/port" --log "$tmp/requests.jsonl" \
  --script "$here/llm-script.json" --slow-seconds 4 &
server=$!
for _ in $(seq 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
port=$(cat "$tmp/port")
base=http://127.0.0.1:$port
# libcurl honours proxy variables: keep the requests to 127.0.0.1 local
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
llm() { # llm SCENARIO OUT [args...]
  local sc=$1 out=$2; shift 2
  IOSAGE_LLM_BASE_URL=$base/$sc/v1 OPENAI_BASE_URL=$base/$sc/v1 OPENAI_API_KEY=sk-test-SECRET \
    IOSAGE_LLM_TIMEOUT=2 IOSAGE_LLM_MAX_ATTEMPTS=2 \
    "$iosage" analyze --format json --llm "$@" --config "$tmp/romio-hints" "$bad" >"$out" 2>"$out.err"
}
llm advice "$tmp/llm.json" openai:test-model
expect "llm source" "$(jget "$tmp/llm.json" 'd["advice"]["source"]')" llm
# the LLM ranks collective_io first; the shipped savings models rank the
# changes by expected saving after the LLM step (docs/savings.md), and on
# this log (4 KiB POSIX writes into each rank's own block of a shared file)
# collective I/O is predicted to cost more time than larger requests
expect "llm changes kept, ranked by expected saving" \
  "$(jget "$tmp/llm.json" '[c["change_id"] for c in d["advice"]["changes"]]')" \
  "['larger_requests', 'collective_io']"
expect "llm changes carry expected savings, best first" \
  "$(jget "$tmp/llm.json" '(lambda s: s == sorted(s, reverse=True) and len(s) == 2)([c["expected_saving"]["io_time_share"] for c in d["advice"]["changes"]])')" \
  "True"
expect "undetected pattern dropped" "$(jget "$tmp/llm.json" 'd["advice"]["dropped"]')" 1
expect "llm model" "$(jget "$tmp/llm.json" 'd["advice"]["model"]')" test-model
req=$(grep -c '"scenario": "advice"' "$tmp/requests.jsonl" || true)
expect "one request" "$req" 1
"$py" - "$tmp/requests.jsonl" <<'PYEOF' && ok "request body: model, config text, detected patterns" || fail "request body"
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
r = [q for q in reqs if q["scenario"] == "advice"][0]
b = r["body"]
assert b["model"] == "test-model", b["model"]
text = " ".join(m["content"] for m in b["messages"])
assert "romio_cb_write disable" in text
assert "interface_choice" in text and "access_granularity" in text
assert r["auth"] == "bearer"
assert "sk-test-SECRET" not in open(sys.argv[1]).read()
PYEOF
grep -q "sk-test-SECRET" "$tmp/llm.json" "$tmp/llm.json.err" && fail "key leaked" || ok "key not printed"

llm advice429 "$tmp/llm429.json" openai:test-model
expect "429 then 200" "$(jget "$tmp/llm429.json" 'd["advice"]["source"]')" llm

llm malformed "$tmp/llmbad.json" vllm:m
expect "malformed: offline" "$(jget "$tmp/llmbad.json" 'd["advice"]["source"]')" offline
expect "malformed: fallback said" "$(jget "$tmp/llmbad.json" 'd["advice"]["fallback"] is not None')" True
grep -q "offline advice used" "$tmp/llmbad.json.err" && ok "fallback on stderr" || fail "no fallback note"

llm wrongpattern "$tmp/llmwrong.json" llamacpp:m
expect "wrong pattern only: offline" "$(jget "$tmp/llmwrong.json" 'd["advice"]["source"]')" offline

start=$(date +%s)
llm slow "$tmp/llmslow.json" ollama:m
took=$(( $(date +%s) - start ))
expect "slow: offline" "$(jget "$tmp/llmslow.json" 'd["advice"]["source"]')" offline
[ "$took" -le 15 ] && ok "slow server bounded ($took s)" || fail "slow server took $took s"

before=$(wc -l <"$tmp/requests.jsonl")
IOSAGE_LLM_BASE_URL=$base/advice/v1 "$iosage" analyze --format json --llm vllm:m "$good" >"$tmp/llmgood.json" 2>/dev/null
after=$(wc -l <"$tmp/requests.jsonl")
expect "healthy: no LLM request" "$((after - before))" 0
expect "healthy: no change" "$(jget "$tmp/llmgood.json" 'len(d["advice"]["changes"])')" 0

echo "analyze: $fails failure(s)"
[ "$fails" -eq 0 ]
