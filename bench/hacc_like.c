/* bench/hacc_like.c - a HACC-IO-like particle checkpoint: every rank
 * writes --particles particles of nine variables (x, y, z, vx, vy, vz, phi
 * as float; id as int64; mask as uint16: 38 bytes a particle), then reads
 * the checkpoint back and verifies it (a restart).
 *
 * The file is variable-major: all of x, then all of y, ... In a shared file
 * rank r's part of variable v starts at (total particles * bytes of the
 * variables before v) + r * particles * sizeof(v); in a file per process
 * the same with one rank. Each rank writes each variable in one request,
 * or in --transfer pieces.
 *
 * Variations (defaults leave the kernel as it was): --heavy-factor K gives
 * rank 0 K times the particles (an imbalanced checkpoint; rank r > 0 then
 * starts at (K + r - 1) * particles); --random issues the rank's requests
 * in a seeded random order; --fsync-per-write syncs after every write;
 * --reread N reads the checkpoint N times. */
#include "bfile.h"

#include <inttypes.h>
#include <stdlib.h>

#define NVARS 9

/* Bytes of each variable: x y z vx vy vz phi id mask. */
static const uint64_t var_bytes[NVARS] = {4, 4, 4, 4, 4, 4, 4, 8, 2};

struct hacc_cfg {
  int api;        /* BENCH_API_POSIX or BENCH_API_MPIIO */
  int fpp;        /* 1: one file per rank */
  int collective; /* 1/0, or -1 until resolved from the api */
  int do_write, do_read;
  uint64_t particles; /* per rank */
  uint64_t transfer;  /* max bytes per request; 0: a variable per request */
  uint64_t heavy;     /* rank 0 holds heavy x particles (1: balanced) */
  int random;         /* 1: seeded random request order */
  int fsync_each;     /* 1: sync after every write */
  uint64_t reread;    /* read passes, at least 1 */
};

static const struct bench_kernel kernel = {
  "hacc_like",
  "HACC-IO-like particle checkpoint: 9 variables per particle, written\n"
  "variable by variable, then read back (restart) and verified.",
  "Variables: x y z vx vy vz phi (float), id (int64), mask (uint16).\n",
};

/* Bytes of the variables before v (of a particle when v is NVARS). */
static uint64_t bytes_before(int v)
{
  uint64_t sum = 0;
  for (int i = 0; i < v; i++)
    sum += var_bytes[i];
  return sum;
}

/* Requests needed for len bytes in pieces of at most c->transfer. */
static uint64_t pieces(const struct hacc_cfg *c, uint64_t len)
{
  return c->transfer ? (len + c->transfer - 1) / c->transfer : 1;
}

/* Particles of rank r: heavy x particles on rank 0. */
static uint64_t rank_particles(const struct hacc_cfg *c, uint64_t r)
{
  return r == 0 ? c->particles * c->heavy : c->particles;
}

/* Particles of the ranks before r (r's first particle in a shared file). */
static uint64_t particles_before(const struct hacc_cfg *c, uint64_t r)
{
  return r == 0 ? 0 : (c->heavy + r - 1) * c->particles;
}

/* Usage errors (exit 2) for bad flag combinations; resolves defaults. */
static void validate(const struct bench_ctx *ctx, struct hacc_cfg *c)
{
  bench_resolve_ops(&c->do_write, &c->do_read);
  if (c->collective < 0)
    c->collective = c->api == BENCH_API_MPIIO;
  if (c->collective && c->api != BENCH_API_MPIIO)
    bench_usage_error(ctx, "--collective needs --api mpiio");
  if (c->heavy > 1 && c->collective && c->transfer)
    bench_usage_error(ctx, "--heavy-factor with collective calls needs "
                      "--transfer 0 (the same number of calls on every rank)");
  if (c->particles > ((uint64_t)1 << 32) / c->heavy)
    bench_usage_error(ctx, "--particles x --heavy-factor is too large");
  uint64_t requests = 0;
  for (int v = 0; v < NVARS; v++)
    requests += pieces(c, c->particles * c->heavy * var_bytes[v]);
  if (requests > BENCH_MAX_REQUESTS)
    bench_usage_error(ctx, "more than %u requests per rank; use a larger "
                      "--transfer", BENCH_MAX_REQUESTS);
  if (c->particles * c->heavy * var_bytes[7] > INT32_MAX && !c->transfer)
    bench_usage_error(ctx, "a variable over 2 GiB needs --transfer");
}

/* The rank's requests: variable by variable, each split by --transfer. */
static struct bench_extent *make_extents(const struct bench_ctx *ctx,
                                         const struct hacc_cfg *c, size_t *n)
{
  uint64_t r = (uint64_t)ctx->rank, np = rank_particles(c, r);
  uint64_t total = c->fpp ? np : particles_before(c, (uint64_t)ctx->nranks);
  uint64_t first = c->fpp ? 0 : particles_before(c, r);
  size_t count = 0, k = 0;
  for (int v = 0; v < NVARS; v++)
    count += (size_t)pieces(c, np * var_bytes[v]);
  struct bench_extent *x = bench_xcalloc(ctx, count, sizeof *x);
  for (int v = 0; v < NVARS; v++) {
    uint64_t len = np * var_bytes[v];
    uint64_t off = total * bytes_before(v) + first * var_bytes[v];
    uint64_t step = c->transfer ? c->transfer : len;
    for (uint64_t done = 0; done < len; done += step, k++) {
      x[k].off = off + done;
      x[k].len = len - done < step ? len - done : step;
      x[k].tag = r;
    }
  }
  if (c->random) {
    struct bench_rng rng;
    bench_rng_init(&rng, ctx->seed, r);
    bench_shuffle(&rng, x, k, sizeof *x);
  }
  *n = k;
  return x;
}

/* Put the configuration into the summary line. */
static void describe(struct bench_ctx *ctx, const struct hacc_cfg *c)
{
  char t[32];
  bench_cfg(ctx, "api", "%s", bench_api_name((enum bench_api)c->api));
  bench_cfg(ctx, "files", "%s", c->fpp ? "per-rank" : "shared");
  bench_cfg(ctx, "particles", "%" PRIu64, c->particles);
  bench_cfg(ctx, "calls", "%s", c->collective ? "collective" : "independent");
  bench_cfg(ctx, "transfer", "%s",
            c->transfer ? bench_fmt_size(c->transfer, t, sizeof t) : "var");
  bench_cfg(ctx, "ops", "%s", c->do_write && c->do_read ? "write,read"
                              : c->do_write ? "write" : "read");
  /* the variations only when set: summaries of older flags unchanged */
  if (c->heavy > 1)
    bench_cfg(ctx, "heavy_factor", "%" PRIu64, c->heavy);
  if (c->random)
    bench_cfg(ctx, "order", "random");
  if (c->fsync_each)
    bench_cfg(ctx, "fsync", "1");
  if (c->reread > 1)
    bench_cfg(ctx, "reread", "%" PRIu64, c->reread);
}

int main(int argc, char **argv)
{
  struct bench_ctx ctx;
  struct hacc_cfg c = {
    .api = BENCH_API_MPIIO, .collective = -1, .particles = 1 << 17,
    .heavy = 1, .reread = 1,
  };
  const struct bench_opt opts[] = {
    BENCH_UINT("particles", &c.particles, 1, (uint64_t)1 << 32,
               "particles per rank"),
    BENCH_CHOICE("api", &c.api, BENCH_API_CHOICES_BASIC, "I/O interface"),
    BENCH_SET("shared", &c.fpp, 0, "one checkpoint file for all ranks"),
    BENCH_SET("file-per-proc", &c.fpp, 1, "one checkpoint file per rank"),
    BENCH_SET("collective", &c.collective, 1,
              "collective MPI-IO (default with --api mpiio)"),
    BENCH_SET("independent", &c.collective, 0, "independent calls"),
    BENCH_SIZE("transfer", &c.transfer, 0, 1 << 30,
               "split each variable into requests of SIZE (0: whole)"),
    BENCH_SET("write", &c.do_write, 1, "write (alone: no restart read)"),
    BENCH_SET("read", &c.do_read, 1, "read (alone: no write)"),
    BENCH_UINT("heavy-factor", &c.heavy, 1, 64,
               "rank 0 holds K times the particles"),
    BENCH_SET("random", &c.random, 1, "seeded random request order"),
    BENCH_SET("fsync-per-write", &c.fsync_each, 1,
              "sync to storage after every write"),
    BENCH_UINT("reread", &c.reread, 1, 1000, "read the checkpoint N times"),
    BENCH_END,
  };
  bench_init(&argc, &argv, &kernel, opts, &ctx);
  validate(&ctx, &c);
  bench_setup_dir(&ctx);
  describe(&ctx, &c);
  char path[PATH_MAX];
  if (c.fpp)
    bench_path(&ctx, path, sizeof path, "ckpt.%d", ctx.rank);
  else
    bench_path(&ctx, path, sizeof path, "ckpt");
  uint64_t total = c.fpp ? rank_particles(&c, (uint64_t)ctx.rank)
                         : particles_before(&c, (uint64_t)ctx.nranks);
  struct bfile_plan plan = {
    .spec = {(enum bench_api)c.api, path, !c.fpp, c.collective, 1,
             total * bytes_before(NVARS), 0},
    .do_write = c.do_write, .do_read = c.do_read,
    .fsync_each = c.fsync_each, .read_passes = c.reread,
  };
  struct bench_extent *x = make_extents(&ctx, &c, &plan.n);
  plan.x = x;
  bfile_run(&ctx, &plan);
  free(x);
  bench_report(&ctx);
  return bench_finish(&ctx);
}
