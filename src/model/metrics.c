/*
 * src/model/metrics.c - multi-label metrics of predicted pattern sets, and
 * their JSON form (used by `iosage eval` and stored in bundle.json).
 *
 * Every run has a true and a predicted set of patterns (bits of the
 * registry; the empty set is "healthy"). Per pattern: tp, fp, fn,
 * precision tp/(tp+fp), recall tp/(tp+fn), F1 2tp/(2tp+fp+fn), each NAN
 * when its denominator is 0. Over patterns: micro F1 from the summed
 * counts, macro F1 the mean of the defined per-pattern F1 values, Hamming
 * loss the share of wrong (run, pattern) bits, subset accuracy the share
 * of runs whose whole set is right. healthy_flagged: the share of healthy
 * runs given any pattern.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "ios_json.h"
#include "internal.h"
#include "ios_math.h"

static double ratio(int64_t num, int64_t den)
{
    return den > 0 ? (double)num / (double)den : NAN;
}

void iosage_metrics_compute(const uint32_t *truth, const uint32_t *pred,
                            size_t n, int n_patterns,
                            struct iosage_metrics *out)
{
    memset(out, 0, sizeof *out);
    if (n_patterns > IOSAGE_MAX_PATTERNS)
        n_patterns = IOSAGE_MAX_PATTERNS;
    uint32_t mask = n_patterns >= 32 ? 0xffffffffu : (1u << n_patterns) - 1;
    out->runs = (int64_t)n;
    out->n_patterns = n_patterns;
    int64_t exact = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t t = truth[i] & mask, p = pred[i] & mask;
        exact += t == p;
        if (t == 0) {
            out->healthy_runs++;
            out->healthy_flagged_runs += p != 0;
        }
        for (int k = 0; k < n_patterns; k++) {
            int tk = (t >> k) & 1, pk = (p >> k) & 1;
            struct iosage_pattern_metrics *pm = &out->per_pattern[k];
            pm->tp += tk && pk;
            pm->fp += !tk && pk;
            pm->fn += tk && !pk;
        }
    }
    int64_t tp = 0, fp = 0, fn = 0;
    double f1_sum = 0;
    int f1_n = 0;
    for (int k = 0; k < n_patterns; k++) {
        struct iosage_pattern_metrics *pm = &out->per_pattern[k];
        pm->support = pm->tp + pm->fn;
        pm->precision = ratio(pm->tp, pm->tp + pm->fp);
        pm->recall = ratio(pm->tp, pm->tp + pm->fn);
        pm->f1 = ratio(2 * pm->tp, 2 * pm->tp + pm->fp + pm->fn);
        if (!isnan(pm->f1)) {
            f1_sum += pm->f1;
            f1_n++;
        }
        tp += pm->tp, fp += pm->fp, fn += pm->fn;
    }
    out->micro_f1 = ratio(2 * tp, 2 * tp + fp + fn);
    out->macro_f1 = f1_n ? f1_sum / f1_n : NAN;
    out->hamming_loss = ratio(fp + fn, (int64_t)n * n_patterns);
    out->subset_accuracy = ratio(exact, (int64_t)n);
    out->healthy_flagged = ratio(out->healthy_flagged_runs, out->healthy_runs);
}

double ios_round6(double v)
{
    return isfinite(v) ? ios_libm()->round(v * 1e6) / 1e6 : v;
}

/* A real, or null for NAN/Inf (json_real refuses them, P8). */
static json_t *real_or_null(double v)
{
    return isfinite(v) ? json_real(ios_round6(v)) : json_null();
}

static int add(json_t *o, const char *key, json_t *v)
{
    return v ? json_object_set_new(o, key, v) : -1;
}

json_t *ios_metrics_to_json(const struct iosage_metrics *m, const char *split)
{
    json_t *o = json_object(), *per = json_object();
    int rc = o && per ? 0 : -1;
    if (split)
        rc |= add(o, "split", json_string(split));
    rc |= add(o, "runs", json_integer(m->runs));
    rc |= add(o, "micro_f1", real_or_null(m->micro_f1));
    rc |= add(o, "macro_f1", real_or_null(m->macro_f1));
    rc |= add(o, "hamming_loss", real_or_null(m->hamming_loss));
    rc |= add(o, "subset_accuracy", real_or_null(m->subset_accuracy));
    rc |= add(o, "healthy_flagged", real_or_null(m->healthy_flagged));
    for (int k = 0; k < m->n_patterns && rc == 0; k++) {
        const struct iosage_pattern_metrics *pm = &m->per_pattern[k];
        const struct iosage_pattern *pat = iosage_pattern_get(k);
        json_t *e = json_object();
        rc |= e ? 0 : -1;
        rc |= add(e, "precision", real_or_null(pm->precision));
        rc |= add(e, "recall", real_or_null(pm->recall));
        rc |= add(e, "f1", real_or_null(pm->f1));
        rc |= add(e, "support", json_integer(pm->support));
        rc |= add(per, pat ? pat->id : "?", e);
    }
    if (rc == 0 && add(o, "per_pattern", per) == 0)
        return o;
    if (rc != 0)
        json_decref(per); /* not handed to o */
    json_decref(o);
    return NULL;
}

char *iosage_metrics_json(const struct iosage_metrics *m, const char *split)
{
    json_t *o = ios_metrics_to_json(m, split);
    if (!o)
        return NULL;
    char *text = ios_json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER |
                                   JSON_REAL_PRECISION(15));
    json_decref(o);
    return text;
}

/* A number or null (NAN) from o[key]; -1 when missing or of another type. */
static int get_real(const json_t *o, const char *key, double *v)
{
    json_t *j = json_object_get(o, key);
    if (json_is_null(j)) {
        *v = NAN;
        return 0;
    }
    if (!json_is_number(j))
        return -1;
    *v = json_number_value(j);
    return 0;
}

static int get_int(const json_t *o, const char *key, int64_t *v)
{
    json_t *j = json_object_get(o, key);
    if (!json_is_integer(j))
        return -1;
    *v = json_integer_value(j);
    return 0;
}

int ios_metrics_from_json(const json_t *o, int n_patterns,
                          struct iosage_metrics *m)
{
    memset(m, 0, sizeof *m);
    m->n_patterns = n_patterns;
    m->healthy_runs = m->healthy_flagged_runs = -1;
    int rc = get_int(o, "runs", &m->runs);
    rc |= get_real(o, "micro_f1", &m->micro_f1);
    rc |= get_real(o, "macro_f1", &m->macro_f1);
    rc |= get_real(o, "hamming_loss", &m->hamming_loss);
    rc |= get_real(o, "subset_accuracy", &m->subset_accuracy);
    rc |= get_real(o, "healthy_flagged", &m->healthy_flagged);
    json_t *per = json_object_get(o, "per_pattern");
    for (int k = 0; k < n_patterns && rc == 0; k++) {
        json_t *e = json_object_get(per, iosage_pattern_get(k)->id);
        struct iosage_pattern_metrics *pm = &m->per_pattern[k];
        pm->tp = pm->fp = pm->fn = -1;
        rc |= json_is_object(e) ? 0 : -1;
        rc |= get_real(e, "precision", &pm->precision);
        rc |= get_real(e, "recall", &pm->recall);
        rc |= get_real(e, "f1", &pm->f1);
        rc |= get_int(e, "support", &pm->support);
    }
    return rc ? -1 : 0;
}

iosage_status iosage_metrics_rows(const iosage_dataset *ds,
                                  const uint32_t *pred, const uint8_t *keep,
                                  struct iosage_metrics *out, iosage_error *err)
{
    size_t n = 0, cap = ds->n_rows ? ds->n_rows : 1;
    uint32_t *truth = malloc(cap * sizeof *truth);
    uint32_t *kept = malloc(cap * sizeof *kept);
    if (!truth || !kept) {
        free(truth);
        free(kept);
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "eval", -1, "no memory");
    }
    for (size_t i = 0; i < ds->n_rows; i++) {
        if (keep && !keep[i])
            continue;
        truth[n] = ds->labels[i];
        kept[n++] = pred[i];
    }
    iosage_metrics_compute(truth, kept, n, iosage_pattern_count(), out);
    free(truth);
    free(kept);
    return IOSAGE_OK;
}
