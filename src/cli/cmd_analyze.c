/*
 * src/cli/cmd_analyze.c - `iosage analyze LOG`: what a user runs.
 *
 *   read the log -> per-file table and features -> the model's verdict
 *   -> the report document with offline advice (src/advise)
 *   -> optionally an LLM rewrites the changes (src/llm), validated
 *   -> one view of the document (src/report) on stdout or in -o OUT.
 *
 * The classifier decides which patterns are there; the LLM only writes the
 * changes for them, and any failure of the LLM step keeps the offline
 * advice and says why (advice.fallback, and one line on stderr). A healthy
 * job sends nothing to an LLM and gets no change.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "iosage/advise.h"
#include "iosage/darshan.h"
#include "iosage/features.h"
#include "iosage/llm.h"
#include "iosage/model.h"
#include "iosage/report.h"

#define MAX_CONFIGS 32

static void analyze_help(void)
{
    fputs("Usage: iosage analyze [OPTIONS] LOG\n"
          "\n"
          "Find the I/O bottleneck patterns of one Darshan LOG, show the evidence\n"
          "and rank the changes that address them. The trained models decide which\n"
          "patterns are there; the advice names the setting to change (from the\n"
          "pattern cards, the evidence and your --config files, or written by an\n"
          "LLM with --llm). A healthy job gets no change.\n"
          "\n"
          "  --config FILE       a file of the job (job script, ROMIO hints,\n"
          "                      namelist.input, ADIOS2 XML, ...); repeatable\n"
          "  --llm PROVIDER:MODEL  let an LLM write the changes: openai, vllm,\n"
          "                      llamacpp, lmstudio, ollama or anthropic\n"
          "                      (docs/llm.md; keys and URLs from the environment)\n"
          "  --save-prompt FILE  write the exact prompt (with or without --llm)\n"
          "  --format FMT        text (default), md, json or html\n"
          "  -o, --output FILE   write the report to FILE instead of stdout\n"
          "  --model DIR         the model bundle (default: the one built in)\n"
          "  -C, --color         colour the text view even when not on a terminal\n"
          "  -M, --no-color      never colour (NO_COLOR in the environment also)\n"
          "  --fail-on           exit 1 when any pattern is detected\n"
          "  -q, --quiet         no notes on stderr\n"
          "  -h, --help          show this help\n"
          "\n"
          "Exit status: 0 done, 1 a pattern was detected and --fail-on was given,\n"
          "2 usage error, 3 the log, a config file or the bundle could not be\n"
          "read, 4 internal error.\n",
          stdout);
}

struct analyze_args {
    const char *log;
    const char *configs[MAX_CONFIGS];
    int n_configs;
    const char *llm;
    const char *save_prompt;
    const char *output;
    const char *model_dir;
    enum iosage_report_format format;
    int color;   /* 1 force, 0 never, -1 decide (TTY and no NO_COLOR) */
    int fail_on;
    int quiet;
};

/* Options that take a value; returns the value or NULL (usage printed). */
static const char *option_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        cli_usage_error("analyze", "analyze: %s needs a value", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

static int parse_value_option(const char *s, const char *val,
                              struct analyze_args *a)
{
    if (strcmp(s, "--config") == 0) {
        if (a->n_configs == MAX_CONFIGS)
            return cli_usage_error("analyze", "analyze: at most %d --config "
                                   "files", MAX_CONFIGS);
        a->configs[a->n_configs++] = val;
    } else if (strcmp(s, "--llm") == 0) {
        a->llm = val;
    } else if (strcmp(s, "--save-prompt") == 0) {
        a->save_prompt = val;
    } else if (strcmp(s, "-o") == 0 || strcmp(s, "--output") == 0) {
        a->output = val;
    } else if (strcmp(s, "--model") == 0) {
        a->model_dir = val;
    } else if (iosage_report_format_parse(val, &a->format) != 0) {
        return cli_usage_error("analyze", "analyze: --format takes text, md, "
                               "json or html, got '%s'", val);
    }
    return CLI_OK;
}

static int is_value_option(const char *s)
{
    static const char *const names[] = {"--config", "--llm", "--save-prompt",
                                        "-o", "--output", "--model",
                                        "--format", NULL};
    for (int i = 0; names[i]; i++)
        if (strcmp(s, names[i]) == 0)
            return 1;
    return 0;
}

static int parse_analyze_args(int argc, char **argv, struct analyze_args *a,
                              int *done)
{
    *done = 0;
    a->format = IOSAGE_REPORT_TEXT;
    a->color = -1;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (cli_is_help(s)) {
            analyze_help();
            *done = 1;
            return CLI_OK;
        } else if (is_value_option(s)) {
            const char *val = option_value(argc, argv, &i);
            if (!val)
                return CLI_USAGE;
            int rc = parse_value_option(s, val, a);
            if (rc != CLI_OK)
                return rc;
        } else if (strcmp(s, "-C") == 0 || strcmp(s, "--color") == 0) {
            a->color = 1;
        } else if (strcmp(s, "-M") == 0 || strcmp(s, "--no-color") == 0) {
            a->color = 0;
        } else if (strcmp(s, "--fail-on") == 0) {
            a->fail_on = 1;
        } else if (strcmp(s, "-q") == 0 || strcmp(s, "--quiet") == 0) {
            a->quiet = 1;
        } else if (s[0] == '-' && s[1]) {
            return cli_usage_error("analyze", "analyze: unknown option '%s'", s);
        } else if (a->log) {
            return cli_usage_error("analyze", "analyze: one LOG at a time (got "
                                   "'%s' and '%s'; `iosage batch` takes many)",
                                   a->log, s);
        } else {
            a->log = s;
        }
    }
    if (!a->log)
        return cli_usage_error("analyze", "analyze: no LOG given");
    return CLI_OK;
}

/* Everything one analysis holds; analysis_free releases it all. */
struct analysis {
    struct iosage_config *configs[MAX_CONFIGS];
    int n_configs;
    iosage_log *log;
    iosage_file_table *table;
    float x[IOSAGE_NUM_FEATURES];
    iosage_model *model;
    struct iosage_detection det;
    iosage_cards *cards;
    json_t *doc;
};

static void analysis_free(struct analysis *an)
{
    for (int i = 0; i < an->n_configs; i++)
        iosage_config_free(an->configs[i]);
    iosage_log_free(an->log);
    iosage_file_table_free(an->table);
    iosage_model_free(an->model);
    iosage_cards_free(an->cards);
    json_decref(an->doc);
}

static void note(const struct analyze_args *a, const char *fmt, const char *s)
{
    if (!a->quiet) {
        fputs("iosage: ", stderr);
        fprintf(stderr, fmt, s);
        fputc('\n', stderr);
    }
}

/* The cards of the bundle: DIR/cards.json, or the embedded cards.json.
 * Missing cards are not an error: the report says so. */
static int load_cards(const struct analyze_args *a, struct analysis *an)
{
    iosage_error err;
    iosage_status st = IOSAGE_OK;
    if (a->model_dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/cards.json", a->model_dir);
        if (access(path, F_OK) == 0)
            st = iosage_cards_load(path, &an->cards, &err);
    } else {
        size_t size;
        const unsigned char *data = cli_embedded_file("cards.json", &size);
        if (data)
            st = iosage_cards_load_mem(data, size, "embedded cards.json",
                                       &an->cards, &err);
    }
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    return CLI_OK;
}

/* Read the inputs, decide, and build the document with offline advice. */
static int build_document(const struct analyze_args *a, struct analysis *an)
{
    iosage_error err;
    iosage_status st = IOSAGE_OK;
    for (int i = 0; i < a->n_configs && st == IOSAGE_OK; i++) {
        st = iosage_config_read(a->configs[i], 0, &an->configs[i], &err);
        an->n_configs += st == IOSAGE_OK;
    }
    if (st == IOSAGE_OK)
        st = iosage_log_load(a->log, IOSAGE_READ_NO_TRACES, &an->log, &err);
    if (st == IOSAGE_OK)
        st = iosage_file_table_build(an->log, &an->table, &err);
    if (st == IOSAGE_OK)
        st = iosage_features_from_table(an->log, an->table, an->x, &err);
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    int rc = cli_open_model(a->model_dir, 1, &an->model);
    if (rc == CLI_OK)
        rc = load_cards(a, an);
    if (rc != CLI_OK)
        return rc;
    st = iosage_model_detect(an->model, an->x, 1, &an->det, &err);
    if (st == IOSAGE_OK) {
        struct iosage_advise_input in = {
            .path = a->log, .log = an->log, .table = an->table,
            .features = an->x, .model = an->model, .det = &an->det,
            .cards = an->cards,
            .configs = (const struct iosage_config *const *)an->configs,
            .n_configs = (size_t)an->n_configs};
        an->doc = iosage_report_build(&in, &err);
        if (!an->doc)
            st = err.code != IOSAGE_OK ? err.code : IOSAGE_E_INTERNAL;
    }
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    return CLI_OK;
}

/* Write len bytes to path through a temporary file and a rename, so that a
 * failure leaves no partial file. */
static int write_file_atomic(const char *path, const char *data, size_t len)
{
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >=
        (int)sizeof tmp) {
        fprintf(stderr, "iosage: %s: path too long\n", path);
        return CLI_USAGE;
    }
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        fprintf(stderr, "iosage: %s: cannot write: %s\n", path, strerror(errno));
        return CLI_BADINPUT;
    }
    int ok = fwrite(data, 1, len, f) == len;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        fprintf(stderr, "iosage: %s: cannot write: %s\n", path, strerror(e));
        return CLI_BADINPUT;
    }
    return CLI_OK;
}

/* Record why the LLM's changes were not used: advice.fallback, a warning in
 * the document, a note on stderr. */
static void set_fallback(const struct analyze_args *a, json_t *doc,
                         const char *why)
{
    char msg[1200];
    snprintf(msg, sizeof msg, "%s; offline advice used instead", why);
    json_t *advice = json_object_get(doc, "advice");
    if (json_is_object(advice))
        json_object_set_new(advice, "fallback", json_string(msg));
    json_t *warnings = json_object_get(doc, "warnings");
    if (json_is_array(warnings))
        json_array_append_new(warnings, json_string(msg));
    note(a, "%s", msg);
}

/* Send the prompt to the LLM and take its changes when they validate. */
static void ask_llm(const struct analyze_args *a, json_t *doc,
                    const char *prompt, size_t user_offset)
{
    iosage_error err;
    char line[900], why[1000];
    iosage_llm_options opt;
    iosage_llm_options_init(&opt);
    iosage_llm_client *c = NULL;
    iosage_status st = iosage_llm_options_env(&opt, &err);
    if (st == IOSAGE_OK)
        st = iosage_llm_open(a->llm, &opt, &c, &err);
    if (st != IOSAGE_OK) {
        snprintf(why, sizeof why, "LLM %s not used: %s", a->llm,
                 iosage_error_line(&err, line, sizeof line));
        set_fallback(a, doc, why);
        return;
    }
    /* "SYSTEM:\n" system text "USER:\n" user text: send the two texts */
    size_t sys_start = 0, sys_end = user_offset;
    if (strncmp(prompt, "SYSTEM:\n", 8) == 0)
        sys_start = 8;
    if (sys_end >= sys_start + 6 &&
        strncmp(prompt + sys_end - 6, "USER:\n", 6) == 0)
        sys_end -= 6;
    char *system = strndup(prompt + sys_start, sys_end - sys_start);
    iosage_llm_result res;
    memset(&res, 0, sizeof res);
    st = system ? iosage_llm_chat(c, system, prompt + user_offset, &res, &err)
                : IOSAGE_E_NOMEM;
    if (st == IOSAGE_OK)
        st = iosage_advise_apply_reply(doc, res.text, iosage_llm_provider(c),
                                       iosage_llm_model(c), &err);
    if (st != IOSAGE_OK) {
        if (!system)
            snprintf(why, sizeof why, "LLM %s not used: out of memory", a->llm);
        else
            snprintf(why, sizeof why, "LLM %s failed: %s", a->llm,
                     iosage_error_line(&err, line, sizeof line));
        set_fallback(a, doc, why);
    }
    iosage_llm_result_clear(&res);
    free(system);
    iosage_llm_free(c);
}

/* The LLM step and --save-prompt. A healthy job has no prompt. */
static int llm_step(const struct analyze_args *a, struct analysis *an)
{
    if (!a->llm && !a->save_prompt)
        return CLI_OK;
    if (an->det.healthy) {
        note(a, "%s: no pattern detected: nothing to ask an LLM, no prompt "
             "written", a->log);
        return CLI_OK;
    }
    iosage_error err;
    size_t user_offset = 0;
    char *prompt = iosage_advise_prompt(
        an->doc, (const struct iosage_config *const *)an->configs,
        (size_t)an->n_configs, &user_offset, &err);
    if (!prompt) {
        cli_print_error(&err);
        return cli_exit_for(err.code);
    }
    int rc = CLI_OK;
    if (a->save_prompt)
        rc = write_file_atomic(a->save_prompt, prompt, strlen(prompt));
    if (rc == CLI_OK && a->llm)
        ask_llm(a, an->doc, prompt, user_offset);
    free(prompt);
    return rc;
}

static int want_color(const struct analyze_args *a)
{
    if (a->color >= 0)
        return a->color;
    if (a->output || a->format != IOSAGE_REPORT_TEXT)
        return 0;
    const char *nc = getenv("NO_COLOR");
    return isatty(STDOUT_FILENO) && !(nc && nc[0]);
}

static int render(const struct analyze_args *a, const json_t *doc)
{
    struct iosage_report_options o = {.color = want_color(a)};
    iosage_error err;
    char *out = NULL;
    size_t len = 0;
    iosage_status st = iosage_report_render(doc, a->format, &o, &out, &len, &err);
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    int rc = CLI_OK;
    if (a->output) {
        rc = write_file_atomic(a->output, out, len);
    } else if (fwrite(out, 1, len, stdout) != len || fflush(stdout) != 0) {
        fprintf(stderr, "iosage: cannot write the report to stdout: %s\n",
                strerror(errno));
        rc = CLI_INTERNAL;
    }
    free(out);
    return rc;
}

int cmd_analyze(int argc, char **argv)
{
    struct analyze_args a;
    memset(&a, 0, sizeof a);
    int done, rc = parse_analyze_args(argc, argv, &a, &done);
    if (rc != CLI_OK || done)
        return rc;
    struct analysis an;
    memset(&an, 0, sizeof an);
    rc = build_document(&a, &an);
    if (rc == CLI_OK)
        rc = llm_step(&a, &an);
    if (rc == CLI_OK)
        rc = render(&a, an.doc);
    if (rc == CLI_OK && a.fail_on && !an.det.healthy)
        rc = CLI_FOUND;
    analysis_free(&an);
    return rc;
}
