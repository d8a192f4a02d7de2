/*
 * chat.c - one prompt, one reply: the retry loop around http.c.
 *
 * The states of a call:
 *
 *   build body and headers ──fails──► INTERNAL
 *        │
 *        ▼
 *   ┌─► POST, attempt k, timeout = min(timeout_s, deadline left)
 *   │     ├─ 2xx with assistant text ──────────► OK
 *   │     ├─ 2xx without (not JSON, no text) ──► REPLY      (not retried)
 *   │     ├─ body over max_reply_bytes ────────► TOO_LARGE  (not retried)
 *   │     ├─ 4xx other than 408 and 429 ───────► HTTP       (not retried)
 *   │     ├─ TLS certificate, DNS, other errors ► CONNECT    (not retried)
 *   │     └─ 408, 429, 5xx, timeout, refused or broken connection:
 *   │           k == max_attempts ──────────────► this attempt's failure
 *   │           Retry-After > backoff_max_s ────► HTTP (the server asks too much)
 *   │           wait = Retry-After, else backoff_base_s * 2^(k-1),
 *   │                  at most backoff_max_s
 *   │           elapsed + wait >= deadline_s ───► TIMEOUT (budget spent)
 *   └──── sleep(wait); k = k + 1
 *
 * One easy handle serves all attempts of a call, so a kept-alive connection
 * is reused; nothing is shared between calls.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ios_common.h"
#include "internal.h"
#include "ios_math.h"

/* How one attempt ended. */
struct outcome {
    int retryable;
    iosage_llm_failure kind;
    iosage_status code;
    char what[200]; /* one line, redacted: "HTTP 500: overloaded" */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sleep s seconds, resuming after signals. */
static void sleep_s(double s)
{
    if (s <= 0)
        return;
    struct timespec req = {(time_t)s, (long)((s - floor(s)) * 1e9)};
    struct timespec rem;
    while (nanosleep(&req, &rem) == -1 && errno == EINTR)
        req = rem;
}

/* Transport failures worth another try. */
static int curl_retryable(CURLcode rc)
{
    switch (rc) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
        return 1;
    default:
        return 0;
    }
}

/* An attempt that got no HTTP response. */
static void transport_outcome(const iosage_llm_client *c,
                              const struct ios_llm_response *r,
                              double timeout_s, struct outcome *out)
{
    char detail[CURL_ERROR_SIZE + 8];
    snprintf(detail, sizeof detail, "%s",
             r->curl_msg[0] ? r->curl_msg : ios_curl()->easy_strerror(r->curl));
    ios_llm_redact(detail, sizeof detail, c->key);
    out->code = IOSAGE_E_IO;
    out->retryable = curl_retryable(r->curl);
    if (r->curl == CURLE_OPERATION_TIMEDOUT) {
        char secs[32];
        ios_llm_seconds(timeout_s, secs, sizeof secs);
        out->kind = IOSAGE_LLM_TIMEOUT;
        snprintf(out->what, sizeof out->what, "no reply within %s (%.120s)",
                 secs, detail);
    } else if (r->curl == CURLE_WRITE_ERROR) { /* on_data found no memory */
        out->kind = IOSAGE_LLM_INTERNAL;
        out->code = IOSAGE_E_NOMEM;
        snprintf(out->what, sizeof out->what, "out of memory reading the reply");
    } else {
        out->kind = IOSAGE_LLM_CONNECT;
        snprintf(out->what, sizeof out->what, "connection failed (%.150s)",
                 detail);
    }
}

/* Sort one attempt's response into out; on success move the text to res. */
static void classify(const iosage_llm_client *c, struct ios_llm_response *r,
                     double timeout_s, struct outcome *out,
                     iosage_llm_result *res)
{
    memset(out, 0, sizeof *out);
    if (r->body.too_large) {
        out->kind = IOSAGE_LLM_TOO_LARGE;
        out->code = IOSAGE_E_LIMIT;
        snprintf(out->what, sizeof out->what,
                 "the reply is larger than %zu bytes", c->opt.max_reply_bytes);
        return;
    }
    if (r->curl != CURLE_OK) {
        transport_outcome(c, r, timeout_s, out);
        return;
    }
    long st = r->status;
    if (st >= 200 && st < 300) {
        struct ios_llm_reply rep;
        char why[180];
        if (ios_llm_parse_reply(c, r->body.data, r->body.len, &rep, why,
                                sizeof why) != 0) {
            out->kind = IOSAGE_LLM_REPLY;
            out->code = IOSAGE_E_CORRUPT;
            snprintf(out->what, sizeof out->what, "HTTP %ld but %s", st, why);
            return;
        }
        res->text = rep.text;
        res->text_len = rep.text_len;
        res->prompt_tokens = rep.prompt_tokens;
        res->completion_tokens = rep.completion_tokens;
        res->truncated = rep.truncated;
        return; /* kind stays IOSAGE_LLM_OK */
    }
    char server[130];
    ios_llm_error_text(c, r->body.data, r->body.len, server, sizeof server);
    out->kind = IOSAGE_LLM_HTTP;
    out->code = IOSAGE_E_IO;
    out->retryable = st == 408 || st == 429 || st >= 500;
    snprintf(out->what, sizeof out->what, "HTTP %ld%s%s", st,
             server[0] ? ": " : "", server);
}

/* The wait before attempt k + 1: Retry-After when the server sent one, else
 * exponential back-off, both capped. */
static double backoff_s(const iosage_llm_options *o, int k, double retry_after)
{
    double w = retry_after > 0 ? retry_after : o->backoff_base_s * ios_libm()->pow(2, k - 1);
    return w < o->backoff_max_s ? w : o->backoff_max_s;
}

/* Fill err with the call's failure: "<provider> at <endpoint>: <what>
 * (<why it stopped>)". */
static iosage_status fail(const iosage_llm_client *c, iosage_error *err,
                          const struct outcome *o, const iosage_llm_result *res,
                          const char *stop)
{
    char secs[32];
    ios_llm_seconds(res->elapsed_s, secs, sizeof secs);
    if (stop)
        return ios_fail(err, o->code, NULL, "llm", -1, "%s at %.80s: %s (%s)",
                        c->prov->name, c->endpoint, o->what, stop);
    if (res->attempts > 1)
        return ios_fail(err, o->code, NULL, "llm", -1,
                        "%s at %.80s: %s (after %d attempts in %s)",
                        c->prov->name, c->endpoint, o->what, res->attempts, secs);
    return ios_fail(err, o->code, NULL, "llm", -1, "%s at %.80s: %s",
                    c->prov->name, c->endpoint, o->what);
}

/* The attempts of one call (the state diagram at the top). Returns the
 * call's status; res->failure says which kind. */
static iosage_status attempts(const iosage_llm_client *c, CURL *easy,
                              struct curl_slist *headers, const char *body,
                              iosage_llm_result *res, iosage_error *err)
{
    const iosage_llm_options *o = &c->opt;
    double t0 = now_s();
    for (int k = 1;; k++) {
        double left = o->deadline_s - (now_s() - t0);
        double timeout = o->timeout_s < left ? o->timeout_s : left;
        struct ios_llm_response r;
        struct outcome out;
        ios_llm_post(easy, c, headers, body, timeout, &r);
        classify(c, &r, timeout, &out, res);
        res->attempts = k;
        res->http_status = r.status;
        double retry_after = r.retry_after_s;
        ios_llm_response_free(&r);
        res->elapsed_s = now_s() - t0;
        res->failure = out.kind;
        if (out.kind == IOSAGE_LLM_OK)
            return IOSAGE_OK;
        if (!out.retryable || k >= o->max_attempts)
            return fail(c, err, &out, res, NULL);
        char stop[120];
        if (retry_after > o->backoff_max_s) {
            snprintf(stop, sizeof stop,
                     "the server asks to retry after %.0f s, more than the "
                     "%.0f s cap", retry_after, o->backoff_max_s);
            return fail(c, err, &out, res, stop);
        }
        double wait = backoff_s(o, k, retry_after);
        if (res->elapsed_s + wait >= o->deadline_s) {
            char secs[32];
            ios_llm_seconds(o->deadline_s, secs, sizeof secs);
            snprintf(stop, sizeof stop, "attempt %d of %d; no time left "
                     "within the %s budget", k, o->max_attempts, secs);
            out.kind = res->failure = IOSAGE_LLM_TIMEOUT;
            out.code = IOSAGE_E_IO;
            return fail(c, err, &out, res, stop);
        }
        sleep_s(wait);
    }
}

iosage_status iosage_llm_chat(const iosage_llm_client *c, const char *system,
                              const char *user, iosage_llm_result *res,
                              iosage_error *err)
{
    memset(res, 0, sizeof *res);
    res->prompt_tokens = res->completion_tokens = -1;
    res->failure = IOSAGE_LLM_INTERNAL;
    if (!c || !user)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "llm", -1,
                        "no client or no user prompt");
    if (!ios_curl()->loaded)
        return ios_fail(err, IOSAGE_E_INTERNAL, NULL, "llm", -1,
                        "cannot load libcurl: %s", ios_curl_error());
    if (ios_llm_curl_init() != 0)
        return ios_fail(err, IOSAGE_E_INTERNAL, NULL, "llm", -1,
                        "libcurl could not be initialised");
    char *body = ios_llm_body(c, system, user);
    struct curl_slist *headers = ios_llm_headers(c);
    CURL *easy = ios_curl()->easy_init();
    iosage_status st;
    if (!body || !headers || !easy)
        st = ios_fail(err, IOSAGE_E_NOMEM, NULL, "llm", -1,
                      "out of memory preparing the request");
    else
        st = attempts(c, easy, headers, body, res, err);
    if (easy)
        ios_curl()->easy_cleanup(easy);
    ios_llm_headers_free(headers);
    free(body);
    return st;
}

void iosage_llm_result_clear(iosage_llm_result *res)
{
    if (!res)
        return;
    free(res->text);
    memset(res, 0, sizeof *res);
}
