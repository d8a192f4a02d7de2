/*
 * iosage/rules.h - the Drishti-like threshold baseline (`iosage rules LOG`).
 *
 * Drishti's thresholds (small requests, non-sequential operations, metadata
 * time, rank imbalance, missing collective I/O, syncs), mapped onto the
 * seven pattern ids, applied to a log for comparison with the trained
 * models on the same data. It is NOT the labeler: the criteria of
 * ../shared/darshan-logs/LABELING.md are src/label (iosage/label.h,
 * `iosage label`). Like Drishti it has no healthy gate (gated is always 0,
 * rule_holds equals detected) and no materiality test: a threshold crossed
 * is a pattern reported, however little of the run it costs.
 *
 * The thresholds ("ops" are read + write calls; counts from the per-file
 * table of iosage/features.h unless said otherwise):
 *   access_granularity     requests under 1 MiB > 10% and > 1,000 of the
 *                          reads, or of the writes (POSIX/DFS rows, MPI-IO
 *                          rows of files without a POSIX row; every file).
 *                          value: the small share that triggered (else the
 *                          larger share).
 *   access_pattern         non-sequential POSIX ops (ops - POSIX_SEQ_*) >
 *                          20% of POSIX ops and > 1,000. value: the share.
 *   metadata_intensity     the slowest rank's POSIX metadata time > 30 s
 *                          (Drishti's per-rank check). A rank's time is its
 *                          own records' POSIX_F_META_TIME plus an equal part
 *                          (1 / nprocs) of the rank -1 records' (Darshan
 *                          does not keep the per-rank split of those).
 *                          value: that time in seconds.
 *   parallelism_efficiency a shared data file (POSIX rank -1 record) whose
 *                          slowest and fastest ranks' bytes differ by > 15%
 *                          of the larger (Drishti's data transfer
 *                          imbalance), or rank-private data bytes per rank
 *                          (POSIX records of rank >= 0, ranks that moved
 *                          data) with (max - min) / max > 15%. value: the
 *                          larger imbalance.
 *   interface_choice       MPI-IO used with > 1,000 ops and no collective
 *                          operation; or the shared data files written
 *                          without collective MPI-IO have writes under
 *                          1 MiB > 10% and > 1,000 of their writes. value:
 *                          the MPI-IO op count, else the small-write share.
 *   file_strategy          (Drishti has no check; a simple threshold) more
 *                          than 10 data files per rank and more than 1,000
 *                          data files. value: data files per rank.
 *   throughput_utilization fsync + fdatasync > 10% of POSIX writes and
 *                          > 100; or a data file read more than 2x its
 *                          extent (bytes read > 2 (max byte read + 1)).
 *                          value: syncs per write, else the largest ratio.
 * healthy is 1 when no threshold is crossed.
 *
 * Nothing prints: the result is a struct the caller formats, or JSON.
 */
#ifndef IOSAGE_RULES_H
#define IOSAGE_RULES_H

#include "iosage/darshan.h"
#include "iosage/error.h"
#include "iosage/features.h"
#include "iosage/model.h"
#include "iosage/patterns.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IOSAGE_RULES_ABS 1000           /* absolute floor of op counts */
#define IOSAGE_RULES_SMALL 0.10         /* small requests, share of ops */
#define IOSAGE_RULES_NONSEQ 0.20        /* non-sequential ops, share */
#define IOSAGE_RULES_META_SECS 30.0     /* a rank's metadata time, s */
#define IOSAGE_RULES_IMBALANCE 0.15     /* rank byte imbalance */
#define IOSAGE_RULES_FILES_PER_RANK 10.0
#define IOSAGE_RULES_SYNC 0.10          /* syncs per write */
#define IOSAGE_RULES_SYNC_ABS 100
#define IOSAGE_RULES_REREAD 2.0         /* bytes read / file extent */

struct iosage_rule_pattern {
    const char *id;      /* pattern id (static string) */
    int detected;        /* 1: a threshold is crossed */
    int rule_holds;      /* = detected (no gate) */
    double value;        /* the rule's main measured value */
    char reason[IOSAGE_TEXT_MAX]; /* the numbers behind the decision */
};

struct iosage_rule_result {
    int n_patterns;      /* registry order */
    struct iosage_rule_pattern patterns[IOSAGE_MAX_PATTERNS];
    int healthy;         /* 1 when no pattern is detected */
    int gated;           /* always 0: no healthy gate */
    double slowest_rank_io_share; /* slowest rank's I/O time / run time */
    int64_t nprocs;
    double run_time, io_time;
    char summary[IOSAGE_TEXT_MAX]; /* one line: job numbers */
};

/* Apply the thresholds to log. t is the log's file table, or NULL
 * to have one built (and freed) here. Fills *out. Returns IOSAGE_OK,
 * IOSAGE_E_USAGE (NULL log or out) or IOSAGE_E_NOMEM (building the table
 * or the per-rank sums). */
IOSAGE_API iosage_status iosage_rules_eval(const iosage_log *log,
                                           const iosage_file_table *t,
                                           struct iosage_rule_result *out);

/* The result as one JSON line: iosage_rules_to_json (iosage/report.h). */

/* The rule baseline on every row of a dataset ds (iosage/model.h): each
 * row's log (ds->logs, required) is loaded again and its detected patterns go to
 * pred[0 .. n_rows) as bits. IOSAGE_E_USAGE without log paths; a log that
 * no longer loads fails the call (path and reason in err). */
IOSAGE_API iosage_status iosage_dataset_rules(const iosage_dataset *ds,
                                              uint32_t *pred,
                                              iosage_error *err);

#ifdef __cplusplus
}
#endif
#endif
