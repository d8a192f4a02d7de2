/*
 * clean.c - document strings made safe for each view.
 *
 * Two steps. rep_clean turns arbitrary bytes into printable UTF-8: a byte
 * that does not start a valid UTF-8 sequence (overlong forms, surrogates and
 * code points past U+10FFFF are invalid) becomes the four characters \xNN;
 * a line feed, carriage return or tab becomes \n, \r or \t and any other
 * control character (C0, DEL, C1, so ESC too) becomes \xNN; the Unicode
 * bidirectional controls and line/paragraph separators (U+200E, U+200F,
 * U+2028..U+202E, U+2066..U+2069) become \uNNNN. Nothing a log holds can then
 * move the terminal cursor, change colours or reorder the text around it.
 * rep_put then escapes the cleaned text for one view (Markdown or HTML).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "internal.h"

/* A code point that must not reach the output as itself. */
static int is_unsafe(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x200E ||
           cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

void rep_clean(rep_out *o, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    size_t i = 0;
    while (i < n) {
        uint32_t cp;
        size_t len = ios_utf8_seq(p + i, n - i, &cp);
        if (len == 0) {
            rep_printf(o, "\\x%02x", p[i]);
            i++;
        } else if (cp == '\n' || cp == '\r' || cp == '\t') {
            rep_puts(o, cp == '\n' ? "\\n" : cp == '\r' ? "\\r" : "\\t");
            i += len;
        } else if (is_unsafe(cp)) {
            if (cp < 0x100)
                rep_printf(o, "\\x%02x", (unsigned)cp);
            else
                rep_printf(o, "\\u%04x", (unsigned)cp);
            i += len;
        } else {
            rep_putn(o, s + i, len);
            i += len;
        }
    }
}

size_t rep_width(const char *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            w++;
    return w;
}

/* Characters Markdown would read as markup anywhere in a line. */
static int md_special(char c)
{
    return c && strchr("\\`*_[]|~", c) != NULL;
}

/* Characters that start a block (heading, list, quote, rule) at the start
 * of a line, a list item or a table cell. */
static int md_block_start(char c)
{
    return c && strchr("#+-=", c) != NULL;
}

/* Escape cleaned text for Markdown: entities for < > & (so no raw HTML and
 * no autolink), a backslash before specials and pipes, and before a first
 * character (or a "1. " / "1) " list number) that would open a block. */
static void put_md(rep_out *o, const char *s)
{
    size_t digits = strspn(s, "0123456789");
    for (size_t i = 0; s[i]; i++) {
        char c = s[i];
        int escape = md_special(c) || (i == 0 && md_block_start(c)) ||
                     (digits > 0 && i == digits && (c == '.' || c == ')') &&
                      (s[i + 1] == ' ' || s[i + 1] == '\0'));
        if (c == '<')
            rep_puts(o, "&lt;");
        else if (c == '>')
            rep_puts(o, "&gt;");
        else if (c == '&')
            rep_puts(o, "&amp;");
        else if (escape) {
            rep_putc(o, '\\');
            rep_putc(o, c);
        } else {
            rep_putc(o, c);
        }
    }
}

/* Escape cleaned text for HTML text, attribute values and SVG text. */
static void put_html(rep_out *o, const char *s)
{
    for (size_t i = 0; s[i]; i++) {
        switch (s[i]) {
        case '&': rep_puts(o, "&amp;"); break;
        case '<': rep_puts(o, "&lt;"); break;
        case '>': rep_puts(o, "&gt;"); break;
        case '"': rep_puts(o, "&quot;"); break;
        case '\'': rep_puts(o, "&#39;"); break;
        default: rep_putc(o, s[i]);
        }
    }
}

void rep_put(rep_out *o, const char *s, enum rep_escape e)
{
    if (!s)
        s = "n/a";
    if (e == REP_PLAIN) {
        rep_clean(o, s);
        return;
    }
    rep_out tmp = {0};
    rep_clean(&tmp, s);
    if (tmp.oom) {
        o->oom = 1;
    } else if (tmp.len > 0) {
        if (e == REP_MD)
            put_md(o, tmp.p);
        else
            put_html(o, tmp.p);
    }
    rep_out_free(&tmp);
}

/* A new JSON string of s's n bytes, made valid UTF-8; NULL on failure. */
static json_t *utf8_string(const char *s, size_t n)
{
    size_t len = 0;
    char *fixed = ios_utf8_fixn(s, n, &len);
    if (!fixed)
        return NULL;
    json_t *v = json_stringn(fixed, len);
    free(fixed);
    return v;
}

json_t *rep_json_utf8(const json_t *v)
{
    if (json_is_string(v))
        return utf8_string(json_string_value(v), json_string_length(v));
    if (json_is_array(v)) {
        json_t *a = json_array();
        size_t i;
        const json_t *e;
        json_array_foreach(v, i, e) {
            if (!a || json_array_append_new(a, rep_json_utf8(e)) != 0) {
                json_decref(a);
                return NULL;
            }
        }
        return a;
    }
    if (json_is_object(v)) {
        json_t *obj = json_object();
        const char *key;
        json_t *e;
        json_object_foreach((json_t *)v, key, e) {
            char *k = ios_utf8_fix(key);
            int bad = !obj || !k || json_object_set_new(obj, k, rep_json_utf8(e));
            free(k);
            if (bad) {
                json_decref(obj);
                return NULL;
            }
        }
        return obj;
    }
    return json_deep_copy(v);
}
