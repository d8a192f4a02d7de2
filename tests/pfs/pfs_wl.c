/*
 * tests/pfs/pfs_wl.c - the workload of the pfs_preload test.
 *
 *   pfs_wl interleaved FILE    every rank writes 64 requests of 4 KiB, rank
 *                              r's request k at (k*nranks + r)*4 KiB
 *   pfs_wl blocks FILE         every rank writes its own 256 KiB block in
 *                              one request at r*256 KiB
 *   pfs_wl mpicreate FILE      MPI_File_open(MPI_MODE_CREATE) with the
 *                              hints striping_factor=3, striping_unit=2 MiB
 *
 * The same bytes either way. Rank 0 prints `seconds=S` (the slowest rank,
 * from a barrier after the open to after the close).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef PFS_WL_MPI
#include <mpi.h>
#endif

#define REQ 4096
#define NREQ 64

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fail(const char *what, const char *path)
{
    fprintf(stderr, "pfs_wl: %s: %s\n", path, what);
    exit(1);
}

int main(int argc, char **argv)
{
    int rank = 0, nranks = 1;
#ifdef PFS_WL_MPI
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
#endif
    if (argc != 3) {
        fprintf(stderr, "usage: pfs_wl interleaved|blocks|mpicreate FILE\n");
        return 2;
    }
    const char *mode = argv[1], *path = argv[2];
    if (strcmp(mode, "mpicreate") == 0) {
#ifdef PFS_WL_MPI
        MPI_Info info;
        MPI_File fh;
        MPI_Info_create(&info);
        MPI_Info_set(info, "striping_factor", "3");
        MPI_Info_set(info, "striping_unit", "2097152");
        if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                          info, &fh) != MPI_SUCCESS)
            fail("MPI_File_open failed", path);
        MPI_File_close(&fh);
        MPI_Info_free(&info);
        MPI_Finalize();
        return 0;
#else
        fail("built without MPI", path);
#endif
    }
    char *buf = malloc(NREQ * REQ);
    if (!buf)
        return 1;
    memset(buf, 'a' + rank, NREQ * REQ);
    /* rank 0 makes the file, then everyone opens it */
    if (rank == 0) {
        int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
        if (fd < 0)
            fail("cannot create", path);
        close(fd);
    }
#ifdef PFS_WL_MPI
    MPI_Barrier(MPI_COMM_WORLD);
#endif
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        fail("cannot open", path);
#ifdef PFS_WL_MPI
    MPI_Barrier(MPI_COMM_WORLD);
#endif
    double t0 = now();
    if (strcmp(mode, "interleaved") == 0) {
        for (int k = 0; k < NREQ; k++) {
            off_t off = ((off_t)k * nranks + rank) * REQ;
            if (pwrite(fd, buf + (size_t)k * REQ, REQ, off) != REQ)
                fail("write failed", path);
        }
    } else if (strcmp(mode, "blocks") == 0) {
        off_t off = (off_t)rank * NREQ * REQ;
        if (pwrite(fd, buf, NREQ * REQ, off) != NREQ * REQ)
            fail("write failed", path);
    } else {
        fail("unknown mode", mode);
    }
    close(fd);
    double secs = now() - t0, slowest = secs;
#ifdef PFS_WL_MPI
    MPI_Reduce(&secs, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
#endif
    if (rank == 0)
        printf("seconds=%.6f\n", slowest);
    free(buf);
#ifdef PFS_WL_MPI
    MPI_Finalize();
#endif
    return 0;
}
