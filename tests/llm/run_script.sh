#!/usr/bin/env bash
# tests/llm/run_script.sh LLM_PROBE - fake_llm.py used the way an end-to-end
# test uses it: custom scenarios from --script (content_file, a 503 with
# Retry-After then a reply), the port file, the request log; llm_probe as
# the client, over the three wire formats.
set -u
[ -x /usr/bin/python3 ] || { echo "llm_script: /usr/bin/python3 not found: skipped"; exit 77; }
probe=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail=0
check() { # NAME CONDITION-RESULT(0 ok)
  if [ "$2" -ne 0 ]; then echo "FAIL $1" >&2; fail=1; fi
}
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
unset IOSAGE_LLM_BASE_URL IOSAGE_LLM_API_KEY OPENAI_API_KEY ANTHROPIC_API_KEY

key=sk-script-0123456789abcdef
printf '{"changes": [{"rank": 1, "pattern": "access_granularity"}]}' >"$tmp/advice.json"
cat >"$tmp/script.json" <<'JSON'
{"advice": [{"content_file": "advice.json"}],
 "warmup": [{"status": 503, "headers": {"Retry-After": "1"}, "error": "loading model"},
            {"content": "ready"}]}
JSON
echo "What should this job change?" >"$tmp/user.txt"
echo "Answer in JSON." >"$tmp/system.txt"

FAKE_LLM_KEY=$key /usr/bin/python3 "$here/fake_llm.py" --port-file "$tmp/port" \
  --log "$tmp/log.jsonl" --script "$tmp/script.json" &
pid=$!
for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
port=$(cat "$tmp/port")

# 1. openai: the scripted reply comes back byte for byte
OPENAI_API_KEY=$key OPENAI_BASE_URL=http://127.0.0.1:$port/advice/v1 \
  "$probe" openai:gpt-x "$tmp/user.txt" "$tmp/system.txt" >"$tmp/out1" 2>"$tmp/err1"
check "openai exit status $?" $?
cmp -s "$tmp/out1" "$tmp/advice.json"; check "openai reply text" $?
grep -q '^attempts=1 status=200 ' "$tmp/err1"; check "openai summary" $?

# 2. ollama: 503 with Retry-After: 1, then the reply
OLLAMA_HOST=127.0.0.1:$port/warmup "$probe" ollama:llama3.1:8b "$tmp/user.txt" \
  >"$tmp/out2" 2>"$tmp/err2"
check "ollama exit status $?" $?
[ "$(cat "$tmp/out2")" = ready ]; check "ollama reply text" $?
grep -q '^attempts=2 status=200 elapsed=1\.' "$tmp/err2"; check "ollama retry after 1 s" $?

# 3. anthropic at its public host without a key: refused before any request
lines=$(wc -l <"$tmp/log.jsonl")
"$probe" anthropic:claude-x "$tmp/user.txt" >"$tmp/out3" 2>"$tmp/err3"
[ $? -eq 2 ]; check "anthropic without key exit status" $?
grep -q 'llm: anthropic: no API key: set ANTHROPIC_API_KEY' "$tmp/err3"; check "anthropic message" $?
[ "$(wc -l <"$tmp/log.jsonl")" -eq "$lines" ]; check "nothing sent" $?

# 4. the request log: 3 requests, the key never written, bodies as sent
[ "$(wc -l <"$tmp/log.jsonl")" -eq 3 ]; check "3 requests logged" $?
! grep -q "$key" "$tmp/log.jsonl" "$tmp"/err*; check "key in a log" $?
/usr/bin/python3 - "$tmp/log.jsonl" <<'PY'
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
a, w1, w2 = reqs
assert a["path"] == "/advice/v1/chat/completions" and a["auth"] == "bearer"
assert a["auth_match"] is True, a
assert a["body"]["model"] == "gpt-x"
assert a["body"]["messages"][0] == {"role": "system", "content": "Answer in JSON.\n"}
assert a["body"]["messages"][1]["content"] == "What should this job change?\n"
assert w1["path"] == "/warmup/api/chat" and w1["seq"] == 0 and w2["seq"] == 1
assert w1["body"] == w2["body"] and w1["body"]["format"] == "json"
assert w1["auth"] is None and len(w1["body"]["messages"]) == 1
PY
check "request log contents" $?
[ $fail -eq 0 ] && echo "llm_script: 4 checks groups passed"
exit $fail
