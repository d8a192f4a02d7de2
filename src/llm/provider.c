/*
 * provider.c - which providers exist, how a spec names one, where its base
 * URL and key come from, and the client's options.
 *
 * Base URL, first that is set and not empty:
 *   IOSAGE_LLM_BASE_URL, the provider's variable (table), its default.
 * Key, first that is set and not empty:
 *   the provider's key variable (table), IOSAGE_LLM_API_KEY; else no key.
 * A key is required when the base URL's host is the provider's public host
 * (api.openai.com, api.anthropic.com), and is never sent over plain http
 * to a host other than the loopback one.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ios_common.h"
#include "internal.h"

static const struct ios_llm_provider providers[] = {
    {"openai", IOS_WIRE_OPENAI, IOS_JSON_OBJECT, "https://api.openai.com/v1",
     "OPENAI_BASE_URL", "OPENAI_API_KEY", "api.openai.com", "/chat/completions",
     "max_completion_tokens"},
    {"vllm", IOS_WIRE_OPENAI, IOS_JSON_OBJECT, "http://localhost:8000/v1",
     "VLLM_BASE_URL", "VLLM_API_KEY", NULL, "/chat/completions", "max_tokens"},
    {"llamacpp", IOS_WIRE_OPENAI, IOS_JSON_OBJECT, "http://localhost:8080/v1",
     "LLAMACPP_BASE_URL", NULL, NULL, "/chat/completions", "max_tokens"},
    {"lmstudio", IOS_WIRE_OPENAI, IOS_JSON_SCHEMA, "http://localhost:1234/v1",
     "LMSTUDIO_BASE_URL", NULL, NULL, "/chat/completions", "max_tokens"},
    {"ollama", IOS_WIRE_OLLAMA, IOS_JSON_FORMAT, "http://localhost:11434",
     "OLLAMA_HOST", NULL, NULL, "/api/chat", NULL},
    {"anthropic", IOS_WIRE_ANTHROPIC, IOS_JSON_NONE, "https://api.anthropic.com",
     "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "api.anthropic.com",
     "/v1/messages", "max_tokens"},
};
#define N_PROVIDERS (sizeof providers / sizeof providers[0])
#define PROVIDER_LIST "openai, vllm, llamacpp, lmstudio, ollama, anthropic"

void iosage_llm_options_init(iosage_llm_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->timeout_s = 120;
    opt->connect_timeout_s = 10;
    opt->deadline_s = 300;
    opt->max_attempts = 4;
    opt->backoff_base_s = 1;
    opt->backoff_max_s = 30;
    opt->temperature = 0;
    opt->max_tokens = 4096;
    opt->context_tokens = 8192;
    opt->json_mode = 1;
    opt->max_reply_bytes = (size_t)4 << 20;
}

/* The value of variable name when set and not empty, else NULL. */
static const char *env_value(const char *name)
{
    const char *v = name ? getenv(name) : NULL;
    return v && v[0] ? v : NULL;
}

/* Read variable name as a number in [lo, hi] into *out (left alone when the
 * variable is unset). Returns IOSAGE_E_USAGE naming it when invalid. */
static iosage_status env_number(const char *name, double lo, double hi,
                                double *out, iosage_error *err)
{
    const char *v = env_value(name);
    if (!v)
        return IOSAGE_OK;
    char *end = NULL;
    errno = 0;
    double d = strtod(v, &end);
    if (errno || end == v || *end != '\0' || !isfinite(d) || d < lo || d > hi)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "llm", -1,
                        "%s must be a number from %g to %g", name, lo, hi);
    *out = d;
    return IOSAGE_OK;
}

/* IOSAGE_LLM_TEMPERATURE: a number from 0 to 2, or "none" for "do not
 * send" (OpenAI's reasoning models accept only their default). */
static iosage_status env_temperature(iosage_llm_options *opt, iosage_error *err)
{
    const char *v = env_value("IOSAGE_LLM_TEMPERATURE");
    if (v && strcmp(v, "none") == 0) {
        opt->temperature = -1;
        return IOSAGE_OK;
    }
    return env_number("IOSAGE_LLM_TEMPERATURE", 0, 2, &opt->temperature, err);
}

iosage_status iosage_llm_options_env(iosage_llm_options *opt, iosage_error *err)
{
    iosage_llm_options o = *opt; /* opt changes only when all are valid */
    double timeout = o.timeout_s, attempts = o.max_attempts;
    double tokens = o.max_tokens, context = o.context_tokens;
    iosage_status st;
    if ((st = env_number("IOSAGE_LLM_TIMEOUT", 0.001, 86400, &timeout, err)) ||
        (st = env_number("IOSAGE_LLM_MAX_ATTEMPTS", 1, 20, &attempts, err)) ||
        (st = env_number("IOSAGE_LLM_MAX_TOKENS", 0, 1e6, &tokens, err)) ||
        (st = env_number("IOSAGE_LLM_CONTEXT", 0, 1e7, &context, err)) ||
        (st = env_temperature(&o, err)))
        return st;
    if (attempts != floor(attempts) || tokens != floor(tokens) ||
        context != floor(context))
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "llm", -1,
                        "IOSAGE_LLM_MAX_ATTEMPTS, IOSAGE_LLM_MAX_TOKENS and "
                        "IOSAGE_LLM_CONTEXT must be whole numbers");
    o.timeout_s = timeout;
    o.max_attempts = (int)attempts;
    o.max_tokens = (int)tokens;
    o.context_tokens = (int)context;
    *opt = o;
    return IOSAGE_OK;
}

void ios_llm_seconds(double s, char *out, size_t n)
{
    if (s < 10)
        snprintf(out, n, "%.1f s", s);
    else
        snprintf(out, n, "%.0f s", s);
}

/* The table row named by the len bytes at name, or NULL. */
static const struct ios_llm_provider *find_provider(const char *name,
                                                    size_t len)
{
    for (size_t i = 0; i < N_PROVIDERS; i++)
        if (strlen(providers[i].name) == len &&
            strncasecmp(providers[i].name, name, len) == 0)
            return &providers[i];
    return NULL;
}

/* Options that cannot work (a programmer's or a caller's mistake). */
static iosage_status check_options(const iosage_llm_options *o,
                                   iosage_error *err)
{
    if (!(o->timeout_s > 0) || !(o->connect_timeout_s > 0) ||
        !(o->deadline_s > 0) || o->max_attempts < 1 ||
        !(o->backoff_base_s >= 0) || !(o->backoff_max_s >= 0) ||
        o->max_tokens < 0 || o->context_tokens < 0 || o->max_reply_bytes < 64)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "llm", -1,
                        "invalid LLM options (timeouts and attempts must be "
                        "positive)");
    return IOSAGE_OK;
}

/* The base URL text from the environment or the default, with a scheme:
 * Ollama's OLLAMA_HOST may be "host" or "host:port" (port 11434 when none
 * is given). malloc'd, or NULL on no memory. */
static char *base_url(const struct ios_llm_provider *p)
{
    const char *v = env_value("IOSAGE_LLM_BASE_URL");
    if (!v)
        v = env_value(p->base_env);
    if (!v)
        v = p->default_base;
    size_t len = strlen(v);
    while (len > 0 && v[len - 1] == '/')
        len--; /* "http://h/v1/" + "/chat/completions" would double it */
    int add_scheme = strstr(v, "://") == NULL;
    size_t host_len = strcspn(v, "/"); /* without a scheme: "host[:port]" */
    if (host_len > len)
        host_len = len;
    int add_port = add_scheme && p->wire == IOS_WIRE_OLLAMA &&
                   memchr(v, ':', host_len) == NULL;
    size_t n = len + 32;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%.*s%s%.*s", add_scheme ? "http://" : "",
                 (int)host_len, v, add_port ? ":11434" : "",
                 (int)(len - host_len), v + host_len);
    return s;
}

/* 1 when the endpoint "scheme://host[:port]" names a loopback host:
 * exactly "localhost", "[::1]", or an IPv4 address 127.x.x.x. */
static int is_loopback(const char *endpoint)
{
    const char *h = strstr(endpoint, "://");
    h = h ? h + 3 : endpoint;
    if (strncmp(h, "[::1]", 5) == 0)
        return h[5] == '\0' || h[5] == ':';
    size_t n = strcspn(h, ":");
    if (n == 9 && strncasecmp(h, "localhost", 9) == 0)
        return 1;
    unsigned a, b, c, d;
    char end;
    char ip[32];
    if (n >= sizeof ip)
        return 0;
    memcpy(ip, h, n);
    ip[n] = '\0';
    return sscanf(ip, "%u.%u.%u.%u%c", &a, &b, &c, &d, &end) == 4 && a == 127 &&
           b < 256 && c < 256 && d < 256;
}

/* 1 when the endpoint's host is exactly host. */
static int host_is(const char *endpoint, const char *host)
{
    const char *h = strstr(endpoint, "://");
    h = h ? h + 3 : endpoint;
    size_t n = strlen(host);
    return strncasecmp(h, host, n) == 0 && (h[n] == '\0' || h[n] == ':');
}

/* Which variable the key came from, for messages (never the key itself). */
static const char *key_source(const struct ios_llm_provider *p)
{
    if (env_value(p->key_env))
        return p->key_env;
    return "IOSAGE_LLM_API_KEY";
}

/* Fill c->url, c->endpoint and c->key from the environment and check them. */
static iosage_status resolve(iosage_llm_client *c, iosage_error *err)
{
    const struct ios_llm_provider *p = c->prov;
    if (!ios_curl()->loaded) /* the URL parser is libcurl's */
        return ios_fail(err, IOSAGE_E_INTERNAL, NULL, "llm", -1,
                        "cannot load libcurl: %s", ios_curl_error());
    char *base = base_url(p);
    if (!base)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "llm", -1, "out of memory");
    c->endpoint = ios_llm_endpoint_of(base);
    if (!c->endpoint) {
        free(base);
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "llm", -1,
                        "%s: the base URL (IOSAGE_LLM_BASE_URL or %s) is not "
                        "an http:// or https:// URL",
                        p->name, p->base_env);
    }
    size_t n = strlen(base) + strlen(p->path) + 1;
    c->url = malloc(n);
    if (c->url)
        snprintf(c->url, n, "%s%s", base, p->path);
    free(base);
    const char *key = env_value(p->key_env);
    if (!key)
        key = env_value("IOSAGE_LLM_API_KEY");
    if (key)
        c->key = strdup(key);
    if (!c->url || (key && !c->key))
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "llm", -1, "out of memory");
    if (!key && p->key_host && host_is(c->endpoint, p->key_host))
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "llm", -1,
                        "%s: no API key: set %s (or IOSAGE_LLM_API_KEY)",
                        p->name, p->key_env);
    if (key && strncmp(c->endpoint, "http://", 7) == 0 &&
        !is_loopback(c->endpoint))
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "llm", -1,
                        "%s: refusing to send the key from %s over plain http "
                        "to %s: use https",
                        p->name, key_source(p), c->endpoint);
    return IOSAGE_OK;
}

iosage_status iosage_llm_open(const char *spec, const iosage_llm_options *opt,
                              iosage_llm_client **out, iosage_error *err)
{
    *out = NULL;
    const char *colon = spec ? strchr(spec, ':') : NULL;
    if (!colon || colon == spec || colon[1] == '\0')
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "llm", -1,
                        "'%.60s' is not PROVIDER:MODEL (providers: %s)",
                        spec ? spec : "", PROVIDER_LIST);
    const struct ios_llm_provider *p = find_provider(spec, colon - spec);
    if (!p)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "llm", -1,
                        "unknown LLM provider '%.*s' (providers: %s)",
                        (int)(colon - spec < 40 ? colon - spec : 40), spec,
                        PROVIDER_LIST);
    iosage_llm_client *c = calloc(1, sizeof *c);
    if (!c)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "llm", -1, "out of memory");
    c->prov = p;
    if (opt)
        c->opt = *opt;
    else
        iosage_llm_options_init(&c->opt);
    iosage_status st = check_options(&c->opt, err);
    if (st == IOSAGE_OK) {
        c->model = strdup(colon + 1);
        st = c->model ? resolve(c, err)
                      : ios_fail(err, IOSAGE_E_NOMEM, NULL, "llm", -1,
                                 "out of memory");
    }
    if (st != IOSAGE_OK) {
        iosage_llm_free(c);
        return st;
    }
    *out = c;
    return IOSAGE_OK;
}

void iosage_llm_free(iosage_llm_client *c)
{
    if (!c)
        return;
    if (c->key) {
        explicit_bzero(c->key, strlen(c->key));
        free(c->key);
    }
    free(c->model);
    free(c->url);
    free(c->endpoint);
    free(c);
}

const char *iosage_llm_provider(const iosage_llm_client *c)
{
    return c->prov->name;
}

const char *iosage_llm_model(const iosage_llm_client *c)
{
    return c->model;
}

const char *iosage_llm_endpoint(const iosage_llm_client *c)
{
    return c->endpoint;
}
