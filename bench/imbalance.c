/* bench/imbalance.c - an imbalanced writer: ranks 0..K-1 (the heavy ranks)
 * move --factor times the bytes of every other rank, then all ranks read
 * their own bytes back and verify them.
 *
 * Every rank writes --segments blocks of --block bytes (a heavy rank
 * segments * factor blocks) in --transfer requests, sequentially. In a
 * shared file the ranks' regions follow each other in rank order; with
 * --file-per-proc each rank writes its own file from offset 0. */
#include "bfile.h"

#include <inttypes.h>
#include <stdlib.h>

struct imb_cfg {
  int api;   /* BENCH_API_POSIX or BENCH_API_MPIIO */
  int fpp;   /* 1: one file per rank */
  int do_write, do_read;
  uint64_t transfer, block, segments;
  uint64_t factor; /* heavy ranks' multiple of the others' bytes */
  uint64_t heavy;  /* number of heavy ranks, from rank 0 */
};

static const struct bench_kernel kernel = {
  "imbalance",
  "Imbalanced writer: the first --heavy-ranks ranks move --factor times\n"
  "the bytes of the others; then every rank reads its bytes back.",
  "The slowest rank moves factor*n/(n-1+factor) times the mean rank's\n"
  "bytes (heavy-ranks 1), so 'twice the mean' needs factor > 2(n-1)/(n-2):\n"
  "3 on 4 ranks, 3 on 8 ranks (2.33), 3 on 16 ranks (2.14); never on 2.\n",
};

/* Blocks written by rank r. */
static uint64_t rank_blocks(const struct imb_cfg *c, uint64_t r)
{
  return c->segments * (r < c->heavy ? c->factor : 1);
}

/* Blocks written by ranks 0..r-1: where rank r starts in a shared file. */
static uint64_t blocks_before(const struct imb_cfg *c, uint64_t r)
{
  uint64_t heavy_before = r < c->heavy ? r : c->heavy;
  return c->segments * (r + (c->factor - 1) * heavy_before);
}

/* Usage errors (exit 2) for bad flag combinations; resolves defaults. */
static void validate(const struct bench_ctx *ctx, struct imb_cfg *c)
{
  uint64_t n = (uint64_t)ctx->nranks;
  bench_resolve_ops(&c->do_write, &c->do_read);
  if (c->heavy > n)
    bench_usage_error(ctx, "--heavy-ranks %" PRIu64 " exceeds the %d ranks",
                      c->heavy, ctx->nranks);
  char b[32], t[32];
  if (c->transfer > c->block || c->block % c->transfer != 0)
    bench_usage_error(ctx, "--block %s must be a multiple of --transfer %s",
                      bench_fmt_size(c->block, b, sizeof b),
                      bench_fmt_size(c->transfer, t, sizeof t));
  uint64_t heavy_requests = c->segments * c->factor * (c->block / c->transfer);
  if (c->block / c->transfer > BENCH_MAX_REQUESTS ||
      heavy_requests > BENCH_MAX_REQUESTS)
    bench_usage_error(ctx, "a heavy rank would make more than %u requests; "
                      "use a larger --transfer", BENCH_MAX_REQUESTS);
  if (blocks_before(c, n) > (UINT64_MAX >> 2) / c->block)
    bench_usage_error(ctx, "the file would be too large");
}

/* The rank's requests, contiguous from its region's start. */
static struct bench_extent *make_extents(const struct bench_ctx *ctx,
                                         const struct imb_cfg *c, size_t *n)
{
  uint64_t r = (uint64_t)ctx->rank;
  uint64_t count = rank_blocks(c, r) * (c->block / c->transfer);
  uint64_t base = c->fpp ? 0 : blocks_before(c, r) * c->block;
  struct bench_extent *x = bench_xcalloc(ctx, count, sizeof *x);
  for (uint64_t i = 0; i < count; i++) {
    x[i].off = base + i * c->transfer;
    x[i].len = c->transfer;
    x[i].tag = r;
  }
  *n = count;
  return x;
}

/* Put the configuration into the summary line. */
static void describe(struct bench_ctx *ctx, const struct imb_cfg *c)
{
  char t[32], b[32];
  bench_cfg(ctx, "api", "%s", bench_api_name((enum bench_api)c->api));
  bench_cfg(ctx, "files", "%s", c->fpp ? "per-rank" : "shared");
  bench_cfg(ctx, "transfer", "%s", bench_fmt_size(c->transfer, t, sizeof t));
  bench_cfg(ctx, "block", "%s", bench_fmt_size(c->block, b, sizeof b));
  bench_cfg(ctx, "segments", "%" PRIu64, c->segments);
  bench_cfg(ctx, "factor", "%" PRIu64, c->factor);
  bench_cfg(ctx, "heavy_ranks", "%" PRIu64, c->heavy);
  bench_cfg(ctx, "ops", "%s", c->do_write && c->do_read ? "write,read"
                              : c->do_write ? "write" : "read");
}

int main(int argc, char **argv)
{
  struct bench_ctx ctx;
  struct imb_cfg c = {
    .api = BENCH_API_POSIX, .transfer = 1 << 20, .block = 4 << 20,
    .segments = 1, .factor = 1, .heavy = 1,
  };
  const struct bench_opt opts[] = {
    BENCH_CHOICE("api", &c.api, BENCH_API_CHOICES_BASIC, "I/O interface"),
    BENCH_SET("shared", &c.fpp, 0, "one file shared by all ranks"),
    BENCH_SET("file-per-proc", &c.fpp, 1, "one file per rank"),
    BENCH_SIZE("transfer", &c.transfer, 1, 1 << 30, "bytes per request"),
    BENCH_SIZE("block", &c.block, 1, (uint64_t)1 << 40, "bytes per block"),
    BENCH_UINT("segments", &c.segments, 1, 1 << 20,
               "blocks per light rank"),
    BENCH_UINT("factor", &c.factor, 1, 20,
               "heavy ranks move this many times more (1: balanced)"),
    BENCH_UINT("heavy-ranks", &c.heavy, 1, 1 << 20,
               "ranks 0..K-1 are heavy"),
    BENCH_SET("write", &c.do_write, 1, "write (alone: no read back)"),
    BENCH_SET("read", &c.do_read, 1, "read (alone: no write)"),
    BENCH_END,
  };
  bench_init(&argc, &argv, &kernel, opts, &ctx);
  validate(&ctx, &c);
  bench_setup_dir(&ctx);
  describe(&ctx, &c);
  char path[PATH_MAX];
  if (c.fpp)
    bench_path(&ctx, path, sizeof path, "dat.%d", ctx.rank);
  else
    bench_path(&ctx, path, sizeof path, "dat");
  uint64_t blocks = c.fpp ? rank_blocks(&c, (uint64_t)ctx.rank)
                          : blocks_before(&c, (uint64_t)ctx.nranks);
  struct bfile_plan plan = {
    .spec = {(enum bench_api)c.api, path, !c.fpp, 0, 1, blocks * c.block, 0},
    .do_write = c.do_write, .do_read = c.do_read, .read_passes = 1,
  };
  struct bench_extent *x = make_extents(&ctx, &c, &plan.n);
  plan.x = x;
  bfile_run(&ctx, &plan);
  free(x);
  bench_report(&ctx);
  return bench_finish(&ctx);
}
