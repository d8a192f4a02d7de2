/*
 * src/model/savings_model.c - predicted savings (issue 16, docs/savings.md):
 * one XGBoost regression per change id, from a log's features to the share
 * of the job's I/O time the change saves, trained on the measured savings
 * of a dataset (DATASET/savings.tsv, iosage/savings.h).
 *
 * The rows of change C: every measured row of C on an emulated system (the
 * features of the run whose system the campaign used, the measured saving
 * clipped to [-1, 1]: "at least doubles the I/O time" is as bad as it needs
 * to be; a native run's saving is the page cache's, not a parallel file
 * system's: with the 50 native rows of the 174 measured configurations the
 * models said the demo's larger requests "cost 29%", without them +9%), plus every
 * run of every healthy configuration with a saving of 0 (no change pays on
 * a job without a bottleneck; an assumption, not a measurement).
 *
 * The typical range of a prediction comes from the residuals (measured -
 * predicted) of a 5-fold cross-validation inside training: its 10th and
 * 90th percentiles, added to the prediction.
 *
 * Files (beside the classifiers in a bundle directory): savings.json (the
 * list of changes, rows, residual percentiles, cross-validation figures)
 * and savings-<change_id>.json (the XGBoost models).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ios_common.h"
#include "ios_file.h"
#include "ios_json.h"
#include "ios_text.h"
#include "iosage/features.h"
#include "iosage/model.h"
#include "iosage/patterns.h"
#include "iosage/savings.h"
#include "iosage/validate.h"
#include "ios_math.h"

#define NF IOSAGE_NUM_FEATURES
#define SAVINGS_FILE "savings.json"
#define FOLDS 5
#define MIN_ROWS 5   /* measured rows a change needs for a model */

struct savings_change_model {
    char pattern[48];
    char change_id[48];
    BoosterHandle booster;       /* NULL until first use when form is set */
    const unsigned char *form;   /* the embedded bundle's booster, loaded
                                    at first use (booster_of); not owned */
    size_t form_len;
    int form_failed;             /* it could not be loaded */
    int measured_rows, healthy_rows;
    double resid_lo, resid_hi;   /* 10th and 90th percentile */
    double cv_spearman, cv_mae;  /* inside training, measured rows only */
};

struct iosage_savings_model {
    int n;
    size_t n_inputs;             /* each booster's: IOS_SAVINGS_INPUTS, or
                                    the features alone for a bundle saved
                                    before the derived inputs */
    double typical;              /* median saving of the measured rows of
                                    every change; NAN when not stored */
    int typical_rows;
    int n_few;                   /* changes measured too rarely for a model */
    struct few_rows {
        char change_id[48];
        int rows;                /* their measured rows, 1..MIN_ROWS-1 */
    } few[IOSAGE_SAVINGS_MAX_CHANGES];
    pthread_mutex_t lazy;        /* guards the boosters loaded at first use */
    struct savings_change_model c[IOSAGE_SAVINGS_MAX_CHANGES];
};

static iosage_savings_model *model_new(void)
{
    iosage_savings_model *m = calloc(1, sizeof *m);
    if (m && pthread_mutex_init(&m->lazy, NULL) != 0) {
        free(m);
        return NULL;
    }
    if (m) {
        m->typical = NAN;
        m->n_inputs = IOS_SAVINGS_INPUTS;
    }
    return m;
}

/* --- Training data --------------------------------------------------------- */

/* One training row: a run's features and what a change saved on it. */
struct srow {
    const float *x;      /* into the dataset */
    float y;             /* the saving, clipped */
    int healthy;         /* a healthy configuration's run (y = 0) */
    int group;           /* cross-validation group */
    int config;          /* index of the configuration: healthy figures */
    size_t ds_row;       /* the run's row in the dataset */
    const char *kernel;
};

/* The data of all changes: measured rows and healthy rows. */
struct sdata {
    const iosage_dataset *ds; /* the caller's */
    struct iosage_savings_table table;
    char **configs;      /* config id of each ds row */
    uint8_t *healthy;    /* ds row i is the first run of a healthy config */
    int *table_ds;       /* ds row of each table row, -1 when absent */
};

static void sdata_free(struct sdata *d)
{
    if (d->ds && d->configs)
        for (size_t i = 0; i < d->ds->n_rows; i++)
            free(d->configs[i]);
    free(d->configs);
    free(d->healthy);
    free(d->table_ds);
    iosage_savings_table_free(&d->table);
    memset(d, 0, sizeof *d);
}

/* The configuration of a run id "<config>-r<k>". */
static char *config_of(const char *run_id)
{
    const char *dash = strrchr(run_id, '-');
    size_t n = dash && dash[1] == 'r' ? (size_t)(dash - run_id)
                                      : strlen(run_id);
    char *c = malloc(n + 1);
    if (c) {
        memcpy(c, run_id, n);
        c[n] = '\0';
    }
    return c;
}

/* The manifest's labels column: healthy[i] = 1 for ds row i when its
 * configuration is labeled healthy. Every run of such a configuration is a
 * zero-saving row (its first run alone: 67-68 of 87 healthy configurations
 * under 5% in `savings eval` on the first 55 measured configurations;
 * every run: 78 of 87). */
static iosage_status mark_healthy(const char *dir, struct sdata *d,
                                  iosage_error *err)
{
    iosage_manifest *m = NULL;
    iosage_status st = iosage_manifest_load(dir, &m, err);
    if (st != IOSAGE_OK)
        return st;
    int c_run = iosage_manifest_column(m, "run_id");
    int c_labels = iosage_manifest_column(m, "labels");
    for (size_t r = 0; r < m->n_rows; r++) {
        const char *run = iosage_manifest_cell(m, r, c_run);
        const char *labels = iosage_manifest_cell(m, r, c_labels);
        if (!run || !labels || strcmp(labels, "healthy") != 0)
            continue;
        for (size_t i = 0; i < d->ds->n_rows; i++)
            if (strcmp(d->ds->run_ids[i], run) == 0)
                d->healthy[i] = 1;
    }
    iosage_manifest_free(m);
    return IOSAGE_OK;
}

static iosage_status sdata_load(const char *dir, const iosage_dataset *ds,
                                struct sdata *d, iosage_error *err)
{
    memset(d, 0, sizeof *d);
    char path[4096];
    snprintf(path, sizeof path, "%s/savings.tsv", dir);
    iosage_status st = iosage_savings_table_load(path, &d->table, err);
    if (st == IOSAGE_OK && d->table.n == 0)
        st = ios_fail(err, IOSAGE_E_USAGE, path, NULL, -1,
                      "no measured savings (run `iosage savings measure`)");
    if (st == IOSAGE_OK && !ds)
        st = ios_fail(err, IOSAGE_E_USAGE, dir, NULL, -1,
                      "no dataset given for the savings models");
    if (st != IOSAGE_OK)
        return st;
    d->ds = ds;
    size_t n = d->ds->n_rows;
    d->configs = calloc(n ? n : 1, sizeof *d->configs);
    d->healthy = calloc(n ? n : 1, 1);
    d->table_ds = calloc(d->table.n, sizeof *d->table_ds);
    if (!d->configs || !d->healthy || !d->table_ds || !d->ds->run_ids)
        return ios_fail(err, IOSAGE_E_NOMEM, dir, NULL, -1, "out of memory");
    for (size_t i = 0; i < n; i++)
        if (!(d->configs[i] = config_of(d->ds->run_ids[i])))
            return ios_fail(err, IOSAGE_E_NOMEM, dir, NULL, -1,
                            "out of memory");
    for (size_t t = 0; t < d->table.n; t++) {
        d->table_ds[t] = -1;
        /* the models learn HPC-like storage: a native run's saving is
         * the page cache's (docs/savings.md) */
        if (strcmp(d->table.rows[t].system, "emulated") != 0)
            continue;
        for (size_t i = 0; i < n; i++)
            if (strcmp(d->ds->run_ids[i], d->table.rows[t].run_id) == 0)
                d->table_ds[t] = (int)i;
    }
    return mark_healthy(dir, d, err);
}

/* The distinct changes of the table, in first-seen order. */
static int table_changes(const struct sdata *d,
                         char ids[][2][48], int max)
{
    int n = 0;
    for (size_t t = 0; t < d->table.n; t++) {
        int seen = 0;
        for (int k = 0; k < n && !seen; k++)
            seen = strcmp(ids[k][1], d->table.rows[t].change_id) == 0;
        if (!seen && n < max) {
            snprintf(ids[n][0], 48, "%s", d->table.rows[t].pattern);
            snprintf(ids[n][1], 48, "%s", d->table.rows[t].change_id);
            n++;
        }
    }
    return n;
}

/* Cross-validation group of a configuration: FNV of its id, or of its
 * kernel when by_kernel. */
static int group_of(const char *key, int folds)
{
    uint64_t h = ios_fnv1a64(key, strlen(key));
    return (int)(h % (uint64_t)folds);
}

/* Index of a configuration id among the distinct ones seen so far. */
static int config_index(const struct sdata *d, size_t ds_row)
{
    for (size_t i = 0; i <= ds_row; i++)
        if (strcmp(d->configs[i], d->configs[ds_row]) == 0)
            return (int)i;
    return (int)ds_row;
}

static float clip_saving(double s)
{
    return (float)(s < -1 ? -1 : s > 1 ? 1 : s);
}

/* --- The cap ----------------------------------------------------------------
 *
 * A change cannot save more of the job's I/O time than the operations it
 * changes take: larger requests save at most the time of the files with
 * mostly small requests, collective I/O at most that of the shared files
 * written independently, balancing at most the slowest rank's time above
 * the mean rank's, and so on (the shares the findings report; see
 * docs/savings.md). A change whose operations the log does not show at all
 * (no sync to drop, no file on one OST) saves nothing. On the 194 measured
 * emulated rows (2026-12-05) the measured saving exceeded its cap by more
 * than 5 points in 4 (balance_io 2, read_once 2); the regressions, which
 * know nothing of it, had predicted up to 30% for dropping the syncs of a
 * run that makes none. Predictions, out-of-fold ones included, are capped. */

/* Each capped change: the feature that bounds it, and whether the bound is
 * the feature itself (a share) or 0/1 (does the log show the operations at
 * all). drop_syncs has two features: syncs through POSIX or MPI-IO. */
enum cap_kind { CAP_SHARE, CAP_ANY };
static struct cap_rule {
    const char *change_id;
    const char *feature[2]; /* the second may be NULL */
    enum cap_kind kind;
    int index[2];           /* resolved once; -1 when not in the schema */
} cap_rules[] = {
    {"larger_requests", {"job_small_file_time_share", NULL}, CAP_SHARE, {-1, -1}},
    {"sequential_access", {"posix_nonseq_file_time_share", NULL}, CAP_SHARE, {-1, -1}},
    {"collective_io", {"file_indep_shared_time_share", NULL}, CAP_SHARE, {-1, -1}},
    {"balance_io", {"rank_time_imbalance", NULL}, CAP_SHARE, {-1, -1}},
    {"fewer_files", {"job_meta_time_share", NULL}, CAP_SHARE, {-1, -1}},
    {"batch_metadata", {"job_meta_time_share", NULL}, CAP_SHARE, {-1, -1}},
    {"read_once", {"reread_time_share", NULL}, CAP_SHARE, {-1, -1}},
    {"drop_syncs", {"sync_per_write_log", "mpiio_sync_per_write_log"}, CAP_ANY, {-1, -1}},
    {"stripe_wide", {"lustre_single_ost_write_share", NULL}, CAP_ANY, {-1, -1}},
};
#define N_CAP_RULES (sizeof cap_rules / sizeof cap_rules[0])
static pthread_once_t cap_once = PTHREAD_ONCE_INIT;

/* The rules' feature indexes, looked up by name once: a prediction runs
 * for every change of every log of a batch. */
static void resolve_cap_rules(void)
{
    for (size_t r = 0; r < N_CAP_RULES; r++)
        for (int k = 0; k < 2; k++)
            cap_rules[r].index[k] = cap_rules[r].feature[k]
                                        ? iosage_feature_index(cap_rules[r].feature[k])
                                        : -1;
}

/* The pattern whose change change_id is, or NULL. */
static const struct iosage_pattern *pattern_of_change(const char *change_id)
{
    for (int k = 0; k < iosage_pattern_count(); k++) {
        const struct iosage_pattern *p = iosage_pattern_get(k);
        if (iosage_pattern_change_find(p, change_id))
            return p;
    }
    return NULL;
}

/* The cap of the rule of change_id alone (1 without a rule). */
static double rule_cap(const char *change_id, const float *x)
{
    pthread_once(&cap_once, resolve_cap_rules);
    for (size_t r = 0; r < N_CAP_RULES; r++) {
        const struct cap_rule *c = &cap_rules[r];
        if (strcmp(c->change_id, change_id) != 0)
            continue;
        double v0 = c->index[0] >= 0 ? x[c->index[0]] : 0;
        double v1 = c->index[1] >= 0 ? x[c->index[1]] : 0;
        if (c->kind == CAP_SHARE)
            return v0;
        return v0 > 0 || v1 > 0;
    }
    return 1; /* shared_file and any change without a rule */
}

/* A change of a pattern whose defining quantity is under its floor (the
 * floors of detection rule 4, iosage/patterns.h: the quantity below which
 * the pattern is never reported) has nothing to fix: it saves nothing. */
double ios_saving_cap(const char *change_id, const float *x)
{
    double cap = rule_cap(change_id, x);
    const struct iosage_pattern *p = pattern_of_change(change_id);
    if (cap > 0 && p && !iosage_pattern_floor_met(p, x, NULL, 0))
        cap = 0;
    return cap;
}

/* The rows of change_id (measured, then healthy) into a new array. */
static iosage_status change_rows(const struct sdata *d, const char *change_id,
                                 int by_kernel, int folds, struct srow **out,
                                 size_t *n_out, iosage_error *err)
{
    size_t cap = d->table.n + d->ds->n_rows, n = 0;
    struct srow *r = calloc(cap ? cap : 1, sizeof *r);
    if (!r)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, NULL, -1, "out of memory");
    for (size_t t = 0; t < d->table.n; t++) {
        int i = d->table_ds[t];
        if (i < 0 || strcmp(d->table.rows[t].change_id, change_id) != 0)
            continue;
        const char *kernel = d->ds->kernels ? d->ds->kernels[i] : "";
        r[n++] = (struct srow){
            .x = d->ds->x + (size_t)i * NF,
            .y = clip_saving(d->table.rows[t].io_saving),
            .group = group_of(by_kernel ? kernel : d->configs[i], folds),
            .config = config_index(d, (size_t)i), .ds_row = (size_t)i,
            .kernel = kernel};
    }
    for (size_t i = 0; i < d->ds->n_rows; i++) {
        if (!d->healthy[i])
            continue;
        const char *kernel = d->ds->kernels ? d->ds->kernels[i] : "";
        r[n++] = (struct srow){
            .x = d->ds->x + i * NF, .y = 0, .healthy = 1,
            .group = group_of(by_kernel ? kernel : d->configs[i], folds),
            .config = config_index(d, i), .ds_row = i, .kernel = kernel};
    }
    *out = r;
    *n_out = n;
    return IOSAGE_OK;
}

/* --- One regression ------------------------------------------------------- */

static void savings_params(struct iosage_train_params *p)
{
    iosage_train_params_default(p);
    p->max_rounds = 200;
    p->max_depth = 3;
    p->eta = 0.05;
    p->early_stopping = 0;
    p->threads = 1;
    /* a third of the 112 features per tree: with 12-60 measured rows a
     * tree otherwise splits on whichever feature fits a few of them; on
     * 137 configurations (5 folds, XGBoost seeds 1-3 and 42) larger_requests
     * gained 0.02-0.06 Spearman and the top-ranked change among runs with
     * a choice 85.7% -> 91.4%; balance_io lost 0.01-0.08 (docs/evaluation.md) */
    p->colsample_bytree = 0.3;
}

/* Train on rows r[i] with keep(i) (all when keep is NULL). */
static iosage_status fit(const struct srow *r, size_t n, const int *use,
                         BoosterHandle *out, iosage_error *err)
{
    size_t m = 0, w = IOS_SAVINGS_INPUTS;
    for (size_t i = 0; i < n; i++)
        m += !use || use[i];
    float *x = malloc((m ? m : 1) * w * sizeof *x);
    float *y = malloc((m ? m : 1) * sizeof *y);
    iosage_status st = x && y ? IOSAGE_OK
                              : ios_fail(err, IOSAGE_E_NOMEM, NULL, NULL, -1,
                                         "out of memory");
    size_t k = 0;
    for (size_t i = 0; st == IOSAGE_OK && i < n; i++) {
        if (use && !use[i])
            continue;
        ios_savings_inputs(r[i].x, w, x + k * w);
        y[k++] = r[i].y;
    }
    DMatrixHandle dm = NULL;
    if (st == IOSAGE_OK)
        st = ios_xgb_matrix_cols(x, m, w, w, &dm, err);
    if (st == IOSAGE_OK &&
        ios_xgb()->XGDMatrixSetFloatInfo(dm, "label", y, (bst_ulong)m) != 0)
        st = ios_xgb_fail(err, IOSAGE_E_INTERNAL, "labels");
    struct iosage_train_params p;
    savings_params(&p);
    int rounds = 0;
    if (st == IOSAGE_OK) {
        struct ios_boost_job job = {.train = dm, .p = &p, .model = 0,
                                    .n_models = 1, .id = "savings",
                                    .objective = "reg:squarederror"};
        st = ios_xgb_boost(&job, out, &rounds, err);
    }
    if (dm)
        ios_xgb()->XGDMatrixFree(dm);
    free(x);
    free(y);
    return st;
}

/* The prediction of booster b of n_inputs inputs on features x. */
static iosage_status predict_one(BoosterHandle b, size_t n_inputs,
                                 const float *x, double *out,
                                 iosage_error *err)
{
    float in[IOS_SAVINGS_INPUTS];
    ios_savings_inputs(x, n_inputs, in);
    float v = 0;
    iosage_status st =
        ios_xgb_predict_cols(b, in, 1, n_inputs, n_inputs, 1, &v, err);
    *out = v;
    return st;
}

/* Out-of-fold predictions of change_id on every row into pred (groups
 * 0..folds-1), each capped as iosage_savings_predict caps it. */
static iosage_status out_of_fold(const char *change_id, const struct srow *r,
                                 size_t n, int folds, double *pred,
                                 iosage_error *err)
{
    int *use = malloc((n ? n : 1) * sizeof *use);
    if (!use)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, NULL, -1, "out of memory");
    iosage_status st = IOSAGE_OK;
    for (size_t i = 0; i < n; i++)
        pred[i] = NAN;
    for (int g = 0; g < folds && st == IOSAGE_OK; g++) {
        size_t held = 0, measured_in = 0;
        for (size_t i = 0; i < n; i++) {
            use[i] = r[i].group != g;
            held += !use[i];
            measured_in += use[i] && !r[i].healthy;
        }
        if (held == 0)
            continue;
        if (measured_in == 0) { /* nothing to learn from: predict 0 */
            for (size_t i = 0; i < n; i++)
                if (!use[i])
                    pred[i] = 0;
            continue;
        }
        BoosterHandle b = NULL;
        st = fit(r, n, use, &b, err);
        for (size_t i = 0; st == IOSAGE_OK && i < n; i++)
            if (!use[i]) {
                st = predict_one(b, IOS_SAVINGS_INPUTS, r[i].x, &pred[i],
                                 err);
                pred[i] = ios_libm()->fmin(pred[i], ios_saving_cap(change_id, r[i].x));
            }
        if (b)
            ios_xgb()->XGBoosterFree(b);
    }
    free(use);
    return st;
}

/* --- Statistics ------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* See internal.h. */
double ios_quantile(double *v, size_t n, double q)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    double pos = q * (double)(n - 1);
    size_t lo = (size_t)pos;
    double f = pos - (double)lo;
    return lo + 1 < n ? v[lo] * (1 - f) + v[lo + 1] * f : v[lo];
}

/* Ranks 1..n of v (ties: the mean rank) into rank. */
static void ranks_of(const double *v, size_t n, double *rank)
{
    for (size_t i = 0; i < n; i++) {
        size_t less = 0, equal = 0;
        for (size_t j = 0; j < n; j++) {
            less += v[j] < v[i];
            equal += v[j] == v[i];
        }
        rank[i] = (double)less + (double)(equal + 1) / 2.0;
    }
}

/* See internal.h. */
double ios_spearman(const double *a, const double *b, size_t n)
{
    if (n < 3)
        return NAN;
    double *ra = malloc(n * sizeof *ra), *rb = malloc(n * sizeof *rb);
    double r = NAN;
    if (ra && rb) {
        ranks_of(a, n, ra);
        ranks_of(b, n, rb);
        double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
        for (size_t i = 0; i < n; i++) {
            ma += ra[i] / (double)n;
            mb += rb[i] / (double)n;
        }
        for (size_t i = 0; i < n; i++) {
            sab += (ra[i] - ma) * (rb[i] - mb);
            saa += (ra[i] - ma) * (ra[i] - ma);
            sbb += (rb[i] - mb) * (rb[i] - mb);
        }
        r = saa > 0 && sbb > 0 ? sab / ios_libm()->sqrt(saa * sbb) : NAN;
    }
    free(ra);
    free(rb);
    return r;
}

/* Spearman and median absolute error (percentage points) of the measured
 * rows' out-of-fold predictions. */
static void fold_figures(const struct srow *r, size_t n, const double *pred,
                         double *rho, double *mae_pp, int *count)
{
    double *a = malloc((n ? n : 1) * sizeof *a);
    double *b = malloc((n ? n : 1) * sizeof *b);
    double *e = malloc((n ? n : 1) * sizeof *e);
    size_t m = 0;
    for (size_t i = 0; a && b && e && i < n; i++) {
        if (r[i].healthy)
            continue;
        a[m] = pred[i];
        b[m] = r[i].y;
        e[m] = fabs(pred[i] - r[i].y) * 100;
        m++;
    }
    *rho = a && b ? ios_spearman(a, b, m) : NAN;
    *mae_pp = e ? ios_quantile(e, m, 0.5) : NAN;
    *count = (int)m;
    free(a);
    free(b);
    free(e);
}

/* --- Training -------------------------------------------------------------- */

static iosage_status train_change(const struct sdata *d, const char *pattern,
                                  const char *change_id,
                                  struct savings_change_model *c,
                                  iosage_error *err)
{
    memset(c, 0, sizeof *c);
    snprintf(c->pattern, sizeof c->pattern, "%.47s", pattern);
    snprintf(c->change_id, sizeof c->change_id, "%.47s", change_id);
    struct srow *r = NULL;
    size_t n = 0;
    iosage_status st = change_rows(d, change_id, 0, FOLDS, &r, &n, err);
    if (st != IOSAGE_OK)
        return st;
    for (size_t i = 0; i < n; i++) {
        c->measured_rows += !r[i].healthy;
        c->healthy_rows += r[i].healthy;
    }
    double *pred = malloc((n ? n : 1) * sizeof *pred);
    double *res = malloc((n ? n : 1) * sizeof *res);
    if (!pred || !res)
        st = ios_fail(err, IOSAGE_E_NOMEM, NULL, NULL, -1, "out of memory");
    if (st == IOSAGE_OK)
        st = out_of_fold(change_id, r, n, FOLDS, pred, err);
    if (st == IOSAGE_OK) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (!r[i].healthy)
                res[m++] = r[i].y - pred[i];
        c->resid_lo = ios_quantile(res, m, 0.10);
        c->resid_hi = ios_quantile(res, m, 0.90);
        int count;
        fold_figures(r, n, pred, &c->cv_spearman, &c->cv_mae, &count);
        st = fit(r, n, NULL, &c->booster, err);
    }
    free(pred);
    free(res);
    free(r);
    return st;
}

/* What a change without a model is ranked by: the median saving of every
 * row the models learn from (all changes, emulated systems), clipped as
 * they are. A detected pattern's change that no model predicts is then
 * taken for a typical measured change, not for one that saves nothing:
 * ranked below the changes predicted to save more, above those predicted
 * to save less (docs/savings.md). */
static iosage_status typical_saving(const struct sdata *d,
                                    iosage_savings_model *m,
                                    iosage_error *err)
{
    double *v = malloc((d->table.n ? d->table.n : 1) * sizeof *v);
    if (!v)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, NULL, -1, "out of memory");
    size_t n = 0;
    for (size_t t = 0; t < d->table.n; t++)
        if (d->table_ds[t] >= 0)
            v[n++] = clip_saving(d->table.rows[t].io_saving);
    m->typical = n ? ios_quantile(v, n, 0.5) : NAN;
    m->typical_rows = (int)n;
    free(v);
    return IOSAGE_OK;
}

iosage_status iosage_savings_train(const char *dir, const iosage_dataset *ds,
                                   iosage_savings_model **out,
                                   iosage_error *err)
{
    *out = NULL;
    struct sdata d;
    iosage_status st = sdata_load(dir, ds, &d, err);
    iosage_savings_model *m = st == IOSAGE_OK ? model_new() : NULL;
    if (st == IOSAGE_OK && !m)
        st = ios_fail(err, IOSAGE_E_NOMEM, dir, NULL, -1, "out of memory");
    char ids[IOSAGE_SAVINGS_MAX_CHANGES][2][48];
    int n = st == IOSAGE_OK
                ? table_changes(&d, ids, IOSAGE_SAVINGS_MAX_CHANGES)
                : 0;
    if (st == IOSAGE_OK)
        st = typical_saving(&d, m, err);
    for (int k = 0; k < n && st == IOSAGE_OK; k++) {
        int measured = 0;
        for (size_t t = 0; t < d.table.n; t++)
            measured += d.table_ds[t] >= 0 &&
                        strcmp(d.table.rows[t].change_id, ids[k][1]) == 0;
        if (measured < MIN_ROWS) {
            if (measured > 0 && m->n_few < IOSAGE_SAVINGS_MAX_CHANGES) {
                struct few_rows *f = &m->few[m->n_few++];
                snprintf(f->change_id, sizeof f->change_id, "%s", ids[k][1]);
                f->rows = measured;
            }
            continue;
        }
        st = train_change(&d, ids[k][0], ids[k][1], &m->c[m->n], err);
        m->n++;
    }
    sdata_free(&d);
    if (st != IOSAGE_OK) {
        iosage_savings_model_free(m);
        return st;
    }
    *out = m;
    return IOSAGE_OK;
}

void iosage_savings_model_free(iosage_savings_model *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->n; i++)
        if (m->c[i].booster)
            ios_xgb()->XGBoosterFree(m->c[i].booster);
    pthread_mutex_destroy(&m->lazy);
    free(m);
}

/*
 * Change i's booster. The embedded bundle's are loaded at first use: a
 * report needs the models of its proposed changes only (none for a
 * healthy job), and loading all eight was half of the instructions of
 * `iosage analyze` (113 M of 220 M). Only iosage_savings_model_load_static
 * leaves them for later: the embedded files were checked against
 * bundle.json when iosage was built, so a load fails only for want of
 * memory; the change then has no prediction. The other loaders load every
 * booster at once, so that a damaged file is reported when it is opened.
 * The threads of a batch share one model: the first to ask loads, the
 * others wait for it.
 */
static BoosterHandle booster_of(const iosage_savings_model *cm, int i)
{
    /* the lazily loaded boosters are the model's only mutable part */
    iosage_savings_model *m = (iosage_savings_model *)cm;
    struct savings_change_model *c = &m->c[i];
    if (!c->form)
        return c->booster;
    pthread_mutex_lock(&m->lazy);
    if (!c->booster && !c->form_failed) {
        iosage_error err;
        if (ios_xgb_load_n(c->form, c->form_len, m->n_inputs, &c->booster,
                           &err) != IOSAGE_OK ||
            ios_xgb_threads(c->booster, 1, &err) != IOSAGE_OK) {
            if (c->booster)
                ios_xgb()->XGBoosterFree(c->booster);
            c->booster = NULL;
            c->form_failed = 1;
        }
    }
    BoosterHandle b = c->booster;
    pthread_mutex_unlock(&m->lazy);
    return b;
}

/* --- Saving and loading ---------------------------------------------------- */

/* savings.json: what every change's model is; form_hash[i] is the hash
 * of change i's binary form (0: none). */
static json_t *meta_json(const iosage_savings_model *m,
                         const uint64_t *form_hash)
{
    json_t *o = json_object(), *list = json_array();
    if (!o || !list) {
        json_decref(o);
        json_decref(list);
        return NULL;
    }
    json_object_set_new(o, "schema", json_string("iosage-savings-models"));
    json_object_set_new(o, "version", json_integer(1));
    json_object_set_new(o, "feature_schema",
                        json_integer(IOSAGE_FEATURE_SCHEMA_VERSION));
    json_object_set_new(o, "xgboost_version", json_string(ios_xgb_version()));
    json_object_set_new(o, "target", json_string(
        "share of the job's I/O time the change saves: 1 - 1/(median pair "
        "ratio), clipped to [-1, 1]"));
    if (m->n_inputs == IOS_SAVINGS_INPUTS) { /* after the model features */
        json_t *derived = json_array();
        for (int k = 0; derived && k < IOS_SAVINGS_DERIVED; k++)
            json_array_append_new(derived, json_string(ios_savings_derived[k]));
        json_object_set_new(o, "derived_inputs", derived);
    }
    if (!isnan(m->typical)) { /* a change without a model is ranked by it */
        json_t *few = json_object();
        for (int i = 0; few && i < m->n_few; i++)
            json_object_set_new(few, m->few[i].change_id,
                                json_integer(m->few[i].rows));
        json_object_set_new(o, "typical_saving",
                            json_pack("{s:o,s:i,s:o}", "io_time_share",
                                      ios_json_real(ios_round6(m->typical)),
                                      "measured_rows", m->typical_rows,
                                      "too_few_rows", few));
    }
    for (int i = 0; i < m->n; i++) {
        const struct savings_change_model *c = &m->c[i];
        json_t *e = json_object();
        char file[96];
        snprintf(file, sizeof file, "savings-%s.json", c->change_id);
        json_object_set_new(e, "pattern", json_string(c->pattern));
        json_object_set_new(e, "change_id", json_string(c->change_id));
        json_object_set_new(e, "file", json_string(file));
        if (form_hash[i]) { /* <file>.bin (ios_model_write_form) */
            char hash[40];
            snprintf(hash, sizeof hash, "fnv1a64:%016" PRIx64, form_hash[i]);
            json_object_set_new(e, "binary_hash", json_string(hash));
        }
        json_object_set_new(e, "measured_rows", json_integer(c->measured_rows));
        json_object_set_new(e, "healthy_rows", json_integer(c->healthy_rows));
        json_object_set_new(e, "residual_p10", ios_json_real(ios_round6(c->resid_lo)));
        json_object_set_new(e, "residual_p90", ios_json_real(ios_round6(c->resid_hi)));
        json_object_set_new(e, "cv_spearman", ios_json_real(ios_round6(c->cv_spearman)));
        json_object_set_new(e, "cv_median_abs_error_pp",
                            ios_json_real(ios_round6(c->cv_mae)));
        json_array_append_new(list, e);
    }
    json_object_set_new(o, "changes", list);
    return o;
}

iosage_status iosage_savings_model_save(const iosage_savings_model *m,
                                        const char *dir, iosage_error *err)
{
    iosage_status st = IOSAGE_OK;
    uint64_t form_hash[IOSAGE_SAVINGS_MAX_CHANGES] = {0};
    for (int i = 0; i < m->n && st == IOSAGE_OK; i++) {
        const char *data = NULL;
        size_t len = 0;
        char file[96];
        snprintf(file, sizeof file, "savings-%s.json", m->c[i].change_id);
        BoosterHandle b = booster_of(m, i);
        st = b ? ios_xgb_save(b, &data, &len, err)
               : ios_fail(err, IOSAGE_E_NOMEM, dir, NULL, -1,
                          "savings model %s could not be loaded",
                          m->c[i].change_id);
        if (st == IOSAGE_OK)
            st = ios_model_write_file(dir, file, data, len, err);
        if (st == IOSAGE_OK)
            st = ios_model_write_form(dir, file, b, &form_hash[i], err);
    }
    json_t *o = st == IOSAGE_OK ? meta_json(m, form_hash) : NULL;
    char *text = o ? ios_json_dumps(o, JSON_INDENT(2)) : NULL;
    json_decref(o);
    if (st == IOSAGE_OK && !text)
        st = ios_fail(err, IOSAGE_E_NOMEM, dir, NULL, -1, "out of memory");
    if (st == IOSAGE_OK) {
        size_t len = strlen(text);
        text[len] = '\n'; /* dumps leaves room: the NUL becomes a newline */
        st = ios_model_write_file(dir, SAVINGS_FILE, text, len + 1, err);
    }
    free(text);
    return st;
}

/* A file by name: from dir, or from files[]. *data is malloc'd for dir
 * (owned: *owned = 1). IOSAGE_E_IO with ENOENT when missing. */
static iosage_status get_file(const char *dir,
                              const struct iosage_model_file *files, size_t n,
                              const char *name, const unsigned char **data,
                              size_t *len, uint8_t **owned, iosage_error *err)
{
    *owned = NULL;
    if (dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        iosage_status st = ios_read_file(path, 1, owned, len, err);
        *data = *owned;
        return st;
    }
    for (size_t i = 0; i < n; i++) {
        if (strcmp(files[i].name, name) == 0) {
            *data = files[i].data;
            *len = files[i].size;
            return IOSAGE_OK;
        }
    }
    return ios_fail(err, IOSAGE_E_IO, name, NULL, -1, "missing");
}

static double real_or_nan(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static iosage_status load_from(const char *dir,
                               const struct iosage_model_file *files,
                               size_t n_files, int lazy, const char *label,
                               iosage_savings_model **out, iosage_error *err)
{
    *out = NULL;
    const unsigned char *data;
    size_t len;
    uint8_t *owned;
    if (dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, SAVINGS_FILE);
        FILE *f = fopen(path, "rb");
        if (!f && errno == ENOENT)
            return IOSAGE_OK; /* a bundle without savings models */
        if (f)
            fclose(f);
    } else {
        int found = 0;
        for (size_t i = 0; i < n_files; i++)
            found |= strcmp(files[i].name, SAVINGS_FILE) == 0;
        if (!found)
            return IOSAGE_OK;
    }
    iosage_status st = get_file(dir, files, n_files, SAVINGS_FILE, &data, &len,
                                &owned, err);
    if (st != IOSAGE_OK)
        return st;
    json_error_t jerr;
    json_t *o = ios_json_loadb((const char *)data, len, 0, &jerr);
    free(owned);
    const json_t *list = o ? json_object_get(o, "changes") : NULL;
    if (!o || !json_is_array(list) ||
        json_integer_value(json_object_get(o, "version")) != 1 ||
        json_integer_value(json_object_get(o, "feature_schema")) !=
            IOSAGE_FEATURE_SCHEMA_VERSION) {
        json_decref(o);
        return ios_fail(err, IOSAGE_E_CORRUPT, label, SAVINGS_FILE, -1,
                        "not a savings model list of this version");
    }
    iosage_savings_model *m = model_new();
    if (!m) {
        json_decref(o);
        return ios_fail(err, IOSAGE_E_NOMEM, label, NULL, -1, "out of memory");
    }
    /* the derived inputs after the features: these, or none (a bundle
     * saved before them); any other list is not ours */
    const json_t *derived = json_object_get(o, "derived_inputs");
    m->n_inputs = derived ? IOS_SAVINGS_INPUTS : IOSAGE_NUM_MODEL_FEATURES;
    int derived_ok = !derived || (json_is_array(derived) &&
                                  json_array_size(derived) == IOS_SAVINGS_DERIVED);
    for (int k = 0; derived_ok && derived && k < IOS_SAVINGS_DERIVED; k++) {
        const char *name = json_string_value(json_array_get(derived, (size_t)k));
        derived_ok = name && strcmp(name, ios_savings_derived[k]) == 0;
    }
    if (!derived_ok) {
        json_decref(o);
        iosage_savings_model_free(m);
        return ios_fail(err, IOSAGE_E_CORRUPT, label, SAVINGS_FILE, -1,
                        "derived_inputs: not the inputs this version forms");
    }
    const json_t *typical = json_object_get(o, "typical_saving");
    m->typical = real_or_nan(typical, "io_time_share");
    m->typical_rows =
        (int)json_integer_value(json_object_get(typical, "measured_rows"));
    if (m->typical < -1 || m->typical > 1 || m->typical_rows <= 0)
        m->typical = NAN; /* absent or out of range: none */
    json_t *few = json_object_get(typical, "too_few_rows");
    const char *few_id;
    json_t *few_rows;
    json_object_foreach(few, few_id, few_rows) {
        json_int_t rows = json_integer_value(few_rows);
        if (m->n_few == IOSAGE_SAVINGS_MAX_CHANGES || rows <= 0 ||
            rows >= MIN_ROWS)
            continue; /* not a count of too few rows: left out */
        struct few_rows *f = &m->few[m->n_few++];
        snprintf(f->change_id, sizeof f->change_id, "%.47s", few_id);
        f->rows = (int)rows;
    }
    const char *xgboost_version =
        json_string_value(json_object_get(o, "xgboost_version"));
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e) {
        if (st != IOSAGE_OK || m->n == IOSAGE_SAVINGS_MAX_CHANGES)
            break;
        struct savings_change_model *c = &m->c[m->n];
        const char *pattern = json_string_value(json_object_get(e, "pattern"));
        const char *id = json_string_value(json_object_get(e, "change_id"));
        const char *file = json_string_value(json_object_get(e, "file"));
        if (!pattern || !id || !file ||
            !iosage_validate_known_change(pattern, id)) {
            st = ios_fail(err, IOSAGE_E_CORRUPT, label, SAVINGS_FILE, -1,
                          "change %zu: no known pattern, change_id, file", i);
            break;
        }
        snprintf(c->pattern, sizeof c->pattern, "%s", pattern);
        snprintf(c->change_id, sizeof c->change_id, "%s", id);
        c->measured_rows = (int)json_integer_value(json_object_get(e, "measured_rows"));
        c->healthy_rows = (int)json_integer_value(json_object_get(e, "healthy_rows"));
        c->resid_lo = real_or_nan(e, "residual_p10");
        c->resid_hi = real_or_nan(e, "residual_p90");
        c->cv_spearman = real_or_nan(e, "cv_spearman");
        c->cv_mae = real_or_nan(e, "cv_median_abs_error_pp");
        /* the binary form, loaded instead when there is one: the build's
         * beside each embedded model, `savings train`'s beside each file
         * of a directory bundle (internal.h) */
        size_t form_len = 0;
        unsigned char *dir_form = NULL;
        const unsigned char *form = NULL;
        if (dir) {
            uint64_t want = ios_model_hash_value(
                json_string_value(json_object_get(e, "binary_hash")));
            form = dir_form = ios_model_dir_form(dir, file, want,
                                                 xgboost_version, &form_len);
        } else {
            form = ios_model_binary_form(files, n_files, file, &form_len);
        }
        if (form) {
            data = form;
            len = form_len;
            owned = dir_form;
        } else {
            st = get_file(dir, files, n_files, file, &data, &len, &owned, err);
        }
        if (st == IOSAGE_OK && lazy) { /* static files: at first use */
            c->form = data;
            c->form_len = len;
            m->n++;
            continue;
        }
        if (st == IOSAGE_OK) {
            st = ios_xgb_load_n(data, len, m->n_inputs, &c->booster, err);
            if (st != IOSAGE_OK && err) { /* name the bundle and the file */
                snprintf(err->path, sizeof err->path, "%s", label);
                snprintf(err->where, sizeof err->where, "%s", file);
            }
        }
        if (st == IOSAGE_OK)
            st = ios_xgb_threads(c->booster, 1, err);
        free(owned);
        if (c->booster)
            m->n++;
    }
    json_decref(o);
    if (st != IOSAGE_OK) {
        iosage_savings_model_free(m);
        return st;
    }
    *out = m;
    return IOSAGE_OK;
}

iosage_status iosage_savings_model_load(const char *dir,
                                        iosage_savings_model **out,
                                        iosage_error *err)
{
    return load_from(dir, NULL, 0, 0, dir, out, err);
}

iosage_status iosage_savings_model_load_mem(
    const struct iosage_model_file *files, size_t n, const char *label,
    iosage_savings_model **out, iosage_error *err)
{
    return load_from(NULL, files, n, 0, label ? label : "memory", out, err);
}

iosage_status iosage_savings_model_load_static(
    const struct iosage_model_file *files, size_t n, const char *label,
    iosage_savings_model **out, iosage_error *err)
{
    return load_from(NULL, files, n, 1, label ? label : "memory", out, err);
}

/* --- Prediction ------------------------------------------------------------ */

int iosage_savings_predict(const iosage_savings_model *m,
                           const char *change_id, const float *x,
                           struct iosage_savings_prediction *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; m && i < m->n; i++) {
        const struct savings_change_model *c = &m->c[i];
        if (strcmp(c->change_id, change_id) != 0)
            continue;
        double v;
        BoosterHandle b = booster_of(m, i);
        if (!b || predict_one(b, m->n_inputs, x, &v, NULL) != IOSAGE_OK)
            return -1;
        v = ios_libm()->fmin(clip_saving(v), ios_saving_cap(change_id, x));
        out->saving = v;
        out->lo = clip_saving(v + (isnan(c->resid_lo) ? 0 : c->resid_lo));
        out->hi = clip_saving(v + (isnan(c->resid_hi) ? 0 : c->resid_hi));
        out->measured_rows = c->measured_rows;
        return 0;
    }
    return -1;
}

int iosage_savings_typical(const iosage_savings_model *m,
                           const char *change_id, const float *x,
                           struct iosage_savings_prediction *out)
{
    memset(out, 0, sizeof *out);
    if (!m || isnan(m->typical))
        return -1;
    double v = ios_libm()->fmin(m->typical, ios_saving_cap(change_id, x));
    out->saving = out->lo = v;
    out->hi = m->typical;
    out->measured_rows = m->typical_rows;
    for (int i = 0; i < m->n_few; i++)
        if (strcmp(m->few[i].change_id, change_id) == 0)
            out->change_rows = m->few[i].rows;
    return 0;
}

/* --- Evaluation ------------------------------------------------------------ */

/* For the top check: per configuration, the best measured and the best
 * predicted change so far. */
struct top_slot {
    double best_measured, best_predicted;
    int measured_k, predicted_k, changes;
};

/* The healthy runs that the classifier never saw (the test and ood splits
 * of the dataset; it trains on train and validation): what `iosage
 * analyze` would show on them, i.e. the largest out-of-fold predicted
 * saving among the changes of the patterns the classifier detects, and
 * nothing when it calls the run healthy. hpred[i * MAX + k] is change k's
 * prediction on dataset row i. */
static iosage_status shown_on_healthy(const struct sdata *d,
                                      const iosage_model *detector,
                                      char ids[][2][48], int n,
                                      const double *hpred,
                                      struct iosage_savings_eval *out,
                                      iosage_error *err)
{
    for (size_t i = 0; i < d->ds->n_rows; i++) {
        int split = d->ds->split[i];
        if (!d->healthy[i] ||
            (split != IOSAGE_SPLIT_TEST && split != IOSAGE_SPLIT_OOD))
            continue;
        struct iosage_detection det;
        iosage_status st =
            iosage_model_detect(detector, d->ds->x + i * NF, 1, &det, err);
        if (st != IOSAGE_OK)
            return st;
        double shown = 0; /* nothing shown */
        for (int k = 0; k < n && !det.healthy; k++) {
            int p = iosage_pattern_index(ids[k][0]);
            double v = hpred[i * IOSAGE_SAVINGS_MAX_CHANGES + (size_t)k];
            if (p >= 0 && det.detected[p] && !isnan(v) && v > shown)
                shown = v;
        }
        out->shown_runs++;
        out->shown_flagged += !det.healthy;
        out->shown_under += shown < 0.05;
    }
    return IOSAGE_OK;
}

iosage_status iosage_savings_evaluate(const char *dir, const iosage_dataset *ds,
                                      int by_kernel,
                                      const iosage_model *detector,
                                      struct iosage_savings_eval *out,
                                      iosage_error *err)
{
    return iosage_savings_evaluate_rows(dir, ds, by_kernel, detector, NULL,
                                        NULL, out, err);
}

iosage_status iosage_savings_evaluate_rows(const char *dir,
                                           const iosage_dataset *ds,
                                           int by_kernel,
                                           const iosage_model *detector,
                                           iosage_savings_row_cb row,
                                           void *ctx,
                                           struct iosage_savings_eval *out,
                                           iosage_error *err)
{
    memset(out, 0, sizeof *out);
    struct sdata d;
    iosage_status st = sdata_load(dir, ds, &d, err);
    size_t nds = st == IOSAGE_OK ? d.ds->n_rows : 0;
    struct top_slot *top = st == IOSAGE_OK ? calloc(nds ? nds : 1, sizeof *top)
                                           : NULL;
    /* the largest prediction on a healthy configuration (at its index) and
     * on each healthy run, and the change that made it */
    double *healthy_max = st == IOSAGE_OK
                              ? malloc((nds ? nds : 1) * sizeof *healthy_max)
                              : NULL;
    double *run_max = st == IOSAGE_OK
                          ? malloc((nds ? nds : 1) * sizeof *run_max)
                          : NULL;
    int *healthy_k = st == IOSAGE_OK ? calloc(nds ? nds : 1, sizeof *healthy_k)
                                     : NULL;
    if (st == IOSAGE_OK && (!top || !healthy_max || !run_max || !healthy_k))
        st = ios_fail(err, IOSAGE_E_NOMEM, dir, NULL, -1, "out of memory");
    for (size_t i = 0; i < nds && healthy_max && run_max && healthy_k; i++) {
        healthy_max[i] = run_max[i] = -INFINITY;
        top[i].best_measured = top[i].best_predicted = -INFINITY;
    }
    int folds = by_kernel ? 0 : FOLDS;
    /* by kernel: one group per distinct kernel name */
    const char *kernels[64];
    int nk = 0;
    for (size_t i = 0; by_kernel && st == IOSAGE_OK && i < nds; i++) {
        const char *k = d.ds->kernels ? d.ds->kernels[i] : "";
        int seen = 0;
        for (int j = 0; j < nk && !seen; j++)
            seen = strcmp(kernels[j], k) == 0;
        if (!seen && nk < 64)
            kernels[nk++] = k;
    }
    if (by_kernel)
        folds = nk;
    char ids[IOSAGE_SAVINGS_MAX_CHANGES][2][48];
    int n = st == IOSAGE_OK ? table_changes(&d, ids, IOSAGE_SAVINGS_MAX_CHANGES)
                            : 0;
    size_t nh = (nds ? nds : 1) * IOSAGE_SAVINGS_MAX_CHANGES;
    double *hpred = st == IOSAGE_OK ? malloc(nh * sizeof *hpred) : NULL;
    if (st == IOSAGE_OK && !hpred)
        st = ios_fail(err, IOSAGE_E_NOMEM, dir, NULL, -1, "out of memory");
    for (size_t i = 0; hpred && i < nh; i++)
        hpred[i] = NAN;
    for (int k = 0; k < n && st == IOSAGE_OK; k++) {
        struct srow *r = NULL;
        size_t nr = 0;
        st = change_rows(&d, ids[k][1], 0, FOLDS, &r, &nr, err);
        if (st != IOSAGE_OK)
            break;
        if (by_kernel)
            for (size_t i = 0; i < nr; i++)
                for (int j = 0; j < nk; j++)
                    if (strcmp(kernels[j], r[i].kernel) == 0)
                        r[i].group = j;
        double *pred = malloc((nr ? nr : 1) * sizeof *pred);
        if (!pred)
            st = ios_fail(err, IOSAGE_E_NOMEM, dir, NULL, -1, "out of memory");
        if (st == IOSAGE_OK)
            st = out_of_fold(ids[k][1], r, nr, folds, pred, err);
        struct iosage_savings_eval_change *e = &out->changes[out->n_changes++];
        snprintf(e->pattern, sizeof e->pattern, "%.47s", ids[k][0]);
        snprintf(e->change_id, sizeof e->change_id, "%.47s", ids[k][1]);
        if (st == IOSAGE_OK)
            fold_figures(r, nr, pred, &e->spearman, &e->mae_pp, &e->runs);
        for (size_t i = 0; st == IOSAGE_OK && row && i < nr; i++) {
            size_t ds_row = r[i].ds_row;
            struct iosage_savings_eval_row one = {
                d.ds->run_ids ? d.ds->run_ids[ds_row] : "",
                r[i].kernel ? r[i].kernel : "", ids[k][1], r[i].healthy,
                r[i].y, pred[i], ios_saving_cap(ids[k][1], r[i].x)};
            row(ctx, &one);
        }
        for (size_t i = 0; st == IOSAGE_OK && i < nr; i++) {
            if (!r[i].healthy && r[i].y >= IOSAGE_SAVINGS_PAYS)
                e->measured_pays++;
            if (!r[i].healthy && pred[i] >= IOSAGE_SAVINGS_PAYS)
                e->predicted_pays++;
            if (!r[i].healthy && r[i].y >= IOSAGE_SAVINGS_PAYS &&
                pred[i] >= IOSAGE_SAVINGS_PAYS)
                e->both_pay++;
            /* per run: a configuration measured on two systems is two
             * runs, each with its own best change */
            struct top_slot *t = &top[r[i].ds_row];
            if (r[i].healthy) {
                if (pred[i] > healthy_max[r[i].config]) {
                    healthy_max[r[i].config] = pred[i];
                    healthy_k[r[i].config] = k;
                }
                if (pred[i] > run_max[r[i].ds_row])
                    run_max[r[i].ds_row] = pred[i];
                hpred[r[i].ds_row * IOSAGE_SAVINGS_MAX_CHANGES + (size_t)k] =
                    pred[i];
                continue;
            }
            t->changes++;
            if (r[i].y > t->best_measured) {
                t->best_measured = r[i].y;
                t->measured_k = k;
            }
            if (pred[i] > t->best_predicted) {
                t->best_predicted = pred[i];
                t->predicted_k = k;
            }
        }
        free(pred);
        free(r);
    }
    for (size_t i = 0; st == IOSAGE_OK && i < nds; i++) {
        if (top[i].changes > 0) {
            out->pattern_runs++;
            out->top_right += top[i].measured_k == top[i].predicted_k;
            if (top[i].changes > 1) {
                out->multi_runs++;
                out->multi_top_right += top[i].measured_k == top[i].predicted_k;
            }
        }
        if (run_max[i] > -INFINITY) {
            out->healthy_single++;
            out->healthy_single_under += run_max[i] < 0.05;
        }
        if (healthy_max[i] > -INFINITY) {
            out->healthy_runs++;
            out->healthy_under += healthy_max[i] < 0.05;
        }
        int nm = out->n_misses;
        if (healthy_max[i] >= 0.05 &&
            nm < (int)(sizeof out->misses / sizeof out->misses[0])) {
            struct iosage_savings_healthy_miss *m = &out->misses[nm];
            snprintf(m->config, sizeof m->config, "%.63s", d.configs[i]);
            snprintf(m->change_id, sizeof m->change_id, "%s",
                     ids[healthy_k[i]][1]);
            m->predicted = healthy_max[i];
            out->n_misses++;
        }
    }
    if (st == IOSAGE_OK && detector)
        st = shown_on_healthy(&d, detector, ids, n, hpred, out, err);
    free(hpred);
    free(top);
    free(healthy_max);
    free(run_max);
    free(healthy_k);
    sdata_free(&d);
    return st;
}
