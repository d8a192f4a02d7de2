/*
 * json.c - small helpers for building JSON documents with jansson (the
 * report document, batch rows, replies): strings that are always valid
 * UTF-8, reals that are always finite, and one-line error-checked sets.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
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

/* json_dump_callback's sink: append to the ios_text; -1 once it failed. */
static int dump_chunk(const char *buf, size_t size, void *data)
{
    ios_text *t = data;
    ios_text_put(t, buf, size);
    return t->oom ? -1 : 0;
}

char *ios_json_dumps(const json_t *v, size_t flags)
{
    ios_text t = {0};
    int rc = json_dump_callback(v, dump_chunk, &t, flags);
    if (rc != 0 || t.oom || !t.p) { /* the failure stays in t.oom */
        free(t.p);
        return NULL;
    }
    return t.p;
}

/* Set while ios_json_loadb runs in this thread when an allocation of
 * jansson's failed. */
static _Thread_local int alloc_failed;

static void *noting_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        alloc_failed = 1;
    return p;
}

json_t *ios_json_loadb(const char *buf, size_t len, size_t flags,
                       json_error_t *error)
{
    /* the same malloc and free underneath: objects made before or after
     * the switch are released alike */
    json_set_alloc_funcs(noting_malloc, free);
    alloc_failed = 0;
    json_t *v = json_loadb(buf, len, flags, error);
    if (!alloc_failed)
        return v;
    json_decref(v);
    if (error) {
        error->line = -1;
        snprintf(error->text, sizeof error->text, "%s", "out of memory");
    }
    return NULL;
}
