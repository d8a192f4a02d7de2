/*
 * src/rules/rules.c - the Drishti-like threshold baseline: Drishti's
 * thresholds (small requests, non-sequential ops, metadata time, rank
 * imbalance, missing collective I/O, syncs) mapped onto the seven pattern
 * ids, without a healthy gate, and the result as JSON. The thresholds and
 * what each one is computed from are listed in iosage/rules.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "ios_features.h"
#include "iosage/rules.h"
#include "ios_patterns.h"

/* Per-rank sums of the rank-private POSIX records, and the rank -1 ones. */
struct rank_acc {
    int64_t rank;
    double bytes; /* data-file bytes read + written */
    double meta;  /* POSIX_F_META_TIME, every file */
};

struct rank_scan {
    double meta_max;       /* slowest rank's metadata time (estimate) */
    int64_t meta_max_rank; /* -1 when only rank -1 records carry it */
    double shared_imb;     /* largest shared-file byte imbalance */
    int64_t shared_files;  /* shared data files above IOSAGE_RULES_IMBALANCE */
    double unique_imb;     /* (max - min) / max of per-rank private bytes */
    int64_t unique_ranks;  /* ranks with private data bytes */
};

static int cmp_rank(const void *a, const void *b)
{
    const struct rank_acc *x = a, *y = b;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* A data file by its name: not a stream, not a system file. */
static int is_data_name(const iosage_log *log, uint64_t id)
{
    return ios_classify_path(iosage_log_name(log, id)) == 0;
}

/* Fold the sorted per-rank pieces into s (meta plus shared meta / nprocs). */
static void fold_ranks(struct rank_acc *a, size_t n, double shared_meta,
                       int64_t nprocs, struct rank_scan *s)
{
    double share = shared_meta / (double)(nprocs > 0 ? nprocs : 1);
    double bmax = 0.0, bmin = 0.0;
    s->meta_max = share;
    s->meta_max_rank = -1;
    if (n > 1)
        qsort(a, n, sizeof *a, cmp_rank);
    for (size_t i = 0; i < n;) {
        double b = 0.0, m = 0.0;
        size_t j = i;
        for (; j < n && a[j].rank == a[i].rank; j++) {
            b += a[j].bytes;
            m += a[j].meta;
        }
        if (m + share > s->meta_max) {
            s->meta_max = m + share;
            s->meta_max_rank = a[i].rank;
        }
        if (b > 0.0) {
            bmax = s->unique_ranks == 0 || b > bmax ? b : bmax;
            bmin = s->unique_ranks == 0 || b < bmin ? b : bmin;
            s->unique_ranks++;
        }
        i = j;
    }
    s->unique_imb = s->unique_ranks > 1 ? ios_share(bmax - bmin, bmax) : 0.0;
}

/* One pass over the POSIX records: per-rank metadata time and bytes, and
 * the shared files' slowest/fastest rank bytes. Returns 0 or -1 (memory). */
static int scan_ranks(const iosage_log *log, int64_t nprocs, struct rank_scan *s)
{
    const iosage_module_data *m = &log->modules[IOSAGE_MOD_POSIX];
    const struct ios_layer *L = ios_layer_of(IOSAGE_MOD_POSIX);
    memset(s, 0, sizeof *s);
    struct rank_acc *a = m->n_records ? malloc(m->n_records * sizeof *a) : NULL;
    if (m->n_records && !a)
        return -1;
    size_t n = 0;
    double shared_meta = 0.0;
    for (size_t i = 0; i < m->n_records; i++) {
        const iosage_record *r = &m->records[i];
        double meta = ios_fcnt(r, IOSAGE_POSIX_F_META_TIME);
        double b = (double)ios_cnt(r, L->bytes_read) +
                   (double)ios_cnt(r, L->bytes_written);
        int data = b > 0.0 && is_data_name(log, r->id);
        if (r->rank >= 0) {
            a[n].rank = r->rank;
            a[n].bytes = data ? b : 0.0;
            a[n++].meta = meta;
            continue;
        }
        shared_meta += meta;
        if (!data || nprocs < 2)
            continue;
        double sb = (double)ios_cnt(r, IOSAGE_POSIX_SLOWEST_RANK_BYTES);
        double fb = (double)ios_cnt(r, IOSAGE_POSIX_FASTEST_RANK_BYTES);
        double hi = sb > fb ? sb : fb;
        double imb = ios_share(hi - (sb > fb ? fb : sb), hi);
        s->shared_imb = imb > s->shared_imb ? imb : s->shared_imb;
        s->shared_files += imb > IOSAGE_RULES_IMBALANCE;
    }
    fold_ranks(a, n, shared_meta, nprocs, s);
    free(a);
    return 0;
}

/* Sums over the rows of the table that the thresholds need. */
struct row_sums {
    int64_t reads, writes, small_reads, small_writes; /* POSIX/DFS level */
    int64_t posix_ops, posix_seq;  /* POSIX rows with sequential counters */
    int64_t posix_writes, syncs;   /* POSIX rows: writes, fsync+fdatasync */
    int64_t mpiio_ops, mpiio_coll; /* MPI-IO rows */
    int64_t sh_writes, sh_small;   /* shared data files written without
                                      collective MPI-IO */
    int64_t sh_files;
    int64_t reread_files;          /* data files read > 2x their extent */
    double reread_max;             /* largest bytes read / extent */
};

/* Does the row's file have collective MPI-IO operations? */
static int row_collective(const iosage_file_table *t,
                          const struct iosage_file_row *r)
{
    if (r->module == IOSAGE_MOD_MPIIO)
        return r->coll_ops > 0;
    return r->peer >= 0 && (size_t)r->peer < t->n_rows &&
           t->rows[r->peer].coll_ops > 0;
}

static void sum_row(const iosage_file_table *t, const struct iosage_file_row *r,
                    struct row_sums *s)
{
    int fs = ios_row_fs_level(r) && r->module != IOSAGE_MOD_STDIO;
    if (fs) {
        s->reads = ios_sadd(s->reads, r->reads);
        s->writes = ios_sadd(s->writes, r->writes);
        s->small_reads = ios_sadd(s->small_reads, r->small_reads);
        s->small_writes = ios_sadd(s->small_writes, r->small_writes);
    }
    if (r->module == IOSAGE_MOD_POSIX) {
        if (r->seq_ops >= 0) {
            s->posix_ops = ios_sadd(s->posix_ops, ios_sadd(r->reads, r->writes));
            s->posix_seq = ios_sadd(s->posix_seq, r->seq_ops);
        }
        s->posix_writes = ios_sadd(s->posix_writes, r->writes);
        s->syncs = ios_sadd(s->syncs, r->syncs);
    }
    if (r->module == IOSAGE_MOD_MPIIO) {
        s->mpiio_ops = ios_sadd(s->mpiio_ops, ios_sadd(r->reads, r->writes));
        s->mpiio_coll = ios_sadd(s->mpiio_coll, r->coll_ops);
    }
    if (!fs || !(r->flags & IOSAGE_FILE_DATA))
        return;
    if ((r->flags & IOSAGE_FILE_SHARED) && r->writes > 0 && !row_collective(t, r)) {
        s->sh_writes = ios_sadd(s->sh_writes, r->writes);
        s->sh_small = ios_sadd(s->sh_small, r->small_writes);
        s->sh_files++;
    }
    if (r->bytes_read > 0 && r->max_byte_read >= 0) {
        double ratio = (double)r->bytes_read / ((double)r->max_byte_read + 1.0);
        s->reread_files += ratio > IOSAGE_RULES_REREAD;
        s->reread_max = ratio > s->reread_max ? ratio : s->reread_max;
    }
}

/* x > share of `of` and > min_n. */
static int over(int64_t x, int64_t of, double share, int64_t min_n)
{
    return x > min_n && (double)x > share * (double)of;
}

static void set(struct iosage_rule_pattern *p, int hold, double value,
                const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void set(struct iosage_rule_pattern *p, int hold, double value,
                const char *fmt, ...)
{
    va_list ap;
    p->detected = p->rule_holds = hold != 0;
    p->value = isfinite(value) ? value : 0.0;
    va_start(ap, fmt);
    vsnprintf(p->reason, sizeof p->reason, fmt, ap);
    va_end(ap);
}

static void rule_granularity(const struct row_sums *s, struct iosage_rule_pattern *p)
{
    char a[16], b[16];
    int r = over(s->small_reads, s->reads, IOSAGE_RULES_SMALL, IOSAGE_RULES_ABS);
    int w = over(s->small_writes, s->writes, IOSAGE_RULES_SMALL, IOSAGE_RULES_ABS);
    double rs = ios_share((double)s->small_reads, (double)s->reads);
    double ws = ios_share((double)s->small_writes, (double)s->writes);
    set(p, r || w, r && (!w || rs >= ws) ? rs : w ? ws : (rs > ws ? rs : ws),
        "%lld of %lld reads (%s) and %lld of %lld writes (%s) under 1 MiB; "
        "threshold > 10%% and > 1000 of reads or of writes",
        (long long)s->small_reads, (long long)s->reads, ios_fmt_pct(a, sizeof a, rs),
        (long long)s->small_writes, (long long)s->writes,
        ios_fmt_pct(b, sizeof b, ws));
}

static void rule_metadata(const struct rank_scan *k, struct iosage_rule_pattern *p)
{
    char a[32];
    set(p, k->meta_max > IOSAGE_RULES_META_SECS, k->meta_max,
        "slowest rank's POSIX metadata time %s (rank %lld; rank -1 records "
        "split evenly); threshold > 30 s",
        ios_fmt_secs(a, sizeof a, k->meta_max), (long long)k->meta_max_rank);
}

static void rule_parallelism(const struct rank_scan *k, struct iosage_rule_pattern *p)
{
    char a[16], b[16];
    int sh = k->shared_files > 0;
    int un = k->unique_imb > IOSAGE_RULES_IMBALANCE;
    set(p, sh || un, k->shared_imb > k->unique_imb ? k->shared_imb : k->unique_imb,
        "%lld shared file(s) with slowest/fastest rank bytes apart > 15%% "
        "(largest %s); rank-private bytes (max - min) / max %s over %lld ranks",
        (long long)k->shared_files, ios_fmt_pct(a, sizeof a, k->shared_imb),
        ios_fmt_pct(b, sizeof b, k->unique_imb), (long long)k->unique_ranks);
}

static void rule_pattern(const struct row_sums *s, struct iosage_rule_pattern *p)
{
    char a[16];
    int64_t nonseq = s->posix_ops > s->posix_seq ? s->posix_ops - s->posix_seq : 0;
    double share = ios_share((double)nonseq, (double)s->posix_ops);
    set(p, over(nonseq, s->posix_ops, IOSAGE_RULES_NONSEQ, IOSAGE_RULES_ABS), share,
        "%lld of %lld POSIX ops non-sequential (%s); threshold > 20%% and > 1000",
        (long long)nonseq, (long long)s->posix_ops, ios_fmt_pct(a, sizeof a, share));
}

static void rule_interface(const struct row_sums *s, struct iosage_rule_pattern *p)
{
    char a[16];
    int nocoll = s->mpiio_coll == 0 && s->mpiio_ops > IOSAGE_RULES_ABS;
    int shsmall = over(s->sh_small, s->sh_writes, IOSAGE_RULES_SMALL, IOSAGE_RULES_ABS);
    double share = ios_share((double)s->sh_small, (double)s->sh_writes);
    set(p, nocoll || shsmall, nocoll ? (double)s->mpiio_ops : share,
        "MPI-IO: %lld ops, %lld collective (threshold: none of > 1000); %lld "
        "shared file(s) written without collective I/O: %lld of %lld writes "
        "under 1 MiB (%s; threshold > 10%% and > 1000)",
        (long long)s->mpiio_ops, (long long)s->mpiio_coll, (long long)s->sh_files,
        (long long)s->sh_small, (long long)s->sh_writes, ios_fmt_pct(a, sizeof a, share));
}

static void rule_files(const iosage_file_table *t, struct iosage_rule_pattern *p)
{
    const struct iosage_job_summary *j = &t->job;
    double per_rank = ios_ratio((double)j->data_files, (double)j->nprocs);
    set(p, per_rank > IOSAGE_RULES_FILES_PER_RANK && j->data_files > IOSAGE_RULES_ABS,
        per_rank,
        "%lld data files, %.3g per rank; threshold > 10 per rank and > 1000 files",
        (long long)j->data_files, per_rank);
}

static void rule_throughput(const struct row_sums *s, struct iosage_rule_pattern *p)
{
    char a[16];
    int sy = over(s->syncs, s->posix_writes, IOSAGE_RULES_SYNC, IOSAGE_RULES_SYNC_ABS);
    double share = ios_ratio((double)s->syncs, (double)s->posix_writes);
    set(p, sy || s->reread_files > 0, sy ? share : s->reread_max,
        "%lld fsync/fdatasync for %lld POSIX writes (%s; threshold > 10%% and "
        "> 100); %lld data file(s) read > 2x their extent (largest %.3gx)",
        (long long)s->syncs, (long long)s->posix_writes, ios_fmt_pct(a, sizeof a, share),
        (long long)s->reread_files, s->reread_max);
}

/* The pattern slot of id in out, or NULL (a pattern without a threshold). */
static struct iosage_rule_pattern *slot(struct iosage_rule_result *out, const char *id)
{
    for (int i = 0; i < out->n_patterns; i++)
        if (strcmp(out->patterns[i].id, id) == 0)
            return &out->patterns[i];
    return NULL;
}

static void evaluate(const iosage_file_table *t, const struct rank_scan *k,
                     struct iosage_rule_result *out)
{
    const struct iosage_job_summary *j = &t->job;
    char p[16], s1[32], s2[32];
    out->nprocs = j->nprocs;
    out->run_time = j->run_time;
    out->io_time = j->io_time;
    out->slowest_rank_io_share = ios_share(j->rank_time_max, j->run_time);
    out->gated = 0;
    snprintf(out->summary, sizeof out->summary,
             "Drishti-like thresholds, no healthy gate; nprocs %lld, run %s, I/O %s "
             "summed over ranks; slowest rank %s of the run in I/O",
             (long long)j->nprocs, ios_fmt_secs(s1, sizeof s1, j->run_time),
             ios_fmt_secs(s2, sizeof s2, j->io_time),
             ios_fmt_pct(p, sizeof p, out->slowest_rank_io_share));
    struct row_sums s;
    memset(&s, 0, sizeof s);
    for (size_t i = 0; i < t->n_rows; i++)
        sum_row(t, &t->rows[i], &s);
    out->n_patterns = iosage_pattern_count();
    for (int i = 0; i < out->n_patterns; i++) {
        out->patterns[i].id = iosage_pattern_get(i)->id;
        snprintf(out->patterns[i].reason, sizeof out->patterns[i].reason,
                 "no Drishti-like threshold");
    }
    struct iosage_rule_pattern *q;
    if ((q = slot(out, "access_granularity")))
        rule_granularity(&s, q);
    if ((q = slot(out, "metadata_intensity")))
        rule_metadata(k, q);
    if ((q = slot(out, "parallelism_efficiency")))
        rule_parallelism(k, q);
    if ((q = slot(out, "access_pattern")))
        rule_pattern(&s, q);
    if ((q = slot(out, "interface_choice")))
        rule_interface(&s, q);
    if ((q = slot(out, "file_strategy")))
        rule_files(t, q);
    if ((q = slot(out, "throughput_utilization")))
        rule_throughput(&s, q);
    out->healthy = 1;
    for (int i = 0; i < out->n_patterns; i++)
        out->healthy &= !out->patterns[i].detected;
}

iosage_status iosage_rules_eval(const iosage_log *log, const iosage_file_table *t,
                                struct iosage_rule_result *out)
{
    if (!log || !out)
        return IOSAGE_E_USAGE;
    memset(out, 0, sizeof *out);
    iosage_file_table *own = NULL;
    if (!t) {
        iosage_status st = iosage_file_table_build(log, &own, NULL);
        if (st != IOSAGE_OK)
            return st;
        t = own;
    }
    struct rank_scan k;
    if (scan_ranks(log, t->job.nprocs, &k) != 0) {
        iosage_file_table_free(own);
        return IOSAGE_E_NOMEM;
    }
    evaluate(t, &k, out);
    iosage_file_table_free(own);
    return IOSAGE_OK;
}
