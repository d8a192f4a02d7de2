/*
 * reply.c - the assistant's text, the token counts and the stop reason of a
 * 2xx body, and the server's own words from an error body.
 *
 *   openai     choices[0].message.content (a string, or an array of
 *              {"type":"text","text"} parts), finish_reason "length",
 *              usage.prompt_tokens / usage.completion_tokens
 *   ollama     message.content, done_reason "length",
 *              prompt_eval_count / eval_count
 *   anthropic  the "text" blocks of content[], joined, stop_reason
 *              "max_tokens", usage.input_tokens / usage.output_tokens
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "internal.h"

/* A copy of the len bytes at s, NUL-terminated. NULL on no memory. */
static char *copy_bytes(const char *s, size_t len)
{
    char *d = malloc(len + 1);
    if (d) {
        memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}

/* The "text" strings of an array of parts ({"type": "text", "text": ..}),
 * joined, into rep. Returns 0, or -1 when there is none or no memory. */
static int join_text_parts(json_t *parts, struct ios_llm_reply *rep)
{
    size_t total = 0, i;
    json_t *part;
    json_array_foreach(parts, i, part) {
        json_t *t = json_object_get(part, "text");
        const char *type = json_string_value(json_object_get(part, "type"));
        if (json_is_string(t) && (!type || strcmp(type, "text") == 0))
            total += json_string_length(t);
    }
    char *text = malloc(total + 1);
    if (!text)
        return -1;
    size_t o = 0;
    int found = 0;
    json_array_foreach(parts, i, part) {
        json_t *t = json_object_get(part, "text");
        const char *type = json_string_value(json_object_get(part, "type"));
        if (json_is_string(t) && (!type || strcmp(type, "text") == 0)) {
            memcpy(text + o, json_string_value(t), json_string_length(t));
            o += json_string_length(t);
            found = 1;
        }
    }
    text[o] = '\0';
    if (!found) {
        free(text);
        return -1;
    }
    rep->text = text;
    rep->text_len = o;
    return 0;
}

/* Set rep->text from a JSON string, or from an array of text parts. Returns
 * 0, or -1 when v is neither (or on no memory). */
static int take_text(json_t *v, struct ios_llm_reply *rep)
{
    if (json_is_string(v)) {
        rep->text_len = json_string_length(v);
        rep->text = copy_bytes(json_string_value(v), rep->text_len);
        return rep->text ? 0 : -1;
    }
    if (json_is_array(v))
        return join_text_parts(v, rep);
    return -1;
}

/* The integer at obj.name, or -1 when absent. */
static long long count_of(json_t *obj, const char *name)
{
    json_t *v = json_object_get(obj, name);
    return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

/* 1 when obj.name is the string value. */
static int string_is(json_t *obj, const char *name, const char *value)
{
    const char *s = json_string_value(json_object_get(obj, name));
    return s && strcmp(s, value) == 0;
}

static int parse_openai(json_t *root, struct ios_llm_reply *rep)
{
    json_t *choice = json_array_get(json_object_get(root, "choices"), 0);
    json_t *msg = json_object_get(choice, "message");
    json_t *usage = json_object_get(root, "usage");
    rep->prompt_tokens = count_of(usage, "prompt_tokens");
    rep->completion_tokens = count_of(usage, "completion_tokens");
    rep->truncated = string_is(choice, "finish_reason", "length");
    return take_text(json_object_get(msg, "content"), rep);
}

static int parse_ollama(json_t *root, struct ios_llm_reply *rep)
{
    rep->prompt_tokens = count_of(root, "prompt_eval_count");
    rep->completion_tokens = count_of(root, "eval_count");
    rep->truncated = string_is(root, "done_reason", "length");
    json_t *msg = json_object_get(root, "message");
    return take_text(json_object_get(msg, "content"), rep);
}

static int parse_anthropic(json_t *root, struct ios_llm_reply *rep)
{
    json_t *usage = json_object_get(root, "usage");
    rep->prompt_tokens = count_of(usage, "input_tokens");
    rep->completion_tokens = count_of(usage, "output_tokens");
    rep->truncated = string_is(root, "stop_reason", "max_tokens");
    json_t *content = json_object_get(root, "content");
    return json_is_array(content) ? join_text_parts(content, rep) : -1;
}

/* Where the text was expected, for messages. */
static const char *text_field(enum ios_llm_wire w)
{
    return w == IOS_WIRE_OPENAI   ? "choices[0].message.content"
           : w == IOS_WIRE_OLLAMA ? "message.content"
                                  : "text block in content[]";
}

/* The first bytes of body as one redacted line, quoted, into out. */
static void body_start(const iosage_llm_client *c, const char *body,
                       size_t len, char *out, size_t n)
{
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%.*s", (int)(len < 60 ? len : 60),
             body ? body : "");
    ios_llm_redact(tmp, sizeof tmp, c->key);
    snprintf(out, n, "'%.100s%s'", tmp, len > 60 ? "..." : "");
}

int ios_llm_parse_reply(const iosage_llm_client *c, const char *body,
                        size_t len, struct ios_llm_reply *rep, char *why,
                        size_t n)
{
    memset(rep, 0, sizeof *rep);
    rep->prompt_tokens = rep->completion_tokens = -1;
    json_error_t jerr;
    json_t *root = body ? json_loadb(body, len, 0, &jerr) : NULL;
    if (!json_is_object(root)) {
        char start[128];
        body_start(c, body, len, start, sizeof start);
        snprintf(why, n, "the reply is not a JSON object: %s", start);
        json_decref(root);
        return -1;
    }
    enum ios_llm_wire w = c->prov->wire;
    int rc = w == IOS_WIRE_OPENAI   ? parse_openai(root, rep)
             : w == IOS_WIRE_OLLAMA ? parse_ollama(root, rep)
                                    : parse_anthropic(root, rep);
    if (rc != 0) {
        char server[160];
        server[0] = '\0';
        if (json_object_get(root, "error"))
            ios_llm_error_text(c, body, len, server, sizeof server);
        snprintf(why, n, "the reply has no %s%s%s", text_field(w),
                 server[0] ? ": " : "", server);
    } else if (rep->text_len == 0) {
        snprintf(why, n, "the reply's text is empty%s",
                 rep->truncated ? " (the model stopped at max_tokens)" : "");
        free(rep->text);
        rep->text = NULL;
        rc = -1;
    }
    json_decref(root);
    return rc;
}

/* The most specific error text in root: error.message, error (a string),
 * message, detail. NULL when none. */
static const char *server_message(json_t *root)
{
    json_t *e = json_object_get(root, "error");
    const char *s = json_string_value(json_object_get(e, "message"));
    if (!s)
        s = json_string_value(e);
    if (!s)
        s = json_string_value(json_object_get(root, "message"));
    if (!s)
        s = json_string_value(json_object_get(root, "detail"));
    return s;
}

void ios_llm_error_text(const iosage_llm_client *c, const char *body,
                        size_t len, char *out, size_t n)
{
    char tmp[512];
    json_error_t jerr;
    json_t *root = body && len ? json_loadb(body, len, 0, &jerr) : NULL;
    const char *s = server_message(root);
    if (s)
        snprintf(tmp, sizeof tmp, "%s", s);
    else
        snprintf(tmp, sizeof tmp, "%.*s", (int)(len < 300 ? len : 300),
                 body ? body : "");
    json_decref(root);
    ios_llm_redact(tmp, sizeof tmp, c->key);
    size_t t = strlen(tmp);
    if (n > 4 && t >= n)
        snprintf(out, n, "%.*s...", (int)(n - 4), tmp);
    else
        snprintf(out, n, "%s", tmp);
}
