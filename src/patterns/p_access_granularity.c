/*
 * src/patterns/p_access_granularity.c - many small reads or writes.
 *
 * Criterion (LABELING.md; add() and verdict() below):
 * requests under 1 MiB are at least half of the reads
 * or of the writes of the data files that carry them, at least 1,000 such
 * requests in the job, and those files carry at least 10% of the job's I/O
 * time. Requests are counted as the file system saw them: POSIX/DFS and
 * STDIO rows, and MPI-IO rows only for files without a POSIX row (collective
 * buffering can turn few large MPI-IO requests into many small POSIX ones,
 * and the reverse).
 */
#include <stdio.h>
#include <stdlib.h>

#include "ios_patterns.h"

static const char *const key_features[] = {
    "job_small_op_share", "job_small_file_time_share", "posix_small_write_share",
    "posix_small_read_share", "posix_tiny_op_share", "mpiio_small_op_share",
    "posix_write_size_log", "posix_read_size_log", NULL};

/* The model sees only the key features and these, the other inputs of the
 * criterion (training's feature_sets, src/model/train.c). */
static const char *const model_features[] = {
    "job_small_ops_per_rank_log", "stdio_small_op_share", "mpiio_op_size_log",
    "posix_read_0_100_share", "posix_read_100_1k_share",
    "posix_read_1k_10k_share", "posix_read_10k_100k_share",
    "posix_read_100k_1m_share", "posix_read_1m_4m_share",
    "posix_read_4m_10m_share", "posix_read_10m_plus_share",
    "posix_write_0_100_share", "posix_write_100_1k_share",
    "posix_write_1k_10k_share", "posix_write_10k_100k_share",
    "posix_write_100k_1m_share", "posix_write_1m_4m_share",
    "posix_write_4m_10m_share", "posix_write_10m_plus_share", NULL};

/* The criterion of LABELING.md on the table's layer view (the labeler
 * applies the healthy gate, not this):
 * Small requests are at least half of the reads (or writes) of the data
 * files that carry them, at least 1,000 such requests, and those files are
 * material. Counted per file and direction at the POSIX level (what the
 * file system sees; MPI-IO only when there is no POSIX record) plus STDIO.
 * The time that must be material is the read (write) time of the files
 * whose reads (writes) are small, at the layer whose time counts. */
static double small_dir(const struct fl_layer *l, int wr)
{
    double small = wr ? l->small_w : l->small_r;
    double ops = (double)(wr ? l->writes : l->reads);
    return small > 0 && small >= 0.5 * ops ? small : 0;
}

/* The criterion's sums over the files added so far. */
struct ag_sums {
    double n_small, all_small, all_ops, time, ops;
    int64_t files;
};
_Static_assert(sizeof(struct ag_sums) <= IOS_CRITERION_SUMS, "sums fit");

static void add(void *sums, const struct fl_table *t, size_t from, size_t to)
{
    struct ag_sums *s = sums;
    for (size_t i = from; i < to; i++) {
        const struct fl_file *f = &t->files[i];
        if (!fl_is_data(f))
            continue;
        const struct fl_layer *low = fl_low_layer(f), *st = f->L[FL_STDIO];
        int carries = 0;
        for (int wr = 0; wr < 2; wr++) {
            double n = small_dir(low, wr) + small_dir(st, wr);
            if (n <= 0)
                continue;
            s->n_small += n;
            carries = 1;
            s->time += fl_dir_time(f, wr);
            s->ops += fl_dir_ops(f, wr);
        }
        s->files += carries;
        s->all_small += low->small_r + low->small_w + st->small_r + st->small_w;
        s->all_ops += (double)(low->reads + low->writes + st->reads + st->writes);
    }
}

static void verdict(const void *sums, const struct fl_table *t, int *present,
                    double *value, char *ev, size_t size)
{
    const struct ag_sums *s = sums;
    double mat = fl_material(t, s->time, s->ops);
    *present = s->n_small >= IOSAGE_LABEL_MIN_OPS && mat >= IOSAGE_LABEL_MATERIAL;
    *value = mat;
    if (size == 0)
        return; /* the verdict alone (rule, with_reason 0) */
    char c[32], p1[16], p2[16];
    snprintf(ev, size,
             "%s requests <1 MiB on %lld data file(s) where they are >= half of "
             "reads or writes, %s of I/O time (data ops: %s small)",
             ios_fmt_label_count(c, sizeof c, s->n_small), (long long)s->files,
             ios_fmt_label_pct(p1, sizeof p1, mat),
             ios_fmt_label_pct(p2, sizeof p2,
                               s->all_ops > 0 ? s->all_small / s->all_ops : 0));
}

static const struct iosage_criterion_steps steps = {add, verdict};

static void rule(const iosage_log *log, const iosage_file_table *t,
                 int with_reason, struct iosage_rule_verdict *v)
{
    (void)log;
    ios_rule_verdict_steps(&steps, t, with_reason, v);
}

/* "<file>: 98% of 1.2 M writes under 1 MiB (average 4.0 KiB), 71% of I/O
 * time" for the direction with more small requests. */
static void one_line(const iosage_file_table *t, const struct iosage_file_row *r,
                     struct iosage_evidence *ev)
{
    int wr = r->small_writes >= r->small_reads;
    double ops = (double)(wr ? r->writes : r->reads);
    double small = (double)(wr ? r->small_writes : r->small_reads);
    double bytes = (double)(wr ? r->bytes_written : r->bytes_read);
    char lab[200], p1[16], c[32], avg[32], p2[16];
    ios_ev_add(ev, "%s: %s of %s %s %s under 1 MiB (average %s), %s of I/O time",
               ios_file_label(lab, sizeof lab, r),
               ios_fmt_pct(p1, sizeof p1, ios_share(small, ops)),
               ios_fmt_count(c, sizeof c, ops), iosage_module_name(r->module),
               wr ? "writes" : "reads",
               ios_fmt_bytes(avg, sizeof avg, ios_ratio(bytes, ops)),
               ios_fmt_pct(p2, sizeof p2,
                           ios_material_share(t, r->file_time,
                                              ios_sadd(r->reads, r->writes))));
}

static void evidence(const iosage_log *log, const iosage_file_table *t,
                     struct iosage_evidence *ev)
{
    (void)log;
    struct ios_scan s;
    ios_scan_small(t, &s);
    for (int k = 0; k < 3 && s.top[k] >= 0; k++)
        one_line(t, &t->rows[s.top[k]], ev);
}

/* Offline advice: the share of the I/O time, the main file and the change
 * (see src/advise/findings.c for the shares of every pattern). Larger
 * requests are held back when the small requests are already whole files:
 * the files that show the pattern are moved in at most two requests each
 * on average (one write, one read), so no request can grow without fewer,
 * larger files, which file_strategy and metadata_intensity propose. Seen
 * under emulation on mi_stat_storm (1,600 files of 4 KiB, each written and
 * read once): larger_requests was the top change and had nothing to change
 * (docs/pfs.md, validation). */
static void finding(const iosage_file_table *t, struct iosage_pattern_finding *f)
{
    struct ios_scan s;
    ios_scan_small(t, &s);
    const struct iosage_file_row *r = ios_finding_from_scan(t, &s, "larger_requests", f);
    if (r && (r->flags & IOSAGE_FILE_SHARED) && ios_independent_mpiio(t, r))
        f->change_id = "collective_buffering";
    else if (r && s.files >= 2 && (double)s.ops <= 2.0 * (double)s.files) {
        f->held = 1;
        snprintf(f->held_why, sizeof f->held_why, "larger requests not "
                 "proposed: the %lld files with small requests are moved in "
                 "%lld requests, at most two a file: each request is already "
                 "a whole file, and only fewer, larger files make them "
                 "larger", (long long)s.files, (long long)s.ops);
    }
}

/* The change ids of docs/report.md for this pattern. */
/* The config-file settings each change looks for (offline advice). */
static const char *const keys_collective_buffering[] = {
    "romio_cb_write", "romio_cb_read", "io_form_history", "io_form_restart",
    "OPENPMD_HDF5_INDEPENDENT", NULL};

static const struct iosage_pattern_change changes[] = {
    {"larger_requests",
     "Make requests of at least 1 MiB: raise the transfer size, or buffer "
     "small writes in memory and write them in large blocks.",
     "Fewer requests for the same bytes: the per-request cost, which sets "
     "the I/O time now, shrinks roughly with the request count.",
     "The small requests carry only a negligible share of the I/O time, or "
     "memory cannot hold a larger buffer.", NULL},
    {"collective_buffering",
     "Use collective MPI-IO (MPI_File_write_all / MPI_File_read_all) so that "
     "aggregator ranks merge the small requests, with collective buffering "
     "on (romio_cb_write=enable, romio_cb_read=enable).",
     "The file system sees a few large requests from the aggregators instead "
     "of many small ones from every rank.",
     "The ranks cannot call the I/O collectively (they write at different "
     "times), or the small requests carry a negligible share of the I/O time.",
     keys_collective_buffering},
    {NULL, NULL, NULL, NULL, NULL},
};

/* Floor (docs/report.md "Floors"): never reported, whatever a model's
 * score, below the share of the job's I/O time in data files whose requests are mostly small: at least 5%. */
static const struct iosage_pattern_floor floors[] = {
    {"job_small_file_time_share", 0.05, 1, NULL, 0.0, NULL},
    {NULL, 0.0, 0, NULL, 0.0, NULL},
};

const struct iosage_pattern ios_pattern_access_granularity = {
    .id = "access_granularity",
    .name = "Small I/O requests",
    .behaviour = "The job reads or writes in many small requests (under "
                 "1 MiB), so the cost per request, not the bandwidth, sets "
                 "its I/O time.",
    .change = "Make transfers of at least 1 MiB: buffer and aggregate small "
              "writes in memory, read larger blocks, or let collective MPI-IO "
              "(or the I/O library) merge the requests.",
    .not_applicable = "The small requests carry only a negligible share of "
                      "the I/O time.",
    .key_features = key_features,
    .model_features = model_features,
    .evidence = evidence,
    .rule = rule,
    .steps = &steps,
    .finding = finding,
    .changes = changes,
    .advice_rank = 3,
    .floors = floors,
    .abbrev = "AG",
};
