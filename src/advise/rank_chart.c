/*
 * src/advise/rank_chart.c - per-rank I/O bytes and time for the report's
 * rank chart, estimated the way src/features/ranks.c does for the job
 * summary: a rank's own records, plus its part of the rank -1 records (the
 * slowest rank of such a record gets F_SLOWEST_RANK_TIME and
 * SLOWEST_RANK_BYTES, every other rank an equal part of the rest). Only
 * records of rows whose time counts in the job's I/O time are used.
 *
 * At most CHART_RANKS ranks are listed: when the job has more, the busiest
 * (by time, then bytes) in rank order, with "truncated": true.
 */
#include <stdlib.h>

#include "advise/internal.h"

#define CHART_RANKS 256
#define MAX_RANKS (1 << 20) /* ranks with their own slot in the estimate;
                               records of higher ranks are left out */

struct ranks {
    int64_t n;
    double *time, *bytes;
    double base_time, base_bytes; /* every rank's part of rank -1 records */
};

/* The counted rows as (id, module) keys, sorted, to look records up. */
struct key {
    uint64_t id;
    int module;
};

static int cmp_key(const void *pa, const void *pb)
{
    const struct key *a = pa, *b = pb;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    return a->module - b->module;
}

static int counted(const struct key *keys, size_t n, uint64_t id, int module)
{
    struct key k = {id, module};
    return bsearch(&k, keys, n, sizeof k, cmp_key) != NULL;
}

static void add_record(struct ranks *rk, const struct ios_layer *L,
                       const iosage_record *r)
{
    double t = ios_rec_time(L, r);
    double b = (double)ios_cnt(r, L->bytes_read) + (double)ios_cnt(r, L->bytes_written);
    if (r->rank >= 0) {
        if (r->rank < rk->n) {
            rk->time[r->rank] += t;
            rk->bytes[r->rank] += b;
        }
        return;
    }
    int64_t n = rk->n;
    if (n <= 1) {
        rk->time[0] += t;
        rk->bytes[0] += b;
        return;
    }
    int64_t s = ios_cnt_raw(r, L->slowest_rank);
    double st = ios_fcnt(r, L->slowest_time);
    int64_t sb = ios_cnt_raw(r, L->slowest_bytes);
    int known = s >= 0 && s < n;
    double rest_t = t / (double)n, rest_b = b / (double)n;
    if (known && st > 0.0) {
        rest_t = (t > st ? t - st : 0.0) / (double)(n - 1);
        rk->time[s] += st - rest_t;
    }
    if (known && sb >= 0) {
        rest_b = (b > (double)sb ? b - (double)sb : 0.0) / (double)(n - 1);
        rk->bytes[s] += (double)sb - rest_b;
    }
    rk->base_time += rest_t;
    rk->base_bytes += rest_b;
}

static void estimate(const iosage_log *log, const struct key *keys,
                     size_t n_keys, struct ranks *rk)
{
    static const int mods[] = {IOSAGE_MOD_POSIX, IOSAGE_MOD_MPIIO,
                               IOSAGE_MOD_STDIO, IOSAGE_MOD_DFS};
    for (size_t m = 0; m < sizeof mods / sizeof mods[0]; m++) {
        const struct ios_layer *L = ios_layer_of(mods[m]);
        const iosage_module_data *md = &log->modules[mods[m]];
        for (size_t i = 0; L && i < md->n_records; i++)
            if (counted(keys, n_keys, md->records[i].id, mods[m]))
                add_record(rk, L, &md->records[i]);
    }
}

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

static json_t *chart_json(const struct ranks *rk, int capped)
{
    int64_t n = rk->n, k = n < CHART_RANKS ? n : CHART_RANKS;
    struct busy *order = malloc((size_t)n * sizeof *order);
    json_t *ra = json_array(), *ba = json_array(), *ta = json_array();
    int bad = !order || !ra || !ba || !ta;
    for (int64_t i = 0; !bad && i < n; i++)
        order[i] = (struct busy){i, rk->time[i], rk->bytes[i]};
    if (!bad && n > CHART_RANKS) {
        qsort(order, (size_t)n, sizeof *order, cmp_busy);
        qsort(order, (size_t)k, sizeof *order, cmp_rank);
    }
    for (int64_t i = 0; !bad && i < k; i++) {
        int64_t r = order[i].rank;
        bad |= json_array_append_new(ra, json_integer(r)) != 0;
        bad |= json_array_append_new(ba, adv_real(rk->bytes[r] + rk->base_bytes)) != 0;
        bad |= json_array_append_new(ta, adv_real(rk->time[r] + rk->base_time)) != 0;
    }
    free(order);
    if (bad) {
        json_decref(ra), json_decref(ba), json_decref(ta);
        return NULL;
    }
    return json_pack("{s:o,s:o,s:o,s:b}", "rank", ra, "bytes", ba, "time", ta,
                     "truncated", n > CHART_RANKS || capped);
}

json_t *adv_rank_chart(const iosage_log *log, const iosage_file_table *t)
{
    struct ranks rk = {0};
    rk.n = t->job.nprocs > 0 ? t->job.nprocs : 1;
    if (rk.n > MAX_RANKS)
        rk.n = MAX_RANKS;
    rk.time = calloc((size_t)rk.n, sizeof *rk.time);
    rk.bytes = calloc((size_t)rk.n, sizeof *rk.bytes);
    struct key *keys = malloc((t->n_rows ? t->n_rows : 1) * sizeof *keys);
    json_t *out = NULL;
    if (rk.time && rk.bytes && keys) {
        size_t n = 0;
        for (size_t i = 0; i < t->n_rows; i++)
            if (t->rows[i].flags & IOSAGE_FILE_COUNTED)
                keys[n++] = (struct key){t->rows[i].id, t->rows[i].module};
        if (n > 1)
            qsort(keys, n, sizeof *keys, cmp_key);
        estimate(log, keys, n, &rk);
        out = chart_json(&rk, t->job.nprocs > rk.n);
    }
    free(rk.time), free(rk.bytes), free(keys);
    return out;
}
