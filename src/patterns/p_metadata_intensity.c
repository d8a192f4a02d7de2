/*
 * src/patterns/p_metadata_intensity.c - metadata time dominates.
 *
 * Criterion (LABELING.md; the rule below is src/label/criteria.c): metadata time (META_TIME of the layers counted in the
 * job's I/O time, all files) is at least 30% of the job's I/O time, and the
 * job made at least 1,000 metadata operations (opens, stats, seeks, syncs,
 * set_views of every layer, all files).
 */
#include "ios_patterns.h"

static const char *const key_features[] = {
    "job_meta_time_share", "meta_ops_per_data_op_log", "meta_ops_per_rank_log",
    "meta_time_per_op_log", "meta_opens_per_file_rank_log", "meta_stats_per_open_log",
    "file_per_rank_log", NULL};

/* The criterion of LABELING.md, as the labeler (src/label) applies it,
 * without the healthy gate: one implementation of the criteria. */
static void rule(const iosage_log *log, const iosage_file_table *t,
                 struct iosage_rule_verdict *v)
{
    (void)t;
    ios_label_rule(log, IOSAGE_LABEL_METADATA_INTENSITY, v);
}

/* The three counted rows with the most metadata time. */
static void top_meta(const iosage_file_table *t, int top[3])
{
    top[0] = top[1] = top[2] = -1;
    for (size_t i = 0; i < t->n_rows; i++) {
        const struct iosage_file_row *r = &t->rows[i];
        if (!ios_row_top(r) || r->meta_time <= 0.0)
            continue;
        for (int k = 0; k < 3; k++) {
            if (top[k] < 0 || t->rows[top[k]].meta_time < r->meta_time) {
                for (int m = 2; m > k; m--)
                    top[m] = top[m - 1];
                top[k] = (int)i;
                break;
            }
        }
    }
}

static void evidence(const iosage_log *log, const iosage_file_table *t,
                     struct iosage_evidence *ev)
{
    (void)log;
    const struct iosage_job_summary *j = &t->job;
    char c1[32], c2[32], p[16], s[32], lab[200];
    int top[3];
    ios_ev_add(ev, "%s metadata ops over %lld files (%s per rank), %s of I/O time",
               ios_fmt_count(c1, sizeof c1, (double)j->meta_ops),
               (long long)j->files,
               ios_fmt_count(c2, sizeof c2, ios_ratio((double)j->meta_ops,
                                                      (double)j->nprocs)),
               ios_fmt_pct(p, sizeof p, ios_share(j->meta_time, j->io_time)));
    top_meta(t, top);
    for (int k = 0; k < 2 && top[k] >= 0; k++) {
        const struct iosage_file_row *r = &t->rows[top[k]];
        ios_ev_add(ev, "%s: %s metadata ops (%s opens), %s of metadata time",
                   ios_file_label(lab, sizeof lab, r),
                   ios_fmt_count(c1, sizeof c1, (double)r->meta_ops),
                   ios_fmt_count(c2, sizeof c2, (double)r->opens),
                   ios_fmt_secs(s, sizeof s, r->meta_time));
    }
}

const struct iosage_pattern ios_pattern_metadata_intensity = {
    .id = "metadata_intensity",
    .name = "Metadata-heavy I/O",
    .behaviour = "Opens, closes, stats, seeks and syncs take a large part of "
                 "the job's I/O time.",
    .change = "Use fewer files; batch metadata operations (open and stat "
              "once, not per access); keep small data together in shared "
              "files.",
    .not_applicable = "The files are required outputs, e.g. per-step files "
                      "that other tools read.",
    .key_features = key_features,
    .evidence = evidence,
    .rule = rule,
};
