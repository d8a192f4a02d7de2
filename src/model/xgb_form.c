/*
 * src/model/xgb_form.c - a model in the form XGBoost loads fastest, made
 * only when it gives back exactly the same model.
 *
 * iosage keeps its models in XGBoost's JSON (readable, and what the
 * bundle's hashes are of). XGBoost 1.6 loads the default bundle's gate
 * model from its JSON in about 30 ms, from Universal Binary JSON in about
 * 8 and from its own older binary format (what XGBoosterSaveModelToBuffer
 * writes for "deprecated") in 0.3: that format stores the trees as arrays,
 * not as objects to parse. It is deprecated, so a later XGBoost may drop
 * something from it; the form is therefore checked against the model it
 * came from before anyone uses it: the same trees (XGBoost's dump with
 * statistics, tree by tree) and bit for bit the same margins and SHAP
 * contributions on fixed rows with missing values, zeros, small and large
 * numbers.
 *
 * Two users: the build, which embeds the form of each model of the
 * default bundle (cmake/tools/model_bin.c), and `iosage train` and
 * `iosage savings train`, which write it beside each model file of the
 * bundles they make (bundle.c, savings_model.c), so that `--model DIR`
 * loads as fast as the built-in bundle.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* 1 when a and b dump the same trees, with their statistics. */
static int same_trees(BoosterHandle a, BoosterHandle b)
{
    bst_ulong na = 0, nb = 0;
    const char **da = NULL, **db = NULL;
    if (ios_xgb()->XGBoosterDumpModelEx(a, "", 1, "json", &na, &da) != 0)
        return 0;
    /* the dump's strings live until the booster's next call: keep a's */
    char **keep = calloc(na ? na : 1, sizeof *keep);
    int same = keep != NULL;
    for (bst_ulong i = 0; same && i < na; i++)
        same = (keep[i] = strdup(da[i])) != NULL;
    if (same && (ios_xgb()->XGBoosterDumpModelEx(b, "", 1, "json", &nb, &db) != 0 ||
                 nb != na))
        same = 0;
    for (bst_ulong i = 0; same && i < na; i++)
        same = strcmp(keep[i], db[i]) == 0;
    for (bst_ulong i = 0; keep && i < na; i++)
        free(keep[i]);
    free(keep);
    return same;
}

/* A copy of b's predictions on m as config how asks (malloc'd; *n
 * values), or NULL. */
static float *outputs(BoosterHandle b, DMatrixHandle m, const char *how,
                      size_t *n)
{
    const bst_ulong *shape = NULL;
    bst_ulong dim = 0;
    const float *out = NULL;
    if (ios_xgb()->XGBoosterPredictFromDMatrix(b, m, how, &shape, &dim, &out) != 0)
        return NULL;
    *n = 1;
    for (bst_ulong d = 0; d < dim; d++)
        *n *= shape[d];
    float *copy = malloc(sizeof *copy * (*n ? *n : 1));
    if (copy)
        memcpy(copy, out, sizeof *copy * *n);
    return copy;
}

/* 1 when a and b give bit for bit the same margins and SHAP contributions
 * on ROWS fixed rows of the model's features: a missing value, zeros,
 * values in [0, 1) and up to 10^6, negative ones. */
enum { ROWS = 64 };
static int same_outputs(BoosterHandle a, BoosterHandle b)
{
    bst_ulong nf = 0;
    if (ios_xgb()->XGBoosterGetNumFeature(a, &nf) != 0 || nf == 0)
        return 0;
    float *x = malloc(sizeof *x * ROWS * nf);
    if (!x)
        return 0;
    uint64_t s = 88172645463325252ULL; /* xorshift64: the same rows always */
    for (size_t i = 0; i < ROWS * nf; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        double u = (double)(s >> 11) / 9007199254740992.0;
        switch (s % 8) {
        case 0: x[i] = NAN; break;
        case 1: x[i] = 0.0f; break;
        case 2: x[i] = (float)(u * 1e6); break;
        case 3: x[i] = (float)(-u); break;
        default: x[i] = (float)u; break;
        }
    }
    DMatrixHandle m = NULL;
    int same = ios_xgb()->XGDMatrixCreateFromMat(x, ROWS, nf, NAN, &m) == 0;
    static const char *const how[] = {
        "{\"type\": 1, \"training\": false, \"iteration_begin\": 0, "
        "\"iteration_end\": 0, \"strict_shape\": false}",
        "{\"type\": 2, \"training\": false, \"iteration_begin\": 0, "
        "\"iteration_end\": 0, \"strict_shape\": false}"};
    for (int k = 0; same && k < 2; k++) {
        size_t na = 0, nb = 0;
        float *oa = outputs(a, m, how[k], &na), *ob = outputs(b, m, how[k], &nb);
        same = oa && ob && na == nb && memcmp(oa, ob, sizeof *oa * na) == 0;
        free(oa);
        free(ob);
    }
    if (m)
        ios_xgb()->XGDMatrixFree(m);
    free(x);
    return same;
}

/* See internal.h. */
unsigned char *ios_xgb_binary_form(BoosterHandle b, size_t *len)
{
    const char *form = NULL;
    bst_ulong form_len = 0;
    unsigned char *copy = NULL;
    *len = 0;
    if (ios_xgb()->XGBoosterSaveModelToBuffer(b, "{\"format\": \"deprecated\"}",
                                              &form_len, &form) != 0 ||
        form_len == 0 || !(copy = malloc(form_len)))
        return NULL;
    memcpy(copy, form, form_len); /* XGBoost's buffer is reused by its next call */
    BoosterHandle back = NULL;
    bst_ulong nf = 0;
    int same = ios_xgb()->XGBoosterGetNumFeature(b, &nf) == 0 &&
               ios_xgb_load_n(copy, form_len, (size_t)nf, &back, NULL) ==
                   IOSAGE_OK &&
               same_trees(b, back) && same_outputs(b, back);
    if (back)
        ios_xgb()->XGBoosterFree(back);
    if (!same) {
        free(copy);
        return NULL;
    }
    *len = form_len;
    return copy;
}
