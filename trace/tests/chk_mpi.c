/*
 * chk_mpi.c - the counters wl_mpi must produce under libiosage-trace-mpi.so.
 *
 *   chk_mpi LOG DIR NPROCS
 *
 * Per rank wl_mpi writes 8 x 4096 B collectively, 4 x 1000 B independently,
 * 2 x 4096 B nonblocking and 1 x 4096 B split-collectively to shared.dat,
 * then reads 8 x 4096 B collectively. Files every rank opened come back as
 * one rank -1 record with summed counters (format spec 11).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static char dir[PATH_MAX];
static int np;

static const char *in_dir(const char *name)
{
    static char buf[4][PATH_MAX];
    static int next;
    char *out = buf[next++ % 4];
    int n = snprintf(out, PATH_MAX, "%s/%s", dir, name);
    if (n < 0 || n >= PATH_MAX) {
        fprintf(stderr, "check: path too long\n");
        exit(2);
    }
    return out;
}

#define W_PER_RANK (8 * 4096 + 4 * 1000 + 2 * 4096 + 4096) /* 49056 */
#define R_PER_RANK (8 * 4096)

static void check_shared_mpiio(const iosage_log *log)
{
    const char *name = in_dir("shared.dat");
    const iosage_record *r = chk_rec(log, IOSAGE_MOD_MPIIO, name, -1);
    chk_true(chk_count_name(log, IOSAGE_MOD_MPIIO, name) == 1,
             "shared.dat has one MPI-IO record (rank -1 only)");
    CI(r, MPIIO_COLL_OPENS, np);
    CI(r, MPIIO_INDEP_OPENS, 0);
    CI(r, MPIIO_COLL_WRITES, 8 * np);
    CI(r, MPIIO_INDEP_WRITES, 4 * np);
    CI(r, MPIIO_NB_WRITES, 2 * np);
    CI(r, MPIIO_SPLIT_WRITES, np);
    CI(r, MPIIO_COLL_READS, 8 * np);
    CI(r, MPIIO_INDEP_READS, 0);
    CI(r, MPIIO_NB_READS, 0);
    CI(r, MPIIO_SPLIT_READS, 0);
    CI(r, MPIIO_SYNCS, np);
    CI(r, MPIIO_VIEWS, np);
    CI(r, MPIIO_HINTS, 0);
    CI(r, MPIIO_MODE, 9); /* MPI_MODE_CREATE | MPI_MODE_RDWR in Open MPI */
    CI(r, MPIIO_BYTES_WRITTEN, (int64_t)np * W_PER_RANK);
    CI(r, MPIIO_BYTES_READ, (int64_t)np * R_PER_RANK);
    CI(r, MPIIO_RW_SWITCHES, np);
    CI(r, MPIIO_SIZE_WRITE_AGG_1K_10K, 11 * np);
    CI(r, MPIIO_SIZE_WRITE_AGG_100_1K, 4 * np);
    CI(r, MPIIO_SIZE_READ_AGG_1K_10K, 8 * np);
    CI(r, MPIIO_SIZE_READ_AGG_0_100, 0);
    CI(r, MPIIO_ACCESS1_ACCESS, 4096);
    CI(r, MPIIO_ACCESS1_COUNT, 19 * np);
    CI(r, MPIIO_ACCESS2_ACCESS, 1000);
    CI(r, MPIIO_ACCESS2_COUNT, 4 * np);
    CI(r, MPIIO_ACCESS3_COUNT, 0);
    CI(r, MPIIO_MAX_READ_TIME_SIZE, 4096);
    if (r) {
        int64_t ws = r->counters[IOSAGE_MPIIO_MAX_WRITE_TIME_SIZE];
        chk_true(ws == 4096 || ws == 1000, "MAX_WRITE_TIME_SIZE is a request size");
        int64_t fr = r->counters[IOSAGE_MPIIO_FASTEST_RANK];
        int64_t sr = r->counters[IOSAGE_MPIIO_SLOWEST_RANK];
        chk_true(fr >= 0 && fr < np && sr >= 0 && sr < np, "fastest/slowest ranks");
    }
    CI(r, MPIIO_FASTEST_RANK_BYTES, W_PER_RANK + R_PER_RANK);
    CI(r, MPIIO_SLOWEST_RANK_BYTES, W_PER_RANK + R_PER_RANK);
    CF_EQ(r, MPIIO_F_VARIANCE_RANK_BYTES, 0.0);
    CF_LE(r, MPIIO_F_FASTEST_RANK_TIME, MPIIO_F_SLOWEST_RANK_TIME);
    CF_POS(r, MPIIO_F_SLOWEST_RANK_TIME);
    CF_POS(r, MPIIO_F_WRITE_TIME);
    CF_POS(r, MPIIO_F_READ_TIME);
    CF_POS(r, MPIIO_F_META_TIME);
    CF_POS(r, MPIIO_F_OPEN_START_TIMESTAMP);
    CF_LE(r, MPIIO_F_OPEN_START_TIMESTAMP, MPIIO_F_WRITE_START_TIMESTAMP);
    CF_LE(r, MPIIO_F_WRITE_START_TIMESTAMP, MPIIO_F_WRITE_END_TIMESTAMP);
    CF_LE(r, MPIIO_F_READ_START_TIMESTAMP, MPIIO_F_READ_END_TIMESTAMP);
    CF_LE(r, MPIIO_F_CLOSE_START_TIMESTAMP, MPIIO_F_CLOSE_END_TIMESTAMP);
    if (r)
        chk_true(r->fcounters[IOSAGE_MPIIO_F_VARIANCE_RANK_TIME] >= 0.0,
                 "time variance >= 0");
}

/* The MPI library's own POSIX calls on shared.dat: one reduced record. */
static void check_shared_posix(const iosage_log *log)
{
    const char *name = in_dir("shared.dat");
    const iosage_record *r = chk_rec(log, IOSAGE_MOD_POSIX, name, -1);
    chk_true(chk_count_name(log, IOSAGE_MOD_POSIX, name) == 1,
             "shared.dat has one POSIX record (rank -1 only)");
    if (!r)
        return;
    chk_true(r->counters[IOSAGE_POSIX_OPENS] >= np, "POSIX opens of shared.dat");
    /* ompio writes each byte once (two-phase for the collectives, aio for
     * the nonblocking and split calls) and reads the collective reads once */
    CI(r, POSIX_BYTES_WRITTEN, (int64_t)np * W_PER_RANK);
    CI(r, POSIX_BYTES_READ, (int64_t)np * R_PER_RANK);
}

/* all.posix: rank r pwrites (r+1) KiB at r*4096. */
static void check_all_posix(const iosage_log *log)
{
    const iosage_record *r = chk_rec(log, IOSAGE_MOD_POSIX, in_dir("all.posix"), -1);
    int64_t sum = 1024LL * np * (np + 1) / 2;
    CI(r, POSIX_OPENS, np);
    CI(r, POSIX_WRITES, np);
    CI(r, POSIX_BYTES_WRITTEN, sum);
    CI(r, POSIX_MAX_BYTE_WRITTEN, (int64_t)(np - 1) * 4096 + np * 1024 - 1);
    CI(r, POSIX_SEQ_WRITES, np - 1);
    CI(r, POSIX_CONSEC_WRITES, 0);
    CI(r, POSIX_SIZE_WRITE_100_1K, 1);       /* rank 0: exactly 1024 */
    CI(r, POSIX_SIZE_WRITE_1K_10K, np - 1);
    CI(r, POSIX_MODE, 0644);
    CI(r, POSIX_FILE_NOT_ALIGNED, 0);
    /* every rank's size is seen once: ties go to the larger value */
    CI(r, POSIX_ACCESS1_ACCESS, 1024LL * (np < 4 ? np : 4));
    CI(r, POSIX_ACCESS1_COUNT, 1);
    CI(r, POSIX_ACCESS2_ACCESS, 1024LL * (np - 1));
    /* one access per rank: a first access is no stride (as the runtime) */
    CI(r, POSIX_STRIDE1_STRIDE, 0);
    CI(r, POSIX_STRIDE1_COUNT, 0);
    CI(r, POSIX_STRIDE2_STRIDE, 0);
    if (r) {
        int64_t fr = r->counters[IOSAGE_POSIX_FASTEST_RANK];
        int64_t sr = r->counters[IOSAGE_POSIX_SLOWEST_RANK];
        chk_true(fr >= 0 && fr < np && sr >= 0 && sr < np, "POSIX fastest/slowest");
        CI(r, POSIX_FASTEST_RANK_BYTES, (fr + 1) * 1024);
        CI(r, POSIX_SLOWEST_RANK_BYTES, (sr + 1) * 1024);
    }
    /* population variance of {1, 2, ..., np} KiB = 1024^2 (np^2 - 1) / 12 */
    CF_EQ(r, POSIX_F_VARIANCE_RANK_BYTES, 1048576.0 * (np * np - 1) / 12.0);
}

static void check_private(const iosage_log *log)
{
    for (int k = 0; k < np; k++) {
        char name[32];
        snprintf(name, sizeof name, "rank%d.posix", k);
        const iosage_record *r = chk_rec(log, IOSAGE_MOD_POSIX, in_dir(name), k);
        CI(r, POSIX_WRITES, 10);
        CI(r, POSIX_BYTES_WRITTEN, 2560);
        CI(r, POSIX_CONSEC_WRITES, 9);
        CI(r, POSIX_FASTEST_RANK, 0);
        CF_EQ(r, POSIX_F_VARIANCE_RANK_TIME, 0.0);
    }
    const iosage_record *r = chk_rec(log, IOSAGE_MOD_MPIIO, in_dir("rank0.dat"), 0);
    CI(r, MPIIO_INDEP_OPENS, 1);
    CI(r, MPIIO_COLL_OPENS, 0);
    CI(r, MPIIO_INDEP_WRITES, 10);
    CI(r, MPIIO_BYTES_WRITTEN, 10240);
    CI(r, MPIIO_SIZE_WRITE_AGG_100_1K, 10);
    CI(r, MPIIO_ACCESS1_ACCESS, 1024);
    CI(r, MPIIO_ACCESS1_COUNT, 10);
    CI(r, MPIIO_MODE, 5); /* CREATE | WRONLY */
}

/* Record order inside a module: rank 0's own, shared, then ranks 1.. */
static void check_order(const iosage_log *log, int module)
{
    const iosage_module_data *m = &log->modules[module];
    int64_t prev = -1;
    for (size_t i = 0; i < m->n_records; i++) {
        int64_t rk = m->records[i].rank;
        int64_t key = rk == 0 ? 0 : rk == -1 ? 1 : rk + 1;
        chk_true(key >= prev, "records ordered rank 0, shared, ranks 1..");
        prev = key;
    }
}

/* Records of module under prefix, leaving out Open MPI's own lock-test
 * files (<file>.locktest.<rank>, created by ompio next to the data file). */
static int count_ours(const iosage_log *log, int module, const char *prefix)
{
    const iosage_module_data *m = &log->modules[module];
    int n = 0;
    for (size_t i = 0; i < m->n_records; i++) {
        const char *nm = iosage_log_name(log, m->records[i].id);
        if (nm && strncmp(nm, prefix, strlen(prefix)) == 0 &&
            !strstr(nm, ".locktest."))
            n++;
    }
    return n;
}

static void check_totals(const iosage_log *log)
{
    char prefix[PATH_MAX + 1];
    snprintf(prefix, sizeof prefix, "%s/", dir);
    /* shared.dat all.posix rank0.dat and np rank files */
    chk_true(count_ours(log, IOSAGE_MOD_POSIX, prefix) == np + 3,
             "POSIX records under the test directory");
    chk_true(chk_count(log, IOSAGE_MOD_MPIIO, prefix) == 2,
             "MPI-IO records: shared.dat and rank0.dat");
    chk_true(log->job.nprocs == np, "job nprocs");
    chk_true(log->job.exe && strstr(log->job.exe, "wl_mpi") != NULL, "exe");
    check_order(log, IOSAGE_MOD_POSIX);
    check_order(log, IOSAGE_MOD_MPIIO);
}

/* The job runs from MPI_Init to MPI_Finalize, as the runtime measures it:
 * its start lies between the earliest moment any rank called MPI_Init
 * (after a 0.3 s pause that must not count) and the earliest return, its
 * end between the latest call of MPI_Finalize and the latest return
 * (dir/times.<rank>, written by wl_mpi). 5 ms allow for the tracer's
 * monotonic-to-wall conversion. */
static void check_job_times(const iosage_log *log)
{
    double init_call = 1e300, init_ret = 1e300, fin_call = 0, fin_ret = 0;
    for (int r = 0; r < np; r++) {
        char path[PATH_MAX + 32];
        double t[4];
        snprintf(path, sizeof path, "%s/times.%d", dir, r);
        FILE *fp = fopen(path, "r");
        int ok = fp && fscanf(fp, "%lf %lf %lf %lf", &t[0], &t[1], &t[2],
                              &t[3]) == 4;
        if (fp)
            fclose(fp);
        chk_true(ok, "wl_mpi times file");
        if (!ok)
            return;
        init_call = t[0] < init_call ? t[0] : init_call;
        init_ret = t[1] < init_ret ? t[1] : init_ret;
        fin_call = t[2] > fin_call ? t[2] : fin_call;
        fin_ret = t[3] > fin_ret ? t[3] : fin_ret;
    }
    const struct iosage_job *j = &log->job;
    double start = (double)j->start_time_sec + (double)j->start_time_nsec * 1e-9;
    double end = (double)j->end_time_sec + (double)j->end_time_nsec * 1e-9;
    chk_true(start >= init_call - 0.005 && start <= init_ret + 0.005,
             "job starts when MPI_Init returns");
    chk_true(end >= fin_call - 0.005 && end <= fin_ret + 0.005,
             "job ends when MPI_Finalize is called");
}

int main(int argc, char **argv)
{
    char *end = NULL;
    if (argc == 4)
        np = (int)strtol(argv[3], &end, 10);
    if (argc != 4 || !realpath(argv[2], dir) || *end != '\0' || np < 2) {
        fprintf(stderr, "usage: chk_mpi LOG DIR NPROCS(>=2)\n");
        return 2;
    }
    iosage_log *log = chk_load(argv[1]);
    check_shared_mpiio(log);
    check_shared_posix(log);
    check_all_posix(log);
    check_private(log);
    check_totals(log);
    check_job_times(log);
    iosage_log_free(log);
    return chk_done("chk_mpi");
}
