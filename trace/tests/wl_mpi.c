/*
 * wl_mpi.c - an MPI program with known MPI-IO and POSIX I/O, run under
 * libiosage-trace-mpi.so with 2 and 4 ranks; chk_mpi.c states the counters.
 *
 *   mpirun -np N wl_mpi DIR
 *
 * Every rank:
 *   shared.dat (MPI-IO, MPI_COMM_WORLD, CREATE|RDWR):
 *     8 x MPI_File_write_at_all of 4096 B at (i*N + rank)*4096
 *     4 x MPI_File_write_at of 1000 B (independent)
 *     2 x MPI_File_iwrite_at of 4096 B + MPI_Wait (nonblocking)
 *     1 x MPI_File_write_at_all_begin/_end of 4096 B (split)
 *     MPI_File_sync, MPI_File_set_view (MPI_INFO_NULL)
 *     8 x MPI_File_read_at_all of 4096 B
 *   all.posix (POSIX): one pwrite of (rank+1)*1024 B at rank*4096
 *   rank<r>.posix (POSIX): 10 writes of 256 B
 * Rank 0 only:
 *   rank0.dat (MPI-IO, MPI_COMM_SELF, CREATE|WRONLY): 10 x MPI_File_write
 *     of 1024 B
 */
#include <fcntl.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BLK 4096
#define PRE_INIT_NS 300000000 /* 0.3 s */

static int failures;

/* dir/name in out[PATH_MAX]; exits when it does not fit. */
static void path_of(char *out, const char *dir, const char *name)
{
    int n = snprintf(out, PATH_MAX, "%s/%s", dir, name);
    if (n < 0 || n >= PATH_MAX) {
        fprintf(stderr, "wl_mpi: path too long\n");
        exit(2);
    }
}

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "wl_mpi: %s failed\n", what);
        failures++;
    }
}

static void shared_file(const char *dir, int rank, int np)
{
    static char buf[BLK];
    char path[PATH_MAX];
    MPI_File fh;
    MPI_Status st;
    MPI_Request req;
    path_of(path, dir, "shared.dat");
    expect(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
                         MPI_INFO_NULL, &fh) == MPI_SUCCESS, "open shared");
    for (int i = 0; i < 8; i++)
        expect(MPI_File_write_at_all(fh, (MPI_Offset)(i * np + rank) * BLK, buf,
                                     BLK, MPI_BYTE, &st) == MPI_SUCCESS,
               "write_at_all");
    MPI_Offset tail = (MPI_Offset)8 * np * BLK;
    for (int i = 0; i < 4; i++)
        expect(MPI_File_write_at(fh, tail + (MPI_Offset)(rank * 4 + i) * 1000,
                                 buf, 1000, MPI_BYTE, &st) == MPI_SUCCESS,
               "write_at");
    tail += (MPI_Offset)np * 4000;
    for (int i = 0; i < 2; i++) {
        expect(MPI_File_iwrite_at(fh, tail + (MPI_Offset)(rank * 2 + i) * BLK,
                                  buf, BLK, MPI_BYTE, &req) == MPI_SUCCESS,
               "iwrite_at");
        MPI_Wait(&req, &st);
    }
    tail += (MPI_Offset)np * 2 * BLK;
    expect(MPI_File_write_at_all_begin(fh, tail + (MPI_Offset)rank * BLK, buf,
                                       BLK, MPI_BYTE) == MPI_SUCCESS,
           "write_at_all_begin");
    MPI_File_write_at_all_end(fh, buf, &st);
    expect(MPI_File_sync(fh) == MPI_SUCCESS, "sync");
    expect(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native",
                             MPI_INFO_NULL) == MPI_SUCCESS, "set_view");
    for (int i = 0; i < 8; i++)
        expect(MPI_File_read_at_all(fh, (MPI_Offset)(i * np + rank) * BLK, buf,
                                    BLK, MPI_BYTE, &st) == MPI_SUCCESS,
               "read_at_all");
    expect(MPI_File_close(&fh) == MPI_SUCCESS, "close shared");
}

static void rank0_file(const char *dir)
{
    static char buf[1024];
    char path[PATH_MAX];
    MPI_File fh;
    MPI_Status st;
    path_of(path, dir, "rank0.dat");
    expect(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                         MPI_INFO_NULL, &fh) == MPI_SUCCESS, "open rank0");
    for (int i = 0; i < 10; i++)
        expect(MPI_File_write(fh, buf, 1024, MPI_BYTE, &st) == MPI_SUCCESS,
               "write rank0");
    expect(MPI_File_close(&fh) == MPI_SUCCESS, "close rank0");
}

static void posix_files(const char *dir, int rank)
{
    static char buf[4096];
    char path[PATH_MAX];
    path_of(path, dir, "all.posix");
    int fd = open(path, O_CREAT | O_WRONLY, 0644);
    expect(fd >= 0, "open all.posix");
    size_t n = (size_t)(rank + 1) * 1024;
    expect(pwrite(fd, buf, n, (off_t)rank * 4096) == (ssize_t)n, "pwrite");
    close(fd);
    char name[32];
    snprintf(name, sizeof name, "rank%d.posix", rank);
    path_of(path, dir, name);
    fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    for (int i = 0; i < 10; i++)
        expect(write(fd, buf, 256) == 256, "write rank file");
    close(fd);
}

/* Wall-clock seconds. */
static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* After MPI_Finalize (untraced): dir/times.<rank> holds the wall times
 * before and after MPI_Init and MPI_Finalize, for the job's start and end. */
static void write_times(const char *dir, int rank, const double t[4])
{
    char path[PATH_MAX], name[32];
    snprintf(name, sizeof name, "times.%d", rank);
    path_of(path, dir, name);
    FILE *fp = fopen(path, "w");
    expect(fp != NULL, "open times");
    if (fp) {
        fprintf(fp, "%.6f %.6f %.6f %.6f\n", t[0], t[1], t[2], t[3]);
        fclose(fp);
    }
}

int main(int argc, char **argv)
{
    char dir[PATH_MAX];
    int rank, np;
    double t[4];
    /* a pause before MPI_Init that the job's run time must not include */
    struct timespec pause = {0, PRE_INIT_NS};
    nanosleep(&pause, NULL);
    t[0] = wall();
    MPI_Init(&argc, &argv);
    t[1] = wall();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc != 2 || !realpath(argv[1], dir)) {
        if (rank == 0)
            fprintf(stderr, "usage: wl_mpi EXISTING_DIR\n");
        MPI_Finalize();
        return 2;
    }
    shared_file(dir, rank, np);
    if (rank == 0)
        rank0_file(dir);
    posix_files(dir, rank);
    MPI_Barrier(MPI_COMM_WORLD);
    t[2] = wall();
    MPI_Finalize();
    t[3] = wall();
    write_times(dir, rank, t);
    return failures ? 1 : 0;
}
