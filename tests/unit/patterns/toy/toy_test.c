/*
 * tests/unit/patterns/toy/toy_test.c - adding a pattern is one file and one
 * line: this test build links the library with its own pattern list
 * (pattern_list.c: the seven and the toy of p_toy.c) and checks that the
 * registry, the labeler and the advice's change lookups see the toy
 * pattern without any other change to the library.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "iosage/advise.h"
#include "iosage/counters.h"
#include "iosage/darshan.h"
#include "iosage/label.h"
#include "iosage/patterns.h"
#include "iosage/validate.h"
#include "testutil.h"

#define MIB 1048576
#define TOY 7 /* the toy's index: after the seven */

/* A job of nprocs ranks that ran for 10 s, with one POSIX file of n writes
 * of size bytes taking t_write seconds. */
static iosage_log *job_with_writes(int64_t n, int64_t size, double t_write)
{
    iosage_log *log = iosage_log_create();
    assert_non_null(log);
    struct iosage_job job;
    memset(&job, 0, sizeof job);
    job.nprocs = 1;
    job.jobid = 7;
    job.start_time_sec = 1000;
    job.end_time_sec = 1010;
    job.exe = "./toy";
    assert_int_equal(iosage_log_set_job(log, &job, NULL), IOSAGE_OK);
    iosage_record *r = tu_rec_new(IOSAGE_MOD_POSIX, "/data/out", 0);
    int64_t *c = r->counters;
    c[IOSAGE_POSIX_OPENS] = 1;
    c[IOSAGE_POSIX_WRITES] = n;
    c[IOSAGE_POSIX_BYTES_WRITTEN] = n * size;
    c[IOSAGE_POSIX_MAX_BYTE_WRITTEN] = n * size - 1;
    c[IOSAGE_POSIX_SEQ_WRITES] = n;
    c[IOSAGE_POSIX_CONSEC_WRITES] = n;
    c[size < MIB ? IOSAGE_POSIX_SIZE_WRITE_1K_10K : IOSAGE_POSIX_SIZE_WRITE_4M_10M] = n;
    r->fcounters[IOSAGE_POSIX_F_WRITE_TIME] = t_write;
    assert_int_equal(tu_rec_add(log, r, "/data/out"), IOSAGE_OK);
    return log;
}

static void test_registry(void **state)
{
    (void)state;
    assert_int_equal(iosage_pattern_count(), 8);
    assert_int_equal(iosage_pattern_index("toy_large_writes"), TOY);
    const struct iosage_pattern *p = iosage_pattern_get(TOY);
    assert_non_null(p);
    assert_string_equal(p->name, "Large writes (toy)");
    /* the seven keep their places */
    assert_int_equal(iosage_pattern_index("throughput_utilization"), 6);
    assert_string_equal(iosage_label_pattern_id(TOY), "toy_large_writes");
}

static void test_label(void **state)
{
    (void)state;
    /* 100 writes of 8 MiB in 2 s of a 10 s run: the toy holds */
    iosage_log *log = job_with_writes(100, 8 * MIB, 2.0);
    struct iosage_label_result r;
    assert_int_equal(iosage_label_log(log, &r, NULL), IOSAGE_OK);
    assert_int_equal(r.n_patterns, 8);
    assert_int_equal(r.present[TOY], 1);
    assert_int_equal(r.present[IOSAGE_LABEL_ACCESS_GRANULARITY], 0);
    assert_false(r.healthy);
    assert_string_equal(r.evidence[TOY],
                        "1 data file(s) written in requests >= 4 MiB, 100% of I/O time");
    char line[2048];
    assert_non_null(strstr(iosage_label_evidence_line(&r, line, sizeof line),
                           " | TL: 1 data file(s)"));
    /* the finding of offline advice, from the toy's file */
    iosage_file_table *t = NULL;
    assert_int_equal(iosage_file_table_build(log, &t, NULL), IOSAGE_OK);
    struct iosage_pattern_finding f = {.share = 0.0, .row = -1};
    iosage_pattern_get(TOY)->finding(t, &f);
    assert_true(f.share == 1.0);
    assert_string_equal(f.change_id, "smaller_requests");
    iosage_file_table_free(t);
    iosage_log_free(log);

    /* 2,000 writes of 4 KiB: access_granularity, not the toy */
    log = job_with_writes(2000, 4096, 2.0);
    assert_int_equal(iosage_label_log(log, &r, NULL), IOSAGE_OK);
    assert_int_equal(r.present[TOY], 0);
    assert_int_equal(r.present[IOSAGE_LABEL_ACCESS_GRANULARITY], 1);
    iosage_log_free(log);
}

static void test_changes(void **state)
{
    (void)state;
    const char *ids[4];
    assert_int_equal(iosage_advise_change_ids("toy_large_writes", ids, 4), 1);
    assert_string_equal(ids[0], "smaller_requests");
    assert_true(iosage_advise_change_known("toy_large_writes", "smaller_requests"));
    assert_true(iosage_validate_known_change("toy_large_writes", "smaller_requests"));
    assert_false(iosage_validate_known_change("toy_large_writes", "drop_syncs"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_label),
        cmocka_unit_test(test_changes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
