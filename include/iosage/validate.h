/*
 * iosage/validate.h - `iosage validate`: close the loop on the benchmark
 * kernels. Run a scenario's baseline under the tracer, ask the advice which
 * change to make, run the baseline and the changed configuration
 * alternately (A B A B ..., so that drift hits both), and say what the
 * change saved, with an interval.
 *
 * Three parts, each usable alone:
 *
 *   statistics  the speedup of n paired runs (median of the pair ratios)
 *               and a distribution-free interval for it (order statistics
 *               of the ratios, coverage from the binomial distribution);
 *   scenarios   the text format of the bench/scenarios files;
 *   the driver  runs a scenario (fork/exec of mpirun, the kernels, and the
 *               analyzer), never prints: progress goes to a callback.
 *
 * Scenario format (one directive a line; '#' starts a comment line; words
 * are separated by blanks; flags are passed to the kernel as written, no
 * quoting):
 *
 *   name      NAME                   [A-Za-z0-9_.-], required
 *   kernel    KERNEL                 a program in the bench directory
 *   ranks     N                      MPI ranks, 1..1024
 *   patterns  ID[,ID...] | healthy   what the baseline is built to show
 *   baseline  FLAGS...               the kernel's flags with the bottleneck
 *   change    PATTERN CHANGE_ID [kernel=KERNEL] FLAGS...
 *                                    the flags with that change applied
 *                                    (any number of change lines, at most
 *                                    IOSAGE_VALIDATE_MAX_CHANGES); with
 *                                    kernel= the change runs another kernel
 *                                    (a change one kernel cannot express,
 *                                    such as a shared file for mdtest_like)
 *
 * PATTERN and CHANGE_ID must be one of the pairs of docs/report.md ("Change
 * ids"); a pair appears at most once. A healthy scenario checks that the
 * advice proposes nothing; it may still list changes. Errors name
 * "file:line: what is wrong".
 *
 * Ownership: iosage_validate_scenario_load/_parse return a scenario owned
 * by the caller (iosage_validate_scenario_free accepts NULL); the flags
 * point into it. iosage_validate_run fills a result whose arrays the caller
 * releases with iosage_validate_result_free.
 */
#ifndef IOSAGE_VALIDATE_H
#define IOSAGE_VALIDATE_H

#include <stddef.h>

#include "iosage/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- Statistics of paired runs ------------------------------------------- */

#define IOSAGE_VALIDATE_LEVEL 0.90   /* the interval's least coverage */
#define IOSAGE_VALIDATE_MAX_RUNS 1000 /* pairs; the binomial stays in range */

struct iosage_validate_stats {
    size_t n;          /* pairs */
    double median;     /* median of the ratios: the speedup */
    double lo, hi;     /* the interval: ordered ratios k_lo and k_hi */
    size_t k_lo, k_hi; /* 1-based ranks among the ordered ratios */
    double coverage;   /* P(lo <= true median <= hi) for any continuous
                          distribution of the ratios */
    int reached;       /* 1: coverage >= IOSAGE_VALIDATE_LEVEL; 0: n is too
                          small for that, lo..hi is min..max */
    int significant;   /* lo > 1: the change is faster */
};

/* Median of x[0..n-1] (mean of the two middle values for even n); x is not
 * changed. NaN when n is 0 or n > IOSAGE_VALIDATE_MAX_RUNS. */
IOSAGE_API double iosage_validate_median(const double *x, size_t n);

/* Coverage of the interval between ordered values k and n+1-k of n
 * samples: 1 - 2 P(Bin(n, 1/2) <= k-1). 0 when k is 0, k > n+1-k, or
 * n > IOSAGE_VALIDATE_MAX_RUNS. For n = 11, k = 3: 0.9346. */
IOSAGE_API double iosage_validate_coverage(size_t n, size_t k);

/* The largest k >= 1 whose coverage is at least level, or 0 when none is
 * (n <= 4 for level 0.90). n = 11 gives 3, n = 20 gives 6. */
IOSAGE_API size_t iosage_validate_interval_rank(size_t n, double level);

/* Speedup statistics of n ratios (baseline time / changed time, so above 1
 * means the change is faster), with IOSAGE_VALIDATE_LEVEL. When no k
 * reaches the level the interval is min..max with its own coverage
 * (1 - 2^(1-n)). Returns IOSAGE_E_USAGE for n = 0, n too large, or a ratio
 * that is not a positive finite number; *out is then zeroed. */
IOSAGE_API iosage_status iosage_validate_stats_of(
    const double *ratios, size_t n, struct iosage_validate_stats *out,
    iosage_error *err);

/* --- Scenarios ----------------------------------------------------------- */

#define IOSAGE_VALIDATE_MAX_ARGS 64
#define IOSAGE_VALIDATE_MAX_CHANGES 16
#define IOSAGE_VALIDATE_NPATTERNS 7

struct iosage_validate_flags {
    int n;                                   /* flags */
    char *v[IOSAGE_VALIDATE_MAX_ARGS];       /* point into the scenario */
};

struct iosage_validate_change {
    char pattern[48];                        /* "throughput_utilization" */
    char change_id[48];                      /* "drop_syncs" */
    char kernel[64];                         /* the scenario's, or kernel= */
    struct iosage_validate_flags flags;      /* with the change applied */
    int lineno;
};

struct iosage_validate_scenario {
    char path[256];                          /* as loaded, for messages */
    char name[96];
    char kernel[64];
    int ranks;
    int healthy;                             /* "patterns healthy" */
    int n_patterns;                          /* the patterns line */
    char patterns[IOSAGE_VALIDATE_NPATTERNS][48];
    struct iosage_validate_flags baseline;
    size_t n_changes;
    struct iosage_validate_change changes[IOSAGE_VALIDATE_MAX_CHANGES];
    char *text;                              /* owned: the flags point here */
};

/* Parse scenario text; path is only used in messages. On error *out is
 * NULL and err says "path:line: what is wrong". */
IOSAGE_API iosage_status iosage_validate_scenario_parse(
    const char *text, const char *path,
    struct iosage_validate_scenario **out, iosage_error *err);

/* Read and parse a scenario file (at most 64 KiB). */
IOSAGE_API iosage_status iosage_validate_scenario_load(
    const char *path, struct iosage_validate_scenario **out,
    iosage_error *err);

IOSAGE_API void iosage_validate_scenario_free(
    struct iosage_validate_scenario *s);

/* The change of s keyed by (pattern, change_id), or NULL. */
IOSAGE_API const struct iosage_validate_change *iosage_validate_scenario_find(
    const struct iosage_validate_scenario *s, const char *pattern,
    const char *change_id);

/* 1 when (pattern, change_id) is one of the change ids of docs/report.md. */
IOSAGE_API int iosage_validate_known_change(const char *pattern,
                                            const char *change_id);

/* --- The advice's proposals ---------------------------------------------- */

struct iosage_validate_proposal {
    int rank;                                /* 1 = first */
    char pattern[48];
    char change_id[48];
    int predicted;                           /* the report gave an
                                                expected_saving */
    double predicted_saving;                 /* its io_time_share: the
                                                savings model's prediction
                                                (docs/savings.md) */
};

struct iosage_validate_advice {
    char source[16];                         /* "offline", "llm" */
    size_t n;                                /* proposals, ranked */
    struct iosage_validate_proposal changes[IOSAGE_VALIDATE_MAX_CHANGES];
    int n_detected;                          /* detection.patterns detected */
    char detected[IOSAGE_VALIDATE_NPATTERNS][48];
};

/* Read the ranked changes out of an analysis report (docs/report.md) given
 * as JSON text: advice.changes sorted by rank (at most
 * IOSAGE_VALIDATE_MAX_CHANGES kept), advice.source and the detected
 * patterns. name is used in messages. IOSAGE_E_CORRUPT when the text is not
 * such a report. */
IOSAGE_API iosage_status iosage_validate_advice_parse(
    const char *json, const char *name, struct iosage_validate_advice *out,
    iosage_error *err);

/* --- The driver ---------------------------------------------------------- */

struct iosage_validate_options {
    const char *bench_dir;   /* the kernels */
    const char *tracer;      /* libiosage-trace-mpi.so */
    const char *analyzer;    /* run as: ANALYZER analyze --format json
                                [--llm P:M] LOG; prints the report */
    const char *llm;         /* "provider:model" or NULL (offline advice) */
    const char *work_dir;    /* existing directory for logs and run output */
    int runs;                /* pairs, 1..IOSAGE_VALIDATE_MAX_RUNS */
    int warmup;              /* untimed rounds before the pairs */
    int all_changes;         /* measure every proposed change, not the top */
    int listed;              /* measure every change the scenario lists,
                                in its order: no traced baseline, no
                                analyzer, no traced recheck (the savings
                                campaign, iosage/savings.h) */
    int timeout_s;           /* per run */
    /* One line per event (no newline), or NULL for silence. */
    void (*progress)(void *ctx, const char *line);
    void *progress_ctx;
    /* Preloaded into the runs without the tracer too (the file system
     * emulator of `--pfs`), or NULL. */
    const char *preload;
};

/* One time measure (kernel seconds or wall seconds) of one change. */
struct iosage_validate_measure {
    double median_without, median_with; /* seconds */
    struct iosage_validate_stats stats; /* of the pair ratios */
};

enum iosage_validate_outcome {
    IOSAGE_VALIDATE_MEASURED = 0,     /* ran n pairs */
    IOSAGE_VALIDATE_NO_CONFIG = 1     /* proposed, but the scenario has no
                                         configuration for it */
};

struct iosage_validate_change_result {
    struct iosage_validate_proposal proposal;
    enum iosage_validate_outcome outcome;
    const struct iosage_validate_change *change; /* NULL for NO_CONFIG */
    size_t runs;
    double *without_s, *with_s;        /* kernel seconds, per pair (owned) */
    double *without_wall, *with_wall;  /* wall seconds of mpirun (owned) */
    struct iosage_validate_measure kernel, wall;
    int labels_after[IOSAGE_VALIDATE_NPATTERNS]; /* the labeler on one traced
                                                    run of the changed
                                                    configuration */
    int labeled_after;                           /* labels_after is valid */
};

enum iosage_validate_verdict {
    IOSAGE_VALIDATE_V_MEASURED = 0,         /* the top change was measured */
    IOSAGE_VALIDATE_V_HEALTHY_OK = 1,       /* healthy, nothing proposed */
    IOSAGE_VALIDATE_V_HEALTHY_PROPOSED = 2, /* healthy, yet a change came */
    IOSAGE_VALIDATE_V_NOTHING_PROPOSED = 3, /* a bottleneck, no change */
    IOSAGE_VALIDATE_V_NO_CONFIG = 4         /* top change not in scenario */
};

struct iosage_validate_result {
    enum iosage_validate_verdict verdict;
    struct iosage_validate_advice advice;
    int labels[IOSAGE_VALIDATE_NPATTERNS]; /* the labeler on the baseline
                                              log, in LABELING.md order */
    int labeled;                            /* labels are valid */
    double traced_wall;                     /* the traced baseline run */
    size_t n_results;
    struct iosage_validate_change_result *results; /* owned */
};

/* Run scenario s: the traced baseline, the analyzer, the pairs of every
 * change to measure, then each measured change once more under the tracer
 * (labeled: is the pattern gone?). Progress lines go to o->progress. Fails with
 * IOSAGE_E_IO when a kernel run fails (after two retries), times out or
 * prints no summary line, or the analyzer fails; err names the run's
 * output file, which is kept. */
IOSAGE_API iosage_status iosage_validate_run(
    const struct iosage_validate_scenario *s,
    const struct iosage_validate_options *o,
    struct iosage_validate_result *out, iosage_error *err);

/* Release what iosage_validate_run allocated in r (not r itself). */
IOSAGE_API void iosage_validate_result_free(struct iosage_validate_result *r);

/* One scenario's outcome as `iosage validate` keeps it for its output (the
 * views of src/report: iosage_report_validate_*, iosage/report.h). */
struct iosage_validate_run {
    struct iosage_validate_scenario *s;
    struct iosage_validate_result r;
    iosage_status st;
    char error[800];    /* the error line when st != IOSAGE_OK */
};

/* Short text of a verdict ("measured", "healthy: no change proposed", ...). */
IOSAGE_API const char *iosage_validate_verdict_text(
    enum iosage_validate_verdict v);

#ifdef __cplusplus
}
#endif
#endif
