/*
 * http.c - one POST over libcurl, and the process-wide libcurl set-up.
 *
 * libcurl has no retry of its own (chat.c loops). Each POST sets a total
 * and a connect timeout, CURLOPT_NOSIGNAL (no SIGALRM for DNS timeouts in
 * threaded callers), http/https only, no redirects (a redirect could carry
 * the key to another host), and a cap on the bytes read: past
 * max_reply_bytes the write callback refuses and the transfer stops.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "iosage/version.h"


static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_rc = CURLE_FAILED_INIT;

static void curl_init_once(void)
{
    if (ios_curl()->loaded)
        curl_init_rc = ios_curl()->global_init(CURL_GLOBAL_DEFAULT);
}

int ios_llm_curl_init(void)
{
    pthread_once(&curl_once, curl_init_once);
    return curl_init_rc == CURLE_OK ? 0 : -1;
}

/* libcurl's write callback: append to the body, or stop the transfer (by
 * returning less than given) when the cap would be passed or memory runs
 * out. */
static size_t on_data(char *p, size_t size, size_t nmemb, void *userdata)
{
    struct ios_llm_body *b = userdata;
    size_t n = size * nmemb;
    if (n > b->limit - b->len) {
        b->too_large = 1;
        return 0;
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 16384;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d)
            return 0;
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
    return n;
}

/* Milliseconds for libcurl: at least 1 (0 would mean "no timeout"). */
static long to_ms(double s)
{
    double ms = ceil(s * 1000);
    return ms < 1 ? 1 : ms > 86400000 ? 86400000 : (long)ms;
}

void ios_llm_post(CURL *easy, const iosage_llm_client *c,
                  struct curl_slist *headers, const char *body,
                  double timeout_s, struct ios_llm_response *resp)
{
    const struct ios_curl_api *api = ios_curl();
    memset(resp, 0, sizeof *resp);
    resp->body.limit = c->opt.max_reply_bytes;
    double connect_s = c->opt.connect_timeout_s < timeout_s
                           ? c->opt.connect_timeout_s : timeout_s;
    api->easy_setopt(easy, CURLOPT_URL, c->url);
    api->easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    api->easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
    api->easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    api->easy_setopt(easy, CURLOPT_TIMEOUT_MS, to_ms(timeout_s));
    api->easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, to_ms(connect_s));
    api->easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
    char agent[64]; /* libcurl keeps a copy */
    snprintf(agent, sizeof agent, "iosage/%s", iosage_version());
    api->easy_setopt(easy, CURLOPT_USERAGENT, agent);
    api->easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    api->easy_setopt(easy, CURLOPT_POST, 1L);
    api->easy_setopt(easy, CURLOPT_POSTFIELDS, body);
    api->easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(body));
    api->easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
    api->easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_data);
    api->easy_setopt(easy, CURLOPT_WRITEDATA, &resp->body);
    api->easy_setopt(easy, CURLOPT_ERRORBUFFER, resp->curl_msg);
    resp->curl = api->easy_perform(easy);
    api->easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &resp->status);
    curl_off_t retry_after = 0;
    if (api->easy_getinfo(easy, CURLINFO_RETRY_AFTER, &retry_after) == CURLE_OK &&
        retry_after > 0)
        resp->retry_after_s = (double)retry_after;
    /* the buffer belongs to resp: do not let the handle keep pointing at it */
    api->easy_setopt(easy, CURLOPT_ERRORBUFFER, NULL);
}

void ios_llm_response_free(struct ios_llm_response *resp)
{
    free(resp->body.data);
    resp->body.data = NULL;
    resp->body.len = resp->body.cap = 0;
}
