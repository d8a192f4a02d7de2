/* bench/amrex_like.c - AMReX-like plot files of an adaptive mesh code.
 *
 * A plot file is a directory (amrex_like.plt<step>/) with a Header written
 * by rank 0, and for every level a directory Level_<l>/ holding the level's
 * data files Cell_D_<f> and an index Cell_H (rank 0, one line per box:
 * file and offset). Every rank writes its --fabs boxes of --fab bytes per
 * level; with --nfiles N (AMReX's NFiles) the ranks r with r % N == f
 * share data file f and write it in turn, each appending after the
 * previous one (a token passed from rank to rank); N = ranks (the default)
 * is a file per rank per level. A box is written in --transfer pieces
 * (default: one write). --heavy-factor K gives rank 0 K times the boxes
 * (the finest level living on few ranks).
 *
 * --verify reads every rank's boxes of the last plot file back. */
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct amrex_cfg {
  uint64_t levels, plotfiles, fabs, fab, transfer, nfiles, heavy_factor;
  int verify;
};

static const struct bench_kernel kernel = {
  "amrex_like",
  "AMReX-like plot files: per level, a data file per rank (or per group\n"
  "of ranks, --nfiles) plus a Header and box index from rank 0.",
  NULL,
};

static uint64_t fabs_of(const struct amrex_cfg *c, int rank)
{
  return rank == 0 ? c->fabs * c->heavy_factor : c->fabs;
}

/* Directory of level l of plot file p (or the plot file itself, l < 0). */
static void level_dir(const struct bench_ctx *ctx, char *out, uint64_t p,
                      int64_t l)
{
  if (l < 0)
    bench_path(ctx, out, PATH_MAX, "plt%05" PRIu64, p);
  else
    bench_path(ctx, out, PATH_MAX, "plt%05" PRIu64 "/Level_%" PRId64, p, l);
}

static void make_dir(const struct bench_ctx *ctx, const char *path)
{
  if (mkdir(path, 0755) != 0 && errno != EEXIST)
    bench_die(ctx, "mkdir %s: %s", path, strerror(errno));
}

/* Write (or, verify, read and check) this rank's boxes of one level at
 * offset off of its data file; the tag of a box names plot file, level,
 * rank and box. */
static void rank_boxes(struct bench_ctx *ctx, const struct amrex_cfg *c,
                       const char *path, uint64_t p, uint64_t l, uint64_t off,
                       int verify, char *buf)
{
  int fd = verify ? open(path, O_RDONLY)
                  : open(path, O_WRONLY | O_CREAT, 0644);
  if (fd < 0)
    bench_die(ctx, "open %s: %s", path, strerror(errno));
  for (uint64_t b = 0; b < fabs_of(c, ctx->rank); b++) {
    uint64_t tag = ((p * 64 + l) * 100000 + (uint64_t)ctx->rank) * 1000 + b;
    for (uint64_t t = 0; t < c->fab; t += c->transfer) {
      uint64_t at = off + b * c->fab + t;
      ssize_t got;
      if (verify) {
        got = pread(fd, buf, c->transfer, (off_t)at);
        if (got == (ssize_t)c->transfer)
          bench_verify(ctx, buf, c->transfer, tag, b * c->fab + t, path);
        ctx->bytes_read += got > 0 ? (uint64_t)got : 0;
      } else {
        bench_pattern_fill(buf, c->transfer, tag, b * c->fab + t);
        got = pwrite(fd, buf, c->transfer, (off_t)at);
        ctx->bytes_written += got > 0 ? (uint64_t)got : 0;
      }
      if (got != (ssize_t)c->transfer)
        bench_die(ctx, "%s %s: %s", verify ? "read" : "write", path,
                  got < 0 ? strerror(errno) : "short");
    }
  }
  if (close(fd) != 0)
    bench_die(ctx, "close %s: %s", path, strerror(errno));
}

/* Where rank r's boxes start in its data file: after the boxes of the
 * ranks before it in its group (only rank 0, first of file 0, is heavy). */
static uint64_t group_offset(const struct amrex_cfg *c, int r)
{
  uint64_t before = (uint64_t)r / c->nfiles;
  uint64_t boxes = before * c->fabs;
  if ((uint64_t)r % c->nfiles == 0 && before > 0)
    boxes += (c->heavy_factor - 1) * c->fabs;
  return boxes * c->fab;
}

/* One level: the ranks of each data file in turn; returns this rank's
 * offset in its file. */
static uint64_t write_level(struct bench_ctx *ctx, const struct amrex_cfg *c,
                            uint64_t p, uint64_t l, int verify, char *buf)
{
  char dir[PATH_MAX], path[PATH_MAX + 32];
  level_dir(ctx, dir, p, (int64_t)l);
  uint64_t file = (uint64_t)ctx->rank % c->nfiles;
  snprintf(path, sizeof path, "%s/Cell_D_%05" PRIu64, dir, file);
  /* the previous rank of the group says where this rank starts */
  uint64_t off = 0;
  int prev = ctx->rank - (int)c->nfiles, next = ctx->rank + (int)c->nfiles;
  if (prev >= 0 && !verify)
    MPI_Recv(&off, 1, MPI_UINT64_T, prev, 7, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  else if (verify) /* reading: the offset follows from the box counts */
    off = group_offset(c, ctx->rank);
  rank_boxes(ctx, c, path, p, l, off, verify, buf);
  uint64_t end = off + fabs_of(c, ctx->rank) * c->fab;
  if (next < ctx->nranks && !verify)
    MPI_Send(&end, 1, MPI_UINT64_T, next, 7, MPI_COMM_WORLD);
  return off;
}

/* Rank 0's text files: the Header of plot file p, and a Cell_H per level
 * listing every box's file and offset (gathered). */
static void write_headers(struct bench_ctx *ctx, const struct amrex_cfg *c,
                          uint64_t p, const uint64_t *offs)
{
  uint64_t *all = ctx->rank == 0
                      ? bench_xcalloc(ctx, (size_t)ctx->nranks * c->levels, 8)
                      : NULL;
  MPI_Gather(offs, (int)c->levels, MPI_UINT64_T, all, (int)c->levels,
             MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (ctx->rank != 0)
    return;
  char dir[PATH_MAX], path[PATH_MAX + 32];
  level_dir(ctx, dir, p, -1);
  snprintf(path, sizeof path, "%s/Header", dir);
  FILE *h = fopen(path, "w");
  if (!h)
    bench_die(ctx, "create %s: %s", path, strerror(errno));
  fprintf(h, "HyperCLaw-V1.1\n1\ndensity\n3\n%" PRIu64 "\n", p);
  for (uint64_t l = 0; l < c->levels; l++) {
    char lpath[PATH_MAX + 32];
    level_dir(ctx, dir, p, (int64_t)l);
    snprintf(lpath, sizeof lpath, "%s/Cell_H", dir);
    FILE *ch = fopen(lpath, "w");
    if (!ch)
      bench_die(ctx, "create %s: %s", lpath, strerror(errno));
    fprintf(h, "%" PRIu64 " %d %" PRIu64 "\nLevel_%" PRIu64 "/Cell\n", l,
            ctx->nranks, p, l);
    for (int r = 0; r < ctx->nranks; r++)
      for (uint64_t b = 0; b < fabs_of(c, r); b++) {
        fprintf(h, "((%d,%" PRIu64 ") (%d,%" PRIu64 ") (0,0))\n", r, b, r, b);
        fprintf(ch, "FabOnDisk: Cell_D_%05" PRIu64 " %" PRIu64 "\n",
                (uint64_t)r % c->nfiles,
                all[(size_t)r * c->levels + l] + b * c->fab);
      }
    if (fclose(ch) != 0)
      bench_die(ctx, "write %s: %s", lpath, strerror(errno));
  }
  if (fclose(h) != 0)
    bench_die(ctx, "write %s: %s", path, strerror(errno));
  free(all);
}

static void plotfile(struct bench_ctx *ctx, const struct amrex_cfg *c,
                     uint64_t p, char *buf, uint64_t *offs)
{
  char dir[PATH_MAX];
  if (ctx->rank == 0) {
    level_dir(ctx, dir, p, -1);
    make_dir(ctx, dir);
    for (uint64_t l = 0; l < c->levels; l++) {
      level_dir(ctx, dir, p, (int64_t)l);
      make_dir(ctx, dir);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  for (uint64_t l = 0; l < c->levels; l++)
    offs[l] = write_level(ctx, c, p, l, 0, buf);
  write_headers(ctx, c, p, offs);
}

static void validate(struct bench_ctx *ctx, struct amrex_cfg *c)
{
  if (c->nfiles == 0 || c->nfiles > (uint64_t)ctx->nranks)
    c->nfiles = (uint64_t)ctx->nranks;
  if (c->transfer == 0)
    c->transfer = c->fab;
  char f[32], t[32];
  if (c->transfer > c->fab || c->fab % c->transfer != 0)
    bench_usage_error(ctx, "--fab %s must be a multiple of --transfer %s",
                      bench_fmt_size(c->fab, f, sizeof f),
                      bench_fmt_size(c->transfer, t, sizeof t));
}

static void describe(struct bench_ctx *ctx, const struct amrex_cfg *c)
{
  char f[32], t[32];
  bench_cfg(ctx, "levels", "%" PRIu64, c->levels);
  bench_cfg(ctx, "plotfiles", "%" PRIu64, c->plotfiles);
  bench_cfg(ctx, "fabs", "%" PRIu64, c->fabs);
  bench_cfg(ctx, "fab", "%s", bench_fmt_size(c->fab, f, sizeof f));
  bench_cfg(ctx, "transfer", "%s", bench_fmt_size(c->transfer, t, sizeof t));
  bench_cfg(ctx, "nfiles", "%" PRIu64, c->nfiles);
  if (c->heavy_factor > 1)
    bench_cfg(ctx, "heavy_factor", "%" PRIu64, c->heavy_factor);
}

int main(int argc, char **argv)
{
  struct bench_ctx ctx;
  struct amrex_cfg c = {
    .levels = 2, .plotfiles = 2, .fabs = 4, .fab = 1 << 20, .heavy_factor = 1,
  };
  const struct bench_opt opts[] = {
    BENCH_UINT("levels", &c.levels, 1, 30, "refinement levels"),
    BENCH_UINT("plotfiles", &c.plotfiles, 1, 10000, "plot files written"),
    BENCH_UINT("fabs", &c.fabs, 1, 100000, "boxes per rank per level"),
    BENCH_SIZE("fab", &c.fab, 1, 1 << 30, "bytes per box"),
    BENCH_SIZE("transfer", &c.transfer, 0, 1 << 30,
               "bytes per write (0: a box in one write)"),
    BENCH_UINT("nfiles", &c.nfiles, 0, 1 << 20,
               "data files per level (0: one per rank)"),
    BENCH_UINT("heavy-factor", &c.heavy_factor, 1, 64,
               "rank 0 holds this many times the boxes"),
    BENCH_SET("verify", &c.verify, 1, "read the last plot file back"),
    BENCH_END,
  };
  bench_init(&argc, &argv, &kernel, opts, &ctx);
  validate(&ctx, &c);
  bench_setup_dir(&ctx);
  describe(&ctx, &c);
  char *buf = bench_xalloc(&ctx, c.transfer);
  uint64_t *offs = bench_xcalloc(&ctx, c.levels, sizeof *offs);
  double t0 = bench_phase_begin(&ctx);
  for (uint64_t p = 0; p < c.plotfiles; p++)
    plotfile(&ctx, &c, p, buf, offs);
  bench_phase_end(&ctx, "write", t0);
  if (c.verify) {
    t0 = bench_phase_begin(&ctx);
    for (uint64_t l = 0; l < c.levels; l++)
      write_level(&ctx, &c, c.plotfiles - 1, l, 1, buf);
    bench_phase_end(&ctx, "read", t0);
  }
  free(offs);
  free(buf);
  bench_report(&ctx);
  return bench_finish(&ctx);
}
