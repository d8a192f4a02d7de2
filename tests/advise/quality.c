/*
 * tests/advise/quality.c - the advice quality check of issue 5:
 *
 *   advise_quality SOURCE_DIR [SPLIT [DATASET [FIXES]]]
 *
 * Runs the detection (the bundle of SOURCE_DIR/models/default with its
 * cards) and the offline advice over the runs of SOURCE_DIR/DATASET
 * (default data/bench-runs) in SPLIT (default "test"), and compares the top-ranked change
 * (advice.changes[0] pattern and change_id) of every run whose label is not
 * healthy with the configuration's known fix in
 * SOURCE_DIR/FIXES (default bench/sweeps/default.fixes; make check runs it
 * on data/hpc-runs, the shipped models' training set, with
 * bench/sweeps/hpc.fixes). A known fix "none" means the
 * pattern's change does not apply (its "when not to apply" holds): matched
 * when no change of that pattern is proposed. Healthy-labeled runs that the
 * model calls healthy must get no change at all.
 *
 * Prints the figures; exit 0 when at least 90% of the pattern runs match and
 * no healthy-called run has a change, 1 otherwise, 77 (skip) when the dataset
 * or bundle is absent, 2 on bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iosage/advise.h"
#include "iosage/model.h"

#define MAX_FIXES 512
#define MIN_MATCH 0.90

struct fix {
    char config[64], pattern[48], change[48];
};

struct tally {
    int pattern_runs, matched, no_change;
    int healthy_runs, healthy_called, healthy_with_change, healthy_flagged;
    int skipped;
    int gated; /* pattern runs under the healthy gate, scored as healthy */
};

static int load_fixes(const char *path, struct fix *fx, int *n)
{
    FILE *f = fopen(path, "r");
    char line[512];
    *n = 0;
    if (!f) {
        fprintf(stderr, "advise_quality: cannot open %s\n", path);
        return -1;
    }
    while (fgets(line, sizeof line, f) && *n < MAX_FIXES) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        struct fix *x = &fx[*n];
        if (sscanf(line, "%63s %47s %47s", x->config, x->pattern, x->change) == 3)
            (*n)++;
    }
    fclose(f);
    return 0;
}

static const struct fix *find_fix(const struct fix *fx, int n, const char *cfg)
{
    for (int i = 0; i < n; i++)
        if (strcmp(fx[i].config, cfg) == 0)
            return &fx[i];
    return NULL;
}

/* Split a TSV line in place into at most max fields; returns the count. */
static int split_tsv(char *line, char **field, int max)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line; n < max;) {
        field[n++] = p;
        char *t = strchr(p, '\t');
        if (!t)
            break;
        *t = '\0';
        p = t + 1;
    }
    return n;
}

static int column(char **head, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(head[i], name) == 0)
            return i;
    return -1;
}

/* The offline advice document of one log, or NULL (printed). */
static json_t *analyze(const char *path, const iosage_model *m,
                       const iosage_cards *cards, int *healthy, int *gated)
{
    iosage_error err;
    iosage_log *log = NULL;
    iosage_file_table *t = NULL;
    float x[IOSAGE_NUM_FEATURES];
    struct iosage_detection det;
    json_t *doc = NULL;
    if (iosage_log_load(path, 0, &log, &err) == IOSAGE_OK &&
        iosage_file_table_build(log, &t, &err) == IOSAGE_OK &&
        iosage_features_from_table(log, t, x, &err) == IOSAGE_OK &&
        iosage_model_detect(m, x, 1, &det, &err) == IOSAGE_OK) {
        struct iosage_advise_input in = {path, log, t, x, m, &det, cards,
                                         NULL, 0};
        *healthy = det.healthy;
        *gated = det.io_gated;
        doc = iosage_report_build(&in, &err);
    }
    if (!doc) {
        char line[800];
        fprintf(stderr, "advise_quality: %s\n", iosage_error_line(&err, line,
                                                                 sizeof line));
    }
    iosage_file_table_free(t);
    iosage_log_free(log);
    return doc;
}

static void score_run(const char *run, const char *labels, const struct fix *fx,
                      int healthy, const json_t *doc, struct tally *ty)
{
    const json_t *changes = json_object_get(json_object_get(doc, "advice"),
                                            "changes");
    const json_t *top = json_array_get(changes, 0);
    const char *pat = json_string_value(json_object_get(top, "pattern"));
    const char *chg = json_string_value(json_object_get(top, "change_id"));
    if (strcmp(labels, "healthy") == 0) {
        ty->healthy_runs++;
        ty->healthy_called += healthy;
        ty->healthy_flagged += !healthy;
        if (healthy && json_array_size(changes) > 0) {
            ty->healthy_with_change++;
            printf("FAIL healthy run %s called healthy but got a change\n", run);
        } else if (!healthy) {
            printf("note healthy run %s flagged: top change %s/%s\n", run,
                   pat ? pat : "-", chg ? chg : "-");
        }
        return;
    }
    ty->pattern_runs++;
    if (strcmp(fx->change, "none") == 0) {
        for (size_t i = 0; i < json_array_size(changes); i++) {
            const char *p = json_string_value(
                json_object_get(json_array_get(changes, i), "pattern"));
            if (p && strcmp(p, fx->pattern) == 0) {
                printf("miss %-24s %-34s expected no %s change, got one at "
                       "rank %zu\n", run, labels, fx->pattern, i + 1);
                return;
            }
        }
        ty->matched++;
    } else if (!top) {
        ty->no_change++;
        printf("miss %-24s %-34s expected %s/%s, got no change\n", run, labels,
               fx->pattern, fx->change);
    } else if (strcmp(pat, fx->pattern) == 0 && strcmp(chg, fx->change) == 0) {
        ty->matched++;
    } else {
        printf("miss %-24s %-34s expected %s/%s, got %s/%s\n", run, labels,
               fx->pattern, fx->change, pat, chg);
    }
}

static int run_manifest(const char *src, const char *dataset,
                        const char *split, const iosage_model *m,
                        const iosage_cards *cards, const struct fix *fx,
                        int n_fx, struct tally *ty)
{
    char path[4096], line[8192], *head[64], *f[64], hbuf[8192];
    snprintf(path, sizeof path, "%s/%s/manifest.tsv", src, dataset);
    FILE *mf = fopen(path, "r");
    if (!mf || !fgets(hbuf, sizeof hbuf, mf)) {
        fprintf(stderr, "advise_quality: cannot read %s\n", path);
        if (mf)
            fclose(mf);
        return -1;
    }
    int nh = split_tsv(hbuf, head, 64);
    int c_run = column(head, nh, "run_id"), c_cfg = column(head, nh, "config_id"),
        c_lab = column(head, nh, "labels"), c_log = column(head, nh, "log"),
        c_split = column(head, nh, "split"), c_st = column(head, nh, "status");
    if (c_run < 0 || c_cfg < 0 || c_lab < 0 || c_log < 0 || c_split < 0 || c_st < 0) {
        fprintf(stderr, "advise_quality: %s: missing columns\n", path);
        fclose(mf);
        return -1;
    }
    while (fgets(line, sizeof line, mf)) {
        int n = split_tsv(line, f, 64);
        if (n < nh || strcmp(f[c_split], split) != 0 || strcmp(f[c_st], "ok") != 0)
            continue;
        const struct fix *x = find_fix(fx, n_fx, f[c_cfg]);
        if (!x && strcmp(f[c_lab], "healthy") != 0) {
            fprintf(stderr, "advise_quality: no known fix for configuration %s\n",
                    f[c_cfg]);
            fclose(mf);
            return -1;
        }

        int healthy = 0, gated = 0;
        snprintf(path, sizeof path, "%s/%s/%s", src, dataset, f[c_log]);
        json_t *doc = analyze(path, m, cards, &healthy, &gated);
        if (!doc) {
            ty->skipped++;
            continue;
        }
        /* under the healthy gate (slowest rank under 5% of the run in I/O)
         * a run is healthy whatever its configuration, as in training
         * (src/model/dataset.c) */
        const char *labels = f[c_lab];
        if (gated && strcmp(labels, "healthy") != 0) {
            ty->gated++;
            labels = "healthy";
        }
        score_run(f[c_run], labels, x, healthy, doc, ty);
        json_decref(doc);
    }
    fclose(mf);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs("usage: advise_quality SOURCE_DIR [SPLIT [DATASET [FIXES]]]\n",
              stderr);
        return 2;
    }
    const char *src = argv[1], *split = argc > 2 ? argv[2] : "test";
    const char *dataset = argc > 3 ? argv[3] : "data/bench-runs";
    const char *fixes = argc > 4 ? argv[4] : "bench/sweeps/default.fixes";
    char path[4096];
    struct fix *fx = calloc(MAX_FIXES, sizeof *fx);
    int n_fx = 0;
    snprintf(path, sizeof path, "%s/%s", src, fixes);
    if (!fx || load_fixes(path, fx, &n_fx) != 0) {
        free(fx);
        return 2;
    }
    iosage_error err;
    iosage_model *m = NULL;
    iosage_cards *cards = NULL;
    snprintf(path, sizeof path, "%s/models/default", src);
    if (iosage_model_load(path, &m, &err) != IOSAGE_OK) {
        fprintf(stderr, "advise_quality: skip: no model bundle in %s\n", path);
        free(fx);
        return 77;
    }
    snprintf(path, sizeof path, "%s/models/default/cards.json", src);
    if (iosage_cards_load(path, &cards, &err) != IOSAGE_OK)
        fprintf(stderr, "advise_quality: no cards (%s): findings without cards\n",
                err.msg);
    struct tally ty = {0};
    int rc = run_manifest(src, dataset, split, m, cards, fx, n_fx, &ty);
    double share = ty.pattern_runs ? (double)ty.matched / ty.pattern_runs : 0.0;
    printf("%s, split %s: %d pattern runs, top change = known fix in %d "
           "(%.1f%%), no change in %d; %d configuration-labeled runs under "
           "the healthy gate scored as healthy\n", dataset, split,
           ty.pattern_runs, ty.matched, 100.0 * share, ty.no_change, ty.gated);
    printf("split %s: %d healthy runs, %d called healthy (%d of them with a "
           "change), %d flagged by the model; %d logs unreadable\n", split,
           ty.healthy_runs, ty.healthy_called, ty.healthy_with_change,
           ty.healthy_flagged, ty.skipped);
    iosage_cards_free(cards);
    iosage_model_free(m);
    free(fx);
    if (rc != 0)
        return 2;
    return share >= MIN_MATCH && ty.pattern_runs > 0 &&
                   ty.healthy_with_change == 0 && ty.skipped == 0
               ? 0 : 1;
}
