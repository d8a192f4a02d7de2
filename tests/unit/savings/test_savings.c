/*
 * tests/unit/savings/test_savings.c - the savings files without running
 * anything (iosage/savings.h): the changes file (kernel=, comments, blank
 * lines, line numbers in errors), the savings table (append, read back, a
 * missing file is empty, a damaged row names its line), 1 - 1/r, and the
 * cap of each change's predicted saving.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "iosage/features.h"
#include "iosage/savings.h"
#include "model/internal.h"
#include "testutil.h"

static char *write_text(const char *dir, const char *name, const char *text)
{
    char *path = malloc(strlen(dir) + strlen(name) + 2);
    sprintf(path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void test_changes_file(void **state)
{
    (void)state;
    char *dir = tu_mkdtemp();
    char *path = write_text(dir, "c.changes",
        "# header\n"
        "\n"
        "fs_md_4  file_strategy  shared_file  kernel=ior_like --api posix "
        "--block 32m  \n"
        "tu_8 throughput_utilization drop_syncs --api posix\r\n"
        "tu_8 throughput_utilization read_once\n");
    struct iosage_savings_changes c;
    iosage_error err;
    assert_int_equal(iosage_savings_changes_load(path, &c, &err), IOSAGE_OK);
    assert_int_equal(c.n, 3);
    assert_string_equal(c.v[0].config, "fs_md_4");
    assert_string_equal(c.v[0].kernel, "ior_like");
    assert_string_equal(c.v[0].flags, "--api posix --block 32m");
    assert_int_equal(c.v[0].lineno, 3);
    assert_string_equal(c.v[1].kernel, "");
    assert_string_equal(c.v[1].flags, "--api posix");
    assert_string_equal(c.v[2].change_id, "read_once");
    assert_string_equal(c.v[2].flags, "");
    iosage_savings_changes_free(&c);
    free(path);

    path = write_text(dir, "bad.changes",
                      "# ok\ntu_8 throughput_utilization drop_syncs\n"
                      "tu_8 throughput_utilization larger_requests --x\n");
    assert_int_equal(iosage_savings_changes_load(path, &c, &err),
                     IOSAGE_E_CORRUPT);
    assert_non_null(strstr(err.msg, "line 3: 'throughput_utilization "
                                    "larger_requests' is not a change id"));
    assert_int_equal(c.n, 0);
    assert_null(c.v);
    free(path);

    path = write_text(dir, "short.changes", "tu_8 throughput_utilization\n");
    assert_int_equal(iosage_savings_changes_load(path, &c, &err),
                     IOSAGE_E_CORRUPT);
    assert_non_null(strstr(err.msg, "line 1: expected CONFIG_ID PATTERN"));
    free(path);
    free(dir);
}

static void test_table_roundtrip(void **state)
{
    (void)state;
    char *dir = tu_mkdtemp();
    char path[4096];
    snprintf(path, sizeof path, "%s/savings.tsv", dir);
    struct iosage_savings_table t;
    iosage_error err;
    /* no file yet: an empty table */
    assert_int_equal(iosage_savings_table_load(path, &t, &err), IOSAGE_OK);
    assert_int_equal(t.n, 0);
    struct iosage_savings_row rows[2] = {
        {.run_id = "a-r0", .config = "a", .pattern = "throughput_utilization",
         .change_id = "drop_syncs", .system = "emulated", .pairs = 5,
         .io_base_s = 2.0, .io_changed_s = 0.5, .io_saving = 0.75,
         .io_lo = 3.5, .io_hi = 4.5, .wall_base_s = 3.0,
         .wall_changed_s = 1.5, .wall_saving = 0.5, .pays = 1},
        {.run_id = "a-r0", .config = "a", .pattern = "access_granularity",
         .change_id = "larger_requests", .system = "emulated", .pairs = 5,
         .io_base_s = 1.0, .io_changed_s = 1.1, .io_saving = -0.1,
         .io_lo = 0.8, .io_hi = 1.05, .wall_base_s = 2.0,
         .wall_changed_s = 2.0, .wall_saving = 0, .pays = 0}};
    assert_int_equal(iosage_savings_table_append(path, rows, 1, &err),
                     IOSAGE_OK);
    assert_int_equal(iosage_savings_table_append(path, rows + 1, 1, &err),
                     IOSAGE_OK);
    assert_int_equal(iosage_savings_table_load(path, &t, &err), IOSAGE_OK);
    assert_int_equal(t.n, 2);
    assert_string_equal(t.rows[0].change_id, "drop_syncs");
    assert_true(fabs(t.rows[0].io_saving - 0.75) < 1e-9);
    assert_true(fabs(t.rows[0].io_lo - 3.5) < 1e-9);
    assert_int_equal(t.rows[0].pays, 1);
    assert_int_equal(t.rows[1].pairs, 5);
    assert_true(fabs(t.rows[1].io_saving + 0.1) < 1e-9);
    assert_int_equal(iosage_savings_table_has(&t, "a"), 1);
    assert_int_equal(iosage_savings_table_has(&t, "b"), 0);
    iosage_savings_table_free(&t);
    /* one header only */
    size_t len = 0;
    uint8_t *bytes = tu_read_file(path, &len);
    assert_non_null(bytes);
    char *text = calloc(1, len + 1); /* tu_read_file adds no NUL */
    memcpy(text, bytes, len);
    int headers = 0;
    for (const char *p = text; (p = strstr(p, "run_id\t")); p++)
        headers++;
    assert_int_equal(headers, 1);
    free(text);
    free(bytes);
    /* a damaged row: the error names its line */
    FILE *f = fopen(path, "a");
    fputs("b-r0\tb\tx\n", f);
    fclose(f);
    assert_int_equal(iosage_savings_table_load(path, &t, &err),
                     IOSAGE_E_CORRUPT);
    assert_non_null(strstr(err.msg, "line 4: not a savings row"));
    assert_int_equal(t.n, 0);
    unlink(path);
    free(dir);
}

static void test_saving_of_ratio(void **state)
{
    (void)state;
    assert_true(fabs(iosage_savings_of_ratio(2.0) - 0.5) < 1e-12);
    assert_true(fabs(iosage_savings_of_ratio(1.0)) < 1e-12);
    assert_true(fabs(iosage_savings_of_ratio(0.5) + 1.0) < 1e-12);
    assert_true(isnan(iosage_savings_of_ratio(0.0)));
}

static void test_rank_statistics(void **state)
{
    (void)state;
    double a[] = {1, 2, 3, 4}, b[] = {10, 20, 30, 40}, r[] = {4, 3, 2, 1};
    assert_true(fabs(ios_spearman(a, b, 4) - 1.0) < 1e-12);
    assert_true(fabs(ios_spearman(a, r, 4) + 1.0) < 1e-12);
    /* ties: ranks 1, 2.5, 2.5, 4 against 1..4: 4.5 / sqrt(4.5 * 5) */
    double t[] = {1, 2, 2, 3};
    assert_true(fabs(ios_spearman(t, a, 4) - 4.5 / sqrt(22.5)) < 1e-12);
    assert_true(isnan(ios_spearman(a, b, 2)));
    double c[] = {5, 5, 5, 5};
    assert_true(isnan(ios_spearman(a, c, 4)));
    double q[] = {5, 1, 4, 2, 3};
    assert_true(fabs(ios_quantile(q, 5, 0.10) - 1.4) < 1e-12);
    assert_true(fabs(ios_quantile(q, 5, 0.90) - 4.6) < 1e-12);
    assert_true(fabs(ios_quantile(q, 5, 0.5) - 3.0) < 1e-12);
    assert_true(isnan(ios_quantile(q, 0, 0.5)));
}

static void test_predict_without_model(void **state)
{
    (void)state;
    float x[8] = {0};
    struct iosage_savings_prediction p;
    assert_int_equal(iosage_savings_predict(NULL, "drop_syncs", x, &p), -1);
    assert_true(p.saving == 0.0);
}

/* A change without a model is ranked by the typical saving savings.json
 * stores (the median of every measured row), capped like a prediction; a
 * savings.json without it gives none. */
static void test_typical_saving(void **state)
{
    (void)state;
    char with[512], without[512];
    snprintf(with, sizeof with,
             "{\"schema\": \"iosage-savings-models\", \"version\": 1, "
             "\"feature_schema\": %d, \"typical_saving\": {\"io_time_share\": "
             "0.2, \"measured_rows\": 10, \"too_few_rows\": {\"batch_metadata\": "
             "2, \"fewer_files\": 7, \"drop_syncs\": -1}}, \"changes\": []}",
             IOSAGE_FEATURE_SCHEMA_VERSION);
    snprintf(without, sizeof without,
             "{\"schema\": \"iosage-savings-models\", \"version\": 1, "
             "\"feature_schema\": %d, \"changes\": []}",
             IOSAGE_FEATURE_SCHEMA_VERSION);
    float x[IOSAGE_NUM_FEATURES] = {0};
    x[iosage_feature_index("rank_bytes_imbalance")] = 0.5f;
    x[iosage_feature_index("job_meta_ops_log")] = 3.5f;
    x[iosage_feature_index("rank_time_imbalance")] = 0.125f;
    x[iosage_feature_index("job_meta_time_share")] = 0.75f;
    struct iosage_model_file f = {"savings.json",
                                  (const unsigned char *)with, strlen(with)};
    iosage_savings_model *m = NULL;
    iosage_error err;
    assert_int_equal(iosage_savings_model_load_mem(&f, 1, "mem", &m, &err),
                     IOSAGE_OK);
    assert_non_null(m);
    struct iosage_savings_prediction p;
    assert_int_equal(iosage_savings_predict(m, "fewer_files", x, &p), -1);
    /* under its cap (0.75): the median; 7 rows would have made a model,
     * so the listed count is not believed */
    assert_int_equal(iosage_savings_typical(m, "fewer_files", x, &p), 0);
    assert_true(fabs(p.saving - 0.2) < 1e-9 && fabs(p.hi - 0.2) < 1e-9);
    assert_int_equal(p.measured_rows, 10);
    assert_int_equal(p.change_rows, 0);
    /* a change measured twice: its own count */
    assert_int_equal(iosage_savings_typical(m, "batch_metadata", x, &p), 0);
    assert_int_equal(p.change_rows, 2);
    assert_true(fabs(p.saving - 0.2) < 1e-9);
    /* over its cap (the slowest rank's 12.5% above the mean): the cap */
    assert_int_equal(iosage_savings_typical(m, "balance_io", x, &p), 0);
    assert_true(fabs(p.saving - 0.125) < 1e-6 && fabs(p.hi - 0.2) < 1e-9);
    /* nothing to sync: nothing to save; a count of -1 is left out */
    assert_int_equal(iosage_savings_typical(m, "drop_syncs", x, &p), 0);
    assert_true(p.saving == 0.0);
    assert_int_equal(p.change_rows, 0);
    iosage_savings_model_free(m);
    f.data = (const unsigned char *)without;
    f.size = strlen(without);
    m = NULL;
    assert_int_equal(iosage_savings_model_load_mem(&f, 1, "mem", &m, &err),
                     IOSAGE_OK);
    assert_non_null(m);
    assert_int_equal(iosage_savings_typical(m, "fewer_files", x, &p), -1);
    iosage_savings_model_free(m);
    assert_int_equal(iosage_savings_typical(NULL, "fewer_files", x, &p), -1);
}

/* For three feature rows and every change model of names[1..n): other's
 * prediction is from_dir's (rc 0), or there is none (want_rc -1). */
static void same_predictions(const iosage_savings_model *from_dir,
                             const iosage_savings_model *other,
                             const char *const *names, size_t n, int want_rc)
{
    float x[IOSAGE_NUM_FEATURES];
    for (int row = 0; row < 3; row++) {
        for (int f = 0; f < IOSAGE_NUM_FEATURES; f++)
            x[f] = row == 0 ? 0.0f : (float)((f * 37 + row * 11) % 17) / 16.0f;
        for (size_t i = 1; i < n; i++) {
            char id[64];
            snprintf(id, sizeof id, "%.*s", (int)(strlen(names[i]) - 13),
                     names[i] + 8); /* savings-<id>.json */
            struct iosage_savings_prediction a, b;
            assert_int_equal(iosage_savings_predict(from_dir, id, x, &a), 0);
            assert_int_equal(iosage_savings_predict(other, id, x, &b), want_rc);
            if (want_rc == 0) {
                assert_true(a.saving == b.saving);
                assert_true(a.lo == b.lo && a.hi == b.hi);
            }
        }
    }
}

/* The default bundle's savings models loaded as the build embeds them, each
 * with its binary form beside it ("<file>.bin", cmake/embed_model.cmake):
 * the same predictions as from the directory; a damaged form fails the
 * load (so it is what loads). */
static void test_savings_binary_forms(void **state)
{
    (void)state;
    static const char *const names[] = {
        "savings.json", "savings-balance_io.json", "savings-collective_io.json",
        "savings-drop_syncs.json", "savings-fewer_files.json",
        "savings-larger_requests.json", "savings-read_once.json",
        "savings-sequential_access.json", "savings-shared_file.json",
        "savings-stripe_wide.json"};
    enum { N = sizeof names / sizeof *names };
    const char *dir = IOSAGE_SOURCE_DIR "/models/default";
    iosage_savings_model *from_dir = NULL;
    iosage_error err;
    assert_int_equal(iosage_savings_model_load(dir, &from_dir, &err), IOSAGE_OK);
    assert_non_null(from_dir);
    for (int damaged = 0; damaged < 2; damaged++) {
        struct iosage_model_file files[2 * N];
        uint8_t *json[N];
        unsigned char *form[N] = {0};
        char form_name[N][80];
        size_t k = 0;
        for (size_t i = 0; i < N; i++) {
            char path[1024];
            size_t len = 0;
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            json[i] = tu_read_file(path, &len);
            assert_non_null(json[i]);
            files[k++] = (struct iosage_model_file){names[i], json[i], len};
            if (i == 0)
                continue; /* savings.json is not a model */
            BoosterHandle b = NULL;
            assert_int_equal(ios_xgb_load_n(json[i], len, IOS_SAVINGS_INPUTS,
                                            &b, NULL),
                             IOSAGE_OK);
            const char *data = NULL;
            bst_ulong n = 0;
            assert_int_equal(ios_xgb()->XGBoosterSaveModelToBuffer(
                                 b, "{\"format\": \"deprecated\"}", &n, &data), 0);
            form[i] = malloc(n);
            assert_non_null(form[i]);
            memcpy(form[i], data, n);
            ios_xgb()->XGBoosterFree(b);
            snprintf(form_name[i], sizeof form_name[i], "%s.bin", names[i]);
            /* damaged: cut in half (test_model.c says why not overwritten) */
            files[k++] = (struct iosage_model_file){form_name[i], form[i],
                                                    damaged ? n / 2 : n};
        }
        iosage_savings_model *from_mem = NULL, *lazy = NULL;
        iosage_status st = iosage_savings_model_load_mem(files, k, "mem", &from_mem, &err);
        /* the static loader keeps the bytes and loads at first use: a
         * damaged form loads, and its change has no prediction */
        assert_int_equal(iosage_savings_model_load_static(files, k, "static",
                                                          &lazy, &err),
                         IOSAGE_OK);
        assert_non_null(lazy);
        same_predictions(from_dir, lazy, names, N, damaged ? -1 : 0);
        iosage_savings_model_free(lazy);
        for (size_t i = 0; i < N; i++) {
            free(json[i]);
            free(form[i]);
        }
        if (damaged) {
            assert_int_not_equal(st, IOSAGE_OK);
            continue;
        }
        assert_int_equal(st, IOSAGE_OK);
        same_predictions(from_dir, from_mem, names, N, 0);
        iosage_savings_model_free(from_mem);
    }
    iosage_savings_model_free(from_dir);
}

/* The cap of each change: the share of the I/O time its operations take,
 * 0 when the log shows none of them, 1 when no share bounds it; and 0 when
 * the change's pattern is under its floor (detection rule 4). */
static void test_saving_cap(void **state)
{
    (void)state;
    float x[IOSAGE_NUM_FEATURES] = {0};
    /* every pattern over its floor (iosage/patterns.h) */
    x[iosage_feature_index("rank_bytes_imbalance")] = 0.5f;
    x[iosage_feature_index("job_meta_ops_log")] = 3.5f; /* 3,161 operations */
    x[iosage_feature_index("sync_extra_per_write")] = 0.5f;
    x[iosage_feature_index("file_per_rank_log")] = 0.5f;
    x[iosage_feature_index("job_data_files_log")] = 2.5f; /* 315 files */
    x[iosage_feature_index("job_small_file_time_share")] = 0.25f;
    x[iosage_feature_index("file_indep_shared_time_share")] = 0.5f;
    x[iosage_feature_index("rank_time_imbalance")] = 0.125f;
    x[iosage_feature_index("job_meta_time_share")] = 0.75f;
    assert_true(fabs(ios_saving_cap("larger_requests", x) - 0.25) < 1e-6);
    assert_true(fabs(ios_saving_cap("collective_io", x) - 0.5) < 1e-6);
    assert_true(fabs(ios_saving_cap("balance_io", x) - 0.125) < 1e-6);
    assert_true(fabs(ios_saving_cap("fewer_files", x) - 0.75) < 1e-6);
    assert_true(fabs(ios_saving_cap("batch_metadata", x) - 0.75) < 1e-6);
    assert_true(ios_saving_cap("sequential_access", x) == 0.0);
    assert_true(ios_saving_cap("read_once", x) == 0.0);
    /* no sync, no file on one OST: nothing to drop or widen */
    assert_true(ios_saving_cap("drop_syncs", x) == 0.0);
    assert_true(ios_saving_cap("stripe_wide", x) == 0.0);
    x[iosage_feature_index("mpiio_sync_per_write_log")] = 0.3f;
    x[iosage_feature_index("lustre_single_ost_write_share")] = 1.0f;
    assert_true(ios_saving_cap("drop_syncs", x) == 1.0);
    assert_true(ios_saving_cap("stripe_wide", x) == 1.0);
    /* one file instead of many: no share bounds it */
    assert_true(ios_saving_cap("shared_file", x) == 1.0);
    /* under the floors: rank imbalance 0.125 and bytes even (PE's floors
     * are 0.2), 100 metadata operations (MI's count floor is 750), no
     * sync beyond one a file, no re-read, the one-OST file not shared
     * (TU's), 9 data files (FS's count floor is 64): nothing to fix,
     * whatever the shares */
    x[iosage_feature_index("rank_bytes_imbalance")] = 0.0f;
    x[iosage_feature_index("job_meta_ops_log")] = 2.0f;
    x[iosage_feature_index("sync_extra_per_write")] = 0.0f;
    x[iosage_feature_index("job_data_files_log")] = 1.0f; /* 9 files */
    assert_true(ios_saving_cap("balance_io", x) == 0.0);
    assert_true(ios_saving_cap("shared_file", x) == 0.0);
    assert_true(ios_saving_cap("fewer_files", x) == 0.0);
    assert_true(ios_saving_cap("batch_metadata", x) == 0.0);
    assert_true(ios_saving_cap("drop_syncs", x) == 0.0);
    assert_true(ios_saving_cap("stripe_wide", x) == 0.0);
    /* the others' floors still hold */
    assert_true(fabs(ios_saving_cap("larger_requests", x) - 0.25) < 1e-6);
    assert_true(fabs(ios_saving_cap("collective_io", x) - 0.5) < 1e-6);
}

/* The savings regressions' three derived inputs (savings_inputs.c), from
 * features whose quotients are known: 100 MiB a rank in 1,000 data
 * operations at 50 MiB/s of I/O time is 2 s of I/O a rank, 2,000 us an
 * operation; 10 metadata operations a rank with 20% of the time are
 * 40,000 us each. No bandwidth: no time, the inputs are missing. And a
 * savings.json that names other derived inputs is refused. */
static void test_derived_inputs(void **state)
{
    (void)state;
    float x[IOSAGE_NUM_FEATURES] = {0};
    for (int i = 0; i < IOSAGE_NUM_MODEL_FEATURES; i++)
        x[i] = 0.25f; /* copied through as they are */
    x[iosage_feature_index("job_bytes_per_rank_log")] = (float)log10(1 + 100.0);
    x[iosage_feature_index("job_data_ops_per_rank_log")] = (float)log10(1 + 1000.0);
    x[iosage_feature_index("job_bandwidth_log")] = (float)log10(1 + 50.0);
    x[iosage_feature_index("meta_ops_per_rank_log")] = (float)log10(1 + 10.0);
    x[iosage_feature_index("job_meta_time_share")] = 0.2f;
    float in[IOS_SAVINGS_INPUTS];
    ios_savings_inputs(x, IOS_SAVINGS_INPUTS, in);
    assert_memory_equal(in, x, IOSAGE_NUM_MODEL_FEATURES * sizeof *x);
    const float *d = in + IOSAGE_NUM_MODEL_FEATURES;
    assert_true(fabs(d[0] - log10(2000.0)) < 1e-4);
    assert_true(fabs(d[1] - log10(40000.0)) < 1e-4);
    assert_true(fabs(d[2] - log10(2.0)) < 1e-4);
    assert_string_equal(ios_savings_derived[0], "data_op_us_log");
    x[iosage_feature_index("job_bandwidth_log")] = 0;
    ios_savings_inputs(x, IOS_SAVINGS_INPUTS, in);
    assert_true(isnan(d[0]) && isnan(d[1]) && isnan(d[2]));

    char text[512];
    const char *lists[] = {
        "[\"data_op_us_log\", \"meta_op_us_log\", \"io_seconds_per_rank_log\"]",
        "[\"data_op_us_log\", \"meta_op_us_log\"]",
        "[\"io_seconds_per_rank_log\", \"meta_op_us_log\", \"data_op_us_log\"]",
        "\"data_op_us_log\""};
    for (int k = 0; k < 4; k++) {
        snprintf(text, sizeof text,
                 "{\"schema\": \"iosage-savings-models\", \"version\": 1, "
                 "\"feature_schema\": %d, \"derived_inputs\": %s, "
                 "\"changes\": []}",
                 IOSAGE_FEATURE_SCHEMA_VERSION, lists[k]);
        struct iosage_model_file f = {"savings.json",
                                      (const unsigned char *)text, strlen(text)};
        iosage_savings_model *m = NULL;
        iosage_error err;
        iosage_status st = iosage_savings_model_load_mem(&f, 1, "mem", &m, &err);
        if (k == 0) {
            assert_int_equal(st, IOSAGE_OK);
            assert_non_null(m);
        } else {
            assert_int_equal(st, IOSAGE_E_CORRUPT);
            assert_null(m);
            assert_non_null(strstr(err.msg, "derived_inputs"));
        }
        iosage_savings_model_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_changes_file),
        cmocka_unit_test(test_table_roundtrip),
        cmocka_unit_test(test_saving_of_ratio),
        cmocka_unit_test(test_rank_statistics),
        cmocka_unit_test(test_predict_without_model),
        cmocka_unit_test(test_typical_saving),
        cmocka_unit_test(test_savings_binary_forms),
        cmocka_unit_test(test_saving_cap),
        cmocka_unit_test(test_derived_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
