/*
 * tests/unit/test_rules.c - the pattern registry, the Drishti-like threshold
 * baseline of iosage/rules.h, evidence lines and the JSON result.
 *
 * Groups:
 *   - registry: ids and order, texts, key features that exist;
 *   - synthetic logs built in memory that cross each threshold, and logs
 *     just on the other side of it; no healthy gate;
 *   - evidence lines and JSON output;
 *   - the real logs of the shared set: every usable log is evaluated, and
 *     the baseline's per-pattern precision and recall against LABELS.tsv
 *     are printed (not asserted: a baseline is not expected to agree).
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
#include "iosage/report.h"
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


/* Add r (and its name, unless NULL) to log, then free r. */
static void rec_add(iosage_log *log, iosage_record *r, const char *name)
{
    assert_int_equal(tu_rec_add(log, r, name), IOSAGE_OK);
}

/* A POSIX record of writes (bin = write size bin index 0..9). */
static iosage_record *posix_writes(const char *name, int64_t rank, int64_t n,
                                   int64_t size, int bin, double secs)
{
    iosage_record *r = tu_rec_new(IOSAGE_MOD_POSIX, name, rank);
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
        c[IOSAGE_POSIX_FASTEST_RANK_BYTES] = n * size / 4;
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

/* POSIX writes of one file: nsmall of 64 KiB and nlarge of 2 MiB. */
static iosage_record *mixed_writes(const char *name, int64_t rank, int64_t nsmall,
                                   int64_t nlarge)
{
    iosage_record *r = posix_writes(name, rank, nsmall + nlarge, 2 * MIB, 6, 10.0);
    int64_t *c = r->counters;
    c[IOSAGE_POSIX_SIZE_WRITE_1M_4M] = nlarge;
    c[IOSAGE_POSIX_SIZE_WRITE_10K_100K] = nsmall;
    c[IOSAGE_POSIX_BYTES_WRITTEN] = nsmall * 65536 + nlarge * 2 * MIB;
    c[IOSAGE_POSIX_MAX_BYTE_WRITTEN] = c[IOSAGE_POSIX_BYTES_WRITTEN] - 1;
    if (rank < 0)
        c[IOSAGE_POSIX_SLOWEST_RANK_BYTES] = c[IOSAGE_POSIX_FASTEST_RANK_BYTES] =
            c[IOSAGE_POSIX_BYTES_WRITTEN] / 4;
    return r;
}

/* POSIX reads of one file, nseq of them sequential. */
static iosage_record *posix_reads(const char *name, int64_t rank, int64_t n,
                                  int64_t nseq)
{
    iosage_record *r = tu_rec_new(IOSAGE_MOD_POSIX, name, rank);
    int64_t *c = r->counters;
    c[IOSAGE_POSIX_OPENS] = 1;
    c[IOSAGE_POSIX_READS] = n;
    c[IOSAGE_POSIX_BYTES_READ] = n * 2 * MIB;
    c[IOSAGE_POSIX_MAX_BYTE_READ] = n * 2 * MIB - 1;
    c[IOSAGE_POSIX_SIZE_READ_1M_4M] = n;
    c[IOSAGE_POSIX_SEQ_READS] = nseq;
    c[IOSAGE_POSIX_CONSEC_READS] = nseq;
    c[IOSAGE_POSIX_ACCESS1_ACCESS] = 2 * MIB;
    c[IOSAGE_POSIX_ACCESS1_COUNT] = n;
    r->fcounters[IOSAGE_POSIX_F_READ_TIME] = 5.0;
    return r;
}

/* Is pattern id detected in a log of one record (freed here)? */
static int one_record(int64_t nprocs, iosage_record *r, const char *name,
                      const char *id)
{
    struct iosage_rule_result res;
    iosage_log *log = new_log(nprocs, 10.0);
    rec_add(log, r, name);
    const struct iosage_rule_pattern *p = eval(log, &res, id);
    assert_int_equal(p->rule_holds, p->detected);
    assert_false(res.gated);
    int d = p->detected;
    iosage_log_free(log);
    return d;
}

/* --- one threshold at a time -------------------------------------------------- */

/* Small requests > 10% of the writes and > 1000. */
static void test_access_granularity(void **state)
{
    (void)state;
    const char *id = "access_granularity";
    assert_true(one_record(4, posix_writes("/d/s", -1, 4000, 4096, 2, 30.0), "/d/s", id));
    assert_false(one_record(4, posix_writes("/d/s", -1, 1000, 4096, 2, 30.0), "/d/s", id));
    assert_true(one_record(4, posix_writes("/d/s", -1, 1001, 4096, 2, 30.0), "/d/s", id));
    assert_false(one_record(4, posix_writes("/d/b", -1, 4000, 4 * MIB, 5, 30.0), "/d/b", id));
    /* 1500 small of 20000 (7.5%): no; 2500 of 20000 (12.5%): yes */
    assert_false(one_record(4, mixed_writes("/d/m", -1, 1500, 18500), "/d/m", id));
    assert_true(one_record(4, mixed_writes("/d/m", -1, 2500, 17500), "/d/m", id));
    /* no materiality test: small writes on 5% of the I/O time still count */
    struct iosage_rule_result res;
    iosage_log *log = new_log(4, 10.0);
    rec_add(log, posix_writes("/d/small.dat", -1, 4000, 4096, 2, 1.0), "/d/small.dat");
    rec_add(log, posix_writes("/d/big.dat", -1, 4000, 4 * MIB, 5, 19.0), "/d/big.dat");
    const struct iosage_rule_pattern *p = eval(log, &res, id);
    assert_true(p->detected);
    assert_float_equal(p->value, 0.5, 1e-9);
    assert_non_null(strstr(p->reason, "4000 of 8000 writes"));
    iosage_log_free(log);
}

/* Non-sequential POSIX ops > 20% and > 1000. */
static void test_access_pattern(void **state)
{
    (void)state;
    const char *id = "access_pattern";
    assert_true(one_record(4, posix_reads("/d/r", -1, 5000, 2000), "/d/r", id));
    assert_false(one_record(4, posix_reads("/d/r", -1, 5000, 5000), "/d/r", id));
    assert_false(one_record(4, posix_reads("/d/r", -1, 1000, 0), "/d/r", id));
    assert_true(one_record(4, posix_reads("/d/r", -1, 1001, 0), "/d/r", id));
    assert_false(one_record(4, posix_reads("/d/r", -1, 10000, 8000), "/d/r", id));
    assert_true(one_record(4, posix_reads("/d/r", -1, 10000, 7999), "/d/r", id));
    /* large sequential-enough reads are not small requests either */
    assert_false(one_record(4, posix_reads("/d/r", -1, 5000, 2000), "/d/r",
                            "access_granularity"));
}

static iosage_record *meta_rec(const char *name, int64_t rank, double secs)
{
    iosage_record *r = posix_writes(name, rank, 64, 4 * MIB, 5, 2.0);
    r->counters[IOSAGE_POSIX_STATS] = 100;
    r->fcounters[IOSAGE_POSIX_F_META_TIME] = secs;
    return r;
}

/* The slowest rank's metadata time > 30 s; rank -1 time split evenly. */
static void test_metadata_intensity(void **state)
{
    (void)state;
    const char *id = "metadata_intensity";
    assert_true(one_record(4, meta_rec("/d/m", 0, 31.0), "/d/m", id));
    assert_false(one_record(4, meta_rec("/d/m", 0, 29.0), "/d/m", id));
    assert_true(one_record(4, meta_rec("/d/m", -1, 4 * 31.0), "/d/m", id));
    assert_false(one_record(4, meta_rec("/d/m", -1, 4 * 29.0), "/d/m", id));
    /* rank 1: 10 s of its own plus 100 / 4 s of the shared record */
    struct iosage_rule_result res;
    iosage_log *log = new_log(4, 10.0);
    rec_add(log, meta_rec("/d/shared", -1, 100.0), "/d/shared");
    rec_add(log, meta_rec("/d/own1", 1, 10.0), "/d/own1");
    rec_add(log, meta_rec("/etc/passwd", 2, 2.0), "/etc/passwd");
    const struct iosage_rule_pattern *p = eval(log, &res, id);
    assert_true(p->detected);
    assert_float_equal(p->value, 35.0, 1e-9);
    assert_non_null(strstr(p->reason, "(rank 1;"));
    iosage_log_free(log);
}

/* Shared file: slowest and fastest rank bytes > 15% apart. */
static void test_parallelism_shared(void **state)
{
    (void)state;
    const char *id = "parallelism_efficiency";
    int64_t fast[] = {80, 90, 86};
    int want[] = {1, 0, 0};
    for (int k = 0; k < 3; k++) {
        iosage_record *r = posix_writes("/d/sh", -1, 400, MIB, 5, 8.0);
        r->counters[IOSAGE_POSIX_SLOWEST_RANK_BYTES] = 100 * MIB;
        r->counters[IOSAGE_POSIX_FASTEST_RANK_BYTES] = fast[k] * MIB;
        assert_int_equal(one_record(4, r, "/d/sh", id), want[k]);
    }
    /* the same record on a system file, or with one rank: not counted */
    iosage_record *r = posix_writes("/proc/x", -1, 400, MIB, 5, 8.0);
    r->counters[IOSAGE_POSIX_FASTEST_RANK_BYTES] = 0;
    assert_false(one_record(4, r, "/proc/x", id));
    r = posix_writes("/d/sh", -1, 400, MIB, 5, 8.0);
    r->counters[IOSAGE_POSIX_FASTEST_RANK_BYTES] = 0;
    assert_false(one_record(1, r, "/d/sh", id));
}

/* Rank-private files: (max - min) / max of per-rank bytes > 15%. */
static void test_parallelism_unique(void **state)
{
    (void)state;
    struct iosage_rule_result res;
    int64_t rank0[] = {80, 72, 64};
    int want[] = {1, 0, 0};
    for (int k = 0; k < 3; k++) {
        iosage_log *log = new_log(4, 10.0);
        for (int64_t rank = 0; rank < 4; rank++) {
            char name[32];
            snprintf(name, sizeof name, "/d/part.%lld", (long long)rank);
            rec_add(log, posix_writes(name, rank, rank ? 64 : rank0[k], 4 * MIB, 5, 2.0),
                    name);
        }
        const struct iosage_rule_pattern *p = eval(log, &res, "parallelism_efficiency");
        assert_int_equal(p->detected, want[k]);
        assert_float_equal(p->value, (double)(rank0[k] - 64) / (double)rank0[k], 1e-9);
        iosage_log_free(log);
    }
    assert_false(one_record(1, posix_writes("/d/one", 0, 64, 4 * MIB, 5, 8.0), "/d/one",
                            "parallelism_efficiency"));
}

/* An MPI-IO record of n independent and ncoll collective writes of 2 MiB. */
static iosage_record *mpiio_writes(const char *name, int64_t n, int64_t ncoll)
{
    iosage_record *r = tu_rec_new(IOSAGE_MOD_MPIIO, name, -1);
    r->counters[IOSAGE_MPIIO_INDEP_WRITES] = n;
    r->counters[IOSAGE_MPIIO_COLL_WRITES] = ncoll;
    r->counters[IOSAGE_MPIIO_BYTES_WRITTEN] = (n + ncoll) * 2 * MIB;
    r->counters[IOSAGE_MPIIO_SIZE_WRITE_AGG_1M_4M] = n + ncoll;
    r->counters[IOSAGE_MPIIO_SLOWEST_RANK_BYTES] = (n + ncoll) * MIB / 2;
    r->counters[IOSAGE_MPIIO_FASTEST_RANK_BYTES] = (n + ncoll) * MIB / 2;
    r->fcounters[IOSAGE_MPIIO_F_WRITE_TIME] = 30.0;
    return r;
}

/* MPI-IO without collectives (> 1000 ops); shared files written small
 * without collective I/O. */
static void test_interface_choice(void **state)
{
    (void)state;
    const char *id = "interface_choice";
    assert_true(one_record(4, mpiio_writes("/d/x", 2000, 0), "/d/x", id));
    assert_false(one_record(4, mpiio_writes("/d/x", 1000, 0), "/d/x", id));
    assert_true(one_record(4, mpiio_writes("/d/x", 1001, 0), "/d/x", id));
    assert_false(one_record(4, mpiio_writes("/d/x", 2000, 1), "/d/x", id));
    /* a shared file written with 4 KiB POSIX writes */
    assert_true(one_record(4, posix_writes("/d/sh", -1, 4000, 4096, 2, 30.0), "/d/sh", id));
    assert_false(one_record(4, posix_writes("/d/sh", -1, 1000, 4096, 2, 30.0), "/d/sh", id));
    assert_false(one_record(4, mixed_writes("/d/sh", -1, 1500, 18500), "/d/sh", id));
    /* rank-private: not shared */
    assert_false(one_record(4, posix_writes("/d/own", 0, 4000, 4096, 2, 30.0), "/d/own", id));
    /* the same writes under collective MPI-IO: no */
    struct iosage_rule_result res;
    iosage_log *log = new_log(4, 10.0);
    rec_add(log, posix_writes("/d/sh", -1, 4000, 4096, 2, 29.0), "/d/sh");
    rec_add(log, mpiio_writes("/d/sh", 0, 400), NULL);
    assert_false(eval(log, &res, id)->detected);
    iosage_log_free(log);
}

/* > 10 data files per rank and > 1000 data files. */
static void test_file_strategy(void **state)
{
    (void)state;
    struct iosage_rule_result res;
    int64_t nprocs[] = {100, 200, 10, 100};
    int64_t files[] = {1100, 1100, 900, 1000};
    int want[] = {1, 0, 0, 0};
    for (int k = 0; k < 4; k++) {
        iosage_log *log = new_log(nprocs[k], 10.0);
        for (int64_t i = 0; i < files[k]; i++) {
            char name[32];
            snprintf(name, sizeof name, "/d/f.%lld", (long long)i);
            rec_add(log, posix_writes(name, i % nprocs[k], 1, 4 * MIB, 5, 0.01), name);
        }
        const struct iosage_rule_pattern *p = eval(log, &res, "file_strategy");
        assert_int_equal(p->detected, want[k]);
        assert_float_equal(p->value, (double)files[k] / (double)nprocs[k], 1e-9);
        iosage_log_free(log);
    }
}

/* fsync + fdatasync > 10% of the writes and > 100. */
static void test_throughput_syncs(void **state)
{
    (void)state;
    int64_t writes[] = {1000, 1000, 2000, 500};
    int64_t fsyncs[] = {150, 90, 150, 101};
    int want[] = {1, 0, 0, 1};
    for (int k = 0; k < 4; k++) {
        iosage_record *r = posix_writes("/d/log.dat", 0, writes[k], 2 * MIB, 5, 5.0);
        r->counters[IOSAGE_POSIX_FSYNCS] = fsyncs[k] - 1;
        r->counters[IOSAGE_POSIX_FDSYNCS] = 1;
        assert_int_equal(one_record(4, r, "/d/log.dat", "throughput_utilization"), want[k]);
    }
}

/* A 10 MiB file read 5, 2 and 1 times. */
static void test_throughput_reread(void **state)
{
    (void)state;
    int64_t times[] = {5, 3, 2, 1};
    int want[] = {1, 1, 0, 0};
    for (int k = 0; k < 4; k++) {
        iosage_record *r = posix_reads("/d/input", 0, 5 * times[k], 5 * times[k]);
        r->counters[IOSAGE_POSIX_MAX_BYTE_READ] = 10 * MIB - 1;
        assert_int_equal(one_record(1, r, "/d/input", "throughput_utilization"), want[k]);
    }
}

/* No healthy gate: a job with 0.075% of its run in I/O still has its
 * pattern; a balanced job of large writes has none. */
static void test_no_gate(void **state)
{
    (void)state;
    struct iosage_rule_result res;
    char buf[IOSAGE_MAX_PATTERNS + 1];
    iosage_log *log = new_log(4, 10000.0);
    rec_add(log, posix_writes("/d/small.dat", 0, 4000, 4096, 2, 30.0), "/d/small.dat");
    const struct iosage_rule_pattern *p = eval(log, &res, "access_granularity");
    assert_true(p->detected);
    assert_true(p->rule_holds);
    assert_false(res.gated);
    assert_false(res.healthy);
    assert_string_equal(detected(&res, buf), "1000000");
    assert_float_equal(res.slowest_rank_io_share, 30.0 / 10000.0, 1e-9);
    assert_non_null(strstr(res.summary, "no healthy gate"));
    iosage_log_free(log);

    log = new_log(4, 10.0);
    for (int64_t rank = 0; rank < 4; rank++) {
        char name[32];
        snprintf(name, sizeof name, "/d/part.%lld", (long long)rank);
        rec_add(log, posix_writes(name, rank, 64, 4 * MIB, 5, 8.0), name);
    }
    assert_int_equal(iosage_rules_eval(log, NULL, &res), IOSAGE_OK);
    assert_string_equal(detected(&res, buf), "0000000");
    assert_true(res.healthy);
    iosage_log_free(log);

    log = new_log(4, 10.0); /* nothing at all */
    assert_int_equal(iosage_rules_eval(log, NULL, &res), IOSAGE_OK);
    assert_true(res.healthy);
    assert_false(res.gated);
    assert_int_equal(res.n_patterns, 7);
    iosage_file_table *t = NULL; /* a table given by the caller */
    assert_int_equal(iosage_file_table_build(log, &t, NULL), IOSAGE_OK);
    assert_int_equal(iosage_rules_eval(log, t, &res), IOSAGE_OK);
    assert_true(res.healthy);
    iosage_file_table_free(t);
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

/* --- the real logs: precision and recall against LABELS.tsv ------------------ */

/* Every usable log of LABELS.tsv is read and evaluated without error; the
 * baseline's precision and recall per pattern are printed, not asserted. */
static void test_real_logs(void **state)
{
    (void)state;
    const char *dir = tu_shared_logs();
    if (!dir)
        skip();
    char path[1024];
    snprintf(path, sizeof path, "%s/LABELS.tsv", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        skip();
    int col[IOSAGE_MAX_PATTERNS] = {0}, ncol = 0, n = 0;
    int tp[IOSAGE_MAX_PATTERNS + 1] = {0}, fp[IOSAGE_MAX_PATTERNS + 1] = {0};
    int fn[IOSAGE_MAX_PATTERNS + 1] = {0}, tn[IOSAGE_MAX_PATTERNS + 1] = {0};
    static char line[65536];
    while (fgets(line, sizeof line, f)) {
        char *save = NULL, *name = strtok_r(line, "\t\n", &save);
        char *usable = strtok_r(NULL, "\t\n", &save);
        if (name && usable && strcmp(name, "file") == 0) { /* the header */
            for (char *c; ncol < IOSAGE_MAX_PATTERNS &&
                          (c = strtok_r(NULL, "\t\n", &save)) && strcmp(c, "healthy");)
                col[ncol++] = iosage_pattern_index(c);
            continue;
        }
        if (!name || !usable || strcmp(usable, "yes") != 0)
            continue;
        assert_int_equal(ncol, iosage_pattern_count());
        int want[IOSAGE_MAX_PATTERNS + 1];
        for (int k = 0; k <= ncol; k++) {
            char *v = strtok_r(NULL, "\t\n", &save);
            assert_non_null(v);
            want[k < ncol ? col[k] : ncol] = v[0] == '1';
        }
        snprintf(path, sizeof path, "%s/%s", dir, name);
        iosage_log *log = NULL;
        iosage_error err;
        if (iosage_log_load(path, IOSAGE_READ_DEFAULT, &log, &err) != IOSAGE_OK)
            fail_msg("%s does not load", name);
        struct iosage_rule_result res;
        assert_int_equal(iosage_rules_eval(log, NULL, &res), IOSAGE_OK);
        char *js = iosage_rules_to_json(&res, name);
        assert_non_null(js);
        free(js);
        for (int k = 0; k <= ncol; k++) {
            int got = k < ncol ? res.patterns[k].detected : res.healthy;
            tp[k] += got && want[k];
            fp[k] += got && !want[k];
            fn[k] += !got && want[k];
            tn[k] += !got && !want[k];
        }
        iosage_log_free(log);
        n++;
    }
    fclose(f);
    assert_true(n >= 80);
    print_message("Drishti-like baseline on %d usable logs (precision, recall)\n", n);
    for (int k = 0; k <= ncol; k++) {
        const char *id = k < ncol ? iosage_pattern_get(k)->id : "healthy";
        print_message("%-24s P %5.2f  R %5.2f  (tp %d fp %d fn %d tn %d)\n", id,
                      tp[k] + fp[k] ? (double)tp[k] / (tp[k] + fp[k]) : 0.0,
                      tp[k] + fn[k] ? (double)tp[k] / (tp[k] + fn[k]) : 0.0,
                      tp[k], fp[k], fn[k], tn[k]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_access_granularity),
        cmocka_unit_test(test_access_pattern),
        cmocka_unit_test(test_metadata_intensity),
        cmocka_unit_test(test_parallelism_shared),
        cmocka_unit_test(test_parallelism_unique),
        cmocka_unit_test(test_interface_choice),
        cmocka_unit_test(test_file_strategy),
        cmocka_unit_test(test_throughput_syncs),
        cmocka_unit_test(test_throughput_reread),
        cmocka_unit_test(test_no_gate),
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
