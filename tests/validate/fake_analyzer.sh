#!/usr/bin/env bash
# tests/validate/fake_analyzer.sh - stands in for `iosage analyze` in the
# validate tests (IOSAGE_VALIDATE_ANALYZER): called as
#   fake_analyzer.sh analyze --format json [--llm P:M] LOG
# it checks that LOG is a Darshan log that `$FAKE_IOSAGE dump` reads, and
# prints a minimal report (docs/report.md) whose advice.changes are
# $FAKE_CHANGES: "pattern/change_id pattern/change_id ..." in rank order
# (empty: healthy, no change).
set -eu
[ "$1" = analyze ] && [ "$2" = --format ] && [ "$3" = json ] || {
  echo "fake_analyzer: unexpected arguments: $*" >&2; exit 2; }
log="${!#}"
"$FAKE_IOSAGE" dump "$log" > /dev/null || { echo "fake_analyzer: $log unreadable" >&2; exit 3; }
changes="" rank=0
for pc in ${FAKE_CHANGES:-}; do
  rank=$((rank + 1))
  [ $rank -gt 1 ] && changes="$changes,"
  changes="$changes{\"rank\": $rank, \"pattern\": \"${pc%%/*}\", \"change_id\": \"${pc#*/}\"}"
done
printf '{"schema": "iosage-report", "version": 1, "file": "%s",\n' "$log"
printf ' "detection": {"healthy": %s, "patterns": []},\n' "$([ $rank -eq 0 ] && echo true || echo false)"
printf ' "advice": {"source": "offline", "changes": [%s]}}\n' "$changes"
