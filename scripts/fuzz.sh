#!/usr/bin/env bash
# Run the libFuzzer reader target for N seconds (default 60).
#
#   scripts/fuzz.sh [SECONDS]
#
# Seeds: tests/fuzz/corpus (committed, written by our own writer) plus, when
# ../shared/darshan-logs exists, each shared log read and written again by
# iosage. Crashes land in build-fuzz/crashes/; turn each into a named file in
# tests/fuzz/regressions/ so `make check` replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
jobs=$(nproc 2>/dev/null || echo 2)

CC=clang cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DIOSAGE_FUZZ=ON >/dev/null
cmake --build build-fuzz -j "$jobs" --target fuzz_reader fuzz_mkseeds

mkdir -p build-fuzz/corpus build-fuzz/crashes
cp tests/fuzz/corpus/* build-fuzz/corpus/ 2>/dev/null || true
shared=../shared/darshan-logs
if [ -d "$shared" ]; then
  # small logs only: big seeds slow every execution
  find "$shared" -maxdepth 1 -name '*.darshan' -size -48k -print0 |
    xargs -0 build-fuzz/tests/fuzz_mkseeds build-fuzz/corpus >/dev/null
fi

echo "fuzz: $(ls build-fuzz/corpus | wc -l) seeds, ${secs}s"
ASAN_OPTIONS=detect_leaks=1 build-fuzz/tests/fuzz_reader \
  -max_total_time="$secs" -max_len=65536 -rss_limit_mb=4096 \
  -timeout=10 -print_final_stats=1 \
  -dict=tests/fuzz/darshan.dict -artifact_prefix=build-fuzz/crashes/ \
  build-fuzz/corpus 2>&1 | tee build-fuzz/fuzz.log | grep -E 'Done|stat::|ERROR|SUMMARY|crash' || true
if ls build-fuzz/crashes/* >/dev/null 2>&1; then
  echo "fuzz: crashes found in build-fuzz/crashes/" >&2
  exit 1
fi
