/* bench/bfile_pnetcdf.c - the PnetCDF backend of bfile.h: one 1-D NC_UBYTE
 * variable "data" in a CDF-5 file (CDF-5 allows unsigned bytes and
 * variables past 4 GiB). PnetCDF does not fill by default, so the only data
 * written is the kernel's. Independent mode wraps the data calls in
 * ncmpi_begin_indep_data()/ncmpi_end_indep_data(). */
#include "bfile.h"

#include <pnetcdf.h>

struct nc_state {
  int ncid, varid;
};

/* bench_die() with PnetCDF's message unless rc is NC_NOERR. */
static void nc_check(struct bfile *f, int rc, const char *what)
{
  if (rc != NC_NOERR)
    bench_die(f->ctx, "PnetCDF %s on %s: %s", what, f->path,
              ncmpi_strerror(rc));
}

static void nc_create(struct bfile *f, struct nc_state *s, MPI_Comm comm,
                      uint64_t size)
{
  int dim;
  nc_check(f, ncmpi_create(comm, f->path, NC_CLOBBER | NC_64BIT_DATA,
                           MPI_INFO_NULL, &s->ncid), "ncmpi_create");
  nc_check(f, ncmpi_def_dim(s->ncid, "n", (MPI_Offset)size, &dim),
           "ncmpi_def_dim");
  nc_check(f, ncmpi_def_var(s->ncid, "data", NC_UBYTE, 1, &dim, &s->varid),
           "ncmpi_def_var");
  nc_check(f, ncmpi_enddef(s->ncid), "ncmpi_enddef");
}

static void nc_open_existing(struct bfile *f, struct nc_state *s,
                             MPI_Comm comm, uint64_t size)
{
  int dim;
  MPI_Offset len = 0;
  nc_check(f, ncmpi_open(comm, f->path, NC_NOWRITE, MPI_INFO_NULL, &s->ncid),
           "ncmpi_open");
  nc_check(f, ncmpi_inq_varid(s->ncid, "data", &s->varid), "inq_varid data");
  nc_check(f, ncmpi_inq_vardimid(s->ncid, s->varid, &dim), "inq_vardimid");
  nc_check(f, ncmpi_inq_dimlen(s->ncid, dim, &len), "inq_dimlen");
  if ((uint64_t)len != size)
    bench_die(f->ctx, "%s: variable has %lld bytes, expected %llu", f->path,
              (long long)len, (unsigned long long)size);
}

static void nc_open(struct bfile *f, const struct bfile_spec *spec)
{
  struct nc_state *s = bench_xcalloc(f->ctx, 1, sizeof *s);
  MPI_Comm comm = bfile_comm(spec);
  f->impl = s;
  if (spec->create)
    nc_create(f, s, comm, spec->size);
  else
    nc_open_existing(f, s, comm, spec->size);
  if (!f->collective)
    nc_check(f, ncmpi_begin_indep_data(s->ncid), "begin_indep_data");
}

static void nc_write(struct bfile *f, uint64_t off, const void *buf,
                     size_t len)
{
  struct nc_state *s = f->impl;
  MPI_Offset start[1] = {(MPI_Offset)off}, count[1] = {(MPI_Offset)len};
  int rc = f->collective
      ? ncmpi_put_vara_uchar_all(s->ncid, s->varid, start, count, buf)
      : ncmpi_put_vara_uchar(s->ncid, s->varid, start, count, buf);
  nc_check(f, rc, "put_vara");
}

static void nc_read(struct bfile *f, uint64_t off, void *buf, size_t len)
{
  struct nc_state *s = f->impl;
  MPI_Offset start[1] = {(MPI_Offset)off}, count[1] = {(MPI_Offset)len};
  int rc = f->collective
      ? ncmpi_get_vara_uchar_all(s->ncid, s->varid, start, count, buf)
      : ncmpi_get_vara_uchar(s->ncid, s->varid, start, count, buf);
  nc_check(f, rc, "get_vara");
}

static void nc_sync(struct bfile *f)
{
  nc_check(f, ncmpi_sync(((struct nc_state *)f->impl)->ncid), "ncmpi_sync");
}

static void nc_close(struct bfile *f)
{
  struct nc_state *s = f->impl;
  if (!f->collective)
    nc_check(f, ncmpi_end_indep_data(s->ncid), "end_indep_data");
  nc_check(f, ncmpi_close(s->ncid), "ncmpi_close");
}

const struct bfile_ops bfile_pnetcdf_ops = {
  nc_open, nc_write, nc_read, nc_sync, nc_close,
};
