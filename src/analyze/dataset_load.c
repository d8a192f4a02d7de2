/*
 * src/analyze/dataset_load.c - iosage_dataset_load: a dataset directory
 * (manifest.tsv, layout in src/model/dataset.c) into a labeled feature
 * matrix. Each ok run's log goes through iosage_analyze to the features
 * stage, the same read, decode, file table and features as `iosage
 * analyze` and `iosage batch`, so training and evaluation see exactly the
 * features a user's job gets.
 *
 * The labels of generated runs (a manifest with a config_id column) are
 * their configuration's, less what detection can never report in the run
 * (reachable_labels); hand-made labels are read as they are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ios_common.h"
#include "iosage/label.h"
#include "iosage/model.h"
#include "iosage/patterns.h"

#define NF IOSAGE_NUM_FEATURES

/* --- The manifest's runs ------------------------------------------------ */

/* One ok run of the manifest (iosage_manifest_load reads the file). */
struct mrow {
    char *run_id, *log, *kernel; /* kernel NULL without the column */
    uint32_t labels;
    uint8_t split;
};

struct manifest {
    const char *path;
    size_t n, cap;
    struct mrow *rows;
    int col_run, col_labels, col_log, col_split, col_status, n_need;
    int col_kernel; /* -1 when the manifest has none */
    int generated;  /* 1: a config_id column (labels from a configuration) */
};

static void manifest_free(struct manifest *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->rows[i].run_id);
        free(m->rows[i].log);
        free(m->rows[i].kernel);
    }
    free(m->rows);
}

static iosage_status find_columns(struct manifest *m, const iosage_manifest *t,
                                  iosage_error *err)
{
    static const char *const need[] = {"run_id", "labels", "log", "split",
                                       "status"};
    int *idx[] = {&m->col_run, &m->col_labels, &m->col_log, &m->col_split,
                  &m->col_status};
    m->n_need = 0;
    for (int i = 0; i < 5; i++) {
        *idx[i] = iosage_manifest_column(t, need[i]);
        if (*idx[i] < 0)
            return ios_fail(err, IOSAGE_E_CORRUPT, m->path, "", -1,
                            "line 1: no '%s' column in the header", need[i]);
        if (*idx[i] + 1 > m->n_need)
            m->n_need = *idx[i] + 1;
    }
    m->col_kernel = iosage_manifest_column(t, "kernel");
    m->generated = iosage_manifest_column(t, "config_id") >= 0;
    if (m->col_kernel + 1 > m->n_need)
        m->n_need = m->col_kernel + 1;
    return IOSAGE_OK;
}

/* Label bits of "healthy" or "a,b,c"; -1 with the bad token in *bad
 * (text is cut at its commas). */
static int64_t parse_labels(char *text, const char **bad)
{
    if (strcmp(text, "healthy") == 0)
        return 0;
    uint32_t bits = 0;
    for (char *tok = text; tok;) {
        char *comma = strchr(tok, ',');
        if (comma)
            *comma = '\0';
        int k = iosage_pattern_index(tok);
        if (k < 0) {
            *bad = tok;
            return -1;
        }
        bits |= 1u << k;
        tok = comma ? comma + 1 : NULL;
    }
    return bits;
}

/* Row i of t, an ok run, onto m. */
static iosage_status add_row(struct manifest *m, const iosage_manifest *t,
                             size_t i, iosage_error *err)
{
    const char *bad = NULL;
    char labels_text[4096];
    snprintf(labels_text, sizeof labels_text, "%s",
             iosage_manifest_cell(t, i, m->col_labels));
    int64_t labels = parse_labels(labels_text, &bad);
    const char *split_text = iosage_manifest_cell(t, i, m->col_split);
    int split = iosage_split_index(split_text);
    if (labels < 0)
        return ios_fail(err, IOSAGE_E_CORRUPT, m->path, "", -1,
                        "line %zu: unknown pattern id '%s'", t->lineno[i],
                        bad);
    if (split < 0)
        return ios_fail(err, IOSAGE_E_CORRUPT, m->path, "", -1,
                        "line %zu: unknown split '%s'", t->lineno[i],
                        split_text);
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 256;
        struct mrow *r = realloc(m->rows, cap * sizeof *r);
        if (!r)
            return ios_fail(err, IOSAGE_E_NOMEM, m->path, "", -1, "no memory");
        m->rows = r;
        m->cap = cap;
    }
    struct mrow *r = &m->rows[m->n];
    r->run_id = strdup(iosage_manifest_cell(t, i, m->col_run));
    r->log = strdup(iosage_manifest_cell(t, i, m->col_log));
    r->kernel = m->col_kernel >= 0
                    ? strdup(iosage_manifest_cell(t, i, m->col_kernel))
                    : NULL;
    r->labels = (uint32_t)labels;
    r->split = (uint8_t)split;
    m->n++;
    if (!r->run_id || !r->log || (m->col_kernel >= 0 && !r->kernel))
        return ios_fail(err, IOSAGE_E_NOMEM, m->path, "", -1, "no memory");
    return IOSAGE_OK;
}

/* The ok runs of DIR's manifest into m. */
static iosage_status read_manifest(const char *dir, struct manifest *m,
                                   iosage_error *err)
{
    iosage_manifest *t = NULL;
    iosage_status st = iosage_manifest_load(dir, &t, err);
    if (st != IOSAGE_OK)
        return st;
    m->path = t->path;
    st = find_columns(m, t, err);
    for (size_t i = 0; st == IOSAGE_OK && i < t->n_rows; i++) {
        if (t->n_cells[i] < m->n_need)
            st = ios_fail(err, IOSAGE_E_CORRUPT, m->path, "", -1,
                          "line %zu: %d columns, the header names %d",
                          t->lineno[i], t->n_cells[i], m->n_need);
        else if (strcmp(iosage_manifest_cell(t, i, m->col_status), "ok") == 0)
            st = add_row(m, t, i, err);
    }
    m->path = NULL;  /* t's, freed now */
    iosage_manifest_free(t);
    return st;
}

/* --- Logs to features ---------------------------------------------------- */

/* Features of one row's log into x and its path (malloc'd) into *where;
 * IOSAGE_OK, or why it was skipped. */
static iosage_status row_features(const char *dir, const struct mrow *r,
                                  float *x, char **where, iosage_error *err)
{
    char path[4096];
    *where = NULL;
    int n = r->log[0] == '/'
                ? snprintf(path, sizeof path, "%s", r->log)
                : snprintf(path, sizeof path, "%s/%s", dir, r->log);
    if (n < 0 || (size_t)n >= sizeof path)
        return ios_fail(err, IOSAGE_E_LIMIT, r->log, "", -1, "path too long");
    struct iosage_analyze_options o = {.stage = IOSAGE_ANALYZE_FEATURES};
    iosage_analysis *a = NULL;
    iosage_status st = iosage_analyze(path, &o, &a, err);
    if (st == IOSAGE_OK)
        memcpy(x, a->x, sizeof a->x);
    iosage_analysis_free(a);
    if (st == IOSAGE_OK && !(*where = strdup(path)))
        st = ios_fail(err, IOSAGE_E_NOMEM, r->log, "", -1, "no memory");
    return st;
}

/* A generated run's configuration labels, less what detection can never
 * report in it: every pattern when the run is under the healthy gate
 * (rule 0), a pattern whose floors it does not reach (rule 4). */
static void reachable_labels(iosage_dataset *ds, size_t row, int share)
{
    const float *x = ds->x + row * NF;
    uint32_t had = ds->labels[row];
    if (had == 0)
        return;
    if (share >= 0 && x[share] < IOSAGE_LABEL_GATE) {
        ds->labels[row] = 0;
        ds->n_gated++;
        return;
    }
    for (int k = 0; k < iosage_pattern_count(); k++)
        if ((had & (1u << k)) &&
            !iosage_pattern_floor_met(iosage_pattern_get(k), x, NULL, 0))
            ds->labels[row] &= ~(1u << k);
    if (ds->labels[row] != had)
        ds->n_floored++;
}

static iosage_status fill_dataset(const char *dir, struct manifest *m,
                                  iosage_dataset *ds, iosage_dataset_cb cb,
                                  void *ctx, iosage_error *err)
{
    size_t out = 0;
    int share = iosage_feature_index("job_io_time_share_slowest");
    for (size_t i = 0; i < m->n; i++) {
        struct mrow *r = &m->rows[i];
        const char *id = r->run_id; /* the same string once handed over */
        iosage_error why;
        iosage_status st = row_features(dir, r, ds->x + out * NF,
                                        &ds->logs[out], &why);
        if (st == IOSAGE_E_NOMEM) {
            *err = why;
            return st;
        }
        if (st != IOSAGE_OK) {
            ds->n_skipped++;
        } else {
            ds->labels[out] = r->labels;
            if (m->generated)
                reachable_labels(ds, out, share);
            ds->split[out] = r->split;
            ds->run_ids[out] = r->run_id;
            r->run_id = NULL; /* now the dataset's */
            if (ds->kernels) {
                ds->kernels[out] = r->kernel;
                r->kernel = NULL;
            }
            out++;
        }
        if (cb)
            cb(ctx, i + 1, m->n, id, st == IOSAGE_OK ? NULL : &why);
    }
    ds->n_rows = out;
    return IOSAGE_OK;
}

iosage_status iosage_dataset_load(const char *dir, iosage_dataset_cb cb,
                                  void *ctx, iosage_dataset **out,
                                  iosage_error *err)
{
    *out = NULL;
    struct manifest m;
    memset(&m, 0, sizeof m);
    iosage_status st = read_manifest(dir, &m, err);
    iosage_dataset *ds = NULL;
    if (st == IOSAGE_OK)
        st = iosage_dataset_create(m.n, &ds, err);
    if (st == IOSAGE_OK) {
        ds->run_ids = calloc(m.n ? m.n : 1, sizeof *ds->run_ids);
        ds->logs = calloc(m.n ? m.n : 1, sizeof *ds->logs);
        if (m.col_kernel >= 0)
            ds->kernels = calloc(m.n ? m.n : 1, sizeof *ds->kernels);
        if (!ds->run_ids || !ds->logs || (m.col_kernel >= 0 && !ds->kernels))
            st = ios_fail(err, IOSAGE_E_NOMEM, dir, "", -1, "no memory");
    }
    if (st == IOSAGE_OK)
        st = fill_dataset(dir, &m, ds, cb, ctx, err);
    manifest_free(&m);
    if (st != IOSAGE_OK) {
        if (ds)
            ds->n_rows = m.n; /* free every run id handed over */
        iosage_dataset_free(ds);
        return st;
    }
    *out = ds;
    return IOSAGE_OK;
}
