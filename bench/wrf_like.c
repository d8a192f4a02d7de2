/* bench/wrf_like.c - a WRF-like weather model's I/O: every rank reads a
 * small text namelist, then the model writes a history file every output
 * step and a restart file every --restart-every steps.
 *
 * The domain is a 2-D grid of ranks (MPI_Dims_create); each rank owns a
 * patch of --patch x --patch cells on --levels levels, and every variable
 * is a 4-byte float per cell. A history file holds --vars variables, a
 * restart file twice as many; in a shared file variable v starts at
 * v * (variable bytes) and is stored level by level, row by row over the
 * whole domain (row-major, as netCDF stores it).
 *
 * How a file is written (--io):
 *   parallel  every rank writes its own patch. With a collective interface
 *             (MPI-IO _all, PnetCDF _all) a patch is one call per variable,
 *             as a put_vara of a subarray hands the library one request;
 *             with POSIX or independent calls a patch is one write per
 *             patch row (levels x patch rows of patch x 4 bytes), which is
 *             what a code writing a 2-D decomposition by hand does.
 *   serial    WRF's default io_form: rank 0 gathers each variable
 *             (MPI_Gather) and writes it whole; the other ranks do no I/O.
 *   split     WRF's io_form 102: every rank writes its patch to its own
 *             file per output (patch bytes per variable, contiguous).
 *
 * Then, unless --write only, every rank reads its patch of the last
 * restart file back (the model restarting), verified. */
#include "bfile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum wrf_io { WRF_PARALLEL, WRF_SERIAL, WRF_SPLIT };

struct wrf_cfg {
  int api, io, independent, fsync;
  uint64_t patch, levels, vars, steps, restart_every, namelist_lines;
  int px, py;       /* ranks along x and y */
  int ix, iy;       /* this rank's place in the grid */
};

static const struct bench_kernel kernel = {
  "wrf_like",
  "WRF-like model I/O: a namelist read by every rank, history files every\n"
  "output step and restart files, written by every rank, by rank 0\n"
  "(serial) or one file per rank (split); then a restart read.",
  "Bytes per variable per rank: patch*patch*levels*4 (default 64 KiB).\n"
  "Interfaces in this build: " BENCH_APIS_BUILT "\n",
};

/* Bytes of one variable over the whole domain. */
static uint64_t var_bytes(const struct wrf_cfg *c)
{
  return c->patch * c->patch * c->levels * 4 * (uint64_t)c->px * c->py;
}

static uint64_t patch_bytes(const struct wrf_cfg *c)
{
  return c->patch * c->patch * c->levels * 4;
}

/* 1 when a parallel file is written one patch row per call. */
static int by_rows(const struct wrf_cfg *c)
{
  return c->io == WRF_PARALLEL && c->independent;
}

/* The rank's requests for one file of nvars variables: in a split file its
 * patches; in a serial file (rank 0) whole variables; in a parallel file
 * its patch rows (rows) or its patch as one block, the ranks' blocks
 * following each other in rank order (the order rank 0 gathers them in a
 * serial file, so a serial file is read back this way too). */
static struct bench_extent *make_extents(const struct bench_ctx *ctx,
                                         const struct wrf_cfg *c, int io,
                                         int rows, uint64_t nvars,
                                         uint64_t file_tag, size_t *n)
{
  uint64_t per_var = rows ? c->levels * c->patch : 1;
  uint64_t count = nvars * per_var;
  struct bench_extent *x = bench_xcalloc(ctx, count, sizeof *x);
  uint64_t row_bytes = c->patch * 4, nx = c->patch * (uint64_t)c->px;
  uint64_t ny = c->patch * (uint64_t)c->py;
  for (uint64_t v = 0, k = 0; v < nvars; v++) {
    uint64_t tag = file_tag * 1000 + v;
    if (io == WRF_SPLIT) {
      x[k++] = (struct bench_extent){v * patch_bytes(c), patch_bytes(c), tag};
    } else if (io == WRF_SERIAL) {
      x[k++] = (struct bench_extent){v * var_bytes(c), var_bytes(c), tag};
    } else if (!rows) {
      uint64_t slot = (uint64_t)ctx->rank * patch_bytes(c);
      x[k++] = (struct bench_extent){v * var_bytes(c) + slot, patch_bytes(c),
                                     tag};
    } else {
      for (uint64_t z = 0; z < c->levels; z++)
        for (uint64_t j = 0; j < c->patch; j++) {
          uint64_t row = z * ny + (uint64_t)c->iy * c->patch + j;
          uint64_t off = v * var_bytes(c) + (row * nx +
                         (uint64_t)c->ix * c->patch) * 4;
          x[k++] = (struct bench_extent){off, row_bytes, tag};
        }
    }
  }
  *n = (size_t)count;
  return x;
}

/* Every rank reads the namelist (rank 0 wrote it first, untimed). */
static void read_namelist(struct bench_ctx *ctx, const struct wrf_cfg *c)
{
  char path[PATH_MAX];
  bench_path(ctx, path, sizeof path, "namelist.input");
  if (ctx->rank == 0) {
    FILE *f = fopen(path, "w");
    if (!f)
      bench_die(ctx, "create %s: %s", path, strerror(errno));
    for (uint64_t i = 0; i < c->namelist_lines; i++)
      fprintf(f, " option_%04" PRIu64 " = %" PRIu64 ",\n", i, i * 7 % 101);
    if (fclose(f) != 0)
      bench_die(ctx, "write %s: %s", path, strerror(errno));
  }
  /* read whole, as a Fortran runtime fills its buffer, then parsed */
  double t0 = bench_phase_begin(ctx);
  FILE *f = fopen(path, "r");
  if (!f)
    bench_die(ctx, "open %s: %s", path, strerror(errno));
  char *text = bench_xmalloc(ctx, 65536);
  uint64_t lines = 0;
  size_t got;
  while ((got = fread(text, 1, 65536, f)) > 0) {
    ctx->bytes_read += got;
    for (size_t i = 0; i < got; i++)
      lines += text[i] == '\n';
  }
  fclose(f);
  free(text);
  if (lines != c->namelist_lines)
    bench_die(ctx, "%s: %" PRIu64 " lines, expected %" PRIu64, path, lines,
              c->namelist_lines);
  bench_phase_end(ctx, "namelist", t0);
}

/* Serial I/O: gather each variable to rank 0, which writes it. */
static void write_serial(struct bench_ctx *ctx, const struct wrf_cfg *c,
                         struct bfile *f, const struct bench_extent *x,
                         size_t n, void *buf)
{
  uint64_t pb = patch_bytes(c);
  char *mine = bench_xmalloc(ctx, pb);
  for (size_t i = 0; i < n; i++) {
    /* the ranks' patches, gathered in rank order, are rank 0's variable */
    bench_pattern_fill(mine, pb, x[i].tag, x[i].off + (uint64_t)ctx->rank * pb);
    bench_check_mpi(ctx, MPI_Gather(mine, (int)pb, MPI_BYTE, buf, (int)pb,
                                    MPI_BYTE, 0, MPI_COMM_WORLD), "gather");
    if (ctx->rank == 0) {
      bfile_write(f, x[i].off, buf, x[i].len);
      ctx->bytes_written += x[i].len;
      if (c->fsync)
        bfile_sync(f);
    }
  }
  free(mine);
}

/* Write one history or restart file. */
static void write_file(struct bench_ctx *ctx, const struct wrf_cfg *c,
                       const char *kind, uint64_t step, uint64_t nvars)
{
  char path[PATH_MAX];
  if (c->io == WRF_SPLIT)
    bench_path(ctx, path, sizeof path, "%s.%04" PRIu64 ".%05d", kind, step,
               ctx->rank);
  else
    bench_path(ctx, path, sizeof path, "%s.%04" PRIu64, kind, step);
  size_t n;
  uint64_t tag = step * 2 + (strcmp(kind, "wrfrst") == 0);
  struct bench_extent *x = make_extents(ctx, c, c->io, by_rows(c), nvars, tag,
                                        &n);
  int rank0 = c->io == WRF_SERIAL;
  struct bfile_spec spec = {
    (enum bench_api)c->api, path, c->io == WRF_PARALLEL, !c->independent, 1,
    c->io == WRF_SPLIT ? nvars * patch_bytes(c) : nvars * var_bytes(c), 0, 0,
    NULL};
  if (rank0)
    spec.collective = 0;
  uint64_t max = rank0 ? var_bytes(c) : x[0].len;
  void *buf = bench_xalloc(ctx, max);
  struct bfile *f = !rank0 || ctx->rank == 0 ? bfile_open(ctx, &spec) : NULL;
  if (rank0)
    write_serial(ctx, c, f, x, n, buf);
  else
    bfile_write_extents(f, x, n, buf, c->fsync, 1);
  if (f)
    bfile_close(f);
  free(buf);
  free(x);
}

/* The restart: every rank reads its patch of the last restart file. */
static void read_restart(struct bench_ctx *ctx, const struct wrf_cfg *c,
                         uint64_t step)
{
  char path[PATH_MAX];
  if (c->io == WRF_SPLIT)
    bench_path(ctx, path, sizeof path, "wrfrst.%04" PRIu64 ".%05d", step,
               ctx->rank);
  else
    bench_path(ctx, path, sizeof path, "wrfrst.%04" PRIu64, step);
  size_t n;
  /* a serial file is read back in parallel, each rank its own patch */
  int io = c->io == WRF_SERIAL ? WRF_PARALLEL : c->io;
  struct bench_extent *x = make_extents(ctx, c, io, by_rows(c), 2 * c->vars,
                                        step * 2 + 1, &n);
  struct bfile_spec spec = {
    (enum bench_api)c->api, path, c->io != WRF_SPLIT, !c->independent, 0, 0,
    0, 0, NULL};
  spec.size = c->io == WRF_SPLIT ? 2 * c->vars * patch_bytes(c)
                                 : 2 * c->vars * var_bytes(c);
  void *buf = bench_xalloc(ctx, x[0].len);
  struct bfile *f = bfile_open(ctx, &spec);
  bfile_read_extents(f, x, n, buf, 1);
  bfile_close(f);
  free(buf);
  free(x);
}

static void validate(struct bench_ctx *ctx, struct wrf_cfg *c)
{
  bench_api_check(ctx, (enum bench_api)c->api);
  if (c->api == BENCH_API_POSIX)
    c->independent = 1;
  if (c->io == WRF_SERIAL && (uint64_t)ctx->nranks * patch_bytes(c) > (1u << 30))
    bench_usage_error(ctx, "--io serial gathers a whole variable on rank 0: "
                      "keep it under 1 GiB");
  if (patch_bytes(c) > (1u << 30))
    bench_usage_error(ctx, "a patch variable must be under 1 GiB");
  int dims[2] = {0, 0};
  MPI_Dims_create(ctx->nranks, 2, dims);
  c->px = dims[0];
  c->py = dims[1];
  c->ix = ctx->rank % c->px;
  c->iy = ctx->rank / c->px;
}

static void describe(struct bench_ctx *ctx, const struct wrf_cfg *c)
{
  static const char *const io[] = {"parallel", "serial", "split"};
  bench_cfg(ctx, "api", "%s", bench_api_name((enum bench_api)c->api));
  bench_cfg(ctx, "io", "%s", io[c->io]);
  bench_cfg(ctx, "calls", "%s", c->independent ? "independent" : "collective");
  bench_cfg(ctx, "grid", "%dx%d", c->px, c->py);
  bench_cfg(ctx, "patch", "%" PRIu64, c->patch);
  bench_cfg(ctx, "levels", "%" PRIu64, c->levels);
  bench_cfg(ctx, "vars", "%" PRIu64, c->vars);
  bench_cfg(ctx, "steps", "%" PRIu64, c->steps);
  bench_cfg(ctx, "restart_every", "%" PRIu64, c->restart_every);
  bench_cfg(ctx, "fsync", "%d", c->fsync);
}

int main(int argc, char **argv)
{
  struct bench_ctx ctx;
  struct wrf_cfg c = {
    .api = BENCH_API_MPIIO, .io = WRF_PARALLEL, .patch = 64, .levels = 4,
    .vars = 8, .steps = 4, .restart_every = 2, .namelist_lines = 200,
  };
  int write_only = 0;
  const struct bench_opt opts[] = {
    BENCH_CHOICE("api", &c.api, BENCH_API_CHOICES, "I/O interface"),
    BENCH_CHOICE("io", &c.io, "parallel|serial|split",
                 "every rank, rank 0 gathers and writes, or a file per rank"),
    BENCH_SET("independent", &c.independent, 1,
              "independent MPI-IO/PnetCDF calls, one per patch row"),
    BENCH_SET("collective", &c.independent, 0, "collective calls"),
    BENCH_UINT("patch", &c.patch, 1, 4096, "cells along each side of a patch"),
    BENCH_UINT("levels", &c.levels, 1, 1024, "vertical levels"),
    BENCH_UINT("vars", &c.vars, 1, 1000, "variables of a history file"),
    BENCH_UINT("steps", &c.steps, 1, 10000, "history outputs"),
    BENCH_UINT("restart-every", &c.restart_every, 1, 10000,
               "a restart file every this many outputs"),
    BENCH_UINT("namelist-lines", &c.namelist_lines, 1, 1000000,
               "lines of the namelist every rank reads"),
    BENCH_SET("fsync-per-write", &c.fsync, 1, "sync after every write"),
    BENCH_SET("write", &write_only, 1, "no restart read at the end"),
    BENCH_END,
  };
  bench_init(&argc, &argv, &kernel, opts, &ctx);
  validate(&ctx, &c);
  bench_setup_dir(&ctx);
  describe(&ctx, &c);
  read_namelist(&ctx, &c);
  double t0 = bench_phase_begin(&ctx);
  uint64_t last_restart = 0;
  for (uint64_t s = 1; s <= c.steps; s++) {
    write_file(&ctx, &c, "wrfout", s, c.vars);
    if (s % c.restart_every == 0 || s == c.steps) {
      write_file(&ctx, &c, "wrfrst", s, 2 * c.vars);
      last_restart = s;
    }
  }
  bench_phase_end(&ctx, "write", t0);
  if (!write_only) {
    t0 = bench_phase_begin(&ctx);
    read_restart(&ctx, &c, last_restart);
    bench_phase_end(&ctx, "read", t0);
  }
  bench_report(&ctx);
  return bench_finish(&ctx);
}
