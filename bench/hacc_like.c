/* bench/hacc_like.c - a HACC-IO-like particle checkpoint: every rank
 * writes --particles particles of nine variables (x, y, z, vx, vy, vz, phi
 * as float; id as int64; mask as uint16: 38 bytes a particle), then reads
 * the checkpoint back and verifies it (a restart).
 *
 * The file is variable-major: all of x, then all of y, ... In a shared file
 * rank r's part of variable v starts at (total particles * bytes of the
 * variables before v) + r * particles * sizeof(v); in a file per process
 * the same with one rank. Each rank writes each variable in one request,
 * or in --transfer pieces. */
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

/* Usage errors (exit 2) for bad flag combinations; resolves defaults. */
static void validate(const struct bench_ctx *ctx, struct hacc_cfg *c)
{
  bench_resolve_ops(&c->do_write, &c->do_read);
  if (c->collective < 0)
    c->collective = c->api == BENCH_API_MPIIO;
  if (c->collective && c->api != BENCH_API_MPIIO)
    bench_usage_error(ctx, "--collective needs --api mpiio");
  uint64_t requests = 0;
  for (int v = 0; v < NVARS; v++)
    requests += pieces(c, c->particles * var_bytes[v]);
  if (requests > BENCH_MAX_REQUESTS)
    bench_usage_error(ctx, "more than %u requests per rank; use a larger "
                      "--transfer", BENCH_MAX_REQUESTS);
  if (c->particles * var_bytes[7] > INT32_MAX && !c->transfer)
    bench_usage_error(ctx, "a variable over 2 GiB needs --transfer");
}

/* The rank's requests: variable by variable, each split by --transfer. */
static struct bench_extent *make_extents(const struct bench_ctx *ctx,
                                         const struct hacc_cfg *c, size_t *n)
{
  uint64_t r = (uint64_t)ctx->rank, np = c->particles;
  uint64_t total = c->fpp ? np : np * (uint64_t)ctx->nranks;
  size_t count = 0, k = 0;
  for (int v = 0; v < NVARS; v++)
    count += (size_t)pieces(c, np * var_bytes[v]);
  struct bench_extent *x = bench_xcalloc(ctx, count, sizeof *x);
  for (int v = 0; v < NVARS; v++) {
    uint64_t len = np * var_bytes[v];
    uint64_t off = total * bytes_before(v) + (c->fpp ? 0 : r * len);
    uint64_t step = c->transfer ? c->transfer : len;
    for (uint64_t done = 0; done < len; done += step, k++) {
      x[k].off = off + done;
      x[k].len = len - done < step ? len - done : step;
      x[k].tag = r;
    }
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
}

int main(int argc, char **argv)
{
  struct bench_ctx ctx;
  struct hacc_cfg c = {
    .api = BENCH_API_MPIIO, .collective = -1, .particles = 1 << 17,
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
  uint64_t total = c.fpp ? c.particles : c.particles * (uint64_t)ctx.nranks;
  struct bfile_plan plan = {
    .spec = {(enum bench_api)c.api, path, !c.fpp, c.collective, 1,
             total * bytes_before(NVARS)},
    .do_write = c.do_write, .do_read = c.do_read, .read_passes = 1,
  };
  struct bench_extent *x = make_extents(&ctx, &c, &plan.n);
  plan.x = x;
  bfile_run(&ctx, &plan);
  free(x);
  bench_report(&ctx);
  return bench_finish(&ctx);
}
