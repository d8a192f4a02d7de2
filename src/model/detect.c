/*
 * src/model/detect.c - scores, the detection rule (stated in
 * iosage/model.h), and SHAP explanations of one model.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "internal.h"

#define NF IOSAGE_NUM_FEATURES

/* Rule 1's exception: a pattern scoring at least the bundle's gate_outvote
 * and its own threshold outvotes a gate that says healthy (0: never). */
static int gate_outvoted(const iosage_model *m, const double *scores)
{
    double o = m->params.gate_outvote;
    for (int k = 0; o > 0 && k < m->n_patterns; k++)
        if (scores[k] >= o && scores[k] >= m->slot[k + 1].threshold)
            return 1;
    return 0;
}

void ios_detect_apply(const iosage_model *m, double gate,
                      const double *scores, double io_share,
                      struct iosage_detection *out)
{
    memset(out, 0, sizeof *out);
    out->gate_score = gate;
    out->n_patterns = m->n_patterns;
    for (int k = 0; k < m->n_patterns; k++)
        out->score[k] = scores[k];
    if (io_share < m->params.io_share_gate) {
        out->healthy = 1; /* rule 0: too little of the run in I/O */
        out->io_gated = 1;
        return;
    }
    if ((gate < m->slot[0].threshold && !gate_outvoted(m, scores)) ||
        m->n_patterns == 0) {
        out->healthy = 1; /* rule 1: the gate wins */
        return;
    }
    for (int k = 0; k < m->n_patterns; k++) {
        if (scores[k] >= m->slot[k + 1].threshold) {
            out->detected[k] = 1; /* rule 2 */
            out->labels |= 1u << k;
        }
    }
    if (out->labels == 0) { /* rule 3: the pattern models outvote the gate */
        out->healthy = 1;
        out->gate_only = 1;
    }
}

/* Rule 4: a pattern under its floor is not reported (x: the row). */
static void apply_floors(const float *x, struct iosage_detection *d)
{
    for (int k = 0; k < d->n_patterns; k++) {
        if (!d->detected[k] ||
            iosage_pattern_floor_met(iosage_pattern_get(k), x, NULL, 0))
            continue;
        d->detected[k] = 0;
        d->floored[k] = 1;
        d->n_floored++;
        d->labels &= ~(1u << k);
    }
    if (d->n_floored > 0 && d->labels == 0)
        d->healthy = 1;
}

iosage_status iosage_model_detect(const iosage_model *m, const float *x,
                                  size_t n_rows, struct iosage_detection *out,
                                  iosage_error *err)
{
    if (!m || (n_rows && (!x || !out)))
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "detect", -1,
                        "no model, rows or output");
    if (n_rows == 0)
        return IOSAGE_OK;
    if (n_rows > SIZE_MAX / sizeof(float) / IOS_MAX_SLOTS)
        return ios_fail(err, IOSAGE_E_LIMIT, NULL, "detect", -1,
                        "too many rows");
    ios_xgb_capture_log();
    float *s = malloc(n_rows * (size_t)m->n_slots * sizeof *s);
    if (!s)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "detect", -1, "no memory");
    iosage_status st = IOSAGE_OK;
    int share = iosage_feature_index("job_io_time_share_slowest");
    for (int slot = 0; st == IOSAGE_OK && slot < m->n_slots; slot++)
        st = ios_xgb_predict(m->booster[slot], x, n_rows, 0,
                             s + (size_t)slot * n_rows, err);
    for (size_t i = 0; st == IOSAGE_OK && i < n_rows; i++) {
        double scores[IOSAGE_MAX_PATTERNS];
        for (int k = 0; k < m->n_patterns; k++)
            scores[k] = s[(size_t)(k + 1) * n_rows + i];
        double io_share = share >= 0 ? x[i * NF + (size_t)share] : 1.0;
        ios_detect_apply(m, s[i], scores, io_share, &out[i]);
        apply_floors(x + i * NF, &out[i]);
    }
    free(s);
    return st;
}

iosage_status iosage_model_explain(const iosage_model *m, int model,
                                   const float *x, float *contrib,
                                   double *margin, iosage_error *err)
{
    if (!m || !x || !contrib || model < IOSAGE_MODEL_GATE ||
        model >= m->n_patterns)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "explain", -1,
                        "no model %d, row or output", model);
    ios_xgb_capture_log();
    BoosterHandle b = m->booster[model + 1];
    iosage_status st = ios_xgb_shap(b, x, contrib, err);
    if (st == IOSAGE_OK && margin) {
        float v;
        st = ios_xgb_predict(b, x, 1, 1, &v, err);
        *margin = v;
    }
    return st;
}

int iosage_model_top_contributions(const float *x, const float *contrib, int k,
                                   struct iosage_contribution *out)
{
    unsigned char taken[NF];
    memset(taken, 0, sizeof taken);
    int n = 0;
    for (; n < k && n < NF; n++) {
        int best = -1;
        for (int f = 0; f < NF; f++)
            if (!taken[f] && contrib[f] != 0 &&
                (best < 0 || fabsf(contrib[f]) > fabsf(contrib[best])))
                best = f;
        if (best < 0)
            break; /* only zero contributions left */
        taken[best] = 1;
        out[n].feature = best;
        out[n].value = x[best];
        out[n].contribution = contrib[best];
    }
    return n;
}
