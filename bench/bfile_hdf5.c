/* bench/bfile_hdf5.c - the HDF5 backend of bfile.h: one contiguous 1-D
 * dataset "data" of bytes, written and read by hyperslab through the
 * parallel (mpio) driver. Space is allocated at create and never filled,
 * so the only data written is the kernel's. */
#include "bfile.h"

#include <hdf5.h>

struct h5_state {
  hid_t file, dset, fspace, dxpl;
};

/* bench_die() if an HDF5 call returned a negative id or status. */
static void h5_check(struct bfile *f, int64_t rc, const char *what)
{
  if (rc < 0)
    bench_die(f->ctx, "HDF5 %s failed on %s", what, f->path);
}

/* File access through MPI-IO on the file's communicator. */
static hid_t h5_fapl(struct bfile *f, const struct bfile_spec *spec)
{
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  h5_check(f, fapl, "H5Pcreate");
  h5_check(f, H5Pset_fapl_mpio(fapl, bfile_comm(spec), MPI_INFO_NULL),
           "H5Pset_fapl_mpio");
  return fapl;
}

static void h5_create_dataset(struct bfile *f, struct h5_state *s,
                              uint64_t size)
{
  hsize_t dims[1] = {size};
  hid_t space = H5Screate_simple(1, dims, NULL);
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  h5_check(f, space, "H5Screate_simple");
  h5_check(f, H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY), "alloc time");
  h5_check(f, H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER), "fill time");
  s->dset = H5Dcreate2(s->file, "data", H5T_NATIVE_UCHAR, space, H5P_DEFAULT,
                       dcpl, H5P_DEFAULT);
  h5_check(f, s->dset, "H5Dcreate2");
  H5Pclose(dcpl);
  H5Sclose(space);
}

static void h5_open(struct bfile *f, const struct bfile_spec *spec)
{
  struct h5_state *s = bench_xcalloc(f->ctx, 1, sizeof *s);
  hid_t fapl = h5_fapl(f, spec);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* our own one-line errors */
  f->impl = s;
  if (spec->create) {
    s->file = H5Fcreate(spec->path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    h5_check(f, s->file, "H5Fcreate");
    h5_create_dataset(f, s, spec->size);
  } else {
    s->file = H5Fopen(spec->path, H5F_ACC_RDONLY, fapl);
    h5_check(f, s->file, "H5Fopen");
    s->dset = H5Dopen2(s->file, "data", H5P_DEFAULT);
    h5_check(f, s->dset, "H5Dopen2 data");
  }
  H5Pclose(fapl);
  s->fspace = H5Dget_space(s->dset);
  h5_check(f, s->fspace, "H5Dget_space");
  hsize_t dims[1] = {0};
  H5Sget_simple_extent_dims(s->fspace, dims, NULL);
  if (dims[0] != spec->size)
    bench_die(f->ctx, "%s: dataset has %llu bytes, expected %llu", f->path,
              (unsigned long long)dims[0], (unsigned long long)spec->size);
  s->dxpl = H5Pcreate(H5P_DATASET_XFER);
  h5_check(f, H5Pset_dxpl_mpio(s->dxpl, f->collective
                                            ? H5FD_MPIO_COLLECTIVE
                                            : H5FD_MPIO_INDEPENDENT),
           "H5Pset_dxpl_mpio");
}

/* Select [off, off + len) in the file and return a matching memory space. */
static hid_t h5_select(struct bfile *f, uint64_t off, size_t len)
{
  struct h5_state *s = f->impl;
  hsize_t start[1] = {off}, count[1] = {len};
  h5_check(f, H5Sselect_hyperslab(s->fspace, H5S_SELECT_SET, start, NULL,
                                  count, NULL), "H5Sselect_hyperslab");
  hid_t mspace = H5Screate_simple(1, count, NULL);
  h5_check(f, mspace, "H5Screate_simple");
  return mspace;
}

static void h5_write(struct bfile *f, uint64_t off, const void *buf,
                     size_t len)
{
  struct h5_state *s = f->impl;
  hid_t mspace = h5_select(f, off, len);
  h5_check(f, H5Dwrite(s->dset, H5T_NATIVE_UCHAR, mspace, s->fspace,
                       s->dxpl, buf), "H5Dwrite");
  H5Sclose(mspace);
}

static void h5_read(struct bfile *f, uint64_t off, void *buf, size_t len)
{
  struct h5_state *s = f->impl;
  hid_t mspace = h5_select(f, off, len);
  h5_check(f, H5Dread(s->dset, H5T_NATIVE_UCHAR, mspace, s->fspace, s->dxpl,
                      buf), "H5Dread");
  H5Sclose(mspace);
}

static void h5_sync(struct bfile *f)
{
  struct h5_state *s = f->impl;
  h5_check(f, H5Fflush(s->file, H5F_SCOPE_LOCAL), "H5Fflush");
}

static void h5_close(struct bfile *f)
{
  struct h5_state *s = f->impl;
  H5Pclose(s->dxpl);
  H5Sclose(s->fspace);
  H5Dclose(s->dset);
  h5_check(f, H5Fclose(s->file), "H5Fclose");
}

const struct bfile_ops bfile_hdf5_ops = {
  h5_open, h5_write, h5_read, h5_sync, h5_close,
};
