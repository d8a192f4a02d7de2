/*
 * json.c - small helpers for building JSON documents with jansson (the
 * report document, batch rows, replies): strings that are always valid
 * UTF-8, reals that are always finite, and one-line error-checked sets.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ios_json.h"
#include "ios_text.h"

json_t *ios_json_str(const char *s)
{
    if (!s)
        return json_null();
    size_t n = strlen(s);
    json_t *j = json_stringn(s, n);
    if (j)
        return j;
    /* not UTF-8: replace each bad byte by U+FFFD */
    char *buf = malloc(3 * n + 1);
    if (!buf)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        json_t *one = NULL;
        size_t k = 1;
        if (c >= 0x80) { /* try the longest valid sequence here */
            for (k = 4; k >= 2; k--)
                if (i + k <= n && (one = json_stringn(s + i, k)) != NULL)
                    break;
        }
        if (one) {
            memcpy(buf + o, s + i, k);
            o += k;
            i += k - 1;
            json_decref(one);
        } else if (c < 0x80) {
            buf[o++] = (char)c;
        } else {
            memcpy(buf + o, "\xEF\xBF\xBD", 3);
            o += 3;
        }
    }
    j = json_stringn(buf, o);
    free(buf);
    return j;
}

json_t *ios_json_real(double v)
{
    return json_real(isfinite(v) ? v : 0.0);
}

int ios_json_set(json_t *obj, const char *key, json_t *v)
{
    if (!v)
        return -1;
    return json_object_set_new(obj, key, v) != 0 ? -1 : 0;
}

/* A JSON string in ASCII: control characters and every non-ASCII character
 * as \uXXXX escapes (surrogate pairs above U+FFFF); bytes that are not
 * valid UTF-8 (names are bytes from the log) become U+FFFD. */
void ios_json_ascii(ios_text *b, const char *s)
{
    ios_text_put(b, "\"", 1);
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    const unsigned char *end = p + strlen((const char *)p);
    for (; *p; p++) {
        uint32_t cp;
        size_t n;
        if (*p == '"' || *p == '\\') {
            char e[2] = {'\\', (char)*p};
            ios_text_put(b, e, 2);
        } else if (*p == '\n' || *p == '\t' || *p == '\r') {
            char e[2] = {'\\', *p == '\n' ? 'n' : *p == '\t' ? 't' : 'r'};
            ios_text_put(b, e, 2);
        } else if (*p < 0x20 || *p == 0x7f) {
            ios_text_printf(b, "\\u%04x", *p);
        } else if (*p < 0x80) {
            ios_text_put(b, (const char *)p, 1);
        } else if ((n = ios_utf8_seq(p, (size_t)(end - p), &cp)) == 0) {
            ios_text_put(b, "\\ufffd", 6);
        } else {
            if (cp >= 0x10000)
                ios_text_printf(b, "\\u%04x\\u%04x",
                                0xd800 + ((cp - 0x10000) >> 10),
                                0xdc00 + ((cp - 0x10000) & 0x3ff));
            else
                ios_text_printf(b, "\\u%04x", cp);
            p += n - 1;
        }
    }
    ios_text_put(b, "\"", 1);
}
