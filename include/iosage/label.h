/*
 * iosage/label.h - the labeler: the criteria of LABELING.md applied to a log.
 *
 * iosage_label_log() decides, for each registered bottleneck pattern (the
 * seven of LABELING.md; each pattern's criterion is in its
 * src/patterns/p_<id>.c), whether it is present and material in a job, and whether the job
 * is healthy, with the exact definitions and thresholds of
 * ../shared/darshan-logs/LABELING.md:
 *
 *   - I/O time per file by layer: MPI-IO time for files opened through
 *     MPI-IO, POSIX (or DFS) time otherwise, STDIO time added; summed over
 *     ranks. HDF5/PnetCDF timers are not added.
 *   - data files: files that move bytes, other than the standard streams and
 *     system files (/proc, /sys, /dev, /etc, shared libraries, Python and
 *     Java runtimes, caches). Data-pattern tests look only at data files;
 *     metadata time counts every file.
 *   - small request: under 1 MiB (the 100K_1M bin corrected with the
 *     ACCESS1-4 counts of exactly 1 MiB; STDIO: ops - bytes / 1 MiB).
 *   - material: at least 10% of the job's I/O time (10% of the operations
 *     when the log has no timers).
 *   - healthy gate: when the slowest rank spends under 5% of the run time in
 *     I/O the job is healthy, whatever the shape of its I/O.
 *
 * It is what labels the benchmark runs of `iosage gen` for checking (the
 * configuration's label is the training label; this one says whether the
 * log shows it) and the real logs that have no label.
 *
 * Nothing prints and nothing is allocated that outlives the call: the result
 * is a plain struct the caller owns.
 */
#ifndef IOSAGE_LABEL_H
#define IOSAGE_LABEL_H

#include <stddef.h>
#include <stdint.h>

#include "iosage/darshan.h"
#include "iosage/error.h"
#include "iosage/features.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The seven patterns of LABELING.md, in its order (and LABELS.tsv's): the
 * first seven of the pattern registry (iosage/patterns.h), which may hold
 * more (a test build registers a toy pattern). */
enum iosage_label_pattern {
    IOSAGE_LABEL_ACCESS_GRANULARITY = 0,
    IOSAGE_LABEL_METADATA_INTENSITY = 1,
    IOSAGE_LABEL_PARALLELISM_EFFICIENCY = 2,
    IOSAGE_LABEL_ACCESS_PATTERN = 3,
    IOSAGE_LABEL_INTERFACE_CHOICE = 4,
    IOSAGE_LABEL_FILE_STRATEGY = 5,
    IOSAGE_LABEL_THROUGHPUT_UTILIZATION = 6,
    IOSAGE_LABEL_NPATTERNS = 7
};

/* Thresholds of LABELING.md (documented there; one place here). */
#define IOSAGE_LABEL_GATE 0.05          /* slowest rank's I/O share of run */
#define IOSAGE_LABEL_MATERIAL 0.10      /* share of the job's I/O time */
#define IOSAGE_LABEL_SMALL_BYTES 1048576 /* a small request is under this */
#define IOSAGE_LABEL_MIN_OPS 1000       /* AG, MI, AP: at least this many */

#define IOSAGE_LABEL_EVIDENCE_MAX 320
#define IOSAGE_LABEL_MAX_PATTERNS 16 /* = IOSAGE_MAX_PATTERNS */

struct iosage_label_result {
    int n_patterns;  /* registered patterns: the entries below in use */
    int present[IOSAGE_LABEL_MAX_PATTERNS]; /* 1 present and material */
    int healthy;     /* 1 when no pattern is present */
    int gated;       /* 1 when the healthy gate decided (I/O share < 5%) */
    int64_t nprocs;  /* from the job record (or the ranks seen if invalid) */
    double run_time; /* seconds, as darshan-parser computes it */
    double io_time;  /* the job's I/O time, summed over ranks */
    double slowest_rank_io; /* seconds of I/O of the slowest rank */
    double slowest_share;   /* slowest_rank_io / run_time */
    /* The numbers behind each decision, one line each, e.g.
     * "5700 small requests (82% of data ops) on 3 files, 35% of I/O time". */
    char evidence[IOSAGE_LABEL_MAX_PATTERNS][IOSAGE_LABEL_EVIDENCE_MAX];
    char summary[IOSAGE_LABEL_EVIDENCE_MAX]; /* the job line and the gate */
};

/* The pattern id of p ("access_granularity", ...), or NULL when p is out of
 * range. Static strings. */
IOSAGE_API const char *iosage_label_pattern_id(int p);

/* Label a loaded log. Fills *out (every field; evidence lines are always
 * NUL-terminated). Records of modules that could not be read completely are
 * used as far as they were read. Returns IOSAGE_OK, IOSAGE_E_USAGE (NULL
 * argument) or IOSAGE_E_NOMEM; err (may be NULL) is filled on failure. */
IOSAGE_API iosage_status iosage_label_log(const iosage_log *log,
                                          struct iosage_label_result *out,
                                          iosage_error *err);

/* The same from the table already built for log (iosage/features.h): the
 * one table of the log, which the criteria read (each pattern's rule,
 * iosage/patterns.h, is its criterion without the healthy gate). Cannot
 * fail. */
IOSAGE_API void iosage_label_table(const iosage_log *log,
                                   const iosage_file_table *t,
                                   struct iosage_label_result *out);

/* The same decisions and numbers with evidence[] and summary left empty:
 * formatting them is most of the cost when only the verdicts are wanted
 * (`iosage batch`'s criteria_only, for every log). */
IOSAGE_API void iosage_label_table_verdicts(const iosage_log *log,
                                            const iosage_file_table *t,
                                            struct iosage_label_result *out);

/* The evidence of r as one line: the summary, then "AG: ..." for each
 * present pattern (or the reason nothing is present), joined with " | ".
 * Always NUL-terminated; returns buf. */
IOSAGE_API char *iosage_label_evidence_line(
    const struct iosage_label_result *r, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
