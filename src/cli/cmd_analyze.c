/*
 * src/cli/cmd_analyze.c - `iosage analyze LOG`: the command line around
 * iosage_analyze (iosage/analyze.h), which reads the log, decides, builds
 * the report document with offline advice and runs the LLM step. Here:
 * the options, the model bundle and its cards, the notes on stderr, the
 * saved prompt and one view of the document (cli_write_report) on stdout
 * or in -o OUT.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "iosage/analyze.h"
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

enum {
    OPT_CONFIG = 1, OPT_LLM, OPT_SAVE_PROMPT, OPT_OUTPUT, OPT_MODEL,
    OPT_FORMAT, OPT_COLOR, OPT_NO_COLOR, OPT_FAIL_ON, OPT_QUIET
};

static const struct ios_option analyze_options[] = {
    {"--config", NULL, 1, OPT_CONFIG},
    {"--llm", NULL, 1, OPT_LLM},
    {"--save-prompt", NULL, 1, OPT_SAVE_PROMPT},
    {"--output", "-o", 1, OPT_OUTPUT},
    {"--model", NULL, 1, OPT_MODEL},
    {"--format", NULL, 1, OPT_FORMAT},
    {"--color", "-C", 0, OPT_COLOR},
    {"--no-color", "-M", 0, OPT_NO_COLOR},
    {"--fail-on", NULL, 0, OPT_FAIL_ON},
    {"--quiet", "-q", 0, OPT_QUIET},
    {0}};

/* One option into a; CLI_OK or a usage error. */
static int set_option(struct analyze_args *a, int id, const char *val)
{
    switch (id) {
    case OPT_CONFIG:
        if (a->n_configs == MAX_CONFIGS)
            return cli_usage_error("analyze", "analyze: at most %d --config "
                                   "files", MAX_CONFIGS);
        a->configs[a->n_configs++] = val;
        break;
    case OPT_LLM: a->llm = val; break;
    case OPT_SAVE_PROMPT: a->save_prompt = val; break;
    case OPT_OUTPUT: a->output = val; break;
    case OPT_MODEL: a->model_dir = val; break;
    case OPT_FORMAT:
        if (iosage_report_format_parse(val, &a->format) != 0)
            return cli_usage_error("analyze", "analyze: --format takes text, "
                                   "md, json or html, got '%s'", val);
        break;
    case OPT_COLOR: a->color = 1; break;
    case OPT_NO_COLOR: a->color = 0; break;
    case OPT_FAIL_ON: a->fail_on = 1; break;
    case OPT_QUIET: a->quiet = 1; break;
    }
    return CLI_OK;
}

static int parse_analyze_args(int argc, char **argv, struct analyze_args *a,
                              int *done)
{
    *done = 0;
    a->format = IOSAGE_REPORT_TEXT;
    a->color = -1;
    struct cli_args it =
        cli_args("analyze", argc, argv, analyze_options, analyze_help);
    int id, rc = CLI_OK;
    while (rc == CLI_OK && (id = cli_args_next(&it)) != CLI_ARG_END) {
        if (id == CLI_ARG_STOP)
            return cli_args_stop(&it, done);
        if (id > 0) {
            rc = set_option(a, id, it.value);
        } else if (a->log) {
            return cli_usage_error("analyze", "analyze: one LOG at a time (got "
                                   "'%s' and '%s'; `iosage batch` takes many)",
                                   a->log, it.value);
        } else {
            a->log = it.value;
        }
    }
    if (rc == CLI_OK && !a->log)
        return cli_usage_error("analyze", "analyze: no LOG given");
    return rc;
}

/* Run the analysis with the bundle; notes and the saved prompt. */
static int run(const struct analyze_args *a, const struct cli_bundle *b,
               iosage_analysis **an)
{
    struct iosage_analyze_options o = cli_report_options(b);
    o.config_paths = a->configs;
    o.n_configs = (size_t)a->n_configs;
    o.want_prompt = a->save_prompt != NULL;
    o.llm = a->llm;
    iosage_error err;
    iosage_status st = iosage_analyze(a->log, &o, an, &err);
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    if (!a->quiet && (a->llm || a->save_prompt) && (*an)->det.healthy)
        fprintf(stderr, "iosage: %s: no pattern detected: nothing to ask an "
                "LLM, no prompt written\n", a->log);
    if (!a->quiet && (*an)->fallback)
        fprintf(stderr, "iosage: %s\n", (*an)->fallback);
    if ((*an)->prompt)
        return cli_write_file_atomic(a->save_prompt, (*an)->prompt,
                                 strlen((*an)->prompt));
    return CLI_OK;
}

/* No output over an input: -o and --save-prompt against the log and the
 * config files, and against each other. CLI_OK or CLI_USAGE (printed). */
static int refuse_clashes(const struct analyze_args *a)
{
    const char *inputs[MAX_CONFIGS + 2];
    size_t n = 0;
    inputs[n++] = a->log;
    for (int i = 0; i < a->n_configs; i++)
        inputs[n++] = a->configs[i];
    int rc = cli_refuse_clash("analyze", "-o", a->output, 0, inputs, n);
    if (rc == CLI_OK)
        rc = cli_refuse_clash("analyze", "--save-prompt", a->save_prompt, 0,
                              inputs, n);
    if (rc == CLI_OK && a->output && a->save_prompt)
        rc = cli_refuse_clash("analyze", "--save-prompt", a->save_prompt, 0,
                              &a->output, 1);
    return rc;
}

int cmd_analyze(int argc, char **argv)
{
    struct analyze_args a;
    memset(&a, 0, sizeof a);
    int done, rc = parse_analyze_args(argc, argv, &a, &done);
    if (rc != CLI_OK || done)
        return rc;
    rc = refuse_clashes(&a);
    if (rc != CLI_OK)
        return rc;
    struct cli_bundle b;
    iosage_analysis *an = NULL;
    rc = cli_open_bundle(a.model_dir, &b);
    if (rc == CLI_OK)
        rc = run(&a, &b, &an);
    if (rc == CLI_OK)
        rc = cli_write_report(an->doc, a.format, a.color, a.output);
    if (rc == CLI_OK && a.fail_on && !an->det.healthy)
        rc = CLI_FOUND;
    iosage_analysis_free(an);
    cli_bundle_free(&b);
    return rc;
}
