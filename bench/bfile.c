/* bench/bfile.c - the POSIX and MPI-IO backends of bfile.h, the dispatch to
 * every backend, and the extent loops the kernels share. */
#include "bfile.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const api_names[] = {"posix", "mpiio", "hdf5", "pnetcdf"};

const char *bench_api_name(enum bench_api api)
{
  return (unsigned)api < sizeof api_names / sizeof api_names[0]
      ? api_names[api] : "unknown";
}

void bench_api_check(const struct bench_ctx *ctx, enum bench_api api)
{
#ifndef BENCH_HAVE_HDF5
  if (api == BENCH_API_HDF5)
    bench_usage_error(ctx, "--api hdf5: this build has no parallel HDF5");
#endif
#ifndef BENCH_HAVE_PNETCDF
  if (api == BENCH_API_PNETCDF)
    bench_usage_error(ctx, "--api pnetcdf: this build has no PnetCDF");
#endif
  (void)ctx;
  (void)api;
}

/* Communicator of a file: spec->comm or the world when shared, else this
 * rank alone. */
MPI_Comm bfile_comm(const struct bfile_spec *spec)
{
  if (!spec->shared)
    return MPI_COMM_SELF;
  return spec->comm ? *spec->comm : MPI_COMM_WORLD;
}

/* 1 on the rank that creates the file: rank 0 of its communicator. */
static int creates_first(const struct bfile_spec *spec)
{
  int rank = 0;
  MPI_Comm_rank(bfile_comm(spec), &rank);
  return rank == 0;
}

/* --- POSIX --------------------------------------------------------------- */

/* The POSIX backend's state: the descriptor, and whether every request
 * is an lseek followed by write/read (spec.seek) or one pwrite/pread. */
struct posix_file {
  int fd;
  int seek;
};

/* Shared create: rank 0 truncates first, the others open after it. */
static void posix_open(struct bfile *f, const struct bfile_spec *spec)
{
  struct posix_file *pf = bench_xmalloc(f->ctx, sizeof *pf);
  int first = creates_first(spec);
  int flags = spec->create ? O_RDWR | O_CREAT : O_RDONLY;
  pf->seek = spec->seek;
  if (spec->create && first)
    pf->fd = open(spec->path, flags | O_TRUNC, 0644);
  if (spec->shared)
    MPI_Barrier(bfile_comm(spec));
  if (!spec->create || !first)
    pf->fd = open(spec->path, flags, 0644);
  if (pf->fd < 0)
    bench_die(f->ctx, "open %s: %s", spec->path, strerror(errno));
  f->impl = pf;
}

/* One write of up to len bytes at off: pwrite, or lseek + write. */
static ssize_t posix_write_once(struct bfile *f, const char *p, size_t len,
                                uint64_t off)
{
  const struct posix_file *pf = f->impl;
  if (!pf->seek)
    return pwrite(pf->fd, p, len, (off_t)off);
  if (lseek(pf->fd, (off_t)off, SEEK_SET) == (off_t)-1)
    return -1;
  return write(pf->fd, p, len);
}

/* One read of up to len bytes at off: pread, or lseek + read. */
static ssize_t posix_read_once(struct bfile *f, char *p, size_t len,
                               uint64_t off)
{
  const struct posix_file *pf = f->impl;
  if (!pf->seek)
    return pread(pf->fd, p, len, (off_t)off);
  if (lseek(pf->fd, (off_t)off, SEEK_SET) == (off_t)-1)
    return -1;
  return read(pf->fd, p, len);
}

static void posix_write(struct bfile *f, uint64_t off, const void *buf,
                        size_t len)
{
  const char *p = buf;
  while (len > 0) {
    ssize_t n = posix_write_once(f, p, len, off);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      bench_die(f->ctx, "write %s at %" PRIu64 ": %s", f->path, off,
                n < 0 ? strerror(errno) : "no progress");
    p += n;
    off += (uint64_t)n;
    len -= (size_t)n;
  }
}

static void posix_read(struct bfile *f, uint64_t off, void *buf, size_t len)
{
  char *p = buf;
  while (len > 0) {
    ssize_t n = posix_read_once(f, p, len, off);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      bench_die(f->ctx, "read %s at %" PRIu64 ": %s", f->path, off,
                n < 0 ? strerror(errno) : "file too short");
    p += n;
    off += (uint64_t)n;
    len -= (size_t)n;
  }
}

static void posix_sync(struct bfile *f)
{
  if (fsync(((struct posix_file *)f->impl)->fd) != 0)
    bench_die(f->ctx, "fsync %s: %s", f->path, strerror(errno));
}

static void posix_close(struct bfile *f)
{
  if (close(((struct posix_file *)f->impl)->fd) != 0)
    bench_die(f->ctx, "close %s: %s", f->path, strerror(errno));
}

static const struct bfile_ops posix_ops = {
  posix_open, posix_write, posix_read, posix_sync, posix_close,
};

/* --- MPI-IO -------------------------------------------------------------- */

/* Create replaces any old file: MPI_MODE_CREATE alone would keep its
 * length and contents. */
static void mpiio_open(struct bfile *f, const struct bfile_spec *spec)
{
  MPI_File *fh = bench_xmalloc(f->ctx, sizeof *fh);
  int amode = spec->create ? MPI_MODE_CREATE | MPI_MODE_RDWR : MPI_MODE_RDONLY;
  if (spec->create && creates_first(spec))
    if (unlink(spec->path) != 0 && errno != ENOENT)
      bench_die(f->ctx, "unlink %s: %s", spec->path, strerror(errno));
  if (spec->shared)
    MPI_Barrier(bfile_comm(spec));
  /* the Lustre stripe count, as users ask for it through MPI-IO */
  MPI_Info info = MPI_INFO_NULL;
  if (spec->striping_factor > 0 && spec->create) {
    char v[16];
    snprintf(v, sizeof v, "%d", spec->striping_factor);
    MPI_Info_create(&info);
    MPI_Info_set(info, "striping_factor", v);
  }
  bench_check_mpi(f->ctx, MPI_File_open(bfile_comm(spec), spec->path, amode,
                                        info, fh), spec->path);
  if (info != MPI_INFO_NULL)
    MPI_Info_free(&info);
  f->impl = fh;
}

/* Check that an MPI-IO call moved all len bytes. */
static void mpiio_done(struct bfile *f, int rc, MPI_Status *st, size_t len,
                       const char *what, uint64_t off)
{
  char msg[PATH_MAX + 64];
  int got = 0;
  snprintf(msg, sizeof msg, "%s %s at %" PRIu64, what, f->path, off);
  bench_check_mpi(f->ctx, rc, msg);
  MPI_Get_count(st, MPI_BYTE, &got);
  if ((size_t)got != len)
    bench_die(f->ctx, "%s: %d of %zu bytes", msg, got, len);
}

static void mpiio_write(struct bfile *f, uint64_t off, const void *buf,
                        size_t len)
{
  MPI_File fh = *(MPI_File *)f->impl;
  MPI_Status st;
  int rc = f->collective
      ? MPI_File_write_at_all(fh, (MPI_Offset)off, buf, (int)len, MPI_BYTE,
                              &st)
      : MPI_File_write_at(fh, (MPI_Offset)off, buf, (int)len, MPI_BYTE, &st);
  mpiio_done(f, rc, &st, len, "write", off);
}

static void mpiio_read(struct bfile *f, uint64_t off, void *buf, size_t len)
{
  MPI_File fh = *(MPI_File *)f->impl;
  MPI_Status st;
  int rc = f->collective
      ? MPI_File_read_at_all(fh, (MPI_Offset)off, buf, (int)len, MPI_BYTE,
                             &st)
      : MPI_File_read_at(fh, (MPI_Offset)off, buf, (int)len, MPI_BYTE, &st);
  mpiio_done(f, rc, &st, len, "read", off);
}

static void mpiio_sync(struct bfile *f)
{
  bench_check_mpi(f->ctx, MPI_File_sync(*(MPI_File *)f->impl), f->path);
}

static void mpiio_close(struct bfile *f)
{
  bench_check_mpi(f->ctx, MPI_File_close((MPI_File *)f->impl), f->path);
}

static const struct bfile_ops mpiio_ops = {
  mpiio_open, mpiio_write, mpiio_read, mpiio_sync, mpiio_close,
};

/* --- dispatch ------------------------------------------------------------ */

struct bfile *bfile_open(struct bench_ctx *ctx, const struct bfile_spec *spec)
{
  struct bfile *f = bench_xcalloc(ctx, 1, sizeof *f);
  f->ctx = ctx;
  f->collective = spec->collective;
  snprintf(f->path, sizeof f->path, "%s", spec->path);
  switch (spec->api) {
  case BENCH_API_POSIX: f->ops = &posix_ops; break;
  case BENCH_API_MPIIO: f->ops = &mpiio_ops; break;
#ifdef BENCH_HAVE_HDF5
  case BENCH_API_HDF5: f->ops = &bfile_hdf5_ops; break;
#endif
#ifdef BENCH_HAVE_PNETCDF
  case BENCH_API_PNETCDF: f->ops = &bfile_pnetcdf_ops; break;
#endif
  default: bench_die(ctx, "api %s not built", bench_api_name(spec->api));
  }
  f->ops->open(f, spec);
  return f;
}

void bfile_write(struct bfile *f, uint64_t off, const void *buf, size_t len)
{
  if (len > INT_MAX)
    bench_die(f->ctx, "request of %zu bytes is over 2 GiB", len);
  f->ops->write(f, off, buf, len);
}

void bfile_read(struct bfile *f, uint64_t off, void *buf, size_t len)
{
  if (len > INT_MAX)
    bench_die(f->ctx, "request of %zu bytes is over 2 GiB", len);
  f->ops->read(f, off, buf, len);
}

void bfile_sync(struct bfile *f)
{
  f->ops->sync(f);
}

void bfile_close(struct bfile *f)
{
  if (!f)
    return;
  f->ops->close(f);
  free(f->impl);
  free(f);
}

/* --- extent loops -------------------------------------------------------- */

void bfile_write_extents(struct bfile *f, const struct bench_extent *x,
                         size_t n, void *buf, int sync_each, int count)
{
  for (size_t i = 0; i < n; i++) {
    bench_pattern_fill(buf, x[i].len, x[i].tag, x[i].off);
    bfile_write(f, x[i].off, buf, x[i].len);
    if (sync_each)
      bfile_sync(f);
    if (count)
      f->ctx->bytes_written += x[i].len;
  }
}

void bfile_read_extents(struct bfile *f, const struct bench_extent *x,
                        size_t n, void *buf, int count)
{
  for (size_t i = 0; i < n; i++) {
    bfile_read(f, x[i].off, buf, x[i].len);
    bench_verify(f->ctx, buf, x[i].len, x[i].tag, x[i].off, f->path);
    if (count)
      f->ctx->bytes_read += x[i].len;
  }
}

/* --- write-then-read plans ----------------------------------------------- */

/* Largest request of a plan: the size of its buffer. */
static size_t plan_max_len(const struct bfile_plan *p)
{
  uint64_t m = 1;
  for (size_t i = 0; i < p->n; i++)
    if (p->x[i].len > m)
      m = p->x[i].len;
  return (size_t)m;
}

/* Create the file and write every request; counted if `count`. */
static void plan_write(struct bench_ctx *ctx, const struct bfile_plan *p,
                       void *buf, int count)
{
  struct bfile_spec spec = p->spec;
  spec.create = 1;
  struct bfile *f = bfile_open(ctx, &spec);
  bfile_write_extents(f, p->x, p->n, buf, p->fsync_each, count);
  bfile_close(f);
}

/* Open the file and read every request read_passes times. */
static void plan_read(struct bench_ctx *ctx, const struct bfile_plan *p,
                      void *buf)
{
  struct bfile_spec spec = p->spec;
  spec.create = 0;
  struct bfile *f = bfile_open(ctx, &spec);
  for (uint64_t pass = 0; pass < p->read_passes; pass++)
    bfile_read_extents(f, p->x, p->n, buf, 1);
  bfile_close(f);
}

void bfile_run(struct bench_ctx *ctx, const struct bfile_plan *p)
{
  void *buf = bench_xalloc(ctx, plan_max_len(p));
  if (p->do_write) {
    double t0 = bench_phase_begin(ctx);
    plan_write(ctx, p, buf, 1);
    bench_phase_end(ctx, "write", t0);
  }
  if (p->do_read) {
    int mine = !p->spec.shared || ctx->rank == 0;
    if (!p->do_write && !bench_files_ready(ctx, mine ? p->spec.path : NULL,
                                           p->spec.size)) {
      plan_write(ctx, p, buf, 0);
      bench_cfg(ctx, "prepared", "1");
    }
    double t0 = bench_phase_begin(ctx);
    plan_read(ctx, p, buf);
    bench_phase_end(ctx, "read", t0);
  }
  free(buf);
}
