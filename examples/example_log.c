/*
 * examples/example_log.c - a small, made-up job built with the iosage writer
 * API: 4 MPI processes write one shared 16 MiB file through MPI-IO with
 * independent 4 KiB writes (1,024 per rank), then read it back; rank 0 also
 * writes a 2 KiB text file with stdio. The counters agree with that story.
 * Used by `make demo`, the tests and the fuzzer's seeds.
 */
#include "example_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iosage/counters.h"

#define NPROCS 4
#define XFER 4096
#define PER_RANK_OPS 1024
#define FILE_BYTES ((int64_t)NPROCS * PER_RANK_OPS * XFER)

static const char *data_path = "/lus/scratch/demo/out.dat";
static const char *log_path = "/home/demo/run.log";

/* A record with its counters in the newest layout, all zero. */
static iosage_record *new_record(int module, uint64_t id, int64_t rank)
{
    iosage_record *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->module = module;
    r->id = id;
    r->rank = rank;
    r->n_counters = iosage_counter_count(module);
    r->n_fcounters = iosage_fcounter_count(module);
    r->counters = calloc((size_t)r->n_counters, sizeof *r->counters);
    r->fcounters = calloc((size_t)r->n_fcounters, sizeof *r->fcounters);
    if (!r->counters || !r->fcounters) { /* out of memory: add() says so */
        free(r->counters);
        free(r->fcounters);
        free(r);
        return NULL;
    }
    return r;
}

static void free_record(iosage_record *r)
{
    free(r->counters);
    free(r->fcounters);
    free(r);
}

/* The shared data file as POSIX sees it, reduced over all ranks. */
static iosage_record *posix_shared(uint64_t id)
{
    iosage_record *r = new_record(IOSAGE_MOD_POSIX, id, -1);
    if (!r)
        return NULL;
    int64_t *c = r->counters;
    double *f = r->fcounters;
    int64_t ops = (int64_t)NPROCS * PER_RANK_OPS;
    c[IOSAGE_POSIX_OPENS] = 2 * NPROCS;
    c[IOSAGE_POSIX_WRITES] = ops;
    c[IOSAGE_POSIX_READS] = ops;
    c[IOSAGE_POSIX_SEEKS] = 0;
    c[IOSAGE_POSIX_STATS] = NPROCS;
    c[IOSAGE_POSIX_MODE] = 0644;
    c[IOSAGE_POSIX_BYTES_WRITTEN] = FILE_BYTES;
    c[IOSAGE_POSIX_BYTES_READ] = FILE_BYTES;
    c[IOSAGE_POSIX_MAX_BYTE_WRITTEN] = FILE_BYTES - 1;
    c[IOSAGE_POSIX_MAX_BYTE_READ] = FILE_BYTES - 1;
    c[IOSAGE_POSIX_CONSEC_WRITES] = ops - NPROCS;
    c[IOSAGE_POSIX_SEQ_WRITES] = ops - NPROCS;
    c[IOSAGE_POSIX_CONSEC_READS] = ops - NPROCS;
    c[IOSAGE_POSIX_SEQ_READS] = ops - NPROCS;
    c[IOSAGE_POSIX_RW_SWITCHES] = NPROCS;
    c[IOSAGE_POSIX_MEM_ALIGNMENT] = 8;
    c[IOSAGE_POSIX_FILE_ALIGNMENT] = 1048576;
    c[IOSAGE_POSIX_FILE_NOT_ALIGNED] = 0;
    c[IOSAGE_POSIX_MAX_WRITE_TIME_SIZE] = XFER;
    c[IOSAGE_POSIX_MAX_READ_TIME_SIZE] = XFER;
    c[IOSAGE_POSIX_SIZE_WRITE_1K_10K] = ops;
    c[IOSAGE_POSIX_SIZE_READ_1K_10K] = ops;
    c[IOSAGE_POSIX_ACCESS1_ACCESS] = XFER;
    c[IOSAGE_POSIX_ACCESS1_COUNT] = 2 * ops;
    c[IOSAGE_POSIX_FASTEST_RANK] = 2;
    c[IOSAGE_POSIX_FASTEST_RANK_BYTES] = 2 * FILE_BYTES / NPROCS;
    c[IOSAGE_POSIX_SLOWEST_RANK] = 0;
    c[IOSAGE_POSIX_SLOWEST_RANK_BYTES] = 2 * FILE_BYTES / NPROCS;
    f[IOSAGE_POSIX_F_OPEN_START_TIMESTAMP] = 0.012;
    f[IOSAGE_POSIX_F_WRITE_START_TIMESTAMP] = 0.015;
    f[IOSAGE_POSIX_F_WRITE_END_TIMESTAMP] = 1.870;
    f[IOSAGE_POSIX_F_READ_START_TIMESTAMP] = 1.902;
    f[IOSAGE_POSIX_F_READ_END_TIMESTAMP] = 2.450;
    f[IOSAGE_POSIX_F_CLOSE_START_TIMESTAMP] = 1.880;
    f[IOSAGE_POSIX_F_CLOSE_END_TIMESTAMP] = 2.460;
    f[IOSAGE_POSIX_F_OPEN_END_TIMESTAMP] = 1.901;
    f[IOSAGE_POSIX_F_WRITE_TIME] = 6.75;
    f[IOSAGE_POSIX_F_READ_TIME] = 1.98;
    f[IOSAGE_POSIX_F_META_TIME] = 0.31;
    f[IOSAGE_POSIX_F_MAX_WRITE_TIME] = 0.021;
    f[IOSAGE_POSIX_F_MAX_READ_TIME] = 0.004;
    f[IOSAGE_POSIX_F_FASTEST_RANK_TIME] = 2.05;
    f[IOSAGE_POSIX_F_SLOWEST_RANK_TIME] = 2.43;
    f[IOSAGE_POSIX_F_VARIANCE_RANK_TIME] = 0.019;
    f[IOSAGE_POSIX_F_VARIANCE_RANK_BYTES] = 0.0;
    return r;
}

/* The same file through MPI-IO: independent writes and reads only. */
static iosage_record *mpiio_shared(uint64_t id)
{
    iosage_record *r = new_record(IOSAGE_MOD_MPIIO, id, -1);
    if (!r)
        return NULL;
    int64_t *c = r->counters;
    double *f = r->fcounters;
    int64_t ops = (int64_t)NPROCS * PER_RANK_OPS;
    c[IOSAGE_MPIIO_COLL_OPENS] = 2 * NPROCS;
    c[IOSAGE_MPIIO_INDEP_WRITES] = ops;
    c[IOSAGE_MPIIO_INDEP_READS] = ops;
    c[IOSAGE_MPIIO_MODE] = 9;
    c[IOSAGE_MPIIO_BYTES_WRITTEN] = FILE_BYTES;
    c[IOSAGE_MPIIO_BYTES_READ] = FILE_BYTES;
    c[IOSAGE_MPIIO_RW_SWITCHES] = NPROCS;
    c[IOSAGE_MPIIO_MAX_WRITE_TIME_SIZE] = XFER;
    c[IOSAGE_MPIIO_MAX_READ_TIME_SIZE] = XFER;
    c[IOSAGE_MPIIO_SIZE_WRITE_AGG_1K_10K] = ops;
    c[IOSAGE_MPIIO_SIZE_READ_AGG_1K_10K] = ops;
    c[IOSAGE_MPIIO_ACCESS1_ACCESS] = XFER;
    c[IOSAGE_MPIIO_ACCESS1_COUNT] = 2 * ops;
    c[IOSAGE_MPIIO_FASTEST_RANK] = 2;
    c[IOSAGE_MPIIO_FASTEST_RANK_BYTES] = 2 * FILE_BYTES / NPROCS;
    c[IOSAGE_MPIIO_SLOWEST_RANK] = 0;
    c[IOSAGE_MPIIO_SLOWEST_RANK_BYTES] = 2 * FILE_BYTES / NPROCS;
    f[IOSAGE_MPIIO_F_OPEN_START_TIMESTAMP] = 0.010;
    f[IOSAGE_MPIIO_F_WRITE_START_TIMESTAMP] = 0.014;
    f[IOSAGE_MPIIO_F_WRITE_END_TIMESTAMP] = 1.871;
    f[IOSAGE_MPIIO_F_READ_START_TIMESTAMP] = 1.901;
    f[IOSAGE_MPIIO_F_READ_END_TIMESTAMP] = 2.451;
    f[IOSAGE_MPIIO_F_CLOSE_START_TIMESTAMP] = 1.879;
    f[IOSAGE_MPIIO_F_CLOSE_END_TIMESTAMP] = 2.462;
    f[IOSAGE_MPIIO_F_OPEN_END_TIMESTAMP] = 1.900;
    f[IOSAGE_MPIIO_F_WRITE_TIME] = 6.91;
    f[IOSAGE_MPIIO_F_READ_TIME] = 2.04;
    f[IOSAGE_MPIIO_F_META_TIME] = 0.35;
    f[IOSAGE_MPIIO_F_MAX_WRITE_TIME] = 0.022;
    f[IOSAGE_MPIIO_F_MAX_READ_TIME] = 0.004;
    f[IOSAGE_MPIIO_F_FASTEST_RANK_TIME] = 2.10;
    f[IOSAGE_MPIIO_F_SLOWEST_RANK_TIME] = 2.47;
    f[IOSAGE_MPIIO_F_VARIANCE_RANK_TIME] = 0.020;
    return r;
}

/* Rank 0's text log through stdio: 64 fprintf calls of 32 bytes. */
static iosage_record *stdio_log(uint64_t id)
{
    iosage_record *r = new_record(IOSAGE_MOD_STDIO, id, 0);
    if (!r)
        return NULL;
    int64_t *c = r->counters;
    double *f = r->fcounters;
    c[IOSAGE_STDIO_OPENS] = 1;
    c[IOSAGE_STDIO_FDOPENS] = 0;
    c[IOSAGE_STDIO_WRITES] = 64;
    c[IOSAGE_STDIO_FLUSHES] = 1;
    c[IOSAGE_STDIO_BYTES_WRITTEN] = 2048;
    c[IOSAGE_STDIO_MAX_BYTE_WRITTEN] = 2047;
    c[IOSAGE_STDIO_MAX_BYTE_READ] = 0;
    f[IOSAGE_STDIO_F_META_TIME] = 0.0004;
    f[IOSAGE_STDIO_F_WRITE_TIME] = 0.0011;
    f[IOSAGE_STDIO_F_OPEN_START_TIMESTAMP] = 0.001;
    f[IOSAGE_STDIO_F_OPEN_END_TIMESTAMP] = 0.0012;
    f[IOSAGE_STDIO_F_WRITE_START_TIMESTAMP] = 0.002;
    f[IOSAGE_STDIO_F_WRITE_END_TIMESTAMP] = 2.47;
    f[IOSAGE_STDIO_F_CLOSE_START_TIMESTAMP] = 2.48;
    f[IOSAGE_STDIO_F_CLOSE_END_TIMESTAMP] = 2.481;
    return r;
}

static int add(iosage_log *log, iosage_record *rec, iosage_error *err)
{
    if (!rec) {
        memset(err, 0, sizeof *err);
        err->code = IOSAGE_E_NOMEM;
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    iosage_status st = iosage_log_add_record(log, rec, err);
    free_record(rec);
    return st == IOSAGE_OK ? 0 : -1;
}

iosage_log *example_build_log(iosage_error *err)
{
    iosage_log *log = iosage_log_create();
    if (!log) {
        memset(err, 0, sizeof *err);
        err->code = IOSAGE_E_NOMEM;
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    struct iosage_mount mounts[] = {{"/lus/scratch", "lustre"},
                                    {"/home", "nfs"},
                                    {"/", "ext4"}};
    struct iosage_job job;
    memset(&job, 0, sizeof job);
    job.uid = 1000;
    job.jobid = 4242;
    job.nprocs = NPROCS;
    job.start_time_sec = 1764662400; /* 2025-12-02 08:00:00 UTC */
    job.end_time_sec = 1764662402;
    job.end_time_nsec = 500000000;
    snprintf(job.metadata, sizeof job.metadata, "lib_ver=3.4.7\n");
    job.exe = "/home/demo/bin/ior-like -a mpiio -t 4k -b 4m";
    job.n_mounts = 3;
    job.mounts = mounts;

    uint64_t data_id = iosage_darshan_hash(data_path, strlen(data_path));
    uint64_t log_id = iosage_darshan_hash(log_path, strlen(log_path));
    int bad = iosage_log_set_job(log, &job, err) != IOSAGE_OK ||
              iosage_log_add_name(log, data_id, data_path, err) != IOSAGE_OK ||
              iosage_log_add_name(log, log_id, log_path, err) != IOSAGE_OK ||
              add(log, posix_shared(data_id), err) != 0 ||
              add(log, mpiio_shared(data_id), err) != 0 ||
              add(log, stdio_log(log_id), err) != 0;
    if (bad) {
        iosage_log_free(log);
        return NULL;
    }
    return log;
}
