/*
 * src/cli/cmd_train.c - `iosage train DATASET -o DIR`: features of every ok
 * run of a dataset, the gate and pattern models, thresholds, and the bundle
 * with its metrics.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "iosage/advise.h"
#include "iosage/model.h"

static void train_help(void)
{
    fputs("Usage: iosage train DATASET -o DIR [--seed N] [--threads N]\n"
          "                    [--rounds N] [--gate-outvote P] [-q]\n"
          "\n"
          "Read DATASET/manifest.tsv (as written by `iosage gen`), compute the\n"
          "features of every run whose status is ok, train the gate and one\n"
          "XGBoost model per pattern on the train split, stop early and choose\n"
          "each model's threshold on the validation split, and write the bundle\n"
          "to DIR: bundle.json (thresholds, feature schema, data hash, metrics on\n"
          "the validation, test and ood splits), one JSON model per model, and\n"
          "cards.json (per pattern: quartiles of its key features among train\n"
          "runs with and without it, the change and when it does not apply).\n"
          "The same dataset and seed give byte-identical files. A log that\n"
          "cannot be read is reported and skipped.\n"
          "\n"
          "  -o, --output DIR  where the bundle goes (created if missing)\n"
          "  --seed N          XGBoost seed (default 42)\n"
          "  --threads N       XGBoost threads (default 1, 0: all cores; the\n"
          "                    result does not depend on it)\n"
          "  --rounds N        boosting rounds per model at most (default 300;\n"
          "                    training stops after 30 rounds without a better\n"
          "                    validation log loss)\n"
          "  --gate-outvote P  a pattern scoring P or more (and its own\n"
          "                    threshold) is reported even when the gate says\n"
          "                    healthy; 0: the gate always wins (default 0.5,\n"
          "                    chosen by leave-one-kernel-out validation,\n"
          "                    docs/evaluation.md)\n"
          "  -q, --quiet       no progress, no skipped-log lines, no summary\n"
          "  -h, --help        show this help\n"
          "\n"
          "Exit status: 0 bundle written, 2 usage error, 3 the dataset could not\n"
          "be read or has no train runs, 4 internal error.\n",
          stdout);
}

struct train_args {
    const char *dataset, *out;
    int quiet;
    struct iosage_train_params p;
};

/* A whole number in [lo, hi], or -1. */
static long num_arg(const char *s, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return errno || end == s || *end || v < lo || v > hi ? -1 : v;
}

static int set_value(struct train_args *a, const char *opt, const char *val)
{
    long v;
    if (strcmp(opt, "-o") == 0 || strcmp(opt, "--output") == 0) {
        a->out = val;
        return CLI_OK;
    }
    if (strcmp(opt, "--seed") == 0 && (v = num_arg(val, 0, 2147483647)) >= 0)
        a->p.seed = (int)v;
    else if (strcmp(opt, "--threads") == 0 && (v = num_arg(val, 0, 4096)) >= 0)
        a->p.threads = (int)v;
    else if (strcmp(opt, "--rounds") == 0 && (v = num_arg(val, 1, 100000)) > 0)
        a->p.max_rounds = (int)v;
    else if (strcmp(opt, "--gate-outvote") == 0) {
        char *end;
        errno = 0;
        double d = strtod(val, &end);
        if (errno || end == val || *end || !(d >= 0 && d <= 1))
            return cli_usage_error("train", "train: --gate-outvote takes a "
                                   "number from 0 to 1, got '%s'", val);
        a->p.gate_outvote = d;
    } else
        return cli_usage_error("train", "train: %s takes a whole number in "
                               "range, got '%s'", opt, val);
    return CLI_OK;
}

static const struct ios_option train_options[] = {
    {"--quiet", "-q", 0, 1},
    {"--output", "-o", 1, 2},
    {"--seed", NULL, 1, 3},
    {"--threads", NULL, 1, 4},
    {"--rounds", NULL, 1, 5},
    {"--gate-outvote", NULL, 1, 6},
    {0}};

static int parse_train_args(int argc, char **argv, struct train_args *a,
                            int *done)
{
    *done = 0;
    iosage_train_params_default(&a->p);
    struct cli_args it =
        cli_args("train", argc, argv, train_options, train_help);
    int id;
    while ((id = cli_args_next(&it)) != CLI_ARG_END) {
        if (id == CLI_ARG_STOP)
            return cli_args_stop(&it, done);
        if (id == 1) {
            a->quiet = 1;
        } else if (id > 1) {
            int rc = set_value(a, it.arg, it.value);
            if (rc != CLI_OK)
                return rc;
        } else if (a->dataset) {
            return cli_usage_error("train", "train: takes one DATASET, got "
                                   "'%s' too", it.value);
        } else {
            a->dataset = it.value;
        }
    }
    if (!a->dataset)
        return cli_usage_error("train", "train: no DATASET given");
    if (!a->out)
        return cli_usage_error("train", "train: no output directory (-o DIR)");
    return CLI_OK;
}

/* --- Progress ------------------------------------------------------------ */

struct progress {
    int tty, quiet;
    int shown;      /* a progress line is on the terminal */
    int last_round; /* last round drawn, to draw every few rounds */
};

static void clear_line(struct progress *pr)
{
    if (pr->shown) {
        fputs("\r\033[K", stderr);
        pr->shown = 0;
    }
}

static void on_log(void *ctx, size_t done, size_t total, const char *run_id,
                   const iosage_error *skipped)
{
    struct progress *pr = ctx;
    if (skipped && !pr->quiet) {
        char line[800];
        clear_line(pr);
        fprintf(stderr, "iosage: train: skipped %s: %s\n", run_id,
                iosage_error_line(skipped, line, sizeof line));
    }
    if (pr->tty && (done % 16 == 0 || done == total)) {
        fprintf(stderr, "\r\033[Ktrain: reading logs %zu/%zu", done, total);
        pr->shown = 1;
    }
}

static void on_round(void *ctx, int model, int n_models, const char *id,
                     int round, int max_rounds)
{
    struct progress *pr = ctx;
    if (!pr->tty || (round % 10 != 0 && round != 1 && round != max_rounds))
        return;
    fprintf(stderr, "\r\033[Ktrain: model %d/%d %s, round %d", model + 1,
            n_models, id, round);
    pr->shown = 1;
}

/* XGBoost's own warnings (none are expected: every parameter is checked). */
static void on_xgb_line(void *ctx, const char *msg)
{
    struct progress *pr = ctx;
    clear_line(pr);
    fprintf(stderr, "iosage: train: xgboost: %s\n", msg);
}

/* --- The command --------------------------------------------------------- */

/* The cards of the dataset, written to dir/cards.json. */
static iosage_status save_cards(const iosage_dataset *ds, const char *dir,
                                iosage_error *err)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/cards.json", dir) >= (int)sizeof path) {
        memset(err, 0, sizeof *err);
        err->code = IOSAGE_E_USAGE;
        snprintf(err->path, sizeof err->path, "%s", dir);
        snprintf(err->msg, sizeof err->msg, "output directory name too long");
        return IOSAGE_E_USAGE;
    }
    iosage_cards *c = NULL;
    iosage_status st = iosage_cards_build(ds, &c, err);
    if (st == IOSAGE_OK)
        st = iosage_cards_save(c, path, err);
    iosage_cards_free(c);
    return st;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void summary(const iosage_dataset *ds, const iosage_model *m,
                    const char *out, double seconds)
{
    size_t rows[IOSAGE_SPLIT_COUNT] = {0};
    for (size_t i = 0; i < ds->n_rows; i++)
        rows[ds->split[i]]++;
    fprintf(stderr, "train: %zu runs (train %zu, validation %zu, test %zu, "
            "ood %zu), %zu skipped; bundle in %s (%.1f s)\n", ds->n_rows,
            rows[0], rows[1], rows[2], rows[3], ds->n_skipped, out, seconds);
    if (ds->n_gated > 0)
        fprintf(stderr, "train: %zu run(s) with a configuration pattern read "
                "as healthy: their slowest rank spends under 5%% of the run "
                "in I/O (the healthy gate)\n", ds->n_gated);
    if (ds->n_floored > 0)
        fprintf(stderr, "train: %zu run(s) read without a configuration "
                "pattern whose floors they do not reach\n", ds->n_floored);
    for (int s = IOSAGE_SPLIT_VALIDATION; s < IOSAGE_SPLIT_COUNT; s++) {
        const struct iosage_metrics *mt = iosage_model_metrics(m, s);
        if (mt)
            fprintf(stderr, "train: %-10s micro F1 %.3f, macro F1 %.3f, "
                    "subset accuracy %.3f (%" PRId64 " runs)\n",
                    iosage_split_name(s), mt->micro_f1, mt->macro_f1,
                    mt->subset_accuracy, mt->runs);
    }
    if (rows[IOSAGE_SPLIT_VALIDATION] == 0)
        fprintf(stderr, "train: no validation runs: every round kept, every "
                "threshold 0.5\n");
}

int cmd_train(int argc, char **argv)
{
    struct train_args a;
    memset(&a, 0, sizeof a);
    int done, rc = parse_train_args(argc, argv, &a, &done);
    if (rc != CLI_OK || done)
        return rc;
    /* the bundle's files must not land in the dataset */
    rc = cli_refuse_clash("train", "-o", a.out, 1, &a.dataset, 1);
    if (rc != CLI_OK)
        return rc;
    struct progress pr = {.tty = !a.quiet && isatty(2), .quiet = a.quiet};
    double t0 = now();
    iosage_error err;
    iosage_dataset *ds = NULL;
    iosage_model *m = NULL;
    iosage_status st = iosage_dataset_load(a.dataset, on_log, &pr, &ds, &err);
    if (!a.quiet)
        iosage_model_set_log_hook(on_xgb_line, &pr);
    if (st == IOSAGE_OK) {
        a.p.progress = on_round;
        a.p.progress_ctx = &pr;
        st = iosage_model_train(ds, &a.p, &m, &err);
        if (st == IOSAGE_E_USAGE) /* no train rows: a property of the data */
            st = IOSAGE_E_CORRUPT;
    }
    int saving = st == IOSAGE_OK; /* a failure from here on is a write's */
    if (st == IOSAGE_OK)
        st = iosage_model_save(m, a.out, &err);
    if (st == IOSAGE_OK)
        st = save_cards(ds, a.out, &err);
    clear_line(&pr);
    if (st != IOSAGE_OK) {
        if (err.path[0] == '\0')
            snprintf(err.path, sizeof err.path, "%s", a.dataset);
        cli_print_error(&err);
    } else if (!a.quiet) {
        summary(ds, m, a.out, now() - t0);
    }
    iosage_model_set_log_hook(NULL, NULL);
    iosage_model_free(m);
    iosage_dataset_free(ds);
    return saving && st != IOSAGE_OK ? CLI_INTERNAL : cli_exit_for(st);
}
