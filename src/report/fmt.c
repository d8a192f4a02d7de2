/*
 * fmt.c - numbers for people: binary byte units, seconds, shares, counts.
 *
 * Every function writes into the caller's buffer and returns it. The
 * formats are fixed (no locale grouping; snprintf in the C locale), so the
 * same document always gives the same text.
 */
#include <math.h>
#include <stdio.h>

#include "report/internal.h"

/* 1023 -> "1023 B", 1536 -> "1.5 KiB", 3.2e9 -> "3.0 GiB" */
char *rep_fmt_bytes(char *buf, size_t n, double bytes)
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
char *rep_fmt_secs(char *buf, size_t n, double secs)
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
                 floor(fmod(a, 3600.0) / 60.0));
    return buf;
}

/* A share 0..1 as a percentage: 0.253 -> "25%", 0.0042 -> "0.4%". */
char *rep_fmt_pct(char *buf, size_t n, double share)
{
    double p = share * 100.0;
    if (p != 0.0 && fabs(p) < 10.0)
        snprintf(buf, n, "%.1f%%", p);
    else
        snprintf(buf, n, "%.0f%%", p);
    return buf;
}

/* An integer count with "," every three digits: 1234567 -> "1,234,567".
 * Non-integral or huge values fall back to rep_fmt_num. */
char *rep_fmt_count(char *buf, size_t n, double v)
{
    if (v != floor(v) || fabs(v) >= 1e18)
        return rep_fmt_num(buf, n, v);
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
char *rep_fmt_num(char *buf, size_t n, double v)
{
    if (v == 0.0)
        v = 0.0; /* drop the sign of -0 */
    snprintf(buf, n, "%.4g", v);
    if (buf[0] == '-' && buf[1] == '0' && buf[2] == '\0')
        snprintf(buf, n, "0");
    return buf;
}

/* A model score or threshold (0..1): always two decimals, "0.99". */
char *rep_fmt_score(char *buf, size_t n, double v)
{
    if (v == 0.0)
        v = 0.0;
    snprintf(buf, n, "%.2f", v);
    return buf;
}
