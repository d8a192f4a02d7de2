/*
 * src/patterns/p_file_strategy.c - too many files for the work.
 *
 * Criterion (LABELING.md; the rule below is src/label/criteria.c): at least 1,000 data files; or at least 64 data files,
 * at least one per rank, with a median size under 4 MiB; or at least 10 data
 * files per rank and at least 64 data files. And the data files carry at
 * least 10% of the job's I/O time.
 */
#include "ios_patterns.h"

static const char *const key_features[] = {
    "file_per_rank_log", "file_unique_per_rank_log", "file_median_size_log",
    "file_small_share", "file_shared_share", "job_meta_time_share",
    "meta_opens_per_file_rank_log", NULL};

/* The criterion of LABELING.md, as the labeler (src/label) applies it,
 * without the healthy gate: one implementation of the criteria. */
static void rule(const iosage_log *log, const iosage_file_table *t,
                 struct iosage_rule_verdict *v)
{
    (void)t;
    ios_label_rule(log, IOSAGE_LABEL_FILE_STRATEGY, v);
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
};
