#!/usr/bin/env bash
# tsan.sh SOURCE_DIR IOSAGE WORKDIR - the tracer under ThreadSanitizer (issue 17
# point 3): builds libiosage-trace.so and tests/wl_fork.c with
# -fsanitize=thread in WORKDIR, preloads both libtsan and the tracer (libtsan
# first: the tracer's constructor must not run before TSan is up), and runs
# 8 threads writing (three times) and a fork: no ThreadSanitizer report, and
# the threads' log counts every write. Skipped (77) when the compiler or
# libtsan is missing. About 10 s, most of it the build.
set -u
src=$1 iosage=$2 work=$3
rm -rf "$work" && mkdir -p "$work/run"
tsan=$(cc -print-file-name=libtsan.so 2>/dev/null)
[ -n "$tsan" ] && [ -e "$tsan" ] || { echo "no libtsan: skipped"; exit 77; }
gen=""; command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
cmake -S "$src" -B "$work/build" $gen -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_FLAGS="-fsanitize=thread -g" -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread \
  -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread >"$work/cmake.log" 2>&1 \
  || { echo "cannot configure a TSan build: skipped"; tail -5 "$work/cmake.log"; exit 77; }
cmake --build "$work/build" -j 2 --target iosage_trace trace_wl_fork >"$work/build.log" 2>&1 \
  || { echo "FAIL: TSan build"; tail -20 "$work/build.log"; exit 1; }
lib=$work/build/trace/libiosage-trace.so wl=$work/build/trace/trace_wl_fork
tsan=$(readlink -f "$tsan")
fail=0
for i in 1 2 3; do
  LD_PRELOAD="$tsan:$lib" IOSAGE_LOG="$work/run/t$i.darshan" TSAN_OPTIONS=halt_on_error=0 \
    "$wl" threads "$work/run" >"$work/t$i.txt" 2>&1 || { echo "FAIL: threads run $i"; fail=1; }
  n=$(grep -c 'WARNING: ThreadSanitizer' "$work/t$i.txt")
  [ "$n" = 0 ] || { echo "FAIL: $n ThreadSanitizer reports (threads, run $i)"; head -40 "$work/t$i.txt"; fail=1; }
  w=$("$iosage" dump "$work/run/t$i.darshan" |
      awk '$4 == "POSIX_WRITES" && $6 !~ /^</ { s += $5 } END { print s + 0 }')
  [ "$w" = 256 ] || { echo "FAIL: $w writes counted, want 256 (run $i)"; fail=1; }
done
LD_PRELOAD="$tsan:$lib" IOSAGE_LOG="$work/run/f.darshan" TSAN_OPTIONS=halt_on_error=0 \
  "$wl" fork "$work/run" >"$work/f.txt" 2>&1 || { echo "FAIL: fork run"; fail=1; }
n=$(grep -c 'WARNING: ThreadSanitizer' "$work/f.txt")
[ "$n" = 0 ] || { echo "FAIL: $n ThreadSanitizer reports (fork)"; head -40 "$work/f.txt"; fail=1; }
[ "$fail" = 0 ] && echo "tsan: 3 threaded runs and a fork, no report, 256 writes each"
exit $fail
