/*
 * iosage/llm.h - the LLM transport: send one (system, user) prompt pair to a
 * chat model over HTTP(S) and get the assistant's text back.
 *
 * Providers (spec "PROVIDER:MODEL", split at the first ':' so that Ollama
 * models such as "llama3.1:8b" keep their tag):
 *   openai     OpenAI-compatible chat completions, POST {base}/chat/completions
 *   vllm       the same wire format, base http://localhost:8000/v1, no key
 *   llamacpp   the same wire format, base http://localhost:8080/v1, no key
 *   lmstudio   the same wire format, base http://localhost:1234/v1, no key
 *   ollama     Ollama's own API, POST {base}/api/chat
 *   anthropic  Anthropic messages, POST {base}/v1/messages
 * Base URLs and keys come from the environment only (docs/llm.md lists the
 * variables); a key is never printed, logged, or put in an error message.
 *
 * This module only moves text. Building the prompt and validating the JSON
 * the model answers with belong to src/advise.
 *
 * Ownership: iosage_llm_open() returns a client the caller frees with
 * iosage_llm_free() (accepts NULL), which also wipes the key from memory.
 * iosage_llm_chat() fills a result whose text the caller releases with
 * iosage_llm_result_clear(). A client is read-only during a call, so
 * several threads may call iosage_llm_chat() on one client at once.
 *
 * Errors: the library never prints. Failures fill struct iosage_error with
 * where = "llm" and one line such as
 *   openai at http://127.0.0.1:8000: HTTP 500 after 4 attempts in 3.1 s: <server text>
 * and iosage_llm_result.failure says which kind of failure it was.
 */
#ifndef IOSAGE_LLM_H
#define IOSAGE_LLM_H

#include <stddef.h>

#include "iosage/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What went wrong, for callers that react differently (the numbers are
 * stable: never renumber). */
typedef enum iosage_llm_failure {
    IOSAGE_LLM_OK = 0,
    IOSAGE_LLM_CONFIG = 1,    /* bad spec, bad env value, missing key: nothing sent */
    IOSAGE_LLM_CONNECT = 2,   /* DNS, connect or TLS failure */
    IOSAGE_LLM_TIMEOUT = 3,   /* a request or the whole budget ran out */
    IOSAGE_LLM_HTTP = 4,      /* the server answered with a non-2xx status */
    IOSAGE_LLM_REPLY = 5,     /* 2xx, but no assistant text in the body */
    IOSAGE_LLM_TOO_LARGE = 6, /* the reply exceeded max_reply_bytes */
    IOSAGE_LLM_INTERNAL = 7   /* out of memory, libcurl setup failed */
} iosage_llm_failure;

/* Tuning of one client. Fill with iosage_llm_options_init(), then change
 * fields or call iosage_llm_options_env(). */
typedef struct iosage_llm_options {
    double timeout_s;         /* one request, connect to last byte (120) */
    double connect_timeout_s; /* TCP + TLS handshake (10) */
    double deadline_s;        /* all attempts and waits together (300) */
    int max_attempts;         /* requests in all, >= 1 (4) */
    double backoff_base_s;    /* wait after the first failure, doubled each
                                 time (1) */
    double backoff_max_s;     /* cap on any wait; a Retry-After above it ends
                                 the retries (30) */
    double temperature;       /* sent as is (0); < 0 means "do not send" */
    int max_tokens;           /* reply length cap (4096); 0 means "do not
                                 send" (anthropic requires one: 4096 then) */
    int context_tokens;       /* Ollama num_ctx (8192); 0 = server default */
    int json_mode;            /* ask the server for a JSON object (1) */
    size_t max_reply_bytes;   /* cap on the HTTP body read (4 MiB) */
} iosage_llm_options;

/* Result of one iosage_llm_chat() call. */
typedef struct iosage_llm_result {
    char *text;           /* the assistant's text, NUL-terminated, malloc'd;
                             NULL on failure. Owner: the caller. */
    size_t text_len;      /* strlen(text) unless the model sent NUL bytes */
    long http_status;     /* status of the last response, 0 when none */
    int attempts;         /* requests sent (0 when nothing was sent) */
    double elapsed_s;     /* wall time of the call, waits included */
    long long prompt_tokens;     /* as reported by the provider, -1 if not */
    long long completion_tokens; /* as reported by the provider, -1 if not */
    int truncated;        /* 1 when the model stopped at max_tokens */
    iosage_llm_failure failure;
} iosage_llm_result;

typedef struct iosage_llm_client iosage_llm_client;

/* Defaults (the values in parentheses above). Never fails. */
IOSAGE_API void iosage_llm_options_init(iosage_llm_options *opt);

/* Apply the environment: IOSAGE_LLM_TIMEOUT (seconds per request),
 * IOSAGE_LLM_MAX_ATTEMPTS, IOSAGE_LLM_MAX_TOKENS, IOSAGE_LLM_CONTEXT,
 * IOSAGE_LLM_TEMPERATURE (0 to 2, or "none": not sent).
 * Unset or empty variables leave the field alone. A value that is not a
 * number in range gives IOSAGE_E_USAGE naming the variable, and leaves
 * opt unchanged. */
IOSAGE_API iosage_status iosage_llm_options_env(iosage_llm_options *opt,
                                                iosage_error *err);

/* Parse spec ("ollama:llama3.1:8b"), resolve the base URL and the key from
 * the environment, and check them: an unknown provider, an empty model, a
 * base URL that is not http(s), or a missing key where one is required
 * (openai and anthropic at their public hosts) give IOSAGE_E_USAGE before
 * anything is sent. opt may be NULL for the defaults. On success *out is a
 * new client owned by the caller; on failure *out is NULL. */
IOSAGE_API iosage_status iosage_llm_open(const char *spec,
                                         const iosage_llm_options *opt,
                                         iosage_llm_client **out,
                                         iosage_error *err);

/* Wipe the key and free the client. Accepts NULL. */
IOSAGE_API void iosage_llm_free(iosage_llm_client *c);

/* The provider name as given in the spec ("ollama"), the model
 * ("llama3.1:8b") and the endpoint without user info, path or query
 * ("http://localhost:11434"): safe to print. Valid until iosage_llm_free. */
IOSAGE_API const char *iosage_llm_provider(const iosage_llm_client *c);
IOSAGE_API const char *iosage_llm_model(const iosage_llm_client *c);
IOSAGE_API const char *iosage_llm_endpoint(const iosage_llm_client *c);

/* The exact JSON body iosage_llm_chat() would POST for this prompt (it never
 * holds the key: keys travel in headers). *body is malloc'd, owned by the
 * caller. For audit files such as --save-prompt. */
IOSAGE_API iosage_status iosage_llm_request_body(const iosage_llm_client *c,
                                                 const char *system,
                                                 const char *user,
                                                 char **body,
                                                 iosage_error *err);

/* Send the prompt and wait for the reply, retrying 408, 429, 5xx and
 * connection failures and timeouts with exponential back-off (honouring
 * Retry-After) within the options' bounds. Other 4xx and 2xx replies without
 * assistant text are not retried. res is always filled (text NULL on
 * failure). Returns IOSAGE_OK, IOSAGE_E_IO (connect, timeout, HTTP status),
 * IOSAGE_E_CORRUPT (a 2xx body that is not the provider's format),
 * IOSAGE_E_LIMIT (reply too large), IOSAGE_E_USAGE or IOSAGE_E_NOMEM. */
IOSAGE_API iosage_status iosage_llm_chat(const iosage_llm_client *c,
                                         const char *system, const char *user,
                                         iosage_llm_result *res,
                                         iosage_error *err);

/* Free res->text and zero res. Accepts NULL. */
IOSAGE_API void iosage_llm_result_clear(iosage_llm_result *res);

/* Locate the JSON object in a model's text, skipping Markdown fences and
 * prose around it: the first span from a '{' to its matching '}' (strings
 * and escapes respected) that parses as a JSON object. Returns 1 and sets
 * off and len when found, else 0. Says nothing about the object's schema. */
IOSAGE_API int iosage_llm_json_span(const char *text, size_t *off,
                                    size_t *len);

#ifdef __cplusplus
}
#endif
#endif
