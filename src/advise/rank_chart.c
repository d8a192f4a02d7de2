/*
 * src/advise/rank_chart.c - per-rank I/O bytes and time for the report's
 * rank chart, from the per-rank estimate the file table already made for
 * the job summary (iosage_file_table_ranks): a rank's own part plus the
 * share every rank gets.
 *
 * At most CHART_RANKS ranks are listed: when the job has more, the busiest
 * (by time, then bytes, then lower rank) in rank order, with
 * "truncated": true.
 */
#include <stdlib.h>

#include "internal.h"

#define CHART_RANKS 256

struct busy {
    int64_t rank;
    double time, bytes;
};

/* Busiest first: time, then bytes, then lower rank. */
static int cmp_busy(const void *pa, const void *pb)
{
    const struct busy *a = pa, *b = pb;
    if (a->time != b->time)
        return a->time > b->time ? -1 : 1;
    if (a->bytes != b->bytes)
        return a->bytes > b->bytes ? -1 : 1;
    return a->rank < b->rank ? -1 : (a->rank > b->rank);
}

static int cmp_rank(const void *pa, const void *pb)
{
    const struct busy *a = pa, *b = pb;
    return a->rank < b->rank ? -1 : (a->rank > b->rank);
}

/* The candidates for the chart, in rank order: every rank with a part of
 * its own, and the lowest ranks without one, up to `want` of those (a rank
 * with only the common share can lose only to lower ranks of its kind).
 * Returns how many were written to out. */
static size_t candidates(const struct iosage_rank_io *own, size_t n_own,
                         int64_t nprocs, int64_t want, double bt, double bb,
                         struct busy *out)
{
    size_t n = 0, j = 0;
    int64_t plain = 0;
    for (int64_t r = 0; r < nprocs && (j < n_own || plain < want); r++) {
        if (j < n_own && own[j].rank == r) {
            out[n++] = (struct busy){r, own[j].time + bt, own[j].bytes + bb};
            j++;
        } else if (plain < want) {
            out[n++] = (struct busy){r, bt, bb};
            plain++;
        } else {
            r = own[j].rank - 1; /* skip to the next rank with its own part */
        }
    }
    return n;
}

json_t *adv_rank_chart(const iosage_file_table *t)
{
    const struct iosage_rank_io *own;
    double bt, bb;
    size_t n_own = iosage_file_table_ranks(t, &own, &bt, &bb);
    int64_t nprocs = t->job.nprocs > 0 ? t->job.nprocs : 1;
    int64_t k = nprocs < CHART_RANKS ? nprocs : CHART_RANKS;
    struct busy *list = malloc((n_own + (size_t)k) * sizeof *list);
    json_t *ra = json_array(), *ba = json_array(), *ta = json_array();
    int bad = !list || !ra || !ba || !ta;
    size_t n = bad ? 0 : candidates(own, n_own, nprocs, k, bt, bb, list);
    if (n > (size_t)k) {
        qsort(list, n, sizeof *list, cmp_busy);
        qsort(list, (size_t)k, sizeof *list, cmp_rank);
        n = (size_t)k;
    }
    for (size_t i = 0; !bad && i < n; i++) {
        bad |= json_array_append_new(ra, json_integer(list[i].rank)) != 0;
        bad |= json_array_append_new(ba, ios_json_real(list[i].bytes)) != 0;
        bad |= json_array_append_new(ta, ios_json_real(list[i].time)) != 0;
    }
    free(list);
    if (bad) {
        json_decref(ra), json_decref(ba), json_decref(ta);
        return NULL;
    }
    return json_pack("{s:o,s:o,s:o,s:b}", "rank", ra, "bytes", ba, "time", ta,
                     "truncated", nprocs > CHART_RANKS);
}
