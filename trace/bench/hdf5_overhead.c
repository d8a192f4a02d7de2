/*
 * hdf5_overhead.c - what the tracer's HDF5 wrappers add to a call: paired
 * blocks of H5Dwrite (and H5Dread) of a small hyperslab, alternately through
 * the program's H5Dwrite (the tracer's wrapper when it is preloaded) and
 * through HDF5's own, found in the loaded library with dlsym. The file uses
 * HDF5's in-memory (core) driver, so no system call is timed: the
 * difference is the wrapper (describing the selection, the lock, the
 * counters). See overhead.sh.
 *
 *   iosage-trace-hdf5-overhead [-n COUNT]
 *
 * Prints: "hdf5 <count> write wrapped <ns> direct <ns> overhead <ns>
 *          read wrapped <ns> direct <ns> overhead <ns>" (ns per call).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ELEMS 1024   /* elements of the dataset */
#define SEL 64       /* elements per call */
#define BLOCK 500    /* calls per timed block */

typedef herr_t (*write_fn)(hid_t, hid_t, hid_t, hid_t, hid_t, const void *);
typedef herr_t (*read_fn)(hid_t, hid_t, hid_t, hid_t, hid_t, void *);

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct setup {
    hid_t file, dset, fspace, mspace;
    unsigned char buf[SEL];
};

/* n calls of a write (rd = 0) or read through w / r; seconds, -1 on error. */
static double block(struct setup *s, write_fn w, read_fn r, int rd, long n)
{
    double t0 = now();
    for (long i = 0; i < n; i++) {
        hsize_t start[1] = {(hsize_t)(i % (ELEMS / SEL)) * SEL};
        hsize_t count[1] = {SEL};
        if (H5Sselect_hyperslab(s->fspace, H5S_SELECT_SET, start, NULL, count,
                                NULL) < 0)
            return -1.0;
        herr_t rc = rd ? r(s->dset, H5T_NATIVE_UCHAR, s->mspace, s->fspace,
                           H5P_DEFAULT, s->buf)
                       : w(s->dset, H5T_NATIVE_UCHAR, s->mspace, s->fspace,
                           H5P_DEFAULT, s->buf);
        if (rc < 0)
            return -1.0;
    }
    return now() - t0;
}

/* Alternate blocks (in alternating order) through the wrapper and HDF5's
 * own function; ns per call of each into *wrapped, *direct. */
static int paired(struct setup *s, write_fn w_direct, read_fn r_direct,
                  int rd, long count, double *wrapped, double *direct)
{
    double a_sum = 0, b_sum = 0;
    long done = 0;
    for (; done < count; done += BLOCK) {
        int wrapped_first = (done / BLOCK) % 2 == 0;
        double b = wrapped_first ? 0 : block(s, w_direct, r_direct, rd, BLOCK);
        double a = block(s, H5Dwrite, H5Dread, rd, BLOCK);
        if (wrapped_first)
            b = block(s, w_direct, r_direct, rd, BLOCK);
        if (a < 0 || b < 0)
            return 1;
        a_sum += a;
        b_sum += b;
    }
    *wrapped = a_sum * 1e9 / (double)done;
    *direct = b_sum * 1e9 / (double)done;
    return 0;
}

int main(int argc, char **argv)
{
    long count = 200000;
    int opt;
    while ((opt = getopt(argc, argv, "n:")) != -1) {
        char *end;
        count = strtol(optarg, &end, 10);
        if (opt != 'n' || *end || count <= 0) {
            fprintf(stderr, "usage: iosage-trace-hdf5-overhead [-n COUNT]\n");
            return 2;
        }
    }
    /* HDF5's own H5Dwrite/H5Dread: the library that defines H5open. */
    Dl_info info;
    void *lib = NULL;
    if (dladdr((void *)H5open, &info) && info.dli_fname)
        lib = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    write_fn w_direct = lib ? (write_fn)dlsym(lib, "H5Dwrite") : NULL;
    read_fn r_direct = lib ? (read_fn)dlsym(lib, "H5Dread") : NULL;
    if (!w_direct || !r_direct) {
        fprintf(stderr, "iosage-trace-hdf5-overhead: no HDF5 H5Dwrite\n");
        return 1;
    }
    struct setup s;
    memset(&s, 0, sizeof s);
    char name[64];
    snprintf(name, sizeof name, "/tmp/iosage-h5-overhead.%d.h5", (int)getpid());
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    hsize_t dims[1] = {ELEMS}, sel[1] = {SEL};
    if (fapl < 0 || H5Pset_fapl_core(fapl, 1 << 20, 0) < 0 ||
        (s.file = H5Fcreate(name, H5F_ACC_TRUNC, H5P_DEFAULT, fapl)) < 0 ||
        (s.fspace = H5Screate_simple(1, dims, NULL)) < 0 ||
        (s.mspace = H5Screate_simple(1, sel, NULL)) < 0 ||
        (s.dset = H5Dcreate2(s.file, "d", H5T_NATIVE_UCHAR, s.fspace,
                             H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0) {
        fprintf(stderr, "iosage-trace-hdf5-overhead: HDF5 set-up failed\n");
        return 1;
    }
    double ww, wd, rw, rdir;
    if (paired(&s, w_direct, r_direct, 0, count, &ww, &wd) ||
        paired(&s, w_direct, r_direct, 1, count, &rw, &rdir)) {
        fprintf(stderr, "iosage-trace-hdf5-overhead: H5Dwrite/H5Dread failed\n");
        return 1;
    }
    H5Dclose(s.dset);
    H5Sclose(s.fspace);
    H5Sclose(s.mspace);
    H5Fclose(s.file);
    H5Pclose(fapl);
    printf("hdf5 %ld write wrapped %.1f direct %.1f overhead %.1f "
           "read wrapped %.1f direct %.1f overhead %.1f\n",
           count, ww, wd, ww - wd, rw, rdir, rw - rdir);
    return 0;
}
