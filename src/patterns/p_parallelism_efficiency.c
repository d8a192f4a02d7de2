/*
 * src/patterns/p_parallelism_efficiency.c - unequal I/O across ranks.
 *
 * Criterion (LABELING.md; criterion() below):
 * nprocs > 1, and the slowest rank's I/O time is at
 * least 2x the mean rank's while that rank spends at least 10% of the run
 * in I/O; or the rank that moves the most bytes moves at least 2x the mean
 * while it spends at least 10% of the run in I/O. Per-rank values are the
 * table's estimates (own records plus a part of the shared records). "All
 * I/O through rank 0" is included.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ios_patterns.h"

static const char *const key_features[] = {
    "rank_time_imbalance", "rank_time_max_over_mean_log", "rank_bytes_imbalance",
    "rank_bytes_max_over_mean_log", "shared_time_spread", "shared_time_cv_log",
    "unique_rank_bytes_imbalance", "rank_active_share",
    "job_io_time_share_slowest", NULL};

/* The criterion of LABELING.md on the table's layer view (the labeler
 * applies the healthy gate, not this):
 * nprocs > 1, the slowest rank's I/O time (or the rank moving most bytes) is
 * at least 2x the mean rank's, and that rank spends at least 10% of the run
 * time in I/O. */
static void criterion(const struct fl_table *t, int *present, double *value,
                      char *ev, size_t size)
{
    int64_t n = t->nprocs;
    struct fl_ranks k;
    fl_rank_summary(t, &k);
    double mean_t = k.sum_time / (double)n, mean_b = k.sum_bytes / (double)n;
    double slow_t = fl_rank_time(t, k.slowest), big_t = fl_rank_time(t, k.biggest);
    double rt = mean_t > 0 ? slow_t / mean_t : 0;
    double rb = mean_b > 0 ? fl_rank_bytes(t, k.biggest) / mean_b : 0;
    double st = t->run_time > 0 ? slow_t / t->run_time : 0;
    double sb = t->run_time > 0 ? big_t / t->run_time : 0;
    int by_time = rt >= 2.0 && st >= 0.10;
    int by_bytes = rb >= 2.0 && sb >= 0.10;
    *present = n > 1 && (by_time || by_bytes);
    *value = rt > rb ? rt : rb;
    if (size == 0)
        return; /* the verdict alone (rule, with_reason 0) */
    char p1[16], p2[16];
    snprintf(ev, size,
             "slowest rank %.3gx mean I/O time (%s of run), max-bytes rank %.3gx "
             "mean bytes (%s of run)",
             rt, ios_fmt_label_pct(p1, sizeof p1, st), rb, ios_fmt_label_pct(p2, sizeof p2, sb));
}

static void rule(const iosage_log *log, const iosage_file_table *t,
                 int with_reason, struct iosage_rule_verdict *v)
{
    (void)log;
    ios_rule_verdict(criterion, t, with_reason, v);
}

static const char *rank_name(char *buf, size_t size, int64_t rank)
{
    if (rank < 0)
        snprintf(buf, size, "every rank");
    else
        snprintf(buf, size, "rank %lld", (long long)rank);
    return buf;
}

/* The rank -1 row of a data file with the largest slowest-rank time over
 * its mean rank time. */
static int most_uneven_shared(const iosage_file_table *t, double *ratio)
{
    int best = -1;
    *ratio = 0.0;
    for (size_t i = 0; i < t->n_rows; i++) {
        const struct iosage_file_row *r = &t->rows[i];
        if (!(r->flags & IOSAGE_FILE_DATA) || !ios_row_top(r) ||
            !(r->flags & IOSAGE_FILE_REDUCED) || r->ranks < 2)
            continue;
        double q = ios_ratio(r->slowest_rank_time, r->io_time / (double)r->ranks);
        if (q > *ratio && ios_material_share(t, r->io_time, 0) >= IOS_MATERIAL) {
            *ratio = q;
            best = (int)i;
        }
    }
    return best;
}

static void evidence(const iosage_log *log, const iosage_file_table *t,
                     struct iosage_evidence *ev)
{
    (void)log;
    const struct iosage_job_summary *j = &t->job;
    char rk[32], s1[32], s2[32], p[16], b1[32], b2[32], lab[200];
    double q;
    ios_ev_add(ev, "%s: %s of I/O, %.1fx the mean rank's %s, %s of the run",
               rank_name(rk, sizeof rk, j->rank_time_max_rank),
               ios_fmt_secs(s1, sizeof s1, j->rank_time_max),
               ios_ratio(j->rank_time_max, j->rank_time_mean),
               ios_fmt_secs(s2, sizeof s2, j->rank_time_mean),
               ios_fmt_pct(p, sizeof p, ios_share(j->rank_time_max, j->run_time)));
    ios_ev_add(ev, "%s moved %s, %.1fx the mean rank's %s",
               rank_name(rk, sizeof rk, j->rank_bytes_max_rank),
               ios_fmt_bytes(b1, sizeof b1, j->rank_bytes_max),
               ios_ratio(j->rank_bytes_max, j->rank_bytes_mean),
               ios_fmt_bytes(b2, sizeof b2, j->rank_bytes_mean));
    int k = most_uneven_shared(t, &q);
    if (k >= 0)
        ios_ev_add(ev, "%s: slowest rank %s, %.1fx its mean rank",
                   ios_file_label(lab, sizeof lab, &t->rows[k]),
                   ios_fmt_secs(s1, sizeof s1, t->rows[k].slowest_rank_time), q);
}

/* Offline advice: the share of the I/O time, the main file and the change
 * (see src/advise/findings.c for the shares of every pattern). */
static void finding(const iosage_file_table *t, struct iosage_pattern_finding *f)
{
    const struct iosage_job_summary *j = &t->job;
    f->share = ios_share(j->rank_time_max - j->rank_time_mean, j->rank_time_max);
    f->row = -1;
    f->change_id = "balance_io";
}

/* The change ids of docs/report.md for this pattern. */
/* The config-file settings each change looks for (offline advice). */
static const char *const keys_balance_io[] = {
    "cb_nodes", "NumAggregators", NULL};

static const struct iosage_pattern_change changes[] = {
    {"balance_io",
     "Spread the I/O evenly over the ranks, or aggregate it with collective "
     "I/O, instead of letting one rank (or a few) move most of the data.",
     "The slowest rank's I/O time falls toward the mean rank's, and the other "
     "ranks stop waiting for it.",
     "One rank owns the data by design (configuration, logging output), or "
     "the imbalance costs a negligible share of the run.",
     keys_balance_io},
    {NULL, NULL, NULL, NULL, NULL},
};

/* Floor (docs/report.md "Floors"): never reported, whatever a model's
 * score, unless the per-rank I/O time or bytes estimate is imbalanced
 * (1 - mean / max at least 0.2: the slowest rank at least 1.25x the mean
 * rank), or the slowest and fastest ranks of shared files moved bytes that
 * differ by at least half (shared_bytes_spread 0.5: the per-rank estimate
 * sees only the slowest rank's bytes, so a rank that moves 10x the data in
 * the same time shows only there). */
static const struct iosage_pattern_floor floors[] = {
    {"rank_time_imbalance", 0.2, 0, NULL, 0.0, NULL},
    {"rank_bytes_imbalance", 0.2, 0, NULL, 0.0, NULL},
    {"shared_bytes_spread", 0.5, 0, NULL, 0.0, NULL},
    {NULL, 0.0, 0, NULL, 0.0, NULL},
};

const struct iosage_pattern ios_pattern_parallelism_efficiency = {
    .id = "parallelism_efficiency",
    .name = "Rank imbalance",
    .behaviour = "Some ranks spend much more time in I/O, or move many more "
                 "bytes, than the others, so the rest of the job waits for "
                 "them.",
    .change = "Spread the I/O across ranks, or use collective I/O with "
              "aggregators instead of funnelling the data through one rank.",
    .not_applicable = "One rank owns the data by design (configuration "
                      "input, log output).",
    .key_features = key_features,
    .evidence = evidence,
    .rule = rule,
    .finding = finding,
    .changes = changes,
    .advice_rank = 6,
    .floors = floors,
    .abbrev = "PE",
};
