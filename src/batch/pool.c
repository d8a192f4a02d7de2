/*
 * src/batch/pool.c - iosage_batch_run: a pool of threads over the logs of a
 * list, rows handed back in input order.
 *
 * The list is cut into windows of p->window logs. For each window:
 *
 *   schedule   the window's indices, largest file first
 *   workers    threads take schedule positions from one atomic counter
 *              into groups of up to IOSAGE_BATCH_GROUP logs (one model
 *              call per group), smaller as the schedule runs out
 *              (iosage_batch_group_bytes), and fill rows[index - first];
 *              a log larger
 *              than IOSAGE_BATCH_BIG_LOG is analysed alone under the `big`
 *              mutex, so at most one such log is in memory at a time
 *              (and, with p->render, writes each row out as text, so
 *              that the one thread that hands the rows back only copies)
 *   hand-back  after the workers are joined, on_row() sees the window's
 *              rows in input order, and each row is cleared
 *
 * So memory holds one window of rows plus one decoded log per thread, and
 * the rows come out in the same order for any thread count.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ios_common.h"
#include "iosage/batch.h"

#define DEFAULT_WINDOW 65536
#define PROGRESS_SECONDS 0.2

struct pool {
    const iosage_model *m;
    const iosage_batch_list *list;
    const struct iosage_batch_run_params *p;
    size_t first;                 /* the window's first list index */
    size_t *order;                /* its schedule (count entries) */
    int64_t *tail;                /* iosage_batch_tail_bytes of order */
    size_t count;
    struct iosage_batch_row *rows; /* rows[i - first] */
    atomic_size_t next;           /* next schedule position */
    atomic_size_t done, errors;   /* over the whole batch */
    atomic_int stop;              /* a fatal failure: no new logs */
    pthread_mutex_t big;          /* held while analysing a big log */
    pthread_mutex_t lock;         /* fatal, err, times, last_report */
    iosage_status fatal;
    iosage_error err;
    struct iosage_batch_times times;
    double last_report;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Report progress when PROGRESS_SECONDS have passed since the last report. */
static void maybe_report(struct pool *pl)
{
    if (!pl->p->on_progress)
        return;
    double t = now();
    pthread_mutex_lock(&pl->lock);
    if (t - pl->last_report >= PROGRESS_SECONDS) {
        pl->last_report = t;
        pl->p->on_progress(pl->p->progress_ctx, atomic_load(&pl->done),
                           atomic_load(&pl->errors), pl->list->n);
    }
    pthread_mutex_unlock(&pl->lock);
}

/* Record a fatal failure (the first one wins) and stop the workers. */
static void set_fatal(struct pool *pl, iosage_status st,
                      const iosage_error *err)
{
    pthread_mutex_lock(&pl->lock);
    if (pl->fatal == IOSAGE_OK) {
        pl->fatal = st;
        pl->err = *err;
    }
    pthread_mutex_unlock(&pl->lock);
    atomic_store(&pl->stop, 1);
}

/* Analyse the n list items idx[] into their rows, scored in one model
 * call; big: one big log, analysed under the big mutex. */
static void process(struct pool *pl, const size_t *idx, size_t n, int big,
                    struct iosage_batch_times *t)
{
    struct iosage_batch_row *rows[IOSAGE_BATCH_GROUP];
    for (size_t j = 0; j < n; j++)
        rows[j] = &pl->rows[idx[j] - pl->first];
    iosage_error err;
    if (big)
        pthread_mutex_lock(&pl->big);
    iosage_status st = iosage_batch_analyze_many(pl->m, pl->list, idx, n,
                                                 rows, t, &err);
    if (big)
        pthread_mutex_unlock(&pl->big);
    if (st != IOSAGE_OK)
        set_fatal(pl, st, &err);
    for (size_t j = 0; st == IOSAGE_OK && pl->p->render && j < n; j++) {
        if (iosage_batch_row_render(rows[j], pl->p->render_format) != 0) {
            st = ios_fail(&err, IOSAGE_E_NOMEM, NULL, "batch", -1,
                          "out of memory formatting the rows");
            set_fatal(pl, st, &err);
        }
    }
    size_t errors = 0;
    for (size_t j = 0; j < n; j++)
        errors += rows[j]->status == IOSAGE_BATCH_ERROR;
    atomic_fetch_add(&pl->errors, errors);
    atomic_fetch_add(&pl->done, n);
    maybe_report(pl);
}

/* Take schedule positions into a group of at most IOSAGE_BATCH_GROUP logs
 * and iosage_batch_group_bytes of files; a big log met on the way is
 * analysed alone at once. Returns the group's size (0: the schedule is
 * used up). */
static size_t take_group(struct pool *pl, size_t *idx,
                         struct iosage_batch_times *t)
{
    size_t n = 0;
    int64_t bytes = 0, cap = 1;
    while (n < IOSAGE_BATCH_GROUP && bytes < cap && !atomic_load(&pl->stop)) {
        size_t k = atomic_fetch_add(&pl->next, 1);
        if (k >= pl->count)
            break;
        if (n == 0)
            cap = iosage_batch_group_bytes(pl->tail[k], pl->p->threads);
        size_t i = pl->order[k];
        int64_t size = pl->list->items[i].size;
        if (size > IOSAGE_BATCH_BIG_LOG) {
            process(pl, &i, 1, 1, t);
            continue;
        }
        idx[n++] = i;
        bytes += size > 0 ? size : 0;
    }
    return n;
}

static void *worker(void *arg)
{
    struct pool *pl = arg;
    struct iosage_batch_times t;
    memset(&t, 0, sizeof t);
    size_t idx[IOSAGE_BATCH_GROUP], n;
    while (!atomic_load(&pl->stop) && (n = take_group(pl, idx, &t)) > 0)
        process(pl, idx, n, 0, &t);
    pthread_mutex_lock(&pl->lock);
    pl->times.read += t.read;
    pl->times.decode += t.decode;
    pl->times.features += t.features;
    pl->times.predict += t.predict;
    pl->times.logs += t.logs;
    pthread_mutex_unlock(&pl->lock);
    return NULL;
}

/* Run the workers over the current window; the calling thread is one of
 * them. IOSAGE_E_INTERNAL when no thread could be started. */
static iosage_status run_workers(struct pool *pl, int threads,
                                 iosage_error *err)
{
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    if (!tid)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "batch", -1,
                        "out of memory");
    int started = 0;
    for (int i = 1; i < threads; i++) {
        if (pthread_create(&tid[i], NULL, worker, pl) != 0)
            break; /* fewer threads: the batch still completes */
        started = i;
    }
    worker(pl);
    for (int i = 1; i <= started; i++)
        pthread_join(tid[i], NULL);
    free(tid);
    return IOSAGE_OK;
}

/* Analyse list[first .. first+count) and hand the rows to on_row. */
static iosage_status run_window(struct pool *pl, size_t first, size_t count,
                                iosage_error *err)
{
    pl->first = first;
    pl->count = count;
    pl->order = iosage_batch_schedule(pl->list, first, count);
    pl->tail = pl->order ? iosage_batch_tail_bytes(pl->list, pl->order, count)
                         : NULL;
    if (!pl->tail) {
        free(pl->order);
        pl->order = NULL;
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "batch", -1,
                        "out of memory");
    }
    atomic_store(&pl->next, 0);
    iosage_status st = run_workers(pl, pl->p->threads, err);
    free(pl->order);
    free(pl->tail);
    pl->order = NULL;
    pl->tail = NULL;
    if (st == IOSAGE_OK && pl->fatal != IOSAGE_OK) {
        st = pl->fatal;
        if (err)
            *err = pl->err;
    }
    for (size_t i = 0; i < count; i++) {
        if (st == IOSAGE_OK && pl->p->on_row(pl->p->row_ctx, &pl->rows[i]))
            st = ios_fail(err, IOSAGE_E_USAGE, NULL, "batch", -1,
                          "stopped by the caller");
        iosage_batch_row_clear(&pl->rows[i]);
    }
    return st;
}

iosage_status iosage_batch_run(const iosage_model *m,
                               const iosage_batch_list *list,
                               const struct iosage_batch_run_params *p,
                               iosage_error *err)
{
    if (!m || !list || !p || !p->on_row || p->threads < 1)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "batch", -1,
                        "iosage_batch_run: no model, list, callback or "
                        "threads");
    size_t window = p->window ? p->window : DEFAULT_WINDOW;
    struct pool pl;
    memset(&pl, 0, sizeof pl);
    pl.m = m;
    pl.list = list;
    pl.p = p;
    pl.last_report = now();
    size_t cap = list->n < window ? list->n : window;
    pl.rows = calloc(cap ? cap : 1, sizeof *pl.rows);
    if (!pl.rows)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "batch", -1,
                        "out of memory");
    pthread_mutex_init(&pl.big, NULL);
    pthread_mutex_init(&pl.lock, NULL);
    iosage_status st = IOSAGE_OK;
    for (size_t first = 0; st == IOSAGE_OK && first < list->n;
         first += window) {
        size_t count = list->n - first < window ? list->n - first : window;
        st = run_window(&pl, first, count, err);
    }
    if (p->on_progress)
        p->on_progress(p->progress_ctx, atomic_load(&pl.done),
                       atomic_load(&pl.errors), list->n);
    if (p->times) {
        p->times->read += pl.times.read;
        p->times->decode += pl.times.decode;
        p->times->features += pl.times.features;
        p->times->predict += pl.times.predict;
        p->times->logs += pl.times.logs;
    }
    pthread_mutex_destroy(&pl.big);
    pthread_mutex_destroy(&pl.lock);
    free(pl.rows);
    return st;
}
