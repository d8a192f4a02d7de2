# iosage - a thin wrapper over CMake. Everything real lives in CMakeLists.txt.
#
#   make            build build/iosage and the library (release)
#   make demo       run a kernel with a known bottleneck under the tracer,
#                   then analyze its log offline
#   make check      build with ASan+UBSan and run every test
#   make stress     fault injection, every N: the Nth allocation or write of
#                   each run fails (tests/fault/sweep.sh full; long)
#   make bench      time start-up, dump, batch and MPI batch beside the previous
#                   release, cost against log size (scripts/bench*.sh), and the
#                   archive database and dashboard on 100,000 logs
#   make eval       the evaluation tables of docs/evaluation.md
#   make fuzz       run a libFuzzer target (FUZZ_TARGET=reader|config|reply|report,
#                   FUZZ_SECONDS, default 60)
#   make dataset    regenerate data/hpc-runs from bench/sweeps/hpc.sweep
#   make deps       install the Debian packages the build needs
#   make install    PREFIX=/usr/local by default

PREFIX ?= /usr/local
BUILD ?= build
CHECK_BUILD ?= build-check
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")
FUZZ_SECONDS ?= 60
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all build demo check stress bench eval fuzz dataset savings deps deps-check install clean

all: build

build: deps-check
	cmake -S . -B $(BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	scripts/demo.sh $(BUILD)

check: deps-check
	cmake -S . -B $(CHECK_BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=Debug -DIOSAGE_SANITIZE=ON >/dev/null
	cmake --build $(CHECK_BUILD) -j $(JOBS)
	cd $(CHECK_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	    ctest --output-on-failure -j $(JOBS)

stress: deps-check
	cmake -S . -B $(CHECK_BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=Debug -DIOSAGE_SANITIZE=ON >/dev/null
	cmake --build $(CHECK_BUILD) -j $(JOBS)
	tests/fault/sweep.sh full $(CHECK_BUILD)/iosage $(CHECK_BUILD)/iosage-example-writer \
	    $(CHECK_BUILD)/tests/libiosage-fault.so ../shared/darshan-logs data/bench-runs/logs

bench: build
	scripts/bench.sh $(BUILD)/iosage
	trace/bench/overhead.sh $(BUILD)
	pfs/bench/accuracy.sh $(BUILD)
	@if [ -x scripts/bench-batch.sh ]; then scripts/bench-batch.sh $(BUILD); fi
	scripts/bench-scale.sh $(BUILD)
	scripts/bench-archive.sh $(BUILD)

eval: build
	scripts/eval.sh $(BUILD)/iosage

fuzz: deps-check
	scripts/fuzz.sh $(FUZZ_SECONDS)

# The labeled training runs of the shipped models: every configuration of
# the sweep under the tracer, each run on a drawn file system (a second gen
# pass retries runs that failed), then the label check (docs/dataset.md).
# The older native set of 1-16 ranks:
#   make dataset SWEEP=bench/sweeps/default.sweep DATASET=data/bench-runs GEN_FLAGS=
DATASET ?= data/hpc-runs
SWEEP ?= bench/sweeps/hpc.sweep
GEN_FLAGS ?= --pfs-random lustre-hdd-small,lustre-flash-large,gpfs-like
dataset: build
	rm -rf $(DATASET)
	./$(BUILD)/iosage gen $(SWEEP) -o $(DATASET) -j 2 $(GEN_FLAGS) || ./$(BUILD)/iosage gen $(SWEEP) -o $(DATASET) -j 2 $(GEN_FLAGS)
	scripts/check-labels.sh -b $(BUILD)/iosage $(DATASET)

# What each change saves (docs/savings.md): paired runs of every change of
# CHANGES on the dataset's drawn systems (resumes where it stopped; about
# 2.8 hours for hpc.changes on this machine), then the savings models into
# the shipped bundle.
CHANGES ?= bench/sweeps/hpc.changes
savings: build
	./$(BUILD)/iosage savings measure $(SWEEP) $(CHANGES) $(DATASET)
	./$(BUILD)/iosage savings train $(DATASET) models/default

deps:
	scripts/install-deps

# Build targets call this: install what is missing when we are root,
# otherwise say exactly what to run.
deps-check:
	@scripts/install-deps --check-or-install

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(CHECK_BUILD) build-fuzz
