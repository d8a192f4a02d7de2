/* bench/bfile.h - one file seen as a flat range of bytes, through POSIX,
 * MPI-IO, HDF5 or PnetCDF, so a kernel states its offsets once and runs
 * them through any interface.
 *
 *   POSIX    open/pwrite/pread/fsync on the file itself (spec.seek:
 *            lseek + write/read instead of pwrite/pread)
 *   MPI-IO   MPI_File_{write,read}_at[_all], MPI_File_sync
 *   HDF5     one 1-D dataset "data" of bytes, contiguous layout; each call
 *            selects the hyperslab [off, off + len) (mpio driver)
 *   PnetCDF  one 1-D NC_UBYTE variable "data" in a CDF-5 file;
 *            ncmpi_{put,get}_vara_uchar[_all]
 *
 * A shared file is opened by every rank of MPI_COMM_WORLD (or of
 * spec.comm) together (open, sync and close are then collective); a
 * per-rank file by this rank alone on MPI_COMM_SELF. In collective mode every rank of the file's
 * communicator must make the same number of write/read calls. Any failure
 * ends the job through bench_die(), so these calls return only on success.
 */
#ifndef BENCH_BFILE_H
#define BENCH_BFILE_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"

enum bench_api { BENCH_API_POSIX, BENCH_API_MPIIO, BENCH_API_HDF5,
                 BENCH_API_PNETCDF };

/* Choices for a BENCH_CHOICE "--api" flag: the word's index is the enum
 * value. BENCH_APIS_BUILT lists the interfaces this build has. */
#define BENCH_API_CHOICES "posix|mpiio|hdf5|pnetcdf"
#define BENCH_API_CHOICES_BASIC "posix|mpiio"
#ifdef BENCH_HAVE_HDF5
#define BENCH_APIS_HDF5 " hdf5"
#else
#define BENCH_APIS_HDF5 ""
#endif
#ifdef BENCH_HAVE_PNETCDF
#define BENCH_APIS_PNETCDF " pnetcdf"
#else
#define BENCH_APIS_PNETCDF ""
#endif
#define BENCH_APIS_BUILT "posix mpiio" BENCH_APIS_HDF5 BENCH_APIS_PNETCDF

/* Name of an api for the summary line. */
const char *bench_api_name(enum bench_api api);

/* Usage error (exit 2) if this build lacks api. */
void bench_api_check(const struct bench_ctx *ctx, enum bench_api api);

struct bfile_spec {
  enum bench_api api;
  const char *path;
  int shared;     /* 1: all ranks open path together; 0: this rank alone */
  int collective; /* collective data calls (not for POSIX) */
  int create;     /* 1: create, replacing any old file; 0: read existing */
  uint64_t size;  /* bytes of the file (HDF5/PnetCDF: the variable) */
  int seek;       /* POSIX only: lseek then write/read, as IOR's POSIX
                     backend does, instead of pwrite/pread */
  int striping_factor; /* MPI-IO only: the hint at create (0: no hints) */
  const MPI_Comm *comm; /* shared files: the ranks that open it together
                           (NULL: MPI_COMM_WORLD), e.g. a subset of I/O
                           ranks */
};

/* The communicator that opens a file of this spec. */
MPI_Comm bfile_comm(const struct bfile_spec *spec);

struct bfile; /* opaque */

/* Open a file as spec says; collective when spec->shared. The returned
 * handle is released by bfile_close(). */
struct bfile *bfile_open(struct bench_ctx *ctx, const struct bfile_spec *spec);
void bfile_write(struct bfile *f, uint64_t off, const void *buf, size_t len);
void bfile_read(struct bfile *f, uint64_t off, void *buf, size_t len);
/* Flush to storage: fsync, MPI_File_sync, H5Fflush, ncmpi_sync (the last
 * three are collective on the file's communicator). */
void bfile_sync(struct bfile *f);
void bfile_close(struct bfile *f);

/* One request: len bytes at off; its data is the pattern of tag. */
struct bench_extent {
  uint64_t off, len, tag;
};

/* Write every extent in order, each filled with its pattern; fsync after
 * each one if sync_each. buf holds at least the largest len. Adds the bytes
 * to ctx->bytes_written if count is set. */
void bfile_write_extents(struct bfile *f, const struct bench_extent *x,
                         size_t n, void *buf, int sync_each, int count);

/* Read every extent in order and verify it against its pattern; adds the
 * bytes to ctx->bytes_read if count is set. */
void bfile_read_extents(struct bfile *f, const struct bench_extent *x,
                        size_t n, void *buf, int count);

/* What a write-then-read kernel does with one file: the rank's requests,
 * which passes to run, and how. */
struct bfile_plan {
  struct bfile_spec spec;        /* spec.create is set by each pass */
  const struct bench_extent *x;  /* the rank's requests, in issue order */
  size_t n;                      /* number of requests */
  int do_write, do_read;         /* passes to run (write first) */
  int fsync_each;                /* sync after every write */
  uint64_t read_passes;          /* reads of the same data, at least 1 */
};

/* Run the timed "write" phase (create, write every request, close) and
 * then the timed "read" phase (open, read and verify every request
 * read_passes times, close). When only reading and the file is missing
 * or short, it is first written untimed and uncounted, and the summary
 * says prepared=1. Collective. */
void bfile_run(struct bench_ctx *ctx, const struct bfile_plan *plan);

/* --- for backends only --------------------------------------------------- */

struct bfile_ops {
  void (*open)(struct bfile *f, const struct bfile_spec *spec);
  void (*write)(struct bfile *f, uint64_t off, const void *buf, size_t len);
  void (*read)(struct bfile *f, uint64_t off, void *buf, size_t len);
  void (*sync)(struct bfile *f);
  void (*close)(struct bfile *f);
};

struct bfile {
  const struct bfile_ops *ops;
  struct bench_ctx *ctx;
  char path[PATH_MAX];
  int collective;
  void *impl; /* the backend's state, allocated by its open() */
};

#ifdef BENCH_HAVE_HDF5
extern const struct bfile_ops bfile_hdf5_ops;
#endif
#ifdef BENCH_HAVE_PNETCDF
extern const struct bfile_ops bfile_pnetcdf_ops;
#endif

#endif /* BENCH_BFILE_H */
