/*
 * src/features/ranks.c - per-rank I/O time and bytes, estimated from the
 * records whose time counts in the job's I/O time (LABELING.md).
 *
 * A per-rank record adds its time and bytes to its rank. A rank -1 record
 * (every rank opened the file) gives its slowest rank F_SLOWEST_RANK_TIME
 * and SLOWEST_RANK_BYTES and spreads the rest evenly over the other ranks;
 * without those counters it spreads everything evenly. The even parts are
 * kept as one "baseline" for all ranks, so memory follows the number of
 * records, never nprocs.
 */
#include <stdlib.h>

#include "ios_features.h"

struct contrib {
    int64_t rank;
    double time, bytes;
};

struct acc {
    struct contrib *c;
    size_t n, cap;
    double base_time, base_bytes; /* added to every rank */
    int any_reduced;
};

static int push(struct acc *a, int64_t rank, double time, double bytes)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 64;
        struct contrib *g = realloc(a->c, cap * sizeof *g);
        if (!g)
            return -1;
        a->c = g;
        a->cap = cap;
    }
    a->c[a->n++] = (struct contrib){rank, time, bytes};
    return 0;
}

/* Split a rank -1 record between its slowest rank and the baseline. */
static int add_reduced(struct acc *a, const struct ios_layer *L,
                       const iosage_record *r, int64_t n, double t, double b)
{
    a->any_reduced |= t > 0.0 || b > 0.0;
    if (n <= 1)
        return push(a, 0, t, b);
    int64_t s = ios_cnt_raw(r, L->slowest_rank);
    double st = ios_fcnt(r, L->slowest_time);
    int64_t sb = ios_cnt_raw(r, L->slowest_bytes);
    int known = s >= 0 && s < n;
    double rest_t = t / (double)n, rest_b = b / (double)n;
    double own_t = 0.0, own_b = 0.0;
    if (known && st > 0.0) {
        rest_t = (t > st ? t - st : 0.0) / (double)(n - 1);
        own_t = st - rest_t;
    }
    if (known && sb >= 0) {
        rest_b = (b > (double)sb ? b - (double)sb : 0.0) / (double)(n - 1);
        own_b = (double)sb - rest_b;
    }
    a->base_time += rest_t;
    a->base_bytes += rest_b;
    if (own_t != 0.0 || own_b != 0.0)
        return push(a, s, own_t, own_b);
    return 0;
}

static int cmp_contrib(const void *pa, const void *pb)
{
    const struct contrib *a = pa, *b = pb;
    return a->rank < b->rank ? -1 : (a->rank > b->rank);
}

/* Fold sorted contributions into per-rank maxima. Ranks without their own
 * contribution have the baseline; they exist when fewer than nprocs ranks
 * contributed. Rank -1 in the result stands for such a rank. */
static void fold(struct acc *a, struct iosage_job_summary *js)
{
    if (a->n > 1)
        qsort(a->c, a->n, sizeof *a->c, cmp_contrib);
    int64_t distinct = 0, active = 0;
    double tmax = -1.0, bmax = -1.0;
    for (size_t i = 0; i < a->n;) {
        size_t j = i;
        double t = a->base_time, b = a->base_bytes;
        for (; j < a->n && a->c[j].rank == a->c[i].rank; j++) {
            t += a->c[j].time;
            b += a->c[j].bytes;
        }
        distinct++;
        active += t > 0.0 || b > 0.0;
        if (t > tmax) {
            tmax = t;
            js->rank_time_max_rank = a->c[i].rank;
        }
        if (b > bmax) {
            bmax = b;
            js->rank_bytes_max_rank = a->c[i].rank;
            js->rank_bytes_max_time = t;
        }
        i = j;
    }
    if (distinct < js->nprocs) {
        if (a->base_time > tmax) {
            tmax = a->base_time;
            js->rank_time_max_rank = -1;
        }
        if (a->base_bytes > bmax) {
            bmax = a->base_bytes;
            js->rank_bytes_max_rank = -1;
            js->rank_bytes_max_time = a->base_time;
        }
    }
    js->rank_time_max = tmax > 0.0 ? tmax : 0.0;
    js->rank_bytes_max = bmax > 0.0 ? bmax : 0.0;
    js->active_ranks = a->any_reduced ? js->nprocs : active;
}

/* Keep the folded contributions (sorted by fold) as the table's per-rank
 * estimate: one entry per rank in [0, nprocs), the baseline apart. */
static int keep_ranks(const struct acc *a, iosage_file_table *t)
{
    struct ios_ft_private *pv = t->priv;
    pv->base_time = a->base_time;
    pv->base_bytes = a->base_bytes;
    if (a->n == 0)
        return 0;
    pv->ranks = malloc(a->n * sizeof *pv->ranks);
    if (!pv->ranks)
        return -1;
    for (size_t i = 0; i < a->n;) {
        struct iosage_rank_io r = {a->c[i].rank, 0.0, 0.0};
        for (; i < a->n && a->c[i].rank == r.rank; i++) {
            r.time += a->c[i].time;
            r.bytes += a->c[i].bytes;
        }
        if (r.rank >= 0 && r.rank < t->job.nprocs)
            pv->ranks[pv->n_ranks++] = r;
    }
    return 0;
}

size_t iosage_file_table_ranks(const iosage_file_table *t,
                               const struct iosage_rank_io **ranks,
                               double *base_time, double *base_bytes)
{
    *ranks = t->priv->ranks;
    if (base_time)
        *base_time = t->priv->base_time;
    if (base_bytes)
        *base_bytes = t->priv->base_bytes;
    return t->priv->n_ranks;
}

/* Per-rank bytes of the per-rank records of data files: max and mean over
 * the ranks that have such records. */
static int unique_bytes(iosage_file_table *t, const struct ios_ref *refs,
                        const size_t *row_start)
{
    struct acc a = {0};
    for (size_t k = 0; k < t->n_rows; k++) {
        const struct iosage_file_row *row = &t->rows[k];
        if (!(row->flags & IOSAGE_FILE_COUNTED) ||
            !(row->flags & IOSAGE_FILE_DATA))
            continue;
        const struct ios_layer *L = ios_layer_of(row->module);
        for (size_t i = row_start[k]; i < row_start[k + 1]; i++) {
            const iosage_record *r = refs[i].rec;
            double b = (double)ios_cnt(r, L->bytes_read) +
                       (double)ios_cnt(r, L->bytes_written);
            if (r->rank >= 0 && push(&a, r->rank, 0.0, b) != 0) {
                free(a.c);
                return -1;
            }
        }
    }
    if (a.n > 1)
        qsort(a.c, a.n, sizeof *a.c, cmp_contrib);
    double max = 0.0, sum = 0.0;
    size_t ranks = 0;
    for (size_t i = 0; i < a.n;) {
        double b = 0.0;
        size_t j = i;
        for (; j < a.n && a.c[j].rank == a.c[i].rank; j++)
            b += a.c[j].bytes;
        ranks++;
        sum += b;
        max = b > max ? b : max;
        i = j;
    }
    t->priv->extra.unique_bytes_max = max;
    t->priv->extra.unique_bytes_mean = ranks ? sum / (double)ranks : 0.0;
    free(a.c);
    return 0;
}

int ios_ranks_estimate(iosage_file_table *t, const struct ios_ref *refs,
                       const size_t *row_start)
{
    struct acc a = {0};
    struct iosage_job_summary *js = &t->job;
    double total_t = 0.0, total_b = 0.0;
    for (size_t k = 0; k < t->n_rows; k++) {
        if (!(t->rows[k].flags & IOSAGE_FILE_COUNTED))
            continue;
        const struct ios_layer *L = ios_layer_of(t->rows[k].module);
        for (size_t i = row_start[k]; i < row_start[k + 1]; i++) {
            const iosage_record *r = refs[i].rec;
            double tm = ios_rec_time(L, r);
            double b = (double)ios_cnt(r, L->bytes_read) +
                       (double)ios_cnt(r, L->bytes_written);
            total_t += tm;
            total_b += b;
            int rc = r->rank < 0 ? add_reduced(&a, L, r, js->nprocs, tm, b)
                                 : push(&a, r->rank, tm, b);
            if (rc != 0) {
                free(a.c);
                return -1;
            }
        }
    }
    fold(&a, js);
    js->rank_time_mean = total_t / (double)js->nprocs;
    js->rank_bytes_mean = total_b / (double)js->nprocs;
    int rc = keep_ranks(&a, t);
    free(a.c);
    return rc != 0 ? rc : unique_bytes(t, refs, row_start);
}
