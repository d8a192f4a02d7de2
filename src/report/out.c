/*
 * out.c - rep_out, the growable text buffer every view appends to.
 *
 * Appends never fail loudly: the first allocation failure sets o->oom and
 * later appends do nothing, so a view writes everything and the caller
 * checks oom once (iosage_report_render turns it into IOSAGE_E_NOMEM).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

/* Make room for n more bytes plus a NUL; 0 on success, -1 on failure. */
static int reserve(rep_out *o, size_t n)
{
    if (o->oom)
        return -1;
    if (n + 1 <= o->cap - o->len)
        return 0;
    if (n > SIZE_MAX / 4 - o->len) {
        o->oom = 1;
        return -1;
    }
    size_t cap = o->cap ? o->cap : 1024;
    while (cap - o->len < n + 1)
        cap *= 2;
    char *p = realloc(o->p, cap);
    if (!p) {
        o->oom = 1;
        return -1;
    }
    o->p = p;
    o->cap = cap;
    return 0;
}

/* Append n bytes of s, keeping the buffer NUL-terminated. */
void rep_putn(rep_out *o, const char *s, size_t n)
{
    if (n == 0 || reserve(o, n) != 0)
        return;
    memcpy(o->p + o->len, s, n);
    o->len += n;
    o->p[o->len] = '\0';
}

void rep_puts(rep_out *o, const char *s)
{
    rep_putn(o, s, strlen(s));
}

void rep_putc(rep_out *o, char c)
{
    rep_putn(o, &c, 1);
}

/* Append printf-style text (the format is ours, never the document's). */
void rep_printf(rep_out *o, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        rep_putn(o, small, (size_t)n);
        return;
    }
    if (reserve(o, (size_t)n) != 0)
        return;
    va_start(ap, fmt);
    vsnprintf(o->p + o->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    o->len += (size_t)n;
}

/* Append s times times (nothing when times <= 0). */
void rep_repeat(rep_out *o, const char *s, int times)
{
    for (int i = 0; i < times; i++)
        rep_puts(o, s);
}

/* Release the bytes; the buffer is empty (and usable) afterwards. */
void rep_out_free(rep_out *o)
{
    free(o->p);
    memset(o, 0, sizeof *o);
}
