/*
 * mpiio.c - PMPI wrappers: MPI_Init / MPI_Init_thread / MPI_Finalize and the
 * MPI-IO calls (format spec 10.8). Only in libiosage-trace-mpi.so.
 *
 * MPI_Init and MPI_Finalize suspend tracing for every thread while the MPI
 * library itself runs, so its start-up and shut-down I/O stays out of the
 * log. MPI_Finalize gathers every rank's records to rank 0, which reduces
 * the files every rank opened and writes the log (gather_and_write).
 *
 * Data wrappers all have the same shape: pass through unless tracing, time
 * the PMPI call, book it on success, return its result. Split collectives
 * count at _begin; the _end call adds its time only. Nonblocking calls are
 * booked when issued, with the time of the call that issued them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

/* A map key for a file handle, whatever type MPI_File has. */
static const void *fh_key(MPI_File fh)
{
    uintptr_t k = 0;
    memcpy(&k, &fh, sizeof fh < sizeof k ? sizeof fh : sizeof k);
    return (const void *)k;
}

/* count x size of datatype in bytes; 0 when the size is unknown. */
static int64_t req_bytes(int count, MPI_Datatype type)
{
    MPI_Count size = 0;
    if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size < 0)
        return 0;
    return (int64_t)count * (int64_t)size;
}

/* Book one data call that started at t0 and returned ret. */
static void book(MPI_File fh, int op, int kind, int count, MPI_Datatype type,
                 double t0, int ret)
{
    int err = errno;
    double t1 = trc_now();
    if (ret == MPI_SUCCESS)
        trc_mpiio_io(fh_key(fh), op, kind, req_bytes(count, type), t0, t1);
    errno = err;
}

/* Book the time of a split collective's _end call. */
static void book_end(MPI_File fh, int op, double t0, int ret)
{
    int err = errno;
    double t1 = trc_now();
    if (ret == MPI_SUCCESS)
        trc_mpiio_time(fh_key(fh), op, t0, t1);
    errno = err;
}

/* --- data calls ----------------------------------------------------------- */

int MPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    if (!trc_active())
        return PMPI_File_read(fh, buf, count, datatype, status);
    double t0 = trc_now();
    int ret = PMPI_File_read(fh, buf, count, datatype, status);
    book(fh, TRC_OP_READ, TRC_MPI_INDEP, count, datatype, t0, ret);
    return ret;
}

int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    if (!trc_active())
        return PMPI_File_read_at(fh, offset, buf, count, datatype, status);
    double t0 = trc_now();
    int ret = PMPI_File_read_at(fh, offset, buf, count, datatype, status);
    book(fh, TRC_OP_READ, TRC_MPI_INDEP, count, datatype, t0, ret);
    return ret;
}

int MPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    if (!trc_active())
        return PMPI_File_read_shared(fh, buf, count, datatype, status);
    double t0 = trc_now();
    int ret = PMPI_File_read_shared(fh, buf, count, datatype, status);
    book(fh, TRC_OP_READ, TRC_MPI_INDEP, count, datatype, t0, ret);
    return ret;
}

int MPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    if (!trc_active())
        return PMPI_File_read_all(fh, buf, count, datatype, status);
    double t0 = trc_now();
    int ret = PMPI_File_read_all(fh, buf, count, datatype, status);
    book(fh, TRC_OP_READ, TRC_MPI_COLL, count, datatype, t0, ret);
    return ret;
}

int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    if (!trc_active())
        return PMPI_File_read_at_all(fh, offset, buf, count, datatype, status);
    double t0 = trc_now();
    int ret = PMPI_File_read_at_all(fh, offset, buf, count, datatype, status);
    book(fh, TRC_OP_READ, TRC_MPI_COLL, count, datatype, t0, ret);
    return ret;
}

int MPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    if (!trc_active())
        return PMPI_File_read_ordered(fh, buf, count, datatype, status);
    double t0 = trc_now();
    int ret = PMPI_File_read_ordered(fh, buf, count, datatype, status);
    book(fh, TRC_OP_READ, TRC_MPI_COLL, count, datatype, t0, ret);
    return ret;
}

int MPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
    if (!trc_active())
        return PMPI_File_read_all_begin(fh, buf, count, datatype);
    double t0 = trc_now();
    int ret = PMPI_File_read_all_begin(fh, buf, count, datatype);
    book(fh, TRC_OP_READ, TRC_MPI_SPLIT, count, datatype, t0, ret);
    return ret;
}

int MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype)
{
    if (!trc_active())
        return PMPI_File_read_at_all_begin(fh, offset, buf, count, datatype);
    double t0 = trc_now();
    int ret = PMPI_File_read_at_all_begin(fh, offset, buf, count, datatype);
    book(fh, TRC_OP_READ, TRC_MPI_SPLIT, count, datatype, t0, ret);
    return ret;
}

int MPI_File_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
    if (!trc_active())
        return PMPI_File_read_ordered_begin(fh, buf, count, datatype);
    double t0 = trc_now();
    int ret = PMPI_File_read_ordered_begin(fh, buf, count, datatype);
    book(fh, TRC_OP_READ, TRC_MPI_SPLIT, count, datatype, t0, ret);
    return ret;
}

int MPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    if (!trc_active())
        return PMPI_File_iread(fh, buf, count, datatype, request);
    double t0 = trc_now();
    int ret = PMPI_File_iread(fh, buf, count, datatype, request);
    book(fh, TRC_OP_READ, TRC_MPI_NB, count, datatype, t0, ret);
    return ret;
}

int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    if (!trc_active())
        return PMPI_File_iread_at(fh, offset, buf, count, datatype, request);
    double t0 = trc_now();
    int ret = PMPI_File_iread_at(fh, offset, buf, count, datatype, request);
    book(fh, TRC_OP_READ, TRC_MPI_NB, count, datatype, t0, ret);
    return ret;
}

int MPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    if (!trc_active())
        return PMPI_File_iread_shared(fh, buf, count, datatype, request);
    double t0 = trc_now();
    int ret = PMPI_File_iread_shared(fh, buf, count, datatype, request);
    book(fh, TRC_OP_READ, TRC_MPI_NB, count, datatype, t0, ret);
    return ret;
}

int MPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    if (!trc_active())
        return PMPI_File_iread_all(fh, buf, count, datatype, request);
    double t0 = trc_now();
    int ret = PMPI_File_iread_all(fh, buf, count, datatype, request);
    book(fh, TRC_OP_READ, TRC_MPI_NB, count, datatype, t0, ret);
    return ret;
}

int MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    if (!trc_active())
        return PMPI_File_iread_at_all(fh, offset, buf, count, datatype, request);
    double t0 = trc_now();
    int ret = PMPI_File_iread_at_all(fh, offset, buf, count, datatype, request);
    book(fh, TRC_OP_READ, TRC_MPI_NB, count, datatype, t0, ret);
    return ret;
}

int MPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    if (!trc_active())
        return PMPI_File_write(fh, buf, count, datatype, status);
    double t0 = trc_now();
    int ret = PMPI_File_write(fh, buf, count, datatype, status);
    book(fh, TRC_OP_WRITE, TRC_MPI_INDEP, count, datatype, t0, ret);
    return ret;
}

int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    if (!trc_active())
        return PMPI_File_write_at(fh, offset, buf, count, datatype, status);
    double t0 = trc_now();
    int ret = PMPI_File_write_at(fh, offset, buf, count, datatype, status);
    book(fh, TRC_OP_WRITE, TRC_MPI_INDEP, count, datatype, t0, ret);
    return ret;
}

int MPI_File_write_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    if (!trc_active())
        return PMPI_File_write_shared(fh, buf, count, datatype, status);
    double t0 = trc_now();
    int ret = PMPI_File_write_shared(fh, buf, count, datatype, status);
    book(fh, TRC_OP_WRITE, TRC_MPI_INDEP, count, datatype, t0, ret);
    return ret;
}

int MPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    if (!trc_active())
        return PMPI_File_write_all(fh, buf, count, datatype, status);
    double t0 = trc_now();
    int ret = PMPI_File_write_all(fh, buf, count, datatype, status);
    book(fh, TRC_OP_WRITE, TRC_MPI_COLL, count, datatype, t0, ret);
    return ret;
}

int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    if (!trc_active())
        return PMPI_File_write_at_all(fh, offset, buf, count, datatype, status);
    double t0 = trc_now();
    int ret = PMPI_File_write_at_all(fh, offset, buf, count, datatype, status);
    book(fh, TRC_OP_WRITE, TRC_MPI_COLL, count, datatype, t0, ret);
    return ret;
}

int MPI_File_write_ordered(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    if (!trc_active())
        return PMPI_File_write_ordered(fh, buf, count, datatype, status);
    double t0 = trc_now();
    int ret = PMPI_File_write_ordered(fh, buf, count, datatype, status);
    book(fh, TRC_OP_WRITE, TRC_MPI_COLL, count, datatype, t0, ret);
    return ret;
}

int MPI_File_write_all_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
    if (!trc_active())
        return PMPI_File_write_all_begin(fh, buf, count, datatype);
    double t0 = trc_now();
    int ret = PMPI_File_write_all_begin(fh, buf, count, datatype);
    book(fh, TRC_OP_WRITE, TRC_MPI_SPLIT, count, datatype, t0, ret);
    return ret;
}

int MPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype)
{
    if (!trc_active())
        return PMPI_File_write_at_all_begin(fh, offset, buf, count, datatype);
    double t0 = trc_now();
    int ret = PMPI_File_write_at_all_begin(fh, offset, buf, count, datatype);
    book(fh, TRC_OP_WRITE, TRC_MPI_SPLIT, count, datatype, t0, ret);
    return ret;
}

int MPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
    if (!trc_active())
        return PMPI_File_write_ordered_begin(fh, buf, count, datatype);
    double t0 = trc_now();
    int ret = PMPI_File_write_ordered_begin(fh, buf, count, datatype);
    book(fh, TRC_OP_WRITE, TRC_MPI_SPLIT, count, datatype, t0, ret);
    return ret;
}

int MPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    if (!trc_active())
        return PMPI_File_iwrite(fh, buf, count, datatype, request);
    double t0 = trc_now();
    int ret = PMPI_File_iwrite(fh, buf, count, datatype, request);
    book(fh, TRC_OP_WRITE, TRC_MPI_NB, count, datatype, t0, ret);
    return ret;
}

int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    if (!trc_active())
        return PMPI_File_iwrite_at(fh, offset, buf, count, datatype, request);
    double t0 = trc_now();
    int ret = PMPI_File_iwrite_at(fh, offset, buf, count, datatype, request);
    book(fh, TRC_OP_WRITE, TRC_MPI_NB, count, datatype, t0, ret);
    return ret;
}

int MPI_File_iwrite_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    if (!trc_active())
        return PMPI_File_iwrite_shared(fh, buf, count, datatype, request);
    double t0 = trc_now();
    int ret = PMPI_File_iwrite_shared(fh, buf, count, datatype, request);
    book(fh, TRC_OP_WRITE, TRC_MPI_NB, count, datatype, t0, ret);
    return ret;
}

int MPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    if (!trc_active())
        return PMPI_File_iwrite_all(fh, buf, count, datatype, request);
    double t0 = trc_now();
    int ret = PMPI_File_iwrite_all(fh, buf, count, datatype, request);
    book(fh, TRC_OP_WRITE, TRC_MPI_NB, count, datatype, t0, ret);
    return ret;
}

int MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    if (!trc_active())
        return PMPI_File_iwrite_at_all(fh, offset, buf, count, datatype, request);
    double t0 = trc_now();
    int ret = PMPI_File_iwrite_at_all(fh, offset, buf, count, datatype, request);
    book(fh, TRC_OP_WRITE, TRC_MPI_NB, count, datatype, t0, ret);
    return ret;
}

/* --- split collective ends ------------------------------------------------- */

int MPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    if (!trc_active())
        return PMPI_File_read_all_end(fh, buf, status);
    double t0 = trc_now();
    int ret = PMPI_File_read_all_end(fh, buf, status);
    book_end(fh, TRC_OP_READ, t0, ret);
    return ret;
}

int MPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    if (!trc_active())
        return PMPI_File_read_at_all_end(fh, buf, status);
    double t0 = trc_now();
    int ret = PMPI_File_read_at_all_end(fh, buf, status);
    book_end(fh, TRC_OP_READ, t0, ret);
    return ret;
}

int MPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status)
{
    if (!trc_active())
        return PMPI_File_read_ordered_end(fh, buf, status);
    double t0 = trc_now();
    int ret = PMPI_File_read_ordered_end(fh, buf, status);
    book_end(fh, TRC_OP_READ, t0, ret);
    return ret;
}

int MPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    if (!trc_active())
        return PMPI_File_write_all_end(fh, buf, status);
    double t0 = trc_now();
    int ret = PMPI_File_write_all_end(fh, buf, status);
    book_end(fh, TRC_OP_WRITE, t0, ret);
    return ret;
}

int MPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    if (!trc_active())
        return PMPI_File_write_at_all_end(fh, buf, status);
    double t0 = trc_now();
    int ret = PMPI_File_write_at_all_end(fh, buf, status);
    book_end(fh, TRC_OP_WRITE, t0, ret);
    return ret;
}

int MPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    if (!trc_active())
        return PMPI_File_write_ordered_end(fh, buf, status);
    double t0 = trc_now();
    int ret = PMPI_File_write_ordered_end(fh, buf, status);
    book_end(fh, TRC_OP_WRITE, t0, ret);
    return ret;
}

/* --- open, close, sync, view ------------------------------------------------ */

int MPI_File_open(MPI_Comm comm, const char *filename, int amode,
                  MPI_Info info, MPI_File *fh)
{
    if (!trc_active())
        return PMPI_File_open(comm, filename, amode, info, fh);
    double t0 = trc_now();
    int ret = PMPI_File_open(comm, filename, amode, info, fh);
    int err = errno;
    double t1 = trc_now();
    int size = 1;
    if (ret == MPI_SUCCESS && PMPI_Comm_size(comm, &size) == MPI_SUCCESS)
        trc_mpiio_open(fh_key(*fh), filename, amode, size,
                       info != MPI_INFO_NULL, t0, t1);
    errno = err;
    return ret;
}

int MPI_File_close(MPI_File *fh)
{
    if (!trc_active() || !fh)
        return PMPI_File_close(fh);
    MPI_File h = *fh; /* PMPI_File_close resets *fh */
    double t0 = trc_now();
    int ret = PMPI_File_close(fh);
    int err = errno;
    double t1 = trc_now();
    if (ret == MPI_SUCCESS)
        trc_mpiio_close(fh_key(h), t0, t1);
    errno = err;
    return ret;
}

int MPI_File_sync(MPI_File fh)
{
    if (!trc_active())
        return PMPI_File_sync(fh);
    double t0 = trc_now();
    int ret = PMPI_File_sync(fh);
    int err = errno;
    double t1 = trc_now();
    if (ret == MPI_SUCCESS)
        trc_mpiio_sync(fh_key(fh), t0, t1);
    errno = err;
    return ret;
}

int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                      MPI_Datatype filetype, const char *datarep,
                      MPI_Info info)
{
    if (!trc_active())
        return PMPI_File_set_view(fh, disp, etype, filetype, datarep, info);
    double t0 = trc_now();
    int ret = PMPI_File_set_view(fh, disp, etype, filetype, datarep, info);
    int err = errno;
    double t1 = trc_now();
    if (ret == MPI_SUCCESS)
        trc_mpiio_view(fh_key(fh), info != MPI_INFO_NULL, t0, t1);
    errno = err;
    return ret;
}

/* --- start-up ---------------------------------------------------------------- */

/* After a successful MPI_Init: remember this process's rank and the size
 * of the job. */
static void mpi_started(void)
{
    int rank = 0, size = 1;
    if (PMPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS ||
        PMPI_Comm_size(MPI_COMM_WORLD, &size) != MPI_SUCCESS)
        return;
    g_rank = rank;
    g_nprocs = size;
    g_mpi_started = 1;
    trc_start_job_clock(); /* the runtime's job starts here too */
}

int MPI_Init(int *argc, char ***argv)
{
    trc_suspend();
    int ret = PMPI_Init(argc, argv);
    trc_resume();
    if (ret == MPI_SUCCESS)
        mpi_started();
    return ret;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    trc_suspend();
    int ret = PMPI_Init_thread(argc, argv, required, provided);
    trc_resume();
    if (ret == MPI_SUCCESS)
        mpi_started();
    return ret;
}

/* --- shut-down ---------------------------------------------------------------- */

/* What every rank holds while the records travel to rank 0. */
struct gather {
    int rank, size;
    struct trc_buf blob;  /* this rank's records */
    int *lens, *displs;   /* rank 0: blob sizes and offsets */
    unsigned char *all;   /* rank 0: every blob */
};

/* Stop tracing and serialize this rank's records (lock held briefly, to
 * wait for calls being booked on other threads). */
static void take_records(struct gather *g)
{
    struct timespec end;
    trc_suspend();
    trc_wall_now(&end);
    pthread_mutex_lock(&g_lock);
    g_written = 1;
    trc_serialize_all(&g->blob, g->rank, &end);
    pthread_mutex_unlock(&g_lock);
}

/* Fallback when the records cannot be gathered: each rank writes its own. */
static void write_own(struct gather *g)
{
    struct trc_proc proc;
    char suffix[32];
    snprintf(suffix, sizeof suffix, ".rank%d", g->rank);
    if (!g->blob.oom && trc_parse_proc(g->blob.p, g->blob.len, &proc) == 0) {
        trc_write_log(&proc, 1, g->size, 0, suffix);
        free(proc.recs);
    }
}

/* Rank 0: parse every blob and write the reduced log. */
static void write_all(struct gather *g)
{
    struct trc_proc *procs = calloc((size_t)g->size, sizeof *procs);
    if (!procs) {
        trc_warn("cannot build the log: out of memory");
        return;
    }
    for (int r = 0; r < g->size; r++) {
        const unsigned char *p = g->all + g->displs[r];
        if (trc_parse_proc(p, (size_t)g->lens[r], &procs[r]) != 0) {
            trc_warn("records of rank %d are unreadable; left out", r);
            procs[r] = procs[0];
            procs[r].n = 0;
            procs[r].recs = NULL;
            procs[r].rank = r;
            memset(procs[r].heat, 0, sizeof procs[r].heat);
        }
    }
    trc_write_log(procs, g->size, g->size, 1, NULL);
    for (int r = 0; r < g->size; r++)
        free(procs[r].recs);
    free(procs);
}

/* Rank 0: sizes known, allocate the receive side. 1 when the gather can
 * go ahead (everything fits in int counts and memory). */
static int plan_gather(struct gather *g)
{
    long long total = 0;
    for (int r = 0; r < g->size; r++) {
        if (g->lens[r] < 0)
            return 0;
        g->displs[r] = (int)total;
        total += g->lens[r];
        if (total > INT_MAX)
            return 0;
    }
    g->all = malloc((size_t)total + 1);
    return g->all != NULL;
}

/* Collective over MPI_COMM_WORLD; every rank calls it exactly once. */
static void gather_and_write(void)
{
    struct gather g;
    memset(&g, 0, sizeof g);
    PMPI_Comm_rank(MPI_COMM_WORLD, &g.rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &g.size);
    take_records(&g);
    int len = !g.blob.oom && g.blob.len <= INT_MAX ? (int)g.blob.len : -1;
    if (g.rank == 0) {
        g.lens = calloc((size_t)g.size, sizeof *g.lens);
        g.displs = calloc((size_t)g.size, sizeof *g.displs);
    }
    int ok = g.rank != 0 || (g.lens && g.displs), all_ok = 0;
    PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    int go = 0;
    if (all_ok) {
        PMPI_Gather(&len, 1, MPI_INT, g.lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (g.rank == 0)
            go = plan_gather(&g);
        PMPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    if (go) {
        PMPI_Gatherv(g.blob.p, len, MPI_BYTE, g.all, g.lens, g.displs,
                     MPI_BYTE, 0, MPI_COMM_WORLD);
        if (g.rank == 0)
            write_all(&g);
    } else {
        if (g.rank == 0)
            trc_warn("records cannot be gathered; one log per rank");
        write_own(&g);
    }
    free(g.blob.p);
    free(g.lens);
    free(g.displs);
    free(g.all);
}

int MPI_Finalize(void)
{
    if (trc_initialized() && !g_written) {
        int old = tl_busy;
        tl_busy = 1;
        gather_and_write();
        tl_busy = old;
    }
    trc_suspend();
    return PMPI_Finalize();
}
