/*
 * src/model/xgb.c - the thin layer over XGBoost 1.7's C API.
 *
 * Facts this file relies on (docs TOOLCHAIN.md section 3 and P2, P4, P5):
 *   - validate_parameters is off by default: it is set, and a bad value
 *     only fails at the first UpdateOneIter, which is checked;
 *   - in-place prediction (PredictFromDense) needs "cache_id" and
 *     "missing" in its config, and gives probabilities or margins only:
 *     SHAP (type 2, exact TreeSHAP) goes through a one-row DMatrix;
 *   - result buffers belong to XGBoost (per thread) and are overwritten by
 *     the next call: every result is copied out at once;
 *   - ios_xgb()->XGBGetLastError() carries a stack trace: only its first line is kept;
 *   - log lines go to a callback registered per thread.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "internal.h"
#include "ios_math.h"

#define NF IOSAGE_NUM_FEATURES
/* Rows hold NF features; a model sees the first NM of them (the counts
 * after them are for the patterns' floors only: iosage/features.h). */
#define NM IOSAGE_NUM_MODEL_FEATURES

/* --- Errors and log lines --------------------------------------------------- */

iosage_status ios_xgb_fail(iosage_error *err, iosage_status code,
                           const char *what)
{
    const char *e = ios_xgb()->XGBGetLastError();
    char line[200];
    if (!e)
        e = "";
    /* drop a leading "[hh:mm:ss] " and keep the first line */
    if (e[0] == '[') {
        const char *close = strchr(e, ']');
        if (close && close[1] == ' ')
            e = close + 2;
    }
    size_t n = strcspn(e, "\n");
    if (n >= sizeof line)
        n = sizeof line - 1;
    memcpy(line, e, n);
    line[n] = '\0';
    return ios_fail(err, code, NULL, "model", -1, "xgboost: %s: %s", what,
                    line[0] ? line : "failed");
}

static void (*log_hook)(void *ctx, const char *msg);
static void *log_hook_ctx;

void iosage_model_set_log_hook(void (*hook)(void *ctx, const char *msg),
                               void *ctx)
{
    log_hook = hook;
    log_hook_ctx = ctx;
}

/* XGBoost's callback: one line, without a trailing newline, to the hook. */
static void log_line(const char *msg)
{
    if (!log_hook || !msg)
        return;
    char line[512];
    size_t n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
        n--;
    if (n >= sizeof line)
        n = sizeof line - 1;
    memcpy(line, msg, n);
    line[n] = '\0';
    log_hook(log_hook_ctx, line);
}

void ios_xgb_capture_log(void)
{
    ios_xgb()->XGBRegisterLogCallback(log_line);
}

const char *ios_xgb_version(void)
{
    static char text[32];
    if (!text[0]) {
        int a, b, c;
        ios_xgb()->XGBoostVersion(&a, &b, &c);
        snprintf(text, sizeof text, "%d.%d.%d", a, b, c);
    }
    return text;
}

/* --- Matrices and boosting ------------------------------------------------- */

iosage_status ios_xgb_matrix_cols(const float *x, size_t n, size_t stride,
                                  size_t cols, DMatrixHandle *out,
                                  iosage_error *err)
{
    *out = NULL;
    /* the model inputs of each row, packed (XGBoost copies them) */
    float *m = malloc((n ? n : 1) * cols * sizeof *m);
    if (!m)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, NULL, -1, "out of memory");
    for (size_t i = 0; i < n; i++)
        memcpy(m + i * cols, x + i * stride, cols * sizeof *m);
    int rc = ios_xgb()->XGDMatrixCreateFromMat(m, (bst_ulong)n,
                                               (bst_ulong)cols, NAN, out);
    free(m);
    if (rc != 0)
        return ios_xgb_fail(err, IOSAGE_E_INTERNAL, "DMatrix");
    return IOSAGE_OK;
}

iosage_status ios_xgb_matrix(const float *x, size_t n, DMatrixHandle *out,
                             iosage_error *err)
{
    return ios_xgb_matrix_cols(x, n, NF, NM, out, err);
}

static int set_param(BoosterHandle b, const char *name, const char *value)
{
    return ios_xgb()->XGBoosterSetParam(b, name, value);
}

static int set_paramf(BoosterHandle b, const char *name, double value)
{
    char text[40];
    snprintf(text, sizeof text, "%.17g", value);
    return ios_xgb()->XGBoosterSetParam(b, name, text);
}

/* The parameters of every model (P2: validate_parameters=1). */
static int set_params(BoosterHandle b, const struct ios_boost_job *job)
{
    const struct iosage_train_params *p = job->p;
    int rc = set_param(b, "validate_parameters", "1");
    rc |= set_param(b, "objective",
                    job->objective ? job->objective : "binary:logistic");
    rc |= set_param(b, "tree_method", "hist");
    rc |= set_paramf(b, "seed", p->seed);
    rc |= set_paramf(b, "max_depth", p->max_depth);
    rc |= set_paramf(b, "eta", p->eta);
    rc |= set_paramf(b, "subsample", p->subsample);
    rc |= set_paramf(b, "colsample_bytree", p->colsample_bytree);
    rc |= set_paramf(b, "min_child_weight", p->min_child_weight);
    rc |= set_paramf(b, "lambda", p->lambda);
    if (!job->objective)
        rc |= set_paramf(b, "scale_pos_weight", job->scale_pos_weight);
    rc |= set_paramf(b, "nthread", p->threads);
    /* random forest mode (set only then, so boosted bundles stay as
     * they were) */
    if (p->forest_trees > 0)
        rc |= set_paramf(b, "num_parallel_tree", p->forest_trees);
    if (p->colsample_bynode < 1)
        rc |= set_paramf(b, "colsample_bynode", p->colsample_bynode);
    return rc;
}

/* Mean log loss of the validation rows at the booster's current rounds. */
static iosage_status valid_loss(BoosterHandle b, const struct ios_boost_job *job,
                                double *loss, iosage_error *err)
{
    static const char cfg[] =
        "{\"type\": 0, \"training\": false, \"iteration_begin\": 0, "
        "\"iteration_end\": 0, \"strict_shape\": false}";
    const bst_ulong *shape;
    bst_ulong dim;
    const float *pred;
    if (ios_xgb()->XGBoosterPredictFromDMatrix(b, job->valid, cfg, &shape, &dim, &pred))
        return ios_xgb_fail(err, IOSAGE_E_INTERNAL, "predict");
    double sum = 0;
    for (size_t i = 0; i < job->n_valid; i++) {
        double q = pred[i];
        q = q < 1e-15 ? 1e-15 : q > 1 - 1e-15 ? 1 - 1e-15 : q;
        sum -= job->valid_labels[i] > 0.5f ? ios_libm()->log(q) : ios_libm()->log(1 - q);
    }
    *loss = sum / (double)job->n_valid;
    return IOSAGE_OK;
}

/* Run the boosting rounds; *best is the 0-based round of the lowest
 * validation loss (the last round without validation rows). */
static iosage_status run_rounds(BoosterHandle b, const struct ios_boost_job *job,
                                int *best, iosage_error *err)
{
    const struct iosage_train_params *p = job->p;
    double best_loss = INFINITY;
    *best = -1;
    for (int it = 0; it < p->max_rounds; it++) {
        if (ios_xgb()->XGBoosterUpdateOneIter(b, it, job->train) != 0)
            return ios_xgb_fail(err, IOSAGE_E_INTERNAL, "training round");
        if (p->progress)
            p->progress(p->progress_ctx, job->model, job->n_models, job->id,
                        it + 1, p->max_rounds);
        if (!job->valid || job->n_valid == 0) {
            *best = it;
            continue;
        }
        double loss = 0;
        iosage_status st = valid_loss(b, job, &loss, err);
        if (st != IOSAGE_OK)
            return st;
        if (loss < best_loss) {
            best_loss = loss;
            *best = it;
        } else if (p->early_stopping > 0 && it - *best >= p->early_stopping) {
            break;
        }
    }
    return IOSAGE_OK;
}

iosage_status ios_xgb_boost(const struct ios_boost_job *job,
                            BoosterHandle *out, int *rounds, iosage_error *err)
{
    DMatrixHandle cache[2] = {job->train, job->valid};
    BoosterHandle b = NULL;
    *out = NULL;
    *rounds = 0;
    if (ios_xgb()->XGBoosterCreate(cache, job->valid ? 2 : 1, &b) != 0)
        return ios_xgb_fail(err, IOSAGE_E_INTERNAL, "create booster");
    if (set_params(b, job) != 0) {
        ios_xgb()->XGBoosterFree(b);
        return ios_xgb_fail(err, IOSAGE_E_USAGE, "parameters");
    }
    int best;
    iosage_status st = run_rounds(b, job, &best, err);
    if (st != IOSAGE_OK) {
        ios_xgb()->XGBoosterFree(b);
        return st;
    }
    int done = 0;
    ios_xgb()->XGBoosterBoostedRounds(b, &done);
    if (best + 1 < done) {
        BoosterHandle cut = NULL;
        if (ios_xgb()->XGBoosterSlice(b, 0, best + 1, 1, &cut) != 0) {
            ios_xgb()->XGBoosterFree(b);
            return ios_xgb_fail(err, IOSAGE_E_INTERNAL, "slice");
        }
        ios_xgb()->XGBoosterFree(b);
        b = cut;
    }
    /* Hand back the model as a bundle will hold it: reloaded from its JSON,
     * with no training caches and no reference to the matrices. */
    const char *data = NULL;
    size_t len = 0;
    bst_ulong nf = 0; /* the training matrix's columns */
    if (ios_xgb()->XGBoosterGetNumFeature(b, &nf) != 0)
        st = ios_xgb_fail(err, IOSAGE_E_INTERNAL, "features");
    if (st == IOSAGE_OK)
        st = ios_xgb_save(b, &data, &len, err);
    if (st == IOSAGE_OK)
        st = ios_xgb_load_n(data, len, (size_t)nf, out, err);
    ios_xgb()->XGBoosterFree(b);
    if (st == IOSAGE_OK)
        st = ios_xgb_threads(*out, job->p->threads, err);
    if (st != IOSAGE_OK) {
        if (*out)
            ios_xgb()->XGBoosterFree(*out);
        *out = NULL;
        return st;
    }
    *rounds = best + 1;
    return IOSAGE_OK;
}

/* --- Prediction ------------------------------------------------------------ */

iosage_status ios_xgb_predict(BoosterHandle b, const float *x, size_t n,
                              int margin, float *out, iosage_error *err)
{
    return ios_xgb_predict_cols(b, x, n, NF, NM, margin, out, err);
}

iosage_status ios_xgb_predict_cols(BoosterHandle b, const float *x, size_t n,
                                   size_t stride, size_t cols, int margin,
                                   float *out, iosage_error *err)
{
    static const char cfg_prob[] =
        "{\"type\": 0, \"training\": false, \"iteration_begin\": 0, "
        "\"iteration_end\": 0, \"strict_shape\": false, \"cache_id\": 0, "
        "\"missing\": NaN}";
    static const char cfg_margin[] =
        "{\"type\": 1, \"training\": false, \"iteration_begin\": 0, "
        "\"iteration_end\": 0, \"strict_shape\": false, \"cache_id\": 0, "
        "\"missing\": NaN}";
    const char *cfg = margin ? cfg_margin : cfg_prob;
    if (n == 0)
        return IOSAGE_OK;
    /* rows of stride floats, of which the model reads the first cols */
    char arr[240];
    snprintf(arr, sizeof arr,
             "{\"data\": [%" PRIuPTR ", true], \"shape\": [%zu, %zu], "
             "\"strides\": [%zu, %zu], \"typestr\": \"<f4\", "
             "\"version\": 3}",
             (uintptr_t)x, n, cols, stride * sizeof *x, sizeof *x);
    const bst_ulong *shape;
    bst_ulong dim;
    const float *pred;
    if (ios_xgb()->XGBoosterPredictFromDense(b, arr, cfg, NULL, &shape, &dim, &pred))
        return ios_xgb_fail(err, IOSAGE_E_INTERNAL, "predict");
    bst_ulong total = 1;
    for (bst_ulong i = 0; i < dim; i++)
        total *= shape[i];
    if (total != n)
        return ios_fail(err, IOSAGE_E_INTERNAL, NULL, "model", -1,
                        "xgboost: predict: %llu values for %zu rows",
                        (unsigned long long)total, n);
    memcpy(out, pred, n * sizeof *out);
    return IOSAGE_OK;
}

iosage_status ios_xgb_shap(BoosterHandle b, const float *x, float *contrib,
                           iosage_error *err)
{
    static const char cfg[] =
        "{\"type\": 2, \"training\": false, \"iteration_begin\": 0, "
        "\"iteration_end\": 0, \"strict_shape\": false}";
    DMatrixHandle d;
    iosage_status st = ios_xgb_matrix(x, 1, &d, err);
    if (st != IOSAGE_OK)
        return st;
    const bst_ulong *shape;
    bst_ulong dim;
    const float *out;
    int rc = ios_xgb()->XGBoosterPredictFromDMatrix(b, d, cfg, &shape, &dim, &out);
    if (rc == 0 && (dim != 2 || shape[0] != 1 || shape[1] != NM + 1)) {
        ios_xgb()->XGDMatrixFree(d);
        return ios_fail(err, IOSAGE_E_INTERNAL, NULL, "model", -1,
                        "xgboost: contributions of unexpected shape");
    }
    /* contrib has a slot per feature and the bias last: the features no
     * model sees contribute nothing */
    if (rc == 0) {
        memcpy(contrib, out, NM * sizeof *contrib);
        for (int f = NM; f < NF; f++)
            contrib[f] = 0.0f;
        contrib[NF] = out[NM];
    }
    ios_xgb()->XGDMatrixFree(d);
    return rc == 0 ? IOSAGE_OK : ios_xgb_fail(err, IOSAGE_E_INTERNAL, "SHAP");
}

/* --- Model buffers --------------------------------------------------------- */

iosage_status ios_xgb_save(BoosterHandle b, const char **data, size_t *len,
                           iosage_error *err)
{
    bst_ulong n = 0;
    if (ios_xgb()->XGBoosterSaveModelToBuffer(b, "{\"format\": \"json\"}", &n, data))
        return ios_xgb_fail(err, IOSAGE_E_INTERNAL, "save model");
    *len = (size_t)n;
    return IOSAGE_OK;
}

iosage_status ios_xgb_load(const void *data, size_t len, BoosterHandle *out,
                           iosage_error *err)
{
    return ios_xgb_load_n(data, len, NM, out, err);
}

iosage_status ios_xgb_load_n(const void *data, size_t len, size_t n_inputs,
                             BoosterHandle *out, iosage_error *err)
{
    BoosterHandle b = NULL;
    *out = NULL;
    if (ios_xgb()->XGBoosterCreate(NULL, 0, &b) != 0)
        return ios_xgb_fail(err, IOSAGE_E_INTERNAL, "create booster");
    if (ios_xgb()->XGBoosterLoadModelFromBuffer(b, data, (bst_ulong)len) != 0) {
        ios_xgb()->XGBoosterFree(b);
        return ios_xgb_fail(err, IOSAGE_E_CORRUPT, "load model");
    }
    bst_ulong nf = 0;
    if (ios_xgb()->XGBoosterGetNumFeature(b, &nf) != 0 ||
        (n_inputs != 0 && nf != n_inputs)) {
        ios_xgb()->XGBoosterFree(b);
        return ios_fail(err, IOSAGE_E_CORRUPT, NULL, "model", -1,
                        "model has %llu features, not %zu",
                        (unsigned long long)nf, n_inputs);
    }
    *out = b;
    return IOSAGE_OK;
}

iosage_status ios_xgb_threads(BoosterHandle b, int n, iosage_error *err)
{
    if (set_paramf(b, "nthread", n) != 0)
        return ios_xgb_fail(err, IOSAGE_E_USAGE, "nthread");
    return IOSAGE_OK;
}
