/* bench/ior_like.c - an IOR-like bandwidth kernel: every rank writes its
 * blocks of a shared file (or of its own file) in fixed-size transfers, then
 * reads them back and checks every byte.
 *
 * Layout, as IOR's: in a shared file the block of rank r in segment s is at
 * (s * nranks + r) * block; in a file per process segment s is at s * block.
 * A block is written as block / transfer requests, in order or (--random) in
 * a seeded random order over all of the rank's requests. Written bytes are
 * the pattern of (rank, offset), so the read pass verifies them.
 *
 * --heavy-factor K (independent calls only) gives rank 0 K times the
 * segments of the others: an imbalanced job. Its extra segments follow the
 * balanced region of a shared file (at segments * nranks * block + (s -
 * segments) * block); in its own file they simply continue. --seek (POSIX)
 * issues each request as lseek + write/read, as IOR's POSIX backend does. */
#include "bfile.h"

#include <inttypes.h>
#include <stdlib.h>

struct ior_cfg {
  int api;         /* enum bench_api */
  int fpp;         /* 1: one file per rank; 0: one shared file */
  int random;      /* 1: seeded random request order */
  int collective;  /* 1/0, or -1 until resolved from the api */
  int do_write, do_read, fsync_each;
  uint64_t transfer, block, segments, reread;
  uint64_t heavy;  /* rank 0 writes heavy x segments (1: balanced) */
  int seek;        /* POSIX: lseek + write/read instead of pwrite/pread */
  uint64_t striping_factor; /* MPI-IO hint at create (0: none) */
};

static const struct bench_kernel kernel = {
  "ior_like",
  "IOR-like: write blocks in fixed-size transfers, then read them back.",
  "Layout: shared file, segment s, rank r block at (s*nranks + r)*block;\n"
  "file per process, segment s at s*block. Data is a pattern of (rank,\n"
  "offset) and every read is verified. --read alone reads files kept by an\n"
  "earlier --write --keep run with the same --dir and layout, or writes them\n"
  "first (a 'prepared' run: untimed, not counted).\n"
  "Interfaces in this build: " BENCH_APIS_BUILT "\n",
};

/* Usage errors for flag combinations; resolves defaults. */
static void validate(const struct bench_ctx *ctx, struct ior_cfg *c)
{
  bench_api_check(ctx, (enum bench_api)c->api);
  bench_resolve_ops(&c->do_write, &c->do_read);
  if (c->collective < 0)
    c->collective = c->api != BENCH_API_POSIX;
  if (c->collective && c->api == BENCH_API_POSIX)
    bench_usage_error(ctx, "--collective needs --api mpiio, hdf5 or pnetcdf");
  char b[32], t[32];
  if (c->transfer > c->block || c->block % c->transfer != 0)
    bench_usage_error(ctx, "--block %s must be a multiple of --transfer %s",
                      bench_fmt_size(c->block, b, sizeof b),
                      bench_fmt_size(c->transfer, t, sizeof t));
  if (c->heavy > 1 && c->collective)
    bench_usage_error(ctx, "--heavy-factor needs independent calls "
                      "(--api posix or --independent)");
  if (c->seek && c->api != BENCH_API_POSIX)
    bench_usage_error(ctx, "--seek needs --api posix");
  if (c->striping_factor && c->api != BENCH_API_MPIIO)
    bench_usage_error(ctx, "--striping-factor needs --api mpiio");
  if (c->heavy > 1 && c->api != BENCH_API_POSIX && c->api != BENCH_API_MPIIO)
    bench_usage_error(ctx, "--heavy-factor needs --api posix or mpiio");
  uint64_t per_block = c->block / c->transfer;
  if (per_block > BENCH_MAX_REQUESTS ||
      c->segments * c->heavy * per_block > BENCH_MAX_REQUESTS)
    bench_usage_error(ctx, "more than %u requests per rank; use a larger "
                      "--transfer or fewer --segments", BENCH_MAX_REQUESTS);
  if (c->block > (UINT64_MAX >> 2) / c->segments / c->heavy /
                     (uint64_t)ctx->nranks)
    bench_usage_error(ctx, "--segments x --block x ranks is too large");
}

/* Segments this rank writes: heavy x segments on rank 0, else segments. */
static uint64_t rank_segments(const struct bench_ctx *ctx,
                              const struct ior_cfg *c)
{
  return ctx->rank == 0 ? c->segments * c->heavy : c->segments;
}

/* Bytes of the file (or of the dataset / variable): this rank's own file,
 * or the shared one with rank 0's extra segments at its end. */
static uint64_t file_size(const struct bench_ctx *ctx, const struct ior_cfg *c)
{
  uint64_t per_rank = c->segments * c->block;
  if (c->fpp)
    return rank_segments(ctx, c) * c->block;
  return per_rank * (uint64_t)ctx->nranks + (c->heavy - 1) * per_rank;
}

/* The rank's requests in issue order; *n gets their count. Caller frees. */
static struct bench_extent *make_extents(const struct bench_ctx *ctx,
                                         const struct ior_cfg *c, size_t *n)
{
  uint64_t per_block = c->block / c->transfer, nseg = rank_segments(ctx, c);
  struct bench_extent *x = bench_xcalloc(ctx, nseg * per_block, sizeof *x);
  size_t k = 0;
  for (uint64_t s = 0; s < nseg; s++) {
    uint64_t base = c->fpp ? s * c->block
                    : s < c->segments
                        ? (s * (uint64_t)ctx->nranks + (uint64_t)ctx->rank)
                              * c->block
                        : (c->segments * (uint64_t)ctx->nranks + s
                           - c->segments) * c->block;
    for (uint64_t i = 0; i < per_block; i++, k++) {
      x[k].off = base + i * c->transfer;
      x[k].len = c->transfer;
      x[k].tag = (uint64_t)ctx->rank;
    }
  }
  if (c->random) {
    struct bench_rng rng;
    bench_rng_init(&rng, ctx->seed, (uint64_t)ctx->rank);
    bench_shuffle(&rng, x, k, sizeof *x);
  }
  *n = k;
  return x;
}

/* Put the configuration into the summary line. */
static void describe(struct bench_ctx *ctx, const struct ior_cfg *c)
{
  char t[32], b[32];
  bench_cfg(ctx, "api", "%s", bench_api_name((enum bench_api)c->api));
  bench_cfg(ctx, "files", "%s", c->fpp ? "per-rank" : "shared");
  bench_cfg(ctx, "transfer", "%s", bench_fmt_size(c->transfer, t, sizeof t));
  bench_cfg(ctx, "block", "%s", bench_fmt_size(c->block, b, sizeof b));
  bench_cfg(ctx, "segments", "%" PRIu64, c->segments);
  bench_cfg(ctx, "order", "%s", c->random ? "random" : "sequential");
  bench_cfg(ctx, "calls", "%s", c->collective ? "collective" : "independent");
  bench_cfg(ctx, "ops", "%s", c->do_write && c->do_read ? "write,read"
                              : c->do_write ? "write" : "read");
  bench_cfg(ctx, "fsync", "%d", c->fsync_each);
  bench_cfg(ctx, "reread", "%" PRIu64, c->reread);
  if (c->heavy > 1) /* only when set: summaries of older flags unchanged */
    bench_cfg(ctx, "heavy_factor", "%" PRIu64, c->heavy);
  if (c->seek)
    bench_cfg(ctx, "seek", "1");
  if (c->striping_factor)
    bench_cfg(ctx, "striping_factor", "%" PRIu64, c->striping_factor);
  bench_cfg(ctx, "seed", "%" PRIu64, ctx->seed);
}

/* Run the timed phases of this rank. */
static void run(struct bench_ctx *ctx, const struct ior_cfg *c)
{
  char path[PATH_MAX];
  if (c->fpp)
    bench_path(ctx, path, sizeof path, "dat.%d", ctx->rank);
  else
    bench_path(ctx, path, sizeof path, "dat");
  struct bfile_plan plan = {
    .spec = {(enum bench_api)c->api, path, !c->fpp, c->collective, 1,
             file_size(ctx, c), c->seek, (int)c->striping_factor},
    .do_write = c->do_write, .do_read = c->do_read,
    .fsync_each = c->fsync_each, .read_passes = c->reread,
  };
  struct bench_extent *x = make_extents(ctx, c, &plan.n);
  plan.x = x;
  bfile_run(ctx, &plan);
  free(x);
}

int main(int argc, char **argv)
{
  struct bench_ctx ctx;
  struct ior_cfg c = {
    .api = BENCH_API_MPIIO, .collective = -1, .transfer = 1 << 20,
    .block = 4 << 20, .segments = 1, .reread = 1, .heavy = 1,
  };
  const struct bench_opt opts[] = {
    BENCH_CHOICE("api", &c.api, BENCH_API_CHOICES, "I/O interface"),
    BENCH_SET("shared", &c.fpp, 0, "one file shared by all ranks"),
    BENCH_SET("file-per-proc", &c.fpp, 1, "one file per rank"),
    BENCH_SIZE("transfer", &c.transfer, 1, 1 << 30, "bytes per request"),
    BENCH_SIZE("block", &c.block, 1, (uint64_t)1 << 40,
               "bytes per rank per segment"),
    BENCH_UINT("segments", &c.segments, 1, 1 << 24, "segments"),
    BENCH_SET("sequential", &c.random, 0, "requests in offset order"),
    BENCH_SET("random", &c.random, 1,
              "seeded random order within the rank's region"),
    BENCH_SET("collective", &c.collective, 1,
              "collective calls (default unless --api posix)"),
    BENCH_SET("independent", &c.collective, 0, "independent calls"),
    BENCH_SET("write", &c.do_write, 1, "write (alone: no read back)"),
    BENCH_SET("read", &c.do_read, 1, "read (alone: no write)"),
    BENCH_SET("fsync-per-write", &c.fsync_each, 1,
              "sync to storage after every write"),
    BENCH_UINT("reread", &c.reread, 1, 1000,
               "read the same data N times"),
    BENCH_UINT("heavy-factor", &c.heavy, 1, 64,
               "rank 0 writes K times the segments (independent calls)"),
    BENCH_SET("seek", &c.seek, 1,
              "POSIX: lseek before every write/read (as IOR's POSIX backend)"),
    BENCH_UINT("striping-factor", &c.striping_factor, 1, 1024,
               "MPI-IO: the striping_factor hint at create (Lustre stripe count)"),
    BENCH_END,
  };
  bench_init(&argc, &argv, &kernel, opts, &ctx);
  validate(&ctx, &c);
  bench_setup_dir(&ctx);
  describe(&ctx, &c);
  run(&ctx, &c);
  bench_report(&ctx);
  return bench_finish(&ctx);
}
