/*
 * test_llm.c - the LLM transport against tests/llm/fake_llm.py.
 *
 * The group set-up starts the fake server on a free loopback port; each
 * test points one provider at one scenario (the first path segment), calls
 * the library, and checks the reply or the error, then reads the server's
 * request log back to check what was sent (body, headers, auth).
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "iosage/llm.h"
#include "llm/internal.h"

extern char **environ;

#define TEST_KEY "sk-test-0123456789abcdefXYZ"
#define SYSTEM_TEXT "You are an HPC I/O expert. Answer in JSON."
/* a newline, a UTF-8 character and one invalid byte (0xff) */
#define USER_TEXT "Job 42: 98% of writes under 4 KiB.\nFile r\xc3\xa9sultat\xff.h5"
#define USER_SENT "Job 42: 98% of writes under 4 KiB.\nFile r\xc3\xa9sultat\xef\xbf\xbd.h5"
#define GOOD_TEXT "{\"ok\": true, \"note\": \"fake reply \xc3\xa9 \\\"quoted\\\"\"}"

static char g_dir[64];
static char g_log[128];
static int g_port;
static pid_t g_pid;

/* --- the fake server --------------------------------------------------- */

static void clear_env(void)
{
    static const char *vars[] = {
        "IOSAGE_LLM_BASE_URL", "IOSAGE_LLM_API_KEY", "OPENAI_BASE_URL",
        "OPENAI_API_KEY", "VLLM_BASE_URL", "VLLM_API_KEY", "LLAMACPP_BASE_URL",
        "LMSTUDIO_BASE_URL", "OLLAMA_HOST", "ANTHROPIC_BASE_URL",
        "ANTHROPIC_API_KEY", "IOSAGE_LLM_TIMEOUT", "IOSAGE_LLM_MAX_ATTEMPTS",
        "IOSAGE_LLM_MAX_TOKENS", "IOSAGE_LLM_CONTEXT", "IOSAGE_LLM_TEMPERATURE",
        "http_proxy",
        "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        unsetenv(vars[i]);
}

static int start_server(void **state)
{
    (void)state;
    clear_env();
    setenv("FAKE_LLM_KEY", TEST_KEY, 1);
    snprintf(g_dir, sizeof g_dir, "/tmp/iosage-llm-XXXXXX");
    if (!mkdtemp(g_dir))
        return -1;
    char port_file[128];
    snprintf(port_file, sizeof port_file, "%s/port", g_dir);
    snprintf(g_log, sizeof g_log, "%s/requests.jsonl", g_dir);
    char *argv[] = {"/usr/bin/python3", IOSAGE_SOURCE_DIR "/tests/llm/fake_llm.py",
                    "--port-file", port_file, "--log", g_log,
                    "--slow-seconds", "3", NULL};
    if (posix_spawn(&g_pid, argv[0], NULL, NULL, argv, environ) != 0)
        return -1;
    for (int i = 0; i < 500; i++) { /* up to 5 s for python to start */
        FILE *f = fopen(port_file, "r");
        if (f) {
            int ok = fscanf(f, "%d", &g_port) == 1;
            fclose(f);
            if (ok)
                return 0;
        }
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    return -1;
}

static int stop_server(void **state)
{
    (void)state;
    if (g_pid > 0) {
        kill(g_pid, SIGTERM);
        waitpid(g_pid, NULL, 0);
    }
    char path[160];
    snprintf(path, sizeof path, "%s/port", g_dir);
    unlink(path);
    unlink(g_log);
    rmdir(g_dir);
    return 0;
}

/* Set variable var to the fake server's URL for scenario segment seg plus
 * suffix ("/v1" for OpenAI-compatible bases). */
static void point(const char *var, const char *seg, const char *suffix)
{
    char url[256];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/%s%s", g_port, seg, suffix);
    setenv(var, url, 1);
}

/* The logged requests whose path starts with "/seg/", oldest first. */
static json_t *requests_for(const char *seg)
{
    json_t *all = json_array();
    FILE *f = fopen(g_log, "r");
    char prefix[128];
    snprintf(prefix, sizeof prefix, "/%s/", seg);
    static char line[1 << 16];
    while (f && fgets(line, sizeof line, f)) {
        json_error_t jerr;
        json_t *e = json_loads(line, 0, &jerr);
        const char *path = json_string_value(json_object_get(e, "path"));
        if (path && strncmp(path, prefix, strlen(prefix)) == 0)
            json_array_append(all, e);
        json_decref(e);
    }
    if (f)
        fclose(f);
    return all;
}

/* Lines in the request log. */
static int log_lines(void)
{
    FILE *f = fopen(g_log, "r");
    int n = 0, ch;
    while (f && (ch = fgetc(f)) != EOF)
        n += ch == '\n';
    if (f)
        fclose(f);
    return n;
}

/* --- helpers --------------------------------------------------------- */

/* Options for fast tests: short waits and timeouts. */
static iosage_llm_options fast_options(void)
{
    iosage_llm_options o;
    iosage_llm_options_init(&o);
    o.timeout_s = 5;
    o.backoff_base_s = 0.05;
    return o;
}

static iosage_llm_client *open_ok(const char *spec, const iosage_llm_options *o)
{
    iosage_llm_client *c = NULL;
    iosage_error err;
    iosage_status st = iosage_llm_open(spec, o, &c, &err);
    if (st != IOSAGE_OK)
        fail_msg("open %s: %s", spec, err.msg);
    return c;
}

/* No part of the test key in text (8 bytes in a row would give it away). */
static void assert_no_key(const char *text)
{
    const char *key = TEST_KEY;
    for (size_t k = 0; k + 8 <= strlen(key); k++) {
        char window[9];
        memcpy(window, key + k, 8);
        window[8] = '\0';
        if (strstr(text, window))
            fail_msg("key material '%s' in: %s", window, text);
    }
}

static void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("'%s' not in: %s", part, text);
}

static const char *str_at(json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

/* Run the prompt; return the status and fill res/err. */
static iosage_status chat(iosage_llm_client *c, iosage_llm_result *res,
                          iosage_error *err)
{
    memset(err, 0, sizeof *err);
    iosage_status st = iosage_llm_chat(c, SYSTEM_TEXT, USER_TEXT, res, err);
    assert_no_key(err->msg);
    return st;
}

/* A good reply: GOOD_TEXT, one attempt, HTTP 200, tokens 11/7. */
static void assert_good(iosage_status st, const iosage_llm_result *res,
                        const iosage_error *err)
{
    if (st != IOSAGE_OK)
        fail_msg("chat failed: %s", err->msg);
    assert_string_equal(res->text, GOOD_TEXT);
    assert_int_equal(res->text_len, strlen(GOOD_TEXT));
    assert_int_equal(res->http_status, 200);
    assert_int_equal(res->attempts, 1);
    assert_int_equal(res->prompt_tokens, 11);
    assert_int_equal(res->completion_tokens, 7);
    assert_int_equal(res->truncated, 0);
    assert_int_equal(res->failure, IOSAGE_LLM_OK);
    assert_true(res->elapsed_s >= 0 && res->elapsed_s < 5);
}

/* The only request logged for seg (asserting there is exactly one). */
static json_t *only_request(const char *seg)
{
    json_t *reqs = requests_for(seg);
    assert_int_equal(json_array_size(reqs), 1);
    json_t *r = json_incref(json_array_get(reqs, 0));
    json_decref(reqs);
    assert_null(str_at(r, "body_error"));
    assert_string_equal(str_at(r, "method"), "POST");
    json_t *h = json_object_get(r, "headers");
    assert_string_equal(str_at(h, "content-type"), "application/json");
    assert_non_null(strstr(str_at(h, "user-agent"), "iosage/"));
    return r;
}

/* messages = [system, user] with the exact texts (user sanitised). */
static void assert_two_messages(json_t *body)
{
    json_t *msgs = json_object_get(body, "messages");
    assert_int_equal(json_array_size(msgs), 2);
    assert_string_equal(str_at(json_array_get(msgs, 0), "role"), "system");
    assert_string_equal(str_at(json_array_get(msgs, 0), "content"), SYSTEM_TEXT);
    assert_string_equal(str_at(json_array_get(msgs, 1), "role"), "user");
    assert_string_equal(str_at(json_array_get(msgs, 1), "content"), USER_SENT);
}

/* --- spec, environment, options (no request) --------------------------- */

static void test_spec_errors(void **state)
{
    (void)state;
    clear_env();
    static const char *bad[] = {"openai", "openai:", ":model", "", "foo:bar"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        iosage_llm_client *c = (void *)1;
        iosage_error err;
        assert_int_equal(iosage_llm_open(bad[i], NULL, &c, &err), IOSAGE_E_USAGE);
        assert_null(c);
        assert_string_equal(err.where, "llm");
        assert_contains(err.msg, "openai, vllm, llamacpp, lmstudio, ollama, anthropic");
    }
    iosage_llm_client *c = NULL;
    iosage_error err;
    assert_int_equal(iosage_llm_open("foo:bar", NULL, &c, &err), IOSAGE_E_USAGE);
    assert_contains(err.msg, "unknown LLM provider 'foo'");
    /* the model keeps everything after the first ':' */
    c = open_ok("OLLAMA:llama3.1:8b", NULL);
    assert_string_equal(iosage_llm_provider(c), "ollama");
    assert_string_equal(iosage_llm_model(c), "llama3.1:8b");
    assert_string_equal(iosage_llm_endpoint(c), "http://localhost:11434");
    assert_string_equal(c->url, "http://localhost:11434/api/chat");
    iosage_llm_free(c);
}

/* Endpoint and request URL of spec under the current environment. */
static void assert_urls(const char *spec, const char *endpoint, const char *url)
{
    iosage_llm_client *c = open_ok(spec, NULL);
    assert_string_equal(iosage_llm_endpoint(c), endpoint);
    assert_string_equal(c->url, url);
    iosage_llm_free(c);
}

static void test_base_urls(void **state)
{
    (void)state;
    clear_env();
    assert_urls("vllm:m", "http://localhost:8000", "http://localhost:8000/v1/chat/completions");
    assert_urls("llamacpp:m", "http://localhost:8080", "http://localhost:8080/v1/chat/completions");
    assert_urls("lmstudio:m", "http://localhost:1234", "http://localhost:1234/v1/chat/completions");
    setenv("ANTHROPIC_API_KEY", TEST_KEY, 1);
    assert_urls("anthropic:claude", "https://api.anthropic.com",
                "https://api.anthropic.com/v1/messages");
    setenv("OPENAI_API_KEY", TEST_KEY, 1);
    assert_urls("openai:gpt", "https://api.openai.com",
                "https://api.openai.com/v1/chat/completions");
    /* Ollama's host forms */
    setenv("OLLAMA_HOST", "gpu7.example.org", 1);
    assert_urls("ollama:m", "http://gpu7.example.org:11434",
                "http://gpu7.example.org:11434/api/chat");
    setenv("OLLAMA_HOST", "gpu7/ollama/", 1);
    assert_urls("ollama:m", "http://gpu7:11434", "http://gpu7:11434/ollama/api/chat");
    setenv("OLLAMA_HOST", "127.0.0.1:9999/", 1);
    assert_urls("ollama:m", "http://127.0.0.1:9999", "http://127.0.0.1:9999/api/chat");
    /* provider variable, then the generic one wins; user info and query are
     * never shown */
    setenv("VLLM_BASE_URL", "http://127.0.0.1:7000/v1/", 1);
    assert_urls("vllm:m", "http://127.0.0.1:7000", "http://127.0.0.1:7000/v1/chat/completions");
    setenv("IOSAGE_LLM_BASE_URL", "http://user:pw@127.0.0.1:7001/x/v1", 1);
    assert_urls("vllm:m", "http://127.0.0.1:7001",
                "http://user:pw@127.0.0.1:7001/x/v1/chat/completions");
    setenv("IOSAGE_LLM_BASE_URL", "ftp://127.0.0.1/v1", 1);
    iosage_llm_client *c = NULL;
    iosage_error err;
    assert_int_equal(iosage_llm_open("vllm:m", NULL, &c, &err), IOSAGE_E_USAGE);
    assert_contains(err.msg, "not an http:// or https:// URL");
    clear_env();
}

static void test_missing_key(void **state)
{
    (void)state;
    clear_env();
    int before = log_lines();
    iosage_llm_client *c = NULL;
    iosage_error err;
    assert_int_equal(iosage_llm_open("openai:gpt-4o", NULL, &c, &err), IOSAGE_E_USAGE);
    assert_null(c);
    assert_contains(err.msg, "no API key: set OPENAI_API_KEY");
    assert_int_equal(iosage_llm_open("anthropic:claude", NULL, &c, &err), IOSAGE_E_USAGE);
    assert_contains(err.msg, "no API key: set ANTHROPIC_API_KEY");
    /* a key is never sent in clear text to another machine */
    setenv("OPENAI_API_KEY", TEST_KEY, 1);
    setenv("OPENAI_BASE_URL", "http://gpu7.example.org:8000/v1", 1);
    assert_int_equal(iosage_llm_open("openai:m", NULL, &c, &err), IOSAGE_E_USAGE);
    assert_contains(err.msg, "refusing to send the key from OPENAI_API_KEY over plain http");
    assert_no_key(err.msg);
    static const char *not_local[] = {"http://localhost.example.org:8000/v1",
                                      "http://127.0.0.1.example.org/v1",
                                      "http://127.0.0.1x/v1"};
    for (size_t i = 0; i < sizeof not_local / sizeof not_local[0]; i++) {
        setenv("OPENAI_BASE_URL", not_local[i], 1);
        assert_int_equal(iosage_llm_open("openai:m", NULL, &c, &err), IOSAGE_E_USAGE);
    }
    static const char *local[] = {"http://localhost:8000/v1", "http://127.0.0.2/v1",
                                  "http://[::1]:8000/v1"};
    for (size_t i = 0; i < sizeof local / sizeof local[0]; i++) {
        setenv("OPENAI_BASE_URL", local[i], 1);
        c = open_ok("openai:m", NULL);
        iosage_llm_free(c);
    }
    assert_int_equal(log_lines(), before); /* nothing was sent */
    /* a local server needs no key, and gets no auth header */
    clear_env();
    point("OPENAI_BASE_URL", "good~nokey", "/v1");
    c = open_ok("openai:m", NULL);
    iosage_llm_result res;
    assert_good(chat(c, &res, &err), &res, &err);
    json_t *r = only_request("good~nokey");
    assert_true(json_is_null(json_object_get(r, "auth")));
    assert_null(json_object_get(json_object_get(r, "headers"), "authorization"));
    json_decref(r);
    iosage_llm_result_clear(&res);
    iosage_llm_free(c);
}

static void test_options_env(void **state)
{
    (void)state;
    clear_env();
    iosage_llm_options o;
    iosage_error err;
    iosage_llm_options_init(&o);
    assert_true(o.timeout_s == 120 && o.max_attempts == 4 && o.temperature == 0);
    setenv("IOSAGE_LLM_TIMEOUT", "2.5", 1);
    setenv("IOSAGE_LLM_MAX_ATTEMPTS", "2", 1);
    setenv("IOSAGE_LLM_MAX_TOKENS", "1000", 1);
    assert_int_equal(iosage_llm_options_env(&o, &err), IOSAGE_OK);
    assert_true(o.timeout_s == 2.5 && o.max_attempts == 2 && o.max_tokens == 1000);
    setenv("IOSAGE_LLM_TIMEOUT", "soon", 1);
    assert_int_equal(iosage_llm_options_env(&o, &err), IOSAGE_E_USAGE);
    assert_contains(err.msg, "IOSAGE_LLM_TIMEOUT must be a number");
    unsetenv("IOSAGE_LLM_TIMEOUT");
    setenv("IOSAGE_LLM_MAX_ATTEMPTS", "0", 1);
    assert_int_equal(iosage_llm_options_env(&o, &err), IOSAGE_E_USAGE);
    setenv("IOSAGE_LLM_MAX_ATTEMPTS", "2.5", 1);
    assert_int_equal(iosage_llm_options_env(&o, &err), IOSAGE_E_USAGE);
    unsetenv("IOSAGE_LLM_MAX_ATTEMPTS");
    setenv("IOSAGE_LLM_TEMPERATURE", "none", 1);
    assert_int_equal(iosage_llm_options_env(&o, &err), IOSAGE_OK);
    assert_true(o.temperature < 0);
    setenv("IOSAGE_LLM_TEMPERATURE", "0.7", 1);
    assert_int_equal(iosage_llm_options_env(&o, &err), IOSAGE_OK);
    assert_true(o.temperature == 0.7);
    setenv("IOSAGE_LLM_TEMPERATURE", "3", 1);
    assert_int_equal(iosage_llm_options_env(&o, &err), IOSAGE_E_USAGE);
    clear_env();
}

/* --- good replies, one per wire --------------------------------------- */

static void test_openai_good(void **state)
{
    (void)state;
    clear_env();
    setenv("OPENAI_API_KEY", TEST_KEY, 1);
    point("OPENAI_BASE_URL", "good~openai", "/v1");
    iosage_llm_options o = fast_options();
    iosage_llm_client *c = open_ok("openai:gpt-test", &o);
    iosage_llm_result res;
    iosage_error err;
    assert_good(chat(c, &res, &err), &res, &err);
    json_t *r = only_request("good~openai");
    assert_string_equal(str_at(r, "path"), "/good~openai/v1/chat/completions");
    assert_string_equal(str_at(r, "auth"), "bearer");
    assert_true(json_is_true(json_object_get(r, "auth_match")));
    json_t *b = json_object_get(r, "body");
    assert_string_equal(str_at(b, "model"), "gpt-test");
    assert_two_messages(b);
    assert_true(json_is_false(json_object_get(b, "stream")));
    assert_true(json_number_value(json_object_get(b, "temperature")) == 0.0);
    /* OpenAI's newer models refuse max_tokens */
    assert_int_equal(json_integer_value(json_object_get(b, "max_completion_tokens")), 4096);
    assert_null(json_object_get(b, "max_tokens"));
    assert_string_equal(str_at(json_object_get(b, "response_format"), "type"),
                        "json_object");
    json_decref(r);
    iosage_llm_result_clear(&res);
    assert_null(res.text);
    iosage_llm_free(c);
}

static void test_compatible_servers(void **state)
{
    (void)state;
    clear_env();
    iosage_llm_options o = fast_options();
    iosage_llm_result res;
    iosage_error err;
    /* vllm with its own key variable */
    setenv("VLLM_API_KEY", TEST_KEY, 1);
    point("IOSAGE_LLM_BASE_URL", "good~vllm", "/v1");
    iosage_llm_client *c = open_ok("vllm:Qwen/Qwen2.5-7B-Instruct", &o);
    assert_good(chat(c, &res, &err), &res, &err);
    json_t *r = only_request("good~vllm");
    assert_string_equal(str_at(r, "auth"), "bearer");
    assert_true(json_is_true(json_object_get(r, "auth_match")));
    assert_string_equal(str_at(json_object_get(r, "body"), "model"),
                        "Qwen/Qwen2.5-7B-Instruct");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(r, "body"),
                                                        "max_tokens")), 4096);
    json_decref(r);
    iosage_llm_result_clear(&res);
    iosage_llm_free(c);
    clear_env();
    /* llama.cpp: json_object, no key */
    point("LLAMACPP_BASE_URL", "good~llamacpp", "/v1");
    c = open_ok("llamacpp:any", &o);
    assert_good(chat(c, &res, &err), &res, &err);
    r = only_request("good~llamacpp");
    assert_true(json_is_null(json_object_get(r, "auth")));
    assert_string_equal(str_at(json_object_get(json_object_get(r, "body"),
                                               "response_format"), "type"),
                        "json_object");
    json_decref(r);
    iosage_llm_result_clear(&res);
    iosage_llm_free(c);
    /* LM Studio rejects json_object: a json_schema of any object instead */
    point("LMSTUDIO_BASE_URL", "good~lmstudio", "/v1");
    c = open_ok("lmstudio:qwen2.5-7b-instruct", &o);
    assert_good(chat(c, &res, &err), &res, &err);
    r = only_request("good~lmstudio");
    json_t *rf = json_object_get(json_object_get(r, "body"), "response_format");
    assert_string_equal(str_at(rf, "type"), "json_schema");
    json_t *schema = json_object_get(json_object_get(rf, "json_schema"), "schema");
    assert_string_equal(str_at(schema, "type"), "object");
    json_decref(r);
    iosage_llm_result_clear(&res);
    iosage_llm_free(c);
}

static void test_ollama_good(void **state)
{
    (void)state;
    clear_env();
    point("OLLAMA_HOST", "good~ollama", "");
    iosage_llm_options o = fast_options();
    iosage_llm_client *c = open_ok("ollama:llama3.1:8b", &o);
    iosage_llm_result res;
    iosage_error err;
    assert_good(chat(c, &res, &err), &res, &err);
    json_t *r = only_request("good~ollama");
    assert_string_equal(str_at(r, "path"), "/good~ollama/api/chat");
    assert_true(json_is_null(json_object_get(r, "auth")));
    json_t *b = json_object_get(r, "body");
    assert_string_equal(str_at(b, "model"), "llama3.1:8b");
    assert_two_messages(b);
    assert_true(json_is_false(json_object_get(b, "stream")));
    assert_string_equal(str_at(b, "format"), "json");
    json_t *opts = json_object_get(b, "options");
    assert_true(json_number_value(json_object_get(opts, "temperature")) == 0.0);
    assert_int_equal(json_integer_value(json_object_get(opts, "num_predict")), 4096);
    assert_int_equal(json_integer_value(json_object_get(opts, "num_ctx")), 8192);
    json_decref(r);
    iosage_llm_result_clear(&res);
    iosage_llm_free(c);
}

static void test_anthropic_good(void **state)
{
    (void)state;
    clear_env();
    setenv("ANTHROPIC_API_KEY", TEST_KEY, 1);
    point("ANTHROPIC_BASE_URL", "good~anthropic", "");
    iosage_llm_options o = fast_options();
    iosage_llm_client *c = open_ok("anthropic:claude-test", &o);
    iosage_llm_result res;
    iosage_error err;
    assert_good(chat(c, &res, &err), &res, &err); /* joined from two blocks */
    json_t *r = only_request("good~anthropic");
    assert_string_equal(str_at(r, "path"), "/good~anthropic/v1/messages");
    assert_string_equal(str_at(r, "auth"), "x-api-key");
    assert_true(json_is_true(json_object_get(r, "auth_match")));
    json_t *h = json_object_get(r, "headers");
    assert_string_equal(str_at(h, "anthropic-version"), "2023-06-01");
    assert_string_equal(str_at(h, "x-api-key"), "[redacted]");
    assert_null(json_object_get(h, "authorization"));
    json_t *b = json_object_get(r, "body");
    assert_string_equal(str_at(b, "model"), "claude-test");
    assert_string_equal(str_at(b, "system"), SYSTEM_TEXT);
    assert_int_equal(json_integer_value(json_object_get(b, "max_tokens")), 4096);
    assert_true(json_number_value(json_object_get(b, "temperature")) == 0.0);
    json_t *msgs = json_object_get(b, "messages");
    assert_int_equal(json_array_size(msgs), 1);
    assert_string_equal(str_at(json_array_get(msgs, 0), "role"), "user");
    assert_string_equal(str_at(json_array_get(msgs, 0), "content"), USER_SENT);
    assert_null(json_object_get(b, "response_format"));
    json_decref(r);
    iosage_llm_result_clear(&res);
    iosage_llm_free(c);
}

/* Open spec with base variable var pointed at scenario seg. */
static iosage_llm_client *open_at(const char *spec, const char *var,
                                  const char *seg, const char *suffix,
                                  const iosage_llm_options *o)
{
    clear_env();
    setenv("OPENAI_API_KEY", TEST_KEY, 1);
    setenv("ANTHROPIC_API_KEY", TEST_KEY, 1);
    point(var, seg, suffix);
    return open_ok(spec, o);
}

static void test_truncated_and_wrongpattern(void **state)
{
    (void)state;
    iosage_llm_options o = fast_options();
    iosage_llm_result res;
    iosage_error err;
    iosage_llm_client *cs[] = {
        open_at("openai:m", "OPENAI_BASE_URL", "truncated", "/v1", &o),
        open_at("ollama:m", "OLLAMA_HOST", "truncated", "", &o),
        open_at("anthropic:m", "ANTHROPIC_BASE_URL", "truncated", "", &o)};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(chat(cs[i], &res, &err), IOSAGE_OK);
        assert_string_equal(res.text, GOOD_TEXT);
        assert_int_equal(res.truncated, 1);
        iosage_llm_result_clear(&res);
        iosage_llm_free(cs[i]);
    }
    /* the scenario later tests use to check that undetected patterns drop */
    iosage_llm_client *c = open_at("openai:m", "OPENAI_BASE_URL", "wrongpattern", "/v1", &o);
    assert_int_equal(chat(c, &res, &err), IOSAGE_OK);
    json_error_t jerr;
    json_t *advice = json_loads(res.text, 0, &jerr);
    json_t *change = json_array_get(json_object_get(advice, "changes"), 0);
    assert_string_equal(str_at(change, "pattern"), "file_strategy");
    assert_string_equal(str_at(change, "change_id"), "shared_file");
    json_decref(advice);
    iosage_llm_result_clear(&res);
    iosage_llm_free(c);
}

/* --- failures ---------------------------------------------------------- */

/* Chat must fail with status st and failure kind; err.msg must hold part. */
static void expect_failure(iosage_llm_client *c, iosage_status st,
                           iosage_llm_failure kind, const char *part,
                           iosage_llm_result *res)
{
    iosage_error err;
    assert_int_equal(chat(c, res, &err), st);
    assert_null(res->text);
    assert_int_equal(res->failure, kind);
    assert_string_equal(err.where, "llm");
    assert_contains(err.msg, part);
}

static void test_malformed(void **state)
{
    (void)state;
    iosage_llm_options o = fast_options();
    iosage_llm_result res;
    iosage_llm_client *c = open_at("openai:m", "OPENAI_BASE_URL", "malformed", "/v1", &o);
    expect_failure(c, IOSAGE_E_CORRUPT, IOSAGE_LLM_REPLY,
                   "HTTP 200 but the reply is not a JSON object: '<html><body>Bad gateway", &res);
    assert_int_equal(res.attempts, 1); /* not retried */
    iosage_llm_free(c);
    c = open_at("openai:m", "OPENAI_BASE_URL", "noshape", "/v1", &o);
    expect_failure(c, IOSAGE_E_CORRUPT, IOSAGE_LLM_REPLY,
                   "the reply has no choices[0].message.content", &res);
    iosage_llm_free(c);
    c = open_at("anthropic:m", "ANTHROPIC_BASE_URL", "noshape", "", &o);
    expect_failure(c, IOSAGE_E_CORRUPT, IOSAGE_LLM_REPLY,
                   "the reply has no text block in content[]", &res);
    iosage_llm_free(c);
    c = open_at("ollama:m", "OLLAMA_HOST", "empty", "", &o);
    expect_failure(c, IOSAGE_E_CORRUPT, IOSAGE_LLM_REPLY, "the reply's text is empty", &res);
    iosage_llm_free(c);
}

static void test_retry_after_429(void **state)
{
    (void)state;
    iosage_llm_options o = fast_options();
    iosage_llm_client *c = open_at("openai:m", "OPENAI_BASE_URL", "retry429~a", "/v1", &o);
    iosage_llm_result res;
    iosage_error err;
    assert_int_equal(chat(c, &res, &err), IOSAGE_OK);
    assert_string_equal(res.text, GOOD_TEXT);
    assert_int_equal(res.attempts, 2);
    assert_int_equal(res.http_status, 200);
    /* Retry-After: 1 was honoured (the back-off alone would be 0.05 s) */
    assert_true(res.elapsed_s >= 0.95 && res.elapsed_s < 3);
    json_t *reqs = requests_for("retry429~a");
    assert_int_equal(json_array_size(reqs), 2);
    /* the retry sends the same body */
    assert_true(json_equal(json_object_get(json_array_get(reqs, 0), "body"),
                           json_object_get(json_array_get(reqs, 1), "body")));
    json_decref(reqs);
    iosage_llm_result_clear(&res);
    iosage_llm_free(c);
}

static void test_500_gives_up(void **state)
{
    (void)state;
    iosage_llm_options o = fast_options();
    o.max_attempts = 3;
    iosage_llm_result res;
    iosage_llm_client *c = open_at("anthropic:m", "ANTHROPIC_BASE_URL", "error500", "", &o);
    expect_failure(c, IOSAGE_E_IO, IOSAGE_LLM_HTTP, "HTTP 500: fake internal error", &res);
    assert_int_equal(res.attempts, 3);
    assert_int_equal(res.http_status, 500);
    assert_true(res.elapsed_s >= 0.15 && res.elapsed_s < 2); /* 0.05 + 0.1 */
    json_t *reqs = requests_for("error500");
    assert_int_equal(json_array_size(reqs), 3);
    json_decref(reqs);
    iosage_llm_free(c);
    /* the message says how it ended */
    c = open_at("openai:m", "OPENAI_BASE_URL", "error500~b", "/v1", &o);
    expect_failure(c, IOSAGE_E_IO, IOSAGE_LLM_HTTP, "(after 3 attempts in", &res);
    iosage_llm_free(c);
}

static void test_4xx_not_retried(void **state)
{
    (void)state;
    iosage_llm_options o = fast_options();
    iosage_llm_result res;
    iosage_llm_client *c = open_at("ollama:m", "OLLAMA_HOST", "badrequest", "", &o);
    expect_failure(c, IOSAGE_E_IO, IOSAGE_LLM_HTTP, "HTTP 400: model not found", &res);
    assert_int_equal(res.attempts, 1);
    assert_int_equal(res.http_status, 400);
    iosage_llm_free(c);
    /* a Retry-After beyond the cap ends the retries at once */
    c = open_at("openai:m", "OPENAI_BASE_URL", "retrylong", "/v1", &o);
    expect_failure(c, IOSAGE_E_IO, IOSAGE_LLM_HTTP,
                   "the server asks to retry after 3600 s, more than the 30 s cap", &res);
    assert_int_equal(res.attempts, 1);
    assert_true(res.elapsed_s < 1);
    iosage_llm_free(c);
}

static void test_slow_times_out(void **state)
{
    (void)state;
    iosage_llm_options o = fast_options();
    o.timeout_s = 0.5;
    o.max_attempts = 2;
    iosage_llm_result res;
    iosage_llm_client *c = open_at("openai:m", "OPENAI_BASE_URL", "slow", "/v1", &o);
    expect_failure(c, IOSAGE_E_IO, IOSAGE_LLM_TIMEOUT, "no reply within 0.5 s", &res);
    assert_int_equal(res.attempts, 2);
    assert_true(res.elapsed_s >= 1.0 && res.elapsed_s < 2.0);
    iosage_llm_free(c);
    /* the overall budget bounds the call whatever the per-request timeout */
    o.timeout_s = 5;
    o.max_attempts = 4;
    o.deadline_s = 0.7;
    c = open_at("ollama:m", "OLLAMA_HOST", "slow~d", "", &o);
    expect_failure(c, IOSAGE_E_IO, IOSAGE_LLM_TIMEOUT, "no time left within the 0.7 s budget", &res);
    assert_int_equal(res.attempts, 1);
    assert_true(res.elapsed_s >= 0.65 && res.elapsed_s < 1.5);
    iosage_llm_free(c);
}

static void test_connect_refused(void **state)
{
    (void)state;
    clear_env();
    setenv("IOSAGE_LLM_BASE_URL", "http://127.0.0.1:1/v1", 1);
    iosage_llm_options o = fast_options();
    o.max_attempts = 2;
    iosage_llm_client *c = open_ok("vllm:m", &o);
    iosage_llm_result res;
    expect_failure(c, IOSAGE_E_IO, IOSAGE_LLM_CONNECT, "vllm at http://127.0.0.1:1: connection failed", &res);
    assert_int_equal(res.attempts, 2);
    assert_int_equal(res.http_status, 0);
    iosage_llm_free(c);
}

static void test_key_redacted(void **state)
{
    (void)state;
    iosage_llm_options o = fast_options();
    iosage_llm_result res;
    /* the server repeats the key in its 401 message */
    iosage_llm_client *c = open_at("openai:m", "OPENAI_BASE_URL", "echokey", "/v1", &o);
    expect_failure(c, IOSAGE_E_IO, IOSAGE_LLM_HTTP,
                   "HTTP 401: Incorrect API key provided: [redacted]. See your account.", &res);
    assert_int_equal(res.attempts, 1);
    iosage_llm_free(c);
    c = open_at("anthropic:m", "ANTHROPIC_BASE_URL", "echokey", "", &o);
    expect_failure(c, IOSAGE_E_IO, IOSAGE_LLM_HTTP, "[redacted]", &res);
    iosage_llm_free(c);
    /* the request body never holds the key */
    c = open_at("anthropic:m", "ANTHROPIC_BASE_URL", "good", "", &o);
    char *body = NULL;
    iosage_error err;
    assert_int_equal(iosage_llm_request_body(c, SYSTEM_TEXT, USER_TEXT, &body, &err), IOSAGE_OK);
    assert_no_key(body);
    free(body);
    iosage_llm_free(c);
}

static void test_reply_size_cap(void **state)
{
    (void)state;
    iosage_llm_options o = fast_options();
    o.max_reply_bytes = 65536;
    iosage_llm_result res;
    iosage_llm_client *c = open_at("openai:m", "OPENAI_BASE_URL", "huge", "/v1", &o);
    expect_failure(c, IOSAGE_E_LIMIT, IOSAGE_LLM_TOO_LARGE,
                   "the reply is larger than 65536 bytes", &res);
    assert_int_equal(res.attempts, 1);
    iosage_llm_free(c);
}

/* One thread's call on a shared client. */
struct thread_call {
    const iosage_llm_client *c;
    iosage_status st;
    iosage_llm_result res;
};

static void *call_thread(void *arg)
{
    struct thread_call *t = arg;
    iosage_error err;
    t->st = iosage_llm_chat(t->c, SYSTEM_TEXT, USER_TEXT, &t->res, &err);
    return NULL;
}

static void test_threads_share_client(void **state)
{
    (void)state;
    iosage_llm_options o = fast_options();
    iosage_llm_client *c = open_at("anthropic:m", "ANTHROPIC_BASE_URL", "good~threads", "", &o);
    struct thread_call calls[4];
    pthread_t tid[4];
    for (int i = 0; i < 4; i++) {
        calls[i].c = c;
        assert_int_equal(pthread_create(&tid[i], NULL, call_thread, &calls[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(tid[i], NULL);
        assert_int_equal(calls[i].st, IOSAGE_OK);
        assert_string_equal(calls[i].res.text, GOOD_TEXT);
        iosage_llm_result_clear(&calls[i].res);
    }
    json_t *reqs = requests_for("good~threads");
    assert_int_equal(json_array_size(reqs), 4);
    json_decref(reqs);
    iosage_llm_free(c);
}

/* --- pieces without a server ------------------------------------------ */

static void test_request_body_options(void **state)
{
    (void)state;
    clear_env();
    setenv("ANTHROPIC_API_KEY", TEST_KEY, 1);
    iosage_llm_options o;
    iosage_llm_options_init(&o);
    o.temperature = -1; /* do not send */
    o.max_tokens = 0;   /* anthropic requires one: its default */
    o.json_mode = 0;
    iosage_llm_client *c = open_ok("anthropic:m", &o);
    char *body = NULL;
    iosage_error err;
    assert_int_equal(iosage_llm_request_body(c, "", "hi", &body, &err), IOSAGE_OK);
    assert_string_equal(body, "{\"model\":\"m\",\"max_tokens\":4096,"
                              "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
    free(body);
    iosage_llm_free(c);
    c = open_ok("vllm:m", &o);
    assert_int_equal(iosage_llm_request_body(c, "sys", "hi", &body, &err), IOSAGE_OK);
    assert_string_equal(body, "{\"model\":\"m\",\"messages\":[{\"role\":\"system\","
                              "\"content\":\"sys\"},{\"role\":\"user\",\"content\":"
                              "\"hi\"}],\"stream\":false}");
    free(body);
    iosage_llm_free(c);
    clear_env();
}

/* ios_llm_redact of text with key into a buffer of size bytes. */
static void assert_redacts(const char *text, const char *key, size_t size,
                           const char *want)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    ios_llm_redact(buf, size, key);
    assert_string_equal(buf, want);
}

static void test_redact(void **state)
{
    (void)state;
    assert_redacts("Incorrect API key provided: sk-proj-ab12****************wxyz.",
                   NULL, 256, "Incorrect API key provided: [redacted].");
    assert_redacts("key=" TEST_KEY "&x=1\nnext", TEST_KEY, 256, "key=[redacted]&x=1 next");
    assert_redacts("partial 0123456789abcd here", TEST_KEY, 256, "partial [redacted] here");
    assert_redacts("token abcdefghijklmnopqrstuvwxyz0123456789 end", NULL, 256,
                   "token [redacted] end");
    assert_redacts("model meta-llama/Meta-Llama-3.1-8B-Instruct not found", "mykey", 256,
                   "model meta-llama/Meta-Llama-3.1-8B-Instruct not found");
    assert_redacts("a sk-x b", NULL, 8, "a [reda"); /* cut to the buffer */
}

static void test_json_span(void **state)
{
    (void)state;
    size_t off = 99, len = 99;
    const char *fenced = "Here it is:\n```json\n{\"a\": {\"b\": \"}{\"}}\n```\n";
    assert_int_equal(iosage_llm_json_span(fenced, &off, &len), 1);
    assert_int_equal(off, 20);
    assert_int_equal(len, strlen("{\"a\": {\"b\": \"}{\"}}"));
    const char *prose = "Use {braces} like {\"x\": 1} here";
    assert_int_equal(iosage_llm_json_span(prose, &off, &len), 1);
    assert_int_equal(off, 18);
    assert_int_equal(len, 8);
    assert_int_equal(iosage_llm_json_span("no object", &off, &len), 0);
    assert_int_equal(iosage_llm_json_span("{\"cut\": ", &off, &len), 0);
    assert_int_equal(iosage_llm_json_span(NULL, &off, &len), 0);
    /* a brace never closed, or one inside quotes in prose, is skipped */
    const char *unclosed = "{unclosed {\"changes\": []}";
    assert_int_equal(iosage_llm_json_span(unclosed, &off, &len), 1);
    assert_int_equal(off, 10);
    assert_int_equal(len, strlen("{\"changes\": []}"));
    const char *quoted = "x \"{\" {\"changes\": []}";
    assert_int_equal(iosage_llm_json_span(quoted, &off, &len), 1);
    assert_int_equal(off, 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_errors),
        cmocka_unit_test(test_base_urls),
        cmocka_unit_test(test_missing_key),
        cmocka_unit_test(test_options_env),
        cmocka_unit_test(test_openai_good),
        cmocka_unit_test(test_compatible_servers),
        cmocka_unit_test(test_ollama_good),
        cmocka_unit_test(test_anthropic_good),
        cmocka_unit_test(test_truncated_and_wrongpattern),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_retry_after_429),
        cmocka_unit_test(test_500_gives_up),
        cmocka_unit_test(test_4xx_not_retried),
        cmocka_unit_test(test_slow_times_out),
        cmocka_unit_test(test_connect_refused),
        cmocka_unit_test(test_key_redacted),
        cmocka_unit_test(test_reply_size_cap),
        cmocka_unit_test(test_threads_share_client),
        cmocka_unit_test(test_request_body_options),
        cmocka_unit_test(test_redact),
        cmocka_unit_test(test_json_span),
    };
    if (access("/usr/bin/python3", X_OK) != 0) {
        fputs("test_llm: /usr/bin/python3 not found: skipped\n", stderr);
        return 77;
    }
    return cmocka_run_group_tests(tests, start_server, stop_server);
}
