/*
 * tests/batch/test_batch.c - the library part of `iosage batch`
 * (iosage/batch.h): CSV quoting, JSON lines, the exact row form the MPI
 * front end passes between ranks, input listing and order, the schedule,
 * and the summary.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "iosage/batch.h"

/* What write_row writes for row in format, as a malloc'd string. */
static char *render(int format, const struct iosage_batch_row *row)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(iosage_batch_write_row(f, format, row), 0);
    fclose(f);
    return buf;
}

/* A copy of s that the row owns. */
static char *own(const char *s)
{
    char *p = malloc(strlen(s) + 1);
    assert_non_null(p);
    memcpy(p, s, strlen(s) + 1);
    return p;
}

/* An ok row with awkward strings and reals. */
static void sample_row(struct iosage_batch_row *r)
{
    memset(r, 0, sizeof *r);
    r->index = 7;
    r->file = own("dir/a,\"b\"\nc.darshan");
    r->status = IOSAGE_BATCH_PARTIAL;
    r->error = own("POSIX: truncated");
    r->job_id = 42;
    r->uid = 1000;
    r->exe = own("/bin/app -x \"1,2\" \xc3\xa9");
    r->nprocs = 4;
    r->run_time = 0.1 + 0.2;
    r->io_time = 1e-300;
    r->io_time_share = NAN;
    r->bytes_read = INT64_MAX;
    r->bytes_written = 3;
    r->healthy = 0;
    r->gate_score = 0.75;
    r->n_patterns = iosage_pattern_count();
    for (int k = 0; k < r->n_patterns; k++)
        r->score[k] = 1.0 / (k + 3);
    r->detected[1] = 1;
    r->top_pattern = 1;
    r->evidence = own("x.h5: 98% of writes under 1 MiB");
    snprintf(r->best_change, sizeof r->best_change, "collective_io");
    r->best_saving = 0.375;
    r->best_saving_s = 12.5;
    r->criteria_only[0] = 1; /* access_granularity */
    r->criteria_only[5] = 1; /* file_strategy */
}

static void csv_quotes_and_empty_cells(void **state)
{
    (void)state;
    struct iosage_batch_row r;
    sample_row(&r);
    char *line = render(IOSAGE_BATCH_CSV, &r);
    const char *want = "\"dir/a,\"\"b\"\"\\x0ac.darshan\",partial,POSIX: "
                       "truncated,42,1000,\"/bin/app -x \"\"1,2\"\" \xc3\xa9\","
                       "4,0.3,1e-300,,9223372036854775807,3,0,0.75,0.333333,0,"
                       "0.25,1,";
    assert_memory_equal(line, want, strlen(want));
    assert_non_null(strstr(line, ",metadata_intensity,x.h5: 98% of writes "
                                 "under 1 MiB,collective_io,0.375,12.5,"
                                 "access_granularity;file_strategy\n"));
    free(line);
    iosage_batch_row_clear(&r);
    /* an error row has as many cells as the header */
    assert_int_equal(iosage_batch_row_error(&r, "bad.darshan", 3, "boom"),
                     IOSAGE_OK);
    line = render(IOSAGE_BATCH_CSV, &r);
    size_t commas = 0;
    for (const char *p = line; *p; p++)
        commas += *p == ',';
    assert_int_equal(commas, 2 + 11 + 2 * iosage_pattern_count() + 6);
    free(line);
    /* and so does the header */
    char *head = NULL;
    size_t head_len = 0;
    FILE *hf = open_memstream(&head, &head_len);
    assert_non_null(hf);
    assert_int_equal(iosage_batch_write_header(hf, IOSAGE_BATCH_CSV), 0);
    fclose(hf);
    commas = 0;
    for (const char *p = head; *p; p++)
        commas += *p == ',';
    assert_int_equal(commas, 2 + 11 + 2 * iosage_pattern_count() + 6);
    assert_non_null(strstr(head, ",best_saving_seconds,criteria_only\n"));
    free(head);
    line = render(IOSAGE_BATCH_CSV, &r);
    assert_memory_equal(line, "bad.darshan,error,boom,,", 24);
    free(line);
    iosage_batch_row_clear(&r);
}

/* Issue 17 point 4: text cells that start with a formula prefix get a
 * leading ', control characters print as \xHH (no raw ESC reaches a
 * terminal), negative numbers stay numbers, and the JSON line keeps the
 * exact bytes. */
static void csv_neutralises_formulas_and_controls(void **state)
{
    (void)state;
    static const char *const names[][2] = {
        {"=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""},
        {"+1+2", "'+1+2"},
        {"-2+3", "'-2+3"},
        {"@SUM(A1)", "'@SUM(A1)"},
        {"\tx", "'\\x09x"},
        {"\rx", "'\\x0dx"},
        {"/a\033]0;t\007b\033[2J\xc2\x9b\xc3\xa9", "/a\\x1b]0;t\\x07b\\x1b[2J\\xc2\\x9b\xc3\xa9"},
        {"/plain/a-b=c.darshan", "/plain/a-b=c.darshan"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct iosage_batch_row r;
        sample_row(&r);
        free(r.exe);
        r.exe = own(names[i][0]);
        r.job_id = -5;
        char *line = render(IOSAGE_BATCH_CSV, &r);
        char want[200];
        snprintf(want, sizeof want, ",-5,1000,%s,4,", names[i][1]);
        if (!strstr(line, want))
            fail_msg("case %zu: %s lacks %s", i, line, want);
        assert_null(strchr(line, '\033'));
        free(line);
        /* JSON: the exact bytes (rows hold UTF-8: src/batch/analyze.c
         * replaces bytes that are not with U+FFFD before any view) */
        line = render(IOSAGE_BATCH_JSONL, &r);
        json_error_t jerr;
        json_t *doc = json_loads(line, 0, &jerr);
        assert_non_null(doc);
        const char *exe = json_string_value(json_object_get(doc, "exe"));
        assert_non_null(exe);
        assert_string_equal(exe, names[i][0]);
        assert_int_equal(json_integer_value(json_object_get(doc, "job_id")), -5);
        json_decref(doc);
        free(line);
        iosage_batch_row_clear(&r);
    }
}

static void jsonl_error_and_ok_rows(void **state)
{
    (void)state;
    struct iosage_batch_row r = {0};
    assert_int_equal(iosage_batch_row_error(&r, "bad.darshan", 3, "boom"),
                     IOSAGE_OK);
    char *line = render(IOSAGE_BATCH_JSONL, &r);
    assert_string_equal(line, "{\"file\":\"bad.darshan\",\"status\":\"error\","
                              "\"error\":\"boom\"}\n");
    free(line);
    iosage_batch_row_clear(&r);
    sample_row(&r);
    line = render(IOSAGE_BATCH_JSONL, &r);
    assert_non_null(strstr(line, "\"run_time\":0.3,"));
    assert_non_null(strstr(line, "\"io_time_share\":null,"));
    assert_non_null(strstr(line, "\"top_pattern\":\"metadata_intensity\""));
    assert_non_null(strstr(line, "\"file\":\"dir/a,\\\"b\\\"\\nc.darshan\""));
    assert_non_null(strstr(line, ",\"criteria_only\":[\"access_granularity\","
                                 "\"file_strategy\"]}\n"));
    free(line);
    /* none: an empty array */
    memset(r.criteria_only, 0, sizeof r.criteria_only);
    line = render(IOSAGE_BATCH_JSONL, &r);
    assert_non_null(strstr(line, ",\"criteria_only\":[]}\n"));
    free(line);
    iosage_batch_row_clear(&r);
}

/* serialize -> parse -> the same bytes in every form (what makes the MPI
 * output identical to the threaded one) */
static void exact_form_round_trips(void **state)
{
    (void)state;
    struct iosage_batch_row r, back = {0};
    sample_row(&r);
    char *s1 = iosage_batch_row_serialize(&r);
    assert_non_null(s1);
    iosage_error err;
    assert_int_equal(iosage_batch_row_parse(s1, &back, &err), IOSAGE_OK);
    char *s2 = iosage_batch_row_serialize(&back);
    assert_string_equal(s1, s2);
    assert_int_equal(back.index, 7);
    assert_true(back.run_time == 0.1 + 0.2);
    assert_true(back.io_time == 1e-300);
    assert_true(isnan(back.io_time_share));
    assert_int_equal(back.criteria_only[0], 1);
    assert_int_equal(back.criteria_only[5], 1);
    assert_int_equal(back.criteria_only[1], 0);
    for (int f = 0; f < 2; f++) {
        char *a = render(f, &r), *b = render(f, &back);
        assert_string_equal(a, b);
        /* what a worker renders ahead is what the writer would write */
        assert_int_equal(iosage_batch_row_render(&back, f), 0);
        assert_int_equal(back.text_len, strlen(a));
        assert_memory_equal(back.text, a, back.text_len);
        free(a);
        free(b);
    }
    free(s1);
    free(s2);
    iosage_batch_row_clear(&r);
    iosage_batch_row_clear(&back);
    assert_int_equal(iosage_batch_row_parse("not json", &back, &err),
                     IOSAGE_E_CORRUPT);
    assert_int_equal(iosage_batch_row_parse("{\"index\": 1}", &back, &err),
                     IOSAGE_E_CORRUPT);
    assert_int_equal(iosage_batch_row_parse("{\"index\":1,\"file\":\"f\","
                                            "\"status\":\"ok\"}", &back, &err),
                     IOSAGE_E_CORRUPT);
}

/* Five items of sizes 5, 10, 5, -1 (not known) and 10. */
static void push_five(iosage_batch_list *list)
{
    const int64_t sizes[] = {5, 10, 5, -1, 10};
    for (int i = 0; i < 5; i++)
        assert_int_equal(iosage_batch_list_push(list, "x", sizes[i], NULL,
                                                NULL), IOSAGE_OK);
}

static void schedule_largest_first(void **state)
{
    (void)state;
    iosage_batch_list list = {0};
    push_five(&list);
    size_t *order = iosage_batch_schedule(&list, 0, 5);
    const size_t want[] = {1, 4, 0, 2, 3};
    for (int i = 0; i < 5; i++)
        assert_int_equal(order[i], want[i]);
    free(order);
    order = iosage_batch_schedule(&list, 2, 3); /* a window */
    assert_int_equal(order[0], 4);
    assert_int_equal(order[1], 2);
    assert_int_equal(order[2], 3);
    free(order);
    iosage_batch_list_free(&list);
}

/* Tail bytes along the schedule, and the group share taken from them. */
static void groups_shrink_with_the_tail(void **state)
{
    (void)state;
    iosage_batch_list list = {0};
    push_five(&list);
    size_t *order = iosage_batch_schedule(&list, 0, 5); /* 1 4 0 2 3 */
    int64_t *tail = iosage_batch_tail_bytes(&list, order, 5);
    const int64_t want[] = {30, 20, 10, 5, 0, 0}; /* -1 counts as 0 */
    for (int i = 0; i < 6; i++)
        assert_int_equal(tail[i], want[i]);
    free(tail);
    free(order);
    iosage_batch_list_free(&list);
    /* a quarter of the tail for 2 workers, a sixth for 3, capped, >= 1 */
    assert_int_equal(iosage_batch_group_bytes(1000, 2), 250);
    assert_int_equal(iosage_batch_group_bytes(1200, 3), 200);
    assert_int_equal(iosage_batch_group_bytes(3, 2), 1);
    assert_int_equal(iosage_batch_group_bytes(0, 1), 1);
    assert_int_equal(iosage_batch_group_bytes(INT64_C(1) << 40, 1),
                     IOSAGE_BATCH_GROUP_BYTES);
}

static void touch(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The paths of list after the prefix dir + "/", joined by spaces. */
static void names(const iosage_batch_list *list, const char *dir, char *out,
                  size_t size)
{
    out[0] = '\0';
    for (size_t i = 0; i < list->n; i++) {
        const char *p = list->items[i].path;
        if (strncmp(p, dir, strlen(dir)) == 0)
            p += strlen(dir) + 1;
        size_t n = strlen(out);
        snprintf(out + n, size - n, "%s%s", i ? " " : "", p);
    }
}

static void listing_order_and_lists(void **state)
{
    (void)state;
    char dir[] = "/tmp/iosage-batch-test.XXXXXX", sub[64], text[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(sub, sizeof sub, "%s/sub", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    touch(dir, "b.darshan", "x");
    touch(dir, "a.darshan", "x");
    touch(sub, "c.darshan_partial", "x");
    touch(dir, "z.darshan.gz", "x");
    touch(dir, "notes.txt", "x");
    touch(dir, "y.darshan.txt", "x");
    iosage_batch_list list = {0};
    iosage_error err;
    assert_int_equal(iosage_batch_list_add(&list, dir, NULL, &err), IOSAGE_OK);
    names(&list, dir, text, sizeof text);
    assert_string_equal(text, "a.darshan b.darshan sub/c.darshan_partial "
                              "z.darshan.gz");
    assert_int_equal(list.items[0].size, 1);
    iosage_batch_list_free(&list);

    /* a list file: its lines; a text file that lists nothing: a log */
    char listing[600];
    snprintf(listing, sizeof listing, "\n%s/b.darshan\n\n  %s/missing.darshan \n",
             dir, dir);
    touch(dir, "list.txt", listing);
    snprintf(listing, sizeof listing, "%s/list.txt", dir);
    assert_int_equal(iosage_batch_list_add(&list, listing, NULL, &err),
                     IOSAGE_OK);
    snprintf(listing, sizeof listing, "%s/notes.txt", dir);
    assert_int_equal(iosage_batch_list_add(&list, listing, NULL, &err),
                     IOSAGE_OK);
    names(&list, dir, text, sizeof text);
    assert_string_equal(text, "b.darshan missing.darshan notes.txt");
    assert_int_equal(list.items[1].size, -1);
    iosage_batch_list_free(&list);

    /* "-": the lines of the stream */
    char input[] = "one.darshan\r\ntwo.darshan\n";
    FILE *in = fmemopen(input, strlen(input), "r");
    assert_int_equal(iosage_batch_list_add(&list, "-", in, &err), IOSAGE_OK);
    fclose(in);
    names(&list, dir, text, sizeof text);
    assert_string_equal(text, "one.darshan two.darshan");
    iosage_batch_list_free(&list);

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A read row: io_time, detected pattern k (or -1), exe. */
static void summary_row(struct iosage_batch_row *r, size_t index,
                        double io_time, int k, const char *exe)
{
    memset(r, 0, sizeof *r);
    r->index = index;
    r->file = own("f.darshan");
    r->exe = own(exe);
    r->job_id = (int64_t)index;
    r->io_time = io_time;
    r->io_time_share = 0.5;
    r->n_patterns = iosage_pattern_count();
    r->healthy = k < 0;
    if (k >= 0)
        r->detected[k] = 1;
    r->top_pattern = k;
}

static void summary_counts_and_top_jobs(void **state)
{
    (void)state;
    iosage_batch_summary *s = iosage_batch_summary_new();
    struct iosage_batch_row r;
    summary_row(&r, 0, 5, 0, "/opt/bin/wrf.exe -i namelist");
    assert_int_equal(iosage_batch_summary_add(s, &r), 0);
    iosage_batch_row_clear(&r);
    summary_row(&r, 1, 9, 0, "ior");
    r.status = IOSAGE_BATCH_PARTIAL;
    assert_int_equal(iosage_batch_summary_add(s, &r), 0);
    iosage_batch_row_clear(&r);
    summary_row(&r, 2, 5, 0, "/opt/bin/wrf.exe");
    assert_int_equal(iosage_batch_summary_add(s, &r), 0);
    iosage_batch_row_clear(&r);
    summary_row(&r, 3, 100, -1, "ior");
    r.criteria_only[3] = 1; /* healthy to the models, not to the criteria */
    assert_int_equal(iosage_batch_summary_add(s, &r), 0);
    iosage_batch_row_clear(&r);
    assert_int_equal(iosage_batch_row_error(&r, "bad", 4, "boom"), IOSAGE_OK);
    assert_int_equal(iosage_batch_summary_add(s, &r), 0);
    iosage_batch_row_clear(&r);

    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    iosage_batch_summary_print(s, f);
    fclose(f);
    assert_non_null(strstr(text, "logs: 5 (3 read completely, 1 partly, "
                                 "1 not read)\nhealthy: 1 of 4 logs read\n"));
    assert_non_null(strstr(text, "access_granularity                3"
                                 "               19.0              0\n"));
    assert_non_null(strstr(text, "access_pattern                    0"
                                 "                0.0              1\n"));
    /* most time lost first; the tie (5 s) goes to the earlier input */
    const char *a = strstr(text, "job 1 "), *b = strstr(text, "job 0 "),
               *c = strstr(text, "job 2 ");
    assert_true(a && b && c && a < b && b < c);
    /* executables by I/O time: ior (109 s) before wrf.exe (10 s) */
    const char *ior = strstr(text, "\nior "), *wrf = strstr(text, "\nwrf.exe ");
    assert_true(ior && wrf && ior < wrf);
    assert_non_null(strstr(wrf, "access_granularity 2"));
    free(text);
    iosage_batch_summary_free(s);
}

struct seen {
    size_t n;
    size_t index[16];
    int status[16];
};

static int collect(void *ctx, const struct iosage_batch_row *row)
{
    struct seen *s = ctx;
    s->index[s->n] = row->index;
    s->status[s->n] = row->status;
    s->n++;
    return s->n == 6 ? 1 : 0; /* the 6th row asks to stop */
}

/* Windows of 3, 1 and 2 threads: rows in input order, error rows for
 * listing errors and missing files; a callback can stop the batch. */
static void pool_windows_in_order(void **state)
{
    (void)state;
    iosage_model *m = NULL;
    iosage_error err;
    assert_int_equal(iosage_model_load(IOSAGE_SOURCE_DIR "/models/default",
                                       &m, &err), IOSAGE_OK);
    iosage_batch_list list = {0};
    for (int i = 0; i < 7; i++) {
        char path[64];
        snprintf(path, sizeof path, "/nonexistent/%d.darshan", i);
        assert_int_equal(iosage_batch_list_push(&list, path, 100 * i,
                                                i == 4 ? "cannot read" : NULL,
                                                NULL), IOSAGE_OK);
    }
    for (int threads = 1; threads <= 2; threads++) {
        struct seen seen = {0};
        struct iosage_batch_run_params p = {.threads = threads, .window = 3,
                                            .on_row = collect,
                                            .row_ctx = &seen};
        assert_int_equal(iosage_batch_run(m, &list, &p, &err), IOSAGE_E_USAGE);
        assert_int_equal(seen.n, 6);
        for (size_t i = 0; i < seen.n; i++) {
            assert_int_equal(seen.index[i], i);
            assert_int_equal(seen.status[i], IOSAGE_BATCH_ERROR);
        }
    }
    iosage_batch_list_free(&list);
    iosage_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_quotes_and_empty_cells),
        cmocka_unit_test(csv_neutralises_formulas_and_controls),
        cmocka_unit_test(jsonl_error_and_ok_rows),
        cmocka_unit_test(exact_form_round_trips),
        cmocka_unit_test(schedule_largest_first),
        cmocka_unit_test(groups_shrink_with_the_tail),
        cmocka_unit_test(listing_order_and_lists),
        cmocka_unit_test(summary_counts_and_top_jobs),
        cmocka_unit_test(pool_windows_in_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
