/*
 * common.c - sentences every view shows alike.
 *
 * Each function appends plain text that may contain document strings as
 * they are; the caller cleans and escapes the whole sentence for its view
 * (build into a scratch rep_out, then rep_put it).
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Number of detected patterns in detection.patterns. */
static int count_detected(const json_t *detection)
{
    const json_t *pats = rep_arr(detection, "patterns");
    size_t i;
    const json_t *p;
    int n = 0;
    json_array_foreach(pats, i, p) {
        if (rep_bool(p, "detected", 0))
            n++;
    }
    return n;
}

void rep_verdict(rep_out *o, const json_t *doc)
{
    const json_t *det = rep_obj(doc, "detection");
    char g[32], t[32];
    rep_field_score(g, sizeof g, det, "gate_score");
    rep_field_score(t, sizeof t, det, "gate_threshold");
    int n = count_detected(det);
    if (!det) {
        rep_puts(o, "no detection in this report");
    } else if (rep_bool(det, "healthy", n == 0) || n == 0) {
        rep_printf(o, "no bottleneck pattern detected; no change proposed "
                      "(gate score %s, threshold %s%s)",
                   g, t,
                   rep_bool(det, "gate_only", 0)
                       ? "; the gate fired but no pattern model did"
                       : "");
    } else {
        /* detection rule 1's exception (iosage/model.h): a pattern model
         * sure enough outvotes a gate under its threshold; say so, or the
         * line reads as if the gate had fired */
        double gs, gt;
        int outvoted = rep_num(det, "gate_score", &gs) &&
                       rep_num(det, "gate_threshold", &gt) && gs < gt;
        const char *by = !outvoted ? ""
                         : n == 1  ? "; outvoted by the pattern model"
                                   : "; outvoted by the pattern models";
        rep_printf(o, "%d bottleneck pattern%s detected (gate score %s, "
                      "%sthreshold %s%s)",
                   n, n == 1 ? "" : "s", g, outvoted ? "under its " : "", t,
                   by);
    }
    /* a verdict on what is left of a log says so where it is read first */
    double left = 0;
    if (rep_num(rep_obj(doc, "job"), "records_left_out", &left) && left > 0) {
        char c[32];
        rep_printf(o, "; %s record%s of the log left out as impossible "
                      "(see the warnings)",
                   rep_field_count(c, sizeof c, rep_obj(doc, "job"),
                                   "records_left_out"),
                   left == 1 ? "" : "s");
    }
}

void rep_advice_source(rep_out *o, const json_t *advice)
{
    const char *src = rep_str(advice, "source");
    if (src && strcmp(src, "llm") == 0) {
        const char *prov = rep_str(advice, "provider");
        const char *model = rep_str(advice, "model");
        rep_printf(o, "LLM (%s, %s)", prov ? prov : "unknown provider",
                   model ? model : "unknown model");
    } else if (src && strcmp(src, "offline") == 0) {
        rep_puts(o, "offline (built-in advice for each pattern)");
    } else {
        rep_printf(o, "%s", src ? src : "n/a");
    }
    const char *fb = rep_str(advice, "fallback");
    if (fb)
        rep_printf(o, "; offline advice used instead of the LLM: %s", fb);
    double dropped;
    if (rep_num(advice, "dropped", &dropped) && dropped > 0)
        rep_printf(o, "; %.0f LLM change%s dropped (pattern not detected or "
                      "malformed)",
                   dropped, dropped == 1 ? "" : "s");
}

void rep_job_line(rep_out *o, const json_t *doc)
{
    const json_t *job = rep_obj(doc, "job");
    const char *exe = rep_str(job, "exe");
    char id[32], np[32], rt[48];
    rep_field_count(np, sizeof np, job, "nprocs");
    rep_field_secs(rt, sizeof rt, job, "run_time");
    double v;
    if (rep_num(job, "job_id", &v))
        snprintf(id, sizeof id, "%.0f", v);
    else
        snprintf(id, sizeof id, "n/a");
    rep_printf(o, "%s (job %s, %s processes, run time %s%s)",
               exe && *exe ? exe : "unknown executable", id, np, rt,
               rep_bool(job, "partial", 0) ? ", partial log" : "");
}

void rep_where(rep_out *o, const json_t *where)
{
    const char *file = rep_str(where, "file");
    const char *key = rep_str(where, "key");
    if (file && key)
        rep_printf(o, "%s: %s", file, key);
    else if (file)
        rep_puts(o, file);
    else if (key)
        rep_puts(o, key);
}

/* Seconds as the saving line shows them: 3 significant digits. */
static void put_seconds(rep_out *o, double s)
{
    double a = s < 0 ? -s : s;
    rep_printf(o, a >= 100 ? "%.0f s" : a >= 10 ? "%.1f s" : a >= 1 ? "%.2f s"
                                                                   : "%.3f s",
               a);
}

/* A change without a savings model: say so, and what it was ranked by. */
static void typical_saving(rep_out *o, const json_t *change)
{
    const json_t *t = rep_obj(change, "typical_saving");
    double share, median, runs = 0, own = 0;
    if (!t || !rep_num(t, "io_time_share", &share) ||
        !rep_num(t, "median", &median))
        return;
    rep_num(t, "measured_runs", &runs);
    if (!rep_num(t, "change_measured_runs", &own) || own < 1)
        rep_puts(o, "not predicted (this change was never measured); ");
    else
        rep_printf(o, "not predicted (%.0f measured run%s of this change, "
                      "too few for a model); ",
                   own, own == 1 ? "" : "s");
    if (share < median)
        rep_printf(o, "ranked at %.0f%% of the I/O time, the share its "
                      "operations take (a typical measured change saves "
                      "%.0f%%: the median of %.0f runs)",
                   100 * share, 100 * median, runs);
    else
        rep_printf(o, "ranked as a typical measured change, which saves "
                      "%.0f%% of the I/O time (the median of %.0f runs)",
                   100 * median, runs);
}

void rep_expected_saving(rep_out *o, const json_t *change)
{
    const json_t *e = rep_obj(change, "expected_saving");
    const json_t *range = rep_arr(e, "range");
    double share, secs, runs = 0;
    if (!e) {
        typical_saving(o, change);
        return;
    }
    if (!rep_num(e, "io_time_share", &share) ||
        !rep_num(e, "seconds", &secs))
        return;
    rep_num(e, "measured_runs", &runs);
    const json_t *lo = json_array_get(range, 0), *hi = json_array_get(range, 1);
    int ranged = json_is_number(lo) && json_is_number(hi);
    double l = ranged ? json_number_value(lo) : share;
    double h = ranged ? json_number_value(hi) : share;
    if (share >= 0 && (l > 0 || !ranged)) {
        rep_printf(o, "%.0f%% of the I/O time (", 100 * share);
        put_seconds(o, secs);
        rep_puts(o, " of this job)");
    } else if (share < 0 && (h < 0 || !ranged)) {
        rep_printf(o, "none expected: it would add %.0f%% to the I/O time (",
                   -100 * share);
        put_seconds(o, secs);
        rep_puts(o, " in this job)");
    } else if (share >= 0) {
        rep_printf(o, "uncertain: %.0f%% of the I/O time predicted (",
                   100 * share);
        put_seconds(o, secs);
        rep_puts(o, "), but the measured runs like this job's range from a "
                    "loss to a gain");
    } else {
        /* a predicted loss: put_seconds shows magnitudes, so say which way */
        rep_printf(o, "uncertain: a loss of %.0f%% of the I/O time predicted (",
                   -100 * share);
        put_seconds(o, secs);
        rep_puts(o, " more), but the measured runs like this job's range from "
                    "a loss to a gain");
    }
    if (ranged)
        rep_printf(o, ", typical range %.0f%% to %.0f%%", 100 * l, 100 * h);
    /* a model whose out-of-fold predictions all fell short of (or beyond)
     * what was measured: its range does not hold its own prediction (the
     * range adds the residuals' 10th and 90th percentiles) */
    if (ranged && l > share)
        rep_puts(o, " (above the prediction: the model predicted less than "
                    "the measured runs saved)");
    else if (ranged && h < share)
        rep_puts(o, " (below the prediction: the model predicted more than "
                    "the measured runs saved)");
    rep_printf(o, "; learned from %.0f measured runs", runs);
}

const char *rep_pattern_name(const json_t *doc, const char *id)
{
    const json_t *pats = rep_arr(rep_obj(doc, "detection"), "patterns");
    size_t i;
    const json_t *p;
    if (!id)
        return NULL;
    json_array_foreach(pats, i, p) {
        const char *pid = rep_str(p, "id");
        const char *name = rep_str(p, "name");
        if (pid && name && strcmp(pid, id) == 0)
            return name;
    }
    return id;
}
