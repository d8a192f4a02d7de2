/*
 * doc.c - tolerant access to the report document.
 *
 * The views read the document through these helpers only. A field that is
 * missing or has the wrong type reads as NULL (or "not a number"), which the
 * views print as "n/a" or leave out: a hand-edited or older document still
 * renders, it never crashes a view.
 */
#include <stdio.h>

#include "internal.h"

const json_t *rep_obj(const json_t *o, const char *key)
{
    const json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;
    return json_is_object(v) ? v : NULL;
}

const json_t *rep_arr(const json_t *o, const char *key)
{
    const json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;
    return json_is_array(v) ? v : NULL;
}

const char *rep_str(const json_t *o, const char *key)
{
    const json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;
    return json_is_string(v) ? json_string_value(v) : NULL;
}

int rep_num(const json_t *o, const char *key, double *v)
{
    const json_t *x = json_is_object(o) ? json_object_get(o, key) : NULL;
    if (!json_is_number(x))
        return 0;
    *v = json_number_value(x);
    return 1;
}

int rep_bool(const json_t *o, const char *key, int dflt)
{
    const json_t *x = json_is_object(o) ? json_object_get(o, key) : NULL;
    return json_is_boolean(x) ? json_is_true(x) : dflt;
}

double rep_at_num(const json_t *a, size_t i)
{
    const json_t *x = json_array_get(a, i);
    return json_is_number(x) ? json_number_value(x) : 0.0;
}

/* The field as text through fmt, or "n/a". */
static char *field(char *buf, size_t n, const json_t *o, const char *key,
                   char *(*fmt)(char *, size_t, double))
{
    double v;
    if (!rep_num(o, key, &v)) {
        snprintf(buf, n, "n/a");
        return buf;
    }
    return fmt(buf, n, v);
}

char *rep_field_bytes(char *buf, size_t n, const json_t *o, const char *key)
{
    return field(buf, n, o, key, ios_fmt_doc_bytes);
}

char *rep_field_secs(char *buf, size_t n, const json_t *o, const char *key)
{
    return field(buf, n, o, key, ios_fmt_doc_secs);
}

char *rep_field_pct(char *buf, size_t n, const json_t *o, const char *key)
{
    return field(buf, n, o, key, ios_fmt_doc_pct);
}

char *rep_field_count(char *buf, size_t n, const json_t *o, const char *key)
{
    return field(buf, n, o, key, ios_fmt_doc_count);
}

char *rep_field_num(char *buf, size_t n, const json_t *o, const char *key)
{
    return field(buf, n, o, key, ios_fmt_doc_num);
}

char *rep_field_score(char *buf, size_t n, const json_t *o, const char *key)
{
    return field(buf, n, o, key, ios_fmt_doc_score);
}
