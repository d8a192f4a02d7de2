/*
 * src/model/evaluate.c - what `iosage eval` compares: a bundle's label sets
 * on every row of a dataset (the rule baseline's on the same logs are
 * src/rules/dataset.c: the models do not depend on the rules), and the
 * leave-one-kernel-out table (a bundle and a random forest trained without
 * one benchmark kernel, scored on that kernel's runs).
 */
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "internal.h"

iosage_status iosage_model_predict_dataset(const iosage_model *m,
                                           const iosage_dataset *ds,
                                           uint32_t *pred,
                                           struct iosage_detection *det,
                                           iosage_error *err)
{
    struct iosage_detection *d = det;
    if (!d && !(d = malloc((ds->n_rows ? ds->n_rows : 1) * sizeof *d)))
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "eval", -1, "no memory");
    iosage_status st = iosage_model_detect(m, ds->x, ds->n_rows, d, err);
    for (size_t i = 0; st == IOSAGE_OK && i < ds->n_rows; i++)
        pred[i] = d[i].labels;
    if (d != det)
        free(d);
    return st;
}

/* --- Leave one kernel out ------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The distinct kernel names of ds, sorted, into *names (pointers into ds,
 * the array malloc'd); their number in *n. */
static iosage_status kernel_names(const iosage_dataset *ds, const char ***names,
                                  size_t *n, iosage_error *err)
{
    const char **all = malloc((ds->n_rows ? ds->n_rows : 1) * sizeof *all);
    *names = NULL;
    *n = 0;
    if (!all)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "loko", -1, "no memory");
    for (size_t i = 0; i < ds->n_rows; i++)
        all[i] = ds->kernels[i] ? ds->kernels[i] : "";
    qsort(all, ds->n_rows, sizeof *all, cmp_str);
    for (size_t i = 0; i < ds->n_rows; i++)
        if (*n == 0 || strcmp(all[*n - 1], all[i]) != 0)
            all[(*n)++] = all[i];
    *names = all;
    return IOSAGE_OK;
}

/* Working state of one held-out kernel. */
struct held_out {
    iosage_dataset view; /* ds's rows, with split of its own */
    uint8_t *keep;       /* rows of the kernel */
    uint32_t *pred;
};

/* Train a bundle with p on the view, score it on the kept rows. */
static iosage_status train_and_score(struct held_out *h,
                                     const struct iosage_train_params *p,
                                     struct iosage_metrics *out,
                                     iosage_error *err)
{
    iosage_model *m = NULL;
    iosage_status st = iosage_model_train(&h->view, p, &m, err);
    if (st == IOSAGE_OK)
        st = iosage_model_predict_dataset(m, &h->view, h->pred, NULL, err);
    if (st == IOSAGE_OK)
        st = iosage_metrics_rows(&h->view, h->pred, h->keep, out, err);
    iosage_model_free(m);
    return st;
}

/* One row of the table: kernel k held out. */
static iosage_status hold_out(const iosage_dataset *ds, const char *k,
                              struct held_out *h,
                              const struct iosage_train_params *boost,
                              const struct iosage_train_params *forest,
                              const uint32_t *rules_pred,
                              struct iosage_loko_row *row, iosage_error *err)
{
    memset(row, 0, sizeof *row);
    snprintf(row->kernel, sizeof row->kernel, "%s", k);
    for (size_t i = 0; i < ds->n_rows; i++) {
        int mine = strcmp(ds->kernels[i] ? ds->kernels[i] : "", k) == 0;
        int fit = ds->split[i] == IOSAGE_SPLIT_TRAIN ||
                  ds->split[i] == IOSAGE_SPLIT_VALIDATION;
        h->keep[i] = (uint8_t)mine;
        /* the kernel's rows are scored, not trained on; the other
         * kernels' test and ood rows are left out (no split) */
        h->view.split[i] = mine ? IOSAGE_SPLIT_TEST
                                : fit ? ds->split[i] : IOSAGE_SPLIT_COUNT;
    }
    iosage_status st = train_and_score(h, boost, &row->models, err);
    if (st == IOSAGE_OK)
        st = train_and_score(h, forest, &row->forest, err);
    if (st == IOSAGE_OK && rules_pred)
        st = iosage_metrics_rows(ds, rules_pred, h->keep, &row->rules, err);
    return st;
}

iosage_status iosage_loko(const iosage_dataset *ds,
                          const struct iosage_train_params *boost,
                          const struct iosage_train_params *forest,
                          const uint32_t *rules_pred,
                          struct iosage_loko_row **rows, size_t *n_rows,
                          iosage_error *err)
{
    *rows = NULL;
    *n_rows = 0;
    if (!ds->kernels)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "loko", -1,
                        "the dataset's manifest has no kernel column");
    const char **names = NULL;
    size_t n = 0;
    iosage_status st = kernel_names(ds, &names, &n, err);
    struct held_out h;
    memset(&h, 0, sizeof h);
    h.view = *ds;
    size_t cap = ds->n_rows ? ds->n_rows : 1;
    h.view.split = malloc(cap);
    h.keep = malloc(cap);
    h.pred = malloc(cap * sizeof *h.pred);
    struct iosage_loko_row *out = calloc(n ? n : 1, sizeof *out);
    if (st == IOSAGE_OK && (!h.view.split || !h.keep || !h.pred || !out))
        st = ios_fail(err, IOSAGE_E_NOMEM, NULL, "loko", -1, "no memory");
    for (size_t k = 0; st == IOSAGE_OK && k < n; k++)
        st = hold_out(ds, names[k], &h, boost, forest, rules_pred, &out[k],
                      err);
    free(h.view.split);
    free(h.keep);
    free(h.pred);
    free(names);
    if (st != IOSAGE_OK) {
        free(out);
        return st;
    }
    *rows = out;
    *n_rows = n;
    return IOSAGE_OK;
}
