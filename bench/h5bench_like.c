/* bench/h5bench_like.c - an h5bench-like parallel HDF5 writer: for each of
 * --steps time steps it makes a group "step.S" holding --datasets 1-D float
 * datasets "d.I", and every rank writes its part of each dataset.
 *
 * A dataset has nranks * rank-bytes bytes, cut into selections of --block
 * bytes dealt round robin: selection b (bytes [b*block, (b+1)*block)) is
 * written by rank b % nranks in one H5Dwrite. With the default block (the
 * rank's whole part) each rank writes one contiguous piece; small blocks
 * give many small, interleaved selections. --verify reads everything back
 * afterwards (a separate "read" phase) and checks it. */
#include "common.h"

#include <hdf5.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

struct h5b_cfg {
  int chunked;     /* 1: chunked layout; 0: contiguous */
  int collective;  /* 1: H5FD_MPIO_COLLECTIVE; 0: independent */
  int verify;      /* 1: read back and check after writing */
  uint64_t chunk;  /* chunk bytes (chunked layout) */
  uint64_t rank_bytes; /* bytes of each dataset per rank */
  uint64_t block;  /* bytes per selection; 0: rank_bytes */
  uint64_t datasets, steps;
};

static const struct bench_kernel kernel = {
  "h5bench_like",
  "h5bench-like HDF5 writer: per time step, datasets written by every\n"
  "rank in selections of --block bytes.",
  "Sizes are in bytes and must be multiples of 4 (float elements).\n",
};

/* bench_die() if an HDF5 call returned a negative id or status. */
static void h5ok(const struct bench_ctx *ctx, int64_t rc, const char *what)
{
  if (rc < 0)
    bench_die(ctx, "HDF5 %s failed", what);
}

/* Usage errors (exit 2) for bad flag combinations; resolves defaults. */
static void validate(const struct bench_ctx *ctx, struct h5b_cfg *c)
{
  if (!c->block)
    c->block = c->rank_bytes;
  if (c->rank_bytes % 4 || c->block % 4 || c->chunk % 4)
    bench_usage_error(ctx, "--rank-bytes, --block and --chunk must be "
                      "multiples of 4 (float elements)");
  char r[32], b[32];
  if (c->block > c->rank_bytes || c->rank_bytes % c->block)
    bench_usage_error(ctx, "--rank-bytes %s must be a multiple of --block %s",
                      bench_fmt_size(c->rank_bytes, r, sizeof r),
                      bench_fmt_size(c->block, b, sizeof b));
  uint64_t per_dataset = c->rank_bytes / c->block;
  if (per_dataset > BENCH_MAX_REQUESTS ||
      per_dataset * c->datasets * c->steps > BENCH_MAX_REQUESTS)
    bench_usage_error(ctx, "more than %u selections per rank; use a larger "
                      "--block", BENCH_MAX_REQUESTS);
}

/* Put the configuration into the summary line. */
static void describe(struct bench_ctx *ctx, const struct h5b_cfg *c)
{
  char a[32], b[32], k[32];
  bench_cfg(ctx, "layout", "%s", c->chunked ? "chunked" : "contiguous");
  if (c->chunked)
    bench_cfg(ctx, "chunk", "%s", bench_fmt_size(c->chunk, k, sizeof k));
  bench_cfg(ctx, "rank_bytes", "%s",
            bench_fmt_size(c->rank_bytes, a, sizeof a));
  bench_cfg(ctx, "block", "%s", bench_fmt_size(c->block, b, sizeof b));
  bench_cfg(ctx, "calls", "%s", c->collective ? "collective" : "independent");
  bench_cfg(ctx, "datasets", "%" PRIu64, c->datasets);
  bench_cfg(ctx, "steps", "%" PRIu64, c->steps);
  bench_cfg(ctx, "verify", "%d", c->verify);
}

/* Open or create the file through the mpio driver on all ranks. */
static hid_t open_file(const struct bench_ctx *ctx, const char *path,
                       int create)
{
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), file;
  h5ok(ctx, H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL), "fapl");
  if (create)
    file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  else
    file = H5Fopen(path, H5F_ACC_RDONLY, fapl);
  h5ok(ctx, file, create ? "H5Fcreate" : "H5Fopen");
  H5Pclose(fapl);
  return file;
}

/* Create dataset `name` in group: elems floats, contiguous or chunked. */
static hid_t make_dataset(const struct bench_ctx *ctx, const struct h5b_cfg *c,
                          hid_t group, const char *name, hsize_t elems)
{
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  h5ok(ctx, H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER), "fill time");
  if (c->chunked) {
    hsize_t chunk[1] = {c->chunk / 4 < elems ? c->chunk / 4 : elems};
    h5ok(ctx, H5Pset_chunk(dcpl, 1, chunk), "H5Pset_chunk");
  }
  hid_t space = H5Screate_simple(1, &elems, NULL);
  hid_t dset = H5Dcreate2(group, name, H5T_NATIVE_FLOAT, space, H5P_DEFAULT,
                          dcpl, H5P_DEFAULT);
  h5ok(ctx, dset, "H5Dcreate2");
  H5Sclose(space);
  H5Pclose(dcpl);
  return dset;
}

/* Write (or read and verify) this rank's selections of dataset number g
 * (pattern offsets start at g * dataset bytes). Counts the bytes moved. */
static void move_selections(struct bench_ctx *ctx, const struct h5b_cfg *c,
                            hid_t dset, hid_t dxpl, uint64_t g, void *buf,
                            int writing)
{
  uint64_t n = (uint64_t)ctx->nranks, set_bytes = n * c->rank_bytes;
  hsize_t count[1] = {c->block / 4};
  hid_t fspace = H5Dget_space(dset), mspace = H5Screate_simple(1, count, 0);
  h5ok(ctx, fspace, "H5Dget_space");
  for (uint64_t b = (uint64_t)ctx->rank; b * c->block < set_bytes; b += n) {
    uint64_t off = b * c->block, pat = g * set_bytes + off;
    hsize_t start[1] = {off / 4};
    h5ok(ctx, H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count,
                                  NULL), "select");
    if (writing) {
      bench_pattern_fill(buf, c->block, (uint64_t)ctx->rank, pat);
      h5ok(ctx, H5Dwrite(dset, H5T_NATIVE_FLOAT, mspace, fspace, dxpl, buf),
           "H5Dwrite");
      ctx->bytes_written += c->block;
    } else {
      h5ok(ctx, H5Dread(dset, H5T_NATIVE_FLOAT, mspace, fspace, dxpl, buf),
           "H5Dread");
      bench_verify(ctx, buf, c->block, (uint64_t)ctx->rank, pat, "dataset");
      ctx->bytes_read += c->block;
    }
  }
  H5Sclose(mspace);
  H5Sclose(fspace);
}

/* One pass over every step and dataset: create and write, or read back. */
static void pass(struct bench_ctx *ctx, const struct h5b_cfg *c,
                 const char *path, int writing)
{
  hsize_t elems = (hsize_t)ctx->nranks * c->rank_bytes / 4;
  hid_t file = open_file(ctx, path, writing);
  hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
  h5ok(ctx, H5Pset_dxpl_mpio(dxpl, c->collective ? H5FD_MPIO_COLLECTIVE
                                                 : H5FD_MPIO_INDEPENDENT),
       "H5Pset_dxpl_mpio");
  void *buf = bench_xalloc(ctx, c->block);
  for (uint64_t s = 0; s < c->steps; s++) {
    char name[64];
    snprintf(name, sizeof name, "step.%" PRIu64, s);
    hid_t group = writing ? H5Gcreate2(file, name, H5P_DEFAULT, H5P_DEFAULT,
                                       H5P_DEFAULT)
                          : H5Gopen2(file, name, H5P_DEFAULT);
    h5ok(ctx, group, name);
    for (uint64_t d = 0; d < c->datasets; d++) {
      snprintf(name, sizeof name, "d.%" PRIu64, d);
      hid_t dset = writing ? make_dataset(ctx, c, group, name, elems)
                           : H5Dopen2(group, name, H5P_DEFAULT);
      h5ok(ctx, dset, name);
      move_selections(ctx, c, dset, dxpl, s * c->datasets + d, buf, writing);
      H5Dclose(dset);
    }
    H5Gclose(group);
  }
  free(buf);
  H5Pclose(dxpl);
  h5ok(ctx, H5Fclose(file), "H5Fclose");
}

int main(int argc, char **argv)
{
  struct bench_ctx ctx;
  struct h5b_cfg c = {
    .collective = 1, .chunk = 1 << 20, .rank_bytes = 1 << 20,
    .datasets = 4, .steps = 2,
  };
  const struct bench_opt opts[] = {
    BENCH_CHOICE("layout", &c.chunked, "contiguous|chunked",
                 "dataset layout"),
    BENCH_SIZE("chunk", &c.chunk, 4, (uint64_t)1 << 31,
               "chunk bytes (chunked layout)"),
    BENCH_SIZE("rank-bytes", &c.rank_bytes, 4, (uint64_t)1 << 36,
               "bytes of each dataset per rank"),
    BENCH_SIZE("block", &c.block, 0, 1 << 30,
               "bytes per selection (0: the rank's whole part)"),
    BENCH_SET("collective", &c.collective, 1, "collective H5Dwrite"),
    BENCH_SET("independent", &c.collective, 0, "independent H5Dwrite"),
    BENCH_UINT("datasets", &c.datasets, 1, 10000, "datasets per step"),
    BENCH_UINT("steps", &c.steps, 1, 10000, "time steps"),
    BENCH_SET("verify", &c.verify, 1, "read everything back and check it"),
    BENCH_END,
  };
  bench_init(&argc, &argv, &kernel, opts, &ctx);
  validate(&ctx, &c);
  bench_setup_dir(&ctx);
  describe(&ctx, &c);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* our own one-line errors */
  char path[PATH_MAX];
  bench_path(&ctx, path, sizeof path, "h5");
  double t0 = bench_phase_begin(&ctx);
  pass(&ctx, &c, path, 1);
  bench_phase_end(&ctx, "write", t0);
  if (c.verify) {
    t0 = bench_phase_begin(&ctx);
    pass(&ctx, &c, path, 0);
    bench_phase_end(&ctx, "read", t0);
  }
  bench_report(&ctx);
  return bench_finish(&ctx);
}
