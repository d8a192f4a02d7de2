/*
 * svg.c - the inline SVG charts of the HTML view.
 *
 * Each chart is one <svg class="chart" data-chart="NAME"> element with one
 * <rect class="bar ..."> per value (also for zero values, so the number of
 * bars is always the number of values) and a <title> tooltip per bar. All
 * text, tooltips included, comes from rep_put(REP_HTML); no chart holds a
 * link, an image reference or a script. Coordinates are printed with one
 * decimal, so the same document gives the same bytes.
 *
 *   request-sizes  read and write request counts per size bin (log scale)
 *   rank-bytes     bytes per rank       } one bar per rank; past 64 ranks a
 *   rank-time      I/O time per rank    } compact strip without rank labels
 *   scores         each pattern's score with its threshold tick
 *   shap-<id>      SHAP contributions of one detected pattern, diverging
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "ios_math.h"

#define CW 720.0 /* chart width in px */

/* <svg ...> opening tag with an accessible label (escaped). */
static void svg_open(rep_out *o, const char *name, double h, const char *label)
{
    rep_printf(o, "<svg class=\"chart\" data-chart=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" "
                  "viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\" "
                  "aria-label=\"",
               name, CW, h, CW, h);
    rep_put(o, label, REP_HTML);
    rep_puts(o, "\">\n");
}

/* <text> at x,y with the given anchor and class, content escaped. */
static void svg_text(rep_out *o, double x, double y, const char *anchor,
                     const char *cls, const char *s)
{
    rep_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" class=\"%s\">", x, y,
               anchor, cls);
    rep_put(o, s, REP_HTML);
    rep_puts(o, "</text>\n");
}

/* A bar with its tooltip (tip is plain text, escaped here). */
static void svg_bar(rep_out *o, const char *cls, double x, double y, double w,
                    double h, const char *tip)
{
    rep_printf(o, "<rect class=\"bar %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                  "height=\"%.1f\"><title>",
               cls, x, y, w < 0 ? 0 : w, h < 0 ? 0 : h);
    rep_put(o, tip, REP_HTML);
    rep_puts(o, "</title></rect>\n");
}

void rep_svg_request_sizes(rep_out *o, const json_t *charts)
{
    const json_t *rs = rep_obj(charts, "request_sizes");
    const json_t *bins = rep_arr(rs, "bins");
    const json_t *dir[2] = {rep_arr(rs, "read"), rep_arr(rs, "write")};
    size_t n = json_array_size(bins);
    double max = 0;
    for (int d = 0; d < 2; d++)
        for (size_t i = 0; i < n; i++)
            max = ios_libm()->fmax(max, rep_at_num(dir[d], i));
    const double x0 = 60, y0 = 30, pw = CW - 80, ph = 170;
    svg_open(o, "request-sizes", 250, "Requests per size bin, read and write");
    svg_text(o, x0, 16, "start", "legend", "requests per size (log scale):");
    rep_printf(o, "<rect class=\"key read\" x=\"%.1f\" y=\"7\" width=\"10\" height=\"10\"/>\n",
               x0 + 230);
    svg_text(o, x0 + 244, 16, "start", "legend", "read");
    rep_printf(o, "<rect class=\"key write\" x=\"%.1f\" y=\"7\" width=\"10\" height=\"10\"/>\n",
               x0 + 290);
    svg_text(o, x0 + 304, 16, "start", "legend", "write");
    rep_printf(o, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0,
               y0 + ph, x0 + pw, y0 + ph);
    double gw = n ? pw / (double)n : pw, bw = gw * 0.38;
    char cnt[32], tip[160];
    for (size_t i = 0; i < n; i++) {
        const json_t *b = json_array_get(bins, i);
        const char *bin = json_is_string(b) ? json_string_value(b) : "?";
        for (int d = 0; d < 2; d++) {
            double v = rep_at_num(dir[d], i);
            const struct ios_libm *m = ios_libm();
            double h = max > 0 && v > 0 ? ph * m->log10(1 + v) / m->log10(1 + max)
                                        : 0;
            snprintf(tip, sizeof tip, "%s, %s bytes: %s requests", d ? "write" : "read", bin,
                     ios_fmt_doc_count(cnt, sizeof cnt, v));
            svg_bar(o, d ? "write" : "read", x0 + gw * (double)i + gw * 0.1 + bw * d,
                    y0 + ph - h, bw, h, tip);
        }
        svg_text(o, x0 + gw * ((double)i + 0.5), y0 + ph + 16, "middle", "tick", bin);
    }
    ios_fmt_doc_count(cnt, sizeof cnt, max);
    svg_text(o, x0 - 6, y0 + 4, "end", "tick", cnt);
    svg_text(o, x0 - 6, y0 + ph, "end", "tick", "0");
    svg_text(o, x0 + pw / 2, y0 + ph + 38, "middle", "tick", "request size (bytes)");
    rep_puts(o, "</svg>\n");
}

/* what: "bytes" or "time" */
void rep_svg_ranks(rep_out *o, const json_t *charts, const char *what)
{
    const json_t *rk = rep_obj(charts, "ranks");
    const json_t *ranks = rep_arr(rk, "rank");
    const json_t *vals = rep_arr(rk, what);
    int is_bytes = strcmp(what, "bytes") == 0;
    size_t n = json_array_size(vals);
    double max = 0;
    for (size_t i = 0; i < n; i++)
        max = ios_libm()->fmax(max, rep_at_num(vals, i));
    const double x0 = 80, y0 = 12, pw = CW - 100, ph = 120;
    svg_open(o, is_bytes ? "rank-bytes" : "rank-time", 170,
             is_bytes ? "Bytes moved per rank" : "I/O time per rank");
    rep_printf(o, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0,
               y0 + ph, x0 + pw, y0 + ph);
    double slot = n ? pw / (double)n : pw;
    int labels = n <= 64;
    size_t every = n <= 16 ? 1 : n <= 32 ? 2 : 4;
    char v1[48], tip[120];
    for (size_t i = 0; i < n; i++) {
        double v = rep_at_num(vals, i);
        double r = rep_at_num(ranks, i);
        double h = max > 0 ? ph * v / max : 0;
        if (is_bytes)
            ios_fmt_doc_bytes(v1, sizeof v1, v);
        else
            ios_fmt_doc_secs(v1, sizeof v1, v);
        snprintf(tip, sizeof tip, "rank %.0f: %s", r, v1);
        svg_bar(o, is_bytes ? "rbytes" : "rtime", x0 + slot * (double)i + (labels ? slot * 0.1 : 0),
                y0 + ph - h, labels ? slot * 0.8 : slot, h, tip);
        if (labels && i % every == 0) {
            snprintf(tip, sizeof tip, "%.0f", r);
            svg_text(o, x0 + slot * ((double)i + 0.5), y0 + ph + 14, "middle", "tick", tip);
        }
    }
    if (is_bytes)
        ios_fmt_doc_bytes(v1, sizeof v1, max);
    else
        ios_fmt_doc_secs(v1, sizeof v1, max);
    svg_text(o, x0 - 6, y0 + 8, "end", "tick", v1);
    svg_text(o, x0 - 6, y0 + ph, "end", "tick", "0");
    snprintf(tip, sizeof tip, "%s per rank (%zu ranks%s)", is_bytes ? "bytes" : "I/O time", n,
             rep_bool(rk, "truncated", 0) ? ", the busiest shown" : "");
    svg_text(o, x0 + pw / 2, y0 + ph + 34, "middle", "tick", tip);
    rep_puts(o, "</svg>\n");
}

void rep_svg_scores(rep_out *o, const json_t *detection)
{
    const json_t *pats = rep_arr(detection, "patterns");
    size_t n = json_array_size(pats);
    const double x0 = 250, y0 = 10, pw = CW - 360, row = 26;
    double h = y0 + row * (double)n + 30;
    svg_open(o, "scores", h, "Pattern scores against their thresholds");
    size_t i;
    const json_t *p;
    json_array_foreach(pats, i, p) {
        double s = 0, t = 0;
        rep_num(p, "score", &s);
        rep_num(p, "threshold", &t);
        s = ios_libm()->fmin(ios_libm()->fmax(s, 0), 1);
        t = ios_libm()->fmin(ios_libm()->fmax(t, 0), 1);
        int hit = rep_bool(p, "detected", 0);
        double y = y0 + row * (double)i;
        char a[32], b[32], tip[256];
        ios_fmt_doc_score(a, sizeof a, s);
        ios_fmt_doc_score(b, sizeof b, t);
        svg_text(o, x0 - 8, y + 15, "end", "label", rep_str(p, "name"));
        rep_printf(o, "<rect class=\"track\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"16\"/>\n",
                   x0, y + 3, pw);
        snprintf(tip, sizeof tip, "score %s, threshold %s%s", a, b, hit ? ", detected" : "");
        svg_bar(o, hit ? "hit" : "miss", x0, y + 3, pw * s, 16, tip);
        rep_printf(o, "<line class=\"thr\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
                   x0 + pw * t, y, x0 + pw * t, y + 22);
        snprintf(tip, sizeof tip, "%s%s", a, hit ? " detected" : "");
        svg_text(o, x0 + pw + 8, y + 15, "start", hit ? "value hit" : "value", tip);
    }
    double yl = y0 + row * (double)n + 16;
    rep_printf(o, "<line class=\"thr\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0,
               yl - 10, x0, yl + 2);
    svg_text(o, x0 + 6, yl, "start", "legend", "threshold of each pattern model; score 0 to 1");
    rep_puts(o, "</svg>\n");
}

void rep_svg_shap(rep_out *o, const json_t *pattern)
{
    const json_t *shap = rep_arr(pattern, "shap");
    size_t n = json_array_size(shap);
    const double x0 = 300, pw = CW - 320, row = 22, y0 = 8;
    double max = 0;
    for (size_t i = 0; i < n; i++) {
        double c = 0;
        rep_num(json_array_get(shap, i), "contribution", &c);
        max = ios_libm()->fmax(max, fabs(c));
    }
    const char *id = rep_str(pattern, "id");
    char name[96];
    /* the chart name keeps only identifier characters of the id */
    snprintf(name, sizeof name, "shap-%s", id ? id : "pattern");
    for (char *c = name; *c; c++)
        if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789_-", *c))
            *c = '_';
    rep_out label = {0};
    rep_printf(&label, "SHAP contributions for %s", rep_str(pattern, "name") ? rep_str(pattern, "name") : "n/a");
    svg_open(o, name, y0 + row * (double)n + 30, label.p ? label.p : "");
    if (label.oom)
        o->oom = 1;
    rep_out_free(&label);
    double mid = x0 + pw / 2;
    size_t i;
    const json_t *s;
    json_array_foreach(shap, i, s) {
        double c = 0, v = 0;
        rep_num(s, "contribution", &c);
        int has_v = rep_num(s, "value", &v);
        double y = y0 + row * (double)i;
        double w = max > 0 ? (pw / 2 - 44) * fabs(c) / max : 0;
        char a[32], b[32];
        rep_out t = {0};
        rep_printf(&t, "%s = %s", rep_str(s, "feature") ? rep_str(s, "feature") : "n/a",
                   has_v ? ios_fmt_doc_num(a, sizeof a, v) : "n/a");
        svg_text(o, x0 - 8, y + 14, "end", "label", t.p);
        t.len = 0;
        rep_printf(&t, "contribution %s", ios_fmt_doc_num(b, sizeof b, c));
        svg_bar(o, c >= 0 ? "pos" : "neg", c >= 0 ? mid : mid - w, y + 3, w, 14, t.p);
        svg_text(o, c >= 0 ? mid + w + 4 : mid - w - 4, y + 14, c >= 0 ? "start" : "end",
                 "value", b);
        if (t.oom)
            o->oom = 1;
        rep_out_free(&t);
    }
    double yb = y0 + row * (double)n;
    rep_printf(o, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", mid,
               y0, mid, yb);
    svg_text(o, mid, yb + 16, "middle", "legend",
             "left: towards healthy, right: towards the pattern (log-odds)");
    rep_puts(o, "</svg>\n");
}
