/*
 * tests/perf/bench_make_log.c - write a log of N POSIX records with the
 * project's writer, for the scaling figures of make bench
 * (scripts/bench-scale.sh): time and memory against records per log.
 *
 *   bench_make_log N OUT.darshan
 *
 * The job has 256 processes. Record i is file /scratch/run/part.<i>,
 * opened by rank i % 256 alone, written in 1 MiB sequential writes (1 to 8
 * of them) in a window of the job that moves with i; every 16th file is
 * read back as well. Counters agree with that story, so features and
 * detection take their ordinary paths. The records come rank by rank, as
 * the Darshan runtime writes them, so the writer gives each rank its own
 * zlib stream, as the runtime does (spec 5.1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iosage/counters.h"
#include "iosage/darshan.h"

#define NPROCS 256
#define XFER ((int64_t)1 << 20)
#define RUNTIME 600.0

static void fill_posix(iosage_record *r, long i)
{
    int64_t *c = r->counters;
    double *f = r->fcounters;
    int64_t writes = 1 + i % 8, reads = i % 16 == 0 ? writes : 0;
    double t0 = RUNTIME * (double)(i % 1000) / 1000.0;
    memset(c, 0, (size_t)r->n_counters * sizeof *c);
    memset(f, 0, (size_t)r->n_fcounters * sizeof *f);
    c[IOSAGE_POSIX_OPENS] = reads ? 2 : 1;
    c[IOSAGE_POSIX_WRITES] = writes;
    c[IOSAGE_POSIX_READS] = reads;
    c[IOSAGE_POSIX_STATS] = 1;
    c[IOSAGE_POSIX_MODE] = 0644;
    c[IOSAGE_POSIX_BYTES_WRITTEN] = writes * XFER;
    c[IOSAGE_POSIX_BYTES_READ] = reads * XFER;
    c[IOSAGE_POSIX_MAX_BYTE_WRITTEN] = writes * XFER - 1;
    c[IOSAGE_POSIX_MAX_BYTE_READ] = reads ? reads * XFER - 1 : 0;
    c[IOSAGE_POSIX_CONSEC_WRITES] = writes - 1;
    c[IOSAGE_POSIX_SEQ_WRITES] = writes - 1;
    c[IOSAGE_POSIX_CONSEC_READS] = reads ? reads - 1 : 0;
    c[IOSAGE_POSIX_SEQ_READS] = reads ? reads - 1 : 0;
    c[IOSAGE_POSIX_RW_SWITCHES] = reads ? 1 : 0;
    c[IOSAGE_POSIX_MEM_ALIGNMENT] = 8;
    c[IOSAGE_POSIX_FILE_ALIGNMENT] = 4096;
    c[IOSAGE_POSIX_MAX_WRITE_TIME_SIZE] = XFER;
    c[IOSAGE_POSIX_MAX_READ_TIME_SIZE] = reads ? XFER : 0;
    c[IOSAGE_POSIX_SIZE_WRITE_1M_4M] = writes;
    c[IOSAGE_POSIX_SIZE_READ_1M_4M] = reads;
    c[IOSAGE_POSIX_ACCESS1_ACCESS] = XFER;
    c[IOSAGE_POSIX_ACCESS1_COUNT] = writes + reads;
    c[IOSAGE_POSIX_FASTEST_RANK] = r->rank;
    c[IOSAGE_POSIX_FASTEST_RANK_BYTES] = (writes + reads) * XFER;
    c[IOSAGE_POSIX_SLOWEST_RANK] = r->rank;
    c[IOSAGE_POSIX_SLOWEST_RANK_BYTES] = (writes + reads) * XFER;
    double wt = 0.002 * (double)writes, rt = 0.001 * (double)reads;
    f[IOSAGE_POSIX_F_OPEN_START_TIMESTAMP] = t0;
    f[IOSAGE_POSIX_F_OPEN_END_TIMESTAMP] = t0 + 0.0001;
    f[IOSAGE_POSIX_F_WRITE_START_TIMESTAMP] = t0 + 0.0002;
    f[IOSAGE_POSIX_F_WRITE_END_TIMESTAMP] = t0 + 0.0002 + wt;
    if (reads) {
        f[IOSAGE_POSIX_F_READ_START_TIMESTAMP] = t0 + 0.0003 + wt;
        f[IOSAGE_POSIX_F_READ_END_TIMESTAMP] = t0 + 0.0003 + wt + rt;
    }
    f[IOSAGE_POSIX_F_CLOSE_START_TIMESTAMP] = t0 + 0.0004 + wt + rt;
    f[IOSAGE_POSIX_F_CLOSE_END_TIMESTAMP] = t0 + 0.0005 + wt + rt;
    f[IOSAGE_POSIX_F_WRITE_TIME] = wt;
    f[IOSAGE_POSIX_F_READ_TIME] = rt;
    f[IOSAGE_POSIX_F_META_TIME] = 0.0002;
    f[IOSAGE_POSIX_F_MAX_WRITE_TIME] = 0.002;
    f[IOSAGE_POSIX_F_MAX_READ_TIME] = reads ? 0.001 : 0.0;
    f[IOSAGE_POSIX_F_FASTEST_RANK_TIME] = wt + rt;
    f[IOSAGE_POSIX_F_SLOWEST_RANK_TIME] = wt + rt;
}

static int fail(const char *what, iosage_error *err)
{
    char line[800];
    fprintf(stderr, "bench_make_log: %s: %s\n", what,
            iosage_error_line(err, line, sizeof line));
    return 1;
}

int main(int argc, char **argv)
{
    long n = argc == 3 ? strtol(argv[1], NULL, 10) : 0;
    if (n < 1) {
        fprintf(stderr, "usage: bench_make_log N OUT.darshan\n");
        return 2;
    }
    iosage_error err;
    iosage_log *log = iosage_log_create();
    if (!log)
        return 1;
    struct iosage_mount mount = {"/scratch", "lustre"};
    struct iosage_job job;
    memset(&job, 0, sizeof job);
    job.uid = 1000;
    job.jobid = 7;
    job.nprocs = NPROCS;
    job.start_time_sec = 1764662400;
    job.end_time_sec = 1764662400 + (int64_t)RUNTIME;
    snprintf(job.metadata, sizeof job.metadata, "lib_ver=3.4.7\n");
    job.exe = "/home/bench/writer";
    job.n_mounts = 1;
    job.mounts = &mount;
    if (iosage_log_set_job(log, &job, &err) != IOSAGE_OK)
        return fail("job", &err);

    iosage_record rec;
    memset(&rec, 0, sizeof rec);
    rec.module = IOSAGE_MOD_POSIX;
    rec.n_counters = iosage_counter_count(IOSAGE_MOD_POSIX);
    rec.n_fcounters = iosage_fcounter_count(IOSAGE_MOD_POSIX);
    rec.counters = calloc((size_t)rec.n_counters, sizeof *rec.counters);
    rec.fcounters = calloc((size_t)rec.n_fcounters, sizeof *rec.fcounters);
    if (!rec.counters || !rec.fcounters)
        return 1;
    for (long rank = 0; rank < NPROCS; rank++) { /* rank by rank */
        for (long i = rank; i < n; i += NPROCS) {
            char name[64];
            snprintf(name, sizeof name, "/scratch/run/part.%ld", i);
            rec.id = iosage_darshan_hash(name, strlen(name));
            rec.rank = rank;
            fill_posix(&rec, i);
            if (iosage_log_add_name(log, rec.id, name, &err) != IOSAGE_OK ||
                iosage_log_add_record(log, &rec, &err) != IOSAGE_OK)
                return fail("record", &err);
        }
    }
    iosage_status st = iosage_log_write(log, argv[2], &err);
    free(rec.counters);
    free(rec.fcounters);
    iosage_log_free(log);
    return st == IOSAGE_OK ? 0 : fail(argv[2], &err);
}
