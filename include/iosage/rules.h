/*
 * iosage/rules.h - the threshold-rule baseline (`iosage rules LOG`).
 *
 * A Drishti-like detector: every registered pattern's rule (the criteria of
 * ../shared/darshan-logs/LABELING.md) is applied to a log's file table, after
 * the healthy gate: a job whose slowest rank spends under 5% of the run time
 * in I/O has no pattern, whatever the shape of its I/O (fixing it could save
 * at most that much). It is the baseline the trained models are compared
 * with, and the labeler of logs that have no configuration label.
 *
 * Nothing prints: the result is a struct the caller formats, or JSON.
 */
#ifndef IOSAGE_RULES_H
#define IOSAGE_RULES_H

#include "iosage/darshan.h"
#include "iosage/error.h"
#include "iosage/features.h"
#include "iosage/patterns.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IOSAGE_RULES_GATE 0.05 /* slowest rank's I/O share of the run */

struct iosage_rule_pattern {
    const char *id;      /* pattern id (static string) */
    int detected;        /* 1: reported (rule holds and the gate is open) */
    int rule_holds;      /* 1: the criteria hold, before the gate */
    double value;        /* the rule's main measured value */
    char reason[IOSAGE_TEXT_MAX]; /* the numbers behind the decision */
};

struct iosage_rule_result {
    int n_patterns;      /* registry order */
    struct iosage_rule_pattern patterns[IOSAGE_MAX_PATTERNS];
    int healthy;         /* 1 when no pattern is detected */
    int gated;           /* 1 when the healthy gate decided */
    double slowest_rank_io_share; /* slowest rank's I/O time / run time */
    int64_t nprocs;
    double run_time, io_time;
    char summary[IOSAGE_TEXT_MAX]; /* one line: gate and job numbers */
};

/* Evaluate every pattern's rule on log. t is the log's file table, or NULL
 * to have one built (and freed) here. Fills *out. Returns IOSAGE_OK,
 * IOSAGE_E_USAGE (NULL log or out) or IOSAGE_E_NOMEM (building the table). */
IOSAGE_API iosage_status iosage_rules_eval(const iosage_log *log,
                                           const iosage_file_table *t,
                                           struct iosage_rule_result *out);

/* The result as one JSON object (no newline), in a malloc'd string the
 * caller frees; NULL on no memory. path (may be NULL) is echoed as "log".
 *   {"schema":1,"log":"...","nprocs":4,"run_time":2.5,"io_time":1.2,
 *    "slowest_rank_io_share":0.4,"gated":false,"healthy":false,
 *    "summary":"...","patterns":[{"id":"access_granularity",
 *    "detected":true,"rule_holds":true,"value":0.97,"reason":"..."},...]} */
IOSAGE_API char *iosage_rules_to_json(const struct iosage_rule_result *r,
                                      const char *path);

#ifdef __cplusplus
}
#endif
#endif
