#!/usr/bin/env bash
# Run one libFuzzer target for N seconds (default 60).
#
#   scripts/fuzz.sh [SECONDS]
#   FUZZ_TARGET=config make fuzz       (or FUZZ_TARGET=config scripts/fuzz.sh)
#
# FUZZ_TARGET (default reader) picks the target:
#   reader  tests/fuzz/fuzz_reader.c  a Darshan log (the reader, dump, write)
#   config  tests/fuzz/fuzz_config.c  a --config file (classify, settings)
#   reply   tests/fuzz/fuzz_reply.c   an LLM's reply applied to a report
#   report  tests/fuzz/fuzz_report.c  any JSON object rendered in 4 formats
#
# Seeds for the reader: tests/fuzz/corpus (committed, written by our own
# writer) plus, when ../shared/darshan-logs exists, each shared log read and
# written again by iosage. Crashes land in build-fuzz/crashes/; turn each into
# a named file in tests/fuzz/regressions/ so `make check` replays it.
# Seeds for the others: tests/fuzz/corpus-<target>; crashes land in
# build-fuzz/crashes-<target>/ (fix the bug, then add the input to
# tests/fuzz/corpus-<target>/ so ctest fuzz_replay_<target> replays it).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
target=${FUZZ_TARGET:-reader}
jobs=$(nproc 2>/dev/null || echo 2)

case "$target" in
  reader|config|reply|report) ;;
  *) echo "fuzz: unknown FUZZ_TARGET '$target' (reader, config, reply, report)" >&2
     exit 2 ;;
esac

CC=clang cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DIOSAGE_FUZZ=ON >/dev/null

if [ "$target" = reader ]; then
  cmake --build build-fuzz -j "$jobs" --target fuzz_reader fuzz_mkseeds
  corpus=build-fuzz/corpus
  crashes=build-fuzz/crashes
  mkdir -p "$corpus" "$crashes"
  cp tests/fuzz/corpus/* "$corpus"/ 2>/dev/null || true
  shared=../shared/darshan-logs
  if [ -d "$shared" ]; then
    # small logs only: big seeds slow every execution
    find "$shared" -maxdepth 1 -name '*.darshan' -size -48k -print0 |
      xargs -0 build-fuzz/tests/fuzz_mkseeds "$corpus" >/dev/null
  fi
  extra=(-dict=tests/fuzz/darshan.dict)
else
  cmake --build build-fuzz -j "$jobs" --target "fuzz_$target"
  corpus=build-fuzz/corpus-$target
  crashes=build-fuzz/crashes-$target
  mkdir -p "$corpus" "$crashes"
  cp tests/fuzz/corpus-"$target"/* "$corpus"/ 2>/dev/null || true
  extra=()
fi

log=build-fuzz/fuzz-$target.log
[ "$target" = reader ] && log=build-fuzz/fuzz.log
echo "fuzz $target: $(ls "$corpus" | wc -l) seeds, ${secs}s"
ASAN_OPTIONS=detect_leaks=1 build-fuzz/tests/fuzz_"$target" \
  -max_total_time="$secs" -max_len=65536 -rss_limit_mb=4096 \
  -timeout=10 -print_final_stats=1 "${extra[@]}" \
  -artifact_prefix="$crashes"/ \
  "$corpus" 2>&1 | tee "$log" | grep -E 'Done|stat::|ERROR|SUMMARY|crash' || true
if ls "$crashes"/* >/dev/null 2>&1; then
  echo "fuzz: crashes found in $crashes/" >&2
  exit 1
fi
