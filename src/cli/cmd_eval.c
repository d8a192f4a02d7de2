/*
 * src/cli/cmd_eval.c - `iosage eval DIR DATASET`: the detection rule of a
 * bundle against the labels of one split of a dataset.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "iosage/model.h"

#define SPLIT_ALL (-2)

static void eval_help(void)
{
    fputs("Usage: iosage eval DIR DATASET [--split NAME] [--format text|json]\n"
          "                   [--threads N] [-q]\n"
          "\n"
          "Run the model bundle in DIR on the runs of one split of DATASET\n"
          "(runs whose status is ok) and compare what it reports with their\n"
          "labels: micro and macro F1, Hamming loss, subset accuracy, precision,\n"
          "recall and F1 per pattern, and the share of healthy runs given any\n"
          "pattern. A value with nothing to divide by is shown as - (null in\n"
          "JSON); macro F1 averages the patterns that have a value.\n"
          "\n"
          "  --split NAME     test (default), ood, validation, train, or all\n"
          "  --format FORMAT  text (default): a table; json: one object with\n"
          "                   split, runs, micro_f1, macro_f1, hamming_loss,\n"
          "                   subset_accuracy, healthy_flagged, per_pattern\n"
          "  --threads N      XGBoost threads (default 1, 0: all cores)\n"
          "  -q, --quiet      no skipped-log lines\n"
          "  -h, --help       show this help\n"
          "\n"
          "Exit status: 0 ok, 2 usage error, 3 the bundle or dataset could not\n"
          "be read, or the split has no runs; 4 internal error.\n",
          stdout);
}

struct eval_args {
    const char *bundle, *dataset;
    int split;   /* enum iosage_split or SPLIT_ALL */
    int json;
    int threads;
    int quiet;
};

static int parse_value(struct eval_args *a, const char *opt, const char *val)
{
    if (strcmp(opt, "--split") == 0) {
        a->split = strcmp(val, "all") == 0 ? SPLIT_ALL : iosage_split_index(val);
        if (a->split == -1)
            return cli_usage_error("eval", "eval: --split takes test, ood, "
                                   "validation, train or all, got '%s'", val);
    } else if (strcmp(opt, "--format") == 0) {
        if (strcmp(val, "json") != 0 && strcmp(val, "text") != 0)
            return cli_usage_error("eval", "eval: --format takes text or json, "
                                   "got '%s'", val);
        a->json = strcmp(val, "json") == 0;
    } else {
        char *end;
        long v = strtol(val, &end, 10);
        if (end == val || *end || v < 0 || v > 4096)
            return cli_usage_error("eval", "eval: --threads takes a whole "
                                   "number, got '%s'", val);
        a->threads = (int)v;
    }
    return CLI_OK;
}

static int parse_eval_args(int argc, char **argv, struct eval_args *a,
                           int *done)
{
    *done = 0;
    a->split = IOSAGE_SPLIT_TEST;
    a->threads = 1;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (cli_is_help(s)) {
            eval_help();
            *done = 1;
            return CLI_OK;
        } else if (strcmp(s, "-q") == 0 || strcmp(s, "--quiet") == 0) {
            a->quiet = 1;
        } else if (strcmp(s, "--split") == 0 || strcmp(s, "--format") == 0 ||
                   strcmp(s, "--threads") == 0) {
            if (i + 1 >= argc)
                return cli_usage_error("eval", "eval: %s needs a value", s);
            int rc = parse_value(a, s, argv[++i]);
            if (rc != CLI_OK)
                return rc;
        } else if (s[0] == '-' && s[1]) {
            return cli_usage_error("eval", "eval: unknown option '%s'", s);
        } else if (!a->bundle) {
            a->bundle = s;
        } else if (!a->dataset) {
            a->dataset = s;
        } else {
            return cli_usage_error("eval", "eval: takes DIR and DATASET, got "
                                   "'%s' too", s);
        }
    }
    if (!a->dataset)
        return cli_usage_error("eval", "eval: needs a bundle DIR and a "
                               "DATASET");
    return CLI_OK;
}

static void on_log(void *ctx, size_t done, size_t total, const char *run_id,
                   const iosage_error *skipped)
{
    (void)done;
    (void)total;
    if (skipped && !*(const int *)ctx) {
        char line[800];
        fprintf(stderr, "iosage: eval: skipped %s: %s\n", run_id,
                iosage_error_line(skipped, line, sizeof line));
    }
}

/* --- Output -------------------------------------------------------------- */

/* "%.3f", or "-" for NAN, right-aligned in width w. */
static void cell(double v, int w)
{
    if (isnan(v))
        printf(" %*s", w, "-");
    else
        printf(" %*.3f", w, v);
}

static void print_text(const struct iosage_metrics *m, const char *split)
{
    printf("split %s: %" PRId64 " runs, %" PRId64 " healthy\n\n", split,
           m->runs, m->healthy_runs);
    printf("%-16s", "micro F1");
    cell(m->micro_f1, 6);
    printf("\n%-16s", "macro F1");
    cell(m->macro_f1, 6);
    printf("\n%-16s", "Hamming loss");
    cell(m->hamming_loss, 6);
    printf("\n%-16s", "subset accuracy");
    cell(m->subset_accuracy, 6);
    printf("\n%-16s", "healthy flagged");
    cell(m->healthy_flagged, 6);
    printf("  (%" PRId64 " of %" PRId64 ")\n\n", m->healthy_flagged_runs,
           m->healthy_runs);
    printf("%-24s %9s %9s %9s %9s\n", "pattern", "precision", "recall", "f1",
           "support");
    for (int k = 0; k < m->n_patterns; k++) {
        const struct iosage_pattern_metrics *p = &m->per_pattern[k];
        printf("%-24s", iosage_pattern_get(k)->id);
        cell(p->precision, 9);
        cell(p->recall, 9);
        cell(p->f1, 9);
        printf(" %9" PRId64 "\n", p->support);
    }
}

/* --- The command --------------------------------------------------------- */

/* Detect on the rows of the split and compute the metrics. */
static iosage_status evaluate(const iosage_model *m, const iosage_dataset *ds,
                              int split, struct iosage_metrics *out,
                              iosage_error *err)
{
    const size_t nf = IOSAGE_NUM_FEATURES;
    size_t n = 0, cap = ds->n_rows + 1;
    float *x = malloc(cap * nf * sizeof *x);
    uint32_t *truth = malloc(cap * sizeof *truth);
    uint32_t *pred = malloc(cap * sizeof *pred);
    struct iosage_detection *d = malloc(cap * sizeof *d);
    iosage_status st = IOSAGE_OK;
    if (!x || !truth || !pred || !d) {
        st = IOSAGE_E_NOMEM;
        snprintf(err->msg, sizeof err->msg, "out of memory");
    }
    for (size_t i = 0; st == IOSAGE_OK && i < ds->n_rows; i++) {
        if (split != SPLIT_ALL && ds->split[i] != split)
            continue;
        memcpy(x + n * nf, ds->x + i * nf, nf * sizeof *x);
        truth[n++] = ds->labels[i];
    }
    if (st == IOSAGE_OK)
        st = iosage_model_detect(m, x, n, d, err);
    for (size_t i = 0; st == IOSAGE_OK && i < n; i++)
        pred[i] = d[i].labels;
    if (st == IOSAGE_OK)
        iosage_metrics_compute(truth, pred, n, iosage_model_pattern_count(m),
                               out);
    free(x);
    free(truth);
    free(pred);
    free(d);
    return st;
}

static int report(const struct eval_args *a, const iosage_model *m,
                  const iosage_dataset *ds)
{
    const char *split = a->split == SPLIT_ALL ? "all"
                                              : iosage_split_name(a->split);
    struct iosage_metrics mt;
    iosage_error err;
    memset(&err, 0, sizeof err);
    iosage_status st = evaluate(m, ds, a->split, &mt, &err);
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    if (mt.runs == 0) {
        fprintf(stderr, "iosage: eval: %s: no runs in split %s\n",
                a->dataset, split);
        return CLI_BADINPUT;
    }
    if (!a->json) {
        print_text(&mt, split);
        return CLI_OK;
    }
    char *text = iosage_metrics_json(&mt, split);
    if (!text) {
        fputs("iosage: eval: out of memory\n", stderr);
        return CLI_INTERNAL;
    }
    printf("%s\n", text);
    free(text);
    return CLI_OK;
}

int cmd_eval(int argc, char **argv)
{
    struct eval_args a;
    memset(&a, 0, sizeof a);
    int done, rc = parse_eval_args(argc, argv, &a, &done);
    if (rc != CLI_OK || done)
        return rc;
    iosage_error err;
    iosage_model *m = NULL;
    iosage_dataset *ds = NULL;
    iosage_status st = iosage_model_load(a.bundle, &m, &err);
    if (st == IOSAGE_OK)
        st = iosage_model_set_threads(m, a.threads, &err);
    if (st == IOSAGE_OK)
        st = iosage_dataset_load(a.dataset, on_log, &a.quiet, &ds, &err);
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        rc = cli_exit_for(st);
    } else {
        rc = report(&a, m, ds);
    }
    iosage_dataset_free(ds);
    iosage_model_free(m);
    return rc;
}
