/*
 * src/advise/reply.c - validate an LLM's reply and put its changes into the
 * report document.
 *
 * The reply is one JSON object {"changes": [...]}, possibly inside a
 * ```json fence or with words around it. A change is kept when its pattern
 * was detected (it has a finding in the document) and that finding holds at
 * least 5% of the job's I/O time (offline advice proposes nothing under
 * that either), its change id is one of
 * that pattern's (docs/report.md), and change, why, expected_effect and
 * when_not_to_apply are non-empty strings; "where" (object of string/null
 * file and key) and "evidence" (array of strings) may be missing. Anything
 * else is dropped and counted. Kept strings are cut to MAX_TEXT bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "iosage/llm.h"

#define MAX_TEXT 2000     /* bytes of one kept string */
#define MAX_CHANGES 32    /* changes kept from one reply */
#define MAX_EVIDENCE 8    /* evidence lines kept per change */

#define REPLY_SPAN_TRIES 64

/* text[0 .. n) parsed, when it is an object with a "changes" array; else
 * NULL. *any is set when it parsed as an object at all. */
static json_t *changes_object(const char *text, size_t n, int *any)
{
    json_error_t jerr;
    json_t *o = json_loadb(text, n, 0, &jerr);
    if (json_is_object(o))
        *any = 1;
    if (json_is_array(json_object_get(o, "changes")))
        return o;
    json_decref(o);
    return NULL;
}

/* The reply's object with a "changes" array: the body of the first ```
 * fence when it is one, else the first {...} span of the text that is one
 * (iosage_llm_json_span, object after object), so that braces in the prose
 * around it do not matter. NULL when there is none; *any says whether any
 * JSON object was seen. */
static json_t *reply_object(const char *r, int *any)
{
    *any = 0;
    const char *f = strstr(r, "```");
    const char *s = f ? strchr(f + 3, '\n') : NULL;
    const char *e = s ? strstr(s, "```") : NULL;
    if (s && e) {
        json_t *o = changes_object(s, (size_t)(e - s), any);
        if (o)
            return o;
    }
    const char *p = r;
    for (int tries = 0; tries < REPLY_SPAN_TRIES; tries++) {
        size_t off, len;
        if (!iosage_llm_json_span(p, &off, &len))
            break;
        json_t *o = changes_object(p + off, len, any);
        if (o)
            return o;
        p += off + len;
    }
    return NULL;
}

/* A kept copy of a non-empty string value, cut to MAX_TEXT; NULL when v is
 * not a non-empty string. */
static json_t *text_of(const json_t *v)
{
    const char *s = json_string_value(v);
    if (!s || !*s)
        return NULL;
    size_t n = json_string_length(v);
    if (n <= MAX_TEXT)
        return json_stringn(s, n);
    while (n > MAX_TEXT || ((unsigned char)s[n] & 0xC0) == 0x80)
        n--; /* cut before a UTF-8 continuation byte */
    return json_stringn(s, n);
}

/* A string or null (missing = null); -1 for any other type. */
static int opt_text(const json_t *v, json_t **out)
{
    if (!v || json_is_null(v)) {
        *out = json_null();
        return 0;
    }
    *out = text_of(v);
    return *out ? 0 : -1;
}

static json_t *where_of(const json_t *w)
{
    json_t *file, *key;
    if (w && !json_is_null(w) && !json_is_object(w))
        return NULL;
    if (opt_text(json_object_get(w, "file"), &file) != 0)
        return NULL;
    if (opt_text(json_object_get(w, "key"), &key) != 0) {
        json_decref(file);
        return NULL;
    }
    return json_pack("{s:o,s:o}", "file", file, "key", key);
}

static json_t *evidence_of(const json_t *e)
{
    json_t *arr = json_array();
    if (!arr || !e || json_is_null(e))
        return arr;
    if (!json_is_array(e)) {
        json_decref(arr);
        return NULL;
    }
    size_t i;
    json_t *v;
    json_array_foreach(e, i, v) {
        json_t *t = text_of(v);
        if (!t) { /* a line that is not a string: the change is malformed */
            json_decref(arr);
            return NULL;
        }
        if (i >= MAX_EVIDENCE)
            json_decref(t);
        else if (json_array_append_new(arr, t) != 0) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

/* May a change be proposed for pattern id: does the document have its
 * finding, with at least 5% of the job's I/O time (ADV_CHANGE_MIN_SHARE)? */
static int actionable(const json_t *doc, const char *id)
{
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(doc, "findings"), i, f) {
        const char *p = json_string_value(json_object_get(f, "pattern"));
        double share = json_number_value(json_object_get(f, "io_time_share"));
        if (p && strcmp(p, id) == 0)
            return share >= ADV_CHANGE_MIN_SHARE;
    }
    return 0;
}

/* A validated copy of change c with rank, or NULL when it is dropped. */
static json_t *valid_change(const json_t *doc, const json_t *c, int rank)
{
    if (!json_is_object(c))
        return NULL;
    const char *pat = json_string_value(json_object_get(c, "pattern"));
    const char *id = json_string_value(json_object_get(c, "change_id"));
    if (!pat || !id || !actionable(doc, pat) || !iosage_advise_change_known(pat, id))
        return NULL;
    json_t *f[6] = {
        text_of(json_object_get(c, "change")),
        where_of(json_object_get(c, "where")),
        text_of(json_object_get(c, "why")),
        evidence_of(json_object_get(c, "evidence")),
        text_of(json_object_get(c, "expected_effect")),
        text_of(json_object_get(c, "when_not_to_apply"))};
    for (int i = 0; i < 6; i++)
        if (!f[i]) {
            for (int k = 0; k < 6; k++)
                json_decref(f[k]);
            return NULL;
        }
    return json_pack("{s:i,s:s,s:s,s:o,s:o,s:o,s:o,s:o,s:o}", "rank", rank,
                     "pattern", pat, "change_id", id, "change", f[0], "where",
                     f[1], "why", f[2], "evidence", f[3], "expected_effect",
                     f[4], "when_not_to_apply", f[5]);
}

iosage_status iosage_advise_apply_reply(json_t *doc, const char *reply_text,
                                        const char *provider, const char *model,
                                        iosage_error *err)
{
    json_t *advice = json_object_get(doc, "advice");
    if (!json_is_object(advice) || !reply_text)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "reply", -1,
                        "no report document or no reply");
    int any;
    json_t *r = reply_object(reply_text, &any);
    json_t *changes = json_object_get(r, "changes");
    if (!r)
        return ios_fail(err, IOSAGE_E_CORRUPT, NULL, "LLM reply", -1, "%s",
                        any ? "the reply has no JSON object with a "
                              "\"changes\" array"
                            : "no JSON object in the reply");
    json_t *kept = json_array();
    int dropped = 0;
    size_t i;
    json_t *c;
    json_array_foreach(changes, i, c) {
        json_t *v = json_array_size(kept) < MAX_CHANGES
                        ? valid_change(doc, c, (int)json_array_size(kept) + 1)
                        : NULL;
        if (!v || json_array_append_new(kept, v) != 0)
            dropped++;
    }
    json_decref(r);
    if (!kept || json_array_size(kept) == 0) {
        json_decref(kept);
        return ios_fail(err, IOSAGE_E_CORRUPT, NULL, "LLM reply", -1,
                        "no valid change in the reply (%d dropped)", dropped);
    }
    int bad = ios_json_set(advice, "source", json_string("llm"));
    bad |= ios_json_set(advice, "provider", ios_json_str(provider));
    bad |= ios_json_set(advice, "model", ios_json_str(model));
    bad |= ios_json_set(advice, "fallback", json_null());
    bad |= ios_json_set(advice, "dropped", json_integer(dropped));
    bad |= ios_json_set(advice, "changes", kept);
    if (bad)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "LLM reply", -1,
                        "no memory for the advice");
    return IOSAGE_OK;
}
