/*
 * llm_probe.c - send one prompt through the LLM transport from the shell.
 *
 *   llm_probe SPEC USER_FILE [SYSTEM_FILE]
 *
 * Options come from the environment (iosage_llm_options_env), the base URL
 * and key too. Prints the assistant's text on stdout, then one summary line
 * on stderr ("attempts=2 status=200 elapsed=1.03 prompt_tokens=11
 * completion_tokens=7 truncated=0 failure=0"); on failure also the error
 * line. Exit status 0 on a reply, 1 on a failed call, 2 on bad usage.
 * Used by tests/llm/run_script.sh, and by hand against real servers.
 */
#include <stdio.h>
#include <stdlib.h>

#include "darshan/internal.h"
#include "iosage/llm.h"

/* The whole file at path, malloc'd and NUL-terminated, or NULL. */
static char *slurp(const char *path)
{
    uint8_t *buf;
    size_t len;
    if (ios_read_file(path, 0, &buf, &len, NULL) != IOSAGE_OK)
        return NULL;
    return (char *)buf;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fputs("usage: llm_probe SPEC USER_FILE [SYSTEM_FILE]\n", stderr);
        return 2;
    }
    char *user = slurp(argv[2]);
    char *system = argc == 4 ? slurp(argv[3]) : NULL;
    if (!user || (argc == 4 && !system)) {
        fprintf(stderr, "llm_probe: cannot read %s\n", !user ? argv[2] : argv[3]);
        free(user);
        free(system);
        return 2;
    }
    iosage_llm_options opt;
    iosage_llm_options_init(&opt);
    iosage_llm_client *c = NULL;
    iosage_llm_result res = {0};
    iosage_error err;
    char line[512];
    int rc = 2;
    if (iosage_llm_options_env(&opt, &err) != IOSAGE_OK ||
        iosage_llm_open(argv[1], &opt, &c, &err) != IOSAGE_OK) {
        fprintf(stderr, "llm_probe: %s\n", iosage_error_line(&err, line, sizeof line));
    } else {
        rc = iosage_llm_chat(c, system, user, &res, &err) == IOSAGE_OK ? 0 : 1;
        if (rc == 0)
            fwrite(res.text, 1, res.text_len, stdout);
        fprintf(stderr, "attempts=%d status=%ld elapsed=%.2f prompt_tokens=%lld "
                "completion_tokens=%lld truncated=%d failure=%d\n",
                res.attempts, res.http_status, res.elapsed_s, res.prompt_tokens,
                res.completion_tokens, res.truncated, (int)res.failure);
        if (rc != 0)
            fprintf(stderr, "llm_probe: %s\n", iosage_error_line(&err, line, sizeof line));
    }
    iosage_llm_result_clear(&res);
    iosage_llm_free(c);
    free(user);
    free(system);
    return rc;
}
