/*
 * src/advise/internal.h - what the files of src/advise share.
 *
 * Files, in reading order:
 *   cards.c     cards: quartiles of key features from a dataset, cards.json
 *   config.c    config files: reading, classifying (config_kind.c) and the
 *               recognised settings (config_keys.c)
 *   changes.c   the change ids of docs/report.md with their texts
 *   findings.c  per detected pattern: I/O time share, evidence, change id
 *   summary.c   job, summary and charts sections of the document
 *   offline.c   offline advice: change texts naming the setting, ranking
 *   report.c    iosage_report_build: the whole document
 *   prompt.c    the LLM prompt
 *   reply.c     validation of an LLM reply
 */
#ifndef IOS_ADVISE_INTERNAL_H
#define IOS_ADVISE_INTERNAL_H

#include <jansson.h>

#include "ios_common.h"
#include "ios_json.h"
#include "ios_features.h"
#include "iosage/advise.h"
#include "ios_patterns.h"

/* --- Change ids (changes.c) ----------------------------------------------- */

/* The change of (pattern id, change id) in the registry, or NULL. */
const struct iosage_pattern_change *adv_change_find(const char *pattern,
                                                    const char *id);

/* --- Findings (findings.c) ------------------------------------------------- */

/* A change is proposed only for a finding whose operations hold at least
 * this share of the job's I/O time (docs/report.md). */
#define ADV_CHANGE_MIN_SHARE 0.05

struct adv_finding {
    int pattern;            /* registry index */
    double share;           /* share of the job's I/O time that carries it */
    const char *change_id;  /* chosen from the evidence */
    int row;                /* table row of the main file, or -1 */
    double score;
    /* Non-zero when the evidence shows the chosen change's "when not to
     * apply" holds: the finding is ranked after the others and no change is
     * proposed for it (its evidence says why). */
    int held;
    struct iosage_evidence ev; /* why a change is held back, then the
                                  registry's evidence lines */
};

/* Analyze detected pattern k of the registry on a log and its table. */
void adv_finding_make(const iosage_log *log, const iosage_file_table *t,
                      int k, double score, struct adv_finding *f);

/* Sort findings: held ones last, then share (whole percent) descending, then
 * root-cause order, then score descending. */
void adv_findings_sort(struct adv_finding *f, int n);

/* --- Document sections (summary.c) ----------------------------------------- */

/* Add "job", "summary" and "charts" to doc. 0, or -1 on no memory. */
int adv_add_job_summary(json_t *doc, const iosage_log *log,
                        const iosage_file_table *t);

/* Per-rank chart {"rank", "bytes", "time", "truncated"}, or NULL (memory). */
json_t *adv_rank_chart(const iosage_file_table *t);

/* --- Offline advice (offline.c) -------------------------------------------- */

/* One change object of docs/report.md for finding f (rank set by caller). */
json_t *adv_offline_change(const struct adv_finding *f,
                           const iosage_file_table *t,
                           const struct iosage_config *const *configs,
                           size_t n_configs);

/* JSON helpers: ios_json_str, ios_json_real, ios_json_set (ios_json.h). */

#endif
