/*
 * request.c - the JSON body and the headers of one request, per wire format.
 *
 *   openai     {"model", "messages": [system?, user], "stream": false,
 *               "temperature"?, "max_tokens"? (OpenAI itself:
 *               "max_completion_tokens"), "response_format"?}
 *   ollama     {"model", "messages": [system?, user], "stream": false,
 *               "format": "json"?, "options": {"temperature"?,
 *               "num_predict"?, "num_ctx"?}}
 *   anthropic  {"model", "max_tokens", "system"?, "messages": [user],
 *               "temperature"?}
 * Headers: Content-Type and Accept application/json, an empty "Expect:" (no
 * 100-continue round trip), and the key as "Authorization: Bearer" (openai,
 * ollama behind a proxy) or "x-api-key" plus "anthropic-version: 2023-06-01".
 *
 * Prompts may hold bytes from a log (file names) that are not UTF-8; JSON
 * must be, so each invalid byte becomes U+FFFD before encoding.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ios_common.h"
#include "ios_json.h"
#include "internal.h"

#define ANTHROPIC_VERSION "2023-06-01"
#define ANTHROPIC_DEFAULT_MAX_TOKENS 4096

/* A JSON string of text with invalid UTF-8 bytes replaced by U+FFFD. NULL on
 * no memory. */
static json_t *json_text(const char *text)
{
    char *clean = ios_utf8_fix(text);
    json_t *j = clean ? json_string(clean) : NULL;
    free(clean);
    return j;
}

/* {"role": role, "content": text} appended to the array msgs. Returns 0, or
 * -1 on no memory. (jansson's *_set_new and *_append_new take the value's
 * reference even when they fail, and refuse a NULL value.) */
static int add_message(json_t *msgs, const char *role, const char *text)
{
    json_t *m = json_object();
    if (!m)
        return -1;
    if (json_object_set_new(m, "role", json_string(role)) ||
        json_object_set_new(m, "content", json_text(text))) {
        json_decref(m);
        return -1;
    }
    return json_array_append_new(msgs, m) ? -1 : 0;
}

/* The messages array: a system message when the wire carries it there and
 * it is not empty, then the user message. NULL on no memory. */
static json_t *messages(const iosage_llm_client *c, const char *system,
                        const char *user)
{
    json_t *msgs = json_array();
    if (!msgs)
        return NULL;
    int bad = 0;
    if (c->prov->wire != IOS_WIRE_ANTHROPIC && system && system[0])
        bad = add_message(msgs, "system", system);
    if (!bad)
        bad = add_message(msgs, "user", user ? user : "");
    if (bad) {
        json_decref(msgs);
        return NULL;
    }
    return msgs;
}

/* response_format for the OpenAI wire, or NULL when none is asked for. */
static json_t *response_format(const iosage_llm_client *c)
{
    if (!c->opt.json_mode)
        return NULL;
    if (c->prov->json == IOS_JSON_OBJECT)
        return json_pack("{s:s}", "type", "json_object");
    if (c->prov->json == IOS_JSON_SCHEMA)
        return json_pack("{s:s, s:{s:s, s:{s:s}}}", "type", "json_schema",
                         "json_schema", "name", "reply", "schema", "type",
                         "object");
    return NULL;
}

/* Add the wire-specific fields to root. Returns 0, or -1 on no memory. */
static int add_openai(const iosage_llm_client *c, json_t *root)
{
    const iosage_llm_options *o = &c->opt;
    int bad = json_object_set_new(root, "stream", json_false());
    if (o->temperature >= 0)
        bad |= json_object_set_new(root, "temperature", json_real(o->temperature));
    if (o->max_tokens > 0)
        bad |= json_object_set_new(root, c->prov->tokens_field,
                                   json_integer(o->max_tokens));
    json_t *rf = response_format(c);
    if (c->opt.json_mode && c->prov->json != IOS_JSON_NONE && !rf)
        return -1;
    if (rf)
        bad |= json_object_set_new(root, "response_format", rf);
    return bad ? -1 : 0;
}

static int add_ollama(const iosage_llm_client *c, json_t *root)
{
    const iosage_llm_options *o = &c->opt;
    json_t *opts = json_object();
    if (!opts)
        return -1;
    int bad = 0;
    if (o->temperature >= 0)
        bad |= json_object_set_new(opts, "temperature", json_real(o->temperature));
    if (o->max_tokens > 0)
        bad |= json_object_set_new(opts, "num_predict", json_integer(o->max_tokens));
    if (o->context_tokens > 0)
        bad |= json_object_set_new(opts, "num_ctx", json_integer(o->context_tokens));
    bad |= json_object_set_new(root, "stream", json_false());
    if (o->json_mode)
        bad |= json_object_set_new(root, "format", json_string("json"));
    bad |= json_object_set_new(root, "options", opts);
    return bad ? -1 : 0;
}

static int add_anthropic(const iosage_llm_client *c, json_t *root,
                         const char *system)
{
    const iosage_llm_options *o = &c->opt;
    int max = o->max_tokens > 0 ? o->max_tokens : ANTHROPIC_DEFAULT_MAX_TOKENS;
    int bad = json_object_set_new(root, "max_tokens", json_integer(max));
    if (system && system[0])
        bad |= json_object_set_new(root, "system", json_text(system));
    if (o->temperature >= 0)
        bad |= json_object_set_new(root, "temperature", json_real(o->temperature));
    return bad ? -1 : 0;
}

char *ios_llm_body(const iosage_llm_client *c, const char *system,
                   const char *user)
{
    json_t *root = json_object();
    json_t *msgs = messages(c, system, user);
    char *out = NULL;
    int bad = !root || !msgs;
    if (!bad) {
        bad = json_object_set_new(root, "model", json_text(c->model));
        if (c->prov->wire == IOS_WIRE_ANTHROPIC)
            bad |= add_anthropic(c, root, system);
        bad |= json_object_set_new(root, "messages", msgs);
        msgs = NULL; /* owned by root now, even when setting failed */
        if (c->prov->wire == IOS_WIRE_OPENAI)
            bad |= add_openai(c, root);
        else if (c->prov->wire == IOS_WIRE_OLLAMA)
            bad |= add_ollama(c, root);
    }
    if (!bad)
        out = ios_json_dumps(root, JSON_COMPACT);
    json_decref(msgs);
    json_decref(root);
    return out;
}

iosage_status iosage_llm_request_body(const iosage_llm_client *c,
                                      const char *system, const char *user,
                                      char **body, iosage_error *err)
{
    *body = ios_llm_body(c, system, user);
    if (!*body)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "llm", -1,
                        "out of memory building the request");
    return IOSAGE_OK;
}

/* Append "name: value" to h. Returns the new list, or NULL on no memory
 * (h is then freed). The temporary text is wiped: value may be the key. */
static struct curl_slist *add_header(struct curl_slist *h, const char *name,
                                     const char *value)
{
    size_t n = strlen(name) + strlen(value) + 3;
    char *line = malloc(n);
    struct curl_slist *next = NULL;
    if (line) {
        snprintf(line, n, "%s: %s", name, value);
        next = ios_curl()->slist_append(h, line);
        explicit_bzero(line, n);
        free(line);
    }
    if (!next)
        ios_llm_headers_free(h);
    return next;
}

struct curl_slist *ios_llm_headers(const iosage_llm_client *c)
{
    const struct ios_curl_api *api = ios_curl();
    struct curl_slist *h = api->slist_append(NULL, "Content-Type: application/json");
    struct curl_slist *next = h ? api->slist_append(h, "Expect:") : NULL;
    if (!next) {
        ios_llm_headers_free(h);
        return NULL;
    }
    h = add_header(h, "Accept", "application/json");
    if (h && c->prov->wire == IOS_WIRE_ANTHROPIC) {
        h = add_header(h, "anthropic-version", ANTHROPIC_VERSION);
        if (h && c->key)
            h = add_header(h, "x-api-key", c->key);
    } else if (h && c->key) {
        size_t n = strlen(c->key) + 8;
        char *bearer = malloc(n);
        if (!bearer) {
            ios_llm_headers_free(h);
            return NULL;
        }
        snprintf(bearer, n, "Bearer %s", c->key);
        h = add_header(h, "Authorization", bearer);
        explicit_bzero(bearer, n);
        free(bearer);
    }
    return h;
}

void ios_llm_headers_free(struct curl_slist *h)
{
    if (!h)
        return;
    for (struct curl_slist *p = h; p; p = p->next)
        if (p->data)
            explicit_bzero(p->data, strlen(p->data));
    ios_curl()->slist_free_all(h);
}
