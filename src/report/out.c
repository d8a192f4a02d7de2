/*
 * out.c - rep_out, the growable text buffer every view appends to: the
 * library's ios_text (src/darshan/text.c) under the names the views use.
 *
 * Appends never fail loudly: the first allocation failure sets o->oom and
 * later appends do nothing, so a view writes everything and the caller
 * checks oom once (iosage_report_render turns it into IOSAGE_E_NOMEM).
 */
#include <stdarg.h>
#include <string.h>

#include "internal.h"

/* Append n bytes of s, keeping the buffer NUL-terminated. */
void rep_putn(rep_out *o, const char *s, size_t n)
{
    ios_text_put(o, s, n);
}

void rep_puts(rep_out *o, const char *s)
{
    ios_text_put(o, s, strlen(s));
}

void rep_putc(rep_out *o, char c)
{
    ios_text_put(o, &c, 1);
}

/* Append printf-style text (the format is ours, never the document's). */
void rep_printf(rep_out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ios_text_vprintf(o, fmt, ap);
    va_end(ap);
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
    ios_text_free(o);
}
