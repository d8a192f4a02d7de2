/*
 * tests/unit/patterns/test_patterns.c - the registry's floors (issue 15
 * point 5): a pattern whose defining quantity is under its floor is never
 * reported, whatever a model's score. Checked on feature rows set by hand
 * (the public MACSio log's numbers: rank imbalance 0.045) and on generated
 * logs of data/bench-runs (skipped when absent): every run labeled with a
 * pattern reaches that pattern's floor, and healthy runs do not reach the
 * floors of rank imbalance and storage use.
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

#include "iosage/counters.h"
#include "iosage/darshan.h"
#include "iosage/label.h"
#include "iosage/features.h"
#include "iosage/model.h"
#include "iosage/patterns.h"
#include "testutil.h"

static void set(float *x, const char *name, float v)
{
    int i = iosage_feature_index(name);
    assert_true(i >= 0);
    x[i] = v;
}

static const struct iosage_pattern *pat(const char *id)
{
    const struct iosage_pattern *p = iosage_pattern_find(id);
    assert_non_null(p);
    return p;
}

/* Every pattern has a floor, on features that exist. */
static void test_every_pattern_has_a_floor(void **state)
{
    (void)state;
    for (int k = 0; k < iosage_pattern_count(); k++) {
        const struct iosage_pattern *p = iosage_pattern_get(k);
        assert_non_null(p->floors);
        assert_non_null(p->floors[0].feature);
        for (int i = 0; p->floors[i].feature; i++) {
            assert_true(iosage_feature_index(p->floors[i].feature) >= 0);
            assert_true(p->floors[i].min > 0.0);
            if (p->floors[i].also) {
                assert_true(iosage_feature_index(p->floors[i].also) >= 0);
                assert_true(p->floors[i].also_min > 0.0);
            }
        }
    }
}

/* The pattern is under its floors, and says so in exactly these words. */
static void assert_under_floor(const char *pattern, const float *x,
                               const char *expected)
{
    char why[IOSAGE_TEXT_MAX];
    assert_false(iosage_pattern_floor_met(pat(pattern), x, why, sizeof why));
    assert_string_equal(why, expected);
}

static void test_floor_by_hand(void **state)
{
    (void)state;
    float x[IOSAGE_NUM_FEATURES];
    char why[IOSAGE_TEXT_MAX];
    memset(x, 0, sizeof x);
    set(x, "job_write_time_share", 0.9f);
    set(x, "job_meta_time_share", 0.1f);
    /* MACSio: slowest rank 1.0x the mean, rank_time_imbalance 0.045 */
    set(x, "rank_time_imbalance", 0.045f);
    set(x, "rank_bytes_imbalance", 0.01f);
    assert_under_floor("parallelism_efficiency", x,
                       "rank_time_imbalance 0.045 < 0.2, "
                       "rank_bytes_imbalance 0.01 < 0.2, "
                       "shared_bytes_spread 0 < 0.5");
    /* either quantity reaching its floor is enough */
    set(x, "rank_bytes_imbalance", 0.5f);
    assert_true(iosage_pattern_floor_met(pat("parallelism_efficiency"), x, why,
                                         sizeof why));
    assert_string_equal(why, "");
    /* storage underused with no sync, no re-read, no one-OST file */
    assert_under_floor("throughput_utilization", x,
                       "sync_extra_per_write 0 < 0.05, reread_time_share 0 "
                       "< 0.05, lustre_single_ost_write_share 0 < 0.5");
    /* every file on one OST: narrow striping only when the data is in
     * shared files (a file per rank on one OST is the usual layout;
     * the public sample-goodost.darshan) */
    set(x, "lustre_single_ost_write_share", 1.0f);
    assert_under_floor("throughput_utilization", x,
                       "sync_extra_per_write 0 < 0.05, reread_time_share 0 "
                       "< 0.05, lustre_single_ost_write_share 1 but "
                       "file_shared_byte_share 0 < 0.1");
    set(x, "file_shared_byte_share", 0.1f);
    assert_true(iosage_pattern_floor_met(pat("throughput_utilization"), x, NULL, 0));
    set(x, "lustre_single_ost_write_share", 0.0f);
    assert_false(iosage_pattern_floor_met(pat("throughput_utilization"), x, NULL, 0));
    set(x, "reread_time_share", 0.05f);
    assert_true(iosage_pattern_floor_met(pat("throughput_utilization"), x, NULL, 0));
    /* metadata at 20% of the I/O time is the floor itself, with at least
     * 750 metadata operations (lg 751 = 2.8756) */
    set(x, "job_meta_ops_log", 3.0f);
    set(x, "job_meta_time_share", 0.2f);
    assert_true(iosage_pattern_floor_met(pat("metadata_intensity"), x, NULL, 0));
    set(x, "job_meta_time_share", 0.19f);
    assert_false(iosage_pattern_floor_met(pat("metadata_intensity"), x, NULL, 0));
    /* e3sm_like's small PnetCDF writes: 95% of the I/O time in set_view,
     * 514 metadata operations */
    set(x, "job_meta_time_share", 0.95f);
    set(x, "job_meta_ops_log", (float)log10(515.0));
    assert_under_floor("metadata_intensity", x,
                       "job_meta_time_share 0.95 but 514 metadata operations "
                       "< 750");
    set(x, "job_meta_ops_log", 3.0f);
    /* too many files: one data file a rank is enough per rank, but the job
     * needs 64 data files (lg 65 = 1.8129): 4 ranks of 12 files is not */
    set(x, "file_per_rank_log", (float)log10(13.0));
    set(x, "job_data_files_log", (float)log10(49.0));
    assert_under_floor("file_strategy", x,
                       "file_per_rank_log 1.11 but 48 data files < 64");
    set(x, "job_data_files_log", (float)log10(65.0)); /* 64 files */
    assert_true(iosage_pattern_floor_met(pat("file_strategy"), x, NULL, 0));
    set(x, "job_data_files_log", (float)log10(64.0)); /* 63 files */
    assert_false(iosage_pattern_floor_met(pat("file_strategy"), x, NULL, 0));
    set(x, "job_data_files_log", 3.0f);
    /* without I/O time a share of it is not measured: no floor applies */
    set(x, "job_write_time_share", 0.0f);
    set(x, "job_meta_time_share", 0.0f);
    assert_true(iosage_pattern_floor_met(pat("metadata_intensity"), x, NULL, 0));
    assert_true(iosage_pattern_floor_met(pat("access_granularity"), x, NULL, 0));
    /* ... but a floor on operations still does */
    set(x, "rank_bytes_imbalance", 0.0f);
    assert_false(iosage_pattern_floor_met(pat("parallelism_efficiency"), x, NULL, 0));
    /* the text is cut to size, NUL-terminated */
    set(x, "rank_bytes_imbalance", 0.01f);
    assert_false(iosage_pattern_floor_met(pat("parallelism_efficiency"), x, why, 8));
    assert_string_equal(why, "rank_ti");
}

/* Floors of the generated runs: a run labeled with a pattern reaches its
 * floor (a floor never takes back what the configuration made); the
 * healthy runs checked stay under the floors of rank imbalance and
 * storage use (a file per rank on one OST included). */
static void test_floor_on_generated_runs(void **state)
{
    (void)state;
    static const struct {
        const char *run, *pattern;
        int met;
        const char *dataset; /* under data/ */
    } cases[] = {
        {"pe_imb_4-r0", "parallelism_efficiency", 1, "bench-runs"},
        /* rank 0 moves 10x the data in about the same time: only the
         * slowest/fastest bytes of the shared file show it */
        {"pe_hacc_8-r3", "parallelism_efficiency", 1, "bench-runs"},
        {"tu_fsync_8-r0", "throughput_utilization", 1, "bench-runs"},
        {"agic_posix_4-r0", "access_granularity", 1, "bench-runs"},
        {"agic_posix_4-r0", "interface_choice", 1, "bench-runs"},
        {"mi_md_2-r0", "metadata_intensity", 1, "bench-runs"},
        {"fs_md_4-r0", "file_strategy", 1, "bench-runs"},
        {"h_ior_coll_4-r0", "parallelism_efficiency", 0, "bench-runs"},
        {"h_ior_coll_4-r0", "throughput_utilization", 0, "bench-runs"},
        /* one shared file on one OST, 16 ranks: narrow striping */
        {"tu_stripe1_16-r0", "throughput_utilization", 1, "hpc-runs"},
        /* a file per rank, each on one OST: the usual layout */
        {"h_ior_fpp_4-r1", "throughput_utilization", 0, "hpc-runs"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/data/%s/logs/%s.darshan", IOSAGE_SOURCE_DIR,
                 cases[i].dataset, cases[i].run);
        iosage_log *log = NULL;
        if (iosage_log_load(path, 0, &log, NULL) != IOSAGE_OK)
            skip();
        float x[IOSAGE_NUM_FEATURES];
        assert_int_equal(iosage_features_compute(log, x, NULL), IOSAGE_OK);
        char why[IOSAGE_TEXT_MAX];
        int met = iosage_pattern_floor_met(pat(cases[i].pattern), x, why, sizeof why);
        if (met != cases[i].met)
            fail_msg("%s %s: floor %s (%s)", cases[i].run, cases[i].pattern,
                     met ? "reached" : "not reached", why);
        iosage_log_free(log);
    }
}


/* A job like the public MACSio log of issue 11 (16 ranks, balanced): one
 * shared file written collectively through MPI-IO (12 MiB, nothing read by
 * the application), whose POSIX record reads 36 MiB (the read-modify-write
 * of ROMIO's data sieving). */
static iosage_log *macsio_like(void)
{
    const int64_t mib = 1048576, n = 16;
    iosage_log *log = iosage_log_create();
    assert_non_null(log);
    struct iosage_job job;
    memset(&job, 0, sizeof job);
    job.nprocs = n;
    job.jobid = 1;
    job.start_time_sec = 1000;
    job.end_time_sec = 1010;
    job.exe = "./macsio";
    assert_int_equal(iosage_log_set_job(log, &job, NULL), IOSAGE_OK);
    iosage_record *m = tu_rec_new(IOSAGE_MOD_MPIIO, "/out/macsio.silo", -1);
    m->counters[IOSAGE_MPIIO_COLL_OPENS] = n;
    m->counters[IOSAGE_MPIIO_COLL_WRITES] = 4 * n;
    m->counters[IOSAGE_MPIIO_BYTES_WRITTEN] = 12 * mib;
    m->counters[IOSAGE_MPIIO_SLOWEST_RANK] = 3;
    m->counters[IOSAGE_MPIIO_FASTEST_RANK] = 5;
    m->fcounters[IOSAGE_MPIIO_F_WRITE_TIME] = 16.0;
    m->fcounters[IOSAGE_MPIIO_F_SLOWEST_RANK_TIME] = 1.02;
    m->fcounters[IOSAGE_MPIIO_F_FASTEST_RANK_TIME] = 0.98;
    assert_int_equal(tu_rec_add(log, m, "/out/macsio.silo"), IOSAGE_OK);
    iosage_record *p = tu_rec_new(IOSAGE_MOD_POSIX, "/out/macsio.silo", -1);
    p->counters[IOSAGE_POSIX_OPENS] = n;
    p->counters[IOSAGE_POSIX_READS] = 36;
    p->counters[IOSAGE_POSIX_WRITES] = 12;
    p->counters[IOSAGE_POSIX_BYTES_READ] = 36 * mib;
    p->counters[IOSAGE_POSIX_BYTES_WRITTEN] = 12 * mib;
    p->counters[IOSAGE_POSIX_MAX_BYTE_READ] = 12 * mib - 1;
    p->counters[IOSAGE_POSIX_MAX_BYTE_WRITTEN] = 12 * mib - 1;
    p->counters[IOSAGE_POSIX_SLOWEST_RANK] = 3;
    p->counters[IOSAGE_POSIX_FASTEST_RANK] = 5;
    p->fcounters[IOSAGE_POSIX_F_READ_TIME] = 4.0;
    p->fcounters[IOSAGE_POSIX_F_WRITE_TIME] = 10.0;
    p->fcounters[IOSAGE_POSIX_F_SLOWEST_RANK_TIME] = 0.9;
    p->fcounters[IOSAGE_POSIX_F_FASTEST_RANK_TIME] = 0.85;
    assert_int_equal(tu_rec_add(log, p, "/out/macsio.silo"), IOSAGE_OK);
    return log;
}

/* The MACSio mismatch of issue 11: the summary said "0 B read", a finding
 * "38.0 MiB read from a 12.7 MiB extent". POSIX reads that MPI-IO made are
 * no re-read: neither the criterion nor the evidence nor the features see
 * one; and the floors keep "Rank imbalance" and "Storage underused" from
 * being reported on it, whatever a model's score. */
static void test_macsio_like(void **state)
{
    (void)state;
    iosage_log *log = macsio_like();
    iosage_file_table *t = NULL;
    assert_int_equal(iosage_file_table_build(log, &t, NULL), IOSAGE_OK);
    const struct iosage_pattern *tu = pat("throughput_utilization");
    struct iosage_rule_verdict v;
    tu->rule(log, t, 1, &v);
    assert_false(v.detected);
    assert_non_null(strstr(v.reason, "re-read: 0 file(s)"));
    struct iosage_evidence ev;
    memset(&ev, 0, sizeof ev);
    tu->evidence(log, t, &ev);
    for (int i = 0; i < ev.n_lines; i++)
        assert_null(strstr(ev.line[i], "read from a"));
    float x[IOSAGE_NUM_FEATURES];
    assert_int_equal(iosage_features_from_table(log, t, x, NULL), IOSAGE_OK);
    assert_true(x[iosage_feature_index("reread_time_share")] == 0.0f);
    char why[IOSAGE_TEXT_MAX];
    assert_false(iosage_pattern_floor_met(tu, x, why, sizeof why));
    assert_false(iosage_pattern_floor_met(pat("parallelism_efficiency"), x, why,
                                          sizeof why));
    assert_non_null(strstr(why, "rank_time_imbalance 0."));
    /* the labeler agrees: neither pattern */
    struct iosage_label_result r;
    iosage_label_table(log, t, &r);
    assert_int_equal(r.present[IOSAGE_LABEL_THROUGHPUT_UTILIZATION], 0);
    assert_int_equal(r.present[IOSAGE_LABEL_PARALLELISM_EFFICIENCY], 0);
    iosage_file_table_free(t);
    iosage_log_free(log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_pattern_has_a_floor),
        cmocka_unit_test(test_floor_by_hand),
        cmocka_unit_test(test_floor_on_generated_runs),
        cmocka_unit_test(test_macsio_like),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
