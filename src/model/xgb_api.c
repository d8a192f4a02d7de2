/*
 * src/model/xgb_api.c - the XGBoost C API, resolved from libxgboost.so.0 on
 * first use.
 *
 * Linking libxgboost (and through it the OpenMP runtime and XGBoost's C++
 * static constructors) into the iosage binary costs about 4 ms at every
 * process start, which doubled the time of `iosage dump` over a log
 * archive. Commands that never touch a model should not pay for it, so the
 * library is loaded with dlopen the first time a model function runs.
 *
 * When it cannot be loaded, every entry of the table fails: booster and
 * matrix calls return -1 and XGBGetLastError says why, so callers report
 * "xgboost: libxgboost.so.0: cannot open shared object file" like any
 * other XGBoost error.
 */
#include <pthread.h>

#include "internal.h"
#include "ios_dlib.h"

#define XGB_LIBRARY "libxgboost.so.0"

static struct ios_xgb_api api;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];

/* Stand-ins used when the library is missing: each fails, and
 * XGBGetLastError says why. */
static const char *no_last_error(void) { return load_error; }
static int no_log_callback(void (*cb)(const char *)) { (void)cb; return -1; }
static void no_version(int *a, int *b, int *c) { *a = *b = *c = 0; }
static int no_handle_int(BoosterHandle h, int *out)
{ (void)h; (void)out; return -1; }
static int no_create(const DMatrixHandle d[], bst_ulong n, BoosterHandle *out)
{ (void)d; (void)n; *out = NULL; return -1; }
static int no_free(void *h) { (void)h; return -1; }
static int no_dump(BoosterHandle h, const char *fmap, int stats,
                   const char *format, bst_ulong *len, const char ***out)
{ (void)h; (void)fmap; (void)stats; (void)format; *len = 0; *out = NULL; return -1; }
static int no_num_feature(BoosterHandle h, bst_ulong *out)
{ (void)h; (void)out; return -1; }
static int no_load(BoosterHandle h, const void *buf, bst_ulong len)
{ (void)h; (void)buf; (void)len; return -1; }
static int no_predict(BoosterHandle h, DMatrixHandle d, char const *cfg,
                      bst_ulong const **shape, bst_ulong *dim,
                      float const **out)
{ (void)h; (void)d; (void)cfg; (void)shape; (void)dim; (void)out; return -1; }
static int no_predict_dense(BoosterHandle h, char const *v, char const *cfg,
                            DMatrixHandle m, bst_ulong const **shape,
                            bst_ulong *dim, const float **out)
{
    (void)h; (void)v; (void)cfg; (void)m; (void)shape; (void)dim; (void)out;
    return -1;
}
static int no_save(BoosterHandle h, char const *cfg, bst_ulong *len,
                   char const **out)
{ (void)h; (void)cfg; (void)len; (void)out; return -1; }
static int no_set_param(BoosterHandle h, const char *k, const char *v)
{ (void)h; (void)k; (void)v; return -1; }
static int no_slice(BoosterHandle h, int b, int e, int s, BoosterHandle *out)
{ (void)h; (void)b; (void)e; (void)s; *out = NULL; return -1; }
static int no_update(BoosterHandle h, int it, DMatrixHandle d)
{ (void)h; (void)it; (void)d; return -1; }
static int no_matrix(const float *x, bst_ulong r, bst_ulong c, float m,
                     DMatrixHandle *out)
{ (void)x; (void)r; (void)c; (void)m; *out = NULL; return -1; }
static int no_set_info(DMatrixHandle h, const char *f, const float *a,
                       bst_ulong n)
{ (void)h; (void)f; (void)a; (void)n; return -1; }

static void *sym(void *lib, const char *name)
{
    return ios_dlib_sym(lib, XGB_LIBRARY, name, load_error, sizeof load_error);
}

/* Fill api with the stand-ins. */
static void use_missing(void)
{
    api.XGBGetLastError = no_last_error;
    api.XGBRegisterLogCallback = no_log_callback;
    api.XGBoostVersion = no_version;
    api.XGBoosterBoostedRounds = no_handle_int;
    api.XGBoosterCreate = no_create;
    api.XGBoosterDumpModelEx = no_dump;
    api.XGBoosterFree = no_free;
    api.XGBoosterGetNumFeature = no_num_feature;
    api.XGBoosterLoadModelFromBuffer = no_load;
    api.XGBoosterPredictFromDMatrix = no_predict;
    api.XGBoosterPredictFromDense = no_predict_dense;
    api.XGBoosterSaveModelToBuffer = no_save;
    api.XGBoosterSetParam = no_set_param;
    api.XGBoosterSlice = no_slice;
    api.XGBoosterUpdateOneIter = no_update;
    api.XGDMatrixCreateFromMat = no_matrix;
    api.XGDMatrixFree = no_free;
    api.XGDMatrixSetFloatInfo = no_set_info;
}

static void load(void)
{
    void *lib = ios_dlib_open(XGB_LIBRARY, load_error, sizeof load_error);
    if (!lib) {
        use_missing();
        return;
    }
    if (
        !(api.XGBGetLastError = (__typeof__(&XGBGetLastError))sym(lib, "XGBGetLastError")) ||
        !(api.XGBRegisterLogCallback = (__typeof__(&XGBRegisterLogCallback))sym(lib, "XGBRegisterLogCallback")) ||
        !(api.XGBoostVersion = (__typeof__(&XGBoostVersion))sym(lib, "XGBoostVersion")) ||
        !(api.XGBoosterBoostedRounds = (__typeof__(&XGBoosterBoostedRounds))sym(lib, "XGBoosterBoostedRounds")) ||
        !(api.XGBoosterCreate = (__typeof__(&XGBoosterCreate))sym(lib, "XGBoosterCreate")) ||
        !(api.XGBoosterDumpModelEx = (__typeof__(&XGBoosterDumpModelEx))sym(lib, "XGBoosterDumpModelEx")) ||
        !(api.XGBoosterFree = (__typeof__(&XGBoosterFree))sym(lib, "XGBoosterFree")) ||
        !(api.XGBoosterGetNumFeature = (__typeof__(&XGBoosterGetNumFeature))sym(lib, "XGBoosterGetNumFeature")) ||
        !(api.XGBoosterLoadModelFromBuffer = (__typeof__(&XGBoosterLoadModelFromBuffer))sym(lib, "XGBoosterLoadModelFromBuffer")) ||
        !(api.XGBoosterPredictFromDMatrix = (__typeof__(&XGBoosterPredictFromDMatrix))sym(lib, "XGBoosterPredictFromDMatrix")) ||
        !(api.XGBoosterPredictFromDense = (__typeof__(&XGBoosterPredictFromDense))sym(lib, "XGBoosterPredictFromDense")) ||
        !(api.XGBoosterSaveModelToBuffer = (__typeof__(&XGBoosterSaveModelToBuffer))sym(lib, "XGBoosterSaveModelToBuffer")) ||
        !(api.XGBoosterSetParam = (__typeof__(&XGBoosterSetParam))sym(lib, "XGBoosterSetParam")) ||
        !(api.XGBoosterSlice = (__typeof__(&XGBoosterSlice))sym(lib, "XGBoosterSlice")) ||
        !(api.XGBoosterUpdateOneIter = (__typeof__(&XGBoosterUpdateOneIter))sym(lib, "XGBoosterUpdateOneIter")) ||
        !(api.XGDMatrixCreateFromMat = (__typeof__(&XGDMatrixCreateFromMat))sym(lib, "XGDMatrixCreateFromMat")) ||
        !(api.XGDMatrixFree = (__typeof__(&XGDMatrixFree))sym(lib, "XGDMatrixFree")) ||
        !(api.XGDMatrixSetFloatInfo = (__typeof__(&XGDMatrixSetFloatInfo))sym(lib, "XGDMatrixSetFloatInfo")) ||
        0) {
        use_missing();
        return;
    }
}

const struct ios_xgb_api *ios_xgb(void)
{
    pthread_once(&once, load);
    return &api;
}
