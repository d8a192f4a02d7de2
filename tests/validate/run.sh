#!/usr/bin/env bash
# tests/validate/run.sh IOSAGE BENCH_DIR TRACER - `iosage validate` end to
# end on tiny scenarios, with tests/validate/fake_analyzer.sh as the analyzer
# (so the proposals are fixed): 3 pairs of two changes (the statistics are
# recomputed from the samples it prints), a healthy scenario with and
# without a proposal, a proposal with no configuration, a bad scenario and
# a failing analyzer. Exit 77 (skip) without mpirun, the kernels or the
# tracer.
set -u
iosage=$1 bench=$2 tracer=$3
here=$(cd "$(dirname "$0")" && pwd)
command -v mpirun > /dev/null || { echo "validate_e2e: no mpirun: skipped"; exit 77; }
[ -x "$bench/ior_like" ] || { echo "validate_e2e: no $bench/ior_like: skipped"; exit 77; }
[ -r "$tracer" ] || { echo "validate_e2e: no $tracer: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp IOSAGE_VALIDATE_ANALYZER=$here/fake_analyzer.sh FAKE_IOSAGE=$iosage
fails=0
fail() { echo "validate_e2e: FAIL: $*"; fails=$((fails + 1)); }
v() { "$iosage" validate --bench-dir "$bench" --tracer "$tracer" "$@"; }

# 1. two proposed changes, both measured in 3 pairs, then traced once each
FAKE_CHANGES="throughput_utilization/drop_syncs access_granularity/larger_requests" \
  v --runs 3 --warmup 0 --all-changes --format json --work "$tmp/work" "$here/tiny.scenario" \
  > "$tmp/tiny.json" 2> "$tmp/tiny.err"
rc=$?
[ $rc -eq 0 ] || { fail "tiny: exit $rc"; cat "$tmp/tiny.err"; }
python3 - "$tmp/tiny.json" <<'PY' || fail "tiny: JSON checks"
import json, sys, statistics
doc = json.load(open(sys.argv[1]))
assert doc["schema"] == "iosage-validate" and doc["version"] == 1, doc
assert doc["runs"] == 3 and doc["metric"] == "kernel_seconds"
(s,) = doc["scenarios"]
assert s["name"] == "tiny_fsync" and s["ranks"] == 2 and s["verdict"] == "measured", s
assert [p["change_id"] for p in s["advice"]["proposed"]] == ["drop_syncs", "larger_requests"]
assert isinstance(s["labels"], list)
assert [c["change_id"] for c in s["changes"]] == ["drop_syncs", "larger_requests"]
for c in s["changes"]:
    assert c["measured"] and c["runs"] == 3, c
    assert isinstance(c["labels_after"], list) and c["pattern_gone"] in (True, False)
    assert c["pattern_gone"] == (c["pattern"] not in c["labels_after"])
    for m, wo, wi in ((c, "without", "with"), (c["wall"], "without_wall", "with_wall")):
        a, b = c["samples"][wo], c["samples"][wi]
        assert len(a) == 3 and len(b) == 3 and min(a + b) > 0, (a, b)
        r = sorted(x / y for x, y in zip(a, b))
        close = lambda x, y: abs(x - y) <= 1e-4 * max(1.0, abs(y))
        assert close(m["speedup"], statistics.median(r)), (m, r)
        assert close(m["interval_lo"], r[0]) and close(m["interval_hi"], r[2]), (m, r)
        assert m["interval_ranks"] == [1, 3] and abs(m["coverage"] - 0.75) < 1e-9
        assert m["coverage_reached"] is False
        assert m["significant"] == (r[0] > 1)
        assert close(m["median_without"], statistics.median(a))
        assert close(m["median_with"], statistics.median(b))
# the baseline of every pair is shared by both changes
a = s["changes"][0]["samples"]["without"]
assert a == s["changes"][1]["samples"]["without"]
PY
n=$(grep -c 'tiny_fsync: pair [1-3]/3 baseline' "$tmp/tiny.err")
[ "$n" = 3 ] || fail "tiny: $n baseline pair lines on stderr, want 3"
n=$(grep -c 'tiny_fsync: pair [1-3]/3 drop_syncs' "$tmp/tiny.err")
[ "$n" = 3 ] || fail "tiny: $n drop_syncs lines on stderr, want 3"
grep -q 'warm-up' "$tmp/tiny.err" && fail "tiny: a warm-up round with --warmup 0"
for f in baseline drop_syncs larger_requests; do
  [ -s "$tmp/work/tiny_fsync/$f.darshan" ] || fail "tiny: --work did not keep $f.darshan"
done
# (to a file first: `dump | grep -q` fails under pipefail when grep exits early)
"$iosage" dump "$tmp/work/tiny_fsync/baseline.darshan" > "$tmp/baseline.txt"
grep -q 'POSIX_FSYNCS' "$tmp/baseline.txt" ||
  fail "tiny: the traced log has no POSIX_FSYNCS"

# 2. healthy, nothing proposed: verified, exit 0; no work directory left
FAKE_CHANGES="" v -q "$here/healthy.scenario" > "$tmp/h.txt" 2> "$tmp/h.err"
rc=$?
[ $rc -eq 0 ] || { fail "healthy: exit $rc"; cat "$tmp/h.err"; }
grep -q 'verdict    no change proposed (healthy, as expected)' "$tmp/h.txt" ||
  { fail "healthy: verdict"; cat "$tmp/h.txt"; }
[ -s "$tmp/h.err" ] && fail "healthy: -q printed on stderr"
ls "$tmp" | grep -q iosage-validate- && fail "healthy: temporary work directory left"

# 3. healthy, yet a change proposed: exit 1, no configuration for it
FAKE_CHANGES="throughput_utilization/drop_syncs" v -q --format markdown \
  --json "$tmp/hp.json" "$here/healthy.scenario" > "$tmp/hp.md" 2> "$tmp/hp.err"
rc=$?
[ $rc -eq 1 ] || fail "healthy proposed: exit $rc, want 1"
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["scenarios"][0]
assert s["verdict"] == "healthy_proposed" and s["healthy"] is True, s
assert s["changes"][0]["measured"] is False and "no configuration" in s["changes"][0]["reason"]
' "$tmp/hp.json" || fail "healthy proposed: --json file"
[ -e "$tmp/hp.json.tmp" ] && fail "healthy proposed: --json left a temporary file"
grep -q '^| scenario | ranks | pattern | change | baseline (s)' "$tmp/hp.md" ||
  fail "healthy proposed: no Markdown table header"
grep -q '^| tiny_healthy | 2 | throughput_utilization | drop_syncs | — | — | no configuration' \
  "$tmp/hp.md" || { fail "healthy proposed: row"; cat "$tmp/hp.md"; }

# 4. the top change is one the scenario has no configuration for
FAKE_CHANGES="access_pattern/sequential_access" v -q "$here/tiny.scenario" \
  > "$tmp/nc.txt" 2> "$tmp/nc.err"
rc=$?
[ $rc -eq 1 ] || fail "no config: exit $rc, want 1"
grep -q 'advice proposed sequential_access, scenario has no configuration for it' \
  "$tmp/nc.txt" || { fail "no config: message"; cat "$tmp/nc.txt"; }

# 5. a bad scenario: exit 3, file:line, nothing run
printf 'name x\nkernel ior_like\nranks 2\nfrobnicate\n' > "$tmp/bad.scenario"
v "$tmp/bad.scenario" > "$tmp/bad.out" 2> "$tmp/bad.err"
rc=$?
[ $rc -eq 3 ] || fail "bad scenario: exit $rc, want 3"
grep -q "bad.scenario:4: unknown directive frobnicate" "$tmp/bad.err" ||
  { fail "bad scenario: message"; cat "$tmp/bad.err"; }
[ -s "$tmp/bad.out" ] && fail "bad scenario: output on stdout"

# 6. the analyzer fails: exit 4, one line naming its stderr file
IOSAGE_VALIDATE_ANALYZER=/bin/false v -q "$here/healthy.scenario" \
  > /dev/null 2> "$tmp/af.err"
rc=$?
[ $rc -eq 4 ] || fail "failing analyzer: exit $rc, want 4"
grep -q 'analyze.err: the analyzer /bin/false failed' "$tmp/af.err" ||
  { fail "failing analyzer: message"; cat "$tmp/af.err"; }

# 7. usage errors
v --runs 0 "$here/tiny.scenario" 2> /dev/null; rc=$?
[ $rc -eq 2 ] || fail "--runs 0: exit $rc, want 2"
v --format yaml "$here/tiny.scenario" 2> /dev/null; rc=$?
[ $rc -eq 2 ] || fail "--format yaml: exit $rc, want 2"

[ $fails -eq 0 ] && echo "validate_e2e: all checks passed"
exit $((fails > 0))
