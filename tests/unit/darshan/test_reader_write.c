/*
 * tests/unit/test_reader_write.c - the writer and read(write(log)) == log.
 *
 * Groups:
 *   - a log built in memory (job, mounts, names, records of several module
 *     shapes) survives write_mem -> load_mem;
 *   - argument checks of the building calls;
 *   - iosage_log_write: the file appears whole, and a failed write leaves
 *     nothing behind;
 *   - every shared log: load (default flags) -> write_mem -> load_mem, then
 *     job, mounts, names and every record of every module compared field by
 *     field (union members by module); modules that were skipped when read
 *     are not written and must come back empty;
 *   - the same logs rewritten with bzip2, without compression, and with
 *     every region split into several streams read back identically.
 * The shared-log groups skip (exit 77) when the logs are absent.
 */
#include <bzlib.h>
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "common/ios_file.h"
#include "darshan/internal.h"
#include "iosage/counters.h"
#include "iosage/darshan.h"
#include "testutil.h"

/* --- comparing logs ------------------------------------------------------- */

/* The first difference found, for the failure message. */
static char g_diff[512];

#define DIFF(...)                                                            \
    do {                                                                     \
        snprintf(g_diff, sizeof g_diff, __VA_ARGS__);                        \
        return 0;                                                            \
    } while (0)

/* Metadata as the writer stores it: ends with '\n' when non-empty. */
static void written_metadata(const char *m, char *out)
{
    size_t n = strnlen(m, 1023);
    memcpy(out, m, n);
    if (n > 0 && out[n - 1] != '\n') {
        if (n == 1023)
            n--;
        out[n++] = '\n';
    }
    out[n] = '\0';
}

static int same_job(const struct iosage_job *a, const struct iosage_job *b)
{
    char meta[1025];
    if (a->uid != b->uid || a->start_time_sec != b->start_time_sec ||
        a->start_time_nsec != b->start_time_nsec ||
        a->end_time_sec != b->end_time_sec ||
        a->end_time_nsec != b->end_time_nsec || a->nprocs != b->nprocs ||
        a->jobid != b->jobid)
        DIFF("job record fields differ");
    written_metadata(a->metadata, meta);
    if (strcmp(meta, b->metadata) != 0)
        DIFF("metadata \"%.200s\" became \"%.200s\"", meta, b->metadata);
    if (strcmp(a->exe, b->exe) != 0)
        DIFF("exe \"%.200s\" became \"%.200s\"", a->exe, b->exe);
    if (a->n_mounts != b->n_mounts)
        DIFF("%zu mounts became %zu", a->n_mounts, b->n_mounts);
    for (size_t i = 0; i < a->n_mounts; i++)
        if (strcmp(a->mounts[i].point, b->mounts[i].point) != 0 ||
            strcmp(a->mounts[i].fs_type, b->mounts[i].fs_type) != 0)
            DIFF("mount %zu: %s %s became %s %s", i, a->mounts[i].point,
                 a->mounts[i].fs_type, b->mounts[i].point,
                 b->mounts[i].fs_type);
    return 1;
}

static int same_names(const iosage_log *a, const iosage_log *b)
{
    if (a->n_names != b->n_names)
        DIFF("%zu names became %zu", a->n_names, b->n_names);
    for (size_t i = 0; i < a->n_names; i++)
        if (a->names[i].id != b->names[i].id ||
            strcmp(a->names[i].name, b->names[i].name) != 0)
            DIFF("name %zu differs (%s / %s)", i, a->names[i].name,
                 b->names[i].name);
    for (size_t i = 0; i < a->n_names; i++)
        if (iosage_log_name(b, a->names[i].id) == NULL)
            DIFF("name lookup of %llu fails",
                 (unsigned long long)a->names[i].id);
    return 1;
}

/* n elements of size elem: equal bytes (NULL == NULL when n is 0). */
static int same_array(const void *a, const void *b, int64_t n, size_t elem)
{
    if (n <= 0)
        return 1;
    return a && b && memcmp(a, b, (size_t)n * elem) == 0;
}

/* A record's string, NULL read as "" (as the writer and dump read it). */
static const char *or_empty(const char *s)
{
    return s ? s : "";
}

static int same_lustre(const iosage_record *a, const iosage_record *b)
{
    if (a->x.lustre.num_comps != b->x.lustre.num_comps ||
        a->x.lustre.num_stripes != b->x.lustre.num_stripes)
        DIFF("lustre counts differ");
    for (int64_t c = 0; c < a->x.lustre.num_comps; c++) {
        const struct iosage_lustre_comp *x = &a->x.lustre.comps[c];
        const struct iosage_lustre_comp *y = &b->x.lustre.comps[c];
        if (x->stripe_size != y->stripe_size ||
            x->stripe_count != y->stripe_count ||
            x->stripe_pattern != y->stripe_pattern || x->flags != y->flags ||
            x->ext_start != y->ext_start || x->ext_end != y->ext_end ||
            x->mirror_id != y->mirror_id ||
            strcmp(x->pool_name, y->pool_name) != 0)
            DIFF("lustre component %lld differs", (long long)c);
    }
    if (!same_array(a->x.lustre.ost_ids, b->x.lustre.ost_ids,
                    a->x.lustre.num_stripes, 8))
        DIFF("lustre OST ids differ");
    return 1;
}

static int same_union(const iosage_record *a, const iosage_record *b)
{
    switch (a->module) {
    case IOSAGE_MOD_H5D:
    case IOSAGE_MOD_PNETCDF_VAR:
        if (a->x.file_ref.file_rec_id != b->x.file_ref.file_rec_id)
            DIFF("file_rec_id differs");
        return 1;
    case IOSAGE_MOD_DFS:
    case IOSAGE_MOD_DAOS:
        if (memcmp(a->x.daos.pool_uuid, b->x.daos.pool_uuid, 16) != 0 ||
            memcmp(a->x.daos.cont_uuid, b->x.daos.cont_uuid, 16) != 0 ||
            (a->module == IOSAGE_MOD_DAOS &&
             (a->x.daos.oid_hi != b->x.daos.oid_hi ||
              a->x.daos.oid_lo != b->x.daos.oid_lo)))
            DIFF("DAOS/DFS ids differ");
        return 1;
    case IOSAGE_MOD_LUSTRE:
        return same_lustre(a, b);
    case IOSAGE_MOD_DXT_POSIX:
    case IOSAGE_MOD_DXT_MPIIO:
        if (a->x.dxt.shared_record != b->x.dxt.shared_record ||
            strcmp(or_empty(a->x.dxt.hostname), or_empty(b->x.dxt.hostname)) != 0 ||
            a->x.dxt.write_count != b->x.dxt.write_count ||
            a->x.dxt.read_count != b->x.dxt.read_count ||
            !same_array(a->x.dxt.segs, b->x.dxt.segs,
                        a->x.dxt.write_count + a->x.dxt.read_count,
                        sizeof(struct iosage_dxt_segment)))
            DIFF("DXT data differs");
        return 1;
    case IOSAGE_MOD_HEATMAP:
        if (memcmp(&a->x.heatmap.bin_width, &b->x.heatmap.bin_width, 8) != 0 ||
            a->x.heatmap.nbins != b->x.heatmap.nbins ||
            !same_array(a->x.heatmap.write_bins, b->x.heatmap.write_bins,
                        a->x.heatmap.nbins, 8) ||
            !same_array(a->x.heatmap.read_bins, b->x.heatmap.read_bins,
                        a->x.heatmap.nbins, 8))
            DIFF("heatmap differs");
        return 1;
    case IOSAGE_MOD_APMPI:
        if (a->x.apmpi.is_header != b->x.apmpi.is_header ||
            a->x.apmpi.sync_flag != b->x.apmpi.sync_flag ||
            (a->x.apmpi.is_header &&
             (a->x.apmpi.magic != b->x.apmpi.magic ||
              memcmp(&a->x.apmpi.variance_total_mpitime,
                     &b->x.apmpi.variance_total_mpitime, 8) != 0 ||
              memcmp(&a->x.apmpi.variance_total_mpisynctime,
                     &b->x.apmpi.variance_total_mpisynctime, 8) != 0)) ||
            strcmp(or_empty(a->x.apmpi.node_name),
                   or_empty(b->x.apmpi.node_name)) != 0)
            DIFF("APMPI data differs");
        return 1;
    case IOSAGE_MOD_APXC:
        if (a->x.apxc.is_header != b->x.apxc.is_header ||
            (a->x.apxc.is_header && a->x.apxc.magic != b->x.apxc.magic))
            DIFF("APXC header differs");
        return 1;
    case IOSAGE_MOD_MDHIM:
        if (a->x.mdhim.n_servers != b->x.mdhim.n_servers ||
            !same_array(a->x.mdhim.server_hist, b->x.mdhim.server_hist,
                        a->x.mdhim.n_servers, 8))
            DIFF("MDHIM histogram differs");
        return 1;
    default:
        return 1;
    }
}

static int same_record(const iosage_record *a, const iosage_record *b)
{
    if (a->module != b->module || a->id != b->id || a->rank != b->rank)
        DIFF("module/id/rank differ (%llu %lld / %llu %lld)",
             (unsigned long long)a->id, (long long)a->rank,
             (unsigned long long)b->id, (long long)b->rank);
    if (a->n_counters != b->n_counters || a->n_fcounters != b->n_fcounters)
        DIFF("counter counts differ");
    for (int i = 0; i < a->n_counters; i++)
        if (a->counters[i] != b->counters[i])
            DIFF("counter %d: %lld became %lld", i, (long long)a->counters[i],
                 (long long)b->counters[i]);
    for (int i = 0; i < a->n_fcounters; i++)
        if (memcmp(&a->fcounters[i], &b->fcounters[i], 8) != 0)
            DIFF("fcounter %d: %g became %g", i, a->fcounters[i],
                 b->fcounters[i]);
    return same_union(a, b);
}

/* Module k of a (as read) against b (written and read again). */
static int same_module(const iosage_module_data *a, const iosage_module_data *b)
{
    size_t want = a->skipped ? 0 : a->n_records;
    if (b->n_records != want)
        DIFF("%s: %zu records became %zu", a->name, want, b->n_records);
    if (want && b->status != IOSAGE_OK)
        DIFF("%s: status %d after rewrite: %s", a->name, b->status, b->err.msg);
    for (size_t i = 0; i < want; i++)
        if (!same_record(&a->records[i], &b->records[i])) {
            char d[300];
            snprintf(d, sizeof d, "%.250s", g_diff);
            DIFF("%s record %zu: %s", a->name, i, d);
        }
    return 1;
}

/* Everything but the header: job, names, modules. Counts modules
 * compared with records into *n_mods. */
static int same_log(const iosage_log *a, const iosage_log *b, size_t *n_mods)
{
    if (!same_job(&a->job, &b->job) || !same_names(a, b))
        return 0;
    for (int k = 0; k < IOSAGE_MAX_MODULES; k++) {
        if (!same_module(&a->modules[k], &b->modules[k]))
            return 0;
        if (n_mods && a->modules[k].n_records && !a->modules[k].skipped)
            (*n_mods)++;
    }
    return 1;
}

/* write_mem then load_mem; fails the test on error. */
static iosage_log *rewrite(const iosage_log *log, uint8_t **bytes, size_t *len)
{
    iosage_error e;
    char line[800];
    iosage_log *back = NULL;
    if (iosage_log_write_mem(log, bytes, len, &e) != IOSAGE_OK)
        fail_msg("write: %s", iosage_error_line(&e, line, sizeof line));
    if (iosage_log_load_mem(*bytes, *len, "rewritten", 0, &back, &e) !=
        IOSAGE_OK)
        fail_msg("re-read: %s", iosage_error_line(&e, line, sizeof line));
    return back;
}

/* --- a log built in memory ---------------------------------------------------- */

static int64_t g_ctr[128];
static double g_fctr[64];

/* A POSIX-shaped record for module id with n int and nf double counters. */
static iosage_record counter_record(int module, uint64_t id, int64_t rank)
{
    iosage_record r;
    memset(&r, 0, sizeof r);
    r.module = module;
    r.version = iosage_module_max_version(module);
    r.id = id;
    r.rank = rank;
    r.n_counters = iosage_counter_count(module);
    r.n_fcounters = iosage_fcounter_count(module);
    r.counters = g_ctr;
    r.fcounters = g_fctr;
    return r;
}

static iosage_log *build_log(void)
{
    iosage_log *log = iosage_log_create();
    assert_non_null(log);
    iosage_error e;
    struct iosage_mount mounts[] = {
        {"/", "ext4"}, {"/scratch", "lustre"}, {"/home", "nfs"}, {"/tmp", "xfs"}};
    struct iosage_job job;
    memset(&job, 0, sizeof job);
    job.uid = 501;
    job.start_time_sec = 1700000000;
    job.start_time_nsec = 123456789;
    job.end_time_sec = 1700000100;
    job.end_time_nsec = 5;
    job.nprocs = 8;
    job.jobid = 4242;
    snprintf(job.metadata, sizeof job.metadata, "lib_ver=3.4.7\nh=a=b");
    job.exe = "/bin/app --flag value";
    job.n_mounts = 4;
    job.mounts = mounts;
    assert_int_equal(iosage_log_set_job(log, &job, &e), IOSAGE_OK);

    assert_int_equal(iosage_log_add_name(log, iosage_darshan_hash("/scratch/a", 10),
                                         "/scratch/a", &e), IOSAGE_OK);
    assert_int_equal(iosage_log_add_name(log, 77, "", &e), IOSAGE_OK);
    assert_int_equal(iosage_log_add_name(log, 77, "ignored", &e), IOSAGE_OK);
    assert_int_equal(iosage_log_add_name(log, iosage_darshan_hash("heatmap:POSIX", 13),
                                         "heatmap:POSIX", &e), IOSAGE_OK);
    assert_int_equal(log->n_names, 3);
    assert_string_equal(iosage_log_name(log, 77), "");

    for (int i = 0; i < 128; i++)
        g_ctr[i] = i * 1000 - 7;
    for (int i = 0; i < 64; i++)
        g_fctr[i] = i * 0.25 - 1.0;
    uint64_t fid = iosage_darshan_hash("/scratch/a", 10);
    for (int rank = -1; rank < 40; rank++) {
        iosage_record r = counter_record(IOSAGE_MOD_POSIX, fid, rank);
        assert_int_equal(iosage_log_add_record(log, &r, &e), IOSAGE_OK);
    }
    iosage_record r = counter_record(IOSAGE_MOD_STDIO, 15920181672442173319ULL, 0);
    assert_int_equal(iosage_log_add_record(log, &r, &e), IOSAGE_OK);
    r = counter_record(IOSAGE_MOD_H5D, 99, 3);
    r.x.file_ref.file_rec_id = fid;
    assert_int_equal(iosage_log_add_record(log, &r, &e), IOSAGE_OK);

    /* heatmap */
    int64_t wb[5] = {1, 2, 3, 4, 5}, rb[5] = {9, 8, 7, 6, 5};
    memset(&r, 0, sizeof r);
    r.module = IOSAGE_MOD_HEATMAP;
    r.id = iosage_darshan_hash("heatmap:POSIX", 13);
    r.rank = 2;
    r.x.heatmap.bin_width = 0.1;
    r.x.heatmap.nbins = 5;
    r.x.heatmap.write_bins = wb;
    r.x.heatmap.read_bins = rb;
    assert_int_equal(iosage_log_add_record(log, &r, &e), IOSAGE_OK);

    /* DXT with two writes and one read */
    struct iosage_dxt_segment segs[3] = {
        {0, 100, 0.5, 0.75, 0}, {100, 50, 1.0, 1.5, 0}, {0, 150, 2.0, 2.25, 0}};
    memset(&r, 0, sizeof r);
    r.module = IOSAGE_MOD_DXT_POSIX;
    r.id = fid;
    r.rank = 1;
    r.x.dxt.hostname = "nid00042";
    r.x.dxt.write_count = 2;
    r.x.dxt.read_count = 1;
    r.x.dxt.segs = segs;
    assert_int_equal(iosage_log_add_record(log, &r, &e), IOSAGE_OK);

    /* Lustre with two components */
    struct iosage_lustre_comp comps[2] = {
        {1048576, 2, 0, 0, 0, 1 << 30, -1, "pool1"},
        {4194304, 1, 0, 0, 1 << 30, -1, -1, ""}};
    int64_t osts[3] = {4, 5, 6};
    memset(&r, 0, sizeof r);
    r.module = IOSAGE_MOD_LUSTRE;
    r.id = fid;
    r.rank = -1;
    r.x.lustre.num_comps = 2;
    r.x.lustre.num_stripes = 3;
    r.x.lustre.comps = comps;
    r.x.lustre.ost_ids = osts;
    assert_int_equal(iosage_log_add_record(log, &r, &e), IOSAGE_OK);

    iosage_log_set_partial(log, IOSAGE_MOD_STDIO);
    iosage_log_set_partial(log, IOSAGE_MOD_MPIIO);
    iosage_log_set_partial(log, 99); /* ignored */
    return log;
}

static void test_build_roundtrip(void **state)
{
    (void)state;
    iosage_log *log = build_log();
    uint8_t *bytes;
    size_t len;
    iosage_log *back = rewrite(log, &bytes, &len);
    assert_memory_equal(bytes, "3.41\0\0\0\0" "75d\0\0\0\0\0", 16);

    /* mounts come back sorted longest first, stably */
    const char *order[] = {"/scratch", "/home", "/tmp", "/"};
    for (int i = 0; i < 4; i++)
        assert_string_equal(back->job.mounts[i].point, order[i]);
    /* sorting the original the same way makes the logs equal */
    struct iosage_mount tmp = log->job.mounts[0];
    memmove(&log->job.mounts[0], &log->job.mounts[1], 3 * sizeof tmp);
    log->job.mounts[3] = tmp;
    size_t n_mods = 0;
    if (!same_log(log, back, &n_mods))
        fail_msg("%s", g_diff);
    assert_int_equal(n_mods, 6);
    assert_string_equal(back->job.metadata, "lib_ver=3.4.7\nh=a=b\n");

    const struct iosage_header *h = &back->header;
    assert_int_equal(h->partial_flags, (1u << IOSAGE_MOD_STDIO) |
                                           (1u << IOSAGE_MOD_MPIIO));
    assert_int_equal(h->modules[IOSAGE_MOD_POSIX].version, 4);
    assert_int_equal(h->modules[IOSAGE_MOD_LUSTRE].version, 2);
    assert_int_equal(h->modules[IOSAGE_MOD_MPIIO].len, 0);
    assert_int_equal(h->modules[IOSAGE_MOD_MPIIO].version, 0);
    assert_int_equal(back->modules[IOSAGE_MOD_MPIIO].partial, 1);
    assert_int_equal(back->modules[IOSAGE_MOD_POSIX].n_records, 41);
    /* regions are contiguous: job, names, modules in id order */
    uint64_t at = 1328 + h->job_len;
    assert_int_equal(h->names.off, at);
    at += h->names.len;
    for (int k = 0; k < IOSAGE_MAX_MODULES; k++)
        if (h->modules[k].len) {
            assert_int_equal(h->modules[k].off, at);
            at += h->modules[k].len;
        }
    assert_int_equal(at, len);
    free(bytes);
    iosage_log_free(back);
    iosage_log_free(log);
}

/* The zlib streams of region reg of bytes. */
static int count_streams(const uint8_t *bytes, const struct iosage_region *reg)
{
    int n = 0;
    uint64_t at = 0;
    uint8_t out[65536];
    while (at < reg->len) {
        z_stream z;
        memset(&z, 0, sizeof z);
        assert_int_equal(inflateInit(&z), Z_OK);
        z.next_in = (Bytef *)(uintptr_t)(bytes + reg->off + at);
        z.avail_in = (uInt)(reg->len - at);
        int r;
        do {
            z.next_out = out;
            z.avail_out = sizeof out;
            r = inflate(&z, Z_NO_FLUSH);
        } while (r == Z_OK);
        assert_int_equal(r, Z_STREAM_END);
        at += z.total_in;
        inflateEnd(&z);
        n++;
    }
    return n;
}

/*
 * Module regions as the runtime writes them (spec 5.1) when the records
 * come rank by rank: a zlib stream for each rank, the shared records
 * (rank -1) in rank 0's. build_log's 41 POSIX records of ranks -1 .. 39
 * are 40 streams, its one STDIO record one; the names one stream. Records
 * in another order (ranks 2, then 0) are one stream, as darshan-convert
 * writes them. Both read back record for record.
 */
static void test_streams_by_rank(void **state)
{
    (void)state;
    iosage_log *log = build_log();
    uint8_t *bytes;
    size_t len;
    iosage_log *back = rewrite(log, &bytes, &len);
    const struct iosage_header *h = &back->header;
    assert_int_equal(count_streams(bytes, &h->modules[IOSAGE_MOD_POSIX]), 40);
    assert_int_equal(count_streams(bytes, &h->modules[IOSAGE_MOD_STDIO]), 1);
    assert_int_equal(count_streams(bytes, &h->names), 1);
    assert_int_equal(back->modules[IOSAGE_MOD_POSIX].n_records, 41);
    for (int i = 0; i < 41; i++)
        assert_int_equal(back->modules[IOSAGE_MOD_POSIX].records[i].rank, i - 1);
    free(bytes);
    iosage_log_free(back);
    iosage_log_free(log);

    log = iosage_log_create();
    assert_non_null(log);
    iosage_error e;
    static const int64_t ranks[3] = {2, 0, 0};
    for (int i = 0; i < 3; i++) {
        iosage_record r = counter_record(IOSAGE_MOD_POSIX, 100 + (uint64_t)i, ranks[i]);
        assert_int_equal(iosage_log_add_record(log, &r, &e), IOSAGE_OK);
    }
    back = rewrite(log, &bytes, &len);
    assert_int_equal(count_streams(bytes, &back->header.modules[IOSAGE_MOD_POSIX]), 1);
    for (int i = 0; i < 3; i++) {
        assert_true(back->modules[IOSAGE_MOD_POSIX].records[i].id == 100 + (uint64_t)i);
        assert_int_equal(back->modules[IOSAGE_MOD_POSIX].records[i].rank, ranks[i]);
    }
    free(bytes);
    iosage_log_free(back);
    iosage_log_free(log);
}

/* An empty log: no names, no modules, exe without mounts. */
static void test_empty_log(void **state)
{
    (void)state;
    iosage_log *log = iosage_log_create();
    uint8_t *bytes;
    size_t len;
    iosage_log *back = rewrite(log, &bytes, &len);
    assert_int_equal(back->n_names, 0);
    assert_int_equal(back->header.names.len, 0);
    assert_int_equal(back->header.names.off, 1328 + back->header.job_len);
    assert_string_equal(back->job.exe, "");
    for (int k = 0; k < IOSAGE_MAX_MODULES; k++)
        assert_int_equal(back->modules[k].n_records, 0);
    free(bytes);
    iosage_log_free(back);

    /* an over-long command line is cut and marked */
    char exe[5000];
    memset(exe, 'x', sizeof exe - 1);
    exe[sizeof exe - 1] = '\0';
    struct iosage_mount m = {"/", "ext4"};
    struct iosage_job job;
    memset(&job, 0, sizeof job);
    job.exe = exe;
    job.n_mounts = 1;
    job.mounts = &m;
    iosage_error e;
    assert_int_equal(iosage_log_set_job(log, &job, &e), IOSAGE_OK);
    back = rewrite(log, &bytes, &len);
    size_t n = strlen(back->job.exe);
    assert_int_equal(n, 4096 - 1080 - 1 - strlen("\next4\t/"));
    assert_string_equal(back->job.exe + n - 11, "<TRUNCATED>");
    assert_int_equal(back->job.n_mounts, 1); /* room kept for one mount */
    free(bytes);
    iosage_log_free(back);

    /* without mounts the command line cannot be stored (spec 6.3) */
    job.n_mounts = 0;
    job.exe = "/bin/alone";
    assert_int_equal(iosage_log_set_job(log, &job, &e), IOSAGE_OK);
    back = rewrite(log, &bytes, &len);
    assert_string_equal(back->job.exe, "");
    free(bytes);
    iosage_log_free(back);
    iosage_log_free(log);
}

static void test_build_errors(void **state)
{
    (void)state;
    iosage_log *log = iosage_log_create();
    iosage_error e;
    iosage_record r;
    memset(&r, 0, sizeof r);
    r.module = IOSAGE_MOD_NULL;
    assert_int_equal(iosage_log_add_record(log, &r, &e), IOSAGE_E_USAGE);
    r.module = 30;
    assert_int_equal(iosage_log_add_record(log, &r, &e), IOSAGE_E_USAGE);
    r.module = IOSAGE_MOD_POSIX;
    r.n_counters = 69; /* counters NULL */
    assert_int_equal(iosage_log_add_record(log, &r, &e), IOSAGE_E_USAGE);
    memset(&r, 0, sizeof r);
    r.module = IOSAGE_MOD_HEATMAP;
    r.x.heatmap.nbins = -3;
    assert_int_equal(iosage_log_add_record(log, &r, &e), IOSAGE_E_USAGE);
    assert_int_equal(iosage_log_add_record(NULL, &r, &e), IOSAGE_E_USAGE);
    assert_int_equal(iosage_log_add_name(log, 1, NULL, &e), IOSAGE_E_USAGE);

    struct iosage_mount bad = {"/my disk", "ext4"};
    struct iosage_job job;
    memset(&job, 0, sizeof job);
    job.exe = "a";
    job.n_mounts = 1;
    job.mounts = &bad;
    assert_int_equal(iosage_log_set_job(log, &job, &e), IOSAGE_E_USAGE);
    bad.point = "";
    assert_int_equal(iosage_log_set_job(log, &job, &e), IOSAGE_E_USAGE);
    job.n_mounts = 0;
    job.exe = "two\nlines";
    assert_int_equal(iosage_log_set_job(log, &job, &e), IOSAGE_E_USAGE);
    uint8_t *bytes;
    size_t len;
    assert_int_equal(iosage_log_write_mem(NULL, &bytes, &len, &e),
                     IOSAGE_E_USAGE);
    iosage_log_free(log);
}

/* --- writing files ------------------------------------------------------------- */

/* Number of entries in dir other than . and .. */
static int dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

static void test_write_file(void **state)
{
    (void)state;
    char *dir = tu_mkdtemp();
    assert_non_null(dir);
    char path[1024], sub[1024];
    snprintf(path, sizeof path, "%s/out.darshan", dir);
    iosage_log *log = build_log();
    iosage_error e;
    assert_int_equal(iosage_log_write(log, path, &e), IOSAGE_OK);
    assert_int_equal(dir_entries(dir), 1);
    iosage_log *back = NULL;
    assert_int_equal(iosage_log_load(path, 0, &back, &e), IOSAGE_OK);
    assert_int_equal(back->modules[IOSAGE_MOD_POSIX].n_records, 41);
    iosage_log_free(back);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);

    /* overwrite in place */
    assert_int_equal(iosage_log_write(log, path, &e), IOSAGE_OK);
    assert_int_equal(dir_entries(dir), 1);

    /* into a directory that does not exist: error, nothing created */
    snprintf(sub, sizeof sub, "%s/missing/out.darshan", dir);
    assert_int_equal(iosage_log_write(log, sub, &e), IOSAGE_E_IO);
    assert_int_equal(e.sys_errno, ENOENT);
    assert_string_equal(e.path, sub);

    /* rename over a non-empty directory fails: the temp file is removed */
    snprintf(sub, sizeof sub, "%s/adir", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    char inner[1100];
    snprintf(inner, sizeof inner, "%s/keep", sub);
    FILE *f = fopen(inner, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(iosage_log_write(log, sub, &e), IOSAGE_E_IO);
    assert_int_equal(dir_entries(dir), 2); /* out.darshan and adir */
    assert_int_equal(dir_entries(sub), 1);

    unlink(inner);
    rmdir(sub);
    unlink(path);
    rmdir(dir);
    free(dir);
    iosage_log_free(log);
}

/* --- reading a log file without its trace regions -------------------------- */

/* Bytes this process has read through read/pread so far (/proc/self/io),
 * or -1 where the kernel does not say. */
static long long bytes_read_so_far(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    long long v = -1;
    char line[128];
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "rchar: %lld", &v) == 1)
            break;
    if (f)
        fclose(f);
    return v;
}

/* The POSIX records of a and b are the same, field for field. */
static void assert_same_posix(const iosage_log *a, const iosage_log *b)
{
    const iosage_module_data *x = &a->modules[IOSAGE_MOD_POSIX];
    const iosage_module_data *y = &b->modules[IOSAGE_MOD_POSIX];
    assert_int_equal(x->n_records, y->n_records);
    for (size_t i = 0; i < x->n_records; i++)
        assert_true(same_record(&x->records[i], &y->records[i]));
}

/*
 * iosage_log_read_file with IOSAGE_READ_NO_TRACES reads the file's size in
 * bytes but leaves the DXT region unread: the build_log log plus one DXT
 * record of 60,000 segments (a region of about 1 MB compressed). The log
 * loaded from those bytes has the same POSIX records as the whole file and
 * no DXT records; a file cut inside the DXT region loads the same way as
 * when it is read whole.
 */
static void test_read_file_without_traces(void **state)
{
    (void)state;
    iosage_log *log = build_log();
    iosage_error e;
    enum { NSEG = 60000 };
    struct iosage_dxt_segment *segs = calloc(NSEG, sizeof *segs);
    assert_non_null(segs);
    uint64_t x = 88172645463325252ULL; /* xorshift: data that does not compress */
    for (int i = 0; i < NSEG; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        segs[i].offset = (int64_t)(x >> 20);
        segs[i].length = (int64_t)(x & 0xfffff);
        segs[i].start_time = (double)(x % 1000003) / 7.0;
        segs[i].end_time = segs[i].start_time + 0.5;
    }
    iosage_record r;
    memset(&r, 0, sizeof r);
    r.module = IOSAGE_MOD_DXT_POSIX;
    r.id = iosage_darshan_hash("/scratch/a", 10);
    r.rank = 3;
    r.x.dxt.hostname = "nid00007";
    r.x.dxt.write_count = NSEG;
    r.x.dxt.segs = segs;
    assert_int_equal(iosage_log_add_record(log, &r, &e), IOSAGE_OK);
    /* an APMPI record, which IOSAGE_READ_IO_ONLY leaves out */
    r = counter_record(IOSAGE_MOD_APMPI, 12345, 0);
    int64_t *ap_ctr = calloc((size_t)r.n_counters + 1, sizeof *ap_ctr);
    double *ap_fctr = calloc((size_t)r.n_fcounters + 1, sizeof *ap_fctr);
    assert_true(ap_ctr && ap_fctr);
    r.counters = ap_ctr;
    r.fcounters = ap_fctr;
    r.x.apmpi.node_name = "nid00007";
    assert_int_equal(iosage_log_add_record(log, &r, &e), IOSAGE_OK);
    free(ap_ctr);
    free(ap_fctr);

    char *dir = tu_mkdtemp();
    assert_non_null(dir);
    char path[1024];
    snprintf(path, sizeof path, "%s/dxt.darshan", dir);
    assert_int_equal(iosage_log_write(log, path, &e), IOSAGE_OK);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);

    iosage_log *whole = NULL;
    assert_int_equal(iosage_log_load(path, 0, &whole, &e), IOSAGE_OK);
    uint64_t dxt_len = whole->header.modules[IOSAGE_MOD_DXT_POSIX].len;
    assert_true(dxt_len > 512 * 1024);

    long long before = bytes_read_so_far();
    uint8_t *buf = NULL;
    size_t len = 0;
    assert_int_equal(iosage_log_read_file(path, IOSAGE_READ_NO_TRACES, &buf,
                                          &len, &e), IOSAGE_OK);
    long long after = bytes_read_so_far();
    assert_int_equal(len, (size_t)st.st_size);
    if (before >= 0 && after >= 0) /* the DXT region was not read */
        assert_true(after - before <= (long long)(len - dxt_len) + 64 * 1024);
    iosage_log *lean = NULL;
    assert_int_equal(iosage_log_load_mem(buf, len, path, IOSAGE_READ_NO_TRACES,
                                         &lean, &e), IOSAGE_OK);
    assert_same_posix(whole, lean);
    assert_int_equal(lean->modules[IOSAGE_MOD_DXT_POSIX].n_records, 0);
    assert_int_equal(lean->modules[IOSAGE_MOD_APMPI].n_records, 1);
    iosage_log_free(lean);
    lean = NULL;
    assert_int_equal(iosage_log_load_mem(buf, len, path,
                                         IOSAGE_READ_NO_TRACES | IOSAGE_READ_IO_ONLY,
                                         &lean, &e), IOSAGE_OK);
    assert_same_posix(whole, lean);
    assert_int_equal(lean->modules[IOSAGE_MOD_APMPI].n_records, 0);
    assert_int_equal(whole->modules[IOSAGE_MOD_APMPI].n_records, 1);
    /* build_log's DXT record and this one */
    assert_int_equal(whole->modules[IOSAGE_MOD_DXT_POSIX].n_records, 2);
    iosage_log_free(lean);
    free(buf);

    /* cut in the middle of the DXT region: the sparse read and the whole
     * read give the same log (the region is not looked at either way) */
    uint64_t cut = whole->header.modules[IOSAGE_MOD_DXT_POSIX].off + dxt_len / 2;
    assert_int_equal(truncate(path, (off_t)cut), 0);
    iosage_log *a = NULL, *b = NULL;
    assert_int_equal(iosage_log_read_file(path, IOSAGE_READ_NO_TRACES, &buf,
                                          &len, &e), IOSAGE_OK);
    assert_int_equal(len, (size_t)cut);
    assert_int_equal(iosage_log_load_mem(buf, len, path, IOSAGE_READ_NO_TRACES,
                                         &a, &e), IOSAGE_OK);
    free(buf);
    assert_int_equal(ios_read_file(path, 0, &buf, &len, &e), IOSAGE_OK);
    assert_int_equal(iosage_log_load_mem(buf, len, path, IOSAGE_READ_NO_TRACES,
                                         &b, &e), IOSAGE_OK);
    free(buf);
    assert_same_posix(a, b);
    for (int m = 0; m < IOSAGE_MAX_MODULES; m++)
        assert_int_equal(a->modules[m].status, b->modules[m].status);
    iosage_log_free(a);
    iosage_log_free(b);

    /* a file that is not a log: the same error as reading it whole */
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < 300 * 1024; i++)
        fputc('x', f);
    fclose(f);
    iosage_error e2;
    iosage_log *bad = NULL;
    assert_int_not_equal(iosage_log_load(path, IOSAGE_READ_NO_TRACES, &bad, &e),
                         IOSAGE_OK);
    assert_int_not_equal(iosage_log_load(path, 0, &bad, &e2), IOSAGE_OK);
    assert_int_equal(e.code, e2.code);
    assert_string_equal(e.msg, e2.msg);
    assert_null(bad);

    unlink(path);
    rmdir(dir);
    free(dir);
    free(segs);
    iosage_log_free(whole);
    iosage_log_free(log);
}

/* --- every shared log ------------------------------------------------------------- */

/* Load a shared log with default flags, or NULL if it cannot be opened. */
static iosage_log *load_shared(const char *path)
{
    iosage_log *log = NULL;
    iosage_error e;
    if (iosage_log_load(path, 0, &log, &e) != IOSAGE_OK)
        return NULL;
    return log;
}

static void test_roundtrip_shared(void **state)
{
    (void)state;
    if (!tu_shared_logs())
        skip();
    char **logs = tu_list_logs(tu_shared_logs());
    assert_non_null(logs);
    size_t ok = 0, bad = 0, unreadable = 0, modules = 0, records = 0;
    for (char **p = logs; *p; p++) {
        iosage_log *log = load_shared(*p);
        if (!log) {
            unreadable++;
            continue;
        }
        uint8_t *bytes;
        size_t len;
        iosage_log *back = rewrite(log, &bytes, &len);
        if (same_log(log, back, &modules)) {
            ok++;
        } else {
            bad++;
            print_error("%s: %s\n", strrchr(*p, '/') + 1, g_diff);
        }
        for (int k = 0; k < IOSAGE_MAX_MODULES; k++) {
            if (!log->modules[k].skipped)
                records += log->modules[k].n_records;
            assert_int_equal(back->modules[k].partial, log->modules[k].partial);
        }
        /* a second generation is byte-identical to the first */
        uint8_t *again;
        size_t again_len;
        iosage_error e;
        assert_int_equal(iosage_log_write_mem(back, &again, &again_len, &e),
                         IOSAGE_OK);
        assert_int_equal(again_len, len);
        assert_memory_equal(again, bytes, len);
        free(again);
        free(bytes);
        iosage_log_free(back);
        iosage_log_free(log);
    }
    print_message("round trip ok on %zu logs (%zu modules, %zu records), "
                  "%zu differ, %zu not readable\n",
                  ok, modules, records, bad, unreadable);
    tu_free_list(logs);
    assert_int_equal(bad, 0);
    assert_true(ok > 80);
}

/* --- other compressions and split streams ---------------------------------------- */

/* Compress data[0..n) as `parts` back-to-back streams of comp into out. */
static void emit_streams(ios_buf *out, const uint8_t *data, size_t n, int comp,
                         int parts)
{
    for (int i = 0; i < parts; i++) {
        size_t a = n * (size_t)i / (size_t)parts;
        size_t b = n * (size_t)(i + 1) / (size_t)parts;
        if (b == a)
            continue;
        size_t cap = (b - a) + (b - a) / 50 + 1024;
        uint8_t *tmp = malloc(cap);
        size_t got = cap;
        if (comp == IOSAGE_COMP_BZIP2) {
            unsigned blen = (unsigned)cap;
            assert_int_equal(BZ2_bzBuffToBuffCompress((char *)tmp, &blen,
                                                      (char *)data + a,
                                                      (unsigned)(b - a), 9, 0,
                                                      0),
                             BZ_OK);
            got = blen;
        } else if (comp == IOSAGE_COMP_ZLIB) {
            uLongf zlen = cap;
            assert_int_equal(compress2(tmp, &zlen, data + a, b - a, 6), Z_OK);
            got = zlen;
        } else {
            memcpy(tmp, data + a, b - a);
            got = b - a;
        }
        ios_buf_append(out, tmp, got);
        free(tmp);
    }
}

/* Region [off, off+len) of our own zlib log re-stored with comp in parts
 * streams at the end of out; returns the new stored length. */
static uint64_t restore_region(const uint8_t *in, uint64_t off, uint64_t len,
                               int comp, int parts, ios_buf *out)
{
    if (len == 0)
        return 0;
    uint8_t *data;
    size_t n;
    int trunc;
    iosage_error e;
    assert_int_equal(ios_region_inflate(in + off, (size_t)len, IOSAGE_COMP_ZLIB,
                                        1 << 30, &data, &n, &trunc, "t", "t",
                                        off, &e),
                     IOSAGE_OK);
    size_t start = out->len;
    emit_streams(out, data, n, comp, parts);
    free(data);
    return out->len - start;
}

/* A copy of our 3.41 zlib log in with every region re-stored. */
static uint8_t *recompress(const uint8_t *in, size_t len, int comp, int parts,
                           size_t *out_len)
{
    (void)len;
    ios_buf out = {0};
    ios_buf_append(&out, in, 1328);
    out.p[16] = (uint8_t)comp;
    uint64_t names_off, names_len;
    memcpy(&names_off, in + 32, 8);
    memcpy(&names_len, in + 40, 8);
    restore_region(in, 1328, names_off - 1328, comp, 1, &out);
    uint64_t v = out.len;
    memcpy(out.p + 32, &v, 8);
    v = restore_region(in, names_off, names_len, comp, parts, &out);
    memcpy(out.p + 40, &v, 8);
    for (int k = 0; k < IOSAGE_MAX_MODULES; k++) {
        uint64_t off, mlen;
        memcpy(&off, in + 48 + 16 * k, 8);
        memcpy(&mlen, in + 56 + 16 * k, 8);
        uint64_t at = mlen ? out.len : 0;
        v = restore_region(in, off, mlen, comp, parts, &out);
        memcpy(out.p + 48 + 16 * k, &at, 8);
        memcpy(out.p + 56 + 16 * k, &v, 8);
    }
    assert_false(out.oom);
    *out_len = out.len;
    return out.p;
}

static void check_recompressed(int comp, int parts)
{
    if (!tu_shared_logs())
        skip();
    char **logs = tu_list_logs(tu_shared_logs());
    size_t ok = 0;
    for (char **p = logs; *p; p++) {
        iosage_log *log = load_shared(*p);
        if (!log)
            continue;
        uint8_t *bytes;
        size_t len;
        iosage_log *back = rewrite(log, &bytes, &len);
        size_t rlen;
        uint8_t *re = recompress(bytes, len, comp, parts, &rlen);
        iosage_log *third = NULL;
        iosage_error e;
        char line[800];
        if (iosage_log_load_mem(re, rlen, "recompressed", 0, &third, &e) !=
            IOSAGE_OK)
            fail_msg("%s: %s", *p, iosage_error_line(&e, line, sizeof line));
        assert_int_equal(third->header.compression, comp);
        if (!same_log(back, third, NULL))
            fail_msg("%s: %s", *p, g_diff);
        ok++;
        iosage_log_free(third);
        free(re);
        free(bytes);
        iosage_log_free(back);
        iosage_log_free(log);
    }
    print_message("compression %d, %d stream(s) per region: %zu logs read "
                  "back identically\n", comp, parts, ok);
    tu_free_list(logs);
    assert_true(ok > 80);
}

static void test_bzip2_logs(void **state)
{
    (void)state;
    check_recompressed(IOSAGE_COMP_BZIP2, 3);
}

static void test_uncompressed_logs(void **state)
{
    (void)state;
    check_recompressed(IOSAGE_COMP_NONE, 1);
}

static void test_split_zlib_logs(void **state)
{
    (void)state;
    check_recompressed(IOSAGE_COMP_ZLIB, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_roundtrip),
        cmocka_unit_test(test_streams_by_rank),
        cmocka_unit_test(test_empty_log),
        cmocka_unit_test(test_build_errors),
        cmocka_unit_test(test_write_file),
        cmocka_unit_test(test_read_file_without_traces),
        cmocka_unit_test(test_roundtrip_shared),
        cmocka_unit_test(test_bzip2_logs),
        cmocka_unit_test(test_uncompressed_logs),
        cmocka_unit_test(test_split_zlib_logs),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    if (failed == 0 && !tu_shared_logs()) {
        fprintf(stderr, "test_reader_write: shared logs not found; real-log "
                        "tests skipped\n");
        return 77;
    }
    return failed;
}
