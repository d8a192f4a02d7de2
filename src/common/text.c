/*
 * text.c - the text the library writes out: UTF-8 checks and a growable
 * string.
 *
 * Names and the executable line are bytes from the log, config files and
 * LLM replies are anybody's bytes; the JSON, CSV and text writers (detect,
 * batch, rules, reports, LLM requests) decode them with ios_utf8_seq.
 * ios_text appends never fail loudly: the first failure sets oom and later
 * appends do nothing, so a caller writes everything and checks oom once.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ios_text.h"

size_t ios_utf8_seq(const unsigned char *p, size_t n, uint32_t *cp)
{
    size_t len = p[0] < 0x80 ? 1 : p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3
                 : p[0] >= 0xc2 ? 2 : 0;
    if (len == 1)
        *cp = p[0];
    if (len <= 1)
        return len;
    if (p[0] > 0xf4 || len > n)
        return 0;
    uint32_t v = p[0] & (0x7fu >> len);
    for (size_t k = 1; k < len; k++) {
        if ((p[k] & 0xc0) != 0x80)
            return 0;
        v = (v << 6) | (p[k] & 0x3fu);
    }
    /* no overlong forms, nothing above U+10FFFF, no surrogates */
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < least[len] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return len;
}

char *ios_utf8_fixn(const char *s, size_t n, size_t *out_len)
{
    const unsigned char *p = (const unsigned char *)s;
    char *out = malloc(3 * n + 1); /* each bad byte grows to 3 */
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = ios_utf8_seq(p + i, n - i, &cp);
        if (len == 0) {
            memcpy(out + o, "\xef\xbf\xbd", 3);
            o += 3;
            i++;
        } else {
            memcpy(out + o, p + i, len);
            o += len;
            i += len;
        }
    }
    out[o] = '\0';
    if (out_len)
        *out_len = o;
    return out;
}

char *ios_utf8_fix(const char *s)
{
    return ios_utf8_fixn(s ? s : "", s ? strlen(s) : 0, NULL);
}

/* Make room for n more bytes plus a NUL; 0 on success, -1 (oom set) on
 * failure. */
static int reserve(ios_text *t, size_t n)
{
    if (t->oom)
        return -1;
    if (n + 1 <= t->cap - t->len)
        return 0;
    if (n > SIZE_MAX / 4 - t->len) {
        t->oom = 1;
        return -1;
    }
    size_t cap = t->cap ? t->cap : 1024;
    while (cap - t->len < n + 1)
        cap *= 2;
    char *p = t->max == 0 || cap <= t->max ? realloc(t->p, cap) : NULL;
    if (!p) {
        t->oom = 1;
        return -1;
    }
    t->p = p;
    t->cap = cap;
    return 0;
}

void ios_text_put(ios_text *t, const char *s, size_t n)
{
    if (n == 0 || reserve(t, n) != 0)
        return;
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = '\0';
}

void ios_text_vprintf(ios_text *t, const char *fmt, va_list ap)
{
    char small[256];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n >= 0 && (size_t)n < sizeof small)
        ios_text_put(t, small, (size_t)n);
    else if (n >= 0 && reserve(t, (size_t)n) == 0) {
        vsnprintf(t->p + t->len, (size_t)n + 1, fmt, again);
        t->len += (size_t)n;
    }
    va_end(again);
}

void ios_text_printf(ios_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ios_text_vprintf(t, fmt, ap);
    va_end(ap);
}

void ios_text_free(ios_text *t)
{
    free(t->p);
    *t = (ios_text){.max = t->max};
}

int ios_split_tabs(char *line, char **cols, int max)
{
    int n = 0;
    while (n < max) {
        cols[n++] = line;
        char *tab = strchr(line, '\t');
        if (!tab || n == max)
            break;
        *tab = '\0';
        line = tab + 1;
    }
    return n;
}

/* 1 when the UTF-8 sequence of len bytes (cp) is written as it is: valid
 * (len > 0), and not a control character, DEL or C1 control. */
static int plain(size_t len, uint32_t cp)
{
    return len > 0 && cp >= 0x20 && cp != 0x7f && !(cp >= 0x80 && cp <= 0x9f);
}

void ios_fput_escaped(FILE *out, const char *s, int double_quotes)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = s ? strlen(s) : 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp = 0;
        size_t len = ios_utf8_seq(p + i, n - i, &cp);
        if (!plain(len, cp)) {
            fprintf(out, "\\x%02x", p[i]);
            i++;
            continue;
        }
        if (double_quotes && p[i] == '"')
            putc('"', out);
        fwrite(p + i, 1, len, out);
        i += len;
    }
}
