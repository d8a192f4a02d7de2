/*
 * numfmt.c - numbers for people: binary byte units, seconds, shares, counts.
 *
 * Every function writes into the caller's buffer and returns it. The
 * formats are fixed (no locale grouping; snprintf in the C locale), so the
 * same input always gives the same text.
 *
 * Three families, one per kind of output, each kept byte for byte as it
 * was when the three copies were brought here (ios_numfmt.h says which
 * output uses which; merging them would change outputs):
 *   ios_fmt_doc_*    the report documents (text, md, html, json views)
 *   ios_fmt_*        evidence lines and reasons (patterns, rules, advise)
 *   ios_fmt_label_*  the labeler's TSV evidence (LABELING.md wording)
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "ios_numfmt.h"
#include "ios_math.h"

/* --- the report documents ------------------------------------------------ */

/* 1023 -> "1023 B", 1536 -> "1.5 KiB", 3.2e9 -> "3.0 GiB" */
char *ios_fmt_doc_bytes(char *buf, size_t n, double bytes)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = bytes;
    int u = 0;
    while (fabs(v) >= 1024.0 && u < 6) {
        v /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, n, "%.0f B", v);
    else
        snprintf(buf, n, "%.*f %s", fabs(v) < 10.0 ? 2 : 1, v, unit[u]);
    return buf;
}

/* 0.0000004 -> "0 s", 0.0042 -> "4.2 ms", 12.345 -> "12.3 s",
 * 4000 -> "1 h 06 min" */
char *ios_fmt_doc_secs(char *buf, size_t n, double secs)
{
    double a = fabs(secs);
    if (a == 0.0)
        snprintf(buf, n, "0 s");
    else if (a < 0.001)
        snprintf(buf, n, "%.0f us", secs * 1e6);
    else if (a < 1.0)
        snprintf(buf, n, "%.1f ms", secs * 1e3);
    else if (a < 100.0)
        snprintf(buf, n, "%.2f s", secs);
    else if (a < 3600.0)
        snprintf(buf, n, "%.0f s", secs);
    else
        snprintf(buf, n, "%s%.0f h %02.0f min", secs < 0 ? "-" : "", floor(a / 3600.0),
                 floor(ios_libm()->fmod(a, 3600.0) / 60.0));
    return buf;
}

/* A share 0..1 as a percentage: 0.253 -> "25%", 0.0042 -> "0.4%". */
char *ios_fmt_doc_pct(char *buf, size_t n, double share)
{
    double p = share * 100.0;
    if (p != 0.0 && fabs(p) < 10.0)
        snprintf(buf, n, "%.1f%%", p);
    else
        snprintf(buf, n, "%.0f%%", p);
    return buf;
}

/* An integer count with "," every three digits: 1234567 -> "1,234,567".
 * Non-integral or huge values fall back to ios_fmt_doc_num. */
char *ios_fmt_doc_count(char *buf, size_t n, double v)
{
    if (v != floor(v) || fabs(v) >= 1e18)
        return ios_fmt_doc_num(buf, n, v);
    char digits[32];
    snprintf(digits, sizeof digits, "%.0f", fabs(v));
    size_t len = 0, nd = 0;
    while (digits[nd])
        nd++;
    char tmp[48];
    if (v < 0)
        tmp[len++] = '-';
    for (size_t i = 0; i < nd; i++) {
        if (i > 0 && (nd - i) % 3 == 0)
            tmp[len++] = ',';
        tmp[len++] = digits[i];
    }
    tmp[len] = '\0';
    snprintf(buf, n, "%s", tmp);
    return buf;
}

/* A feature value or score: 4 significant digits, "-0" shown as "0". */
char *ios_fmt_doc_num(char *buf, size_t n, double v)
{
    if (v == 0.0)
        v = 0.0; /* drop the sign of -0 */
    snprintf(buf, n, "%.4g", v);
    if (buf[0] == '-' && buf[1] == '0' && buf[2] == '\0')
        snprintf(buf, n, "0");
    return buf;
}

/* A model score or threshold (0..1): always two decimals, "0.99". */
char *ios_fmt_doc_score(char *buf, size_t n, double v)
{
    if (v == 0.0)
        v = 0.0;
    snprintf(buf, n, "%.2f", v);
    return buf;
}

/* --- evidence lines and reasons ------------------------------------------ */

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

/* --- the labeler's evidence ----------------------------------------------- */

char *ios_fmt_label_count(char *buf, size_t size, double v)
{
    if (v >= 1e9)
        snprintf(buf, size, "%.3gG", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, size, "%.3gM", v / 1e6);
    else if (v >= 1e4)
        snprintf(buf, size, "%.3gk", v / 1e3);
    else
        snprintf(buf, size, "%.0f", v);
    return buf;
}

char *ios_fmt_label_bytes(char *buf, size_t size, double v)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, size, "%.0f B", v);
    else
        snprintf(buf, size, "%.3g %s", v, unit[u]);
    return buf;
}

char *ios_fmt_label_pct(char *buf, size_t size, double share)
{
    double v = 100.0 * share;
    if (v >= 9.95 || v == 0)
        snprintf(buf, size, "%.0f%%", v);
    else
        snprintf(buf, size, "%.2g%%", v);
    return buf;
}
