/*
 * tests/unit/test_rules.c - the pattern registry, the threshold rules of
 * LABELING.md, evidence lines and the JSON result.
 *
 * Groups:
 *   - registry: ids and order, texts, key features that exist;
 *   - synthetic logs built in memory that trigger each rule, and near
 *     misses that do not; the healthy gate;
 *   - evidence lines and JSON output;
 *   - real logs of the shared set against their LABELS.tsv row.
 * Tests that need the shared logs skip (exit 77) when they are absent.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "iosage/counters.h"
#include "iosage/darshan.h"
#include "iosage/features.h"
#include "iosage/patterns.h"
#include "iosage/rules.h"
#include "testutil.h"

#define MIB 1048576LL

/* --- building logs ----------------------------------------------------------- */

static iosage_log *new_log(int64_t nprocs, double run_s)
{
    iosage_log *log = iosage_log_create();
    assert_non_null(log);
    struct iosage_job job;
    memset(&job, 0, sizeof job);
    job.nprocs = nprocs;
    job.start_time_sec = 1700000000;
    job.end_time_sec = 1700000000 + (int64_t)run_s;
    snprintf(job.metadata, sizeof job.metadata, "lib_ver=3.4.7\n");
    job.exe = "/bin/test-app";
    assert_int_equal(iosage_log_set_job(log, &job, NULL), IOSAGE_OK);
    return log;
}

static iosage_record *rec_new(int module, const char *name, int64_t rank)
{
    iosage_record *r = calloc(1, sizeof *r);
    assert_non_null(r);
    r->module = module;
    r->id = iosage_darshan_hash(name, strlen(name));
    r->rank = rank;
    r->n_counters = iosage_counter_count(module);
    r->n_fcounters = iosage_fcounter_count(module);
    r->counters = calloc((size_t)r->n_counters + 1, sizeof *r->counters);
    r->fcounters = calloc((size_t)r->n_fcounters + 1, sizeof *r->fcounters);
    assert_non_null(r->counters);
    assert_non_null(r->fcounters);
    return r;
}

static void rec_add(iosage_log *log, iosage_record *r, const char *name)
{
    if (name)
        assert_int_equal(iosage_log_add_name(log, r->id, name, NULL), IOSAGE_OK);
    assert_int_equal(iosage_log_add_record(log, r, NULL), IOSAGE_OK);
    free(r->counters);
    free(r->fcounters);
    free(r);
}

/* A POSIX record of writes (bin = write size bin index 0..9). */
static iosage_record *posix_writes(const char *name, int64_t rank, int64_t n,
                                   int64_t size, int bin, double secs)
{
    iosage_record *r = rec_new(IOSAGE_MOD_POSIX, name, rank);
    int64_t *c = r->counters;
    c[IOSAGE_POSIX_OPENS] = rank < 0 ? 4 : 1;
    c[IOSAGE_POSIX_WRITES] = n;
    c[IOSAGE_POSIX_BYTES_WRITTEN] = n * size;
    c[IOSAGE_POSIX_MAX_BYTE_WRITTEN] = n * size - 1;
    c[IOSAGE_POSIX_SIZE_WRITE_0_100 + bin] = n;
    c[IOSAGE_POSIX_SEQ_WRITES] = n;
    c[IOSAGE_POSIX_CONSEC_WRITES] = n;
    c[IOSAGE_POSIX_ACCESS1_ACCESS] = size;
    c[IOSAGE_POSIX_ACCESS1_COUNT] = n;
    if (rank < 0) {
        c[IOSAGE_POSIX_SLOWEST_RANK] = 0;
        c[IOSAGE_POSIX_SLOWEST_RANK_BYTES] = n * size / 4;
        r->fcounters[IOSAGE_POSIX_F_SLOWEST_RANK_TIME] = secs / 4;
    }
    r->fcounters[IOSAGE_POSIX_F_WRITE_TIME] = secs;
    return r;
}

/* Evaluate the rules; the result of pattern id. */
static const struct iosage_rule_pattern *eval(const iosage_log *log,
                                              struct iosage_rule_result *res,
                                              const char *id)
{
    assert_int_equal(iosage_rules_eval(log, NULL, res), IOSAGE_OK);
    int i = iosage_pattern_index(id);
    assert_true(i >= 0);
    assert_string_equal(res->patterns[i].id, id);
    return &res->patterns[i];
}

/* Detected patterns as a string of 0/1 in registry order. */
static const char *detected(const struct iosage_rule_result *res, char *buf)
{
    for (int i = 0; i < res->n_patterns; i++)
        buf[i] = res->patterns[i].detected ? '1' : '0';
    buf[res->n_patterns] = '\0';
    return buf;
}

/* --- registry ------------------------------------------------------------------ */

static void test_registry(void **state)
{
    (void)state;
    static const char *const ids[] = {
        "access_granularity", "metadata_intensity", "parallelism_efficiency",
        "access_pattern", "interface_choice", "file_strategy",
        "throughput_utilization"};
    assert_int_equal(iosage_pattern_count(), 7);
    for (int i = 0; i < 7; i++) {
        const struct iosage_pattern *p = iosage_pattern_get(i);
        assert_non_null(p);
        assert_string_equal(p->id, ids[i]);
        assert_ptr_equal(iosage_pattern_find(ids[i]), p);
        assert_int_equal(iosage_pattern_index(ids[i]), i);
        const char *texts[] = {p->name, p->behaviour, p->change, p->not_applicable};
        for (int k = 0; k < 4; k++) {
            assert_non_null(texts[k]);
            assert_true(strlen(texts[k]) > 10 || (k == 0 && strlen(texts[k]) > 3));
        }
        assert_non_null(p->evidence);
        assert_non_null(p->rule);
        assert_non_null(p->key_features);
        int n = 0;
        for (const char *const *f = p->key_features; *f; f++, n++)
            if (iosage_feature_index(*f) < 0)
                fail_msg("%s: key feature %s is not in the schema", p->id, *f);
        assert_true(n >= 3);
    }
    assert_null(iosage_pattern_get(7));
    assert_null(iosage_pattern_get(-1));
    assert_null(iosage_pattern_find("nope"));
    assert_null(iosage_pattern_find(NULL));
    assert_int_equal(iosage_pattern_index("nope"), -1);
}

/* --- one rule at a time ------------------------------------------------------ */

/* 4 ranks share /d/small.dat: 4000 writes of 4 KiB, 30 s of write time. */
static void test_access_granularity(void **state)
{
    (void)state;
    struct iosage_rule_result res;
    iosage_log *log = new_log(4, 10.0);
    rec_add(log, posix_writes("/d/small.dat", -1, 4000, 4096, 2, 30.0), "/d/small.dat");
    const struct iosage_rule_pattern *p = eval(log, &res, "access_granularity");
    assert_true(p->detected);
    assert_true(strstr(p->reason, "4000 requests under 1 MiB") != NULL);
    assert_float_equal(p->value, 1.0, 1e-9);
    assert_false(res.healthy);
    iosage_log_free(log);

    log = new_log(4, 10.0); /* too few */
    rec_add(log, posix_writes("/d/small.dat", -1, 900, 4096, 2, 30.0), "/d/small.dat");
    assert_false(eval(log, &res, "access_granularity")->detected);
    iosage_log_free(log);

    log = new_log(4, 10.0); /* large requests */
    rec_add(log, posix_writes("/d/big.dat", -1, 4000, 4 * MIB, 5, 30.0), "/d/big.dat");
    assert_false(eval(log, &res, "access_granularity")->detected);
    iosage_log_free(log);

    log = new_log(4, 10.0); /* small requests, but 5% of the I/O time */
    rec_add(log, posix_writes("/d/small.dat", -1, 4000, 4096, 2, 1.0), "/d/small.dat");
    rec_add(log, posix_writes("/d/big.dat", -1, 4000, 4 * MIB, 5, 19.0), "/d/big.dat");
    assert_false(eval(log, &res, "access_granularity")->detected);
    iosage_log_free(log);
}

static void test_metadata_intensity(void **state)
{
    (void)state;
    struct iosage_rule_result res;
    for (int k = 0; k < 2; k++) {
        iosage_log *log = new_log(4, 10.0);
        iosage_record *r = posix_writes("/d/m.dat", -1, 400, 4 * MIB, 5, 4.0);
        r->counters[IOSAGE_POSIX_OPENS] = k ? 200 : 2000;
        r->counters[IOSAGE_POSIX_STATS] = k ? 100 : 1000;
        r->fcounters[IOSAGE_POSIX_F_META_TIME] = 6.0;
        rec_add(log, r, "/d/m.dat");
        const struct iosage_rule_pattern *p = eval(log, &res, "metadata_intensity");
        assert_int_equal(p->detected, !k); /* 3000 ops yes, 300 ops no */
        assert_float_equal(p->value, 0.6, 1e-9);
        iosage_log_free(log);
    }
}

/* Rank 0 writes 8 s, the others 0.1 s each (or everyone 2 s). */
static void test_parallelism_efficiency(void **state)
{
    (void)state;
    struct iosage_rule_result res;
    for (int k = 0; k < 2; k++) {
        iosage_log *log = new_log(4, 10.0);
        for (int64_t rank = 0; rank < 4; rank++) {
            char name[32];
            snprintf(name, sizeof name, "/d/part.%lld", (long long)rank);
            double secs = k ? 2.0 : (rank == 0 ? 8.0 : 0.1);
            rec_add(log, posix_writes(name, rank, 64, 4 * MIB, 5, secs), name);
        }
        const struct iosage_rule_pattern *p = eval(log, &res, "parallelism_efficiency");
        assert_int_equal(p->detected, !k);
        iosage_log_free(log);
    }
    /* one rank: never */
    iosage_log *log = new_log(1, 10.0);
    rec_add(log, posix_writes("/d/one", 0, 64, 4 * MIB, 5, 8.0), "/d/one");
    assert_false(eval(log, &res, "parallelism_efficiency")->detected);
    iosage_log_free(log);
}

/* 5000 reads of 2 MiB, 2000 of them sequential (or all). */
static void test_access_pattern(void **state)
{
    (void)state;
    struct iosage_rule_result res;
    for (int k = 0; k < 2; k++) {
        iosage_log *log = new_log(4, 10.0);
        iosage_record *r = rec_new(IOSAGE_MOD_POSIX, "/d/rand.dat", -1);
        r->counters[IOSAGE_POSIX_READS] = 5000;
        r->counters[IOSAGE_POSIX_BYTES_READ] = 5000 * 2 * MIB;
        r->counters[IOSAGE_POSIX_MAX_BYTE_READ] = 5000 * 2 * MIB - 1;
        r->counters[IOSAGE_POSIX_SIZE_READ_1M_4M] = 5000;
        r->counters[IOSAGE_POSIX_SEQ_READS] = k ? 5000 : 2000;
        r->counters[IOSAGE_POSIX_CONSEC_READS] = k ? 5000 : 0;
        r->counters[IOSAGE_POSIX_SLOWEST_RANK_BYTES] = 5000 * 2 * MIB / 4;
        r->fcounters[IOSAGE_POSIX_F_READ_TIME] = 30.0;
        r->fcounters[IOSAGE_POSIX_F_SLOWEST_RANK_TIME] = 7.5;
        rec_add(log, r, "/d/rand.dat");
        const struct iosage_rule_pattern *p = eval(log, &res, "access_pattern");
        assert_int_equal(p->detected, !k);
        assert_false(eval(log, &res, "access_granularity")->detected);
        iosage_log_free(log);
    }
}

/* A shared file written with large non-contiguous POSIX writes: yes; the
 * same through collective MPI-IO: no; large contiguous blocks: no. */
static void test_interface_choice(void **state)
{
    (void)state;
    struct iosage_rule_result res;
    iosage_log *log = new_log(4, 10.0);
    iosage_record *r = posix_writes("/d/shared", -1, 2000, 2 * MIB, 5, 30.0);
    r->counters[IOSAGE_POSIX_CONSEC_WRITES] = 0;
    rec_add(log, r, "/d/shared");
    const struct iosage_rule_pattern *p = eval(log, &res, "interface_choice");
    assert_true(p->detected);
    assert_false(eval(log, &res, "access_granularity")->detected);
    iosage_log_free(log);

    log = new_log(4, 10.0);
    r = posix_writes("/d/shared", -1, 2000, 2 * MIB, 5, 29.0);
    r->counters[IOSAGE_POSIX_CONSEC_WRITES] = 0;
    rec_add(log, r, "/d/shared");
    r = rec_new(IOSAGE_MOD_MPIIO, "/d/shared", -1);
    r->counters[IOSAGE_MPIIO_COLL_WRITES] = 2000;
    r->counters[IOSAGE_MPIIO_BYTES_WRITTEN] = 2000 * 2 * MIB;
    r->counters[IOSAGE_MPIIO_SIZE_WRITE_AGG_1M_4M] = 2000;
    r->counters[IOSAGE_MPIIO_SLOWEST_RANK_BYTES] = 1000 * MIB;
    r->fcounters[IOSAGE_MPIIO_F_WRITE_TIME] = 30.0;
    r->fcounters[IOSAGE_MPIIO_F_SLOWEST_RANK_TIME] = 7.5;
    rec_add(log, r, NULL);
    assert_false(eval(log, &res, "interface_choice")->detected);
    iosage_log_free(log);

    log = new_log(4, 10.0); /* contiguous 2 MiB writes per rank */
    rec_add(log, posix_writes("/d/shared", -1, 2000, 2 * MIB, 5, 30.0), "/d/shared");
    assert_false(eval(log, &res, "interface_choice")->detected);
    iosage_log_free(log);
}

/* One 100 KiB file per rank: 128 ranks yes, 4 ranks no. */
static void test_file_strategy(void **state)
{
    (void)state;
    struct iosage_rule_result res;
    int64_t sizes[] = {128, 4};
    for (int k = 0; k < 2; k++) {
        iosage_log *log = new_log(sizes[k], 10.0);
        for (int64_t rank = 0; rank < sizes[k]; rank++) {
            char name[32];
            snprintf(name, sizeof name, "/d/f.%lld", (long long)rank);
            rec_add(log, posix_writes(name, rank, 1, 100 * 1024, 4, 1.0), name);
        }
        const struct iosage_rule_pattern *p = eval(log, &res, "file_strategy");
        assert_int_equal(p->detected, !k);
        assert_float_equal(p->value, (double)sizes[k], 1e-9);
        iosage_log_free(log);
    }
}

static void test_throughput_syncs(void **state)
{
    (void)state;
    struct iosage_rule_result res;
    for (int k = 0; k < 2; k++) {
        iosage_log *log = new_log(4, 10.0);
        iosage_record *r = posix_writes("/d/log.dat", 0, 1000, 2 * MIB, 5, 5.0);
        r->counters[IOSAGE_POSIX_FSYNCS] = k ? 2 : 1000;
        rec_add(log, r, "/d/log.dat");
        assert_int_equal(eval(log, &res, "throughput_utilization")->detected, !k);
        iosage_log_free(log);
    }
}

static void test_throughput_single_ost(void **state)
{
    (void)state;
    struct iosage_rule_result res;
    for (int k = 0; k < 2; k++) {
        iosage_log *log = new_log(32, 10.0);
        iosage_record *r = posix_writes("/lus/ckpt", -1, 2048, MIB, 4, 200.0);
        r->counters[IOSAGE_POSIX_SLOWEST_RANK_BYTES] = 64 * MIB;
        r->fcounters[IOSAGE_POSIX_F_SLOWEST_RANK_TIME] = 6.25;
        rec_add(log, r, "/lus/ckpt");
        struct iosage_lustre_comp comp = {MIB, k ? 4 : 1, 0, 0, 0, -1, 0, ""};
        int64_t osts[4] = {3, 4, 5, 6};
        iosage_record lu;
        memset(&lu, 0, sizeof lu);
        lu.module = IOSAGE_MOD_LUSTRE;
        lu.id = iosage_darshan_hash("/lus/ckpt", 9);
        lu.rank = -1;
        lu.x.lustre.num_comps = 1;
        lu.x.lustre.num_stripes = comp.stripe_count;
        lu.x.lustre.comps = &comp;
        lu.x.lustre.ost_ids = osts;
        assert_int_equal(iosage_log_add_record(log, &lu, NULL), IOSAGE_OK);
        const struct iosage_rule_pattern *p = eval(log, &res, "throughput_utilization");
        assert_int_equal(p->detected, !k);
        iosage_log_free(log);
    }
}

/* Rank 0 reads a 10 MiB file five times (or once). */
static void test_throughput_reread(void **state)
{
    (void)state;
    struct iosage_rule_result res;
    for (int k = 0; k < 2; k++) {
        iosage_log *log = new_log(1, 10.0);
        iosage_record *r = rec_new(IOSAGE_MOD_POSIX, "/d/input", 0);
        int64_t times = k ? 1 : 5;
        r->counters[IOSAGE_POSIX_READS] = 10 * times;
        r->counters[IOSAGE_POSIX_BYTES_READ] = 10 * MIB * times;
        r->counters[IOSAGE_POSIX_MAX_BYTE_READ] = 10 * MIB - 1;
        r->counters[IOSAGE_POSIX_SIZE_READ_100K_1M] = 10 * times;
        r->counters[IOSAGE_POSIX_SEQ_READS] = 10 * times;
        r->fcounters[IOSAGE_POSIX_F_READ_TIME] = 5.0;
        rec_add(log, r, "/d/input");
        const struct iosage_rule_pattern *p = eval(log, &res, "throughput_utilization");
        assert_int_equal(p->detected, !k);
        iosage_log_free(log);
    }
}

/* The small-request job of test_access_granularity in a long run: the rule
 * holds, the gate reports nothing. */
static void test_healthy_gate(void **state)
{
    (void)state;
    struct iosage_rule_result res;
    char buf[IOSAGE_MAX_PATTERNS + 1];
    iosage_log *log = new_log(4, 10000.0);
    rec_add(log, posix_writes("/d/small.dat", -1, 4000, 4096, 2, 30.0), "/d/small.dat");
    const struct iosage_rule_pattern *p = eval(log, &res, "access_granularity");
    assert_true(p->rule_holds);
    assert_false(p->detected);
    assert_true(res.gated);
    assert_true(res.healthy);
    assert_string_equal(detected(&res, buf), "0000000");
    assert_float_equal(res.slowest_rank_io_share, 7.5 / 10000.0, 1e-9);
    iosage_log_free(log);

    log = new_log(4, 10.0); /* nothing at all */
    assert_int_equal(iosage_rules_eval(log, NULL, &res), IOSAGE_OK);
    assert_true(res.healthy);
    assert_true(res.gated);
    iosage_log_free(log);
    assert_int_equal(iosage_rules_eval(NULL, NULL, &res), IOSAGE_E_USAGE);
    assert_int_equal(iosage_rules_eval(log = new_log(1, 1.0), NULL, NULL), IOSAGE_E_USAGE);
    iosage_log_free(log);
}

/* --- evidence and JSON ------------------------------------------------------- */

static void test_evidence(void **state)
{
    (void)state;
    iosage_log *log = new_log(4, 10.0);
    rec_add(log, posix_writes("/d/out/small.dat", -1, 4000, 4096, 2, 30.0),
            "/d/out/small.dat");
    iosage_file_table *t = NULL;
    assert_int_equal(iosage_file_table_build(log, &t, NULL), IOSAGE_OK);
    struct iosage_evidence ev;
    memset(&ev, 0, sizeof ev);
    iosage_pattern_find("access_granularity")->evidence(log, t, &ev);
    assert_int_equal(ev.n_lines, 1);
    assert_string_equal(ev.line[0], "small.dat (shared by 4 ranks): 100% of 4000 "
                                    "POSIX writes under 1 MiB (average 4.0 KiB), "
                                    "100% of I/O time");
    for (int i = 0; i < iosage_pattern_count(); i++) {
        memset(&ev, 0, sizeof ev);
        iosage_pattern_get(i)->evidence(log, t, &ev);
        assert_true(ev.n_lines >= 0 && ev.n_lines <= IOSAGE_EVIDENCE_LINES);
        for (int k = 0; k < ev.n_lines; k++)
            assert_true(strlen(ev.line[k]) > 0 && !strchr(ev.line[k], '\n'));
    }
    iosage_file_table_free(t);
    iosage_log_free(log);

    /* an empty log: no crash, no lines about files */
    log = new_log(2, 1.0);
    assert_int_equal(iosage_file_table_build(log, &t, NULL), IOSAGE_OK);
    for (int i = 0; i < iosage_pattern_count(); i++) {
        memset(&ev, 0, sizeof ev);
        iosage_pattern_get(i)->evidence(log, t, &ev);
        assert_true(ev.n_lines <= IOSAGE_EVIDENCE_LINES);
    }
    iosage_file_table_free(t);
    iosage_log_free(log);
}

static void test_json(void **state)
{
    (void)state;
    struct iosage_rule_result res;
    iosage_log *log = new_log(4, 10.0);
    rec_add(log, posix_writes("/d/small.dat", -1, 4000, 4096, 2, 30.0), "/d/small.dat");
    assert_int_equal(iosage_rules_eval(log, NULL, &res), IOSAGE_OK);
    /* quote, backslash, newline, e-acute, an invalid byte, U+1F600 */
    char *js = iosage_rules_to_json(&res, "a\"b\\c\n\xc3\xa9\xff\xf0\x9f\x98\x80.darshan");
    assert_non_null(js);
    const char *head = "{\"schema\":1,\"log\":\"a\\\"b\\\\c\\n\\u00e9\\ufffd"
                       "\\ud83d\\ude00.darshan\",\"nprocs\":4,";
    if (strncmp(js, head, strlen(head)) != 0)
        fail_msg("JSON starts %.80s", js);
    assert_non_null(strstr(js, "\"gated\":false,\"healthy\":false"));
    assert_non_null(strstr(js, "{\"id\":\"access_granularity\",\"detected\":true,"
                               "\"rule_holds\":true,\"value\":1,\"reason\":\""));
    assert_non_null(strstr(js, "{\"id\":\"throughput_utilization\""));
    int depth = 0, in_str = 0;
    for (const char *p = js; *p; p++) {
        if (in_str) {
            if (*p == '\\')
                p++;
            else if (*p == '"')
                in_str = 0;
            continue;
        }
        assert_true((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x80);
        in_str = *p == '"';
        depth += (*p == '{' || *p == '[') - (*p == '}' || *p == ']');
        assert_true(depth >= 0);
    }
    assert_int_equal(depth, 0);
    assert_int_equal(js[strlen(js) - 1], '}');
    free(js);
    js = iosage_rules_to_json(&res, NULL);
    assert_non_null(strstr(js, "\"log\":\"\""));
    free(js);
    assert_null(iosage_rules_to_json(NULL, "x"));
    iosage_log_free(log);
}

/* --- real logs against LABELS.tsv -------------------------------------------- */

/* The 0/1 labels of the seven patterns for file, from LABELS.tsv, or NULL. */
static int labels_of(const char *dir, const char *file, char want[8])
{
    char path[1024];
    snprintf(path, sizeof path, "%s/LABELS.tsv", dir);
    size_t len = 0;
    char *tsv = (char *)tu_read_file(path, &len);
    if (!tsv)
        return -1;
    char *z = realloc(tsv, len + 1);
    assert_non_null(z);
    tsv = z;
    tsv[len] = '\0';
    int found = -1;
    for (char *line = tsv; line && *line;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        size_t n = strlen(file);
        if (!strncmp(line, file, n) && line[n] == '\t' && !strncmp(line + n, "\tyes\t", 5)) {
            const char *p = line + n + 5;
            for (int k = 0; k < 7; k++, p += 2)
                want[k] = *p;
            want[7] = '\0';
            found = 0;
        }
        line = next;
    }
    free(tsv);
    return found;
}

static void test_real_logs(void **state)
{
    (void)state;
    const char *dir = tu_shared_logs();
    if (!dir)
        skip();
    static const char *const logs[] = {
        "dbin_ior_id66184525-37486_1-22-67323-16349198698853775843_1.darshan",
        "dbin_write_3d_nc4_id66168155-29343_1-21-52011-13559133571516104128_1.darshan",
        "hdf5_file_opens_only.darshan",
        "partial_data_stdio.darshan",
        "imbalanced-io.darshan",
        "jeanbez_8_benchmark_parallel_id45195555_8-6-50011-11681279140261054765_1628283217.darshan",
        "ior_hdf5_example.darshan",
        "snyder_python3_id3116902-2110531_12-19-66999-7428115441680580108_1.darshan",
        "snyder_ior-DFS_id4681120-53379_5-8-15060-3270540599978592154_1.darshan",
        "mpi-io-test-x86_64-3.4.7.darshan",
        "darshan-apmpi-2nodes-64mpi.darshan",
        NULL};
    int checked = 0;
    for (int i = 0; logs[i]; i++) {
        char want[8], got[IOSAGE_MAX_PATTERNS + 1], path[1024];
        if (labels_of(dir, logs[i], want) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, logs[i]);
        iosage_log *log = NULL;
        if (iosage_log_load(path, 0, &log, NULL) != IOSAGE_OK)
            fail_msg("%s does not load", logs[i]);
        struct iosage_rule_result res;
        assert_int_equal(iosage_rules_eval(log, NULL, &res), IOSAGE_OK);
        if (strcmp(detected(&res, got), want) != 0)
            fail_msg("%s: rules %s, labels %s", logs[i], got, want);
        assert_int_equal(res.healthy, !strcmp(want, "0000000"));
        checked++;
        iosage_log_free(log);
    }
    assert_true(checked >= 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_access_granularity),
        cmocka_unit_test(test_metadata_intensity),
        cmocka_unit_test(test_parallelism_efficiency),
        cmocka_unit_test(test_access_pattern),
        cmocka_unit_test(test_interface_choice),
        cmocka_unit_test(test_file_strategy),
        cmocka_unit_test(test_throughput_syncs),
        cmocka_unit_test(test_throughput_single_ost),
        cmocka_unit_test(test_throughput_reread),
        cmocka_unit_test(test_healthy_gate),
        cmocka_unit_test(test_evidence),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_real_logs),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    if (failed == 0 && !tu_shared_logs()) {
        fprintf(stderr, "test_rules: shared logs not found; real-log tests "
                        "skipped\n");
        return 77;
    }
    return failed;
}
