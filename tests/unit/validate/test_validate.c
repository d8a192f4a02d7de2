/*
 * tests/unit/test_validate.c - `iosage validate` without running anything:
 * the paired-run statistics on fixed ratios (n = 11 as in the IOSage paper,
 * n = 3 too small for 90%, n = 20, an even n), the scenario format and its
 * errors, and reading the proposals out of a report.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "iosage/validate.h"

/* --- statistics ---------------------------------------------------------- */

static void test_coverage_values(void **state)
{
    (void)state;
    /* 1 - 2 (1 + 11 + 55) / 2048 = 0.934570... */
    assert_true(fabs(iosage_validate_coverage(11, 3) - 0.9345703125) < 1e-12);
    /* k = 4 would give 1 - 2 (67 + 165) / 2048 = 0.7734 */
    assert_true(fabs(iosage_validate_coverage(11, 4) - 0.7734375) < 1e-12);
    assert_true(fabs(iosage_validate_coverage(3, 1) - 0.75) < 1e-12);
    assert_true(fabs(iosage_validate_coverage(5, 1) - 0.9375) < 1e-12);
    assert_true(iosage_validate_coverage(11, 0) == 0.0);
    assert_true(iosage_validate_coverage(11, 7) == 0.0); /* k > n+1-k */
    assert_int_equal(iosage_validate_interval_rank(11, 0.90), 3);
    assert_int_equal(iosage_validate_interval_rank(20, 0.90), 6);
    assert_int_equal(iosage_validate_interval_rank(5, 0.90), 1);
    assert_int_equal(iosage_validate_interval_rank(4, 0.90), 0);
    assert_int_equal(iosage_validate_interval_rank(3, 0.90), 0);
    /* n = 20, k = 6: 1 - 2 P(Bin(20, 1/2) <= 5) = 1 - 2 * 21700 / 2^20 */
    assert_true(fabs(iosage_validate_coverage(20, 6) -
                     (1.0 - 2.0 * 21700.0 / 1048576.0)) < 1e-12);
    /* the largest n still works (2^-1000 is a normal double) */
    size_t k = iosage_validate_interval_rank(1000, 0.90);
    assert_true(k > 400 && k < 500);
    assert_true(iosage_validate_coverage(1000, k) >= 0.90);
    assert_true(iosage_validate_coverage(1000, k + 1) < 0.90);
}

static void test_stats_eleven(void **state)
{
    (void)state;
    /* sorted: 0.9 1.1 1.2 1.3 1.4 1.5 1.6 1.7 1.8 2.0 3.0 */
    const double r[11] = {1.5, 3.0, 1.1, 1.8, 0.9, 1.4, 2.0, 1.2, 1.7, 1.3,
                          1.6};
    struct iosage_validate_stats st;
    assert_int_equal(iosage_validate_stats_of(r, 11, &st, NULL), IOSAGE_OK);
    assert_int_equal(st.n, 11);
    assert_true(st.median == 1.5);
    assert_int_equal(st.k_lo, 3);
    assert_int_equal(st.k_hi, 9);
    assert_true(st.lo == 1.2);
    assert_true(st.hi == 1.8);
    assert_true(fabs(st.coverage - 0.9345703125) < 1e-12);
    assert_int_equal(st.reached, 1);
    assert_int_equal(st.significant, 1);
    assert_true(r[0] == 1.5 && r[1] == 3.0); /* input untouched */
}

static void test_stats_not_significant(void **state)
{
    (void)state;
    /* sorted: 0.7 0.8 0.95 0.97 0.99 1.0 1.01 1.02 1.05 1.2 1.3 */
    const double r[11] = {1.0, 0.8, 1.3, 0.97, 1.05, 0.7, 1.01, 0.95, 1.2,
                          0.99, 1.02};
    struct iosage_validate_stats st;
    assert_int_equal(iosage_validate_stats_of(r, 11, &st, NULL), IOSAGE_OK);
    assert_true(st.median == 1.0);
    assert_true(st.lo == 0.95 && st.hi == 1.05);
    assert_int_equal(st.significant, 0);
}

static void test_stats_three(void **state)
{
    (void)state;
    const double r[3] = {2.0, 1.5, 2.5};
    struct iosage_validate_stats st;
    assert_int_equal(iosage_validate_stats_of(r, 3, &st, NULL), IOSAGE_OK);
    assert_true(st.median == 2.0);
    assert_int_equal(st.reached, 0); /* no k reaches 90% */
    assert_int_equal(st.k_lo, 1);
    assert_int_equal(st.k_hi, 3);
    assert_true(st.lo == 1.5 && st.hi == 2.5); /* min..max */
    assert_true(fabs(st.coverage - 0.75) < 1e-12);
    assert_int_equal(st.significant, 1);
}

static void test_stats_twenty(void **state)
{
    (void)state;
    double r[20];
    for (int i = 0; i < 20; i++) /* 1.01 .. 1.20, shuffled by a stride */
        r[(i * 7) % 20] = 1.0 + (i + 1) / 100.0;
    struct iosage_validate_stats st;
    assert_int_equal(iosage_validate_stats_of(r, 20, &st, NULL), IOSAGE_OK);
    assert_int_equal(st.k_lo, 6);
    assert_int_equal(st.k_hi, 15);
    assert_true(fabs(st.lo - 1.06) < 1e-12);
    assert_true(fabs(st.hi - 1.15) < 1e-12);
    assert_true(fabs(st.median - 1.105) < 1e-12); /* (1.10 + 1.11) / 2 */
    assert_true(fabs(st.coverage - 0.958610534667969) < 1e-9);
    assert_int_equal(st.reached, 1);
}

static void test_median_even_and_bad(void **state)
{
    (void)state;
    const double x[4] = {4.0, 1.0, 3.0, 2.0};
    assert_true(iosage_validate_median(x, 4) == 2.5);
    assert_true(iosage_validate_median(x, 1) == 4.0);
    assert_true(isnan(iosage_validate_median(x, 0)));
    struct iosage_validate_stats st;
    iosage_error err;
    assert_int_equal(iosage_validate_stats_of(x, 0, &st, &err), IOSAGE_E_USAGE);
    const double bad[3] = {1.0, 0.0, 2.0};
    assert_int_equal(iosage_validate_stats_of(bad, 3, &st, &err),
                     IOSAGE_E_USAGE);
    assert_non_null(strstr(err.msg, "ratio 2"));
    const double nan_in[2] = {1.0, NAN};
    assert_int_equal(iosage_validate_stats_of(nan_in, 2, &st, &err),
                     IOSAGE_E_USAGE);
    assert_int_equal(st.n, 0);
}

/* --- scenarios ----------------------------------------------------------- */

static const char *good_scenario =
    "# a comment\n"
    "name      fsync_per_write\n"
    "kernel    ior_like\n"
    "ranks     8\n"
    "patterns  throughput_utilization,access_granularity\n"
    "baseline  --api posix --fsync-per-write --transfer 1m --block 16m\n"
    "\n"
    "change throughput_utilization drop_syncs  --api posix --transfer 1m "
    "--block 16m\n"
    "change access_granularity larger_requests\t--api posix --transfer 4m "
    "--block 16m --fsync-per-write\r\n"
    "change file_strategy shared_file kernel=hacc_like --api mpiio\n";

static void test_scenario_good(void **state)
{
    (void)state;
    struct iosage_validate_scenario *s = NULL;
    assert_int_equal(iosage_validate_scenario_parse(good_scenario, "g.scenario",
                                                    &s, NULL),
                     IOSAGE_OK);
    assert_string_equal(s->name, "fsync_per_write");
    assert_string_equal(s->kernel, "ior_like");
    assert_int_equal(s->ranks, 8);
    assert_int_equal(s->healthy, 0);
    assert_int_equal(s->n_patterns, 2);
    assert_string_equal(s->patterns[1], "access_granularity");
    assert_int_equal(s->baseline.n, 7);
    assert_string_equal(s->baseline.v[2], "--fsync-per-write");
    assert_int_equal(s->n_changes, 3);
    const struct iosage_validate_change *c = iosage_validate_scenario_find(
        s, "throughput_utilization", "drop_syncs");
    assert_non_null(c);
    assert_string_equal(c->kernel, "ior_like"); /* the scenario's */
    assert_int_equal(c->lineno, 8);
    assert_int_equal(c->flags.n, 6);
    assert_string_equal(c->flags.v[5], "16m");
    c = iosage_validate_scenario_find(s, "access_granularity",
                                      "larger_requests");
    assert_non_null(c);
    assert_string_equal(c->flags.v[6], "--fsync-per-write"); /* no \r */
    assert_null(iosage_validate_scenario_find(s, "access_granularity",
                                              "drop_syncs"));
    c = iosage_validate_scenario_find(s, "file_strategy", "shared_file");
    assert_non_null(c);
    assert_string_equal(c->kernel, "hacc_like");
    assert_int_equal(c->flags.n, 2);
    assert_string_equal(c->flags.v[0], "--api");
    iosage_validate_scenario_free(s);
}

static void test_scenario_healthy(void **state)
{
    (void)state;
    struct iosage_validate_scenario *s = NULL;
    assert_int_equal(iosage_validate_scenario_parse(
                         "name h\nkernel ior_like\nranks 4\npatterns healthy\n"
                         "baseline\n",
                         "h.scenario", &s, NULL),
                     IOSAGE_OK);
    assert_int_equal(s->healthy, 1);
    assert_int_equal(s->n_patterns, 0);
    assert_int_equal(s->baseline.n, 0); /* the kernel's defaults */
    assert_int_equal(s->n_changes, 0);
    iosage_validate_scenario_free(s);
}

/* text must fail with a message containing want. */
static void expect_error(const char *text, const char *want)
{
    struct iosage_validate_scenario *s = (void *)1;
    iosage_error err;
    assert_int_equal(iosage_validate_scenario_parse(text, "bad.scenario", &s,
                                                    &err),
                     IOSAGE_E_CORRUPT);
    assert_null(s);
    if (!strstr(err.msg, want)) {
        fprintf(stderr, "got '%s', want '%s'\n", err.msg, want);
        fail();
    }
}

static void test_scenario_errors(void **state)
{
    (void)state;
    const char *head = "name x\nkernel ior_like\nranks 4\n"
                       "patterns access_granularity\nbaseline --transfer 4k\n";
    char text[1024];
    snprintf(text, sizeof text, "%sfrobnicate 3\n", head);
    expect_error(text, "bad.scenario:6: unknown directive frobnicate");
    snprintf(text, sizeof text, "%schange access_granularity drop_syncs -x\n",
             head);
    expect_error(text, "bad.scenario:6: unknown change id access_granularity "
                       "drop_syncs");
    snprintf(text, sizeof text,
             "%schange access_granularity larger_requests --transfer 1m\n"
             "change access_granularity larger_requests --transfer 2m\n",
             head);
    expect_error(text, "bad.scenario:7: change listed twice");
    snprintf(text, sizeof text, "%schange access_granularity\n", head);
    expect_error(text, "bad.scenario:6: change needs PATTERN CHANGE_ID");
    expect_error("name x\nkernel ior_like\nranks 0\n", "bad.scenario:3: ranks "
                                                        "must be 1..1024");
    snprintf(text, sizeof text, "%schange file_strategy shared_file "
             "kernel=../x --api mpiio\n", head);
    expect_error(text, "bad.scenario:6: kernel= must name a plain program");
    expect_error("name x y\n", "bad.scenario:1: name takes exactly one value");
    expect_error("name x/y\n", "bad.scenario:1: name must be");
    expect_error("name x\nkernel ior_like\nranks 4\npatterns io_speed\n",
                 "bad.scenario:4: unknown pattern io_speed");
    expect_error("name x\nkernel ior_like\nranks 4\npatterns healthy\n",
                 "bad.scenario: 'baseline' is missing");
    expect_error("name x\nname y\nkernel k\nranks 4\npatterns healthy\n"
                 "baseline\n",
                 "bad.scenario: 'name' given more than once");
}

static void test_known_changes(void **state)
{
    (void)state;
    assert_true(iosage_validate_known_change("throughput_utilization",
                                             "read_once"));
    assert_true(iosage_validate_known_change("file_strategy", "shared_file"));
    assert_false(iosage_validate_known_change("file_strategy", "drop_syncs"));
    assert_false(iosage_validate_known_change("", ""));
}

/* --- the proposals of a report ------------------------------------------- */

static void test_advice_parse(void **state)
{
    (void)state;
    const char *doc =
        "{\"schema\": \"iosage-report\", \"version\": 1,"
        " \"detection\": {\"healthy\": false, \"patterns\": ["
        "   {\"id\": \"access_granularity\", \"detected\": true},"
        "   {\"id\": \"metadata_intensity\", \"detected\": false},"
        "   {\"id\": \"throughput_utilization\", \"detected\": true}]},"
        " \"advice\": {\"source\": \"offline\", \"changes\": ["
        "   {\"rank\": 2, \"pattern\": \"access_granularity\","
        "    \"change_id\": \"larger_requests\", \"change\": \"...\"},"
        "   {\"rank\": 1, \"pattern\": \"throughput_utilization\","
        "    \"change_id\": \"drop_syncs\"}]}}";
    struct iosage_validate_advice a;
    assert_int_equal(iosage_validate_advice_parse(doc, "r.json", &a, NULL),
                     IOSAGE_OK);
    assert_string_equal(a.source, "offline");
    assert_int_equal(a.n, 2);
    assert_int_equal(a.changes[0].rank, 1);
    assert_string_equal(a.changes[0].change_id, "drop_syncs");
    assert_string_equal(a.changes[1].pattern, "access_granularity");
    assert_int_equal(a.n_detected, 2);
    assert_string_equal(a.detected[1], "throughput_utilization");
}

static void test_advice_healthy_and_bad(void **state)
{
    (void)state;
    struct iosage_validate_advice a;
    iosage_error err;
    assert_int_equal(iosage_validate_advice_parse(
                         "{\"schema\":\"iosage-report\",\"advice\":"
                         "{\"source\":\"llm\",\"changes\":[]}}",
                         "h.json", &a, &err),
                     IOSAGE_OK);
    assert_int_equal(a.n, 0);
    assert_string_equal(a.source, "llm");
    assert_int_equal(iosage_validate_advice_parse("{\"schema\":\"other\"}",
                                                  "o.json", &a, &err),
                     IOSAGE_E_CORRUPT);
    assert_non_null(strstr(err.msg, "not an iosage report"));
    assert_int_equal(iosage_validate_advice_parse("iosage: analyze: not built",
                                                  "x.json", &a, &err),
                     IOSAGE_E_CORRUPT);
    assert_non_null(strstr(err.msg, "not JSON"));
    assert_int_equal(iosage_validate_advice_parse(
                         "{\"schema\":\"iosage-report\",\"advice\":"
                         "{\"changes\":[{\"rank\":1,\"pattern\":\"x\"}]}}",
                         "m.json", &a, &err),
                     IOSAGE_E_CORRUPT);
    assert_non_null(strstr(err.msg, "advice.changes[0]"));
    assert_int_equal(a.n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coverage_values),
        cmocka_unit_test(test_stats_eleven),
        cmocka_unit_test(test_stats_not_significant),
        cmocka_unit_test(test_stats_three),
        cmocka_unit_test(test_stats_twenty),
        cmocka_unit_test(test_median_even_and_bad),
        cmocka_unit_test(test_scenario_good),
        cmocka_unit_test(test_scenario_healthy),
        cmocka_unit_test(test_scenario_errors),
        cmocka_unit_test(test_known_changes),
        cmocka_unit_test(test_advice_parse),
        cmocka_unit_test(test_advice_healthy_and_bad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
