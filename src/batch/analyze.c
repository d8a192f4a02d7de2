/*
 * src/batch/analyze.c - one log to one batch row: the library's analysis
 * up to the features (iosage_analyze: read, decode, per-file table, feature
 * vector), the models on many logs in one call, and the first evidence line
 * of the top-scoring detected pattern.
 *
 * The stages are timed separately (struct iosage_batch_times) so that
 * `iosage batch --profile` can say where the time goes. SHAP is not
 * computed: a batch wants verdicts, not explanations.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ios_common.h"
#include "iosage/analyze.h"
#include "iosage/batch.h"
#include "iosage/label.h"
#include "iosage/savings.h"
#include "iosage/darshan.h"
#include "iosage/features.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void iosage_batch_row_clear(struct iosage_batch_row *row)
{
    if (!row)
        return;
    free(row->file);
    free(row->error);
    free(row->exe);
    free(row->evidence);
    free(row->text);
    memset(row, 0, sizeof *row);
    row->top_pattern = -1;
    row->best_saving = row->best_saving_s = NAN;
    for (int k = 0; k < IOSAGE_MAX_PATTERNS; k++)
        row->saving[k] = NAN;
}

iosage_status iosage_batch_row_error(struct iosage_batch_row *row,
                                     const char *path, size_t index,
                                     const char *msg)
{
    iosage_batch_row_clear(row);
    row->index = index;
    row->status = IOSAGE_BATCH_ERROR;
    row->file = ios_utf8_fix(path);
    row->error = ios_utf8_fix(msg);
    if (!row->file || !row->error) {
        iosage_batch_row_clear(row);
        return IOSAGE_E_NOMEM;
    }
    return IOSAGE_OK;
}

/* err as one line without its path (the row names the file). */
static void error_text(const iosage_error *err, char *buf, size_t size)
{
    iosage_error e = *err;
    e.path[0] = '\0';
    iosage_error_line(&e, buf, size);
}

/* The first damaged module of log, or NULL. */
static const iosage_module_data *damaged_module(const iosage_log *log)
{
    for (int k = 0; k < IOSAGE_MAX_MODULES; k++)
        if (log->modules[k].status != IOSAGE_OK)
            return &log->modules[k];
    return NULL;
}

/* a + b for byte counts: negative b ignored, the sum capped at INT64_MAX
 * (damaged counters can hold anything). */
static int64_t add_bytes(int64_t a, int64_t b)
{
    if (b <= 0)
        return a;
    return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* Job facts of log and table into row. */
static iosage_status fill_job(struct iosage_batch_row *row,
                              const iosage_log *log,
                              const iosage_file_table *t)
{
    const struct iosage_job_summary *js = &t->job;
    row->job_id = log->job.jobid;
    row->uid = log->job.uid;
    row->nprocs = js->nprocs;
    row->run_time = js->run_time;
    row->io_time = js->io_time;
    row->io_time_share = js->run_time > 0 ? js->rank_time_max / js->run_time
                                          : 0;
    for (size_t i = 0; i < t->n_rows; i++) {
        if (!(t->rows[i].flags & IOSAGE_FILE_COUNTED))
            continue; /* POSIX under MPI-IO: counted in the MPI-IO row */
        row->bytes_read = add_bytes(row->bytes_read, t->rows[i].bytes_read);
        row->bytes_written = add_bytes(row->bytes_written,
                                       t->rows[i].bytes_written);
    }
    row->exe = ios_utf8_fix(log->job.exe);
    const iosage_module_data *bad = damaged_module(log);
    char msg[800];
    if (bad)
        error_text(&bad->err, msg, sizeof msg);
    if (bad || iosage_file_table_impossible_line(t, msg, sizeof msg)) {
        row->status = IOSAGE_BATCH_PARTIAL;
        row->error = ios_utf8_fix(msg);
        if (!row->error)
            return IOSAGE_E_NOMEM;
    }
    return row->exe ? IOSAGE_OK : IOSAGE_E_NOMEM;
}

/* Verdicts of d into row; the evidence line of the top detected pattern. */
static iosage_status fill_detection(struct iosage_batch_row *row,
                                    const struct iosage_detection *d,
                                    const iosage_log *log,
                                    const iosage_file_table *t)
{
    row->healthy = d->healthy;
    row->gate_score = d->gate_score;
    row->n_patterns = d->n_patterns;
    row->top_pattern = -1;
    for (int k = 0; k < d->n_patterns; k++) {
        row->score[k] = d->score[k];
        row->detected[k] = d->detected[k];
        if (d->detected[k] &&
            (row->top_pattern < 0 || d->score[k] > d->score[row->top_pattern]))
            row->top_pattern = k;
    }
    if (row->top_pattern < 0)
        return IOSAGE_OK;
    const struct iosage_pattern *p = iosage_pattern_get(row->top_pattern);
    struct iosage_evidence ev;
    memset(&ev, 0, sizeof ev);
    if (p && p->evidence)
        p->evidence(log, t, &ev);
    if (ev.n_lines == 0)
        return IOSAGE_OK;
    row->evidence = ios_utf8_fix(ev.line[0]);
    return row->evidence ? IOSAGE_OK : IOSAGE_E_NOMEM;
}

/* A log between its features and its verdicts: kept so that the models
 * can score many logs in one call, and the evidence be read afterwards.
 * The analysis stops at the features (iosage_analyze). */
struct prepared {
    iosage_analysis *a;
};

static void prepared_free(struct prepared *p)
{
    iosage_analysis_free(p->a);
    p->a = NULL;
}

/* 1 for the statuses that stop a batch (memory, model, misuse); the others
 * describe a bad log. */
static int is_fatal(iosage_status st)
{
    return st == IOSAGE_E_NOMEM || st == IOSAGE_E_INTERNAL ||
           st == IOSAGE_E_USAGE;
}

/* Read, decode and compute the features of the log at path: row gets the
 * job facts and x the features, p keeps the analysis for finish(). A bad
 * log makes row an error row (p empty) and returns IOSAGE_OK; only fatal
 * statuses are returned (err filled, p empty). */
static iosage_status prepare(const char *path, size_t index,
                             struct iosage_batch_row *row, struct prepared *p,
                             float *x, struct iosage_batch_times *times,
                             iosage_error *err)
{
    memset(p, 0, sizeof *p);
    iosage_batch_row_clear(row);
    row->index = index;
    row->file = ios_utf8_fix(path);
    if (!row->file)
        return ios_fail(err, IOSAGE_E_NOMEM, path, "batch", -1,
                        "out of memory");
    struct iosage_analyze_options o = {
        .stage = IOSAGE_ANALYZE_FEATURES,
        .read_flags = IOSAGE_READ_NO_TRACES | IOSAGE_READ_IO_ONLY |
                      IOSAGE_READ_REGULAR_ONLY};
    iosage_error e;
    iosage_status st = iosage_analyze(path, &o, &p->a, &e);
    if (st == IOSAGE_OK) {
        memcpy(x, p->a->x, sizeof p->a->x);
        if (fill_job(row, p->a->log, p->a->table) != IOSAGE_OK)
            st = ios_fail(&e, IOSAGE_E_NOMEM, path, "batch", -1,
                          "out of memory");
        if (times) {
            times->read += p->a->seconds.read;
            times->decode += p->a->seconds.decode;
            times->features += p->a->seconds.features;
        }
    }
    if (times)
        times->logs++;
    if (st == IOSAGE_OK)
        return IOSAGE_OK;
    prepared_free(p);
    if (is_fatal(st)) {
        if (err)
            *err = e;
        return st;
    }
    char msg[800];
    error_text(&e, msg, sizeof msg);
    if (iosage_batch_row_error(row, path, index, msg) != IOSAGE_OK)
        return ios_fail(err, IOSAGE_E_NOMEM, path, "batch", -1,
                        "out of memory");
    return IOSAGE_OK;
}

/* The change with the largest predicted saving among the changes of the
 * detected patterns (docs/savings.md), into row; none without a savings
 * model or a detected pattern. */
static void fill_best_change(struct iosage_batch_row *row,
                             const iosage_model *m, const float *x,
                             const struct iosage_detection *d,
                             const iosage_file_table *t)
{
    const iosage_savings_model *sm = iosage_model_savings(m);
    row->best_change[0] = '\0';
    row->best_saving = row->best_saving_s = NAN;
    for (int k = 0; k < IOSAGE_MAX_PATTERNS; k++)
        row->saving[k] = NAN;
    for (int k = 0; sm && !d->healthy && k < d->n_patterns; k++) {
        const struct iosage_pattern *p = iosage_pattern_get(k);
        for (int i = 0; d->detected[k] && p && p->changes && p->changes[i].id;
             i++) {
            struct iosage_savings_prediction pr;
            if (iosage_savings_predict(sm, p->changes[i].id, x, &pr) != 0)
                continue;
            double secs = pr.saving * t->job.rank_time_max;
            if (isnan(row->saving[k]) || pr.saving > row->saving[k])
                row->saving[k] = pr.saving;
            if (!isnan(row->best_saving) && pr.saving <= row->best_saving)
                continue;
            snprintf(row->best_change, sizeof row->best_change, "%s",
                     p->changes[i].id);
            row->best_saving = pr.saving;
            row->best_saving_s = secs;
        }
    }
}

/* The patterns that the written criteria find in the log and the models
 * do not report (d after the floors: a pattern a floor took back is not
 * one), into row, as the report's warnings say them (src/advise/report.c). */
static void fill_criteria(struct iosage_batch_row *row,
                          const struct iosage_detection *d,
                          const iosage_log *log, const iosage_file_table *t)
{
    struct iosage_label_result lab;
    iosage_label_table_verdicts(log, t, &lab);
    for (int k = 0; k < d->n_patterns && k < lab.n_patterns; k++)
        row->criteria_only[k] =
            lab.present[k] && !d->detected[k] && !d->floored[k];
}

/* The verdicts and evidence of a prepared log into row; frees p. */
static iosage_status finish(struct iosage_batch_row *row, struct prepared *p,
                            const iosage_model *m, const float *x,
                            const struct iosage_detection *d,
                            struct iosage_batch_times *times,
                            iosage_error *err)
{
    double t0 = now();
    fill_best_change(row, m, x, d, p->a->table);
    fill_criteria(row, d, p->a->log, p->a->table);
    iosage_status st = fill_detection(row, d, p->a->log, p->a->table);
    prepared_free(p);
    if (times)
        times->features += now() - t0;
    if (st != IOSAGE_OK)
        return ios_fail(err, st, row->file, "batch", -1, "out of memory");
    return IOSAGE_OK;
}

/* See batch.h. */
iosage_status iosage_batch_analyze(const iosage_model *m, const char *path,
                                   size_t index, struct iosage_batch_row *row,
                                   struct iosage_batch_times *times,
                                   iosage_error *err)
{
    struct prepared p;
    float x[IOSAGE_NUM_FEATURES];
    struct iosage_detection d;
    iosage_status st = prepare(path, index, row, &p, x, times, err);
    if (st != IOSAGE_OK || row->status == IOSAGE_BATCH_ERROR)
        return st;
    double t0 = now();
    st = iosage_model_detect(m, x, 1, &d, err);
    if (times)
        times->predict += now() - t0;
    if (st != IOSAGE_OK) {
        prepared_free(&p);
        return st;
    }
    return finish(row, &p, m, x, &d, times, err);
}

/* Scratch space of one analyze_many call. */
struct many {
    struct prepared *p;      /* per log */
    float *x;                /* features of the logs that were read */
    size_t *live;            /* their positions in the call */
    struct iosage_detection *d;
};

static void many_free(struct many *w, size_t n)
{
    for (size_t j = 0; w->p && j < n; j++)
        prepared_free(&w->p[j]);
    free(w->p);
    free(w->x);
    free(w->live);
    free(w->d);
}

/* Decoded bytes of a loaded log (its module regions after decompression). */
static uint64_t decoded_bytes(const iosage_log *log)
{
    uint64_t n = 0;
    for (int k = 0; k < IOSAGE_MAX_MODULES; k++)
        n += log->modules[k].data_len;
    return n;
}

/* Prepare logs from position *j on, until all n are prepared or the
 * prepared ones hold IOSAGE_BATCH_GROUP_MEMORY decoded bytes; the readable
 * ones are listed in w->live (*n_live of them) with their features in w->x.
 * *j is advanced past the logs prepared. */
static iosage_status prepare_some(const iosage_batch_list *list,
                                  const size_t *idx, size_t n, size_t *j,
                                  struct iosage_batch_row *const *rows,
                                  struct many *w, size_t *n_live,
                                  struct iosage_batch_times *times,
                                  iosage_error *err)
{
    *n_live = 0;
    uint64_t held = 0;
    for (; *j < n && held < IOSAGE_BATCH_GROUP_MEMORY; (*j)++) {
        const struct iosage_batch_item *it = &list->items[idx[*j]];
        struct iosage_batch_row *row = rows[*j];
        iosage_status st;
        if (it->error) {
            st = iosage_batch_row_error(row, it->path, idx[*j], it->error);
            if (st != IOSAGE_OK)
                return ios_fail(err, st, it->path, "batch", -1,
                                "out of memory");
            continue;
        }
        float *x = w->x + *n_live * IOSAGE_NUM_FEATURES;
        st = prepare(it->path, idx[*j], row, &w->p[*j], x, times, err);
        if (st != IOSAGE_OK)
            return st;
        if (row->status == IOSAGE_BATCH_ERROR)
            continue;
        w->live[(*n_live)++] = *j;
        held += decoded_bytes(w->p[*j].a->log);
    }
    return IOSAGE_OK;
}

/* Score the n_live prepared logs in one model call and finish their rows. */
static iosage_status score_some(const iosage_model *m,
                                struct iosage_batch_row *const *rows,
                                struct many *w, size_t n_live,
                                struct iosage_batch_times *times,
                                iosage_error *err)
{
    double t0 = now();
    iosage_status st = IOSAGE_OK;
    if (n_live > 0)
        st = iosage_model_detect(m, w->x, n_live, w->d, err);
    if (times)
        times->predict += now() - t0;
    for (size_t k = 0; st == IOSAGE_OK && k < n_live; k++) {
        size_t j = w->live[k];
        st = finish(rows[j], &w->p[j], m, w->x + k * IOSAGE_NUM_FEATURES,
                    &w->d[k], times, err);
    }
    return st;
}

/* See batch.h. */
iosage_status iosage_batch_analyze_many(const iosage_model *m,
                                        const iosage_batch_list *list,
                                        const size_t *idx, size_t n,
                                        struct iosage_batch_row *const *rows,
                                        struct iosage_batch_times *times,
                                        iosage_error *err)
{
    struct many w;
    w.p = calloc(n ? n : 1, sizeof *w.p);
    w.x = malloc((n ? n : 1) * IOSAGE_NUM_FEATURES * sizeof *w.x);
    w.live = malloc((n ? n : 1) * sizeof *w.live);
    w.d = malloc((n ? n : 1) * sizeof *w.d);
    iosage_status st = IOSAGE_OK;
    if (!w.p || !w.x || !w.live || !w.d)
        st = ios_fail(err, IOSAGE_E_NOMEM, NULL, "batch", -1, "out of memory");
    size_t j = 0, n_live;
    while (st == IOSAGE_OK && j < n) {
        st = prepare_some(list, idx, n, &j, rows, &w, &n_live, times, err);
        if (st == IOSAGE_OK)
            st = score_some(m, rows, &w, n_live, times, err);
    }
    many_free(&w, n);
    return st;
}
