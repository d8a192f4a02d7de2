/*
 * src/advise/report.c - iosage_report_build: the report document of
 * docs/report.md for one log, with offline advice.
 *
 * Keys appear in the order of docs/report.md. Findings and changes exist
 * only for the patterns the detection reported: a healthy job has
 * findings [] and advice.changes [].
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "iosage/label.h"
#include "iosage/version.h"


static int warn(json_t *warnings, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int warn(json_t *warnings, const char *fmt, ...)
{
    char line[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    return json_array_append_new(warnings, ios_json_str(line)) != 0 ? -1 : 0;
}

/* --- detection ------------------------------------------------------------------ */

static json_t *shap_json(const struct iosage_advise_input *in, int k,
                         iosage_error *err)
{
    float contrib[IOSAGE_NUM_FEATURES + 1];
    struct iosage_contribution top[IOSAGE_SHAP_TOP];
    if (iosage_model_explain(in->model, k, in->features, contrib, NULL, err) !=
        IOSAGE_OK)
        return NULL;
    int n = iosage_model_top_contributions(in->features, contrib,
                                           IOSAGE_SHAP_TOP, top);
    json_t *arr = json_array();
    for (int i = 0; arr && i < n; i++)
        if (json_array_append_new(arr, json_pack("{s:s,s:o,s:o}", "feature",
                                  iosage_feature_name(top[i].feature), "value",
                                  ios_json_real(top[i].value), "contribution",
                                  ios_json_real(top[i].contribution))) != 0) {
            json_decref(arr);
            return NULL;
        }
    return arr;
}

static double threshold(const iosage_model *m, int model)
{
    double t = m ? iosage_model_threshold(m, model) : NAN;
    return isfinite(t) ? t : 0.5;
}

static json_t *pattern_json(const struct iosage_advise_input *in, int k,
                            iosage_error *err)
{
    const struct iosage_pattern *p = iosage_pattern_get(k);
    const struct iosage_detection *d = in->det;
    int detected = !d->healthy && k < d->n_patterns && d->detected[k];
    json_t *o = json_pack("{s:s,s:s,s:o,s:o,s:b}", "id", p->id, "name", p->name,
                          "score", ios_json_real(k < d->n_patterns ? d->score[k] : 0.0),
                          "threshold", ios_json_real(threshold(in->model, k)),
                          "detected", detected);
    if (o && detected && in->model && ios_json_set(o, "shap", shap_json(in, k, err))) {
        json_decref(o);
        return NULL;
    }
    char why[IOSAGE_TEXT_MAX];
    if (o && k < d->n_patterns && d->floored[k] &&
        !iosage_pattern_floor_met(p, in->features, why, sizeof why) &&
        ios_json_set(o, "floor", ios_json_str(why))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *detection_json(const struct iosage_advise_input *in,
                              iosage_error *err)
{
    const struct iosage_detection *d = in->det;
    json_t *pats = json_array();
    for (int k = 0; pats && k < iosage_pattern_count(); k++)
        if (json_array_append_new(pats, pattern_json(in, k, err)) != 0) {
            json_decref(pats);
            return NULL;
        }
    return json_pack("{s:s,s:b,s:o,s:o,s:b,s:o}", "model",
                     in->model ? iosage_model_source(in->model) : "none",
                     "healthy", d->healthy, "gate_score", ios_json_real(d->gate_score),
                     "gate_threshold", ios_json_real(threshold(in->model,
                                                          IOSAGE_MODEL_GATE)),
                     "gate_only", d->gate_only, "patterns", pats);
}

/* --- findings ------------------------------------------------------------------- */

static json_t *quart_json(const struct iosage_quartiles *q)
{
    return json_pack("{s:o,s:o,s:o}", "q1", ios_json_real(q->q1), "median",
                     ios_json_real(q->median), "q3", ios_json_real(q->q3));
}

/* How far v is from the runs of q, in units of their interquartile range,
 * at most CARD_FAR. The unit is at least a quarter of the spread of both
 * groups (floor): runs that all share one value (sync_per_write_log 0 in
 * every run without the pattern) would otherwise call a value 0.004 away
 * as far as one a thousand times further. */
#define CARD_FAR 10.0
static double card_distance(double v, const struct iosage_quartiles *q,
                            double floor)
{
    double unit = q->q3 - q->q1, d = fabs(v - q->median);
    if (unit < floor)
        unit = floor;
    if (unit < 1e-12)
        return d < 1e-12 ? 0.0 : CARD_FAR;
    return d / unit < CARD_FAR ? d / unit : CARD_FAR;
}

/* How much this job's value of card feature cf looks like the runs with
 * the pattern rather than those without: positive when closer to "with". */
static double card_leaning(const struct iosage_card_feature *cf, double v)
{
    const struct iosage_quartiles *w = &cf->with, *o = &cf->without;
    double hi = w->q3 > o->q3 ? w->q3 : o->q3;
    double lo = w->q1 < o->q1 ? w->q1 : o->q1;
    double floor = (hi - lo) / 4;
    return card_distance(v, o, floor) - card_distance(v, w, floor);
}

/* The card's features in the order the finding shows them: those where the
 * job looks most like the runs with the pattern first (the text view shows
 * three). A pattern with several causes (storage underused: syncs, narrow
 * striping, re-reads) has key features for each, and a finding on a
 * one-OST file led with "sync_per_write_log = 0 (jobs with the pattern:
 * median 0.301)", the cause it does not have. Equal leanings keep the
 * card's order (insertion sort: at most IOSAGE_CARD_MAX_FEATURES). */
static void card_order(const struct iosage_card *c, const float *x, int *order)
{
    double lean[IOSAGE_CARD_MAX_FEATURES];
    for (int i = 0; i < c->n_features; i++) {
        const struct iosage_card_feature *cf = &c->features[i];
        lean[i] = card_leaning(cf, cf->index >= 0 ? (double)x[cf->index] : 0.0);
        int j = i;
        while (j > 0 && lean[order[j - 1]] < lean[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
}

static json_t *card_json(const struct iosage_card *c, const float *x)
{
    json_t *feats = json_array();
    int order[IOSAGE_CARD_MAX_FEATURES];
    card_order(c, x, order);
    for (int i = 0; feats && i < c->n_features; i++) {
        const struct iosage_card_feature *cf = &c->features[order[i]];
        double v = cf->index >= 0 ? (double)x[cf->index] : 0.0;
        if (json_array_append_new(feats, json_pack("{s:s,s:o,s:o,s:o}", "name",
                                  cf->name, "value", ios_json_real(v), "with",
                                  quart_json(&cf->with), "without",
                                  quart_json(&cf->without))) != 0) {
            json_decref(feats);
            return NULL;
        }
    }
    return json_pack("{s:o,s:s,s:s}", "features", feats, "change", c->change,
                     "not_applicable", c->not_applicable);
}

static json_t *finding_json(const struct iosage_advise_input *in,
                            const struct adv_finding *f)
{
    const struct iosage_pattern *p = iosage_pattern_get(f->pattern);
    json_t *ev = json_array();
    for (int i = 0; ev && i < f->ev.n_lines; i++)
        if (json_array_append_new(ev, ios_json_str(f->ev.line[i])) != 0) {
            json_decref(ev);
            ev = NULL;
        }
    json_t *o = json_pack("{s:s,s:s,s:o,s:o,s:o}", "pattern", p->id, "name",
                          p->name, "score", ios_json_real(f->score), "io_time_share",
                          ios_json_real(f->share), "evidence", ev);
    const struct iosage_card *c = iosage_cards_get(in->cards, p->id);
    if (o && c && ios_json_set(o, "card", card_json(c, in->features))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* Findings and offline changes, in ranked order, into the two arrays. A
 * finding whose operations hold under 5% of the job's I/O time gets no
 * change (a warning says why). */
static int findings_and_changes(const struct iosage_advise_input *in,
                                json_t *findings, json_t *changes,
                                json_t *warnings)
{
    struct adv_finding f[IOSAGE_MAX_PATTERNS];
    int n = 0;
    const struct iosage_detection *d = in->det;
    for (int k = 0; !d->healthy && k < d->n_patterns &&
                    k < iosage_pattern_count(); k++)
        if (d->detected[k])
            adv_finding_make(in->log, in->table, k, d->score[k], &f[n++]);
    adv_findings_sort(f, n);
    int rank = 0;
    for (int i = 0; i < n; i++) {
        if (json_array_append_new(findings, finding_json(in, &f[i])) != 0)
            return -1;
        if (f[i].held) /* "when not to apply" holds: no change */
            continue;
        if (f[i].share < ADV_CHANGE_MIN_SHARE) {
            char pct[16];
            if (warn(warnings, "no change proposed for %s: the operations "
                     "that show it hold %s of the job's I/O time, under 5%%",
                     iosage_pattern_get(f[i].pattern)->name,
                     ios_fmt_pct(pct, sizeof pct, f[i].share)) != 0)
                return -1;
            continue;
        }
        json_t *ch = adv_offline_change(&f[i], in->table, in->configs,
                                        in->n_configs);
        if (!ch || json_object_set_new(ch, "rank", json_integer(++rank)) != 0 ||
            json_array_append_new(changes, ch) != 0)
            return -1;
    }
    return 0;
}

/* One warning per pattern a floor kept from being reported. */
static void floor_warnings(const struct iosage_advise_input *in, json_t *w)
{
    const struct iosage_detection *d = in->det;
    char why[IOSAGE_TEXT_MAX];
    for (int k = 0; k < d->n_patterns && k < iosage_pattern_count(); k++) {
        const struct iosage_pattern *p = iosage_pattern_get(k);
        if (d->floored[k] && !iosage_pattern_floor_met(p, in->features, why, sizeof why))
            warn(w, "%s not reported although its model's score is %.2f: "
                 "the log's own numbers are under its floor (%s)", p->name,
                 d->score[k], why);
    }
}

/* One warning per pattern that the written criteria (LABELING.md, what
 * `iosage label` applies, healthy gate included) find in the log but the
 * detection did not report. The models learn from generated runs and miss
 * shapes those never have: on the 80 labeled public logs they miss 15 of 43
 * labeled patterns that these criteria find, e.g. a rank 2.8x slower than
 * the mean on 256 ranks with equal bytes (docs/evaluation.md). The verdict
 * stays the models'; the user learns where to look. A floored pattern has
 * its own warning above. */
static void criteria_warnings(const struct iosage_advise_input *in, json_t *w)
{
    const struct iosage_detection *d = in->det;
    struct iosage_label_result lab;
    iosage_label_table(in->log, in->table, &lab);
    for (int k = 0; k < lab.n_patterns && k < d->n_patterns; k++) {
        if (!lab.present[k] || d->detected[k] || d->floored[k])
            continue;
        warn(w, "the written criteria (LABELING.md, as `iosage label` applies "
             "them) find %s here, which the models do not report (score "
             "%.2f): %s. The models learned from generated runs and can "
             "miss what those never show: check it by hand",
             iosage_pattern_get(k)->name, d->score[k],
             lab.evidence[k]);
    }
}

/* --- configs -------------------------------------------------------------------- */

static json_t *config_json(const struct iosage_config *c, json_t *warnings)
{
    json_t *set = json_array();
    for (size_t i = 0; set && i < c->n_settings; i++) {
        const struct iosage_config_setting *s = &c->settings[i];
        if (json_array_append_new(set, json_pack("{s:o,s:o,s:i}", "key",
                                  ios_json_str(s->key), "value", ios_json_str(s->value),
                                  "line", s->line)) != 0) {
            json_decref(set);
            return NULL;
        }
    }
    if (c->truncated)
        warn(warnings, "config file %s: only the first %zu of %zu bytes were "
             "read", c->path, c->text_len, c->bytes);
    if (c->replaced)
        warn(warnings, "config file %s: %d bytes that are not UTF-8 were "
             "replaced by '?'", c->path, c->replaced);
    return json_pack("{s:o,s:s,s:I,s:b,s:o}", "path", ios_json_str(c->path), "kind",
                     iosage_config_kind_name(c->kind), "bytes",
                     (json_int_t)c->bytes, "truncated", c->truncated,
                     "settings", set);
}

/* --- the document --------------------------------------------------------------- */

static int add_sections(json_t *doc, const struct iosage_advise_input *in,
                        json_t *warnings, iosage_error *err)
{
    json_t *findings = json_array(), *changes = json_array(), *configs = json_array();
    int bad = adv_add_job_summary(doc, in->log, in->table);
    bad |= ios_json_set(doc, "detection", detection_json(in, err));
    bad |= !findings || !changes || !configs;
    if (!bad)
        bad |= findings_and_changes(in, findings, changes, warnings);
    for (size_t i = 0; !bad && i < in->n_configs; i++)
        bad |= json_array_append_new(configs, config_json(in->configs[i],
                                                          warnings)) != 0;
    bad |= ios_json_set(doc, "findings", findings);
    bad |= ios_json_set(doc, "configs", configs);
    bad |= ios_json_set(doc, "advice", json_pack("{s:s,s:n,s:n,s:n,s:i,s:o}",
                                            "source", "offline", "provider",
                                            "model", "fallback", "dropped", 0,
                                            "changes", changes));
    return bad ? -1 : 0;
}

static void early_warnings(const struct iosage_advise_input *in, json_t *w)
{
    if (!in->cards)
        warn(w, "no cards in the model bundle: findings show no typical "
             "feature values");
    if (!in->model)
        warn(w, "no model given: SHAP contributions are left out and "
             "thresholds shown as 0.5");
    floor_warnings(in, w);
    criteria_warnings(in, w);
    for (int m = 0; m < IOSAGE_MAX_MODULES; m++) {
        const iosage_module_data *md = &in->log->modules[m];
        if (md->status != IOSAGE_OK && !md->skipped)
            warn(w, "the %s region was not read whole (%s): the analysis "
                 "uses the %zu record(s) before the problem", md->name,
                 md->err.msg, md->n_records);
    }
    if (in->det->gate_only)
        warn(w, "the gate flagged the job (score %.2f) but no pattern model "
             "cleared its threshold: reported healthy", in->det->gate_score);
    char line[512];
    if (iosage_file_table_impossible_line(in->table, line, sizeof line))
        warn(w, "%s", line);
    if (in->table->job.nprocs_suspect)
        warn(w, "the job record's process count is impossible; using %lld, "
             "the fewest processes its records prove", (long long)in->table->job.nprocs);
}

json_t *iosage_report_build(const struct iosage_advise_input *in,
                            iosage_error *err)
{
    if (!in || !in->log || !in->table || !in->features || !in->det ||
        (in->n_configs && !in->configs)) {
        ios_fail(err, IOSAGE_E_USAGE, NULL, "report", -1,
                 "iosage_report_build: missing input");
        return NULL;
    }
    if (err)
        memset(err, 0, sizeof *err);
    json_t *warnings = json_array();
    char generator[64];
    snprintf(generator, sizeof generator, "iosage %s", iosage_version());
    json_t *doc = json_pack("{s:s,s:i,s:s,s:o}", "schema", "iosage-report",
                            "version", 1, "generator", generator,
                            "file", ios_json_str(in->path ? in->path : in->log->path));
    int bad = !doc || !warnings;
    if (!bad) {
        early_warnings(in, warnings);
        bad = add_sections(doc, in, warnings, err) != 0 ||
              json_object_set(doc, "warnings", warnings) != 0;
    }
    json_decref(warnings);
    if (bad) {
        if (!err || err->code == IOSAGE_OK)
            ios_fail(err, IOSAGE_E_NOMEM, in->path, "report", -1,
                     "no memory for the report");
        json_decref(doc);
        return NULL;
    }
    return doc;
}
