#!/usr/bin/env bash
# Hold the tracer against the Darshan runtime: run every configuration of
# REFDIR/MANIFEST.tsv (the kernels, flags and rank counts the runtime's logs
# were made with) under libiosage-trace-mpi.so and compare each log with the
# runtime's, record by record (conformance_compare.py says what must hold).
#
#   conformance.sh KERNELDIR TRACER.so IOSAGE REFDIR WORKDIR [MPIRUN]
#
# KERNELDIR holds the bench kernels (ior_like, mdtest_like, ...). CONFIGS
# (blank-separated names) limits the run to some configurations. Exit
# status: 0 every configuration conforms, 1 some differ or failed to run,
# 77 REFDIR or the launcher is missing (ctest: skipped).
set -u
kernels=$1 tracer=$2 iosage=$3 ref=$4 work=$5
mpirun=${6:-mpirun}
here=$(cd "$(dirname "$0")" && pwd)

if [ ! -f "$ref/MANIFEST.tsv" ]; then
  echo "conformance: no runtime logs at $ref (../shared absent); skipping"
  exit 77
fi
if ! command -v "$mpirun" >/dev/null 2>&1; then
  echo "conformance: no MPI launcher '$mpirun'; skipping"
  exit 77
fi
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

rm -rf "$work"
mkdir -p "$work/data" "$work/logs"
fail=0 n=0
# MANIFEST.tsv: log, config, ranks, command ("mpirun -np N bench/K flags
# --dir <data>/CONFIG").
while IFS=$'\t' read -r log config ranks command; do
  [ "$log" = log ] && continue
  if [ -n "${CONFIGS:-}" ] && [[ " $CONFIGS " != *" $config "* ]]; then
    continue
  fi
  read -r -a words <<<"$command"
  kernel=${words[3]#bench/}
  args=()
  for w in "${words[@]:4}"; do
    args+=("${w//<data>/$work/data}")
  done
  if [ ! -x "$kernels/$kernel" ]; then
    echo "FAIL $config: kernel $kernels/$kernel not built"
    fail=1
    continue
  fi
  out="$work/logs/$config.darshan"
  mkdir -p "$work/data/$config"
  if ! "$mpirun" -np "$ranks" --oversubscribe --bind-to none \
      -x LD_PRELOAD="$tracer" -x IOSAGE_LOG="$out" \
      "$kernels/$kernel" "${args[@]}" </dev/null >"$work/logs/$config.out" \
      2>"$work/logs/$config.err"; then
    echo "FAIL $config: the kernel failed"
    sed 's/^/    /' "$work/logs/$config.err"
    fail=1
    continue
  fi
  if ! /usr/bin/python3 "$here/conformance_compare.py" "$iosage" \
      "$ref/$log" "$out" "$config"; then
    fail=1
  fi
  n=$((n + 1))
done <"$ref/MANIFEST.tsv"
echo "conformance: $n configuration(s) compared"
exit $fail
