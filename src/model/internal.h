/*
 * src/model/internal.h - what the files of src/model share.
 *
 * Files, in the order a reader follows them:
 *   xgb.c       the thin layer over XGBoost's C API: errors, the log hook,
 *               matrices, one booster's training with early stopping,
 *               prediction, SHAP, model buffers;
 *   threshold.c F1-maximizing thresholds;
 *   metrics.c   multi-label metrics and their JSON;
 *   dataset.c   datasets: the manifest, logs to features, the hash;
 *   train.c     the gate and the pattern models, thresholds, split metrics;
 *   detect.c    the detection rule, SHAP top features;
 *   bundle.c    bundle.json and the model files: save, load, checks.
 *
 * Model slots: slot 0 is the gate, slot k + 1 is pattern k of the registry
 * (public model index = slot - 1, so IOSAGE_MODEL_GATE = -1 is slot 0).
 */
#ifndef IOS_MODEL_INTERNAL_H
#define IOS_MODEL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <xgboost/c_api.h>

/* The XGBoost C API as a table of functions loaded on first use
 * (xgb_api.c): ios_xgb()->XGBoosterCreate(...) instead of
 * XGBoosterCreate(...). Never NULL: without the library every call fails
 * and XGBGetLastError says why. */
struct ios_xgb_api {
    __typeof__(&XGBGetLastError) XGBGetLastError;
    __typeof__(&XGBRegisterLogCallback) XGBRegisterLogCallback;
    __typeof__(&XGBoostVersion) XGBoostVersion;
    __typeof__(&XGBoosterBoostedRounds) XGBoosterBoostedRounds;
    __typeof__(&XGBoosterCreate) XGBoosterCreate;
    __typeof__(&XGBoosterDumpModelEx) XGBoosterDumpModelEx;
    __typeof__(&XGBoosterFree) XGBoosterFree;
    __typeof__(&XGBoosterGetNumFeature) XGBoosterGetNumFeature;
    __typeof__(&XGBoosterLoadModelFromBuffer) XGBoosterLoadModelFromBuffer;
    __typeof__(&XGBoosterPredictFromDMatrix) XGBoosterPredictFromDMatrix;
    __typeof__(&XGBoosterPredictFromDense) XGBoosterPredictFromDense;
    __typeof__(&XGBoosterSaveModelToBuffer) XGBoosterSaveModelToBuffer;
    __typeof__(&XGBoosterSetParam) XGBoosterSetParam;
    __typeof__(&XGBoosterSlice) XGBoosterSlice;
    __typeof__(&XGBoosterUpdateOneIter) XGBoosterUpdateOneIter;
    __typeof__(&XGDMatrixCreateFromMat) XGDMatrixCreateFromMat;
    __typeof__(&XGDMatrixFree) XGDMatrixFree;
    __typeof__(&XGDMatrixSetFloatInfo) XGDMatrixSetFloatInfo;
};
const struct ios_xgb_api *ios_xgb(void);

#include "iosage/model.h"

#define IOS_MAX_SLOTS (1 + IOSAGE_MAX_PATTERNS)
#define IOS_THR_VALIDATION 0 /* threshold chosen on the validation split */
#define IOS_THR_DEFAULT 1    /* 0.5: the validation split had no positive */

/* What training recorded about one model. */
struct ios_slot_info {
    double threshold;
    uint64_t file_hash;     /* FNV-1a of the model file (set by loading) */
    int threshold_source;   /* IOS_THR_* */
    double validation_f1;   /* F1 at the threshold, NAN without positives */
    int rounds;             /* boosting rounds kept */
    double scale_pos_weight;
    int64_t train_pos, train_neg;
};

struct iosage_model {
    int n_patterns;
    int n_slots;                      /* 1 + n_patterns */
    BoosterHandle booster[IOS_MAX_SLOTS];
    struct ios_slot_info slot[IOS_MAX_SLOTS];
    struct iosage_train_params params;  /* progress fields unused */
    uint64_t data_hash;
    int64_t split_rows[IOSAGE_SPLIT_COUNT];
    int64_t skipped_runs;
    int has_metrics[IOSAGE_SPLIT_COUNT];
    struct iosage_metrics metrics[IOSAGE_SPLIT_COUNT];
    char source[256];
    struct iosage_savings_model *savings; /* savings.json's models, or NULL
                                             (savings_model.c) */
};

/* "gate" for slot 0, else the pattern id. */
const char *ios_slot_id(int slot);

/* --- xgb.c ---------------------------------------------------------------- */

/* Fill err with code, msg and the first line of XGBGetLastError(); returns
 * code. what says which call failed. */
iosage_status ios_xgb_fail(iosage_error *err, iosage_status code,
                           const char *what);

/* Route this thread's XGBoost log lines to the hook (or drop them). */
void ios_xgb_capture_log(void);

/* A DMatrix of n rows of IOSAGE_NUM_FEATURES floats. */
iosage_status ios_xgb_matrix(const float *x, size_t n, DMatrixHandle *out,
                             iosage_error *err);

/* The same for n rows of stride floats, of which the first cols are the
 * model's inputs (the savings models: features, then derived inputs). */
iosage_status ios_xgb_matrix_cols(const float *x, size_t n, size_t stride,
                                  size_t cols, DMatrixHandle *out,
                                  iosage_error *err);

/* Boosting parameters of one model. */
struct ios_boost_job {
    DMatrixHandle train;        /* labels already set */
    DMatrixHandle valid;        /* labels set, or NULL */
    const float *valid_labels;  /* the same labels, n_valid of them */
    size_t n_valid;
    double scale_pos_weight;
    const struct iosage_train_params *p;
    int model, n_models;        /* for progress */
    const char *id;
    const char *objective;      /* NULL: binary:logistic (the classifiers);
                                   "reg:squarederror" for the savings
                                   models, without scale_pos_weight */
};

/* Train one booster; *out keeps the rounds up to the best validation log
 * loss (all rounds without validation rows); *rounds says how many. */
iosage_status ios_xgb_boost(const struct ios_boost_job *job,
                            BoosterHandle *out, int *rounds,
                            iosage_error *err);

/* Probabilities (margin 0) or margins (margin 1) of n rows, by in-place
 * prediction, into out[0 .. n). */
iosage_status ios_xgb_predict(BoosterHandle b, const float *x, size_t n,
                              int margin, float *out, iosage_error *err);

/* The same for rows of stride floats, of which the first cols are the
 * model's inputs. */
iosage_status ios_xgb_predict_cols(BoosterHandle b, const float *x, size_t n,
                                   size_t stride, size_t cols, int margin,
                                   float *out, iosage_error *err);

/* SHAP contributions of one row, IOSAGE_NUM_FEATURES + 1 values. */
iosage_status ios_xgb_shap(BoosterHandle b, const float *x, float *contrib,
                           iosage_error *err);

/* The model as XGBoost JSON: *data points into XGBoost's buffer of this
 * thread, valid until the next XGBoost call. */
iosage_status ios_xgb_save(BoosterHandle b, const char **data, size_t *len,
                           iosage_error *err);

/* A booster from a model buffer (JSON or UBJ) with the classifiers'
 * IOSAGE_NUM_MODEL_FEATURES inputs. */
iosage_status ios_xgb_load(const void *data, size_t len, BoosterHandle *out,
                           iosage_error *err);

/* The same for a booster of n_inputs inputs (0: any number, for the
 * build's tool that makes the binary forms of every model of a bundle). */
iosage_status ios_xgb_load_n(const void *data, size_t len, size_t n_inputs,
                             BoosterHandle *out, iosage_error *err);

/* The savings regressions' inputs (savings_inputs.c): the first
 * IOSAGE_NUM_MODEL_FEATURES features of x, then, when n_inputs is
 * IOS_SAVINGS_INPUTS, the IOS_SAVINGS_DERIVED inputs formed from them
 * (named by ios_savings_derived), into out[0 .. n_inputs). A bundle saved
 * before them has n_inputs IOSAGE_NUM_MODEL_FEATURES. */
#define IOS_SAVINGS_DERIVED 3
#define IOS_SAVINGS_INPUTS (IOSAGE_NUM_MODEL_FEATURES + IOS_SAVINGS_DERIVED)
extern const char *const ios_savings_derived[IOS_SAVINGS_DERIVED];
void ios_savings_inputs(const float *x, size_t n_inputs, float *out);

/* The binary form of model file name among files[0..n): an embedded bundle
 * holds one as "<name>.bin" beside each model (cmake/embed_model.cmake:
 * XGBoost's own binary format, checked when it is made to give the same
 * model back, or UBJSON), which XGBoost loads tens of times as fast as
 * the JSON. NULL when there is none (a directory bundle, or a build
 * without the conversion); *len gets its size. The JSON stays what the
 * hashes check. */
const unsigned char *ios_model_binary_form(const struct iosage_model_file *files,
                                           size_t n, const char *name,
                                           size_t *len);

/* XGBoost's own binary form of b (the "deprecated" format, which XGBoost
 * loads tens of times as fast as the JSON), when loading it gives back
 * exactly b: the same trees and bit for bit the same margins and SHAP
 * contributions on fixed rows (xgb_form.c). A malloc'd copy of *len
 * bytes, or NULL when the form differs, XGBoost cannot write it, or
 * memory runs out. */
unsigned char *ios_xgb_binary_form(BoosterHandle b, size_t *len);

/* Set nthread on a booster (0: all cores). */
iosage_status ios_xgb_threads(BoosterHandle b, int n, iosage_error *err);

/* "1.7.4" */
const char *ios_xgb_version(void);

/* --- dataset.c ------------------------------------------------------------ */

/* 64-bit FNV-1a of len bytes (the hash of the training data and of the
 * bundle's model files). */
uint64_t ios_fnv1a64(const void *data, size_t len);

/* --- threshold.c ---------------------------------------------------------- */

/* iosage_threshold_best_f1 plus the source (IOS_THR_*). */
double ios_threshold_pick(const float *scores, const uint8_t *truth, size_t n,
                          double *f1, int *source);

/* --- metrics.c ------------------------------------------------------------ */

/* The metrics as a JSON object (new reference), NULL when out of memory. */
json_t *ios_metrics_to_json(const struct iosage_metrics *m, const char *split);

/* Parse what ios_metrics_to_json wrote (tp/fp/fn are not stored and come
 * back as -1). Returns 0, or -1 when a key is missing or mistyped. */
int ios_metrics_from_json(const json_t *o, int n_patterns,
                          struct iosage_metrics *m);

/* Round to 6 decimals (NAN stays NAN), so bundle.json stays readable. */
double ios_round6(double v);

/* --- savings_model.c ------------------------------------------------------ */

/* The q-quantile (0..1) of v[0..n), linear between order statistics
 * (NaN for n = 0); v is sorted in place. */
double ios_quantile(double *v, size_t n, double q);

/* Spearman's rank correlation of a[0..n) and b[0..n), ties given their
 * mean rank; NaN for n < 3 or when either is constant. */
double ios_spearman(const double *a, const double *b, size_t n);

/* The most of the I/O time change_id can save on a run with features x:
 * the share of the I/O time its operations take (savings_model.c). */
double ios_saving_cap(const char *change_id, const float *x);

/* --- detect.c ------------------------------------------------------------- */

/* Apply the detection rule to one row: the I/O share gate on io_share
 * (the row's job_io_time_share_slowest), then the gate's score, then the
 * patterns'. */
void ios_detect_apply(const iosage_model *m, double gate,
                      const double *scores, double io_share,
                      struct iosage_detection *out);

/* --- bundle.c ------------------------------------------------------------- */

/* Write data to dir/name through dir/.name.tmp and a rename. */
iosage_status ios_model_write_file(const char *dir, const char *name,
                                   const void *data, size_t len,
                                   iosage_error *err);

/* Beside model file dir/name, its binary form dir/<name>.bin
 * (ios_xgb_binary_form): *hash gets the form's FNV-1a 64 hash, which the
 * bundle's list records, or 0 when b has no form that gives it back
 * exactly (then no .bin file is left there, and loaders read the JSON). */
iosage_status ios_model_write_form(const char *dir, const char *name,
                                   BoosterHandle b, uint64_t *hash,
                                   iosage_error *err);

/* The hash of "fnv1a64:<16 hex digits>", or 0 when text is NULL or not
 * of that form. */
uint64_t ios_model_hash_value(const char *text);

/* The binary form of model file name in directory dir (<name>.bin, as
 * ios_model_write_form wrote it), when its hash is want (non-zero) and
 * the bundle was written by this XGBoost (xgboost_version, as
 * ios_xgb_version() says it); NULL otherwise, and the caller loads the
 * JSON. The bytes are malloc'd (*len of them). */
unsigned char *ios_model_dir_form(const char *dir, const char *name,
                                  uint64_t want, const char *xgboost_version,
                                  size_t *len);

/* A model with no boosters yet (n_patterns from the registry). */
iosage_model *ios_model_new(void);

#endif
