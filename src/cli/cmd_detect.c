/*
 * src/cli/cmd_detect.c - `iosage detect [--model DIR] LOG...`: one JSON
 * line per log with the gate, every pattern's score and verdict, and the
 * top SHAP features of each detected pattern.
 *
 * The model is the bundle given with --model, else the one built into the
 * binary (models/default at build time). A log that cannot be read gives
 * {"file": ..., "error": ...} and the others still run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "iosage/analyze.h"
#include "iosage/darshan.h"
#include "iosage/model.h"

static void detect_help(void)
{
    fputs("Usage: iosage detect [--model DIR] [--no-shap] [--threads N] LOG...\n"
          "\n"
          "Decide which I/O bottleneck patterns each Darshan LOG has, and print\n"
          "one JSON line per log:\n"
          "  {\"file\": ..., \"healthy\": {\"score\": ..., \"detected\": ...},\n"
          "   \"patterns\": {\"<id>\": {\"score\": ..., \"detected\": ...,\n"
          "                           \"shap\": [{\"feature\", \"value\",\n"
          "                                     \"contribution\"}, ...]}, ...}}\n"
          "for every pattern. A pattern is detected only when the gate (some\n"
          "pattern or healthy) and the pattern's own model both clear their\n"
          "thresholds; the job is healthy when no pattern is detected, and\n"
          "healthy.score is the gate's probability of healthy. \"shap\" lists up\n"
          "to 5 features that moved a detected pattern's score most (TreeSHAP,\n"
          "in log-odds). A log that cannot be read gives {\"file\": ...,\n"
          "\"error\": ...}.\n"
          "\n"
          "  --model DIR   the model bundle (default: the one built into iosage)\n"
          "  --no-shap     leave out the SHAP lists (faster)\n"
          "  --threads N   XGBoost threads (default 1, 0: all cores)\n"
          "  -h, --help    show this help\n"
          "\n"
          "Exit status: 0 every log was read, 2 usage error, 3 a log or the\n"
          "bundle could not be read, 4 internal error.\n",
          stdout);
}

struct detect_args {
    const char *model_dir;
    int shap;
    int threads;
    int n_logs;
    char **logs;
};

enum { OPT_NO_SHAP = 1, OPT_MODEL, OPT_THREADS };

static const struct ios_option detect_options[] = {
    {"--no-shap", NULL, 0, OPT_NO_SHAP},
    {"--model", NULL, 1, OPT_MODEL},
    {"--threads", NULL, 1, OPT_THREADS},
    {0}};

static int parse_detect_args(int argc, char **argv, struct detect_args *a,
                             int *done)
{
    *done = 0;
    a->shap = 1;
    a->threads = 1;
    char **dst = argv + 1; /* logs are collected in place, at the front */
    struct cli_args it =
        cli_args("detect", argc, argv, detect_options, detect_help);
    int id;
    while ((id = cli_args_next(&it)) != CLI_ARG_END) {
        if (id == CLI_ARG_STOP)
            return cli_args_stop(&it, done);
        if (id == OPT_NO_SHAP) {
            a->shap = 0;
        } else if (id == OPT_MODEL) {
            a->model_dir = it.value;
        } else if (id == OPT_THREADS) {
            char *end;
            long v = strtol(it.value, &end, 10);
            if (end == it.value || *end || v < 0 || v > 4096)
                return cli_usage_error("detect", "detect: --threads takes a "
                                       "whole number, got '%s'", it.value);
            a->threads = (int)v;
        } else {
            *dst++ = (char *)it.value; /* an operand: one of argv's strings */
        }
    }
    a->logs = argv + 1;
    a->n_logs = (int)(dst - (argv + 1));
    if (a->n_logs == 0)
        return cli_usage_error("detect", "detect: no LOG given");
    return CLI_OK;
}

/* One log: its JSON line on stdout. Returns the status of reading it. */
static iosage_status detect_one(const iosage_model *m, const char *path,
                                int shap)
{
    /* features only: the trace and AutoPerf regions are left unread */
    struct iosage_analyze_options o = {
        .stage = IOSAGE_ANALYZE_FEATURES,
        .read_flags = IOSAGE_READ_NO_TRACES | IOSAGE_READ_IO_ONLY};
    iosage_error err;
    iosage_analysis *an = NULL;
    iosage_status st = iosage_analyze(path, &o, &an, &err);
    char *line = NULL;
    if (st == IOSAGE_OK) {
        line = iosage_model_detect_json(m, an->x, path, shap, &err);
        if (!line)
            st = err.code;
    }
    iosage_analysis_free(an);
    if (st != IOSAGE_OK) {
        char msg[800];
        iosage_error_line(&err, msg, sizeof msg);
        line = iosage_model_error_json(path, msg);
    }
    if (line)
        printf("%s\n", line);
    free(line);
    return st;
}

int cmd_detect(int argc, char **argv)
{
    struct detect_args a;
    memset(&a, 0, sizeof a);
    int done, rc = parse_detect_args(argc, argv, &a, &done);
    if (rc != CLI_OK || done)
        return rc;
    iosage_model *m = NULL;
    if (a.threads == 1)
        cli_one_openmp_thread();
    rc = cli_open_model(a.model_dir, a.threads, &m);
    if (rc != CLI_OK)
        return rc;
    int failed = 0, internal = 0;
    for (int i = 0; i < a.n_logs; i++) {
        iosage_status st = detect_one(m, a.logs[i], a.shap);
        failed += st != IOSAGE_OK;
        internal |= cli_exit_for(st) == CLI_INTERNAL;
        if (cli_stdout_check() != CLI_OK) {
            internal = 1; /* the line comes from the exit check */
            break;
        }
    }
    iosage_model_free(m);
    if (failed)
        fprintf(stderr, "iosage: detect: %d of %d logs could not be read\n",
                failed, a.n_logs);
    return internal ? CLI_INTERNAL : failed ? CLI_BADINPUT : CLI_OK;
}
