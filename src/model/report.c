/*
 * src/model/report.c - the JSON line of `iosage detect` for one log: the
 * gate, every pattern's score and verdict, and the top SHAP contributions
 * of the detected patterns (computed for those only: exact TreeSHAP costs
 * about a millisecond per model and row, TOOLCHAIN.md P5).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "ios_json.h"
#include "internal.h"

#define NF IOSAGE_NUM_FEATURES
#define JSON_LINE (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6))

/* A JSON string of s with every byte that is not UTF-8 as U+FFFD. */
static json_t *text(const char *s)
{
    char *fixed = ios_utf8_fix(s);
    json_t *j = fixed ? json_string(fixed) : NULL;
    free(fixed);
    return j;
}

static int put(json_t *o, const char *key, json_t *v)
{
    return v ? json_object_set_new(o, key, v) : -1;
}

static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* The "shap" list of pattern k for row x. */
static iosage_status shap_json(const iosage_model *m, int k, const float *x,
                               json_t **out, iosage_error *err)
{
    float contrib[NF + 1];
    struct iosage_contribution top[IOSAGE_SHAP_TOP];
    *out = NULL;
    iosage_status st = iosage_model_explain(m, k, x, contrib, NULL, err);
    if (st != IOSAGE_OK)
        return st;
    int n = iosage_model_top_contributions(x, contrib, IOSAGE_SHAP_TOP, top);
    json_t *list = json_array();
    int rc = list ? 0 : -1;
    for (int i = 0; i < n && rc == 0; i++) {
        json_t *e = json_object();
        rc |= e ? 0 : -1;
        rc |= put(e, "feature", json_string(iosage_feature_name(top[i].feature)));
        rc |= put(e, "value", num(top[i].value));
        rc |= put(e, "contribution", num(top[i].contribution));
        rc |= json_array_append_new(list, e);
    }
    if (rc != 0) {
        json_decref(list);
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "detect", -1, "no memory");
    }
    *out = list;
    return IOSAGE_OK;
}

static iosage_status patterns_json(const iosage_model *m, const float *x,
                                   const struct iosage_detection *d,
                                   int with_shap, json_t *pats,
                                   iosage_error *err)
{
    for (int k = 0; k < d->n_patterns; k++) {
        json_t *e = json_object(), *shap = NULL;
        int rc = e ? 0 : -1;
        rc |= put(e, "score", num(d->score[k]));
        rc |= put(e, "detected", json_boolean(d->detected[k]));
        char why[IOSAGE_TEXT_MAX];
        if (d->floored[k] &&
            !iosage_pattern_floor_met(iosage_pattern_get(k), x, why, sizeof why))
            rc |= put(e, "floor", text(why));
        if (rc == 0 && with_shap && d->detected[k]) {
            iosage_status st = shap_json(m, k, x, &shap, err);
            if (st != IOSAGE_OK) {
                json_decref(e);
                return st;
            }
            rc |= put(e, "shap", shap);
        }
        rc |= put(pats, iosage_pattern_get(k)->id, e);
        if (rc != 0)
            return ios_fail(err, IOSAGE_E_NOMEM, NULL, "detect", -1,
                            "no memory");
    }
    return IOSAGE_OK;
}

char *iosage_model_detect_json(const iosage_model *m, const float *x,
                               const char *path, int with_shap,
                               iosage_error *err)
{
    struct iosage_detection d;
    if (iosage_model_detect(m, x, 1, &d, err) != IOSAGE_OK)
        return NULL;
    json_t *o = json_object(), *h = json_object(), *pats = json_object();
    int rc = o && h && pats ? 0 : -1;
    rc |= put(o, "file", text(path));
    rc |= put(h, "score", num(1 - d.gate_score));
    rc |= put(h, "detected", json_boolean(d.healthy));
    rc |= put(o, "healthy", h);
    h = NULL;
    iosage_status st = IOSAGE_OK;
    if (rc == 0)
        st = patterns_json(m, x, &d, with_shap, pats, err);
    rc |= put(o, "patterns", st == IOSAGE_OK ? pats : NULL);
    if (st == IOSAGE_OK)
        pats = NULL;
    char *line = rc == 0 ? ios_json_dumps(o, JSON_LINE) : NULL;
    json_decref(h);
    json_decref(pats);
    json_decref(o);
    if (!line && st == IOSAGE_OK)
        ios_fail(err, IOSAGE_E_NOMEM, path, "detect", -1, "no memory");
    return line;
}

char *iosage_model_error_json(const char *path, const char *msg)
{
    json_t *o = json_object();
    int rc = o ? 0 : -1;
    rc |= put(o, "file", text(path));
    rc |= put(o, "error", text(msg));
    char *line = rc == 0 ? ios_json_dumps(o, JSON_LINE) : NULL;
    json_decref(o);
    return line;
}
