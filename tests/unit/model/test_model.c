/*
 * tests/unit/test_model.c - the model module on synthetic feature matrices.
 *
 * Groups:
 *   - metrics and thresholds on hand-made examples with known values;
 *   - the detection rule (gate, patterns, gate only) on set thresholds;
 *   - training: reproducible to the byte with 1 or 2 threads; save, load
 *     from the directory and from memory, identical predictions; SHAP
 *     contributions that sum to the margin; XGBoost silent (every
 *     parameter name valid) and its log lines captured;
 *   - bundles refused for another feature schema, feature names or
 *     patterns, and for a damaged model file;
 *   - the detect JSON line, and dataset directories (manifest, skipped
 *     logs, bad rows);
 *   - the random forest mode, the per-model feature sets, the I/O share
 *     gate, metrics over chosen rows and leave one kernel out.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "example_log.h"
#include "iosage/darshan.h"
#include "iosage/features.h"
#include "iosage/model.h"
#include "iosage/rules.h"
#include "iosage/patterns.h"
#include "model/internal.h"
#include "testutil.h"

#define NF IOSAGE_NUM_FEATURES
#define N_ROWS 700

/* --- Metrics ------------------------------------------------------------------ */

/* 5 runs, 4 patterns; pattern 3 is in neither truth nor predictions. */
static void metrics_hand_example(void **state)
{
    (void)state;
    const uint32_t truth[5] = {0x1, 0x3, 0x0, 0x4, 0x0};
    const uint32_t pred[5] = {0x1, 0x1, 0x2, 0x4, 0x0};
    struct iosage_metrics m;
    iosage_metrics_compute(truth, pred, 5, 4, &m);
    assert_int_equal(m.runs, 5);
    /* pattern 0: tp 2; pattern 1: fp 1, fn 1; pattern 2: tp 1 */
    assert_int_equal(m.per_pattern[0].tp, 2);
    assert_int_equal(m.per_pattern[1].fp, 1);
    assert_int_equal(m.per_pattern[1].fn, 1);
    assert_int_equal(m.per_pattern[1].support, 1);
    assert_float_equal(m.per_pattern[0].f1, 1.0, 1e-12);
    assert_float_equal(m.per_pattern[1].f1, 0.0, 1e-12);
    assert_float_equal(m.per_pattern[1].precision, 0.0, 1e-12);
    assert_float_equal(m.per_pattern[2].recall, 1.0, 1e-12);
    assert_true(isnan(m.per_pattern[3].f1));
    assert_true(isnan(m.per_pattern[3].precision));
    assert_float_equal(m.micro_f1, 6.0 / 8.0, 1e-12);       /* TP 3 FP 1 FN 1 */
    assert_float_equal(m.macro_f1, 2.0 / 3.0, 1e-12);       /* (1 + 0 + 1) / 3 */
    assert_float_equal(m.hamming_loss, 2.0 / 20.0, 1e-12);  /* 2 wrong bits */
    assert_float_equal(m.subset_accuracy, 3.0 / 5.0, 1e-12); /* runs 0, 3, 4 */
    assert_int_equal(m.healthy_runs, 2);
    assert_int_equal(m.healthy_flagged_runs, 1);
    assert_float_equal(m.healthy_flagged, 0.5, 1e-12);

    char *json = iosage_metrics_json(&m, "test");
    assert_non_null(json);
    json_error_t jerr;
    json_t *o = json_loads(json, 0, &jerr);
    assert_non_null(o);
    const char *keys[] = {"split", "runs", "micro_f1", "macro_f1",
                          "hamming_loss", "subset_accuracy", "healthy_flagged",
                          "per_pattern"};
    assert_int_equal(json_object_size(o), 8);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        assert_non_null(json_object_get(o, keys[i]));
    json_t *per = json_object_get(o, "per_pattern");
    assert_int_equal(json_object_size(per), 4);
    json_t *p3 = json_object_get(per, iosage_pattern_get(3)->id);
    assert_true(json_is_null(json_object_get(p3, "f1")));
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(per, iosage_pattern_get(0)->id),
                         "support")), 2);
    json_decref(o);
    free(json);
}

/* --- Thresholds --------------------------------------------------------------- */

static void threshold_best_f1(void **state)
{
    (void)state;
    /* candidates: >=0.1 F1 6/9, >=0.2 6/8, >=0.3 6/7 (best), >=0.4 4/6,
     * >=0.8 4/5, >=0.9 2/4: the threshold lies in (0.2, 0.3] */
    const float s[6] = {0.4f, 0.1f, 0.9f, 0.3f, 0.2f, 0.8f};
    const uint8_t t[6] = {0, 0, 1, 1, 0, 1};
    double f1;
    double thr = iosage_threshold_best_f1(s, t, 6, &f1);
    assert_float_equal(f1, 6.0 / 7.0, 1e-12);
    assert_true(thr > 0.2f && thr <= 0.3f);
    assert_float_equal(thr, 0.25, 1e-12);
}

static void threshold_ties_go_up(void **state)
{
    (void)state;
    /* low to high: P N N P. All positive: tp 2 fp 2 -> 2/3; only the top
     * one: tp 1 fn 1 -> 2/3. The tie goes to the higher threshold. */
    const float s[4] = {0.1f, 0.2f, 0.3f, 0.4f};
    const uint8_t t[4] = {1, 0, 0, 1};
    double f1;
    double thr = iosage_threshold_best_f1(s, t, 4, &f1);
    assert_float_equal(f1, 2.0 / 3.0, 1e-12);
    assert_true(thr > 0.3f && thr <= 0.4f);
}

static void threshold_edge_cases(void **state)
{
    (void)state;
    const float s[3] = {0.2f, 0.5f, 0.7f};
    const uint8_t none[3] = {0, 0, 0}, all[3] = {1, 1, 1};
    double f1;
    assert_float_equal(iosage_threshold_best_f1(s, none, 3, &f1), 0.5, 0);
    assert_true(isnan(f1));
    double thr = iosage_threshold_best_f1(s, all, 3, &f1);
    assert_float_equal(f1, 1.0, 0);
    assert_true(thr > 0 && thr <= 0.2f); /* every row positive */
    const float same[3] = {0.6f, 0.6f, 0.6f};
    const uint8_t mixed[3] = {1, 0, 1};
    thr = iosage_threshold_best_f1(same, mixed, 3, &f1);
    assert_true(thr <= 0.6f);
    assert_float_equal(f1, 0.8, 1e-12);
}

/* --- The detection rule ------------------------------------------------------- */

static void detection_rule(void **state)
{
    (void)state;
    iosage_model *m = ios_model_new();
    assert_non_null(m);
    int n = m->n_patterns;
    assert_int_equal(n, iosage_pattern_count());
    for (int s = 0; s < m->n_slots; s++)
        m->slot[s].threshold = 0.5;
    m->slot[3].threshold = 0.9; /* pattern 2 */
    m->params.gate_outvote = 0; /* rules 1-3 first, without the exception */
    double scores[IOSAGE_MAX_PATTERNS] = {0};
    struct iosage_detection d;

    scores[0] = 0.99; /* rule 1: the gate says healthy, nothing reported */
    ios_detect_apply(m, 0.4, scores, 1.0, &d);
    assert_true(d.healthy);
    assert_int_equal(d.labels, 0);
    assert_false(d.detected[0]);
    assert_float_equal(d.score[0], 0.99, 0);

    scores[1] = 0.5; /* rule 2: patterns at or above their thresholds */
    ios_detect_apply(m, 0.7, scores, 1.0, &d);
    assert_false(d.healthy);
    assert_false(d.gate_only);
    assert_int_equal(d.labels, 0x3);

    for (int k = 0; k < n; k++) /* rule 3: no pattern clears: healthy */
        scores[k] = 0.1;
    scores[2] = 0.89; /* just under its 0.9 */
    ios_detect_apply(m, 0.99, scores, 1.0, &d);
    assert_true(d.healthy);
    assert_true(d.gate_only);
    assert_int_equal(d.labels, 0);
    for (int k = 0; k < n; k++)
        assert_false(d.detected[k]);

    scores[2] = 0.9; /* at the threshold counts */
    ios_detect_apply(m, 0.5, scores, 1.0, &d);
    assert_false(d.healthy);
    assert_false(d.gate_only);
    assert_false(d.io_gated);
    assert_int_equal(d.labels, 1u << 2);

    /* rule 0: the slowest rank under 5% of the run in I/O: healthy,
     * whatever the models say; at 5% the models decide */
    m->params.io_share_gate = 0.05;
    ios_detect_apply(m, 0.99, scores, 0.0499, &d);
    assert_true(d.healthy);
    assert_true(d.io_gated);
    assert_int_equal(d.labels, 0);
    assert_float_equal(d.score[2], 0.9, 0);
    ios_detect_apply(m, 0.99, scores, 0.05, &d);
    assert_false(d.io_gated);
    assert_int_equal(d.labels, 1u << 2);
    m->params.io_share_gate = 0; /* disabled (bundles made without it) */
    ios_detect_apply(m, 0.99, scores, 0.0, &d);
    assert_int_equal(d.labels, 1u << 2);

    /* rule 1's exception: a pattern at gate_outvote and its own threshold
     * outvotes a gate under its threshold; under either, the gate wins */
    m->params.gate_outvote = 0.95;
    scores[2] = 0.95;
    ios_detect_apply(m, 0.3, scores, 1.0, &d);
    assert_false(d.healthy);
    assert_int_equal(d.labels, 1u << 2);
    scores[2] = 0.94; /* over its threshold 0.9, under gate_outvote */
    ios_detect_apply(m, 0.3, scores, 1.0, &d);
    assert_true(d.healthy);
    assert_int_equal(d.labels, 0);
    m->params.gate_outvote = 0.5;
    scores[2] = 0.6; /* over gate_outvote, under its own 0.9 */
    ios_detect_apply(m, 0.3, scores, 1.0, &d);
    assert_true(d.healthy);
    scores[0] = 0.6; /* pattern 0 (threshold 0.5) outvotes; pattern 2 is
                        still under its own threshold */
    ios_detect_apply(m, 0.3, scores, 1.0, &d);
    assert_false(d.healthy);
    assert_int_equal(d.labels, 1u << 0);
    m->params.gate_outvote = 0; /* bundles made before it: the gate wins */
    ios_detect_apply(m, 0.3, scores, 1.0, &d);
    assert_true(d.healthy);
    iosage_model_free(m);
}

static void top_contributions(void **state)
{
    (void)state;
    float x[NF], c[NF + 1];
    for (int i = 0; i < NF; i++) {
        x[i] = (float)i;
        c[i] = 0;
    }
    c[NF] = 5; /* the bias is never listed */
    c[7] = -2, c[3] = 2, c[50] = 0.5f, c[9] = -0.25f;
    struct iosage_contribution top[IOSAGE_SHAP_TOP];
    int k = iosage_model_top_contributions(x, c, IOSAGE_SHAP_TOP, top);
    assert_int_equal(k, 4); /* the zeros are left out */
    assert_int_equal(top[0].feature, 3); /* tie |2| = |-2|: lower index */
    assert_int_equal(top[1].feature, 7);
    assert_float_equal(top[1].contribution, -2, 0);
    assert_float_equal(top[1].value, 7, 0);
    assert_int_equal(top[2].feature, 50);
    assert_int_equal(top[3].feature, 9);
}

/* --- Synthetic data and training ---------------------------------------------- */

static uint64_t rng_state;

static double rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* Pattern k is present when feature 5k exceeds 0.72; splits 60/20/10/10. */
static iosage_dataset *synthetic(void)
{
    iosage_dataset *ds = NULL;
    assert_int_equal(iosage_dataset_create(N_ROWS, &ds, NULL), IOSAGE_OK);
    rng_state = 0x9e3779b97f4a7c15ull;
    int np = iosage_pattern_count();
    for (size_t i = 0; i < N_ROWS; i++) {
        float *x = ds->x + i * NF;
        for (int f = 0; f < NF; f++)
            x[f] = (float)rnd();
        /* the counts only the floors read: above every floor, so that the
         * floors do not decide here (tested in test_patterns) */
        for (int f = IOSAGE_NUM_MODEL_FEATURES; f < NF; f++)
            x[f] = 6.0f;
        for (int k = 0; k < np; k++)
            if (x[5 * k] > 0.72f)
                ds->labels[i] |= 1u << k;
        int r = (int)(i % 10);
        ds->split[i] = r < 6 ? IOSAGE_SPLIT_TRAIN
                       : r < 8 ? IOSAGE_SPLIT_VALIDATION
                       : r < 9 ? IOSAGE_SPLIT_TEST : IOSAGE_SPLIT_OOD;
    }
    return ds;
}

static int n_log_lines;

static void count_line(void *ctx, const char *msg)
{
    (void)ctx;
    (void)msg;
    n_log_lines++;
}

static iosage_model *train_rounds(const iosage_dataset *ds, int threads,
                                  int rounds)
{
    struct iosage_train_params p;
    iosage_train_params_default(&p);
    p.max_rounds = rounds;
    p.early_stopping = 15;
    p.threads = threads;
    /* the synthetic patterns live on features 0, 5, 10, ...: every model
     * sees every feature, and no I/O share gate (feature 0 is
     * job_io_time_share_slowest); both are tested in forest_and_sets */
    p.feature_sets = 0;
    p.io_share_gate = 0;
    iosage_model *m = NULL;
    iosage_error err;
    iosage_status st = iosage_model_train(ds, &p, &m, &err);
    if (st != IOSAGE_OK)
        fail_msg("train: %s", err.msg);
    return m;
}

static iosage_model *train(const iosage_dataset *ds, int threads)
{
    return train_rounds(ds, threads, 60);
}

/* Bundle file names of a model, NULL-terminated (static storage). */
static const char **bundle_files(void)
{
    static char names[IOS_MAX_SLOTS + 1][128];
    static const char *list[IOS_MAX_SLOTS + 2];
    int n = 0;
    snprintf(names[n], sizeof names[n], "bundle.json");
    list[n] = names[n];
    n++;
    for (int s = 0; s <= iosage_pattern_count(); s++, n++) {
        snprintf(names[n], sizeof names[n], "%s.json", ios_slot_id(s));
        list[n] = names[n];
    }
    list[n] = NULL;
    return list;
}

/* The bundle files of dir in memory (bufs freed by the caller). */
static size_t read_bundle(const char *dir, struct iosage_model_file *files,
                          uint8_t **bufs)
{
    const char **names = bundle_files();
    size_t n = 0;
    for (; names[n]; n++) {
        char path[2200];
        snprintf(path, sizeof path, "%s/%s", dir, names[n]);
        size_t len = 0;
        bufs[n] = tu_read_file(path, &len);
        assert_non_null(bufs[n]);
        files[n] = (struct iosage_model_file){names[n], bufs[n], len};
    }
    return n;
}

static void assert_same_detection(const iosage_model *a, const iosage_model *b,
                                  const iosage_dataset *ds)
{
    struct iosage_detection *da = calloc(ds->n_rows, sizeof *da);
    struct iosage_detection *db = calloc(ds->n_rows, sizeof *db);
    assert_int_equal(iosage_model_detect(a, ds->x, ds->n_rows, da, NULL),
                     IOSAGE_OK);
    assert_int_equal(iosage_model_detect(b, ds->x, ds->n_rows, db, NULL),
                     IOSAGE_OK);
    for (size_t i = 0; i < ds->n_rows; i++) {
        assert_true(da[i].gate_score == db[i].gate_score);
        assert_int_equal(da[i].labels, db[i].labels);
        for (int k = 0; k < da[i].n_patterns; k++)
            assert_true(da[i].score[k] == db[i].score[k]);
    }
    for (int k = IOSAGE_MODEL_GATE; k < iosage_model_pattern_count(a); k++)
        assert_true(iosage_model_threshold(a, k) ==
                    iosage_model_threshold(b, k));
    free(da);
    free(db);
}

static void assert_same_files(const char *d1, const char *d2)
{
    for (const char **n = bundle_files(); *n; n++) {
        char p1[2200], p2[2200];
        snprintf(p1, sizeof p1, "%s/%s", d1, *n);
        snprintf(p2, sizeof p2, "%s/%s", d2, *n);
        size_t l1 = 0, l2 = 0;
        uint8_t *b1 = tu_read_file(p1, &l1), *b2 = tu_read_file(p2, &l2);
        assert_non_null(b1);
        assert_non_null(b2);
        if (l1 != l2 || memcmp(b1, b2, l1) != 0)
            fail_msg("%s differs between %s and %s", *n, d1, d2);
        free(b1);
        free(b2);
    }
}

static void remove_bundle(const char *dir)
{
    for (const char **n = bundle_files(); *n; n++) {
        char p[2200];
        snprintf(p, sizeof p, "%s/%s", dir, *n);
        unlink(p);
        snprintf(p, sizeof p, "%s/%s.bin", dir, *n); /* a model's form */
        unlink(p);
    }
    rmdir(dir);
}

/* A bundle in memory as the build embeds one: beside each model file of
 * files its binary form as "<name>.bin" (cmake/embed_model.cmake), made
 * from the same file of from. how: 0 the real forms, 1 each one damaged
 * (cut in half), 2 empty ones (no binary form). Returns the
 * loaded model, or NULL when the load failed. */
static iosage_model *load_forms(const struct iosage_model_file *files,
                                const struct iosage_model_file *from,
                                size_t n, int how)
{
    struct iosage_model_file all[2 * (IOS_MAX_SLOTS + 2)];
    char names[IOS_MAX_SLOTS + 2][160];
    unsigned char *form[IOS_MAX_SLOTS + 2] = {0};
    size_t k = 0, forms = 0;
    for (size_t i = 0; i < n; i++) {
        all[k++] = files[i];
        BoosterHandle b = NULL;
        if (ios_xgb_load(from[i].data, from[i].size, &b, NULL) != IOSAGE_OK)
            continue; /* bundle.json */
        const char *data = NULL;
        bst_ulong len = 0;
        assert_int_equal(ios_xgb()->XGBoosterSaveModelToBuffer(
                             b, "{\"format\": \"deprecated\"}", &len, &data), 0);
        assert_true(len > 16 && memcmp(data, "binf", 4) == 0);
        form[i] = malloc(len);
        assert_non_null(form[i]);
        memcpy(form[i], data, len);
        ios_xgb()->XGBoosterFree(b);
        snprintf(names[i], sizeof names[i], "%s.bin", files[i].name);
        /* damaged: cut in half (XGBoost's binary reader stops at the end
         * and says so; overwritten sizes would have it allocate gigabytes,
         * which AddressSanitizer's allocator aborts on) */
        all[k++] = (struct iosage_model_file){names[i], form[i],
                                              how == 2 ? 0 : how == 1 ? len / 2 : len};
        forms++;
    }
    assert_true(forms >= 2); /* the gate and a pattern at least */
    iosage_model *m = NULL;
    iosage_error err;
    iosage_status st = iosage_model_load_mem(all, k, "mem+bin", &m, &err);
    for (size_t i = 0; i < n; i++)
        free(form[i]);
    return st == IOSAGE_OK ? m : NULL;
}

/* load_forms of files' own forms. */
static iosage_model *load_with_forms(const struct iosage_model_file *files,
                                   size_t n, int how)
{
    return load_forms(files, files, n, how);
}

/* Train, save, load from the directory and from memory: same predictions. */
static void train_save_load(void **state)
{
    (void)state;
    iosage_dataset *ds = synthetic();
    n_log_lines = 0;
    iosage_model_set_log_hook(count_line, NULL);
    iosage_model *m = train(ds, 1);
    assert_int_equal(n_log_lines, 0); /* P2: every parameter name is valid */

    /* the synthetic patterns are easy: the test split must be near perfect */
    const struct iosage_metrics *mt = iosage_model_metrics(m, IOSAGE_SPLIT_TEST);
    assert_non_null(mt);
    assert_int_equal(mt->runs, N_ROWS / 10);
    assert_true(mt->micro_f1 > 0.9);
    assert_null(iosage_model_metrics(m, IOSAGE_SPLIT_TRAIN));
    assert_true(iosage_model_data_hash(m) == iosage_dataset_hash(ds));

    char *tmp = tu_mkdtemp();
    char d1[1024], d2[1024];
    snprintf(d1, sizeof d1, "%s/b1", tmp);
    snprintf(d2, sizeof d2, "%s/b2", tmp);
    iosage_error err;
    assert_int_equal(iosage_model_save(m, d1, &err), IOSAGE_OK);

    iosage_model *from_dir = NULL, *from_mem = NULL;
    assert_int_equal(iosage_model_load(d1, &from_dir, &err), IOSAGE_OK);
    assert_string_equal(iosage_model_source(from_dir), d1);
    struct iosage_model_file files[IOS_MAX_SLOTS + 2];
    uint8_t *bufs[IOS_MAX_SLOTS + 2];
    size_t n = read_bundle(d1, files, bufs);
    assert_int_equal(iosage_model_load_mem(files, n, "mem", &from_mem, &err),
                     IOSAGE_OK);
    iosage_model *from_form = load_with_forms(files, n, 0);
    assert_null(load_with_forms(files, n, 1)); /* damaged: it is what loads */
    iosage_model *from_empty = load_with_forms(files, n, 2); /* the JSON */
    /* a binary form is taken as given (the build checked the JSON it was
     * made from): with every model's JSON replaced by other bytes, the
     * bundle still loads from its forms, and without them it is refused
     * by the first hash */
    static const unsigned char other[] = "{\"not\": \"the model\"}";
    struct iosage_model_file swapped[IOS_MAX_SLOTS + 2];
    for (size_t i = 0; i < n; i++) {
        swapped[i] = files[i];
        if (strcmp(files[i].name, "bundle.json") != 0)
            swapped[i] = (struct iosage_model_file){files[i].name, other,
                                                    sizeof other - 1};
    }
    iosage_model *from_forms = NULL;
    assert_int_equal(iosage_model_load_mem(swapped, n, "swapped", &from_forms, &err),
                     IOSAGE_E_CORRUPT);
    assert_non_null(strstr(err.msg, "file_hash"));
    from_forms = load_forms(swapped, files, n, 0);
    assert_non_null(from_forms);
    for (size_t i = 0; i < n; i++) /* the model must not need the buffers */
        free(bufs[i]);
    assert_same_detection(m, from_forms, ds);
    iosage_model_free(from_forms);
    assert_same_detection(m, from_dir, ds);
    assert_same_detection(m, from_mem, ds);
    assert_same_detection(m, from_form, ds);
    assert_same_detection(m, from_empty, ds);
    iosage_model_free(from_form);
    iosage_model_free(from_empty);
    assert_true(iosage_model_data_hash(from_mem) == iosage_model_data_hash(m));
    const struct iosage_metrics *lt = iosage_model_metrics(from_mem,
                                                           IOSAGE_SPLIT_TEST);
    assert_non_null(lt);
    assert_float_equal(lt->micro_f1, mt->micro_f1, 1e-6);

    iosage_model_set_log_hook(NULL, NULL);

    iosage_model_free(from_mem);
    iosage_model_free(from_dir);
    iosage_model_free(m);
    remove_bundle(d1);
    rmdir(tmp);
    free(tmp);
    iosage_dataset_free(ds);
}

/* Training twice, with 1 and 2 threads, gives the same bytes. (Few rounds:
 * OpenMP threads spin, which is slow when ctest runs tests side by side.) */
static void reproducible_bytes(void **state)
{
    (void)state;
    iosage_dataset *ds = synthetic();
    char *tmp = tu_mkdtemp();
    char d1[1024], d2[1024];
    snprintf(d1, sizeof d1, "%s/b1", tmp);
    snprintf(d2, sizeof d2, "%s/b2", tmp);
    iosage_model *a = train_rounds(ds, 1, 6), *b = train_rounds(ds, 2, 6);
    assert_int_equal(iosage_model_save(a, d1, NULL), IOSAGE_OK);
    assert_int_equal(iosage_model_save(b, d2, NULL), IOSAGE_OK);
    assert_same_files(d1, d2);
    iosage_model_free(a);
    iosage_model_free(b);
    remove_bundle(d1);
    remove_bundle(d2);
    rmdir(tmp);
    free(tmp);
    iosage_dataset_free(ds);
}

/* SHAP contributions (bias included) sum to the margin, for every model. */
static void shap_sums_to_margin(void **state)
{
    (void)state;
    iosage_dataset *ds = synthetic();
    iosage_model *m = train(ds, 1);
    float contrib[NF + 1];
    for (size_t i = 0; i < 20; i++) {
        const float *x = ds->x + i * NF;
        for (int k = IOSAGE_MODEL_GATE; k < iosage_model_pattern_count(m); k++) {
            double margin = NAN, sum = 0;
            assert_int_equal(iosage_model_explain(m, k, x, contrib, &margin,
                                                  NULL), IOSAGE_OK);
            for (int f = 0; f <= NF; f++)
                sum += contrib[f];
            assert_true(isfinite(margin));
            assert_float_equal(sum, margin, 1e-4);
        }
    }
    /* the pattern's own feature carries its explanation */
    struct iosage_detection d;
    for (size_t i = 0; i < ds->n_rows; i++) {
        const float *x = ds->x + i * NF;
        assert_int_equal(iosage_model_detect(m, x, 1, &d, NULL), IOSAGE_OK);
        if (!d.detected[1])
            continue;
        struct iosage_contribution top[IOSAGE_SHAP_TOP];
        assert_int_equal(iosage_model_explain(m, 1, x, contrib, NULL, NULL),
                         IOSAGE_OK);
        assert_true(iosage_model_top_contributions(x, contrib, 5, top) > 0);
        assert_int_equal(top[0].feature, 5);
        break;
    }
    assert_int_equal(iosage_model_explain(m, 99, ds->x, contrib, NULL, NULL),
                     IOSAGE_E_USAGE);
    iosage_model_free(m);
    iosage_dataset_free(ds);
}

/* --- Refused bundles ------------------------------------------------------------ */

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Load the bundle of dir with bundle.json's text edited (old -> new). */
static iosage_status load_edited(const char *dir, const char *old,
                                 const char *new, iosage_error *err)
{
    struct iosage_model_file files[IOS_MAX_SLOTS + 2];
    uint8_t *bufs[IOS_MAX_SLOTS + 2];
    size_t n = read_bundle(dir, files, bufs);
    const char *text = (const char *)bufs[0];
    size_t len = files[0].size;
    char *edited = malloc(len + strlen(new) + 1);
    const char *at = strstr(text, old);
    assert_non_null(at);
    size_t pre = (size_t)(at - text), olen = strlen(old);
    memcpy(edited, text, pre);
    memcpy(edited + pre, new, strlen(new));
    memcpy(edited + pre + strlen(new), at + olen, len - pre - olen);
    files[0].data = (const unsigned char *)edited;
    files[0].size = len - olen + strlen(new);
    iosage_model *m = NULL;
    iosage_status st = iosage_model_load_mem(files, n, "edited", &m, err);
    iosage_model_free(m);
    free(edited);
    for (size_t i = 0; i < n; i++)
        free(bufs[i]);
    return st;
}

static void refused_bundles(void **state)
{
    (void)state;
    iosage_dataset *ds = synthetic();
    struct iosage_train_params p;
    iosage_train_params_default(&p);
    p.max_rounds = 5;
    iosage_model *m = NULL;
    assert_int_equal(iosage_model_train(ds, &p, &m, NULL), IOSAGE_OK);
    char *tmp = tu_mkdtemp();
    assert_int_equal(iosage_model_save(m, tmp, NULL), IOSAGE_OK);
    iosage_error err;
    char line[800];

    char ours[64], want[64];
    snprintf(ours, sizeof ours, "\"feature_schema_version\": %d",
             IOSAGE_FEATURE_SCHEMA_VERSION);
    snprintf(want, sizeof want, "version 999 in the bundle, %d in this",
             IOSAGE_FEATURE_SCHEMA_VERSION);
    assert_int_equal(load_edited(tmp, ours, "\"feature_schema_version\": 999",
                                 &err),
                     IOSAGE_E_VERSION);
    iosage_error_line(&err, line, sizeof line);
    assert_non_null(strstr(line, "edited"));
    assert_non_null(strstr(line, "999"));
    assert_non_null(strstr(line, want));
    assert_null(strchr(line, '\n'));

    char old[160], new[160];
    snprintf(old, sizeof old, "\"%s\"", iosage_feature_name(3));
    snprintf(new, sizeof new, "\"%s_renamed\"", iosage_feature_name(3));
    assert_int_equal(load_edited(tmp, old, new, &err), IOSAGE_E_VERSION);
    assert_non_null(strstr(err.msg, "feature 3"));

    snprintf(old, sizeof old, ",\n    \"%s\"\n  ]", iosage_feature_name(NF - 1));
    assert_int_equal(load_edited(tmp, old, "\n  ]", &err), IOSAGE_E_VERSION);
    char nf_want[32];
    snprintf(nf_want, sizeof nf_want, "%d features", NF - 1);
    assert_non_null(strstr(err.msg, nf_want));

    snprintf(old, sizeof old, "\"patterns\": [\n    \"%s\"",
             iosage_pattern_get(0)->id);
    assert_int_equal(load_edited(tmp, old, "\"patterns\": [\n    \"nope\"",
                                 &err), IOSAGE_E_VERSION);
    assert_int_equal(load_edited(tmp, "\"bundle_version\": 1",
                                 "\"bundle_version\": 2", &err),
                     IOSAGE_E_VERSION);
    assert_int_equal(load_edited(tmp, "\"file\": \"gate.json\"",
                                 "\"file\": \"../gate.json\"", &err),
                     IOSAGE_E_CORRUPT);
    assert_int_equal(load_edited(tmp, "{", "[", &err), IOSAGE_E_CORRUPT);

    /* a model file that is not the one listed: its binary form (listed,
     * with its hash) is loaded instead; without the form, the JSON is
     * refused by its hash */
    char path[2200];
    const char *garbage = "{\"not\": \"a model\"}";
    snprintf(path, sizeof path, "%s/gate.json", tmp);
    write_file(path, garbage);
    iosage_model *bad = NULL;
    assert_int_equal(iosage_model_load(tmp, &bad, &err), IOSAGE_OK);
    assert_non_null(bad);
    iosage_model_free(bad);
    bad = NULL;
    snprintf(path, sizeof path, "%s/gate.json.bin", tmp);
    assert_int_equal(unlink(path), 0);
    snprintf(path, sizeof path, "%s/gate.json", tmp);
    assert_int_equal(iosage_model_load(tmp, &bad, &err), IOSAGE_E_CORRUPT);
    assert_null(bad);
    assert_string_equal(err.where, "gate.json");
    assert_non_null(strstr(err.msg, "file_hash"));
    /* listed with its hash, it reaches XGBoost, which refuses it */
    snprintf(path, sizeof path, "%s/bundle.json", tmp);
    size_t len = 0;
    char *text = (char *)tu_read_file(path, &len);
    assert_non_null(text);
    text = realloc(text, len + 1);
    text[len] = '\0';
    char *h = strstr(text, "\"file_hash\": \"fnv1a64:"); /* the gate's */
    assert_non_null(h);
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx",
             (unsigned long long)ios_fnv1a64(garbage, strlen(garbage)));
    memcpy(h + strlen("\"file_hash\": \"fnv1a64:"), hex, 16);
    write_file(path, text);
    free(text);
    assert_int_equal(iosage_model_load(tmp, &bad, &err), IOSAGE_E_CORRUPT);
    assert_null(bad);
    assert_string_equal(err.where, "gate.json");
    assert_non_null(strstr(err.msg, "xgboost"));
    assert_int_equal(iosage_model_load("/nonexistent/bundle", &bad, &err),
                     IOSAGE_E_IO);

    remove_bundle(tmp);
    free(tmp);
    iosage_model_free(m);
    iosage_dataset_free(ds);
}

/* --- The detect JSON line --------------------------------------------------------- */

static void detect_json_line(void **state)
{
    (void)state;
    iosage_dataset *ds = synthetic();
    iosage_model *m = train(ds, 1);
    /* a row with pattern 0 present (feature 0 high), and one with none */
    float x[NF];
    memcpy(x, ds->x, sizeof x);
    for (int k = 0; k < iosage_pattern_count(); k++)
        x[5 * k] = 0.1f;
    x[0] = 0.95f;
    char *line = iosage_model_detect_json(m, x, "run\xff.darshan", 1, NULL);
    assert_non_null(line);
    assert_null(strchr(line, '\n'));
    json_error_t jerr;
    json_t *o = json_loads(line, 0, &jerr);
    assert_non_null(o);
    assert_string_equal(json_string_value(json_object_get(o, "file")),
                        "run\xef\xbf\xbd.darshan");
    json_t *h = json_object_get(o, "healthy");
    assert_true(json_is_number(json_object_get(h, "score")));
    assert_true(json_is_false(json_object_get(h, "detected")));
    json_t *pats = json_object_get(o, "patterns");
    assert_int_equal(json_object_size(pats), (size_t)iosage_pattern_count());
    for (int k = 0; k < iosage_pattern_count(); k++) {
        json_t *e = json_object_get(pats, iosage_pattern_get(k)->id);
        assert_non_null(e);
        int det = json_is_true(json_object_get(e, "detected"));
        json_t *shap = json_object_get(e, "shap");
        assert_int_equal(det, k == 0);
        if (!det) {
            assert_null(shap);
            continue;
        }
        assert_true(json_array_size(shap) >= 1 &&
                    json_array_size(shap) <= IOSAGE_SHAP_TOP);
        json_t *first = json_array_get(shap, 0);
        assert_string_equal(json_string_value(json_object_get(first,
                                                              "feature")),
                            iosage_feature_name(0));
        assert_true(json_is_number(json_object_get(first, "value")));
        assert_true(json_is_number(json_object_get(first, "contribution")));
    }
    json_decref(o);
    free(line);

    line = iosage_model_detect_json(m, x, "a.darshan", 0, NULL); /* no SHAP */
    assert_null(strstr(line, "\"shap\""));
    free(line);
    line = iosage_model_error_json("b.darshan", "cannot open");
    assert_string_equal(line, "{\"file\":\"b.darshan\",\"error\":\"cannot open\"}");
    free(line);
    iosage_model_free(m);
    iosage_dataset_free(ds);
}

/* --- Dataset directories ------------------------------------------------------------ */

static void write_text(const char *dir, const char *name, const char *text)
{
    char path[2200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int n_skipped_cb;

static void on_row(void *ctx, size_t done, size_t total, const char *run_id,
                   const iosage_error *skipped)
{
    (void)ctx;
    assert_true(done >= 1 && done <= total);
    assert_non_null(run_id);
    if (skipped) {
        n_skipped_cb++;
        assert_string_equal(run_id, "broken-r0");
    }
}

static void dataset_directory(void **state)
{
    (void)state;
    char *dir = tu_mkdtemp();
    char path[2200];
    iosage_error err;
    iosage_log *log = example_build_log(&err);
    assert_non_null(log);
    snprintf(path, sizeof path, "%s/good.darshan", dir);
    assert_int_equal(iosage_log_write(log, path, &err), IOSAGE_OK);
    iosage_log_free(log);
    write_text(dir, "broken.darshan", "not a log\n");
    const char *hdr = "run_id\tconfig_id\tkernel\tflags\tranks\tlabels\tseed\t"
                      "wall_seconds\tlog\tsplit\tstatus\n";
    char text[2048];
    snprintf(text, sizeof text,
             "%s"
             "good-r0\tc\tk\t--x\t2\taccess_granularity,interface_choice\t1\t0.1\tgood.darshan\ttrain\tok\n"
             "good-r1\tc\tk\t\t2\thealthy\t2\t0.1\tgood.darshan\tood\tok\n"
             "broken-r0\tc\tk\t\t2\thealthy\t3\t0.1\tbroken.darshan\ttest\tok\n"
             "failed-r0\tc\tk\t\t2\thealthy\t4\t0.1\tnone.darshan\ttrain\tfailed: exit 1\n",
             hdr);
    write_text(dir, "manifest.tsv", text);
    iosage_dataset *ds = NULL;
    n_skipped_cb = 0;
    assert_int_equal(iosage_dataset_load(dir, on_row, NULL, &ds, &err),
                     IOSAGE_OK);
    assert_int_equal(ds->n_rows, 2);
    assert_int_equal(ds->n_skipped, 1);
    assert_int_equal(n_skipped_cb, 1);
    assert_string_equal(ds->run_ids[0], "good-r0");
    int ag = iosage_pattern_index("access_granularity");
    int ic = iosage_pattern_index("interface_choice");
    assert_int_equal(ds->labels[0], (1u << ag) | (1u << ic));
    assert_int_equal(ds->labels[1], 0);
    assert_int_equal(ds->split[0], IOSAGE_SPLIT_TRAIN);
    assert_int_equal(ds->split[1], IOSAGE_SPLIT_OOD);
    float x[NF];
    log = example_build_log(&err);
    assert_int_equal(iosage_features_compute(log, x, &err), IOSAGE_OK);
    iosage_log_free(log);
    assert_memory_equal(ds->x, x, sizeof x);
    /* the log path as opened, and the kernel column */
    snprintf(path, sizeof path, "%s/good.darshan", dir);
    assert_string_equal(ds->logs[0], path);
    assert_string_equal(ds->logs[1], path);
    assert_string_equal(ds->kernels[0], "k");
    /* the rule baseline on the same logs: the example log's small
     * independent writes cross the small-request and no-collective
     * thresholds, as `iosage rules` says */
    uint32_t rules[2] = {99, 99};
    assert_int_equal(iosage_dataset_rules(ds, rules, &err), IOSAGE_OK);
    assert_int_equal(rules[0], (1u << ag) | (1u << ic));
    assert_int_equal(rules[1], rules[0]);
    uint64_t h = iosage_dataset_hash(ds);
    ds->x[5] += 1;
    assert_true(iosage_dataset_hash(ds) != h);
    assert_int_equal(ds->n_gated, 0);
    iosage_dataset_free(ds);

    /* the healthy gate on generated runs: the same log with a run 10^6 s
     * long (slowest rank under 5% of it in I/O) is read as healthy; the same
     * row in a manifest without config_id (hand-made labels) is not */
    log = example_build_log(&err);
    struct iosage_job job = log->job;
    job.end_time_sec = job.start_time_sec + 1000000;
    assert_int_equal(iosage_log_set_job(log, &job, &err), IOSAGE_OK);
    snprintf(path, sizeof path, "%s/long.darshan", dir);
    assert_int_equal(iosage_log_write(log, path, &err), IOSAGE_OK);
    iosage_log_free(log);
    snprintf(text, sizeof text,
             "%slong-r0\tc\tk\t\t2\taccess_granularity\t1\t0.1\tlong.darshan\ttrain\tok\n"
             "good-r0\tc\tk\t\t2\taccess_granularity\t1\t0.1\tgood.darshan\ttrain\tok\n"
             "good-r1\tc\tk\t\t2\taccess_granularity,throughput_utilization\t1\t0.1\tgood.darshan\ttrain\tok\n",
             hdr);
    write_text(dir, "manifest.tsv", text);
    assert_int_equal(iosage_dataset_load(dir, NULL, NULL, &ds, &err),
                     IOSAGE_OK);
    assert_int_equal(ds->n_rows, 3);
    assert_int_equal(ds->labels[0], 0);
    assert_int_equal(ds->labels[1], 1u << ag);
    assert_int_equal(ds->n_gated, 1);
    /* the example log has no sync, re-read or LUSTRE record: under every
     * floor of throughput_utilization, which is dropped */
    assert_int_equal(ds->labels[2], 1u << ag);
    assert_int_equal(ds->n_floored, 1);
    iosage_dataset_free(ds);
    write_text(dir, "manifest.tsv",
               "run_id\tlabels\tlog\tsplit\tstatus\n"
               "long-r0\taccess_granularity\tlong.darshan\ttest\tok\n");
    assert_int_equal(iosage_dataset_load(dir, NULL, NULL, &ds, &err),
                     IOSAGE_OK);
    assert_int_equal(ds->labels[0], 1u << ag);
    assert_int_equal(ds->n_gated, 0);
    iosage_dataset_free(ds);

    /* an unknown pattern id names the manifest and the line */
    snprintf(text, sizeof text, "%sx-r0\tc\tk\t\t2\tbogus\t1\t0.1\tgood.darshan\ttrain\tok\n",
             hdr);
    write_text(dir, "manifest.tsv", text);
    assert_int_equal(iosage_dataset_load(dir, NULL, NULL, &ds, &err),
                     IOSAGE_E_CORRUPT);
    assert_null(ds);
    assert_non_null(strstr(err.msg, "line 2"));
    assert_non_null(strstr(err.msg, "bogus"));
    assert_non_null(strstr(err.path, "manifest.tsv"));
    /* without a kernel column: no kernels */
    snprintf(text, sizeof text, "run_id\tlabels\tlog\tsplit\tstatus\n"
             "g\thealthy\tgood.darshan\ttest\tok\n");
    write_text(dir, "manifest.tsv", text);
    assert_int_equal(iosage_dataset_load(dir, NULL, NULL, &ds, &err), IOSAGE_OK);
    assert_int_equal(ds->n_rows, 1);
    assert_null(ds->kernels);
    iosage_dataset_free(ds);
    write_text(dir, "manifest.tsv", "run_id\tlabels\tlog\n");
    assert_int_equal(iosage_dataset_load(dir, NULL, NULL, &ds, &err),
                     IOSAGE_E_CORRUPT);
    assert_non_null(strstr(err.msg, "split"));

    snprintf(path, sizeof path, "%s/good.darshan", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/broken.darshan", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/long.darshan", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/manifest.tsv", dir);
    unlink(path);
    assert_int_equal(iosage_dataset_load(dir, NULL, NULL, &ds, &err),
                     IOSAGE_E_IO);
    rmdir(dir);
    free(dir);
}

/* Training needs train rows and sane parameters. */
static void train_refuses(void **state)
{
    (void)state;
    iosage_dataset *ds = synthetic();
    struct iosage_train_params p;
    iosage_train_params_default(&p);
    iosage_model *m = NULL;
    iosage_error err;
    p.eta = 0;
    assert_int_equal(iosage_model_train(ds, &p, &m, &err), IOSAGE_E_USAGE);
    assert_non_null(strstr(err.msg, "eta"));
    iosage_train_params_default(&p);
    for (size_t i = 0; i < ds->n_rows; i++)
        if (ds->split[i] == IOSAGE_SPLIT_TRAIN)
            ds->split[i] = IOSAGE_SPLIT_TEST;
    assert_int_equal(iosage_model_train(ds, &p, &m, &err), IOSAGE_E_USAGE);
    assert_null(m);
    assert_non_null(strstr(err.msg, "no train rows"));
    iosage_dataset_free(ds);
}

/* The log hook receives XGBoost's warnings (here: an unknown parameter). */
static void log_hook_captures(void **state)
{
    (void)state;
    n_log_lines = 0;
    iosage_model_set_log_hook(count_line, NULL);
    ios_xgb_capture_log();
    float x[4 * NF] = {0}, y[4] = {0, 1, 0, 1};
    DMatrixHandle d;
    BoosterHandle b;
    assert_int_equal(ios_xgb()->XGDMatrixCreateFromMat(x, 4, NF, NAN, &d), 0);
    assert_int_equal(ios_xgb()->XGDMatrixSetFloatInfo(d, "label", y, 4), 0);
    assert_int_equal(ios_xgb()->XGBoosterCreate(&d, 1, &b), 0);
    ios_xgb()->XGBoosterSetParam(b, "validate_parameters", "1");
    ios_xgb()->XGBoosterSetParam(b, "max_dpeth", "3");
    assert_int_equal(ios_xgb()->XGBoosterUpdateOneIter(b, 0, d), 0);
    ios_xgb()->XGBoosterFree(b);
    ios_xgb()->XGDMatrixFree(d);
    iosage_model_set_log_hook(NULL, NULL);
    assert_true(n_log_lines >= 1);
}

/* --- Random forest, feature sets, I/O gate, leave one kernel out ------------------ */

/* Slot k + 1's model gives feature f a nonzero SHAP contribution on some of
 * the first rows of ds. */
static int uses_feature(const iosage_model *m, int k, const iosage_dataset *ds,
                        int f)
{
    float contrib[NF + 1];
    for (size_t i = 0; i < 40; i++) {
        assert_int_equal(iosage_model_explain(m, k, ds->x + i * NF, contrib, NULL, NULL),
                         IOSAGE_OK);
        if (contrib[f] != 0)
            return 1;
    }
    return 0;
}

static void forest_and_sets(void **state)
{
    (void)state;
    iosage_dataset *ds = synthetic();
    struct iosage_train_params p;
    iosage_train_params_forest(&p);
    assert_int_equal(p.forest_trees, 100);
    assert_int_equal(p.max_rounds, 1);
    assert_true(p.eta == 1.0 && p.colsample_bynode == 0.5);
    p.feature_sets = 0;
    p.io_share_gate = 0;
    iosage_model *rf = NULL;
    assert_int_equal(iosage_model_train(ds, &p, &rf, NULL), IOSAGE_OK);
    const struct iosage_metrics *mt = iosage_model_metrics(rf, IOSAGE_SPLIT_TEST);
    assert_true(mt->micro_f1 > 0.9);
    assert_int_equal(rf->slot[1].rounds, 1); /* one round of 100 trees */
    struct iosage_train_params back;
    iosage_model_params(rf, &back);
    assert_int_equal(back.forest_trees, 100);
    assert_true(back.colsample_bynode == 0.5);
    iosage_model_free(rf);

    /* feature sets: access_granularity (pattern 0) never splits on
     * feature 0 (job_io_time_share_slowest is not among its features),
     * metadata_intensity (pattern 1, every feature) uses feature 5 */
    iosage_train_params_default(&p);
    assert_int_equal(p.feature_sets, 1);
    assert_true(p.io_share_gate == 0.05);
    assert_true(p.gate_outvote == 0.5);
    p.max_rounds = 30;
    iosage_model *m = NULL;
    assert_int_equal(iosage_model_train(ds, &p, &m, NULL), IOSAGE_OK);
    assert_false(uses_feature(m, 0, ds, 0));
    assert_true(uses_feature(m, 1, ds, 5));
    /* the I/O share gate: feature 0 under 0.05 is healthy, io_gated */
    float x[NF];
    memcpy(x, ds->x, sizeof x);
    x[5] = 0.95f; /* metadata_intensity, clearly */
    x[0] = 0.04f;
    struct iosage_detection d;
    assert_int_equal(iosage_model_detect(m, x, 1, &d, NULL), IOSAGE_OK);
    assert_true(d.healthy && d.io_gated);
    assert_int_equal(d.labels, 0);
    x[0] = 0.9f;
    int meta = iosage_feature_index("job_meta_time_share");
    x[meta] = 0.5f; /* metadata_intensity's floor (0.20) reached */
    assert_int_equal(iosage_model_detect(m, x, 1, &d, NULL), IOSAGE_OK);
    assert_false(d.io_gated);
    assert_true(d.detected[1]);
    assert_false(d.floored[1]);
    /* rule 4: under its floor the model's report is taken back */
    x[meta] = 0.05f;
    x[iosage_feature_index("job_write_time_share")] = 0.5f; /* the job has I/O time */
    assert_int_equal(iosage_model_detect(m, x, 1, &d, NULL), IOSAGE_OK);
    assert_false(d.detected[1]);
    assert_true(d.floored[1]);
    assert_true(d.n_floored >= 1);
    assert_int_equal(d.labels & 2u, 0);
    /* ... and detect's JSON line says why */
    char *line = iosage_model_detect_json(m, x, "f", 0, NULL);
    assert_non_null(line);
    assert_non_null(strstr(line, "\"floor\":\"job_meta_time_share 0.05 < 0.2"));
    free(line);
    iosage_model_free(m);
    iosage_dataset_free(ds);
}

static void rows_and_loko(void **state)
{
    (void)state;
    iosage_dataset *ds = synthetic();
    /* metrics over chosen rows: the labels themselves, every other row */
    uint8_t *keep = malloc(N_ROWS);
    assert_non_null(keep);
    for (size_t i = 0; i < N_ROWS; i++)
        keep[i] = i % 2 == 0;
    struct iosage_metrics mt;
    assert_int_equal(iosage_metrics_rows(ds, ds->labels, keep, &mt, NULL), IOSAGE_OK);
    assert_int_equal(mt.runs, N_ROWS / 2);
    assert_true(mt.micro_f1 == 1.0 && mt.hamming_loss == 0.0);
    free(keep);
    /* three kernels "a", "b", "c" by row; loko without them is refused */
    struct iosage_train_params boost, forest;
    iosage_train_params_default(&boost);
    boost.max_rounds = 20;
    boost.feature_sets = 0;
    boost.io_share_gate = 0;
    iosage_train_params_forest(&forest);
    forest.forest_trees = 10;
    forest.feature_sets = 0;
    forest.io_share_gate = 0;
    struct iosage_loko_row *rows = NULL;
    size_t n = 0;
    iosage_error err;
    assert_int_equal(iosage_loko(ds, &boost, &forest, NULL, &rows, &n, &err),
                     IOSAGE_E_USAGE);
    ds->kernels = calloc(N_ROWS, sizeof *ds->kernels);
    assert_non_null(ds->kernels);
    for (size_t i = 0; i < N_ROWS; i++)
        ds->kernels[i] = strdup(i % 3 == 0 ? "c" : i % 3 == 1 ? "a" : "b");
    assert_int_equal(iosage_loko(ds, &boost, &forest, ds->labels, &rows, &n, &err),
                     IOSAGE_OK);
    assert_int_equal(n, 3);
    int64_t runs = 0;
    for (size_t k = 0; k < n; k++) {
        assert_string_equal(rows[k].kernel, k == 0 ? "a" : k == 1 ? "b" : "c");
        assert_int_equal(rows[k].models.runs, rows[k].forest.runs);
        runs += rows[k].models.runs;
        /* the patterns do not depend on the kernel here: learnable */
        assert_true(rows[k].models.micro_f1 > 0.85);
        assert_true(rows[k].forest.micro_f1 > 0.6);
        assert_true(rows[k].rules.micro_f1 == 1.0); /* the labels given */
    }
    assert_int_equal(runs, N_ROWS);
    free(rows);
    iosage_dataset_free(ds);
}

/* The manifest as cells by column name: CRLF and blank lines, a short line
 * (NULL cells), line numbers; an empty file and a missing one. */
static void manifest_cells(void **state)
{
    (void)state;
    char *dir = tu_mkdtemp();
    write_text(dir, "manifest.tsv",
               "run_id\tconfig_id\tseed\r\n"
               "a-r0\ta\t7\r\n"
               "\n"
               "b-r0\tb\n");
    iosage_manifest *m = NULL;
    iosage_error err;
    assert_int_equal(iosage_manifest_load(dir, &m, &err), IOSAGE_OK);
    assert_int_equal(m->n_cols, 3);
    assert_int_equal(m->n_rows, 2);
    int seed = iosage_manifest_column(m, "seed");
    assert_int_equal(seed, 2);
    assert_int_equal(iosage_manifest_column(m, "nope"), -1);
    assert_string_equal(iosage_manifest_cell(m, 0, seed), "7");
    assert_string_equal(iosage_manifest_cell(m, 1, 1), "b");
    assert_null(iosage_manifest_cell(m, 1, seed));   /* short line */
    assert_null(iosage_manifest_cell(m, 2, 0));      /* no such row */
    assert_null(iosage_manifest_cell(m, 0, -1));
    assert_int_equal(m->lineno[1], 4);
    iosage_manifest_free(m);
    write_text(dir, "manifest.tsv", "");
    assert_int_equal(iosage_manifest_load(dir, &m, &err), IOSAGE_E_CORRUPT);
    assert_null(m);
    assert_non_null(strstr(err.msg, "empty manifest"));
    char path[2200];
    snprintf(path, sizeof path, "%s/manifest.tsv", dir);
    unlink(path);
    assert_int_equal(iosage_manifest_load(dir, &m, &err), IOSAGE_E_IO);
    assert_non_null(strstr(err.path, "manifest.tsv"));
    rmdir(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(metrics_hand_example),
        cmocka_unit_test(threshold_best_f1),
        cmocka_unit_test(threshold_ties_go_up),
        cmocka_unit_test(threshold_edge_cases),
        cmocka_unit_test(detection_rule),
        cmocka_unit_test(top_contributions),
        cmocka_unit_test(train_save_load),
        cmocka_unit_test(reproducible_bytes),
        cmocka_unit_test(shap_sums_to_margin),
        cmocka_unit_test(refused_bundles),
        cmocka_unit_test(detect_json_line),
        cmocka_unit_test(dataset_directory),
        cmocka_unit_test(train_refuses),
        cmocka_unit_test(log_hook_captures),
        cmocka_unit_test(forest_and_sets),
        cmocka_unit_test(rows_and_loko),
        cmocka_unit_test(manifest_cells),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
