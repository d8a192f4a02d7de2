/*
 * redact.c - text that is safe to show: the endpoint without user info,
 * path or query; server messages with anything key-like removed; and the
 * JSON object inside a model's prose.
 *
 * What counts as key-like (each whole token, a run of letters, digits and
 * "-_*", becomes "[redacted]"):
 *   - any occurrence of the client's key, and any token sharing 8 bytes in a
 *     row with it (servers echo keys partly: "sk-proj-****abcd");
 *   - tokens starting "sk-" (OpenAI and Anthropic keys);
 *   - tokens of 32 or more letters and digits with at least one of each
 *     (generic secrets; request ids are lost too, a fair price).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "internal.h"

#define REDACTED "[redacted]"
#define KEY_WINDOW 8        /* bytes of the key in a row that give it away */
#define SECRET_MIN_LEN 32   /* generic secret-looking token length */
#define JSON_SPAN_TRIES 64  /* '{' positions tried by iosage_llm_json_span */

char *ios_llm_endpoint_of(const char *url)
{
    const struct ios_curl_api *api = ios_curl();
    if (!api->loaded)
        return NULL;
    CURLU *u = api->url();
    char *scheme = NULL, *host = NULL, *port = NULL, *out = NULL;
    if (!u || api->url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
        api->url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
        api->url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK)
        goto done;
    if (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0)
        goto done;
    if (api->url_get(u, CURLUPART_PORT, &port, CURLU_NO_DEFAULT_PORT) != CURLUE_OK)
        port = NULL;
    size_t n = strlen(scheme) + strlen(host) + (port ? strlen(port) : 0) + 8;
    out = malloc(n);
    if (out)
        snprintf(out, n, "%s://%s%s%s", scheme, host, port ? ":" : "",
                 port ? port : "");
done:
    api->free(scheme);
    api->free(host);
    api->free(port);
    api->url_cleanup(u);
    return out;
}

static int is_token_char(unsigned char ch)
{
    return isalnum(ch) || ch == '-' || ch == '_' || ch == '*';
}

/* 1 when the len bytes at tok hold KEY_WINDOW bytes in a row of key. */
static int shares_key_window(const char *tok, size_t len, const char *key)
{
    size_t klen = key ? strlen(key) : 0;
    if (klen < KEY_WINDOW || len < KEY_WINDOW)
        return 0;
    for (size_t k = 0; k + KEY_WINDOW <= klen; k++)
        for (size_t t = 0; t + KEY_WINDOW <= len; t++)
            if (memcmp(tok + t, key + k, KEY_WINDOW) == 0)
                return 1;
    return 0;
}

/* 1 when the token looks like a secret (see the top of the file). */
static int secret_like(const char *tok, size_t len, const char *key)
{
    if (len >= 3 && memcmp(tok, "sk-", 3) == 0)
        return 1;
    if (shares_key_window(tok, len, key))
        return 1;
    if (len < SECRET_MIN_LEN)
        return 0;
    int letters = 0, digits = 0;
    for (size_t i = 0; i < len; i++) {
        letters |= isalpha((unsigned char)tok[i]) != 0;
        digits |= isdigit((unsigned char)tok[i]) != 0;
    }
    return letters && digits;
}

/* Append the len bytes at s to out (size n, o used), cutting at the end. */
static void put(char *out, size_t n, size_t *o, const char *s, size_t len)
{
    size_t room = n - 1 - *o;
    if (len > room)
        len = room;
    memcpy(out + *o, s, len);
    *o += len;
}

void ios_llm_redact(char *text, size_t size, const char *key)
{
    if (!text || size == 0)
        return;
    char *out = malloc(size);
    if (!out) { /* cannot rewrite: show nothing rather than a key */
        text[0] = '\0';
        return;
    }
    size_t klen = key ? strlen(key) : 0, o = 0;
    for (size_t i = 0; text[i] && o < size - 1;) {
        unsigned char ch = (unsigned char)text[i];
        if (klen > 0 && strncmp(text + i, key, klen) == 0) {
            put(out, size, &o, REDACTED, strlen(REDACTED));
            i += klen;
        } else if (is_token_char(ch)) {
            size_t j = i;
            while (text[j] && is_token_char((unsigned char)text[j]))
                j++;
            if (secret_like(text + i, j - i, key))
                put(out, size, &o, REDACTED, strlen(REDACTED));
            else
                put(out, size, &o, text + i, j - i);
            i = j;
        } else {
            char c = ch == '\n' || ch == '\r' || ch == '\t' ? ' ' : (char)ch;
            put(out, size, &o, &c, 1);
            i++;
        }
    }
    out[o] = '\0';
    memcpy(text, out, o + 1);
    explicit_bzero(out, size);
    free(out);
}

/* The offset just past the '}' that closes the '{' at text[start], or 0
 * when it is never closed. Braces inside strings do not count. */
static size_t matching_brace(const char *text, size_t start)
{
    int depth = 0, in_string = 0, escaped = 0;
    for (size_t i = start; text[i]; i++) {
        char ch = text[i];
        if (in_string) {
            if (escaped)
                escaped = 0;
            else if (ch == '\\')
                escaped = 1;
            else if (ch == '"')
                in_string = 0;
        } else if (ch == '"') {
            in_string = 1;
        } else if (ch == '{') {
            depth++;
        } else if (ch == '}' && --depth == 0) {
            return i + 1;
        }
    }
    return 0;
}

int iosage_llm_json_span(const char *text, size_t *off, size_t *len)
{
    if (!text)
        return 0;
    const char *p = text;
    for (int tries = 0; tries < JSON_SPAN_TRIES; tries++) {
        p = strchr(p, '{');
        if (!p)
            return 0;
        size_t start = (size_t)(p - text);
        size_t end = matching_brace(text, start);
        if (end == 0) { /* never closed: a stray brace in prose */
            p++;
            continue;
        }
        json_error_t jerr;
        json_t *j = json_loadb(p, end - start, 0, &jerr);
        int ok = json_is_object(j);
        json_decref(j);
        if (ok) {
            *off = start;
            *len = end - start;
            return 1;
        }
        p++;
    }
    return 0;
}
