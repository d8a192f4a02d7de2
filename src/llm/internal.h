/*
 * src/llm/internal.h - what the files of the LLM transport share.
 *
 * Files, in the order a reader follows a call:
 *   curl_api.c  libcurl, loaded with dlopen on first use
 *   provider.c  the provider table, spec parsing, base URL and key from the
 *               environment, options (defaults and environment)
 *   request.c   the JSON body and the HTTP headers of each wire format
 *   http.c      one POST over libcurl (timeouts, size cap, Retry-After)
 *   reply.c     the assistant's text, usage and error text of each format
 *   chat.c      the retry loop and the public iosage_llm_chat()
 *   redact.c    endpoint text without user info, key redaction, JSON span
 *
 * Invariants: a client is never modified after iosage_llm_open() returns;
 * the key lives only in c->key and in the header list built for one call,
 * both wiped before they are freed; error text holds only the endpoint
 * (no user info, path or query) and text that has been through
 * ios_llm_redact().
 */
#ifndef IOSAGE_LLM_INTERNAL_H
#define IOSAGE_LLM_INTERNAL_H

#include <stddef.h>

#include <curl/curl.h>

#include "iosage/llm.h"

/* The three wire formats. */
enum ios_llm_wire {
    IOS_WIRE_OPENAI = 1, /* chat completions */
    IOS_WIRE_OLLAMA,     /* /api/chat */
    IOS_WIRE_ANTHROPIC   /* /v1/messages */
};

/* How a provider asks for JSON output. */
enum ios_llm_json {
    IOS_JSON_OBJECT = 1, /* response_format {"type":"json_object"} */
    IOS_JSON_SCHEMA,     /* response_format json_schema {"type":"object"}
                            (LM Studio rejects json_object) */
    IOS_JSON_FORMAT,     /* Ollama "format": "json" */
    IOS_JSON_NONE        /* no switch (Anthropic): the prompt asks */
};

/* One row of the provider table (provider.c). */
struct ios_llm_provider {
    const char *name;         /* as in the spec: "openai" */
    enum ios_llm_wire wire;
    enum ios_llm_json json;
    const char *default_base; /* used when no variable is set */
    const char *base_env;     /* the provider's own base URL variable */
    const char *key_env;      /* the provider's own key variable, or NULL */
    const char *key_host;     /* host where a key is required, or NULL */
    const char *path;         /* appended to the base URL */
    const char *tokens_field; /* OpenAI wire: "max_completion_tokens" for
                                 OpenAI itself (newer models refuse
                                 max_tokens), "max_tokens" for the rest */
};

struct iosage_llm_client {
    const struct ios_llm_provider *prov;
    char *model;      /* after the first ':' of the spec */
    char *url;        /* base + path: where requests go */
    char *endpoint;   /* scheme://host[:port], safe to print */
    char *key;        /* NULL when none; wiped on free */
    iosage_llm_options opt;
};

/* --- curl_api.c ----------------------------------------------------------- */

/* The libcurl functions used here, loaded with dlopen on first use
 * (curl_api.c): ios_curl()->easy_init() instead of curl_easy_init().
 * Never NULL; when loaded is 0 the function pointers are not to be called
 * and ios_curl_error() says why ("libcurl.so.4: cannot open shared
 * object file ..."). */
struct ios_curl_api {
    int loaded;
    __typeof__(&curl_global_init) global_init;
    __typeof__(&curl_easy_init) easy_init;
    __typeof__(&curl_easy_setopt) easy_setopt;
    __typeof__(&curl_easy_perform) easy_perform;
    __typeof__(&curl_easy_getinfo) easy_getinfo;
    __typeof__(&curl_easy_cleanup) easy_cleanup;
    __typeof__(&curl_easy_strerror) easy_strerror;
    __typeof__(&curl_slist_append) slist_append;
    __typeof__(&curl_slist_free_all) slist_free_all;
    __typeof__(&curl_url) url;
    __typeof__(&curl_url_set) url_set;
    __typeof__(&curl_url_get) url_get;
    __typeof__(&curl_url_cleanup) url_cleanup;
    __typeof__(&curl_free) free;
};
const struct ios_curl_api *ios_curl(void);
const char *ios_curl_error(void);

/* --- request.c ------------------------------------------------------------ */

/* The request body for this client and prompt, malloc'd (NULL on no
 * memory). */
char *ios_llm_body(const iosage_llm_client *c, const char *system,
                   const char *user);

/* The header list (Content-Type, auth, version). NULL on no memory. Free with
 * ios_llm_headers_free(), which wipes every entry first (one holds the key). */
struct curl_slist *ios_llm_headers(const iosage_llm_client *c);
void ios_llm_headers_free(struct curl_slist *h);

/* --- http.c --------------------------------------------------------------- */

/* The bytes of one response. */
struct ios_llm_body {
    char *data;       /* NUL-terminated, malloc'd */
    size_t len;
    size_t cap;       /* allocated */
    size_t limit;     /* max_reply_bytes */
    int too_large;    /* set when the server sent more than limit */
};

/* What one POST gave. */
struct ios_llm_response {
    CURLcode curl;          /* CURLE_OK when a response arrived */
    long status;            /* HTTP status, 0 when none */
    double retry_after_s;   /* Retry-After in seconds, 0 when absent */
    struct ios_llm_body body;
    char curl_msg[CURL_ERROR_SIZE]; /* libcurl's detail, may be "" */
};

/* One global libcurl initialisation per process (pthread_once). Returns 0 on
 * success. */
int ios_llm_curl_init(void);

/* POST body to url with headers on the easy handle, waiting at most
 * timeout_s. resp is reset first; the caller frees resp->body.data with
 * ios_llm_response_free(). */
void ios_llm_post(CURL *easy, const iosage_llm_client *c,
                  struct curl_slist *headers, const char *body,
                  double timeout_s, struct ios_llm_response *resp);
void ios_llm_response_free(struct ios_llm_response *resp);

/* --- reply.c -------------------------------------------------------------- */

/* What a 2xx body holds. */
struct ios_llm_reply {
    char *text;                  /* malloc'd, NULL when absent */
    size_t text_len;
    long long prompt_tokens;     /* -1 when not reported */
    long long completion_tokens; /* -1 when not reported */
    int truncated;
};

/* Parse a 2xx body of the client's wire format. Returns 0 and fills rep, or
 * -1 and writes why into why (one line, size n). */
int ios_llm_parse_reply(const iosage_llm_client *c, const char *body,
                        size_t len, struct ios_llm_reply *rep, char *why,
                        size_t n);

/* The server's own error text from an error body ({"error":{"message":..}},
 * {"error":".."}, {"message":..}), else the start of the body, as one line
 * of at most n - 1 bytes, redacted. */
void ios_llm_error_text(const iosage_llm_client *c, const char *body,
                        size_t len, char *out, size_t n);

/* --- redact.c ------------------------------------------------------------- */

/* "scheme://host[:port]" of url (no user info, path, query), malloc'd, or
 * NULL when url is not an absolute http(s) URL. */
char *ios_llm_endpoint_of(const char *url);

/* Rewrite text in place so that no part of key, and nothing that looks like
 * an API key ("sk-...", long letter-and-digit tokens), is left: each such
 * token becomes "[redacted]" (the text may grow: size is the buffer size).
 * Line breaks and tabs become blanks. key may be NULL. */
void ios_llm_redact(char *text, size_t size, const char *key);

/* --- provider.c ----------------------------------------------------------- */

/* Text for a number of seconds in an error message: "0.5 s", "120 s". */
void ios_llm_seconds(double s, char *out, size_t n);

#endif
