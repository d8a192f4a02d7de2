/*
 * src/report/site_svg.c - the archive dashboard's charts as inline SVG (no
 * script, no external asset): grouped bars and lines over weeks, with a y
 * axis of round numbers, a legend, and a <title> on every bar and point so
 * that hovering shows the exact value. Text goes through rep_put(REP_HTML),
 * as in the report's own charts (svg.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "ios_math.h"

#define W 760.0
#define H 260.0
#define LEFT 60.0
#define RIGHT 12.0
#define TOP 34.0
#define BOTTOM 48.0
#define MAX_X_LABELS 12
#define PLOT_H (H - TOP - BOTTOM) /* height of the plot area */

/* s escaped for HTML text; NULL is empty. */
void site_html(rep_out *out, const char *s)
{
    rep_put(out, s ? s : "", REP_HTML);
}

/* The smallest 1, 2 or 5 times a power of ten at or above v (v > 0). */
static double round_up(double v)
{
    double p = ios_libm()->pow(10, floor(ios_libm()->log10(v)));
    double steps[] = {1, 2, 5, 10};
    for (int i = 0; i < 4; i++)
        if (steps[i] * p >= v)
            return steps[i] * p;
    return 10 * p;
}

/* The largest value of the series (at least a small positive number). */
static double max_value(size_t n, const struct site_series *s, int n_series)
{
    double m = 0;
    for (int k = 0; k < n_series; k++)
        for (size_t i = 0; i < n; i++)
            if (isfinite(s[k].v[i]) && s[k].v[i] > m)
                m = s[k].v[i];
    return m > 0 ? round_up(m) : 1;
}

/* Width of one legend entry: swatch, name, gap. */
static double legend_width(const char *name)
{
    return 16 + 7.0 * (double)strlen(name) + 12;
}

/* Rows of the legend under the chart, entries wrapped at the width. */
static int legend_rows(const struct site_series *s, int n_series)
{
    int rows = 1;
    double x = LEFT;
    for (int k = 0; k < n_series; k++) {
        if (x > LEFT && x + legend_width(s[k].name) > W - RIGHT) {
            rows++;
            x = LEFT;
        }
        x += legend_width(s[k].name);
    }
    return rows;
}

/* The legend, in rows under the week labels. */
static void legend(rep_out *out, const struct site_series *s, int n_series)
{
    double x = LEFT, y = H - 6;
    for (int k = 0; k < n_series; k++) {
        if (x > LEFT && x + legend_width(s[k].name) > W - RIGHT) {
            y += 18;
            x = LEFT;
        }
        rep_printf(out, "<rect x=\"%.0f\" y=\"%.0f\" width=\"10\" "
                   "height=\"10\" fill=\"%s\"/><text x=\"%.0f\" "
                   "y=\"%.0f\" class=\"ax\">", x, y - 9, s[k].color,
                   x + 14, y);
        site_html(out, s[k].name);
        rep_puts(out, "</text>");
        x += legend_width(s[k].name);
    }
}

/* Width of one label's group of bars (or step between points). */
static double group_width(size_t n)
{
    return n ? (W - LEFT - RIGHT) / (double)n : 0;
}

/* The frame: title, grid lines with their values, week labels, legend.
 * Returns the value at the top of the y axis. */
static double frame(rep_out *out, const char *title, const char *unit,
                    const char *const *labels, size_t n,
                    const struct site_series *s, int n_series)
{
    double ymax = max_value(n, s, n_series);
    double height = H + 18.0 * (legend_rows(s, n_series) - 1);
    rep_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
               "viewBox=\"0 0 %.0f %.0f\" role=\"img\" class=\"chart\">"
               "<text x=\"%.0f\" y=\"18\" class=\"ct\">", W, height,
               LEFT);
    site_html(out, title);
    rep_puts(out, "</text>");
    double ph = PLOT_H;
    for (int g = 0; g <= 4; g++) {
        double y = TOP + ph - ph * g / 4;
        double v = ymax * g / 4;
        rep_printf(out, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" "
                   "y2=\"%.1f\" class=\"grid\"/><text x=\"%.0f\" "
                   "y=\"%.1f\" class=\"ax\" text-anchor=\"end\">",
                   LEFT, W - RIGHT, y, y, LEFT - 6, y + 4);
        /* whole numbers from 1000 on: "1500", not "1.5e+03" */
        rep_printf(out, v >= 1000 ? "%.0f</text>" : "%.3g</text>", v);
    }
    rep_printf(out, "<text x=\"12\" y=\"%.0f\" class=\"ax\" "
               "transform=\"rotate(-90 12 %.0f)\" text-anchor=\"middle\">",
               TOP + ph / 2, TOP + ph / 2);
    site_html(out, unit);
    rep_puts(out, "</text>");
    double gw = group_width(n);
    size_t every = n > MAX_X_LABELS ? (n + MAX_X_LABELS - 1) / MAX_X_LABELS : 1;
    for (size_t i = 0; i < n; i += every) {
        rep_printf(out, "<text x=\"%.1f\" y=\"%.0f\" class=\"ax\" "
                   "text-anchor=\"middle\">", LEFT + gw * ((double)i + 0.5),
                   H - BOTTOM + 16);
        site_html(out, labels[i]);
        rep_puts(out, "</text>");
    }
    legend(out, s, n_series);
    return ymax;
}

/* "<title>label: name value unit</title>" */
static void tip(rep_out *out, const char *label, const char *name, double v,
                const char *unit)
{
    rep_puts(out, "<title>");
    site_html(out, label);
    rep_puts(out, ": ");
    site_html(out, name);
    rep_printf(out, " %.4g ", v);
    site_html(out, unit);
    rep_puts(out, "</title>");
}

void site_svg_bars(rep_out *out, const char *title, const char *unit,
                   const char *const *labels, size_t n,
                   const struct site_series *s, int n_series)
{
    double ymax = frame(out, title, unit, labels, n, s, n_series);
    double ph = PLOT_H, gw = group_width(n);
    double bw = gw * 0.8 / n_series;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < n_series; k++) {
            double v = isfinite(s[k].v[i]) ? s[k].v[i] : 0;
            double h = ph * v / ymax;
            rep_printf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                       "height=\"%.1f\" fill=\"%s\">",
                       LEFT + gw * (double)i + gw * 0.1 + bw * k,
                       TOP + ph - h, bw, h, s[k].color);
            tip(out, labels[i], s[k].name, v, unit);
            rep_puts(out, "</rect>");
        }
    rep_puts(out, "</svg>");
}

void site_svg_lines(rep_out *out, const char *title, const char *unit,
                    const char *const *labels, size_t n,
                    const struct site_series *s, int n_series)
{
    double ymax = frame(out, title, unit, labels, n, s, n_series);
    double ph = PLOT_H, gw = group_width(n);
    for (int k = 0; k < n_series; k++) {
        rep_printf(out, "<polyline fill=\"none\" stroke=\"%s\" "
                   "stroke-width=\"2\" points=\"", s[k].color);
        for (size_t i = 0; i < n; i++)
            rep_printf(out, "%.1f,%.1f ", LEFT + gw * ((double)i + 0.5),
                       TOP + ph - ph * s[k].v[i] / ymax);
        rep_puts(out, "\"/>");
        for (size_t i = 0; i < n; i++) {
            rep_printf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
                       "fill=\"%s\">", LEFT + gw * ((double)i + 0.5),
                       TOP + ph - ph * s[k].v[i] / ymax, s[k].color);
            tip(out, labels[i], s[k].name, s[k].v[i], unit);
            rep_puts(out, "</circle>");
        }
    }
    rep_puts(out, "</svg>");
}
