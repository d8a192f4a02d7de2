/*
 * src/model/bundle.c - the model bundle on disk and in memory.
 *
 * Layout of a bundle directory:
 *   bundle.json          everything but the trees (format below)
 *   gate.json            XGBoost JSON model of the gate
 *   <pattern id>.json    XGBoost JSON model of each pattern
 *
 * bundle.json keys, in the order written: format ("iosage-model-bundle"),
 * bundle_version, feature_schema_version, features (names in order),
 * patterns (ids in registry order), detection_rule (text), xgboost_version,
 * seed, parameters, training_data {hash "fnv1a64:<16 hex>", rows per
 * split, skipped_runs}, models [{id, file, threshold, threshold_source,
 * validation_f1, rounds, scale_pos_weight, train_positives,
 * train_negatives, file_hash}] (gate first; file_hash "fnv1a64:<16 hex>"
 * of the model file, checked at load, so a bundle mixed from two trainings
 * is refused), metrics {validation, test, ood}.
 * Reals are written with 15 significant digits (thresholds are short
 * decimals, so they read back exactly); nothing in it depends on the time,
 * the host or the thread count, so equal training gives equal bytes.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ios_common.h"
#include "ios_json.h"
#include "internal.h"
#include "iosage/savings.h"

#define NF IOSAGE_NUM_FEATURES
#define BUNDLE_FILE "bundle.json"
#define BUNDLE_FORMAT "iosage-model-bundle"
#define MAX_BUNDLE_JSON ((size_t)16 << 20)
#define MAX_MODEL_FILE ((size_t)512 << 20)
#define JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))

static const char detection_rule[] =
    "a pattern is reported when the gate and the pattern's own model are both "
    "at or above their thresholds; healthy when no pattern is reported";

/* --- The model object ------------------------------------------------------ */

const char *ios_slot_id(int slot)
{
    const struct iosage_pattern *p = iosage_pattern_get(slot - 1);
    return slot == 0 ? "gate" : p ? p->id : "?";
}

iosage_model *ios_model_new(void)
{
    iosage_model *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->n_patterns = iosage_pattern_count();
    m->n_slots = 1 + m->n_patterns;
    snprintf(m->source, sizeof m->source, "trained");
    iosage_train_params_default(&m->params);
    return m;
}

void iosage_model_free(iosage_model *m)
{
    if (!m)
        return;
    for (int s = 0; s < IOS_MAX_SLOTS; s++)
        if (m->booster[s])
            ios_xgb()->XGBoosterFree(m->booster[s]);
    iosage_savings_model_free(m->savings);
    free(m);
}

const iosage_savings_model *iosage_model_savings(const iosage_model *m)
{
    return m ? m->savings : NULL;
}

void iosage_model_attach_savings(iosage_model *m, iosage_savings_model *s)
{
    if (!m) {
        iosage_savings_model_free(s);
        return;
    }
    iosage_savings_model_free(m->savings);
    m->savings = s;
}

const char *iosage_model_source(const iosage_model *m)
{
    return m ? m->source : "";
}

int iosage_model_pattern_count(const iosage_model *m)
{
    return m ? m->n_patterns : 0;
}

double iosage_model_threshold(const iosage_model *m, int model)
{
    if (!m || model < IOSAGE_MODEL_GATE || model >= m->n_patterns)
        return NAN;
    return m->slot[model + 1].threshold;
}

void iosage_model_params(const iosage_model *m,
                         struct iosage_train_params *out)
{
    if (m)
        *out = m->params;
    else
        iosage_train_params_default(out);
    out->progress = NULL;
    out->progress_ctx = NULL;
    out->threads = 0;
}

uint64_t iosage_model_data_hash(const iosage_model *m)
{
    return m ? m->data_hash : 0;
}

const struct iosage_metrics *iosage_model_metrics(const iosage_model *m,
                                                  int split)
{
    if (!m || split < 0 || split >= IOSAGE_SPLIT_COUNT ||
        !m->has_metrics[split])
        return NULL;
    return &m->metrics[split];
}

iosage_status iosage_model_set_threads(iosage_model *m, int n,
                                       iosage_error *err)
{
    if (!m || n < 0)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "model", -1,
                        "bad thread count %d", n);
    ios_xgb_capture_log();
    for (int s = 0; s < m->n_slots; s++) {
        iosage_status st = ios_xgb_threads(m->booster[s], n, err);
        if (st != IOSAGE_OK)
            return st;
    }
    return IOSAGE_OK;
}

/* --- bundle.json out ------------------------------------------------------- */

static int put(json_t *o, const char *key, json_t *v)
{
    return v ? json_object_set_new(o, key, v) : -1;
}

static json_t *real_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *params_json(const struct iosage_train_params *p)
{
    json_t *o = json_object();
    int rc = o ? 0 : -1;
    rc |= put(o, "objective", json_string("binary:logistic"));
    rc |= put(o, "tree_method", json_string("hist"));
    rc |= put(o, "validate_parameters", json_integer(1));
    rc |= put(o, "max_rounds", json_integer(p->max_rounds));
    rc |= put(o, "early_stopping_rounds", json_integer(p->early_stopping));
    rc |= put(o, "max_depth", json_integer(p->max_depth));
    rc |= put(o, "eta", json_real(p->eta));
    rc |= put(o, "subsample", json_real(p->subsample));
    rc |= put(o, "colsample_bytree", json_real(p->colsample_bytree));
    rc |= put(o, "min_child_weight", json_real(p->min_child_weight));
    rc |= put(o, "lambda", json_real(p->lambda));
    if (p->forest_trees > 0)
        rc |= put(o, "num_parallel_tree", json_integer(p->forest_trees));
    if (p->colsample_bynode < 1)
        rc |= put(o, "colsample_bynode", json_real(p->colsample_bynode));
    rc |= put(o, "feature_sets", json_boolean(p->feature_sets));
    rc |= put(o, "io_share_gate", json_real(p->io_share_gate));
    rc |= put(o, "gate_outvote", json_real(p->gate_outvote));
    if (rc == 0)
        return o;
    json_decref(o);
    return NULL;
}

static json_t *data_json(const iosage_model *m)
{
    char hash[40];
    snprintf(hash, sizeof hash, "fnv1a64:%016" PRIx64, m->data_hash);
    json_t *o = json_object(), *rows = json_object();
    int rc = o && rows ? 0 : -1;
    rc |= put(o, "hash", json_string(hash));
    for (int s = 0; s < IOSAGE_SPLIT_COUNT && rc == 0; s++)
        rc |= put(rows, iosage_split_name(s), json_integer(m->split_rows[s]));
    rc |= put(o, "rows", rows);
    rows = NULL;
    rc |= put(o, "skipped_runs", json_integer(m->skipped_runs));
    if (rc == 0)
        return o;
    json_decref(rows);
    json_decref(o);
    return NULL;
}

static json_t *slot_json(const iosage_model *m, int s, const uint64_t hash[2])
{
    const struct ios_slot_info *in = &m->slot[s];
    char file[128], hash_text[40];
    snprintf(file, sizeof file, "%s.json", ios_slot_id(s));
    snprintf(hash_text, sizeof hash_text, "fnv1a64:%016" PRIx64, hash[0]);
    json_t *o = json_object();
    int rc = o ? 0 : -1;
    rc |= put(o, "id", json_string(ios_slot_id(s)));
    rc |= put(o, "file", json_string(file));
    rc |= put(o, "file_hash", json_string(hash_text));
    if (hash[1]) { /* its binary form, <file>.bin (ios_model_write_form) */
        snprintf(hash_text, sizeof hash_text, "fnv1a64:%016" PRIx64, hash[1]);
        rc |= put(o, "binary_hash", json_string(hash_text));
    }
    rc |= put(o, "threshold", json_real(in->threshold));
    rc |= put(o, "threshold_source",
              json_string(in->threshold_source == IOS_THR_VALIDATION
                              ? "validation" : "default"));
    rc |= put(o, "validation_f1", real_or_null(in->validation_f1));
    rc |= put(o, "rounds", json_integer(in->rounds));
    rc |= put(o, "scale_pos_weight", json_real(in->scale_pos_weight));
    rc |= put(o, "train_positives", json_integer(in->train_pos));
    rc |= put(o, "train_negatives", json_integer(in->train_neg));
    if (rc == 0)
        return o;
    json_decref(o);
    return NULL;
}

static int add_lists(json_t *o, const iosage_model *m,
                     const uint64_t (*hash)[2])
{
    json_t *feats = json_array(), *pats = json_array(), *models = json_array();
    json_t *metrics = json_object();
    int rc = feats && pats && models && metrics ? 0 : -1;
    for (int i = 0; i < NF && rc == 0; i++)
        rc |= json_array_append_new(feats, json_string(iosage_feature_name(i)));
    for (int k = 0; k < m->n_patterns && rc == 0; k++)
        rc |= json_array_append_new(pats,
                                    json_string(iosage_pattern_get(k)->id));
    for (int s = 0; s < m->n_slots && rc == 0; s++)
        rc |= json_array_append_new(models, slot_json(m, s, hash[s]));
    for (int s = IOSAGE_SPLIT_VALIDATION; s < IOSAGE_SPLIT_COUNT && rc == 0; s++)
        if (m->has_metrics[s])
            rc |= put(metrics, iosage_split_name(s),
                      ios_metrics_to_json(&m->metrics[s], NULL));
    rc |= put(o, "features", feats);
    rc |= put(o, "patterns", pats);
    rc |= put(o, "detection_rule", json_string(detection_rule));
    rc |= put(o, "xgboost_version", json_string(ios_xgb_version()));
    rc |= put(o, "seed", json_integer(m->params.seed));
    rc |= put(o, "parameters", params_json(&m->params));
    rc |= put(o, "training_data", data_json(m));
    rc |= put(o, "models", models);
    rc |= put(o, "metrics", metrics);
    return rc;
}

static json_t *bundle_json(const iosage_model *m, const uint64_t (*hash)[2])
{
    json_t *o = json_object();
    int rc = o ? 0 : -1;
    rc |= put(o, "format", json_string(BUNDLE_FORMAT));
    rc |= put(o, "bundle_version", json_integer(IOSAGE_MODEL_BUNDLE_VERSION));
    rc |= put(o, "feature_schema_version",
              json_integer(IOSAGE_FEATURE_SCHEMA_VERSION));
    if (rc == 0 && add_lists(o, m, hash) == 0)
        return o;
    json_decref(o);
    return NULL;
}

/* --- Saving ------------------------------------------------------------------ */

/* See internal.h. */
iosage_status ios_model_write_file(const char *dir, const char *name,
                                const void *data, size_t len, iosage_error *err)
{
    char path[4096], tmp[4200];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return ios_fail(err, IOSAGE_E_LIMIT, dir, "", -1, "path too long");
    snprintf(tmp, sizeof tmp, "%s/.%s.tmp", dir, name);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return ios_fail(err, IOSAGE_E_IO, tmp, "", -1, "cannot create: %s",
                        strerror(errno));
    int bad = len && fwrite(data, 1, len, f) != len;
    bad |= fflush(f) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        iosage_status st = ios_fail(err, IOSAGE_E_IO, path, "", -1,
                                    "cannot write: %s", strerror(errno));
        unlink(tmp);
        return st;
    }
    return IOSAGE_OK;
}

/* See internal.h. */
iosage_status ios_model_write_form(const char *dir, const char *name,
                                   BoosterHandle b, uint64_t *hash,
                                   iosage_error *err)
{
    char form_name[160];
    size_t len = 0;
    *hash = 0;
    if (snprintf(form_name, sizeof form_name, "%s.bin", name) >=
        (int)sizeof form_name)
        return ios_fail(err, IOSAGE_E_LIMIT, dir, name, -1, "name too long");
    unsigned char *form = ios_xgb_binary_form(b, &len);
    if (!form) { /* no form that gives the same model: none stale either */
        char path[4096];
        if (snprintf(path, sizeof path, "%s/%s", dir, form_name) <
            (int)sizeof path)
            (void)unlink(path);
        return IOSAGE_OK;
    }
    iosage_status st = ios_model_write_file(dir, form_name, form, len, err);
    if (st == IOSAGE_OK)
        *hash = ios_fnv1a64(form, len);
    free(form);
    return st;
}

/* Write every model file and its binary form; hash[s] gets the hashes of
 * slot s's file and form (0: no form). */
static iosage_status save_models(const iosage_model *m, const char *dir,
                                 uint64_t (*hash)[2], iosage_error *err)
{
    for (int s = 0; s < m->n_slots; s++) {
        const char *data = NULL;
        size_t len = 0;
        char name[128];
        snprintf(name, sizeof name, "%s.json", ios_slot_id(s));
        iosage_status st = ios_xgb_save(m->booster[s], &data, &len, err);
        if (st == IOSAGE_OK) {
            hash[s][0] = ios_fnv1a64(data, len);
            st = ios_model_write_file(dir, name, data, len, err);
        }
        if (st == IOSAGE_OK)
            st = ios_model_write_form(dir, name, m->booster[s], &hash[s][1],
                                      err);
        if (st != IOSAGE_OK)
            return st;
    }
    return IOSAGE_OK;
}

iosage_status iosage_model_save(const iosage_model *m, const char *dir,
                                iosage_error *err)
{
    if (!m || !dir || !dir[0])
        return ios_fail(err, IOSAGE_E_USAGE, dir, "", -1, "no model or dir");
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return ios_fail(err, IOSAGE_E_IO, dir, "", -1, "cannot create: %s",
                        strerror(errno));
    ios_xgb_capture_log();
    uint64_t hash[IOS_MAX_SLOTS][2] = {{0}};
    iosage_status st = save_models(m, dir, hash, err);
    if (st != IOSAGE_OK)
        return st;
    json_t *o = bundle_json(m, hash);
    char *text = o ? ios_json_dumps(o, JSON_FLAGS) : NULL;
    json_decref(o);
    if (!text)
        return ios_fail(err, IOSAGE_E_NOMEM, dir, BUNDLE_FILE, -1,
                        "no memory");
    size_t len = strlen(text);
    char *withnl = realloc(text, len + 2);
    if (!withnl) {
        free(text);
        return ios_fail(err, IOSAGE_E_NOMEM, dir, BUNDLE_FILE, -1,
                        "no memory");
    }
    withnl[len] = '\n';
    st = ios_model_write_file(dir, BUNDLE_FILE, withnl, len + 1, err);
    free(withnl);
    return st;
}

/* --- Reading files ------------------------------------------------------- */

/* Where the bundle's files come from: a directory or an array. */
struct source {
    const char *dir;
    const struct iosage_model_file *files;
    size_t n;
    const char *label;  /* for errors */
};

static iosage_status read_file(const char *path, size_t cap,
                               unsigned char **out, size_t *len,
                               iosage_error *err)
{
    FILE *f = fopen(path, "rb");
    *out = NULL;
    if (!f)
        return ios_fail(err, IOSAGE_E_IO, path, "", -1, "cannot open: %s",
                        strerror(errno));
    size_t size = 0, alloc = 1 << 16;
    unsigned char *buf = malloc(alloc);
    iosage_status st = buf ? IOSAGE_OK : IOSAGE_E_NOMEM;
    while (st == IOSAGE_OK) {
        if (size == alloc) {
            unsigned char *nb = alloc < cap ? realloc(buf, alloc * 2) : NULL;
            if (!nb) {
                st = alloc >= cap ? IOSAGE_E_LIMIT : IOSAGE_E_NOMEM;
                break;
            }
            buf = nb;
            alloc *= 2;
        }
        size_t got = fread(buf + size, 1, alloc - size, f);
        size += got;
        if (got == 0)
            break;
    }
    if (st == IOSAGE_OK && ferror(f))
        st = IOSAGE_E_IO;
    fclose(f);
    if (st != IOSAGE_OK) {
        free(buf);
        return ios_fail(err, st, path, "", -1, "%s",
                        st == IOSAGE_E_LIMIT ? "file too large"
                        : st == IOSAGE_E_IO ? "read failed" : "no memory");
    }
    *out = buf;
    *len = size;
    return IOSAGE_OK;
}

/* The bytes of file name: *owned is set when they must be freed. */
static iosage_status fetch(const struct source *src, const char *name,
                           size_t cap, const unsigned char **data, size_t *len,
                           unsigned char **owned, iosage_error *err)
{
    *owned = NULL;
    if (src->dir) {
        char path[4096];
        if (snprintf(path, sizeof path, "%s/%s", src->dir, name) >=
            (int)sizeof path)
            return ios_fail(err, IOSAGE_E_LIMIT, src->dir, "", -1,
                            "path too long");
        iosage_status st = read_file(path, cap, owned, len, err);
        *data = *owned;
        return st;
    }
    for (size_t i = 0; i < src->n; i++) {
        if (src->files[i].name && strcmp(src->files[i].name, name) == 0) {
            *data = src->files[i].data;
            *len = src->files[i].size;
            return IOSAGE_OK;
        }
    }
    return ios_fail(err, IOSAGE_E_IO, src->label, name, -1,
                    "no such file in the bundle");
}

/* See internal.h. */
const unsigned char *ios_model_binary_form(const struct iosage_model_file *files,
                                           size_t n, const char *name,
                                           size_t *len)
{
    char form[160];
    if (!files || snprintf(form, sizeof form, "%s.bin", name) >= (int)sizeof form)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (files[i].name && files[i].size > 0 && strcmp(files[i].name, form) == 0) {
            *len = files[i].size;
            return files[i].data;
        }
    return NULL;
}

/* See internal.h. */
unsigned char *ios_model_dir_form(const char *dir, const char *name,
                                  uint64_t want, const char *xgboost_version,
                                  size_t *len)
{
    char path[4096];
    unsigned char *form = NULL;
    *len = 0;
    if (!dir || want == 0 || !xgboost_version ||
        strcmp(xgboost_version, ios_xgb_version()) != 0 ||
        snprintf(path, sizeof path, "%s/%s.bin", dir, name) >= (int)sizeof path)
        return NULL;
    /* a missing or unreadable form is not an error: the JSON is there */
    if (read_file(path, MAX_MODEL_FILE, &form, len, NULL) != IOSAGE_OK)
        return NULL;
    if (ios_fnv1a64(form, *len) != want) {
        free(form);
        *len = 0;
        return NULL;
    }
    return form;
}

/* --- bundle.json in ------------------------------------------------------- */

/* Fill err with one line about the bundle (path = its label, where =
 * bundle.json) and return code. */
static iosage_status bundle_fail(iosage_error *err, iosage_status code,
                                 const struct source *src, const char *fmt,
                                 ...) __attribute__((format(printf, 4, 5)));

static iosage_status bundle_fail(iosage_error *err, iosage_status code,
                                 const struct source *src, const char *fmt, ...)
{
    char msg[240];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ios_fail(err, code, src->label, BUNDLE_FILE, -1, "%s", msg);
}

static int64_t int_of(const json_t *o, const char *key, int64_t dflt)
{
    json_t *j = json_object_get(o, key);
    return json_is_integer(j) ? json_integer_value(j) : dflt;
}

static double real_of(const json_t *o, const char *key, double dflt)
{
    json_t *j = json_object_get(o, key);
    return json_is_number(j) ? json_number_value(j) : dflt;
}

static const char *str_of(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

/* Format, bundle version and feature schema (names in order). */
static iosage_status check_schema(const json_t *root, const struct source *src,
                                  iosage_error *err)
{
    const char *format = str_of(root, "format");
    if (!format || strcmp(format, BUNDLE_FORMAT) != 0)
        return bundle_fail(err, IOSAGE_E_CORRUPT, src,
                           "not an iosage model bundle (no format \"%s\")",
                           BUNDLE_FORMAT);
    int64_t v = int_of(root, "bundle_version", -1);
    if (v != IOSAGE_MODEL_BUNDLE_VERSION)
        return bundle_fail(err, IOSAGE_E_VERSION, src,
                           "bundle format %" PRId64 ", this iosage reads "
                           "format %d", v, IOSAGE_MODEL_BUNDLE_VERSION);
    v = int_of(root, "feature_schema_version", -1);
    if (v != IOSAGE_FEATURE_SCHEMA_VERSION)
        return bundle_fail(err, IOSAGE_E_VERSION, src,
                           "feature schema version %" PRId64 " in the bundle, "
                           "%d in this iosage: retrain it with `iosage train`",
                           v, IOSAGE_FEATURE_SCHEMA_VERSION);
    json_t *names = json_object_get(root, "features");
    if (json_array_size(names) != NF)
        return bundle_fail(err, IOSAGE_E_VERSION, src,
                           "%zu features in the bundle, %d in this iosage's "
                           "schema version %d: retrain it with `iosage train`",
                           json_array_size(names), NF,
                           IOSAGE_FEATURE_SCHEMA_VERSION);
    for (int i = 0; i < NF; i++) {
        const char *name = json_string_value(json_array_get(names, (size_t)i));
        if (!name || strcmp(name, iosage_feature_name(i)) != 0)
            return bundle_fail(err, IOSAGE_E_VERSION, src,
                               "feature %d is '%.60s' in the bundle, '%s' in "
                               "this iosage's schema version %d: retrain it "
                               "with `iosage train`", i, name ? name : "?",
                               iosage_feature_name(i),
                               IOSAGE_FEATURE_SCHEMA_VERSION);
    }
    return IOSAGE_OK;
}

static iosage_status check_patterns(const json_t *root, const iosage_model *m,
                                    const struct source *src, iosage_error *err)
{
    json_t *ids = json_object_get(root, "patterns");
    if (json_array_size(ids) != (size_t)m->n_patterns)
        return bundle_fail(err, IOSAGE_E_VERSION, src,
                           "%zu patterns in the bundle, %d in this iosage's "
                           "registry: retrain it with `iosage train`",
                           json_array_size(ids), m->n_patterns);
    for (int k = 0; k < m->n_patterns; k++) {
        const char *id = json_string_value(json_array_get(ids, (size_t)k));
        if (!id || strcmp(id, iosage_pattern_get(k)->id) != 0)
            return bundle_fail(err, IOSAGE_E_VERSION, src,
                               "pattern %d is '%.60s' in the bundle, '%s' in "
                               "this iosage: retrain it with `iosage train`",
                               k, id ? id : "?", iosage_pattern_get(k)->id);
    }
    return IOSAGE_OK;
}

/* A file name inside the bundle: no directories, no hidden files. */
static int safe_name(const char *name)
{
    return name && name[0] && name[0] != '.' && !strchr(name, '/') &&
           strlen(name) < 128;
}

/* The XGBoost model of slot s from its file: its binary form when there
 * is one (the build embeds one beside each model, made from the JSON
 * after checking the JSON's hash against bundle.json:
 * cmake/tools/model_bin.c; `iosage train` writes one beside each model of
 * a directory bundle, whose hash bundle.json lists: ios_model_dir_form),
 * else the JSON, whose hash is checked here. */
static iosage_status load_booster(iosage_model *m, int s, const char *file,
                                  uint64_t hash, uint64_t form_hash,
                                  const char *xgboost_version,
                                  const struct source *src, iosage_error *err)
{
    size_t form_len = 0;
    unsigned char *dir_form =
        src->dir ? ios_model_dir_form(src->dir, file, form_hash,
                                      xgboost_version, &form_len)
                 : NULL;
    const unsigned char *form =
        dir_form ? dir_form
                 : ios_model_binary_form(src->files, src->n, file, &form_len);
    const unsigned char *data = NULL;
    unsigned char *owned = NULL;
    size_t len = 0;
    iosage_status st = IOSAGE_OK;
    if (!form) {
        st = fetch(src, file, MAX_MODEL_FILE, &data, &len, &owned, err);
        if (st == IOSAGE_OK && ios_fnv1a64(data, len) != hash)
            st = ios_fail(err, IOSAGE_E_CORRUPT, src->label, file, -1,
                          "the file is not the one bundle.json lists (its "
                          "file_hash differs): copy the whole bundle again");
    }
    if (st == IOSAGE_OK) {
        st = form ? ios_xgb_load(form, form_len, &m->booster[s], err)
                  : ios_xgb_load(data, len, &m->booster[s], err);
        if (st != IOSAGE_OK && err) { /* name the bundle and the file */
            snprintf(err->path, sizeof err->path, "%s", src->label);
            snprintf(err->where, sizeof err->where, "%s", file);
        }
    }
    free(owned);
    free(dir_form);
    return st;
}

/* See internal.h. */
uint64_t ios_model_hash_value(const char *text)
{
    if (!text || strncmp(text, "fnv1a64:", 8) != 0 || strlen(text) != 24)
        return 0;
    return strtoull(text + 8, NULL, 16);
}

static iosage_status load_slot(iosage_model *m, int s, const json_t *e,
                               const char *xgboost_version,
                               const struct source *src, iosage_error *err)
{
    struct ios_slot_info *in = &m->slot[s];
    const char *id = str_of(e, "id"), *file = str_of(e, "file");
    const char *source = str_of(e, "threshold_source");
    in->threshold = real_of(e, "threshold", NAN);
    if (!id || strcmp(id, ios_slot_id(s)) != 0)
        return bundle_fail(err, IOSAGE_E_CORRUPT, src,
                           "model %d is '%.60s', expected '%s'", s,
                           id ? id : "?", ios_slot_id(s));
    if (!safe_name(file))
        return bundle_fail(err, IOSAGE_E_CORRUPT, src,
                           "model '%s' has no plain file name", id);
    if (!(in->threshold >= 0 && in->threshold <= 1))
        return bundle_fail(err, IOSAGE_E_CORRUPT, src,
                           "model '%s' has no threshold in [0, 1]", id);
    in->threshold_source = source && strcmp(source, "default") == 0
                               ? IOS_THR_DEFAULT : IOS_THR_VALIDATION;
    in->validation_f1 = real_of(e, "validation_f1", NAN);
    in->rounds = (int)int_of(e, "rounds", 0);
    in->scale_pos_weight = real_of(e, "scale_pos_weight", NAN);
    in->train_pos = int_of(e, "train_positives", -1);
    in->train_neg = int_of(e, "train_negatives", -1);
    const char *hash = str_of(e, "file_hash");
    if (!hash || strncmp(hash, "fnv1a64:", 8) != 0 || strlen(hash) != 24)
        return bundle_fail(err, IOSAGE_E_CORRUPT, src,
                           "model '%s' has no file_hash", id);
    in->file_hash = strtoull(hash + 8, NULL, 16);
    return load_booster(m, s, file, in->file_hash, ios_model_hash_value(str_of(e, "binary_hash")),
                        xgboost_version, src, err);
}

static iosage_status load_slots(const json_t *root, iosage_model *m,
                                const struct source *src, iosage_error *err)
{
    json_t *models = json_object_get(root, "models");
    if (json_array_size(models) != (size_t)m->n_slots)
        return bundle_fail(err, IOSAGE_E_CORRUPT, src,
                           "%zu models listed, expected %d (gate + "
                           "patterns)", json_array_size(models), m->n_slots);
    const char *xgboost_version = str_of(root, "xgboost_version");
    for (int s = 0; s < m->n_slots; s++) {
        iosage_status st = load_slot(m, s, json_array_get(models, (size_t)s),
                                     xgboost_version, src, err);
        if (st != IOSAGE_OK)
            return st;
    }
    return IOSAGE_OK;
}

/* What the bundle says about its training: seed, parameters, data, metrics
 * (informative; missing parts keep their defaults). */
static void load_info(const json_t *root, iosage_model *m)
{
    struct iosage_train_params *p = &m->params;
    const json_t *pj = json_object_get(root, "parameters");
    p->seed = (int)int_of(root, "seed", p->seed);
    p->max_rounds = (int)int_of(pj, "max_rounds", p->max_rounds);
    p->early_stopping = (int)int_of(pj, "early_stopping_rounds",
                                    p->early_stopping);
    p->max_depth = (int)int_of(pj, "max_depth", p->max_depth);
    p->eta = real_of(pj, "eta", p->eta);
    p->subsample = real_of(pj, "subsample", p->subsample);
    p->colsample_bytree = real_of(pj, "colsample_bytree", p->colsample_bytree);
    p->min_child_weight = real_of(pj, "min_child_weight", p->min_child_weight);
    p->lambda = real_of(pj, "lambda", p->lambda);
    p->forest_trees = (int)int_of(pj, "num_parallel_tree", p->forest_trees);
    p->colsample_bynode = real_of(pj, "colsample_bynode", p->colsample_bynode);
    /* bundles made before these two keys: every feature, no I/O gate */
    p->feature_sets = json_is_true(json_object_get(pj, "feature_sets"));
    p->io_share_gate = real_of(pj, "io_share_gate", 0);
    /* bundles made before it: the gate always wins */
    p->gate_outvote = real_of(pj, "gate_outvote", 0);
    const json_t *td = json_object_get(root, "training_data");
    const char *hash = str_of(td, "hash");
    if (hash && strncmp(hash, "fnv1a64:", 8) == 0)
        m->data_hash = strtoull(hash + 8, NULL, 16);
    for (int s = 0; s < IOSAGE_SPLIT_COUNT; s++)
        m->split_rows[s] = int_of(json_object_get(td, "rows"),
                                  iosage_split_name(s), 0);
    m->skipped_runs = int_of(td, "skipped_runs", 0);
    const json_t *mj = json_object_get(root, "metrics");
    for (int s = IOSAGE_SPLIT_VALIDATION; s < IOSAGE_SPLIT_COUNT; s++) {
        const json_t *o = json_object_get(mj, iosage_split_name(s));
        m->has_metrics[s] =
            o && ios_metrics_from_json(o, m->n_patterns, &m->metrics[s]) == 0;
    }
}

static iosage_status load_bundle(const struct source *src, iosage_model **out,
                                 iosage_error *err)
{
    const unsigned char *data = NULL;
    unsigned char *owned = NULL;
    size_t len = 0;
    *out = NULL;
    ios_xgb_capture_log();
    iosage_status st = fetch(src, BUNDLE_FILE, MAX_BUNDLE_JSON, &data, &len,
                             &owned, err);
    if (st != IOSAGE_OK)
        return st;
    json_error_t jerr;
    json_t *root = ios_json_loadb((const char *)data, len, JSON_REJECT_DUPLICATES,
                              &jerr);
    free(owned);
    if (!root && (json_error_code(&jerr) == json_error_out_of_memory ||
                  jerr.text[0] == '\0' || strcmp(jerr.text, "out of memory") == 0)) /* jansson could not allocate */
        return bundle_fail(err, IOSAGE_E_NOMEM, src, "out of memory reading "
                           "the JSON");
    if (!json_is_object(root)) {
        json_decref(root);
        return bundle_fail(err, IOSAGE_E_CORRUPT, src, "line %d: %s",
                           jerr.line, root ? "not an object" : jerr.text);
    }
    iosage_model *m = ios_model_new();
    st = m ? check_schema(root, src, err)
           : ios_fail(err, IOSAGE_E_NOMEM, src->label, "", -1, "no memory");
    if (st == IOSAGE_OK)
        st = check_patterns(root, m, src, err);
    if (st == IOSAGE_OK)
        st = load_slots(root, m, src, err);
    if (st == IOSAGE_OK)
        st = iosage_model_set_threads(m, 1, err);
    if (st == IOSAGE_OK) {
        load_info(root, m);
        snprintf(m->source, sizeof m->source, "%s", src->label);
        *out = m;
    } else {
        iosage_model_free(m);
    }
    json_decref(root);
    return st;
}

iosage_status iosage_model_load(const char *dir, iosage_model **out,
                                iosage_error *err)
{
    if (!out || !dir || !dir[0])
        return ios_fail(err, IOSAGE_E_USAGE, dir, "", -1, "no bundle dir");
    struct source src = {.dir = dir, .label = dir};
    return load_bundle(&src, out, err);
}

iosage_status iosage_model_load_mem(const struct iosage_model_file *files,
                                    size_t n, const char *label,
                                    iosage_model **out, iosage_error *err)
{
    if (!out || (n && !files))
        return ios_fail(err, IOSAGE_E_USAGE, label, "", -1, "no files");
    struct source src = {.files = files, .n = n,
                         .label = label ? label : "memory"};
    return load_bundle(&src, out, err);
}
