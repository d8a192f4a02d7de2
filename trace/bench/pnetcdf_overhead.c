/*
 * pnetcdf_overhead.c - what the tracer's PnetCDF wrappers add to a call:
 * paired blocks of ncmpi_put_vara_uchar (independent mode, 64 bytes, one
 * process) alternately through the program's function (the tracer's
 * wrapper when libiosage-trace-mpi.so is preloaded) and through PnetCDF's
 * own, found with dlsym. See overhead.sh.
 *
 *   iosage-trace-pnetcdf-overhead [-n COUNT]
 *
 * Prints: "pnetcdf <count> put wrapped <ns> direct <ns> overhead <ns>".
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <pnetcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ELEMS 4096 /* elements of the variable */
#define SEL 64     /* elements per call */
#define BLOCK 500  /* calls per timed block */

typedef int (*put_fn)(int, int, const MPI_Offset *, const MPI_Offset *,
                      const unsigned char *);

/* n puts through fn; seconds, -1 on error. */
static double block(put_fn fn, int ncid, int varid, long n)
{
    static unsigned char buf[SEL];
    double t0 = MPI_Wtime();
    for (long i = 0; i < n; i++) {
        MPI_Offset start[1] = {(MPI_Offset)(i % (ELEMS / SEL)) * SEL};
        MPI_Offset count[1] = {SEL};
        if (fn(ncid, varid, start, count, buf) != NC_NOERR)
            return -1.0;
    }
    return MPI_Wtime() - t0;
}

int main(int argc, char **argv)
{
    long count = 20000;
    int opt;
    MPI_Init(&argc, &argv);
    while ((opt = getopt(argc, argv, "n:")) != -1) {
        char *end;
        count = strtol(optarg, &end, 10);
        if (opt != 'n' || *end || count <= 0) {
            fprintf(stderr, "usage: iosage-trace-pnetcdf-overhead [-n COUNT]\n");
            MPI_Finalize();
            return 2;
        }
    }
    Dl_info info;
    void *lib = NULL;
    if (dladdr((void *)ncmpi_inq_libvers, &info) && info.dli_fname)
        lib = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    put_fn direct = lib ? (put_fn)dlsym(lib, "ncmpi_put_vara_uchar") : NULL;
    char path[64];
    snprintf(path, sizeof path, "/tmp/iosage-nc-overhead.%d.nc", (int)getpid());
    int ncid, dim, varid;
    if (!direct ||
        ncmpi_create(MPI_COMM_SELF, path, NC_CLOBBER | NC_64BIT_DATA,
                     MPI_INFO_NULL, &ncid) != NC_NOERR ||
        ncmpi_def_dim(ncid, "n", ELEMS, &dim) != NC_NOERR ||
        ncmpi_def_var(ncid, "v", NC_UBYTE, 1, &dim, &varid) != NC_NOERR ||
        ncmpi_enddef(ncid) != NC_NOERR ||
        ncmpi_begin_indep_data(ncid) != NC_NOERR) {
        fprintf(stderr, "iosage-trace-pnetcdf-overhead: PnetCDF set-up failed\n");
        MPI_Abort(MPI_COMM_SELF, 1);
    }
    double a_sum = 0, b_sum = 0;
    long done = 0;
    for (; done < count; done += BLOCK) {
        int wrapped_first = (done / BLOCK) % 2 == 0; /* cancel order bias */
        double b = wrapped_first ? 0 : block(direct, ncid, varid, BLOCK);
        double a = block(ncmpi_put_vara_uchar, ncid, varid, BLOCK);
        if (wrapped_first)
            b = block(direct, ncid, varid, BLOCK);
        if (a < 0 || b < 0) {
            fprintf(stderr, "iosage-trace-pnetcdf-overhead: put failed\n");
            MPI_Abort(MPI_COMM_SELF, 1);
        }
        a_sum += a;
        b_sum += b;
    }
    ncmpi_end_indep_data(ncid);
    ncmpi_close(ncid);
    unlink(path);
    printf("pnetcdf %ld put wrapped %.1f direct %.1f overhead %.1f\n", done,
           a_sum * 1e9 / (double)done, b_sum * 1e9 / (double)done,
           (a_sum - b_sum) * 1e9 / (double)done);
    MPI_Finalize();
    return 0;
}
