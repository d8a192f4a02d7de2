/* bench/e3sm_like.c - an E3SM-like climate model's history output through
 * a PIO-like layer: the compute ranks hand their data to a subset of I/O
 * ranks, which write it with PnetCDF (or MPI-IO, POSIX) on their own
 * communicator.
 *
 * The grid has --cells cells per rank; each of --vars variables is one
 * 8-byte double per cell, written --steps times (one history file per
 * step, the variables one after the other). Compute rank r owns cells by
 * --decomp: "block" (cells r*C .. r*C+C-1) or "cyclic" (cells r, r+n, r+2n,
 * ...: an unstructured grid whose neighbours are scattered over the file).
 *
 * --rearranger box (PIO's default): every --stride-th rank is an I/O rank
 * (--io-tasks of them); I/O rank k owns a contiguous range of cells, and an
 * MPI_Alltoallv moves every cell from the compute rank that has it to the
 * I/O rank that writes it. Each I/O rank then writes one request per
 * variable (collective by default). --rearranger none: every rank writes
 * its own cells itself, one request per contiguous run of cells: one per
 * cell for a cyclic decomposition.
 *
 * After the last step every I/O rank reads its part of the last file back
 * and verifies it (a restart read). */
#include "bfile.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum { E3SM_BOX, E3SM_NONE };
enum { E3SM_BLOCK, E3SM_CYCLIC };

struct e3sm_cfg {
  int api, independent, rearranger, decomp, fsync;
  uint64_t cells, vars, steps, io_tasks;
  uint64_t stride;  /* ranks per I/O rank */
  int is_io;        /* this rank writes */
  MPI_Comm io_comm; /* the I/O ranks (MPI_COMM_NULL elsewhere) */
};

static const struct bench_kernel kernel = {
  "e3sm_like",
  "E3SM/PIO-like history output: compute ranks hand their cells to a\n"
  "subset of I/O ranks that write them with PnetCDF (or every rank\n"
  "writes its own cells: --rearranger none).",
  "Bytes per step: ranks * cells * vars * 8.\n"
  "Interfaces in this build: " BENCH_APIS_BUILT "\n",
};

static uint64_t total_cells(const struct bench_ctx *ctx,
                            const struct e3sm_cfg *c)
{
  return c->cells * (uint64_t)ctx->nranks;
}

/* Global index of the i-th cell of compute rank r. */
static uint64_t cell_of(const struct bench_ctx *ctx, const struct e3sm_cfg *c,
                        uint64_t r, uint64_t i)
{
  return c->decomp == E3SM_BLOCK ? r * c->cells + i
                                 : i * (uint64_t)ctx->nranks + r;
}

/* I/O rank k writes cells [k*T/K, (k+1)*T/K) of the T cells (K I/O
 * ranks): never empty, as T >= K. */
static void io_range(const struct bench_ctx *ctx, const struct e3sm_cfg *c,
                     uint64_t k, uint64_t *first, uint64_t *count)
{
  uint64_t t = total_cells(ctx, c);
  *first = k * t / c->io_tasks;
  *count = (k + 1) * t / c->io_tasks - *first;
}

/* The I/O rank (its index k) that writes cell g. */
static uint64_t io_task_of(const struct bench_ctx *ctx,
                           const struct e3sm_cfg *c, uint64_t g)
{
  uint64_t k = g * c->io_tasks / total_cells(ctx, c), first, count;
  for (;;) {
    io_range(ctx, c, k, &first, &count);
    if (g < first)
      k--;
    else if (g >= first + count)
      k++;
    else
      return k;
  }
}

/* One variable's values on this rank: the data pattern of (tag, file
 * offset) for each of its cells, so any rank can check any cell. */
static void fill_cells(const struct bench_ctx *ctx, const struct e3sm_cfg *c,
                       uint64_t tag, uint64_t var_off, char *out)
{
  for (uint64_t i = 0; i < c->cells; i++) {
    uint64_t g = cell_of(ctx, c, (uint64_t)ctx->rank, i);
    bench_pattern_fill(out + i * 8, 8, tag, var_off + g * 8);
  }
}

/* Box rearranger: move this rank's cells (mine, in cell order) to the I/O
 * ranks; an I/O rank receives its range into io_buf in global order. */
static void rearrange(const struct bench_ctx *ctx, const struct e3sm_cfg *c,
                      const char *mine, char *io_buf)
{
  int n = ctx->nranks;
  int *scount = bench_xcalloc(ctx, (size_t)n * 4, sizeof *scount);
  int *sdisp = scount + n, *rcount = scount + 2 * n, *rdisp = scount + 3 * n;
  char *sorted = bench_xmalloc(ctx, c->cells * 8 + 1);
  /* cells go to I/O rank k = rank k * stride; both decompositions give
   * each destination its cells in increasing order */
  for (uint64_t i = 0; i < c->cells; i++) {
    uint64_t g = cell_of(ctx, c, (uint64_t)ctx->rank, i);
    scount[io_task_of(ctx, c, g) * c->stride] += 8;
  }
  for (int d = 1; d < n; d++)
    sdisp[d] = sdisp[d - 1] + scount[d - 1];
  int *fill = bench_xcalloc(ctx, (size_t)n, sizeof *fill);
  for (uint64_t i = 0; i < c->cells; i++) {
    uint64_t g = cell_of(ctx, c, (uint64_t)ctx->rank, i);
    uint64_t d = io_task_of(ctx, c, g) * c->stride;
    memcpy(sorted + sdisp[d] + fill[d], mine + i * 8, 8);
    fill[d] += 8;
  }
  bench_check_mpi(ctx, MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT,
                                    MPI_COMM_WORLD), "alltoall");
  for (int s = 1; s < n; s++)
    rdisp[s] = rdisp[s - 1] + rcount[s - 1];
  char *recv = bench_xmalloc(ctx, (size_t)(rdisp[n - 1] + rcount[n - 1]) + 1);
  bench_check_mpi(ctx, MPI_Alltoallv(sorted, scount, sdisp, MPI_BYTE, recv,
                                     rcount, rdisp, MPI_BYTE, MPI_COMM_WORLD),
                  "alltoallv");
  if (c->is_io) {
    /* the cells of each source arrive in increasing order: walk the
     * range in order and take each cell from its owner's next slot */
    uint64_t first, count;
    io_range(ctx, c, (uint64_t)ctx->rank / c->stride, &first, &count);
    uint64_t *next = bench_xcalloc(ctx, (size_t)n, sizeof *next);
    for (uint64_t g = first; g < first + count; g++) {
      uint64_t owner = c->decomp == E3SM_BLOCK ? g / c->cells
                                               : g % (uint64_t)n;
      memcpy(io_buf + (g - first) * 8, recv + rdisp[owner] + next[owner], 8);
      next[owner] += 8;
    }
    free(next);
  }
  free(recv);
  free(fill);
  free(sorted);
  free(scount);
}

/* This rank's requests for one step's file: one per variable on an I/O
 * rank (box), one per contiguous run of its cells (none). */
static struct bench_extent *make_extents(const struct bench_ctx *ctx,
                                         const struct e3sm_cfg *c,
                                         uint64_t step, size_t *n)
{
  uint64_t var_bytes = total_cells(ctx, c) * 8, runs, first, count;
  if (c->rearranger == E3SM_BOX)
    runs = c->is_io ? 1 : 0;
  else
    runs = c->decomp == E3SM_BLOCK ? 1 : c->cells;
  struct bench_extent *x = bench_xcalloc(ctx, c->vars * runs + 1, sizeof *x);
  size_t k = 0;
  for (uint64_t v = 0; v < c->vars; v++) {
    uint64_t tag = step * 1000 + v;
    if (c->rearranger == E3SM_BOX && c->is_io) {
      io_range(ctx, c, (uint64_t)ctx->rank / c->stride, &first, &count);
      x[k++] = (struct bench_extent){v * var_bytes + first * 8, count * 8, tag};
    } else if (c->rearranger == E3SM_NONE && c->decomp == E3SM_BLOCK) {
      uint64_t g = cell_of(ctx, c, (uint64_t)ctx->rank, 0);
      x[k++] = (struct bench_extent){v * var_bytes + g * 8, c->cells * 8, tag};
    } else if (c->rearranger == E3SM_NONE) {
      for (uint64_t i = 0; i < c->cells; i++) {
        uint64_t g = cell_of(ctx, c, (uint64_t)ctx->rank, i);
        x[k++] = (struct bench_extent){v * var_bytes + g * 8, 8, tag};
      }
    }
  }
  *n = k;
  return x;
}

/* The file of a step; I/O ranks (box) or every rank (none) open it. */
static struct bfile_spec step_spec(const struct bench_ctx *ctx,
                                   const struct e3sm_cfg *c, char *path,
                                   uint64_t step)
{
  bench_path(ctx, path, PATH_MAX, "h0.%04" PRIu64 ".nc", step);
  struct bfile_spec spec = {
    (enum bench_api)c->api, path, 1, !c->independent, 1,
    c->vars * total_cells(ctx, c) * 8, 0, 0,
    c->rearranger == E3SM_BOX ? &c->io_comm : NULL};
  return spec;
}

/* One history step: every variable rearranged (box) and written. */
static void write_step(struct bench_ctx *ctx, const struct e3sm_cfg *c,
                       uint64_t step)
{
  char path[PATH_MAX];
  struct bfile_spec spec = step_spec(ctx, c, path, step);
  size_t n;
  struct bench_extent *x = make_extents(ctx, c, step, &n);
  int writes = c->rearranger == E3SM_NONE || c->is_io;
  char *mine = bench_xmalloc(ctx, c->cells * 8);
  char *buf = bench_xalloc(ctx, n ? x[0].len : 8);
  struct bfile *f = writes ? bfile_open(ctx, &spec) : NULL;
  uint64_t per_var = n / c->vars;
  for (uint64_t v = 0; v < c->vars; v++) {
    if (c->rearranger == E3SM_BOX) {
      fill_cells(ctx, c, step * 1000 + v, v * total_cells(ctx, c) * 8, mine);
      rearrange(ctx, c, mine, buf);
      if (c->is_io) {
        bfile_write(f, x[v].off, buf, x[v].len);
        ctx->bytes_written += x[v].len;
        if (c->fsync)
          bfile_sync(f);
      }
    } else {
      bfile_write_extents(f, x + v * per_var, per_var, buf, c->fsync, 1);
    }
  }
  if (f)
    bfile_close(f);
  free(buf);
  free(mine);
  free(x);
}

/* Read the last step back where it was written, and verify it. */
static void read_step(struct bench_ctx *ctx, const struct e3sm_cfg *c,
                      uint64_t step)
{
  if (c->rearranger == E3SM_BOX && !c->is_io)
    return;
  char path[PATH_MAX];
  struct bfile_spec spec = step_spec(ctx, c, path, step);
  spec.create = 0;
  size_t n;
  struct bench_extent *x = make_extents(ctx, c, step, &n);
  void *buf = bench_xalloc(ctx, x[0].len);
  struct bfile *f = bfile_open(ctx, &spec);
  bfile_read_extents(f, x, n, buf, 1);
  bfile_close(f);
  free(buf);
  free(x);
}

static void validate(struct bench_ctx *ctx, struct e3sm_cfg *c)
{
  bench_api_check(ctx, (enum bench_api)c->api);
  if (c->api == BENCH_API_POSIX)
    c->independent = 1;
  uint64_t n = (uint64_t)ctx->nranks;
  if (c->io_tasks == 0)
    c->io_tasks = n >= 4 ? n / 4 : 1;
  if (c->io_tasks > n)
    bench_usage_error(ctx, "--io-tasks %" PRIu64 " exceeds the %d ranks",
                      c->io_tasks, ctx->nranks);
  if (c->cells > (1u << 27) || c->vars * c->cells * n > ((uint64_t)1 << 37))
    bench_usage_error(ctx, "the history file would be too large");
  if (c->rearranger == E3SM_NONE && c->decomp == E3SM_CYCLIC &&
      c->cells * c->vars > BENCH_MAX_REQUESTS)
    bench_usage_error(ctx, "too many requests per rank; fewer --cells");
  if (c->rearranger == E3SM_BOX &&
      (c->cells * n / c->io_tasks + 1) * 8 > (uint64_t)INT_MAX)
    bench_usage_error(ctx, "an I/O rank would receive 2 GiB or more of a "
                      "variable; more --io-tasks or fewer --cells");
  c->stride = n / c->io_tasks;
  c->is_io = (uint64_t)ctx->rank % c->stride == 0 &&
             (uint64_t)ctx->rank / c->stride < c->io_tasks;
  bench_check_mpi(ctx, MPI_Comm_split(MPI_COMM_WORLD, c->is_io ? 0 : MPI_UNDEFINED,
                                      ctx->rank, &c->io_comm), "comm_split");
}

static void describe(struct bench_ctx *ctx, const struct e3sm_cfg *c)
{
  bench_cfg(ctx, "api", "%s", bench_api_name((enum bench_api)c->api));
  bench_cfg(ctx, "rearranger", "%s", c->rearranger == E3SM_BOX ? "box" : "none");
  bench_cfg(ctx, "io_tasks", "%" PRIu64,
            c->rearranger == E3SM_BOX ? c->io_tasks : (uint64_t)ctx->nranks);
  bench_cfg(ctx, "decomp", "%s", c->decomp == E3SM_BLOCK ? "block" : "cyclic");
  bench_cfg(ctx, "calls", "%s", c->independent ? "independent" : "collective");
  bench_cfg(ctx, "cells", "%" PRIu64, c->cells);
  bench_cfg(ctx, "vars", "%" PRIu64, c->vars);
  bench_cfg(ctx, "steps", "%" PRIu64, c->steps);
  bench_cfg(ctx, "fsync", "%d", c->fsync);
}

int main(int argc, char **argv)
{
  struct bench_ctx ctx;
  struct e3sm_cfg c = {
#ifdef BENCH_HAVE_PNETCDF
    .api = BENCH_API_PNETCDF,
#else
    .api = BENCH_API_MPIIO,
#endif
    .cells = 16384, .vars = 8, .steps = 2, .io_comm = MPI_COMM_NULL,
  };
  const struct bench_opt opts[] = {
    BENCH_CHOICE("api", &c.api, BENCH_API_CHOICES,
                 "I/O interface (default pnetcdf when built)"),
    BENCH_CHOICE("rearranger", &c.rearranger, "box|none",
                 "through I/O ranks, or every rank writes its own cells"),
    BENCH_UINT("io-tasks", &c.io_tasks, 1, 1 << 20,
               "I/O ranks of the box rearranger (default ranks/4, at least 1)"),
    BENCH_CHOICE("decomp", &c.decomp, "block|cyclic",
                 "cells of a rank: one range, or every n-th cell"),
    BENCH_SET("independent", &c.independent, 1, "independent calls"),
    BENCH_SET("collective", &c.independent, 0, "collective calls"),
    BENCH_UINT("cells", &c.cells, 1, 1u << 27, "cells per rank"),
    BENCH_UINT("vars", &c.vars, 1, 10000, "variables per history file"),
    BENCH_UINT("steps", &c.steps, 1, 10000, "history files"),
    BENCH_SET("fsync-per-write", &c.fsync, 1, "sync after every variable"),
    BENCH_END,
  };
  bench_init(&argc, &argv, &kernel, opts, &ctx);
  validate(&ctx, &c);
  bench_setup_dir(&ctx);
  describe(&ctx, &c);
  double t0 = bench_phase_begin(&ctx);
  for (uint64_t s = 1; s <= c.steps; s++)
    write_step(&ctx, &c, s);
  bench_phase_end(&ctx, "write", t0);
  t0 = bench_phase_begin(&ctx);
  read_step(&ctx, &c, c.steps);
  bench_phase_end(&ctx, "read", t0);
  if (c.io_comm != MPI_COMM_NULL)
    MPI_Comm_free(&c.io_comm);
  bench_report(&ctx);
  return bench_finish(&ctx);
}
