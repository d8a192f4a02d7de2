/*
 * tests/archive/test_archive.c - the archive library on its own (cmocka):
 * the hash against FNV-1a test vectors, application names, and a row added
 * through the API read back by the queries, with its findings, changes,
 * replacement and the selection rules; the SQL of every query exists.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "iosage/archive.h"
#include "iosage/patterns.h"
#include "iosage/report.h"

static void test_hash(void **state)
{
    (void)state;
    /* FNV-1a 64 test vectors */
    assert_true(iosage_archive_hash(IOSAGE_ARCHIVE_HASH_SEED, "", 0) ==
                0xcbf29ce484222325ULL);
    assert_true(iosage_archive_hash(IOSAGE_ARCHIVE_HASH_SEED, "a", 1) ==
                0xaf63dc4c8601ec8cULL);
    assert_true(iosage_archive_hash(IOSAGE_ARCHIVE_HASH_SEED, "foobar", 6) ==
                0x85944171f73967e8ULL);
    /* continuing equals hashing at once */
    uint64_t h = iosage_archive_hash(IOSAGE_ARCHIVE_HASH_SEED, "foo", 3);
    assert_true(iosage_archive_hash(h, "bar", 3) == 0x85944171f73967e8ULL);
}

static void test_app_name(void **state)
{
    (void)state;
    char b[64];
    iosage_archive_app_name("/apps/wrf/bin/wrf.exe -i namelist", b, sizeof b);
    assert_string_equal(b, "wrf.exe");
    iosage_archive_app_name("  ./a.out", b, sizeof b);
    assert_string_equal(b, "a.out");
    iosage_archive_app_name("lmp_mpi", b, sizeof b);
    assert_string_equal(b, "lmp_mpi");
    iosage_archive_app_name("", b, sizeof b);
    assert_string_equal(b, "(unknown)");
    iosage_archive_app_name(NULL, b, sizeof b);
    assert_string_equal(b, "(unknown)");
    iosage_archive_app_name("/very/long/name_of_an_application", b, 8);
    assert_string_equal(b, "name_of");
}

/* A readable row for path with patterns 0 and 2 detected (2 scores higher). */
static void make_row(struct iosage_batch_row *r, char *path, int64_t job_id)
{
    memset(r, 0, sizeof *r);
    r->file = path;
    r->status = IOSAGE_BATCH_OK;
    r->job_id = job_id;
    r->uid = 1234;
    r->nprocs = 16;
    r->exe = "/apps/x/bin/xsim --big";
    r->run_time = 100;
    r->io_time = 7200;
    r->io_time_share = 0.5;
    r->n_patterns = iosage_pattern_count();
    r->score[0] = 0.7;
    r->detected[0] = 1;
    r->score[2] = 0.9;
    r->detected[2] = 1;
    r->top_pattern = 2;
    r->best_saving = r->best_saving_s = NAN; /* no savings model */
    for (int k = 0; k < IOSAGE_MAX_PATTERNS; k++)
        r->saving[k] = NAN;
}

/* Cell (row, column name) of t. */
static const char *cell(const iosage_archive_table *t, size_t r,
                        const char *name)
{
    for (int c = 0; c < t->ncol; c++)
        if (strcmp(t->cols[c], name) == 0)
            return t->cells[r * (size_t)t->ncol + (size_t)c];
    fail_msg("no column %s", name);
    return NULL;
}

static void test_add_and_query(void **state)
{
    (void)state;
    char dir[] = "/tmp/iosage-archive-test.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char db_path[256], log_path[256];
    snprintf(db_path, sizeof db_path, "%s/a.sqlite", dir);
    snprintf(log_path, sizeof log_path, "%s/x.darshan", dir);
    FILE *f = fopen(log_path, "w");
    assert_non_null(f);
    fputs("not really a log", f);
    fclose(f);

    iosage_error err;
    iosage_archive *a = NULL;
    assert_int_equal(iosage_archive_open(db_path, IOSAGE_ARCHIVE_WRITE, &a,
                                         &err), IOSAGE_OK);
    assert_int_equal(iosage_archive_schema(a), IOSAGE_ARCHIVE_SCHEMA_VERSION);
    struct stat sb;
    assert_int_equal(stat(db_path, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600);

    struct iosage_batch_row r;
    make_row(&r, log_path, 42);
    assert_int_equal(iosage_archive_add(a, &r, "b1", &err), IOSAGE_OK);
    make_row(&r, log_path, 43); /* the same path again: replaced */
    assert_int_equal(iosage_archive_add(a, &r, "b1", &err), IOSAGE_OK);
    assert_int_equal(iosage_archive_commit(a, &err), IOSAGE_OK);

    struct iosage_archive_filter flt = {0};
    iosage_archive_table t;
    assert_int_equal(iosage_archive_query(a, IOSAGE_Q_JOBS, &flt, &t, &err),
                     IOSAGE_OK);
    assert_int_equal(t.nrow, 1);
    assert_string_equal(cell(&t, 0, "job_id"), "43");
    assert_string_equal(cell(&t, 0, "app"), "xsim");
    assert_string_equal(cell(&t, 0, "io_hours"), "2.0");
    assert_string_equal(cell(&t, 0, "top_pattern"), iosage_pattern_get(2)->id);
    char both[200];
    snprintf(both, sizeof both, "%s %s", iosage_pattern_get(0)->id,
             iosage_pattern_get(2)->id);
    const char *pats = cell(&t, 0, "patterns");
    assert_non_null(pats);
    assert_int_equal(strlen(pats), strlen(both));
    assert_null(cell(&t, 0, "saved_hours"));
    iosage_archive_table_free(&t);

    /* with predicted savings: the log's saved_seconds is its best change's,
     * and the changes go largest saving first (pattern 0 although pattern 2
     * scores higher) */
    make_row(&r, log_path, 44);
    r.saving[0] = 0.75; /* of io_time 7200 s: 5400 s */
    r.saving[2] = 0.25;
    r.best_saving = 0.75;
    r.best_saving_s = 37.5; /* the slowest rank's: not what the archive sums */
    snprintf(r.best_change, sizeof r.best_change, "larger_requests");
    assert_int_equal(iosage_archive_add(a, &r, "b1", &err), IOSAGE_OK);
    assert_int_equal(iosage_archive_commit(a, &err), IOSAGE_OK);
    assert_int_equal(iosage_archive_query(a, IOSAGE_Q_JOBS, &flt, &t, &err),
                     IOSAGE_OK);
    assert_int_equal(t.nrow, 1);
    assert_string_equal(cell(&t, 0, "saved_hours"), "1.5");
    iosage_archive_table_free(&t);

    /* the same file, same bundle: nothing to do; another bundle: only
     * with reanalyze */
    iosage_batch_list in = {0}, todo = {0};
    struct iosage_archive_counts c;
    assert_int_equal(iosage_batch_list_push(&in, log_path, 16, NULL, &err),
                     IOSAGE_OK);
    assert_int_equal(iosage_archive_select(a, &in, "b1", 1, &todo, &c, &err),
                     IOSAGE_OK);
    assert_int_equal(todo.n, 0);
    assert_int_equal(c.unchanged, 1);
    assert_int_equal(iosage_archive_select(a, &in, "b2", 0, &todo, &c, &err),
                     IOSAGE_OK);
    assert_int_equal(todo.n, 0);
    assert_int_equal(iosage_archive_select(a, &in, "b2", 1, &todo, &c, &err),
                     IOSAGE_OK);
    assert_int_equal(todo.n, 1);
    assert_int_equal(c.reanalyze, 1);
    iosage_batch_list_free(&todo);
    iosage_batch_list_free(&in);

    for (int q = IOSAGE_Q_APPS; q <= IOSAGE_Q_INFO; q++) {
        assert_non_null(iosage_archive_sql(q, IOSAGE_BY_IO));
        assert_int_equal(iosage_archive_query(a, q, &flt, &t, &err), IOSAGE_OK);
        iosage_archive_table_free(&t);
    }
    assert_null(iosage_archive_sql(99, 0));
    iosage_archive_close(a);

    /* read mode: a second connection sees the committed row */
    assert_int_equal(iosage_archive_open(db_path, IOSAGE_ARCHIVE_READ, &a,
                                         &err), IOSAGE_OK);
    assert_int_equal(iosage_archive_query(a, IOSAGE_Q_INFO, &flt, &t, &err),
                     IOSAGE_OK);
    assert_string_equal(cell(&t, 0, "logs"), "1");
    iosage_archive_table_free(&t);
    assert_int_equal(iosage_archive_add(a, &r, "b1", &err), IOSAGE_E_USAGE);
    iosage_archive_close(a);

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* The views of a query table: text cleans what a log put in a cell, CSV
 * neutralizes a formula too, JSON keeps the bytes. */
static char *view(const iosage_archive_table *t, enum iosage_table_format f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    assert_non_null(m);
    iosage_report_archive_table(m, t, f);
    assert_int_equal(fclose(m), 0);
    return buf;
}

static void test_table_views(void **state)
{
    (void)state;
    char *cols[] = {"app", "jobs"};
    int numeric[] = {0, 1};
    char *cells[] = {"=cmd|' /C calc'!A0", "12", "x\033]0;t\007y", NULL, "", "-3"};
    iosage_archive_table t = {2, cols, numeric, 3, cells};
    char *text = view(&t, IOSAGE_TABLE_TEXT);
    assert_string_equal(text, "app                 jobs\n"
                              "=cmd|' /C calc'!A0    12\n"
                              "x\\x1b]0;t\\x07y         -\n"
                              "                      -3\n");
    free(text);
    char *csv = view(&t, IOSAGE_TABLE_CSV);
    assert_string_equal(csv, "app,jobs\n'=cmd|' /C calc'!A0,12\n"
                             "x\\x1b]0;t\\x07y,\n,-3\n");
    free(csv);
    char *json = view(&t, IOSAGE_TABLE_JSON);
    assert_non_null(strstr(json, "\"app\": \"x\\u001B]0;t\\u0007y\""));
    assert_non_null(strstr(json, "\"jobs\": null"));
    assert_non_null(strstr(json, "\"jobs\": -3"));
    free(json);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash),
        cmocka_unit_test(test_app_name),
        cmocka_unit_test(test_add_and_query),
        cmocka_unit_test(test_table_views),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
