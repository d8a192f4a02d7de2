/*
 * src/patterns/p_file_strategy.c - too many files for the work.
 *
 * Criterion (LABELING.md; add() and verdict() below):
 * at least 1,000 data files; or at least 64 data files,
 * at least one per rank, with a median size under 4 MiB; or at least 10 data
 * files per rank and at least 64 data files. And the data files carry at
 * least 10% of the job's I/O time.
 */
#include <stdio.h>

#include "ios_patterns.h"
#include "ios_sort.h"

static const char *const key_features[] = {
    "file_per_rank_log", "file_unique_per_rank_log", "file_median_size_log",
    "file_small_share", "file_shared_share", "job_meta_time_share",
    "meta_opens_per_file_rank_log", NULL};

/* The criterion of LABELING.md on the table's layer view (the labeler
 * applies the healthy gate, not this):
 * Too many files for the work: >= 1,000 data files; or >= 64 with at least
 * one per rank and a median size under 4 MiB; or >= 10 per rank and >= 64;
 * and those files are material. */
/* The criterion's sums over the files added so far; the data files' sizes
 * go to t->scratch (t->n entries), n of them so far. */
struct fs_sums {
    int64_t n;
    double time, fops;
};
_Static_assert(sizeof(struct fs_sums) <= IOS_CRITERION_SUMS, "sums fit");

static void add(void *sums, const struct fl_table *t, size_t from, size_t to)
{
    struct fs_sums *s = sums;
    double *sizes = t->scratch;
    for (size_t i = from; i < to; i++) {
        const struct fl_file *f = &t->files[i];
        if (!fl_is_data(f))
            continue;
        int64_t ext = fl_file_extent(f);
        if (ext <= 0) {
            ext = 0;
            for (int k = 0; k < FL_NLAYERS; k++)
                if (f->L[k]->bytes_r + f->L[k]->bytes_w > ext)
                    ext = f->L[k]->bytes_r + f->L[k]->bytes_w;
        }
        sizes[s->n++] = (double)ext;
        s->time += fl_file_time(f);
        s->fops += (double)fl_file_ops(f);
    }
}

static void verdict(const void *sums, const struct fl_table *t, int *present,
                    double *value, char *ev, size_t size)
{
    const struct fs_sums *s = sums;
    int64_t n = s->n;
    double median = n > 0 ? ios_median(t->scratch, (size_t)n) : 0.0;
    double per_rank = (double)n / (double)t->nprocs;
    int many = n >= 1000 || (n >= 64 && per_rank >= 1 && median < 4 * IOS_MIB) ||
               (per_rank >= 10 && n >= 64);
    double mat = fl_material(t, s->time, s->fops);
    *present = many && mat >= IOSAGE_LABEL_MATERIAL;
    *value = (double)n;
    if (size == 0)
        return; /* the verdict alone (rule, with_reason 0) */
    char p[16], b[32];
    snprintf(ev, size, "%lld data files (%.3g per rank, median %s), %s of I/O time",
             (long long)n, per_rank, ios_fmt_label_bytes(b, sizeof b, median),
             ios_fmt_label_pct(p, sizeof p, mat));
}

static const struct iosage_criterion_steps steps = {add, verdict};

static void rule(const iosage_log *log, const iosage_file_table *t,
                 int with_reason, struct iosage_rule_verdict *v)
{
    (void)log;
    ios_rule_verdict_steps(&steps, t, with_reason, v);
}

static void evidence(const iosage_log *log, const iosage_file_table *t,
                     struct iosage_evidence *ev)
{
    (void)log;
    const struct iosage_job_summary *j = &t->job;
    const struct ios_ft_extra *x = &t->priv->extra;
    char b[32], p[16];
    ios_ev_add(ev, "%lld data files for %lld ranks (%.2f per rank), %s of I/O time",
               (long long)j->data_files, (long long)j->nprocs,
               ios_ratio((double)j->data_files, (double)j->nprocs),
               ios_fmt_pct(p, sizeof p, ios_share(x->data_time, j->io_time)));
    ios_ev_add(ev, "%lld opened by one rank each, %lld shared; median size %s, "
               "%lld under 4 MiB",
               (long long)x->files_unique, (long long)x->files_shared,
               ios_fmt_bytes(b, sizeof b, x->median_size),
               (long long)x->files_small);
    ios_ev_add(ev, "%s of the I/O time is metadata (opens, stats, seeks)",
               ios_fmt_pct(p, sizeof p, ios_share(j->meta_time, j->io_time)));
}

/* Offline advice: the share of the I/O time, the main file and the change
 * (see src/advise/findings.c for the shares of every pattern). */
/* Time of all data files; the main file is the busiest one. */
static void finding(const iosage_file_table *t, struct iosage_pattern_finding *f)
{
    double time = 0.0;
    int64_t ops = 0;
    f->row = -1;
    for (size_t i = 0; i < t->n_rows; i++) {
        const struct iosage_file_row *r = &t->rows[i];
        if (!(r->flags & IOSAGE_FILE_DATA) || !(r->flags & IOSAGE_FILE_COUNTED))
            continue;
        time += r->io_time;
        ops = ios_sadd(ops, ios_sadd(r->reads, r->writes));
        if (f->row < 0)
            f->row = (int)i;
    }
    f->share = ios_material_share(t, time, ops);
    f->change_id = "shared_file";
    /* On Lustre with the default stripe count of 1, the separate files
     * spread over the targets and one shared file would sit on one: held
     * back unless the files are striped wider (docs/pfs.md, validation). */
    int64_t on_lustre = 0, widest = 0;
    for (size_t i = 0; i < t->n_rows; i++) {
        const struct iosage_file_row *r = &t->rows[i];
        if (!(r->flags & IOSAGE_FILE_DATA) || r->lustre_stripe_count < 1)
            continue;
        on_lustre++;
        if (r->lustre_stripe_count > widest)
            widest = r->lustre_stripe_count;
    }
    if (on_lustre >= 2 && widest == 1) {
        f->held = 1;
        snprintf(f->held_why, sizeof f->held_why, "one shared file not "
                 "proposed: the %lld data files are on Lustre with a stripe "
                 "count of 1, spread over the targets; one shared file would "
                 "sit on one target unless striped wide first (lfs setstripe "
                 "-c)", (long long)on_lustre);
    }
}

/* The change ids of docs/report.md for this pattern. */
/* The config-file settings each change looks for (offline advice). */
static const char *const keys_shared_file[] = {
    "io_form_history", "io_form_restart", "NumAggregators", "AggregatorRatio",
    NULL};

static const struct iosage_pattern_change changes[] = {
    {"shared_file",
     "Write one shared file with collective MPI-IO, or use HDF5/ADIOS2 "
     "aggregation, instead of a file per process.",
     "The number of files no longer grows with the number of ranks: fewer "
     "creates and opens, and larger requests.",
     "Downstream tools need one file per process, or the shared file would "
     "sit on fewer storage targets than the separate files (Lustre's default "
     "stripe count is 1): stripe it wide first, or it is slower.",
     keys_shared_file},
    {NULL, NULL, NULL, NULL, NULL},
};

/* Floor (docs/report.md "Floors"): never reported, whatever a model's
 * score, below data files per rank: at least 0.05 (one file per 20 ranks;
 * lg(0.05) = 0.0212); and, since 2026-12-05, below 64 data files, which
 * every branch of the criterion wants (lg(65) = 1.8129): h_md_many_4 (4
 * ranks, 12 files each) was reported when mdtest_like was left out
 * (healthy flagged 0.118 -> 0). The fewest of a run labeled with the
 * pattern: 64 (fs_md_4, fs_ior_fpp_64). */
static const struct iosage_pattern_floor floors[] = {
    {"file_per_rank_log", 0.0212, 0, "job_data_files_log", 1.8129,
     "data files"},
    {NULL, 0.0, 0, NULL, 0.0, NULL},
};

const struct iosage_pattern ios_pattern_file_strategy = {
    .id = "file_strategy",
    .name = "Too many files",
    .behaviour = "The job creates or opens many files for the work it does, "
                 "often one or more per rank and many of them small.",
    .change = "Write fewer, shared files with collective MPI-IO, or use a "
              "library that aggregates (HDF5, ADIOS2).",
    .not_applicable = "Downstream tools need one file per process, or the "
                      "shared file would sit on fewer storage targets than "
                      "the separate files (Lustre's default stripe count is "
                      "1): stripe it wide first.",
    .key_features = key_features,
    .evidence = evidence,
    .rule = rule,
    .steps = &steps,
    .finding = finding,
    .changes = changes,
    .advice_rank = 2,
    .floors = floors,
    .abbrev = "FS",
};
