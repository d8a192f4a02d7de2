/* bench/ckpt_like.c - an application's checkpoint/restart: every rank
 * saves --state bytes of state in each of --checkpoints checkpoints, then
 * the job restarts from the last one (every rank reads its state back and
 * verifies it).
 *
 * --mode n1: one file per checkpoint shared by all ranks (N-1); rank r's
 * state is one block at r * state ("block" layout), or interleaved with
 * the other ranks' in --transfer pieces: piece i of rank r at
 * (i * ranks + r) * transfer ("strided": a checkpoint of arrays of
 * structures, written element by element).
 * --mode nn: one file per rank per checkpoint (N-N).
 * The state is written in --transfer requests (default: the whole state
 * in one) through POSIX, MPI-IO, HDF5 or PnetCDF. */
#include "bfile.h"

#include <inttypes.h>
#include <stdlib.h>

enum { CKPT_N1, CKPT_NN };
enum { CKPT_BLOCK, CKPT_STRIDED };

struct ckpt_cfg {
  int api, mode, layout, independent, fsync, random_restart;
  uint64_t state, transfer, checkpoints, restart_reads, heavy_factor;
};

static const struct bench_kernel kernel = {
  "ckpt_like",
  "Checkpoint/restart: every rank saves its state in each checkpoint\n"
  "(N-1 shared file or N-N file per rank), then reads the last one back.",
  "Interfaces in this build: " BENCH_APIS_BUILT "\n",
};

/* Bytes of state of rank r. */
static uint64_t state_of(const struct ckpt_cfg *c, uint64_t r)
{
  return r == 0 ? c->state * c->heavy_factor : c->state;
}

/* Where rank r's block starts in a shared block-layout file. */
static uint64_t block_start(const struct ckpt_cfg *c, uint64_t r)
{
  return r == 0 ? 0 : c->state * (c->heavy_factor + r - 1);
}

/* The rank's requests in one checkpoint; tagged with the checkpoint. */
static struct bench_extent *make_extents(const struct bench_ctx *ctx,
                                         const struct ckpt_cfg *c,
                                         uint64_t k, size_t *n)
{
  uint64_t r = (uint64_t)ctx->rank, nr = (uint64_t)ctx->nranks;
  uint64_t count = state_of(c, r) / c->transfer;
  struct bench_extent *x = bench_xcalloc(ctx, count, sizeof *x);
  for (uint64_t i = 0; i < count; i++) {
    uint64_t off;
    if (c->mode == CKPT_NN)
      off = i * c->transfer;
    else if (c->layout == CKPT_STRIDED)
      off = (i * nr + r) * c->transfer;
    else
      off = block_start(c, r) + i * c->transfer;
    x[i] = (struct bench_extent){off, c->transfer, k * 100000 + r};
  }
  *n = (size_t)count;
  return x;
}

static struct bfile_spec ckpt_spec(struct bench_ctx *ctx,
                                   const struct ckpt_cfg *c, char *path,
                                   uint64_t k)
{
  uint64_t nr = (uint64_t)ctx->nranks;
  if (c->mode == CKPT_NN)
    bench_path(ctx, path, PATH_MAX, "ckpt.%04" PRIu64 ".%05d", k, ctx->rank);
  else
    bench_path(ctx, path, PATH_MAX, "ckpt.%04" PRIu64, k);
  struct bfile_spec spec = {
    (enum bench_api)c->api, path, c->mode == CKPT_N1, !c->independent, 1,
    c->mode == CKPT_NN ? state_of(c, (uint64_t)ctx->rank)
                       : c->state * (nr + c->heavy_factor - 1),
    0, 0, NULL};
  return spec;
}

static void checkpoint(struct bench_ctx *ctx, const struct ckpt_cfg *c,
                       uint64_t k, void *buf)
{
  char path[PATH_MAX];
  struct bfile_spec spec = ckpt_spec(ctx, c, path, k);
  size_t n;
  struct bench_extent *x = make_extents(ctx, c, k, &n);
  struct bfile *f = bfile_open(ctx, &spec);
  bfile_write_extents(f, x, n, buf, c->fsync, 1);
  bfile_close(f);
  free(x);
}

static void restart(struct bench_ctx *ctx, const struct ckpt_cfg *c,
                    uint64_t k, void *buf)
{
  char path[PATH_MAX];
  struct bfile_spec spec = ckpt_spec(ctx, c, path, k);
  spec.create = 0;
  size_t n;
  struct bench_extent *x = make_extents(ctx, c, k, &n);
  if (c->random_restart) {
    struct bench_rng rng;
    bench_rng_init(&rng, ctx->seed, (uint64_t)ctx->rank);
    bench_shuffle(&rng, x, n, sizeof *x);
  }
  struct bfile *f = bfile_open(ctx, &spec);
  for (uint64_t pass = 0; pass < c->restart_reads; pass++)
    bfile_read_extents(f, x, n, buf, 1);
  bfile_close(f);
  free(x);
}

static void validate(struct bench_ctx *ctx, struct ckpt_cfg *c)
{
  bench_api_check(ctx, (enum bench_api)c->api);
  if (c->api == BENCH_API_POSIX)
    c->independent = 1;
  if (c->transfer == 0)
    c->transfer = c->state;
  char s[32], t[32];
  if (c->transfer > c->state || c->state % c->transfer != 0)
    bench_usage_error(ctx, "--state %s must be a multiple of --transfer %s",
                      bench_fmt_size(c->state, s, sizeof s),
                      bench_fmt_size(c->transfer, t, sizeof t));
  if (c->state * c->heavy_factor / c->transfer > BENCH_MAX_REQUESTS)
    bench_usage_error(ctx, "more than %u requests per rank; use a larger "
                      "--transfer", BENCH_MAX_REQUESTS);
  if (c->heavy_factor > 1 && !c->independent)
    bench_usage_error(ctx, "--heavy-factor needs independent calls "
                      "(--api posix or --independent)");
  if (c->heavy_factor > 1 && c->layout == CKPT_STRIDED)
    bench_usage_error(ctx, "--heavy-factor needs --layout block");
  if (c->state * (uint64_t)(ctx->nranks + (int)c->heavy_factor) >
      ((uint64_t)1 << 40))
    bench_usage_error(ctx, "the checkpoint would be too large");
}

static void describe(struct bench_ctx *ctx, const struct ckpt_cfg *c)
{
  char s[32], t[32];
  bench_cfg(ctx, "api", "%s", bench_api_name((enum bench_api)c->api));
  bench_cfg(ctx, "mode", "%s", c->mode == CKPT_N1 ? "n1" : "nn");
  if (c->mode == CKPT_N1)
    bench_cfg(ctx, "layout", "%s", c->layout == CKPT_BLOCK ? "block" : "strided");
  bench_cfg(ctx, "calls", "%s", c->independent ? "independent" : "collective");
  bench_cfg(ctx, "state", "%s", bench_fmt_size(c->state, s, sizeof s));
  bench_cfg(ctx, "transfer", "%s", bench_fmt_size(c->transfer, t, sizeof t));
  bench_cfg(ctx, "checkpoints", "%" PRIu64, c->checkpoints);
  bench_cfg(ctx, "restart", "%s", c->random_restart ? "random" : "sequential");
  bench_cfg(ctx, "restart_reads", "%" PRIu64, c->restart_reads);
  bench_cfg(ctx, "fsync", "%d", c->fsync);
  if (c->heavy_factor > 1)
    bench_cfg(ctx, "heavy_factor", "%" PRIu64, c->heavy_factor);
}

int main(int argc, char **argv)
{
  struct bench_ctx ctx;
  struct ckpt_cfg c = {
    .api = BENCH_API_MPIIO, .state = 8 << 20, .checkpoints = 2,
    .restart_reads = 1, .heavy_factor = 1,
  };
  const struct bench_opt opts[] = {
    BENCH_CHOICE("api", &c.api, BENCH_API_CHOICES, "I/O interface"),
    BENCH_CHOICE("mode", &c.mode, "n1|nn",
                 "one shared file per checkpoint, or one per rank"),
    BENCH_CHOICE("layout", &c.layout, "block|strided",
                 "n1: a block per rank, or pieces interleaved by rank"),
    BENCH_SET("independent", &c.independent, 1, "independent calls"),
    BENCH_SET("collective", &c.independent, 0, "collective calls"),
    BENCH_SIZE("state", &c.state, 1, (uint64_t)1 << 34, "bytes per rank"),
    BENCH_SIZE("transfer", &c.transfer, 0, 1 << 30,
               "bytes per request (0: the whole state)"),
    BENCH_UINT("checkpoints", &c.checkpoints, 1, 100000, "checkpoints"),
    BENCH_SET("fsync-per-write", &c.fsync, 1, "sync after every write"),
    BENCH_SET("random-restart", &c.random_restart, 1,
              "read the state back in a seeded random order"),
    BENCH_UINT("restart-reads", &c.restart_reads, 1, 100,
               "times the restart reads its state"),
    BENCH_UINT("heavy-factor", &c.heavy_factor, 1, 64,
               "rank 0 saves this many times the state of the others"),
    BENCH_END,
  };
  bench_init(&argc, &argv, &kernel, opts, &ctx);
  validate(&ctx, &c);
  bench_setup_dir(&ctx);
  describe(&ctx, &c);
  void *buf = bench_xalloc(&ctx, c.transfer);
  double t0 = bench_phase_begin(&ctx);
  for (uint64_t k = 0; k < c.checkpoints; k++)
    checkpoint(&ctx, &c, k, buf);
  bench_phase_end(&ctx, "write", t0);
  t0 = bench_phase_begin(&ctx);
  restart(&ctx, &c, c.checkpoints - 1, buf);
  bench_phase_end(&ctx, "read", t0);
  free(buf);
  bench_report(&ctx);
  return bench_finish(&ctx);
}
