/*
 * src/patterns/util.c - formatting and materiality helpers for the pattern
 * files (see internal.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "patterns/internal.h"

const char *ios_fmt_count(char *buf, size_t size, double n)
{
    if (!(n >= 1e4))
        snprintf(buf, size, "%.0f", n);
    else if (n < 1e6)
        snprintf(buf, size, "%.1f k", n / 1e3);
    else if (n < 1e9)
        snprintf(buf, size, "%.1f M", n / 1e6);
    else
        snprintf(buf, size, "%.1f G", n / 1e9);
    return buf;
}

const char *ios_fmt_bytes(char *buf, size_t size, double b)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (b >= 1024.0 && u < 5) {
        b /= 1024.0;
        u++;
    }
    snprintf(buf, size, u == 0 ? "%.0f %s" : "%.1f %s", b, unit[u]);
    return buf;
}

const char *ios_fmt_pct(char *buf, size_t size, double share)
{
    double p = 100.0 * share;
    if (p > 0.0 && p < 0.5)
        snprintf(buf, size, "<1%%");
    else if (p < 9.95)
        snprintf(buf, size, "%.1f%%", p);
    else
        snprintf(buf, size, "%.0f%%", p);
    return buf;
}

const char *ios_fmt_secs(char *buf, size_t size, double s)
{
    if (s < 1e-3 && s > 0.0)
        snprintf(buf, size, "%.0f us", s * 1e6);
    else if (s < 1.0)
        snprintf(buf, size, "%.1f ms", s * 1e3);
    else if (s < 3600.0)
        snprintf(buf, size, "%.2f s", s);
    else
        snprintf(buf, size, "%.1f h", s / 3600.0);
    return buf;
}

const char *ios_file_label(char *buf, size_t size,
                           const struct iosage_file_row *row)
{
    const char *base = strrchr(row->path, '/');
    base = base && base[1] ? base + 1 : row->path;
    if (row->flags & IOSAGE_FILE_SHARED)
        snprintf(buf, size, "%.120s (shared by %lld ranks)", base,
                 (long long)row->ranks);
    else if (row->ranks <= 1)
        snprintf(buf, size, "%.120s (one rank)", base);
    else
        snprintf(buf, size, "%.120s (%lld ranks, data from one)", base,
                 (long long)row->ranks);
    return buf;
}

double ios_material_share(const iosage_file_table *t, double time, int64_t ops)
{
    if (t->job.io_time > 0.0)
        return ios_share(time, t->job.io_time);
    double all = 0.0;
    for (size_t i = 0; i < t->n_rows; i++)
        if ((t->rows[i].flags & IOSAGE_FILE_DATA) && ios_row_top(&t->rows[i]))
            all += (double)t->rows[i].reads + (double)t->rows[i].writes;
    return ios_share((double)ops, all);
}

void ios_ev_add(struct iosage_evidence *ev, const char *fmt, ...)
{
    if (ev->n_lines >= IOSAGE_EVIDENCE_LINES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ev->line[ev->n_lines++], IOSAGE_TEXT_MAX, fmt, ap);
    va_end(ap);
}

void ios_label_rule(const iosage_log *log, int p, struct iosage_rule_verdict *v)
{
    memset(v, 0, sizeof *v);
    iosage_error err;
    iosage_status st = iosage_label_criterion(log, p, &v->detected, &v->value,
                                              v->reason, sizeof v->reason, &err);
    if (st != IOSAGE_OK) {
        v->detected = 0;
        snprintf(v->reason, sizeof v->reason, "not evaluated: %.200s", err.msg);
    }
}
