#!/usr/bin/python3
"""fake_llm.py - a local stand-in for LLM servers, for tests (stdlib only).

Usage:
  fake_llm.py --port-file F [--log L] [--script S] [--slow-seconds N]

Listens on 127.0.0.1 on a free port, writes the port number to F (written
to F.tmp, then renamed, so a reader never sees half a number) and serves
until killed (SIGTERM or SIGINT).

The first path segment picks the scenario; the rest of the path picks the
wire format, so one server answers every provider:
  .../chat/completions   OpenAI-compatible (openai, vllm, llamacpp, lmstudio)
  .../api/chat           Ollama
  .../messages           Anthropic (the client posts to {base}/v1/messages)
Point a client at it with e.g.
  OPENAI_BASE_URL=http://127.0.0.1:$PORT/good/v1      (openai:MODEL)
  IOSAGE_LLM_BASE_URL=http://127.0.0.1:$PORT/good/v1  (vllm, llamacpp, lmstudio)
  OLLAMA_HOST=http://127.0.0.1:$PORT/good             (ollama:MODEL)
  ANTHROPIC_BASE_URL=http://127.0.0.1:$PORT/good      (anthropic:MODEL)
A scenario segment may carry a tag after '~' ("retry429~t1"): the tag makes
a separate request counter, so one server can play a sequence many times.
libcurl honours http_proxy/https_proxy/all_proxy: unset them in tests (or
set no_proxy=127.0.0.1), else requests go to the proxy.

Built-in scenarios (a sequence of steps; the last step repeats):
  good          200, assistant text GOOD_TEXT in the wire's reply format
                (Anthropic: split over two text blocks), token usage 11/7
  wrongpattern  200, text is advice JSON naming pattern "file_strategy",
                change "shared_file" (for tests that drop undetected patterns)
  truncated     200, GOOD_TEXT but stopped at max_tokens
  malformed     200, an HTML body that is not JSON
  noshape       200, JSON without the wire's text field
  empty         200, the wire's format with empty text
  error500      500 forever, with the wire's error body
  retry429      429 with Retry-After: 1, then as good
  retrylong     429 with Retry-After: 3600 forever
  badrequest    400 "model not found"
  echokey       401 whose message repeats the key the client sent
  slow          sleeps --slow-seconds (default 3) before answering as good
  huge          200, a 2 MiB text
--script S adds or replaces scenarios from a JSON file:
  {"NAME": [STEP, ...], ...}  STEP fields, all optional:
    "status"   HTTP status (200)
    "headers"  {"Name": "value"} extra response headers
    "delay"    seconds to wait before answering
    "content"  assistant text, wrapped in the wire's reply format
    "content_file"  the same, read from a file (relative to the script)
    "error"    error message, wrapped in the wire's error format
    "body"     the raw body, sent as is (wins over content and error)
    "stop"     "length" marks the reply as cut at max_tokens

--log L appends one JSON line per request, written before the answer:
  {"scenario", "tag", "seq" (0-based per scenario~tag), "method", "path",
   "wire", "headers" {lower-case name: value}, "auth" ("bearer",
   "x-api-key" or null), "auth_match" (true/false when the environment
   variable FAKE_LLM_KEY is set, else null), "body" (parsed JSON or null),
   "body_error" (why it did not parse, or null)}
Credential values (authorization, x-api-key) are logged as "[redacted]":
the log never holds a key.
"""

import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

GOOD_TEXT = '{"ok": true, "note": "fake reply \u00e9 \\"quoted\\""}'

WRONG_PATTERN_TEXT = json.dumps({
    "changes": [{
        "rank": 1,
        "pattern": "file_strategy",
        "change_id": "shared_file",
        "change": "write one shared file with collective MPI-IO",
        "where": {"file": None, "key": None},
        "why": "many files per process",
        "evidence": ["10,000 files"],
        "expected_effect": "fewer metadata operations",
        "when_not_to_apply": "when files are read by other tools one by one",
    }]
})

BUILTIN = {
    "good": [{"content": GOOD_TEXT}],
    "wrongpattern": [{"content": WRONG_PATTERN_TEXT}],
    "truncated": [{"content": GOOD_TEXT, "stop": "length"}],
    "malformed": [{"body": "<html><body>Bad gateway page</body></html>"}],
    "noshape": [{"body": '{"unexpected": 1}'}],
    "empty": [{"content": ""}],
    "error500": [{"status": 500, "error": "fake internal error"}],
    "retry429": [{"status": 429, "headers": {"Retry-After": "1"},
                  "error": "rate limited, retry later"},
                 {"content": GOOD_TEXT}],
    "retrylong": [{"status": 429, "headers": {"Retry-After": "3600"},
                   "error": "quota exhausted"}],
    "badrequest": [{"status": 400, "error": "model not found"}],
    "echokey": [{"status": 401, "echo_key": True}],
    "slow": [{"delay": "slow", "content": GOOD_TEXT}],
    "huge": [{"content": "x" * (2 << 20)}],
}


def wire_of(path):
    """The wire format named by the end of the path, or None."""
    p = path.split("?", 1)[0].rstrip("/")
    if p.endswith("/chat/completions"):
        return "openai"
    if p.endswith("/api/chat"):
        return "ollama"
    if p.endswith("/messages"):
        return "anthropic"
    return None


def reply_body(wire, model, text, stop):
    """The wire's 2xx body carrying the assistant text."""
    cut = stop == "length"
    if wire == "openai":
        return {
            "id": "chatcmpl-fake", "object": "chat.completion",
            "created": 1700000000, "model": model,
            "choices": [{"index": 0,
                         "message": {"role": "assistant", "content": text},
                         "finish_reason": "length" if cut else "stop"}],
            "usage": {"prompt_tokens": 11, "completion_tokens": 7,
                      "total_tokens": 18},
        }
    if wire == "ollama":
        return {
            "model": model, "created_at": "2024-01-01T00:00:00Z",
            "message": {"role": "assistant", "content": text},
            "done": True, "done_reason": "length" if cut else "stop",
            "prompt_eval_count": 11, "eval_count": 7,
        }
    half = len(text) // 2
    blocks = [{"type": "text", "text": text[:half]},
              {"type": "text", "text": text[half:]}] if text else []
    return {
        "id": "msg_fake", "type": "message", "role": "assistant",
        "model": model, "content": blocks,
        "stop_reason": "max_tokens" if cut else "end_turn",
        "usage": {"input_tokens": 11, "output_tokens": 7},
    }


def error_body(wire, message):
    """The wire's error body."""
    if wire == "ollama":
        return {"error": message}
    if wire == "anthropic":
        return {"type": "error",
                "error": {"type": "api_error", "message": message}}
    return {"error": {"message": message, "type": "server_error",
                      "code": None}}


class State:
    """Scenarios, per-key request counters and the log, shared by threads."""

    def __init__(self, scenarios, log_path, slow_seconds, script_dir):
        self.scenarios = scenarios
        self.log_path = log_path
        self.slow_seconds = slow_seconds
        self.script_dir = script_dir
        self.counts = {}
        self.lock = threading.Lock()

    def next_seq(self, key):
        with self.lock:
            n = self.counts.get(key, 0)
            self.counts[key] = n + 1
            return n

    def log(self, entry):
        if not self.log_path:
            return
        line = json.dumps(entry, ensure_ascii=False) + "\n"
        with self.lock:
            with open(self.log_path, "a", encoding="utf-8") as f:
                f.write(line)
                f.flush()


def credential(headers):
    """("bearer" | "x-api-key" | None, the secret or None)."""
    auth = headers.get("Authorization")
    if auth and auth.startswith("Bearer "):
        return "bearer", auth[len("Bearer "):]
    key = headers.get("x-api-key")
    if key:
        return "x-api-key", key
    return None, None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake_llm/1"

    def log_message(self, fmt, *args):  # keep stderr quiet
        pass

    def handle(self):
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout and size-cap tests)

    def finish(self):
        try:
            super().finish()
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self):
        self.send_json(404, {"error": "only POST is served"}, {})

    def do_POST(self):
        state = self.server.state
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        segs = [s for s in self.path.split("?", 1)[0].split("/") if s]
        first = segs[0] if segs else ""
        scenario, _, tag = first.partition("~")
        wire = wire_of(self.path)
        seq = state.next_seq(first)
        body, body_error = None, None
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            body_error = str(e)
        kind, secret = credential(self.headers)
        expect = os.environ.get("FAKE_LLM_KEY")
        headers = {k.lower(): v for k, v in self.headers.items()}
        for k in ("authorization", "x-api-key"):
            if k in headers:
                headers[k] = "[redacted]"
        state.log({
            "scenario": scenario, "tag": tag, "seq": seq,
            "method": "POST", "path": self.path, "wire": wire,
            "headers": headers, "auth": kind,
            "auth_match": (secret == expect) if expect is not None else None,
            "body": body, "body_error": body_error,
        })
        steps = state.scenarios.get(scenario)
        if steps is None or wire is None:
            self.send_json(404, {"error": "unknown scenario or path: "
                                 + self.path}, {})
            return
        step = steps[min(seq, len(steps) - 1)]
        model = body.get("model", "") if isinstance(body, dict) else ""
        self.answer(wire, model, step, secret)

    def answer(self, wire, model, step, secret):
        state = self.server.state
        delay = step.get("delay", 0)
        if delay == "slow":
            delay = state.slow_seconds
        if delay:
            time.sleep(float(delay))
        status = int(step.get("status", 200))
        extra = step.get("headers", {})
        if "body" in step:
            self.send_raw(status, step["body"].encode("utf-8"), extra,
                          "text/html")
        elif step.get("echo_key"):
            msg = "Incorrect API key provided: %s. See your account." % (
                secret or "(none)")
            self.send_json(status, error_body(wire, msg), extra)
        elif "error" in step:
            self.send_json(status, error_body(wire, step["error"]), extra)
        else:
            text = step.get("content", "")
            if "content_file" in step:
                path = os.path.join(state.script_dir, step["content_file"])
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            self.send_json(status, reply_body(wire, model, text,
                                              step.get("stop")), extra)

    def send_json(self, status, obj, extra):
        self.send_raw(status, json.dumps(obj).encode("utf-8"), extra,
                      "application/json")

    def send_raw(self, status, data, extra, ctype):
        try:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            for k, v in extra.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout tests)


def load_script(path):
    with open(path, encoding="utf-8") as f:
        script = json.load(f)
    if not isinstance(script, dict) or not all(
            isinstance(v, list) and v for v in script.values()):
        sys.exit("fake_llm.py: %s: want {\"NAME\": [STEP, ...]}" % path)
    return script


def main():
    ap = argparse.ArgumentParser(description="fake LLM server for tests")
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log")
    ap.add_argument("--script")
    ap.add_argument("--slow-seconds", type=float, default=3.0)
    a = ap.parse_args()
    scenarios = dict(BUILTIN)
    script_dir = "."
    if a.script:
        scenarios.update(load_script(a.script))
        script_dir = os.path.dirname(os.path.abspath(a.script))
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.state = State(scenarios, a.log, a.slow_seconds, script_dir)
    tmp = a.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % server.server_address[1])
    os.rename(tmp, a.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
