/*
 * src/advise/findings.c - what offline advice knows about one detected
 * pattern: the share of the job's I/O time that carries it, the main file,
 * the evidence lines and the change id chosen from them.
 *
 * Shares (0..1), per pattern, from the per-file criteria of LABELING.md
 * (src/features/scan.c):
 *   access_granularity      time of the files with mostly small requests
 *   access_pattern          time of the files with >= 20% non-sequential ops
 *   interface_choice        time of the shared files written independently
 *   throughput_utilization  time of the files behind the chosen cause (syncs,
 *                           one OST, re-reads: the largest of the three)
 *   file_strategy           time of all data files
 *   metadata_intensity      metadata time
 *   parallelism_efficiency  the slowest rank's I/O time above the mean rank's,
 *                           as a share of the slowest rank's
 * Without timers, the share of data operations stands in (ios_material_share).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define SIEVE_MAX_REQUEST (64.0 * 1024.0) /* data sieving helps small pieces */
/* Large disjoint contiguous blocks, from which collective buffering has
 * nothing to merge: each rank's contiguous run of a shared file spans at
 * least four 1 MiB RPCs / Lustre default stripes (at most the stripes at
 * its ends are shared with another rank), in requests of at least a
 * quarter RPC (their count no longer sets the cost; smaller ones are the
 * small-request case collective buffering merges). */
#define LARGE_BLOCK (4.0 * 1024.0 * 1024.0)
#define LARGE_REQUEST (256.0 * 1024.0)
#define REPEATED_OPENS 3.0 /* opens per (file, rank): open/close per access */

/* The file's MPI-IO row (itself or its peer), or NULL. */
static const struct iosage_file_row *mpiio_row(const iosage_file_table *t,
                                               const struct iosage_file_row *r)
{
    if (r->module == IOSAGE_MOD_MPIIO)
        return r;
    if (r->peer >= 0 && (size_t)r->peer < t->n_rows &&
        t->rows[r->peer].module == IOSAGE_MOD_MPIIO)
        return &t->rows[r->peer];
    return NULL;
}

/* Is row r a file accessed mostly with independent MPI-IO calls? */
static int independent_mpiio(const iosage_file_table *t,
                             const struct iosage_file_row *r)
{
    const struct iosage_file_row *m = mpiio_row(t, r);
    return m && m->indep_ops > 0 && m->indep_ops >= m->coll_ops;
}

/* Share and main file of what scan s found, with change as the change id;
 * returns the main file's row, or NULL when there is none. */
static const struct iosage_file_row *from_scan(const iosage_file_table *t,
                                               const struct ios_scan *s,
                                               const char *change,
                                               struct adv_finding *f)
{
    f->share = ios_material_share(t, s->time, s->ops);
    f->row = s->top[0];
    f->change_id = change;
    return f->row >= 0 ? &t->rows[f->row] : NULL;
}

static void granularity(const iosage_file_table *t, struct adv_finding *f)
{
    struct ios_scan s;
    ios_scan_small(t, &s);
    const struct iosage_file_row *r = from_scan(t, &s, "larger_requests", f);
    if (r && (r->flags & IOSAGE_FILE_SHARED) && independent_mpiio(t, r))
        f->change_id = "collective_buffering";
}

static void pattern_order(const iosage_file_table *t, struct adv_finding *f)
{
    struct ios_scan s;
    ios_scan_nonseq(t, &s);
    const struct iosage_file_row *r = from_scan(t, &s, "sequential_access", f);
    if (r) {
        double ops = (double)r->reads + (double)r->writes;
        double avg = ios_ratio((double)r->bytes_read + (double)r->bytes_written,
                               ops);
        if (independent_mpiio(t, r) && avg > 0.0 && avg < SIEVE_MAX_REQUEST)
            f->change_id = "data_sieving";
    }
}

/* Bytes per contiguous run of one rank on the file of row r, from its
 * POSIX counters (a run starts at every access that does not continue the
 * rank's previous one), and bytes per request into *request; 0 when
 * unknown. */
static double run_bytes(const iosage_file_table *t, const struct iosage_file_row *r,
                        double *request)
{
    *request = 0.0;
    const struct iosage_file_row *px = r;
    if (r->module == IOSAGE_MOD_MPIIO)
        px = r->peer >= 0 && (size_t)r->peer < t->n_rows ? &t->rows[r->peer] : NULL;
    if (!px || px->module != IOSAGE_MOD_POSIX || px->consec_ops < 0)
        return 0.0;
    double ops = (double)px->reads + (double)px->writes;
    double runs = ops - (double)px->consec_ops;
    double ranks = (double)(px->ranks > 0 ? px->ranks : 1);
    if (runs < ranks)
        runs = ranks;
    double bytes = (double)px->bytes_read + (double)px->bytes_written;
    *request = ios_ratio(bytes, ops);
    return ios_ratio(bytes, runs);
}

/* Collective I/O is held back when its "when not to apply" holds: the ranks
 * move the shared file in large disjoint contiguous blocks, which reach the
 * servers as full RPCs without lock conflicts already; funnelled through
 * the aggregators they are slower (docs/pfs.md, validation). */
static void interface(const iosage_file_table *t, struct adv_finding *f)
{
    struct ios_scan s;
    ios_scan_indep_shared(t, &s);
    const struct iosage_file_row *r = from_scan(t, &s, "collective_io", f);
    double req = 0.0, run = r ? run_bytes(t, r, &req) : 0.0;
    if (run >= LARGE_BLOCK && req >= LARGE_REQUEST) {
        char b[32], q[32];
        f->held = 1;
        ios_ev_add(&f->ev, "collective I/O not proposed: each rank moves the "
                   "shared file in contiguous runs of %s in requests of %s on "
                   "average, large disjoint blocks that independent I/O "
                   "writes as well",
                   ios_fmt_bytes(b, sizeof b, run), ios_fmt_bytes(q, sizeof q, req));
    }
}

static void throughput(const iosage_file_table *t, struct adv_finding *f)
{
    struct ios_scan sync, ost, reread;
    ios_scan_syncs(t, &sync);
    ios_scan_single_ost(t, &ost);
    ios_scan_reread(t, &reread);
    double m_sync = sync.count > 0 ? ios_material_share(t, sync.time, sync.ops)
                                   : -1.0;
    double m_ost = ost.files > 0 ? ios_material_share(t, ost.time, ost.ops) : -1.0;
    double m_re = reread.files > 0
                      ? ios_material_share(t, reread.time, reread.ops) : -1.0;
    f->change_id = "drop_syncs";
    f->share = m_sync;
    f->row = sync.top[0];
    if (m_ost > f->share) {
        f->change_id = "stripe_wide";
        f->share = m_ost;
        f->row = ost.top[0];
    }
    if (m_re > f->share) {
        f->change_id = "read_once";
        f->share = m_re;
        f->row = reread.top[0];
    }
    if (f->share < 0.0) /* the model saw it, the criteria did not */
        f->share = 0.0;
}

/* Time of all data files; the main file is the busiest one. */
static void files(const iosage_file_table *t, struct adv_finding *f)
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
        ios_ev_add(&f->ev, "one shared file not proposed: the %lld data files "
                   "are on Lustre with a stripe count of 1, spread over the "
                   "targets; one shared file would sit on one target unless "
                   "striped wide first (lfs setstripe -c)", (long long)on_lustre);
    }
}

static void metadata(const iosage_file_table *t, struct adv_finding *f)
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

static void balance(const iosage_file_table *t, struct adv_finding *f)
{
    const struct iosage_job_summary *j = &t->job;
    f->share = ios_share(j->rank_time_max - j->rank_time_mean, j->rank_time_max);
    f->row = -1;
    f->change_id = "balance_io";
}

void adv_finding_make(const iosage_log *log, const iosage_file_table *t,
                      int k, double score, struct adv_finding *f)
{
    const struct iosage_pattern *p = iosage_pattern_get(k);
    memset(f, 0, sizeof *f);
    f->pattern = k;
    f->score = score;
    f->row = -1;
    /* a held-back change's reason comes first: evidence lines are capped */
    if (strcmp(p->id, "access_granularity") == 0)
        granularity(t, f);
    else if (strcmp(p->id, "access_pattern") == 0)
        pattern_order(t, f);
    else if (strcmp(p->id, "interface_choice") == 0)
        interface(t, f);
    else if (strcmp(p->id, "throughput_utilization") == 0)
        throughput(t, f);
    else if (strcmp(p->id, "file_strategy") == 0)
        files(t, f);
    else if (strcmp(p->id, "metadata_intensity") == 0)
        metadata(t, f);
    else
        balance(t, f);
    if (p->evidence)
        p->evidence(log, t, &f->ev);
    if (f->ev.n_lines == 0) {
        char pct[16];
        ios_ev_add(&f->ev, "no file meets the written criteria of this "
                   "pattern; the model's score is %.2f, %s of the I/O time "
                   "is involved", score, ios_fmt_pct(pct, sizeof pct, f->share));
    }
}

static int cmp_finding(const void *pa, const void *pb)
{
    const struct adv_finding *a = pa, *b = pb;
    if (a->held != b->held)
        return a->held ? 1 : -1;
    long sa = lround(100.0 * a->share), sb = lround(100.0 * b->share);
    if (sa != sb)
        return sa > sb ? -1 : 1;
    int oa = adv_pattern_order(iosage_pattern_get(a->pattern)->id);
    int ob = adv_pattern_order(iosage_pattern_get(b->pattern)->id);
    if (oa != ob)
        return oa < ob ? -1 : 1;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    return a->pattern - b->pattern;
}

void adv_findings_sort(struct adv_finding *f, int n)
{
    if (n > 1)
        qsort(f, (size_t)n, sizeof *f, cmp_finding);
}
