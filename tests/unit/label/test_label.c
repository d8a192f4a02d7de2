/*
 * tests/unit/test_label.c - the labeler (iosage/label.h) against the
 * criteria of LABELING.md: logs built in memory that cross each threshold
 * from both sides, and agreement with LABELS.tsv on the real logs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "iosage/counters.h"
#include "iosage/darshan.h"
#include "iosage/label.h"
#include "iosage/patterns.h"
#include "testutil.h"

#define MIB 1048576

enum { AG = IOSAGE_LABEL_ACCESS_GRANULARITY, MI = IOSAGE_LABEL_METADATA_INTENSITY,
       PE = IOSAGE_LABEL_PARALLELISM_EFFICIENCY, AP = IOSAGE_LABEL_ACCESS_PATTERN,
       IC = IOSAGE_LABEL_INTERFACE_CHOICE, FS = IOSAGE_LABEL_FILE_STRATEGY,
       TU = IOSAGE_LABEL_THROUGHPUT_UTILIZATION };

/* --- building logs ---------------------------------------------------------- */

/* A job of nprocs ranks that ran for run seconds (format 3.41). */
static iosage_log *new_job(int64_t nprocs, double run)
{
    iosage_log *log = iosage_log_create();
    assert_non_null(log);
    struct iosage_job job;
    memset(&job, 0, sizeof job);
    job.nprocs = nprocs;
    job.jobid = 42;
    job.start_time_sec = 1000;
    job.end_time_sec = 1000 + (int64_t)run;
    job.end_time_nsec = (int64_t)((run - (double)(int64_t)run) * 1e9 + 0.5);
    job.exe = "./app";
    assert_int_equal(iosage_log_set_job(log, &job, NULL), IOSAGE_OK);
    return log;
}


/* Add r (and its name, unless NULL) to log, then free r. */
static void rec_add(iosage_log *log, iosage_record *r, const char *name)
{
    assert_int_equal(tu_rec_add(log, r, name), IOSAGE_OK);
}

/* A POSIX record of writes of one size (bytes each), sequential, with the
 * given write and metadata seconds. */
static iosage_record *posix_writes(const char *path, int64_t rank, int64_t n,
                                   int64_t size, double t_write, double t_meta)
{
    iosage_record *r = tu_rec_new(IOSAGE_MOD_POSIX, path, rank);
    int64_t *c = r->counters;
    c[IOSAGE_POSIX_OPENS] = 1;
    c[IOSAGE_POSIX_WRITES] = n;
    c[IOSAGE_POSIX_BYTES_WRITTEN] = n * size;
    c[IOSAGE_POSIX_MAX_BYTE_WRITTEN] = n * size - 1;
    c[IOSAGE_POSIX_SEQ_WRITES] = n;
    c[IOSAGE_POSIX_CONSEC_WRITES] = n;
    int bin = size <= 100 ? 0 : size <= 1024 ? 1 : size <= 10240 ? 2
            : size <= 102400 ? 3 : size <= MIB ? 4 : size <= 4 * MIB ? 5
            : size <= 10 * MIB ? 6 : 7;
    c[IOSAGE_POSIX_SIZE_WRITE_0_100 + bin] = n;
    c[IOSAGE_POSIX_ACCESS1_ACCESS] = size;
    c[IOSAGE_POSIX_ACCESS1_COUNT] = n;
    r->fcounters[IOSAGE_POSIX_F_WRITE_TIME] = t_write;
    r->fcounters[IOSAGE_POSIX_F_META_TIME] = t_meta;
    return r;
}

static void add_posix_writes(iosage_log *log, const char *path, int64_t rank, int64_t n,
                             int64_t size, double t_write, double t_meta)
{
    rec_add(log, posix_writes(path, rank, n, size, t_write, t_meta), path);
}

/* Label log, free it, and return the result. */
static struct iosage_label_result label(iosage_log *log)
{
    struct iosage_label_result r;
    iosage_error err;
    assert_int_equal(iosage_label_log(log, &r, &err), IOSAGE_OK);
    iosage_log_free(log);
    return r;
}

/* Exactly the patterns in want (a bit set of pattern ids) are present. */
static void expect(const struct iosage_label_result *r, unsigned want)
{
    for (int p = 0; p < IOSAGE_LABEL_NPATTERNS; p++)
        if (r->present[p] != (int)((want >> p) & 1u)) {
            char line[2048];
            fail_msg("%s: got %d, want %d; %s", iosage_label_pattern_id(p), r->present[p],
                     (int)((want >> p) & 1u),
                     iosage_label_evidence_line(r, line, sizeof line));
        }
    assert_int_equal(r->healthy, want == 0);
}

#define BIT(p) (1u << (p))

/* --- API ------------------------------------------------------------------- */

static void test_api(void **state)
{
    (void)state;
    struct iosage_label_result r;
    iosage_error err;
    assert_int_equal(iosage_label_log(NULL, &r, &err), IOSAGE_E_USAGE);
    assert_int_equal(err.code, IOSAGE_E_USAGE);
    iosage_log *log = new_job(1, 10);
    assert_int_equal(iosage_label_log(log, NULL, NULL), IOSAGE_E_USAGE);
    iosage_log_free(log);
    assert_string_equal(iosage_label_pattern_id(0), "access_granularity");
    assert_string_equal(iosage_label_pattern_id(6), "throughput_utilization");
    assert_null(iosage_label_pattern_id(7));
    assert_null(iosage_label_pattern_id(-1));
    /* an empty job: healthy by the gate (no I/O at all) */
    r = label(new_job(4, 10));
    expect(&r, 0);
    assert_true(r.gated);
    char line[1024];
    assert_non_null(strstr(iosage_label_evidence_line(&r, line, sizeof line), "nprocs 4"));
}

/* --- the healthy gate ---------------------------------------------------------- */

/* 1,000 small writes on one rank taking t seconds of a 10 s run. */
static struct iosage_label_result small_writes_taking(double t)
{
    iosage_log *log = new_job(1, 10);
    add_posix_writes(log, "/data/out", 0, 1000, 4096, t, 0);
    return label(log);
}

static void test_gate(void **state)
{
    (void)state;
    struct iosage_label_result r = small_writes_taking(0.49); /* 4.9% of the run */
    expect(&r, 0);
    assert_true(r.gated);
    r = small_writes_taking(0.51); /* 5.1% */
    expect(&r, BIT(AG));
    assert_false(r.gated);
    assert_true(r.slowest_share > 0.05 && r.slowest_share < 0.052);
}

/* --- one implementation: the registry's rules are the criteria ------------------ */

/* The registry's rule for label pattern p on log (on the log's table). */
static struct iosage_rule_verdict registry_rule(const iosage_log *log, int p)
{
    const struct iosage_pattern *pat = iosage_pattern_find(iosage_label_pattern_id(p));
    assert_non_null(pat);
    iosage_file_table *t = NULL;
    assert_int_equal(iosage_file_table_build(log, &t, NULL), IOSAGE_OK);
    struct iosage_rule_verdict v;
    pat->rule(log, t, 1, &v);
    iosage_file_table_free(t);
    return v;
}

static void test_registry_rule(void **state)
{
    (void)state;
    /* 1,000 small writes in 4.9% of the run: the labeler's gate says
     * healthy, the criterion (the registry's rule, no gate) holds */
    iosage_log *log = new_job(1, 10);
    add_posix_writes(log, "/data/out", 0, 1000, 4096, 0.49, 0);
    struct iosage_label_result r;
    assert_int_equal(iosage_label_log(log, &r, NULL), IOSAGE_OK);
    expect(&r, 0);
    assert_true(r.gated);
    for (int p = 0; p < IOSAGE_LABEL_NPATTERNS; p++) {
        struct iosage_rule_verdict v = registry_rule(log, p);
        assert_int_equal(v.detected, p == AG);
        assert_string_equal(v.reason, r.evidence[p]);
    }
    /* the same from a table built once: iosage_label_table */
    iosage_file_table *t = NULL;
    assert_int_equal(iosage_file_table_build(log, &t, NULL), IOSAGE_OK);
    struct iosage_label_result r2, r3;
    iosage_label_table(log, t, &r2);
    /* and the verdicts alone: the same but for the text, left empty */
    iosage_label_table_verdicts(log, t, &r3);
    iosage_file_table_free(t);
    assert_int_equal(r2.n_patterns, IOSAGE_LABEL_NPATTERNS);
    assert_memory_equal(&r2, &r, sizeof r);
    assert_memory_equal(r3.present, r.present, sizeof r.present);
    assert_int_equal(r3.gated, 1);
    assert_int_equal(r3.healthy, r.healthy);
    assert_true(r3.slowest_share == r.slowest_share);
    assert_string_equal(r3.summary, "");
    for (int p = 0; p < IOSAGE_LABEL_NPATTERNS; p++)
        assert_string_equal(r3.evidence[p], "");
    /* a present pattern too (over the gate) */
    iosage_log *busy = new_job(1, 10);
    add_posix_writes(busy, "/data/out", 0, 1000, 4096, 5, 0);
    assert_int_equal(iosage_file_table_build(busy, &t, NULL), IOSAGE_OK);
    iosage_label_table(busy, t, &r2);
    iosage_label_table_verdicts(busy, t, &r3);
    iosage_file_table_free(t);
    iosage_log_free(busy);
    assert_int_equal(r2.present[AG], 1);
    assert_memory_equal(r3.present, r2.present, sizeof r2.present);
    assert_int_equal(r3.gated, 0);
    /* AG's value: the share of I/O time in the files carrying it (all) */
    assert_true(registry_rule(log, AG).value == 1.0);
    /* MI's: the metadata share (none) */
    assert_true(registry_rule(log, MI).value == 0.0);
    iosage_log_free(log);
    /* 999: neither */
    log = new_job(1, 10);
    add_posix_writes(log, "/data/out", 0, 999, 4096, 2, 0);
    assert_false(registry_rule(log, AG).detected);
    iosage_log_free(log);
}

/* --- access_granularity ----------------------------------------------------------- */

static void test_ag_count(void **state)
{
    (void)state;
    iosage_log *log = new_job(1, 10);
    add_posix_writes(log, "/data/out", 0, 999, 4096, 2, 0);
    struct iosage_label_result r = label(log);
    expect(&r, 0);
    log = new_job(1, 10);
    add_posix_writes(log, "/data/out", 0, 1000, 4096, 2, 0);
    r = label(log);
    expect(&r, BIT(AG));
}

/* n small and big large writes on one file. */
static struct iosage_label_result ag_mix(int64_t n, int64_t big)
{
    iosage_log *log = new_job(1, 10);
    iosage_record *rec = posix_writes("/data/out", 0, n, 4096, 2, 0);
    rec->counters[IOSAGE_POSIX_WRITES] += big;
    rec->counters[IOSAGE_POSIX_SEQ_WRITES] += big;
    rec->counters[IOSAGE_POSIX_SIZE_WRITE_1M_4M] = big;
    rec->counters[IOSAGE_POSIX_BYTES_WRITTEN] += big * 2 * MIB;
    rec_add(log, rec, "/data/out");
    return label(log);
}

static void test_ag_half(void **state)
{
    (void)state;
    struct iosage_label_result r = ag_mix(1000, 1000); /* exactly half: small */
    expect(&r, BIT(AG));
    r = ag_mix(1000, 1001); /* under half */
    expect(&r, 0);
}

/* The 100K_1M bin holds requests of exactly 1 MiB: ACCESS1-4 take them out. */
static void test_ag_exact_mib(void **state)
{
    (void)state;
    for (int exact = 0; exact < 2; exact++) {
        iosage_log *log = new_job(1, 10);
        iosage_record *rec = posix_writes("/data/out", 0, 2000, MIB, 2, 0);
        if (!exact) /* the same bin, but 512 KiB requests */
            rec->counters[IOSAGE_POSIX_ACCESS1_ACCESS] = 512 * 1024;
        rec_add(log, rec, "/data/out");
        struct iosage_label_result r = label(log);
        expect(&r, exact ? 0 : BIT(AG));
    }
}

/* Material: the small writes' time against a second file's time. */
static void test_ag_material(void **state)
{
    (void)state;
    static const double other[2] = {18.3, 17.7}; /* 2 s of 20.3 s = 9.9%; of 19.7 = 10.2% */
    for (int k = 0; k < 2; k++) {
        iosage_log *log = new_job(1, 100);
        add_posix_writes(log, "/data/small", 0, 5000, 4096, 2, 0);
        add_posix_writes(log, "/data/big", 0, 100, 8 * MIB, other[k], 0);
        struct iosage_label_result r = label(log);
        expect(&r, k ? BIT(AG) : 0);
    }
}

/* STDIO has no histogram: ops - bytes / 1 MiB are small; streams do not count. */
static void test_ag_stdio_and_streams(void **state)
{
    (void)state;
    static const char *const paths[2] = {"/data/log.txt", "<STDOUT>"};
    for (int k = 0; k < 2; k++) {
        iosage_log *log = new_job(1, 10);
        iosage_record *rec = tu_rec_new(IOSAGE_MOD_STDIO, paths[k], 0);
        rec->counters[IOSAGE_STDIO_OPENS] = 1;
        rec->counters[IOSAGE_STDIO_WRITES] = 2000;
        rec->counters[IOSAGE_STDIO_BYTES_WRITTEN] = 2000 * 100;
        rec->counters[IOSAGE_STDIO_MAX_BYTE_WRITTEN] = 2000 * 100 - 1;
        rec->fcounters[IOSAGE_STDIO_F_WRITE_TIME] = 2;
        rec_add(log, rec, paths[k]);
        struct iosage_label_result r = label(log);
        expect(&r, k ? 0 : BIT(AG));
    }
}

/* --- metadata_intensity ----------------------------------------------------------- */

static struct iosage_label_result mi_job(int64_t ops, double meta, double data)
{
    iosage_log *log = new_job(1, 10);
    iosage_record *rec = posix_writes("/data/out", 0, 10, 8 * MIB, data, meta);
    rec->counters[IOSAGE_POSIX_OPENS] = ops / 2;
    rec->counters[IOSAGE_POSIX_STATS] = ops - ops / 2;
    rec_add(log, rec, "/data/out");
    return label(log);
}

static void test_mi(void **state)
{
    (void)state;
    struct iosage_label_result r = mi_job(1000, 3.1, 6.9); /* 31% */
    expect(&r, BIT(MI));
    r = mi_job(1000, 2.9, 7.1); /* 29% */
    expect(&r, 0);
    r = mi_job(999, 5, 5);      /* too few operations */
    expect(&r, 0);
}

/* --- parallelism_efficiency --------------------------------------------------------- */

/* 4 ranks, one file each; rank 0 takes t0 s and moves b0 bytes, the others t
 * and b. */
static struct iosage_label_result pe_job(double t0, double t, int64_t n0, int64_t n)
{
    iosage_log *log = new_job(4, 10);
    char path[64];
    for (int rank = 0; rank < 4; rank++) {
        snprintf(path, sizeof path, "/data/out.%d", rank);
        add_posix_writes(log, path, rank, rank ? n : n0, 8 * MIB, rank ? t : t0, 0);
    }
    return label(log);
}

static void test_pe_time(void **state)
{
    (void)state;
    struct iosage_label_result r = pe_job(2.1, 0.3, 10, 10); /* 2.8x mean, 21% of run */
    expect(&r, BIT(PE));
    r = pe_job(1.0, 0.4, 10, 10); /* 1.82x */
    expect(&r, 0);
    r = pe_job(0.9, 0.1, 10, 10); /* 3x but 9% of the run */
    expect(&r, 0);
    r = pe_job(1.1, 0.1, 10, 10); /* 3.1x, 11% */
    expect(&r, BIT(PE));
}

static void test_pe_bytes(void **state)
{
    (void)state;
    struct iosage_label_result r = pe_job(1.5, 1.5, 100, 10); /* 3.1x the bytes */
    expect(&r, BIT(PE));
    r = pe_job(1.5, 1.5, 19, 10); /* 1.6x */
    expect(&r, 0);
    /* one process: never */
    iosage_log *log = new_job(1, 10);
    add_posix_writes(log, "/data/out", 0, 10, 8 * MIB, 5, 0);
    r = label(log);
    expect(&r, 0);
}

/* A shared (rank -1) record: the slowest rank's time from F_SLOWEST_RANK_TIME. */
static void test_pe_shared_record(void **state)
{
    (void)state;
    static const double slowest[2] = {1.9, 2.5}; /* of 4 s summed over 4 ranks */
    for (int k = 0; k < 2; k++) {
        iosage_log *log = new_job(4, 10);
        iosage_record *rec = posix_writes("/data/shared", -1, 64, 8 * MIB, 4, 0);
        rec->counters[IOSAGE_POSIX_SLOWEST_RANK] = 0;
        rec->counters[IOSAGE_POSIX_SLOWEST_RANK_BYTES] = 16 * 8 * MIB;
        rec->counters[IOSAGE_POSIX_FASTEST_RANK] = 3;
        rec->counters[IOSAGE_POSIX_FASTEST_RANK_BYTES] = 16 * 8 * MIB;
        rec->fcounters[IOSAGE_POSIX_F_SLOWEST_RANK_TIME] = slowest[k];
        rec->fcounters[IOSAGE_POSIX_F_FASTEST_RANK_TIME] = 0.3;
        rec_add(log, rec, "/data/shared");
        struct iosage_label_result r = label(log);
        expect(&r, k ? BIT(PE) : 0);
        assert_true(r.slowest_rank_io > slowest[k] - 1e-9 &&
                    r.slowest_rank_io < slowest[k] + 1e-9);
    }
}

/* --- access_pattern --------------------------------------------------------------- */

static struct iosage_label_result ap_job(int64_t reads, int64_t seq)
{
    iosage_log *log = new_job(1, 10);
    iosage_record *rec = tu_rec_new(IOSAGE_MOD_POSIX, "/data/in", 0);
    int64_t *c = rec->counters;
    c[IOSAGE_POSIX_OPENS] = 1;
    c[IOSAGE_POSIX_READS] = reads;
    c[IOSAGE_POSIX_SEQ_READS] = seq;
    c[IOSAGE_POSIX_BYTES_READ] = reads * 2 * MIB;
    c[IOSAGE_POSIX_MAX_BYTE_READ] = reads * 2 * MIB - 1;
    c[IOSAGE_POSIX_SIZE_READ_1M_4M] = reads;
    rec->fcounters[IOSAGE_POSIX_F_READ_TIME] = 3;
    rec_add(log, rec, "/data/in");
    return label(log);
}

static void test_ap(void **state)
{
    (void)state;
    struct iosage_label_result r = ap_job(5000, 4000); /* 1,000 = 20% */
    expect(&r, BIT(AP));
    r = ap_job(5000, 4001); /* 999 */
    expect(&r, 0);
    r = ap_job(6000, 4860); /* 1,140 = 19% */
    expect(&r, 0);
}

/* --- interface_choice --------------------------------------------------------------- */

/* A file written by all 4 ranks (rank -1 POSIX record), 400 writes of size. */
static iosage_record *shared_posix(const char *path, int64_t size, int one_rank)
{
    iosage_record *rec = posix_writes(path, -1, 400, size, 4, 0);
    int64_t bytes = 400 * size;
    rec->counters[IOSAGE_POSIX_SLOWEST_RANK] = 0;
    rec->counters[IOSAGE_POSIX_SLOWEST_RANK_BYTES] = one_rank ? bytes : bytes / 4;
    rec->counters[IOSAGE_POSIX_FASTEST_RANK] = 1;
    rec->counters[IOSAGE_POSIX_FASTEST_RANK_BYTES] = one_rank ? 0 : bytes / 4;
    rec->fcounters[IOSAGE_POSIX_F_SLOWEST_RANK_TIME] = one_rank ? 1.5 : 1.0;
    rec->fcounters[IOSAGE_POSIX_F_FASTEST_RANK_TIME] = 1.0;
    return rec;
}

static void test_ic_posix(void **state)
{
    (void)state;
    iosage_log *log = new_job(4, 10);
    rec_add(log, shared_posix("/data/shared", 512 * 1024, 0), "/data/shared");
    struct iosage_label_result r = label(log);
    expect(&r, BIT(IC));
    /* large requests (1 MiB average): not this pattern */
    log = new_job(4, 10);
    rec_add(log, shared_posix("/data/shared", MIB, 0), "/data/shared");
    r = label(log);
    expect(&r, 0);
    /* one rank moved all the bytes: not a shared file, but all I/O through
     * one rank (4x the mean bytes, 15% of the run) */
    log = new_job(4, 10);
    rec_add(log, shared_posix("/data/shared", 512 * 1024, 1), "/data/shared");
    r = label(log);
    expect(&r, BIT(PE));
}

/* MPI-IO on the file: 91% or 89% of the operations independent. */
static void test_ic_mpiio(void **state)
{
    (void)state;
    static const int64_t indep[2] = {89, 91};
    for (int k = 0; k < 2; k++) {
        iosage_log *log = new_job(4, 10);
        iosage_record *m = tu_rec_new(IOSAGE_MOD_MPIIO, "/data/shared", -1);
        int64_t *c = m->counters;
        c[IOSAGE_MPIIO_COLL_OPENS] = 4;
        c[IOSAGE_MPIIO_INDEP_WRITES] = 4 * indep[k];
        c[IOSAGE_MPIIO_COLL_WRITES] = 4 * (100 - indep[k]);
        c[IOSAGE_MPIIO_BYTES_WRITTEN] = 400 * 512 * 1024;
        c[IOSAGE_MPIIO_SIZE_WRITE_AGG_100K_1M] = 400;
        c[IOSAGE_MPIIO_ACCESS1_ACCESS] = 512 * 1024;
        c[IOSAGE_MPIIO_ACCESS1_COUNT] = 400;
        c[IOSAGE_MPIIO_SLOWEST_RANK_BYTES] = 100 * 512 * 1024;
        c[IOSAGE_MPIIO_FASTEST_RANK] = 1;
        c[IOSAGE_MPIIO_FASTEST_RANK_BYTES] = 100 * 512 * 1024;
        m->fcounters[IOSAGE_MPIIO_F_WRITE_TIME] = 4;
        m->fcounters[IOSAGE_MPIIO_F_SLOWEST_RANK_TIME] = 1;
        m->fcounters[IOSAGE_MPIIO_F_FASTEST_RANK_TIME] = 1;
        rec_add(log, m, "/data/shared");
        rec_add(log, shared_posix("/data/shared", 512 * 1024, 0), "/data/shared");
        struct iosage_label_result r = label(log);
        expect(&r, k ? BIT(IC) : 0);
    }
}

/* --- file_strategy ---------------------------------------------------------------- */

/* files data files of size bytes, dealt round robin over nprocs ranks. */
static struct iosage_label_result fs_job(int64_t nprocs, int files, int64_t size)
{
    iosage_log *log = new_job(nprocs, 1);
    char path[64];
    for (int i = 0; i < files; i++) {
        snprintf(path, sizeof path, "/data/f.%05d", i);
        add_posix_writes(log, path, i % nprocs, size / MIB, MIB, 0.2, 0);
    }
    return label(log);
}

static void test_fs(void **state)
{
    (void)state;
    /* rule 1: 1,000 data files (7.8 per rank, 8 MiB: the other rules fail) */
    struct iosage_label_result r = fs_job(128, 1000, 8 * MIB);
    expect(&r, BIT(FS));
    r = fs_job(128, 999, 8 * MIB);
    expect(&r, 0);
    /* rule 2: 64 files, one per rank, median under 4 MiB */
    r = fs_job(64, 64, 2 * MIB);
    expect(&r, BIT(FS));
    r = fs_job(64, 64, 4 * MIB);
    expect(&r, 0);
    r = fs_job(64, 63, 2 * MIB);
    expect(&r, 0);
    /* rule 3: 10 per rank and 64 files, whatever their size */
    r = fs_job(8, 80, 8 * MIB);
    expect(&r, BIT(FS));
    r = fs_job(8, 79, 8 * MIB);
    expect(&r, 0);
}

/* --- every pattern in one walk ------------------------------------------------- */

/*
 * The labeler takes every criterion in one walk over the files, 1,024 at a
 * time (src/patterns/verdicts.c); each pattern's rule walks them alone. A
 * job of 3,000 files (three blocks): one 1 MiB write to most files, small
 * writes taking most of the time on files 1,500 to 1,503 (the second
 * block, one a rank), and file 2,900 (the third) shared by the four ranks
 * with small requests. The verdicts, values and evidence are the same both
 * ways, and name what the later blocks hold.
 */
static void test_one_walk_in_blocks(void **state)
{
    (void)state;
    iosage_log *log = new_job(4, 100);
    char path[64];
    for (int i = 0; i < 3000; i++) {
        snprintf(path, sizeof path, "/data/f.%05d", i);
        if (i >= 1500 && i < 1504)
            add_posix_writes(log, path, i % 4, 2000, 4096, 4.0, 0.001);
        else if (i == 2900)
            rec_add(log, shared_posix(path, 512 * 1024, 0), path);
        else
            add_posix_writes(log, path, i % 4, 1, MIB, 0.002, 0.001);
    }
    iosage_file_table *t = NULL;
    assert_int_equal(iosage_file_table_build(log, &t, NULL), IOSAGE_OK);
    struct iosage_label_result r;
    iosage_label_table(log, t, &r);
    expect(&r, BIT(AG) | BIT(IC) | BIT(FS));
    for (int p = 0; p < IOSAGE_LABEL_NPATTERNS; p++) {
        struct iosage_rule_verdict v;
        iosage_pattern_get(p)->rule(log, t, 1, &v);
        assert_int_equal(v.detected, r.present[p]);
        assert_string_equal(v.reason, r.evidence[p]);
    }
    /* AG: the small writes' 4 x 4 s and the shared file's 4 s of the
     * I/O time: those, 2,995 x 0.002 s of other writes and 2,999 x 0.001 s
     * of metadata (MI's value) */
    double io = 4 * 4.0 + 4.0 + 2995 * 0.002 + 2999 * 0.001;
    assert_float_equal(registry_rule(log, AG).value, 20.0 / io, 1e-9);
    assert_float_equal(registry_rule(log, MI).value, 2.999 / io, 1e-9);
    assert_true(registry_rule(log, FS).value == 3000.0);
    assert_non_null(strstr(r.evidence[FS], "3000 data files"));
    assert_non_null(strstr(r.evidence[IC], "1 shared data file(s)"));
    assert_non_null(strstr(r.evidence[IC], "[f.02900 POSIX 100% indep"));
    iosage_file_table_free(t);
    iosage_log_free(log);
}

/* --- throughput_utilization ------------------------------------------------------------ */

static struct iosage_label_result sync_job(int64_t writes, int64_t fsyncs)
{
    iosage_log *log = new_job(1, 50);
    iosage_record *rec = posix_writes("/data/out", 0, writes, 2 * MIB, 5, 0);
    rec->counters[IOSAGE_POSIX_FSYNCS] = fsyncs;
    rec_add(log, rec, "/data/out");
    return label(log);
}

static void test_tu_sync(void **state)
{
    (void)state;
    struct iosage_label_result r = sync_job(120, 102); /* 100 beyond the 2 at close */
    expect(&r, BIT(TU));
    r = sync_job(120, 101); /* 99 */
    expect(&r, 0);
    r = sync_job(999, 102); /* 100 for 999 writes: more than 1 per 10 */
    expect(&r, BIT(TU));
    r = sync_job(1001, 102); /* fewer than 1 per 10 */
    expect(&r, 0);
}

static struct iosage_label_result reread_job(int64_t bytes_read)
{
    iosage_log *log = new_job(1, 50);
    iosage_record *rec = tu_rec_new(IOSAGE_MOD_POSIX, "/data/in", 0);
    int64_t *c = rec->counters;
    c[IOSAGE_POSIX_OPENS] = 1;
    c[IOSAGE_POSIX_READS] = bytes_read / MIB;
    c[IOSAGE_POSIX_SEQ_READS] = bytes_read / MIB;
    c[IOSAGE_POSIX_BYTES_READ] = bytes_read;
    c[IOSAGE_POSIX_MAX_BYTE_READ] = 100 * MIB - 1;
    c[IOSAGE_POSIX_SIZE_READ_1M_4M] = bytes_read / MIB;
    rec->fcounters[IOSAGE_POSIX_F_READ_TIME] = 5;
    rec_add(log, rec, "/data/in");
    return label(log);
}

static void test_tu_reread(void **state)
{
    (void)state;
    struct iosage_label_result r = reread_job(200 * (int64_t)MIB); /* 2x the extent */
    expect(&r, BIT(TU));
    r = reread_job(199 * (int64_t)MIB);
    expect(&r, 0);
}

/* A LUSTRE record of stripe count sc for path. */
static void add_lustre(iosage_log *log, const char *path, int64_t sc)
{
    iosage_record *l = calloc(1, sizeof *l);
    struct iosage_lustre_comp comp;
    memset(&comp, 0, sizeof comp);
    comp.stripe_size = MIB;
    comp.stripe_count = sc;
    comp.ext_end = -1;
    comp.pool_name = "";
    int64_t osts[2] = {3, 4};
    l->module = IOSAGE_MOD_LUSTRE;
    l->id = iosage_darshan_hash(path, strlen(path));
    l->rank = -1;
    l->x.lustre.num_comps = 1;
    l->x.lustre.num_stripes = sc;
    l->x.lustre.comps = &comp;
    l->x.lustre.ost_ids = osts;
    assert_int_equal(iosage_log_add_record(log, l, NULL), IOSAGE_OK);
    free(l);
}

/* A 1 GiB file written by 16 ranks on Lustre stripe count sc; with
 * lustre_only, LUSTRE records (one OST each) of two files no data module
 * saw, before and after the written file's. */
static struct iosage_label_result ost_job_with(int64_t nprocs, int64_t bytes,
                                               int64_t sc, int lustre_only)
{
    iosage_log *log = new_job(nprocs, 10);
    int64_t n = bytes / (4 * MIB) > 0 ? bytes / (4 * MIB) : 1;
    iosage_record *rec = posix_writes("/lus/out", -1, n, 4 * MIB, 40, 0);
    rec->counters[IOSAGE_POSIX_BYTES_WRITTEN] = bytes;
    rec->counters[IOSAGE_POSIX_SLOWEST_RANK_BYTES] = bytes / nprocs;
    rec->counters[IOSAGE_POSIX_FASTEST_RANK] = 1;
    rec->counters[IOSAGE_POSIX_FASTEST_RANK_BYTES] = bytes / nprocs;
    rec->fcounters[IOSAGE_POSIX_F_SLOWEST_RANK_TIME] = 40.0 / (double)nprocs;
    rec->fcounters[IOSAGE_POSIX_F_FASTEST_RANK_TIME] = 40.0 / (double)nprocs;
    rec_add(log, rec, "/lus/out");
    if (lustre_only)
        add_lustre(log, "/lus/aaa", 1);
    add_lustre(log, "/lus/out", sc);
    if (lustre_only)
        add_lustre(log, "/lus/zzz", 1);
    return label(log);
}

static struct iosage_label_result ost_job(int64_t nprocs, int64_t bytes, int64_t sc)
{
    return ost_job_with(nprocs, bytes, sc, 0);
}

static void test_tu_one_ost(void **state)
{
    (void)state;
    const int64_t gib = (int64_t)1 << 30;
    struct iosage_label_result r = ost_job(16, gib, 1);
    expect(&r, BIT(TU));
    r = ost_job(16, gib, 2); /* two OSTs */
    expect(&r, 0);
    r = ost_job(15, gib, 1); /* 15 ranks */
    expect(&r, 0);
    r = ost_job(16, gib - 4 * MIB, 1); /* under 1 GiB */
    expect(&r, 0);
    /* files that only a LUSTRE record names (the layer view finds them by
     * id, not through the file table) change neither answer */
    r = ost_job_with(16, gib, 1, 1);
    expect(&r, BIT(TU));
    r = ost_job_with(16, gib, 2, 1);
    expect(&r, 0);
}

/* System files move no data of the job: a library read 10,000 times in
 * 4 KiB pieces is not access_granularity. */
static void test_system_files(void **state)
{
    (void)state;
    iosage_log *log = new_job(1, 10);
    add_posix_writes(log, "/usr/lib/libx.so.1", 0, 10000, 4096, 2, 0);
    add_posix_writes(log, "/home/u/.cache/x/y.pyc", 0, 10000, 4096, 2, 0);
    struct iosage_label_result r = label(log);
    expect(&r, 0);
}

/* --- the real logs: agreement with LABELS.tsv ------------------------------------------ */

/* Agreement measured when the labeler was written: every usable log, every
 * pattern (80 of 80). A change that lowers it must say why. */
#define MIN_AGREEMENT 1.0

static void test_labels_tsv(void **state)
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
    int n = 0, agree[IOSAGE_LABEL_NPATTERNS + 1] = {0};
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        char *save = NULL, *name = strtok_r(line, "\t", &save);
        char *usable = strtok_r(NULL, "\t", &save);
        if (!name || !usable || strcmp(usable, "yes") != 0)
            continue;
        int want[IOSAGE_LABEL_NPATTERNS + 1];
        for (int p = 0; p <= IOSAGE_LABEL_NPATTERNS; p++) {
            char *v = strtok_r(NULL, "\t", &save);
            assert_non_null(v);
            want[p] = v[0] == '1';
        }
        snprintf(path, sizeof path, "%s/%s", dir, name);
        iosage_log *log = NULL;
        iosage_error err;
        assert_int_equal(iosage_log_load(path, IOSAGE_READ_DEFAULT, &log, &err), IOSAGE_OK);
        struct iosage_label_result r;
        assert_int_equal(iosage_label_log(log, &r, &err), IOSAGE_OK);
        for (int p = 0; p < IOSAGE_LABEL_NPATTERNS; p++) {
            /* the registry's rule is the same criterion, without the gate */
            struct iosage_rule_verdict v = registry_rule(log, p);
            if ((v.detected && !r.gated) != r.present[p])
                fail_msg("%s %s: registry rule %d, labeler %d (gated %d)", name,
                         iosage_label_pattern_id(p), v.detected, r.present[p], r.gated);
            agree[p] += r.present[p] == want[p];
            if (r.present[p] != want[p])
                print_message("disagree: %s %s got %d\n", name, iosage_label_pattern_id(p),
                              r.present[p]);
        }
        agree[IOSAGE_LABEL_NPATTERNS] += r.healthy == want[IOSAGE_LABEL_NPATTERNS];
        iosage_log_free(log);
        n++;
    }
    fclose(f);
    assert_true(n >= 80);
    for (int p = 0; p <= IOSAGE_LABEL_NPATTERNS; p++) {
        const char *id = p < IOSAGE_LABEL_NPATTERNS ? iosage_label_pattern_id(p) : "healthy";
        print_message("%-24s %d/%d\n", id, agree[p], n);
        if ((double)agree[p] < MIN_AGREEMENT * (double)n)
            fail_msg("%s: agreement %d/%d below %.0f%%", id, agree[p], n, 100 * MIN_AGREEMENT);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_api),
        cmocka_unit_test(test_gate),
        cmocka_unit_test(test_registry_rule),
        cmocka_unit_test(test_ag_count),
        cmocka_unit_test(test_ag_half),
        cmocka_unit_test(test_ag_exact_mib),
        cmocka_unit_test(test_ag_material),
        cmocka_unit_test(test_ag_stdio_and_streams),
        cmocka_unit_test(test_mi),
        cmocka_unit_test(test_pe_time),
        cmocka_unit_test(test_pe_bytes),
        cmocka_unit_test(test_pe_shared_record),
        cmocka_unit_test(test_ap),
        cmocka_unit_test(test_ic_posix),
        cmocka_unit_test(test_ic_mpiio),
        cmocka_unit_test(test_fs),
        cmocka_unit_test(test_one_walk_in_blocks),
        cmocka_unit_test(test_tu_sync),
        cmocka_unit_test(test_tu_reread),
        cmocka_unit_test(test_tu_one_ost),
        cmocka_unit_test(test_system_files),
        cmocka_unit_test(test_labels_tsv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
