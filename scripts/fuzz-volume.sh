#!/usr/bin/env bash
# scripts/fuzz-volume.sh SECONDS [TARGET...] - fuzzing at volume (issue 17
# point 7): each target (default: reader_fast reader config reply report)
# runs SECONDS seconds under libFuzzer, one after the other; its corpus is
# then minimized (-merge=1) into the committed one (tests/fuzz/corpus for
# the two reader targets, tests/fuzz/corpus-<target> for the others), and a
# row is appended to the table of tests/fuzz/README.md: date, target,
# executions of this run, running total over every run recorded there,
# executions a second, crashes. Seeds are the committed corpora, which our
# own writer and fuzzers made (FUZZ_SHARED_SEEDS=1 adds the shared logs and
# then merges nothing back). FUZZ_PROCS=N runs N processes of each target
# side by side (executions and rates are their sums). A crash is left in
# build-fuzz-vol/crashes-<target>/ and the script exits 1: turn it into a
# named file of tests/fuzz/regressions/ (replayed by ctest fuzz_replay) and
# fix it.
#
# Builds (clang, Release): build-fuzz-vol with AddressSanitizer and UBSan for
# every target but reader_fast, build-fuzz-fast with AddressSanitizer only
# for reader_fast (reading one way is all it does; UBSan halves its speed).
# Inputs are at most 64 KiB; a region may inflate to at most 128 KiB for
# both reader targets and 1 MiB for the others (IOSAGE_MAX_REGION_BYTES):
# inflating mutated regions up to the default 16 MiB floor took most of the
# time (reader: 1 MiB -> 128 KiB measured 1.5x the executions a second,
# alternating on a loaded machine; 128 KiB holds a thousand records).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:?usage: scripts/fuzz-volume.sh SECONDS [TARGET...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(reader_fast reader config reply report)
readme=tests/fuzz/README.md
nice=${FUZZ_NICE:-10}

build() { # DIR SANITIZERS TARGET...
  local dir=$1 san=$2; shift 2
  CC=clang cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DIOSAGE_FUZZ=ON -DIOSAGE_FUZZ_SANITIZERS="$san" >/dev/null
  nice -n "$nice" cmake --build "$dir" -j 2 --target "$@" >/dev/null
}

status=0
for t in "${targets[@]}"; do
  case $t in
    reader_fast) dir=build-fuzz-fast; san=address; committed=tests/fuzz/corpus; cap=131072 ;;
    reader) dir=build-fuzz-vol; san=address,undefined; committed=tests/fuzz/corpus; cap=131072 ;;
    config|reply|report) dir=build-fuzz-vol; san=address,undefined; committed=tests/fuzz/corpus-$t; cap=1048576 ;;
    *) echo "fuzz-volume: unknown target $t" >&2; exit 2 ;;
  esac
  build "$dir" "$san" "fuzz_$t" fuzz_mkseeds
  # FUZZ_PROCS=N runs N fuzzer processes side by side (one per core), each
  # in its own work directory seeded from the committed corpus, with its own
  # log; their executions are added up and their corpora merged together.
  procs=${FUZZ_PROCS:-1}
  crashes=$dir/crashes-$t
  works=()
  for ((p = 0; p < procs; p++)); do
    work=$dir/work-$t-$p
    rm -rf "$work" && mkdir -p "$work"
    cp "$committed"/* "$work"/ 2>/dev/null || true
    works+=("$work")
  done
  mkdir -p "$crashes" "$committed"
  extra=()
  if [ "$t" = reader ] || [ "$t" = reader_fast ]; then
    extra=(-dict=tests/fuzz/darshan.dict)
  fi
  # The reader target: libFuzzer's entropic schedule spent 67% of the time
  # in its own feature bookkeeping (InputCorpus::UpdateFeatureFrequency:
  # every input touches thousands of the 32k features), so the plain
  # schedule runs 3-4x the executions (545-635 a second after start-up
  # against 145-195, alternating, same machine and load, 2026-12-04). The
  # reply target gained nothing from it (same rate both ways): kept there.
  if [ "$t" = reader ]; then extra+=(-entropic=0); fi
  # FUZZ_SHARED_SEEDS=1: also seed from ../shared/darshan-logs (rewritten by
  # iosage). What grows from them derives from logs the project must not
  # copy, so such a run only counts: its corpus is not merged back.
  merge=1
  if [ "${FUZZ_SHARED_SEEDS:-0}" = 1 ] && [ "$t" != config ] &&
     [ "$t" != reply ] && [ "$t" != report ] && [ -d ../shared/darshan-logs ]; then
    for work in "${works[@]}"; do
      find ../shared/darshan-logs -maxdepth 1 -name '*.darshan' -size -48k -print0 |
        xargs -0 "$dir"/tests/fuzz_mkseeds "$work" >/dev/null
    done
    merge=0
  fi
  before=$(ls "$crashes" | wc -l)
  logs=()
  for ((p = 0; p < procs; p++)); do
    log=$dir/fuzz-$t-$p.log
    logs+=("$log")
    IOSAGE_MAX_REGION_BYTES=$cap ASAN_OPTIONS=detect_leaks=1 \
      nice -n "$nice" "$dir/tests/fuzz_$t" -max_total_time="$secs" -max_len=65536 \
      -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -seed=$((RANDOM * 32768 + RANDOM + p)) \
      "${extra[@]}" -artifact_prefix="$crashes"/ "${works[$p]}" >"$log" 2>&1 &
  done
  wait || true
  execs=$(awk '/stat::number_of_executed_units/ { s += $2 } END { print s + 0 }' "${logs[@]}")
  rate=$(awk '/stat::average_exec_per_sec/ { s += $2 } END { print s + 0 }' "${logs[@]}")
  found=$(( $(ls "$crashes" | wc -l) - before ))
  # minimize: the committed corpus and this run's into a fresh directory
  # (inputs of at most 16 KiB, so that the committed corpora stay small)
  merged=$dir/merged-$t
  rm -rf "$merged" && mkdir -p "$merged"
  if [ "$merge" = 1 ]; then
    IOSAGE_MAX_REGION_BYTES=$cap "$dir/tests/fuzz_$t" -merge=1 -max_len=16384 \
      -timeout=10 -rss_limit_mb=2048 "$merged" "$committed" "${works[@]}" >"$dir/merge-$t.log" 2>&1 || true
  fi
  if [ "$(ls "$merged" | wc -l)" -gt 0 ]; then
    rm -f "$committed"/*
    cp "$merged"/* "$committed"/
  fi
  prev=$(awk -F'|' -v t="$t" '$3 ~ "^ *" t " *$" { gsub(/[ ,]/, "", $4); s += $4 } END { print s + 0 }' "$readme")
  total=$((prev + ${execs:-0}))
  seeds="committed corpus, merged back"
  [ "$merge" = 1 ] || seeds="shared logs too, corpus not kept"
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$(date -u +%Y-%m-%d)" "$t" \
    "${execs:-0}" "$total" "${rate:-0}" "$found" "$seeds" >>"$readme"
  echo "fuzz-volume: $t: ${execs:-0} executions (${rate:-0}/s), running total $total, $found crash(es), corpus $(ls "$committed" | wc -l) files"
  [ "$found" = 0 ] || status=1
done
exit $status
