/*
 * src/patterns/p_metadata_intensity.c - metadata time dominates.
 *
 * Criterion (LABELING.md; add() and verdict() below):
 * metadata time (META_TIME of the layers counted in the
 * job's I/O time, all files) is at least 30% of the job's I/O time, and the
 * job made at least 1,000 metadata operations (opens, stats, seeks, syncs,
 * set_views of every layer, all files).
 */
#include <stdio.h>
#include <stdlib.h>

#include "ios_patterns.h"

#define REPEATED_OPENS 3.0 /* opens per (file, rank): open/close per access */

static const char *const key_features[] = {
    "job_meta_time_share", "meta_ops_per_data_op_log", "meta_ops_per_rank_log",
    "meta_time_per_op_log", "meta_opens_per_file_rank_log", "meta_stats_per_open_log",
    "file_per_rank_log", NULL};

/* The criterion of LABELING.md on the table's layer view (the labeler
 * applies the healthy gate, not this):
 * Metadata time (META_TIME of the counted layers, every file) is at least
 * 30% of the job's I/O time, with at least 1,000 metadata operations
 * (opens, stats, seeks, syncs; Darshan has no close counter). */
/* The criterion's sums over the files added so far. */
struct mi_sums {
    double meta; /* seconds */
    double ops;  /* operations where the file system sees them (fl_meta_ops) */
};
_Static_assert(sizeof(struct mi_sums) <= IOS_CRITERION_SUMS, "sums fit");

static void add(void *sums, const struct fl_table *t, size_t from, size_t to)
{
    struct mi_sums *s = sums;
    for (size_t i = from; i < to; i++) {
        const struct fl_file *f = &t->files[i];
        for (int k = 0; k < FL_NLAYERS; k++)
            if (fl_counted(f, k))
                s->meta += f->L[k]->t_meta;
        s->ops = fl_meta_ops_add(s->ops, f);
    }
}

static void verdict(const void *sums, const struct fl_table *t, int *present,
                    double *value, char *ev, size_t size)
{
    const struct mi_sums *s = sums;
    double share = t->io_time > 0 ? s->meta / t->io_time : 0;
    *present = share >= 0.30 && s->ops >= IOSAGE_LABEL_MIN_OPS;
    *value = share;
    if (size == 0)
        return; /* the verdict alone (rule, with_reason 0) */
    char c[32], p[16];
    snprintf(ev, size, "metadata %s of I/O time, %s metadata ops",
             ios_fmt_label_pct(p, sizeof p, share),
             ios_fmt_label_count(c, sizeof c, s->ops));
}

static const struct iosage_criterion_steps steps = {add, verdict};

static void rule(const iosage_log *log, const iosage_file_table *t,
                 int with_reason, struct iosage_rule_verdict *v)
{
    (void)log;
    ios_rule_verdict_steps(&steps, t, with_reason, v);
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

/* Offline advice: the share of the I/O time, the main file and the change
 * (see src/advise/findings.c for the shares of every pattern). */
static void finding(const iosage_file_table *t, struct iosage_pattern_finding *f)
{
    double opens = 0.0, pairs = 0.0;
    for (size_t i = 0; i < t->n_rows; i++) {
        const struct iosage_file_row *r = &t->rows[i];
        if (!ios_row_top(r) || (r->flags & (IOSAGE_FILE_STREAM |
                                            IOSAGE_FILE_SYSTEM)))
            continue;
        opens += (double)r->opens;
        pairs += (double)(r->ranks > 0 ? r->ranks : 1);
    }
    f->share = ios_share(t->job.meta_time, t->job.io_time);
    f->row = -1;
    f->change_id = ios_ratio(opens, pairs) >= REPEATED_OPENS ? "batch_metadata"
                                                             : "fewer_files";
}

/* The change ids of docs/report.md for this pattern. */
/* The config-file settings each change looks for (offline advice). */
static const char *const keys_fewer_files[] = {
    "frames_per_outfile", "io_form_history", "NumAggregators", NULL};

static const struct iosage_pattern_change changes[] = {
    {"fewer_files",
     "Write fewer, larger files: put small outputs into one shared file (or "
     "an HDF5/ADIOS2 container) instead of one file each.",
     "Fewer creates, opens, stats and closes: the metadata time falls with "
     "the number of files.",
     "The files are required outputs in this form, e.g. per-step files read "
     "by other tools.",
     keys_fewer_files},
    {"batch_metadata",
     "Open each file once and keep it open, stat it once: no open/stat/close "
     "around every read or write.",
     "Metadata operations drop to a few per file, so metadata no longer "
     "dominates the I/O time.",
     "The files must be closed between accesses, e.g. other programs read "
     "them while the job runs.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* Floor (docs/report.md "Floors"): never reported, whatever a model's
 * score, below the metadata share of the job's I/O time: at least 20%,
 * two thirds of the criterion's 30%. It was 10% until 2026-12-05; 20% was
 * chosen by leave-one-kernel-out on data/hpc-runs: e3sm_like left out
 * 0.783 -> 0.804 (its small PnetCDF writes make a set_view each, 19% of the
 * I/O time, which the model took for metadata-heavy I/O), no other family,
 * split or real log changed; at 25% mdtest_like left out fell 0.907 ->
 * 0.554. The lowest share of a data/hpc-runs run labeled with the pattern
 * is 0.238 (fsmi_post_16).
 * And at least 750 metadata operations as the criterion counts them (three
 * quarters of its 1,000; lg(751) = 2.8756), since 2026-12-05: chosen by
 * leave-one-kernel-out among 100, 250, 500 and 750: e3sm_like left out
 * 0.804 -> 0.818, 0.826, 0.849, 0.882 (its small PnetCDF writes make 66-514
 * such operations, the rest is set_view time), no other family changed
 * (with the file_strategy floor's count: dlio_like 0.857 -> 0.900,
 * mdtest_like 0.907 -> 0.929). The fewest of a run labeled with the
 * pattern: 801 (fsmi_md_100_4). */
static const struct iosage_pattern_floor floors[] = {
    {"job_meta_time_share", 0.20, 1, "job_meta_ops_log", 2.8756,
     "metadata operations"},
    {NULL, 0.0, 0, NULL, 0.0, NULL},
};

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
    .steps = &steps,
    .finding = finding,
    .changes = changes,
    .advice_rank = 5,
    .floors = floors,
    .abbrev = "MI",
};
