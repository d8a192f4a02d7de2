/*
 * src/cli/cmd_eval.c - `iosage eval DIR DATASET`: the detection rule of a
 * bundle against the labels of one split of a dataset; with --compare the
 * same table for the rule baseline and a random forest, with --loko the
 * leave-one-kernel-out table, with --errors every false positive and false
 * negative with its evidence.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "iosage/analyze.h"
#include "iosage/label.h"
#include "iosage/model.h"
#include "iosage/report.h"
#include "iosage/rules.h"

#define SPLIT_ALL (-2)
#define N_METHODS 3 /* models, random forest, rules */

static const char *const method_key[N_METHODS] = {"models", "random_forest",
                                                  "rules"};

static void eval_help(void)
{
    fputs("Usage: iosage eval DIR DATASET [--split NAME] [--format text|json]\n"
          "                   [--compare] [--loko] [--errors]\n"
          "                   [--train-data DIR2] [--forest-trees N]\n"
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
          "  --compare        also the rule baseline (iosage rules) on the same\n"
          "                   logs and a random forest (XGBoost's random forest\n"
          "                   mode; the bundle's seed, feature sets and I/O\n"
          "                   gate, class weights, validation thresholds)\n"
          "                   trained on the train and\n"
          "                   validation runs of DATASET; one table (JSON: the\n"
          "                   keys above for the models, plus random_forest and\n"
          "                   rules objects with the same keys)\n"
          "  --train-data DIR2  train the random forest on DIR2 instead\n"
          "  --forest-trees N   trees of the random forest (default 100)\n"
          "  --loko           leave one kernel out instead: for each kernel of\n"
          "                   DATASET (its manifest's kernel column), models\n"
          "                   with the bundle's parameters and a random forest\n"
          "                   trained on the other kernels' train and\n"
          "                   validation runs, scored with the rules on every\n"
          "                   run of the kernel (--split is ignored)\n"
          "  --errors         after the table, every false positive (FP) and\n"
          "                   false negative (FN) of the split, per method,\n"
          "                   with the labeler's and the pattern's evidence\n"
          "                   (text only)\n"
          "  --threads N      XGBoost threads (default 1, 0: all cores)\n"
          "  -q, --quiet      no skipped-log lines\n"
          "  -h, --help       show this help\n"
          "\n"
          "Exit status: 0 ok, 2 usage error, 3 the bundle or dataset could not\n"
          "be read, or the split has no runs; 4 internal error.\n",
          stdout);
}

struct eval_args {
    const char *bundle, *dataset, *train_data;
    int split;   /* enum iosage_split or SPLIT_ALL */
    int json;
    int threads;
    int trees;
    int quiet, compare, loko, errors;
};

static int parse_number(const char *opt, const char *val, long lo, long hi,
                        int *out)
{
    char *end;
    long v = strtol(val, &end, 10);
    if (end == val || *end || v < lo || v > hi)
        return cli_usage_error("eval", "eval: %s takes a whole number from "
                               "%ld to %ld, got '%s'", opt, lo, hi, val);
    *out = (int)v;
    return CLI_OK;
}

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
    } else if (strcmp(opt, "--train-data") == 0) {
        a->train_data = val;
    } else if (strcmp(opt, "--forest-trees") == 0) {
        return parse_number(opt, val, 1, 10000, &a->trees);
    } else {
        return parse_number(opt, val, 0, 4096, &a->threads);
    }
    return CLI_OK;
}

/* The options: ids 1..4 are flags, 5.. take a value (parse_value). */
static const struct ios_option eval_options[] = {
    {"--quiet", "-q", 0, 1},
    {"--compare", NULL, 0, 2},
    {"--loko", NULL, 0, 3},
    {"--errors", NULL, 0, 4},
    {"--split", NULL, 1, 5},
    {"--format", NULL, 1, 6},
    {"--threads", NULL, 1, 7},
    {"--train-data", NULL, 1, 8},
    {"--forest-trees", NULL, 1, 9},
    {0}};

static void set_flag(struct eval_args *a, int id)
{
    if (id == 1)
        a->quiet = 1;
    else if (id == 2)
        a->compare = 1;
    else if (id == 3)
        a->loko = 1;
    else
        a->errors = 1;
}

static int check_args(const struct eval_args *a)
{
    if (!a->dataset)
        return cli_usage_error("eval", "eval: needs a bundle DIR and a "
                               "DATASET");
    if (a->errors && a->json)
        return cli_usage_error("eval", "eval: --errors prints text, not "
                               "--format json");
    if (a->errors && a->loko)
        return cli_usage_error("eval", "eval: --errors lists the errors of "
                               "one split, not of --loko");
    return CLI_OK;
}

static int parse_eval_args(int argc, char **argv, struct eval_args *a,
                           int *done)
{
    *done = 0;
    a->split = IOSAGE_SPLIT_TEST;
    a->threads = 1;
    a->trees = 100;
    struct cli_args it =
        cli_args("eval", argc, argv, eval_options, eval_help);
    int id;
    while ((id = cli_args_next(&it)) != CLI_ARG_END) {
        if (id == CLI_ARG_STOP)
            return cli_args_stop(&it, done);
        if (id > 0 && id <= 4) {
            set_flag(a, id);
        } else if (id > 4) {
            int rc = parse_value(a, it.arg, it.value);
            if (rc != CLI_OK)
                return rc;
        } else if (!a->bundle) {
            a->bundle = it.value;
        } else if (!a->dataset) {
            a->dataset = it.value;
        } else {
            return cli_usage_error("eval", "eval: takes DIR and DATASET, got "
                                   "'%s' too", it.value);
        }
    }
    return check_args(a);
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

/* --- JSON output ---------------------------------------------------------- */

/* base (a JSON object) with ,"key":add appended before its closing brace.
 * Takes ownership of base and add; NULL when out of memory. */
static char *json_append(char *base, const char *key, char *add)
{
    char *out = NULL;
    if (base && add) {
        size_t nb = strlen(base), n = nb + strlen(key) + strlen(add) + 8;
        if ((out = malloc(n)))
            snprintf(out, n, "%.*s%s\"%s\":%s}", (int)(nb - 1), base,
                     nb > 2 ? "," : "", key, add);
    }
    free(base);
    free(add);
    return out;
}

static char *compare_json(const struct iosage_metrics mt[N_METHODS],
                          const char *split)
{
    char *text = iosage_metrics_json(&mt[0], split);
    for (int k = 1; k < N_METHODS; k++)
        text = json_append(text, method_key[k],
                           iosage_metrics_json(&mt[k], NULL));
    return text;
}

/* A kernel name as a JSON string body: quotes, backslashes and control
 * bytes become '?' (names come from a manifest). Static buffer. */
static const char *json_safe(const char *s)
{
    static char buf[64];
    size_t n = 0;
    for (; *s && n + 1 < sizeof buf; s++)
        buf[n++] = (*s == '"' || *s == '\\' || (unsigned char)*s < 0x20) ? '?' : *s;
    buf[n] = '\0';
    return buf;
}

static char *loko_json(const struct iosage_loko_row *rows, size_t n)
{
    char *list = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&list, &len);
    if (!f)
        return NULL;
    fputs("{\"loko\":[", f);
    for (size_t i = 0; i < n; i++) {
        char *o = malloc(sizeof rows[i].kernel + 16);
        if (o)
            snprintf(o, sizeof rows[i].kernel + 16, "{\"kernel\":\"%s\"}",
                     json_safe(rows[i].kernel));
        const struct iosage_metrics *mt[N_METHODS] = {
            &rows[i].models, &rows[i].forest, &rows[i].rules};
        for (int k = 0; k < N_METHODS; k++)
            o = json_append(o, method_key[k], iosage_metrics_json(mt[k], NULL));
        fprintf(f, "%s%s", i ? "," : "", o ? o : "null");
        free(o);
    }
    fputs("]}", f);
    fclose(f);
    return list;
}

static int print_json(char *text)
{
    if (!text) {
        fputs("iosage: eval: out of memory\n", stderr);
        return CLI_INTERNAL;
    }
    printf("%s\n", text);
    free(text);
    return CLI_OK;
}

/* --- Errors with evidence ------------------------------------------------- */

/* What the log of one row says: the labeler's result, the rule baseline's,
 * and the registry's evidence extractors' lines. */
struct row_evidence {
    struct iosage_label_result label;
    struct iosage_rule_result rules;
    struct iosage_evidence pattern[IOSAGE_MAX_PATTERNS];
};

static iosage_status gather(const char *path, struct row_evidence *e,
                            iosage_error *err)
{
    struct iosage_analyze_options o = {.stage = IOSAGE_ANALYZE_FEATURES,
                                       .read_flags = IOSAGE_READ_DEFAULT};
    iosage_analysis *an = NULL;
    memset(e, 0, sizeof *e);
    iosage_status st = iosage_analyze(path, &o, &an, err);
    if (st == IOSAGE_OK) /* the labeler, the rules and the evidence on the
                            analysis's one table */
        iosage_label_table(an->log, an->table, &e->label);
    if (st == IOSAGE_OK)
        st = iosage_rules_eval(an->log, an->table, &e->rules);
    for (int k = 0; st == IOSAGE_OK && k < iosage_pattern_count(); k++)
        iosage_pattern_get(k)->evidence(an->log, an->table, &e->pattern[k]);
    iosage_analysis_free(an);
    return st;
}

/* One FP or FN of method k on row i, pattern p, with its evidence. */
static void print_error(int method, const char *run_id, int p, int fp,
                        const struct iosage_detection *d,
                        const struct row_evidence *e)
{
    printf("%s %s %s %s", fp ? "FP" : "FN", method_key[method],
           iosage_pattern_get(p)->id, run_id);
    if (d)
        printf(" (score %.3f, gate %.3f)", d->score[p], d->gate_score);
    printf("\n    labeler: %s; %s: %s\n", e->label.summary,
           e->label.present[p] ? "present" : "absent", e->label.evidence[p]);
    if (method == 2)
        printf("    rule: %s\n", e->rules.patterns[p].reason);
    const struct iosage_evidence *ev = &e->pattern[p];
    for (int l = 0; l < ev->n_lines; l++)
        printf("    evidence: %s\n", ev->line[l]);
}

/* Every wrong (row, pattern) decision of each method, row by row. */
static int print_errors(const iosage_dataset *ds, const uint8_t *keep,
                        uint32_t *const pred[N_METHODS],
                        const struct iosage_detection *det)
{
    int64_t n = 0;
    printf("\nerrors (FP: reported, not labeled; FN: labeled, not reported)\n");
    for (size_t i = 0; i < ds->n_rows; i++) {
        int wrong = 0;
        for (int k = 0; k < N_METHODS; k++)
            wrong |= keep[i] && pred[k] && pred[k][i] != ds->labels[i];
        if (!wrong)
            continue;
        struct row_evidence e;
        iosage_error err;
        if (gather(ds->logs[i], &e, &err) != IOSAGE_OK) {
            cli_print_error(&err);
            return CLI_BADINPUT;
        }
        for (int k = 0; k < N_METHODS; k++) {
            uint32_t diff = pred[k] ? pred[k][i] ^ ds->labels[i] : 0;
            for (int p = 0; p < iosage_pattern_count(); p++)
                if ((diff >> p) & 1u) {
                    print_error(k, ds->run_ids[i], p, (pred[k][i] >> p) & 1u,
                                k == 0 ? &det[i] : NULL, &e);
                    n++;
                }
        }
    }
    printf("%" PRId64 " errors\n", n);
    return CLI_OK;
}

/* --- The command ---------------------------------------------------------- */

/* Everything one evaluation holds; freed by eval_free. */
struct eval {
    iosage_model *m;
    iosage_dataset *ds;
    uint8_t *keep;
    uint32_t *pred[N_METHODS];
    struct iosage_detection *det;
};

static void eval_free(struct eval *e)
{
    iosage_model_free(e->m);
    iosage_dataset_free(e->ds);
    free(e->keep);
    for (int k = 0; k < N_METHODS; k++)
        free(e->pred[k]);
    free(e->det);
}

/* The random forest's label sets of every row of e->ds. */
static iosage_status forest_predict(const struct eval_args *a, struct eval *e,
                                    iosage_error *err)
{
    struct iosage_train_params p, boost;
    iosage_train_params_forest(&p);
    iosage_model_params(e->m, &boost);
    p.seed = boost.seed; /* the bundle's seed, feature sets and I/O gate */
    p.feature_sets = boost.feature_sets;
    p.io_share_gate = boost.io_share_gate;
    p.forest_trees = a->trees;
    p.threads = a->threads;
    iosage_dataset *train = e->ds;
    iosage_status st = IOSAGE_OK;
    if (a->train_data)
        st = iosage_dataset_load(a->train_data, on_log, (void *)&a->quiet,
                                 &train, err);
    iosage_model *rf = NULL;
    if (st == IOSAGE_OK)
        st = iosage_model_train(train, &p, &rf, err);
    if (st == IOSAGE_OK)
        st = iosage_model_predict_dataset(rf, e->ds, e->pred[1], NULL, err);
    iosage_model_free(rf);
    if (train != e->ds)
        iosage_dataset_free(train);
    return st;
}

/* Predictions of the models (and with --compare the forest and the
 * rules) on every row; keep marks the rows of the split. */
static iosage_status predict_all(const struct eval_args *a, struct eval *e,
                                 iosage_error *err)
{
    size_t n = e->ds->n_rows ? e->ds->n_rows : 1;
    e->keep = malloc(n);
    e->det = malloc(n * sizeof *e->det);
    for (int k = 0; k < (a->compare ? N_METHODS : 1); k++)
        e->pred[k] = malloc(n * sizeof *e->pred[k]);
    if (!e->keep || !e->det || !e->pred[0] || (a->compare && !e->pred[2]) ||
        (a->compare && !e->pred[1])) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return IOSAGE_E_NOMEM;
    }
    for (size_t i = 0; i < e->ds->n_rows; i++)
        e->keep[i] = a->split == SPLIT_ALL || e->ds->split[i] == a->split;
    iosage_status st = iosage_model_predict_dataset(e->m, e->ds, e->pred[0],
                                                    e->det, err);
    if (st == IOSAGE_OK && a->compare)
        st = forest_predict(a, e, err);
    if (st == IOSAGE_OK && a->compare)
        st = iosage_dataset_rules(e->ds, e->pred[2], err);
    return st;
}

/* How often a floor overrode the models on the rows kept (rule 4 of the
 * detection rule, iosage/model.h): pattern reports taken back, on how many
 * runs, and how many of them the run's label has (the floor cost a true
 * positive there). */
static void print_floors(const iosage_dataset *ds, const uint8_t *keep,
                         const struct iosage_detection *det)
{
    int64_t reports = 0, runs = 0, labeled = 0;
    for (size_t i = 0; i < ds->n_rows; i++) {
        if (!keep[i] || det[i].n_floored == 0)
            continue;
        runs++;
        for (int k = 0; k < det[i].n_patterns; k++)
            if (det[i].floored[k]) {
                reports++;
                labeled += (ds->labels[i] >> k) & 1u;
            }
    }
    printf("\nfloors (models): %" PRId64 " pattern report(s) overridden on %"
           PRId64 " run(s), %" PRId64 " of them labeled with the pattern\n",
           reports, runs, labeled);
}

static int report(const struct eval_args *a, struct eval *e)
{
    const char *split = a->split == SPLIT_ALL ? "all"
                                              : iosage_split_name(a->split);
    struct iosage_metrics mt[N_METHODS];
    iosage_error err;
    memset(&err, 0, sizeof err);
    memset(mt, 0, sizeof mt);
    iosage_status st = predict_all(a, e, &err);
    for (int k = 0; st == IOSAGE_OK && k < N_METHODS; k++)
        if (e->pred[k])
            st = iosage_metrics_rows(e->ds, e->pred[k], e->keep, &mt[k], &err);
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    if (mt[0].runs == 0) {
        fprintf(stderr, "iosage: eval: %s: no runs in split %s\n",
                a->dataset, split);
        return CLI_BADINPUT;
    }
    if (a->json)
        return print_json(a->compare ? compare_json(mt, split)
                                     : iosage_metrics_json(&mt[0], split));
    if (a->compare)
        iosage_report_eval_compare(stdout, mt, split);
    else
        iosage_report_eval_text(stdout, &mt[0], split);
    print_floors(e->ds, e->keep, e->det);
    return a->errors ? print_errors(e->ds, e->keep, e->pred, e->det) : CLI_OK;
}

static int report_loko(const struct eval_args *a, struct eval *e)
{
    struct iosage_train_params boost, forest;
    iosage_model_params(e->m, &boost);
    boost.threads = a->threads;
    iosage_train_params_forest(&forest);
    forest.seed = boost.seed;
    forest.feature_sets = boost.feature_sets;
    forest.io_share_gate = boost.io_share_gate;
    forest.forest_trees = a->trees;
    forest.threads = a->threads;
    iosage_error err;
    memset(&err, 0, sizeof err);
    struct iosage_loko_row *rows = NULL;
    size_t n = 0;
    uint32_t *rules = malloc((e->ds->n_rows ? e->ds->n_rows : 1) *
                             sizeof *rules);
    iosage_status st = rules ? iosage_dataset_rules(e->ds, rules, &err)
                             : IOSAGE_E_NOMEM;
    if (st == IOSAGE_OK)
        st = iosage_loko(e->ds, &boost, &forest, rules, &rows, &n, &err);
    free(rules);
    if (st != IOSAGE_OK) {
        if (!err.msg[0])
            snprintf(err.msg, sizeof err.msg, "out of memory");
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    int rc = CLI_OK;
    if (a->json)
        rc = print_json(loko_json(rows, n));
    else
        iosage_report_eval_loko(stdout, rows, n, a->trees);
    free(rows);
    return rc;
}

int cmd_eval(int argc, char **argv)
{
    struct eval_args a;
    memset(&a, 0, sizeof a);
    int done, rc = parse_eval_args(argc, argv, &a, &done);
    if (rc != CLI_OK || done)
        return rc;
    iosage_error err;
    struct eval e;
    memset(&e, 0, sizeof e);
    iosage_status st = iosage_model_load(a.bundle, &e.m, &err);
    if (st == IOSAGE_OK)
        st = iosage_model_set_threads(e.m, a.threads, &err);
    if (st == IOSAGE_OK)
        st = iosage_dataset_load(a.dataset, on_log, &a.quiet, &e.ds, &err);
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        rc = cli_exit_for(st);
    } else {
        rc = a.loko ? report_loko(&a, &e) : report(&a, &e);
    }
    eval_free(&e);
    return rc;
}
