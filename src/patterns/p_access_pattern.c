/*
 * src/patterns/p_access_pattern.c - nonsequential offsets.
 *
 * Criterion (LABELING.md; add() and verdict() below):
 * in data files where at least 20% of the POSIX data
 * operations are not sequential (SEQ_READS/SEQ_WRITES count every access
 * that starts after the previous one ended, so strided-but-forward access is
 * sequential), there are at least 1,000 such operations, and those files
 * carry at least 10% of the job's I/O time.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ios_patterns.h"

#define SIEVE_MAX_REQUEST (64.0 * 1024.0) /* data sieving helps small pieces */

static const char *const key_features[] = {
    "posix_nonseq_op_share", "posix_nonseq_file_time_share",
    "posix_seq_read_share", "posix_seq_write_share", "posix_consec_read_share",
    "posix_consec_write_share", "posix_stride_top4_share",
    "posix_rw_switches_per_op", NULL};

/* The criterion of LABELING.md on the table's layer view (the labeler
 * applies the healthy gate, not this):
 * At least 20% of a data file's reads (or writes) are not sequential (offset
 * below the previous end: ops - SEQ_*), at least 1,000 such operations, and
 * their read (write) time is material. Only POSIX keeps SEQ counters. */
/* The criterion's sums over the files added so far. */
struct ap_sums {
    double nonseq, all_ns, all_ops, time, fops;
    int64_t files;
};
_Static_assert(sizeof(struct ap_sums) <= IOS_CRITERION_SUMS, "sums fit");

static void add(void *sums, const struct fl_table *t, size_t from, size_t to)
{
    struct ap_sums *s = sums;
    for (size_t i = from; i < to; i++) {
        const struct fl_file *f = &t->files[i];
        const struct fl_layer *l = f->L[FL_POSIX];
        if (!fl_is_data(f) || !l->has_seq)
            continue;
        int carries = 0;
        for (int wr = 0; wr < 2; wr++) {
            double ops = (double)(wr ? l->writes : l->reads);
            double ns = ops - (double)(wr ? l->seq_w : l->seq_r);
            ns = ns > 0 ? ns : 0;
            s->all_ns += ns;
            s->all_ops += ops;
            if (ops <= 0 || ns < 0.20 * ops)
                continue;
            s->nonseq += ns;
            carries = 1;
            s->time += fl_dir_time(f, wr);
            s->fops += fl_dir_ops(f, wr);
        }
        s->files += carries;
    }
}

static void verdict(const void *sums, const struct fl_table *t, int *present,
                    double *value, char *ev, size_t size)
{
    const struct ap_sums *s = sums;
    double mat = fl_material(t, s->time, s->fops);
    *present = s->nonseq >= IOSAGE_LABEL_MIN_OPS && mat >= IOSAGE_LABEL_MATERIAL;
    *value = mat;
    if (size == 0)
        return; /* the verdict alone (rule, with_reason 0) */
    char c[32], p1[16], p2[16];
    snprintf(ev, size,
             "%s non-sequential ops on %lld data file(s) >= 20%% non-sequential, "
             "%s of I/O time (data ops: %s non-seq)",
             ios_fmt_label_count(c, sizeof c, s->nonseq), (long long)s->files,
             ios_fmt_label_pct(p1, sizeof p1, mat),
             ios_fmt_label_pct(p2, sizeof p2,
                               s->all_ops > 0 ? s->all_ns / s->all_ops : 0));
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
    struct ios_scan s;
    char lab[200], p1[16], c1[32], c2[32], p2[16];
    ios_scan_nonseq(t, &s);
    for (int k = 0; k < 3 && s.top[k] >= 0; k++) {
        const struct iosage_file_row *r = &t->rows[s.top[k]];
        double ops = (double)r->reads + (double)r->writes;
        double nonseq = ops - (double)r->seq_ops;
        ios_ev_add(ev, "%s: %s of %s POSIX ops not sequential (%s), %s of I/O time",
                   ios_file_label(lab, sizeof lab, r),
                   ios_fmt_pct(p1, sizeof p1, ios_share(nonseq, ops)),
                   ios_fmt_count(c1, sizeof c1, ops),
                   ios_fmt_count(c2, sizeof c2, nonseq),
                   ios_fmt_pct(p2, sizeof p2,
                               ios_material_share(t, r->file_time, ios_d2i(ops))));
    }
}

/* Offline advice: the share of the I/O time, the main file and the change
 * (see src/advise/findings.c for the shares of every pattern). */
static void finding(const iosage_file_table *t, struct iosage_pattern_finding *f)
{
    struct ios_scan s;
    ios_scan_nonseq(t, &s);
    const struct iosage_file_row *r = ios_finding_from_scan(t, &s, "sequential_access", f);
    if (r) {
        double ops = (double)r->reads + (double)r->writes;
        double avg = ios_ratio((double)r->bytes_read + (double)r->bytes_written,
                               ops);
        if (ios_independent_mpiio(t, r) && avg > 0.0 && avg < SIEVE_MAX_REQUEST)
            f->change_id = "data_sieving";
    }
}

/* The change ids of docs/report.md for this pattern. */
/* The config-file settings each change looks for (offline advice). */
static const char *const keys_data_sieving[] = {
    "romio_ds_read", "romio_ds_write", NULL};

static const struct iosage_pattern_change changes[] = {
    {"sequential_access",
     "Sort the offsets and access each file in order (or in large contiguous "
     "blocks) instead of jumping around.",
     "Sequential access lets read-ahead and write-behind work, and larger "
     "contiguous requests replace scattered ones.",
     "The data layout fixes the order (e.g. the reader needs random samples).", NULL},
    {"data_sieving",
     "Let MPI-IO sieve noncontiguous accesses (romio_ds_read=enable, "
     "romio_ds_write=enable) or use collective reads.",
     "ROMIO reads one large extent and picks the pieces out in memory "
     "instead of issuing many small, scattered requests.",
     "The pieces are sparse in a large extent: sieving would read far more "
     "data than needed.",
     keys_data_sieving},
    {NULL, NULL, NULL, NULL, NULL},
};

/* Floor (docs/report.md "Floors"): never reported, whatever a model's
 * score, below the share of the job's I/O time in data files with at least 20%
 * non-sequential operations: at least 5%. */
static const struct iosage_pattern_floor floors[] = {
    {"posix_nonseq_file_time_share", 0.05, 1, NULL, 0.0, NULL},
    {NULL, 0.0, 0, NULL, 0.0, NULL},
};

const struct iosage_pattern ios_pattern_access_pattern = {
    .id = "access_pattern",
    .name = "Non-sequential access",
    .behaviour = "Requests jump backwards in the file instead of moving "
                 "forward, which defeats read-ahead and write-behind.",
    .change = "Sort or batch the offsets so that each rank accesses the file "
              "in increasing order; for scattered small reads use MPI-IO data "
              "sieving.",
    .not_applicable = "The data layout fixes the order, or sieving would "
                      "read far more data than is needed.",
    .key_features = key_features,
    .evidence = evidence,
    .rule = rule,
    .steps = &steps,
    .finding = finding,
    .changes = changes,
    .advice_rank = 4,
    .floors = floors,
    .abbrev = "AP",
};
