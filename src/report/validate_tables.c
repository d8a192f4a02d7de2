/*
 * src/report/validate_tables.c - the views of `iosage validate`
 * (docs/validation.md): one scenario as text, every scenario as the
 * iosage-validate JSON document or as the Markdown table. A view like the
 * others, so it lives with them (it was in src/cli/cmd_validate.c).
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "iosage/label.h"
#include "iosage/report.h"
#include "iosage/validate.h"
#include "iosage/version.h"

static const char *verdict_id(enum iosage_validate_verdict v)
{
    const char *ids[] = {"measured", "healthy_ok", "healthy_proposed",
                         "nothing_proposed", "no_configuration"};
    return (unsigned)v < 5 ? ids[v] : "?";
}

/* The labeler's patterns as "a, b", "healthy" or "(could not label)". */
static void print_labels(FILE *out, const int *labels, int labeled)
{
    int any = 0;
    for (int p = 0; labeled && p < IOSAGE_VALIDATE_NPATTERNS; p++)
        if (labels[p])
            fprintf(out, "%s%s", any++ ? ", " : "", iosage_label_pattern_id(p));
    if (!any)
        fputs(labeled ? "healthy" : "(could not label)", out);
}

/* Index of a pattern id in the labeler's order, or -1. */
static int label_index(const char *id)
{
    for (int p = 0; p < IOSAGE_VALIDATE_NPATTERNS; p++)
        if (strcmp(iosage_label_pattern_id(p), id) == 0)
            return p;
    return -1;
}

/* 1 when the labeler no longer finds the change's pattern after it. */
static int pattern_gone(const struct iosage_validate_change_result *c)
{
    int p = label_index(c->proposal.pattern);
    return c->labeled_after && p >= 0 && !c->labels_after[p];
}

/* "faster", "slower" or "no measurable difference". */
static const char *effect(const struct iosage_validate_stats *st)
{
    if (st->lo > 1.0)
        return "faster";
    if (st->hi < 1.0)
        return "slower";
    return "no measurable difference";
}

static void print_flags(FILE *out, const struct iosage_validate_flags *f)
{
    for (int i = 0; i < f->n; i++)
        fprintf(out, "%s%s", i ? " " : "", f->v[i]);
}

/* "93.5% interval 3.40-3.95" or "min..max 0.91-1.20 (coverage 75.0%)". */
static void print_interval(FILE *out, const struct iosage_validate_stats *st)
{
    if (st->reached)
        fprintf(out, "%.1f%% interval %.2f-%.2f", 100 * st->coverage, st->lo,
                st->hi);
    else
        fprintf(out, "min..max %.2f-%.2f (coverage %.1f%%)", st->lo, st->hi,
                100 * st->coverage);
}

static void text_change(FILE *out, const struct iosage_validate_scenario *s,
                        const struct iosage_validate_change_result *c)
{
    fprintf(out, "  change %d   %s/%s", c->proposal.rank, c->proposal.pattern,
            c->proposal.change_id);
    if (c->outcome == IOSAGE_VALIDATE_NO_CONFIG) {
        fprintf(out, ": advice proposed %s, scenario has no configuration "
                "for it\n", c->proposal.change_id);
        return;
    }
    fputs(": ", out);
    if (strcmp(c->change->kernel, s->kernel) != 0)
        fprintf(out, "kernel=%s ", c->change->kernel);
    print_flags(out, &c->change->flags);
    const struct iosage_validate_measure *m[2] = {&c->kernel, &c->wall};
    const char *what[2] = {"kernel seconds", "wall seconds  "};
    for (int i = 0; i < 2; i++) {
        fprintf(out, "\n             %s %.4f -> %.4f (medians of %zu), "
                "speedup %.2fx, ", what[i], m[i]->median_without,
                m[i]->median_with, c->runs, m[i]->stats.median);
        print_interval(out, &m[i]->stats);
        fprintf(out, ": %s", effect(&m[i]->stats));
    }
    fprintf(out, "\n             saving of I/O time: measured %.0f%%",
            100 * (1 - 1 / c->kernel.stats.median));
    if (c->proposal.predicted)
        fprintf(out, ", predicted %.0f%%", 100 * c->proposal.predicted_saving);
    else
        fputs(", predicted: no savings model", out);
    fputs("\n             labeler after the change: ", out);
    print_labels(out, c->labels_after, c->labeled_after);
    fputc('\n', out);
}

void iosage_report_validate_text(FILE *out, const struct iosage_validate_run *sr)
{
    const struct iosage_validate_scenario *s = sr->s;
    fprintf(out, "%s: %s on %d ranks (%s)\n  baseline   ", s->name, s->kernel,
            s->ranks, s->path);
    print_flags(out, &s->baseline);
    fputs("\n  built for  ", out);
    for (int i = 0; i < s->n_patterns; i++)
        fprintf(out, "%s%s", i ? ", " : "", s->patterns[i]);
    fputs(s->healthy ? "healthy\n" : "\n", out);
    if (sr->st != IOSAGE_OK) {
        fprintf(out, "  error      %s\n\n", sr->error);
        return;
    }
    const struct iosage_validate_result *r = &sr->r;
    fputs("  labeler    ", out);
    print_labels(out, r->labels, r->labeled);
    fputc('\n', out);
    fprintf(out, "  advice     %s:", r->advice.source);
    for (size_t i = 0; i < r->advice.n; i++)
        fprintf(out, " %d %s/%s", r->advice.changes[i].rank,
                r->advice.changes[i].pattern, r->advice.changes[i].change_id);
    fprintf(out, "%s\n  verdict    %s\n", r->advice.n ? "" : " none",
            iosage_validate_verdict_text(r->verdict));
    for (size_t i = 0; i < r->n_results; i++)
        text_change(out, s, &r->results[i]);
    fputc('\n', out);
}

/* --- JSON ---------------------------------------------------------------- */

static json_t *flags_json(const struct iosage_validate_flags *f)
{
    json_t *a = json_array();
    for (int i = 0; i < f->n; i++)
        json_array_append_new(a, json_string(f->v[i]));
    return a;
}

/* The labeler's patterns as an array, or null when not labeled. */
static json_t *labels_json(const int *labels, int labeled)
{
    if (!labeled)
        return json_null();
    json_t *a = json_array();
    for (int p = 0; p < IOSAGE_VALIDATE_NPATTERNS; p++)
        if (labels[p])
            json_array_append_new(a, json_string(iosage_label_pattern_id(p)));
    return a;
}

static json_t *samples_json(const double *x, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_real(x[i]));
    return a;
}

static json_t *measure_json(const struct iosage_validate_measure *m)
{
    const struct iosage_validate_stats *st = &m->stats;
    return json_pack("{s:f,s:f,s:f,s:f,s:f,s:[I,I],s:f,s:b,s:b,s:s}",
                     "median_without", m->median_without, "median_with",
                     m->median_with, "speedup", st->median, "interval_lo",
                     st->lo, "interval_hi", st->hi, "interval_ranks",
                     (json_int_t)st->k_lo, (json_int_t)st->k_hi, "coverage",
                     st->coverage, "coverage_reached", st->reached,
                     "significant", st->significant, "effect", effect(st));
}

static json_t *change_json(const struct iosage_validate_change_result *c)
{
    json_t *j = json_pack("{s:i,s:s,s:s,s:b}", "rank", c->proposal.rank,
                          "pattern", c->proposal.pattern, "change_id",
                          c->proposal.change_id, "measured",
                          c->outcome == IOSAGE_VALIDATE_MEASURED);
    if (c->outcome != IOSAGE_VALIDATE_MEASURED) {
        char why[200];
        snprintf(why, sizeof why, "advice proposed %s, scenario has no "
                 "configuration for it", c->proposal.change_id);
        json_object_set_new(j, "reason", json_string(why));
        return j;
    }
    json_object_set_new(j, "kernel", json_string(c->change->kernel));
    json_object_set_new(j, "flags", flags_json(&c->change->flags));
    json_object_set_new(j, "runs", json_integer((json_int_t)c->runs));
    json_object_set_new(j, "measured_saving",
                        json_real(1 - 1 / c->kernel.stats.median));
    json_object_set_new(j, "predicted_saving",
                        c->proposal.predicted
                            ? json_real(c->proposal.predicted_saving)
                            : json_null());
    json_t *k = measure_json(&c->kernel);
    json_object_update(j, k); /* the kernel's seconds are the headline */
    json_decref(k);
    json_object_set_new(j, "wall", measure_json(&c->wall));
    json_object_set_new(j, "labels_after",
                        labels_json(c->labels_after, c->labeled_after));
    json_object_set_new(j, "pattern_gone", json_boolean(pattern_gone(c)));
    json_object_set_new(j, "samples", json_pack(
        "{s:o,s:o,s:o,s:o}", "without", samples_json(c->without_s, c->runs),
        "with", samples_json(c->with_s, c->runs), "without_wall",
        samples_json(c->without_wall, c->runs), "with_wall",
        samples_json(c->with_wall, c->runs)));
    return j;
}

static json_t *result_json(const struct iosage_validate_run *sr,
                           const struct iosage_validate_options *o)
{
    const struct iosage_validate_scenario *s = sr->s;
    json_t *pats = json_array();
    for (int i = 0; i < s->n_patterns; i++)
        json_array_append_new(pats, json_string(s->patterns[i]));
    json_t *j = json_pack("{s:s,s:s,s:s,s:i,s:o,s:b,s:o}", "name", s->name,
                          "file", s->path, "kernel", s->kernel, "ranks",
                          s->ranks, "patterns", pats, "healthy", s->healthy,
                          "baseline", flags_json(&s->baseline));
    if (sr->st != IOSAGE_OK) {
        json_object_set_new(j, "error", json_string(sr->error));
        return j;
    }
    const struct iosage_validate_result *r = &sr->r;
    json_t *labels = labels_json(r->labels, r->labeled);
    json_t *det = json_array(), *prop = json_array(), *ch = json_array();
    for (int i = 0; i < r->advice.n_detected; i++)
        json_array_append_new(det, json_string(r->advice.detected[i]));
    for (size_t i = 0; i < r->advice.n; i++)
        json_array_append_new(prop, json_pack(
            "{s:i,s:s,s:s}", "rank", r->advice.changes[i].rank, "pattern",
            r->advice.changes[i].pattern, "change_id",
            r->advice.changes[i].change_id));
    for (size_t i = 0; i < r->n_results; i++)
        json_array_append_new(ch, change_json(&r->results[i]));
    json_object_set_new(j, "labels", labels);
    json_object_set_new(j, "detected", det);
    json_object_set_new(j, "advice", json_pack("{s:s,s:o}", "source",
                                               r->advice.source, "proposed",
                                               prop));
    json_object_set_new(j, "verdict", json_string(verdict_id(r->verdict)));
    json_object_set_new(j, "verdict_text", json_string(
        iosage_validate_verdict_text(r->verdict)));
    json_object_set_new(j, "warmup", json_integer(o->warmup));
    json_object_set_new(j, "changes", ch);
    return j;
}

void iosage_report_validate_json(FILE *out, const struct iosage_validate_run *runs,
                                 int n, const struct iosage_validate_options *o)
{
    json_t *list = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(list, result_json(&runs[i], o));
    char generator[64];
    snprintf(generator, sizeof generator, "iosage %s", iosage_version());
    json_t *doc = json_pack("{s:s,s:i,s:s,s:i,s:b,s:s,s:o}", "schema",
                            "iosage-validate", "version", 1, "metric",
                            "kernel_seconds", "runs", o->runs, "traced_runs",
                            0, "generator", generator,
                            "scenarios", list);
    json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
    fputc('\n', out);
    json_decref(doc);
}

/* --- Markdown (the table of docs/validation.md) -------------------------- */

static void md_row(FILE *out, const struct iosage_validate_run *sr,
                   const struct iosage_validate_change_result *c)
{
    const struct iosage_validate_scenario *s = sr->s;
    fprintf(out, "| %s | %d | %s | %s", s->name, s->ranks,
            c->proposal.pattern, c->proposal.change_id);
    if (c->proposal.rank != 1)
        fprintf(out, " (#%d)", c->proposal.rank);
    if (c->change && strcmp(c->change->kernel, s->kernel) != 0)
        fprintf(out, " [%s]", c->change->kernel);
    fputs(" | ", out);
    if (c->outcome != IOSAGE_VALIDATE_MEASURED) {
        fputs("— | — | no configuration | — | — | — | — | — | — |\n", out);
        return;
    }
    const struct iosage_validate_stats *k = &c->kernel.stats;
    const struct iosage_validate_stats *w = &c->wall.stats;
    const char *bold = k->significant ? "**" : "";
    char predicted[32] = "—";
    if (c->proposal.predicted)
        snprintf(predicted, sizeof predicted, "%.0f%%",
                 100 * c->proposal.predicted_saving);
    fprintf(out, "%.3f | %.3f | %s%.2fx%s | %.2f–%.2f (%.1f%%) | %s | "
            "%.0f%% | %s | %.2fx (%.2f–%.2f) | %s |\n",
            c->kernel.median_without, c->kernel.median_with, bold, k->median,
            bold, k->lo, k->hi, 100 * k->coverage, effect(k),
            100 * (1 - 1 / k->median), predicted, w->median, w->lo, w->hi,
            !c->labeled_after ? "?" : pattern_gone(c) ? "yes" : "no");
}

void iosage_report_validate_markdown(FILE *out,
                                     const struct iosage_validate_run *runs, int n)
{
    fputs("| scenario | ranks | pattern | change | baseline (s) | changed (s) "
          "| speedup | interval (coverage) | effect "
          "| saving measured | saving predicted "
          "| wall speedup (interval) | pattern gone |\n"
          "|---|---:|---|---|---:|---:|---:|---|---|---:|---:|---|---|\n", out);
    for (int i = 0; i < n; i++) {
        const struct iosage_validate_run *sr = &runs[i];
        if (sr->st != IOSAGE_OK) {
            fprintf(out, "| %s | %d | — | error: %s | | | | | | | | | |\n",
                    sr->s->name, sr->s->ranks, sr->error);
            continue;
        }
        const struct iosage_validate_result *r = &sr->r;
        if (r->n_results == 0)
            fprintf(out, "| %s | %d | %s | %s | | | | | | | | | |\n", sr->s->name,
                    sr->s->ranks, sr->s->healthy ? "(healthy)" : "—",
                    iosage_validate_verdict_text(r->verdict));
        for (size_t k = 0; k < r->n_results; k++)
            md_row(out, sr, &r->results[k]);
    }
}

