/*
 * src/features/ranks.c - the job summary's per-rank fields (rank_* and
 * active_ranks of struct iosage_job_summary), read from the one per-rank
 * estimate of the log: the per-rank sums of the layer view (file_layers.c,
 * LABELING.md), which the labeling criteria read too. A rank's own records
 * count for it; of a shared (rank -1) record its slowest rank gets
 * *_SLOWEST_RANK_TIME, its fastest *_FASTEST_RANK_TIME, and every rank an
 * equal part of the rest; bytes the same way, on data files.
 *
 * Besides: the per-rank bytes of the per-rank records of data files
 * (unique_bytes_max and _mean), which have no shared part.
 */
#include <stdint.h>
#include <stdlib.h>

#include "ios_bigmem.h"
#include "ios_features.h"
#include "ios_file_layers.h"
#include "ios_sort.h"

/* The rank for the summary: -1 ("every rank") when the rank of most time or
 * bytes is one without an entry of its own, which all such ranks tie. */
static int64_t named(const struct fl_table *fl, int64_t r)
{
    return fl_rank_listed(fl, r) ? r : -1;
}

/* Ranks that did any I/O: those with an entry and time or bytes, and every
 * other rank when the part every rank has is not nothing. */
static int64_t active_ranks(const struct fl_table *fl)
{
    int64_t active = 0;
    for (size_t i = 0; i < fl->n_ranks; i++)
        active += fl->ranks[i].time + fl->rest_time > 0.0 ||
                  fl->ranks[i].bytes + fl->rest_bytes > 0.0;
    if (fl->rest_time > 0.0 || fl->rest_bytes > 0.0)
        active += fl->nprocs - (int64_t)fl->n_ranks;
    return active;
}

/* See features.h. */
size_t iosage_file_table_ranks(const iosage_file_table *t,
                               const struct iosage_rank_io **ranks,
                               double *base_time, double *base_bytes)
{
    const struct fl_table *fl = ios_ft_layers(t);
    *ranks = fl->ranks;
    if (base_time)
        *base_time = fl->rest_time;
    if (base_bytes)
        *base_bytes = fl->rest_bytes;
    return fl->n_ranks;
}

/* v[0..n) sorted by rank, entries of a rank in the order they came (the
 * stable radix sort by the distance from the smallest rank). 0, or -1 when
 * out of memory. */
static int sort_by_rank(struct ios_rank_bytes **v, size_t n)
{
    struct ios_sort_pair *p = ios_big_malloc((n ? n : 1) * sizeof *p);
    if (!p)
        return -1;
    int64_t min_rank = INT64_MAX;
    for (size_t i = 0; i < n; i++)
        min_rank = (*v)[i].rank < min_rank ? (*v)[i].rank : min_rank;
    for (size_t i = 0; i < n; i++)
        p[i] = (struct ios_sort_pair){(uint64_t)(*v)[i].rank - (uint64_t)min_rank, i};
    struct ios_rank_bytes *sorted =
        ios_sort_pairs(p, n) == 0 ? ios_sort_gather(*v, n, sizeof **v, p) : NULL;
    free(p);
    if (!sorted)
        return -1;
    free(*v);
    *v = sorted;
    return 0;
}

/* See ios_features.h. */
int ios_unique_bytes_row(struct ios_unique_bytes *u, const iosage_file_table *t,
                         size_t k, const struct ios_ref *refs, size_t from,
                         size_t to)
{
    const struct iosage_file_row *row = &t->rows[k];
    if (!(row->flags & IOSAGE_FILE_COUNTED) || !(row->flags & IOSAGE_FILE_DATA))
        return 0;
    const struct ios_layer *L = ios_layer_of(row->module);
    for (size_t i = from; i < to; i++) {
        const iosage_record *r = refs[i].rec;
        if (r->rank < 0)
            continue;
        if (u->n == u->cap) {
            struct ios_rank_bytes *g = ios_big_grow(u->v, &u->cap, sizeof *g, 64);
            if (!g)
                return -1;
            u->v = g;
        }
        u->v[u->n++] = (struct ios_rank_bytes){
            r->rank, (double)ios_cnt(r, L->bytes_read) +
                         (double)ios_cnt(r, L->bytes_written)};
    }
    return 0;
}

/* A rank's bytes when they are summed in an array by rank
 * (IOS_DENSE_RANKS). */
struct rank_bytes_sum {
    double bytes;
    int named; /* some record of the rank is there */
};

/* Max and mean of the rank sums of v[0..n), ranks min .. min + span - 1,
 * summed in an array by rank: 1, or 0 when memory for the array is refused
 * (the sort does it then). */
static int unique_bytes_dense(iosage_file_table *t,
                              const struct ios_rank_bytes *v, size_t n,
                              int64_t min, uint64_t span)
{
    struct rank_bytes_sum *d = ios_big_calloc((size_t)span, sizeof *d);
    if (!d)
        return 0;
    for (size_t i = 0; i < n; i++) {
        struct rank_bytes_sum *e = &d[(uint64_t)v[i].rank - (uint64_t)min];
        e->bytes += v[i].bytes;
        e->named = 1;
    }
    double max = 0.0, sum = 0.0;
    size_t ranks = 0;
    for (uint64_t r = 0; r < span; r++) {
        if (!d[r].named)
            continue;
        ranks++;
        sum += d[r].bytes;
        max = d[r].bytes > max ? d[r].bytes : max;
    }
    free(d);
    t->priv->extra.unique_bytes_max = max;
    t->priv->extra.unique_bytes_mean = ranks ? sum / (double)ranks : 0.0;
    return 1;
}

/* Per-rank bytes of the per-rank records of data files (u, filled row by
 * row): max and mean over the ranks that have any. */
static int unique_bytes(iosage_file_table *t, struct ios_unique_bytes *u)
{
    size_t n = u->n;
    if (n > 1) {
        int64_t lo = u->v[0].rank, hi = u->v[0].rank;
        for (size_t i = 1; i < n; i++) {
            lo = u->v[i].rank < lo ? u->v[i].rank : lo;
            hi = u->v[i].rank > hi ? u->v[i].rank : hi;
        }
        uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
        if (span != 0 && (span <= IOS_DENSE_RANKS || span <= n) &&
            unique_bytes_dense(t, u->v, n, lo, span))
            return 0;
    }
    if (n > 1 && sort_by_rank(&u->v, n) != 0)
        return -1;
    const struct ios_rank_bytes *v = u->v;
    double max = 0.0, sum = 0.0;
    size_t ranks = 0;
    for (size_t i = 0; i < n;) {
        double b = 0.0;
        size_t j = i;
        for (; j < n && v[j].rank == v[i].rank; j++)
            b += v[j].bytes;
        ranks++;
        sum += b;
        max = b > max ? b : max;
        i = j;
    }
    t->priv->extra.unique_bytes_max = max;
    t->priv->extra.unique_bytes_mean = ranks ? sum / (double)ranks : 0.0;
    return 0;
}

int ios_ranks_estimate(iosage_file_table *t, struct ios_unique_bytes *u)
{
    const struct fl_table *fl = ios_ft_layers(t);
    struct iosage_job_summary *js = &t->job;
    struct fl_ranks k;
    fl_rank_summary(fl, &k);
    js->rank_time_max = fl_rank_time(fl, k.slowest);
    js->rank_time_max_rank = named(fl, k.slowest);
    js->rank_bytes_max = fl_rank_bytes(fl, k.biggest);
    js->rank_bytes_max_rank = named(fl, k.biggest);
    js->rank_bytes_max_time = fl_rank_time(fl, k.biggest);
    js->rank_time_mean = k.sum_time / (double)fl->nprocs;
    js->rank_bytes_mean = k.sum_bytes / (double)fl->nprocs;
    js->active_ranks = active_ranks(fl);
    int rc = unique_bytes(t, u);
    free(u->v);
    *u = (struct ios_unique_bytes){0};
    return rc;
}
