/*
 * tests/unit/common/test_common.c - src/common: the id map, the job's run
 * time, the three number styles, ios_fail, the JSON helpers, the
 * argument walker, the arena, the huge-page allocators and the radix sort.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ios_args.h"
#include "ios_common.h"
#include "ios_json.h"
#include "ios_sort.h"
#include "iosage/version.h"

/* 100k ids, far apart and close together: every one found at its index,
 * absent ids not found, a second put replaces the index. */
static void test_idmap(void **state)
{
    (void)state;
    ios_idmap m = {0};
    size_t at = 99;
    assert_int_equal(ios_idmap_get(&m, 7, &at), 0);
    for (size_t i = 0; i < 100000; i++) {
        uint64_t id = i % 2 ? (uint64_t)i * 0x9E3779B97F4A7C15ull : i;
        assert_int_equal(ios_idmap_put(&m, id, i), 0);
    }
    assert_int_equal(m.n, 100000);
    assert_true(m.cap >= 2 * m.n);
    for (size_t i = 0; i < 100000; i++) {
        uint64_t id = i % 2 ? (uint64_t)i * 0x9E3779B97F4A7C15ull : i;
        assert_int_equal(ios_idmap_get(&m, id, &at), 1);
        assert_int_equal(at, i);
    }
    assert_int_equal(ios_idmap_get(&m, 100000, &at), 0);
    assert_int_equal(ios_idmap_put(&m, 4, 12345), 0);
    assert_int_equal(m.n, 100000);
    assert_int_equal(ios_idmap_get(&m, 4, &at), 1);
    assert_int_equal(at, 12345);
    ios_idmap_free(&m);
    assert_int_equal(m.cap, 0);
    assert_int_equal(ios_idmap_get(&m, 4, &at), 0);
}

/* 3.41: nanoseconds count; older: whole seconds plus one; wrapped values
 * give a defined result. */
static void test_run_time(void **state)
{
    (void)state;
    struct iosage_header h;
    struct iosage_job j;
    memset(&h, 0, sizeof h);
    memset(&j, 0, sizeof j);
    h.ver_major = 3;
    h.ver_minor = 41;
    j.start_time_sec = 1000;
    j.start_time_nsec = 250000000;
    j.end_time_sec = 1002;
    j.end_time_nsec = 750000000;
    assert_float_equal(ios_job_run_time(&h, &j), 2.5, 1e-9);
    h.ver_minor = 10;
    assert_float_equal(ios_job_run_time(&h, &j), 3.0, 0);
    j.end_time_sec = 999; /* ended before it started: 0 seconds */
    assert_float_equal(ios_job_run_time(&h, &j), 0.0, 0);
    j.start_time_sec = INT64_MIN;
    j.end_time_sec = INT64_MAX; /* wraps to -1 + 1 */
    assert_float_equal(ios_job_run_time(&h, &j), 0.0, 0);
}

/* Each style keeps its own digits (the outputs that use them depend on it). */
static void test_numfmt(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(ios_fmt_doc_bytes(b, sizeof b, 1536), "1.50 KiB");
    assert_string_equal(ios_fmt_bytes(b, sizeof b, 1536), "1.5 KiB");
    assert_string_equal(ios_fmt_label_bytes(b, sizeof b, 3430), "3.35 KiB");
    assert_string_equal(ios_fmt_doc_bytes(b, sizeof b, 1023), "1023 B");
    assert_string_equal(ios_fmt_doc_count(b, sizeof b, 1234567), "1,234,567");
    assert_string_equal(ios_fmt_count(b, sizeof b, 12345), "12.3 k");
    assert_string_equal(ios_fmt_label_count(b, sizeof b, 13400), "13.4k");
    assert_string_equal(ios_fmt_doc_pct(b, sizeof b, 0.0042), "0.4%");
    assert_string_equal(ios_fmt_pct(b, sizeof b, 0.0042), "<1%");
    assert_string_equal(ios_fmt_label_pct(b, sizeof b, 0.042), "4.2%");
    assert_string_equal(ios_fmt_pct(b, sizeof b, 0.253), "25%");
    assert_string_equal(ios_fmt_doc_secs(b, sizeof b, 4000), "1 h 06 min");
    assert_string_equal(ios_fmt_secs(b, sizeof b, 0.0031), "3.1 ms");
    assert_string_equal(ios_fmt_doc_num(b, sizeof b, -0.0), "0");
    assert_string_equal(ios_fmt_doc_score(b, sizeof b, 0.9932), "0.99");
}

/* ios_fail fills every part and keeps the message on one line. */
static void test_fail(void **state)
{
    (void)state;
    iosage_error e;
    char line[600];
    assert_int_equal(ios_fail(&e, IOSAGE_E_CORRUPT, "a.darshan", "POSIX", 42,
                              "bad\nrecord %d", 3), IOSAGE_E_CORRUPT);
    assert_int_equal(e.code, IOSAGE_E_CORRUPT);
    assert_string_equal(iosage_error_line(&e, line, sizeof line),
                        "a.darshan: POSIX: bad record 3 (at byte 42)");
    assert_int_equal(ios_fail(NULL, IOSAGE_E_NOMEM, NULL, NULL, -1, "x"),
                     IOSAGE_E_NOMEM);
    /* a file name from a directory listing: its controls and stray bytes
     * as \xHH, UTF-8 kept; the line is cut whole at the buffer's end */
    ios_fail(&e, IOSAGE_E_CORRUPT, "d/x\033]0;t\007\n\xff\xc3\xa9.darshan", "",
             -1, "too short");
    assert_string_equal(iosage_error_line(&e, line, sizeof line),
                        "d/x\\x1b]0;t\\x07\\x0a\\xff\xc3\xa9.darshan: too short");
    char small[8];
    assert_string_equal(iosage_error_line(&e, small, 8), "d/x\\x1b");
    assert_string_equal(iosage_error_line(&e, small, 7), "d/x");
    assert_string_equal(e.path, "d/x\033]0;t\007\n\xff\xc3\xa9.darshan");
}

/* JSON strings are valid UTF-8 whatever the bytes; reals are finite. */
static void test_json(void **state)
{
    (void)state;
    json_t *s = ios_json_str("a\xff" "b\xc3\xa9");
    assert_non_null(s);
    assert_string_equal(json_string_value(s), "a\xef\xbf\xbd" "b\xc3\xa9");
    json_decref(s);
    json_t *o = json_object();
    assert_int_equal(ios_json_set(o, "r", ios_json_real(1.0 / 0.0)), 0);
    assert_float_equal(json_real_value(json_object_get(o, "r")), 0.0, 0);
    assert_int_equal(ios_json_set(o, "n", NULL), -1);
    assert_true(json_is_null(ios_json_str(NULL)));
    json_decref(o);
    /* the project version: three numbers */
    unsigned a, b, c;
    char end;
    assert_int_equal(sscanf(iosage_version(), "%u.%u.%u%c", &a, &b, &c, &end), 3);
}

/* The walker's rules: a value after the option or attached to a short
 * alias, "-" an operand, "--" ends the options, help anywhere before it,
 * an unknown option and a missing value with their messages. */
/* The arena frees what it adopted at reset and at destroy (LeakSanitizer
 * fails the test otherwise), and its own allocations go on working around
 * the adopted buffers' nodes. */
static void test_arena_adopt(void **state)
{
    (void)state;
    ios_arena *a = ios_arena_create();
    assert_non_null(a);
    for (int i = 0; i < 3; i++) {
        char *buf = malloc(100000);
        assert_non_null(buf);
        memset(buf, i, 100000);
        assert_int_equal(ios_arena_adopt(a, buf), 0);
        int64_t *v = ios_arena_alloc(a, 40 * sizeof *v);
        assert_non_null(v);
        for (int k = 0; k < 40; k++)
            assert_int_equal(v[k], 0);
        assert_int_equal(buf[99999], i);
    }
    ios_arena_reset(a);
    char *s = ios_arena_strdup(a, "after reset");
    assert_string_equal(s, "after reset");
    assert_int_equal(ios_arena_adopt(a, malloc(64)), 0);
    ios_arena_destroy(a);
}

/* 40 MB of small requests (the shared blocks grow to 8 MiB on the way):
 * each one zeroed, 8-aligned and apart from the others, and the arena
 * still works after a reset brought it back to its first block. */
static void test_arena_many(void **state)
{
    (void)state;
    ios_arena *a = ios_arena_create();
    assert_non_null(a);
    enum { N = 400000, SIZE = 100 };
    unsigned char **p = malloc(N * sizeof *p);
    assert_non_null(p);
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < N; i++) {
            p[i] = ios_arena_alloc(a, SIZE);
            assert_non_null(p[i]);
            assert_int_equal((uintptr_t)p[i] % 8, 0);
            assert_int_equal(p[i][0] | p[i][SIZE - 1], 0);
            memset(p[i], i & 0xff, SIZE);
        }
        for (int i = 0; i < N; i += 997) /* nothing overwrote another */
            assert_int_equal(p[i][SIZE / 2], i & 0xff);
        ios_arena_reset(a);
    }
    free(p);
    ios_arena_destroy(a);
}

/* The huge-page allocators behave as malloc, calloc and realloc: calloc
 * zeroes (over and under IOS_BIGMEM_MIN) and refuses an overflowing
 * count, realloc keeps the contents; grow doubles an array. */
static void test_bigmem(void **state)
{
    (void)state;
    size_t sizes[] = {100, IOS_BIGMEM_MIN + 4097};
    for (int k = 0; k < 2; k++) {
        size_t n = sizes[k];
        unsigned char *z = ios_big_calloc(n, 1);
        assert_non_null(z);
        for (size_t i = 0; i < n; i += 4093)
            assert_int_equal(z[i], 0);
        assert_int_equal(z[n - 1], 0);
        unsigned char *m = ios_big_malloc(n);
        assert_non_null(m);
        memset(m, 0x5a, n);
        m = ios_big_realloc(m, 3 * n);
        assert_non_null(m);
        assert_int_equal(m[0], 0x5a);
        assert_int_equal(m[n - 1], 0x5a);
        m[3 * n - 1] = 1;
        free(m);
        free(z);
    }
    assert_null(ios_big_calloc(SIZE_MAX / 2, 3));

    /* ios_big_grow: to first, then doubling, contents kept; an overflow
     * leaves the array and its count as they were */
    size_t cap = 0;
    int64_t *v = ios_big_grow(NULL, &cap, sizeof *v, 4);
    assert_non_null(v);
    assert_int_equal(cap, 4);
    for (int i = 0; i < 4; i++)
        v[i] = 10 * i;
    v = ios_big_grow(v, &cap, sizeof *v, 4);
    assert_non_null(v);
    assert_int_equal(cap, 8);
    assert_int_equal(v[3], 30);
    size_t huge = SIZE_MAX / 8;
    assert_null(ios_big_grow(v, &huge, sizeof *v, 4));
    assert_true(huge == SIZE_MAX / 8);
    assert_int_equal(v[0], 0);
    free(v);
}

/* The reference: pairs ordered by key, then by at (the input order, as a
 * stable sort keeps it). */
static int cmp_pair(const void *pa, const void *pb)
{
    const struct ios_sort_pair *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->at < b->at ? -1 : (a->at > b->at);
}

/* Radix sort against qsort on the same pairs: lengths around the
 * insertion-sort limit, around the switch to 11-bit digits and large ones;
 * keys with many repeats, with high bytes that never vary, spread over all
 * 64 bits, all equal; the int64 and double keys order as their values. */
static void test_sort_pairs(void **state)
{
    (void)state;
    size_t lens[] = {0, 1, 2, 47, 48, 49, 1000, 65535, 65536, 100000};
    uint64_t seed = 12345;
    for (size_t l = 0; l < sizeof lens / sizeof *lens; l++) {
        for (int kind = 0; kind < 4; kind++) {
            size_t n = lens[l];
            struct ios_sort_pair *p = malloc((n ? n : 1) * sizeof *p);
            struct ios_sort_pair *ref = malloc((n ? n : 1) * sizeof *ref);
            assert_non_null(p);
            assert_non_null(ref);
            for (size_t i = 0; i < n; i++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                uint64_t r = seed >> 11;
                uint64_t key = kind == 0 ? r % 17           /* repeats */
                               : kind == 1 ? r % 100000      /* low bytes */
                               : kind == 2 ? seed ^ (r << 40) /* all bytes */
                                           : 42;             /* all equal */
                p[i] = ref[i] = (struct ios_sort_pair){key, i};
            }
            assert_int_equal(ios_sort_pairs(p, n), 0);
            qsort(ref, n, sizeof *ref, cmp_pair);
            for (size_t i = 0; i < n; i++) {
                assert_true(p[i].key == ref[i].key);
                assert_int_equal(p[i].at, ref[i].at);
            }
            free(p);
            free(ref);
        }
    }
    /* gather: 24-byte elements put in the sorted order, each whole */
    struct elem { uint64_t key; int64_t tag; double x; } v[100];
    struct ios_sort_pair p[100];
    for (size_t i = 0; i < 100; i++) {
        v[i] = (struct elem){(i * 37) % 10, (int64_t)i, (double)i / 4};
        p[i] = (struct ios_sort_pair){v[i].key, i};
    }
    assert_int_equal(ios_sort_pairs(p, 100), 0);
    struct elem *g = ios_sort_gather(v, 100, sizeof *v, p);
    assert_non_null(g);
    for (size_t i = 0; i < 100; i++) {
        assert_true(g[i].key == i / 10); /* ten of each key */
        assert_int_equal(g[i].tag, (int64_t)p[i].at);
        assert_true(g[i].x == (double)p[i].at / 4);
        if (i % 10)
            assert_true(g[i].tag > g[i - 1].tag); /* stable */
    }
    free(g);

    assert_true(ios_sort_key_i64(-2) < ios_sort_key_i64(-1));
    assert_true(ios_sort_key_i64(-1) < ios_sort_key_i64(0));
    assert_true(ios_sort_key_i64(INT64_MIN) < ios_sort_key_i64(INT64_MAX));
    assert_true(ios_sort_key_nonneg_double(-0.0) == ios_sort_key_nonneg_double(0.0));
    assert_true(ios_sort_key_nonneg_double(0.0) < ios_sort_key_nonneg_double(1e-300));
    assert_true(ios_sort_key_nonneg_double(1.5) < ios_sort_key_nonneg_double(2.0));
    assert_true(ios_sort_key_nonneg_double(2.0) < ios_sort_key_nonneg_double(1e12));
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ios_median selects: the middle value of an odd count, the mean of the
 * two middle ones of an even count, as sorting would give, on keys in
 * order, reversed, all equal, few distinct and shuffled. */
static void test_median(void **state)
{
    (void)state;
    double one[1] = {7};
    assert_true(ios_median(one, 1) == 7.0);
    double two[2] = {9, 4};
    assert_true(ios_median(two, 2) == 6.5);
    double odd[5] = {5, 1, 4, 2, 3};
    assert_true(ios_median(odd, 5) == 3.0);
    double even[6] = {10, 1, 1, 8, 3, 2}; /* sorted 1 1 2 3 8 10 */
    assert_true(ios_median(even, 6) == 2.5);
    for (size_t n = 1; n <= 2001; n += 250) {
        for (int kind = 0; kind < 4; kind++) {
            double *v = malloc(n * sizeof *v), *ref = malloc(n * sizeof *ref);
            assert_non_null(v);
            assert_non_null(ref);
            for (size_t i = 0; i < n; i++)
                v[i] = ref[i] = kind == 0   ? (double)i
                                : kind == 1 ? (double)(n - i)
                                : kind == 2 ? 42.0
                                            : (double)((i * 7919) % 13);
            qsort(ref, n, sizeof *ref, cmp_dbl);
            double want = n % 2 ? ref[n / 2] : (ref[n / 2 - 1] + ref[n / 2]) / 2;
            assert_true(ios_median(v, n) == want);
            free(v);
            free(ref);
        }
    }
}

static void test_args(void **state)
{
    (void)state;
    static const struct ios_option opts[] = {
        {"--jobs", "-j", 1, 1}, {"--quiet", "-q", 0, 2}, {0}};
    char *argv[] = {"cmd", "-j4", "a", "--jobs", "-x", "-", "-q", "--",
                    "-q", "--help"};
    struct ios_args it;
    ios_args_init(&it, 10, argv, opts);
    assert_int_equal(ios_args_next(&it), 1);
    assert_string_equal(it.value, "4");
    assert_string_equal(it.name, "--jobs");
    assert_int_equal(ios_args_next(&it), IOS_ARG_OPERAND);
    assert_string_equal(it.value, "a");
    assert_int_equal(ios_args_next(&it), 1);
    assert_string_equal(it.value, "-x"); /* a value, whatever it looks like */
    assert_int_equal(ios_args_next(&it), IOS_ARG_OPERAND);
    assert_string_equal(it.value, "-");
    assert_int_equal(ios_args_next(&it), 2);
    assert_null(it.value);
    assert_int_equal(ios_args_next(&it), IOS_ARG_OPERAND); /* after -- */
    assert_string_equal(it.value, "-q");
    assert_int_equal(ios_args_next(&it), IOS_ARG_OPERAND);
    assert_string_equal(it.value, "--help");
    assert_int_equal(ios_args_next(&it), IOS_ARG_END);

    char *bad[] = {"cmd", "--nope", "-h", "--jobs"};
    ios_args_init(&it, 4, bad, opts);
    assert_int_equal(ios_args_next(&it), IOS_ARG_BAD);
    assert_string_equal(it.msg, "unknown option '--nope'");
    assert_int_equal(ios_args_next(&it), IOS_ARG_HELP);
    assert_int_equal(ios_args_next(&it), IOS_ARG_BAD);
    assert_string_equal(it.msg, "--jobs needs a value");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idmap),
        cmocka_unit_test(test_run_time),
        cmocka_unit_test(test_numfmt),
        cmocka_unit_test(test_fail),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_args),
        cmocka_unit_test(test_arena_adopt),
        cmocka_unit_test(test_arena_many),
        cmocka_unit_test(test_bigmem),
        cmocka_unit_test(test_sort_pairs),
        cmocka_unit_test(test_median),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
