/* bench/postproc_like.c - a post-processing script: read the output of a
 * simulation, one small file per time step, through the C stream library,
 * and write a summary table and a few small products (plots) per step.
 *
 * Prepare (untimed; skipped when --dir already holds the inputs): the
 * rank that will read an input writes it (--inputs files of --input-size
 * bytes, postproc_like.in/step.N).
 * Process: the inputs are read by rank 0 alone (a serial script under
 * mpirun, the default) or shared round-robin by every rank (--parallel).
 * For each input: stat it, fopen, fread it in --chunk pieces (in a seeded
 * random order with fseek before each piece: --random-chunks) verifying
 * every byte, fclose; then write --outputs product files of --output-size
 * bytes (postproc_like.out/step.N.K) and one line of the rank's summary
 * table (postproc_like.summary.R, fprintf). --passes reads every input
 * that many times (a script run again over the same files). */
#include "common.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct post_cfg {
  uint64_t inputs, input_size, chunk, outputs, output_size, passes;
  int parallel, random_chunks;
};

static const struct bench_kernel kernel = {
  "postproc_like",
  "Post-processing script: many small step files read with fread (rank 0\n"
  "alone, or --parallel), small products and a summary table written.",
  NULL,
};

static void input_path(const struct bench_ctx *ctx, char *out, uint64_t i)
{
  bench_path(ctx, out, PATH_MAX, "in/step.%06" PRIu64, i);
}

/* The inputs of this rank: all of them on rank 0 of a serial script,
 * every nranks-th from the rank with --parallel, none elsewhere. */
static int reads_input(const struct bench_ctx *ctx, const struct post_cfg *c,
                       uint64_t i)
{
  if (!c->parallel)
    return ctx->rank == 0;
  return i % (uint64_t)ctx->nranks == (uint64_t)ctx->rank;
}

/* Every rank writes the inputs it will read (so the prepare adds no
 * imbalance of its own), unless they are all there (a kept --dir). */
static void prepare(struct bench_ctx *ctx, const struct post_cfg *c)
{
  char path[PATH_MAX];
  input_path(ctx, path, c->inputs - 1);
  if (bench_files_ready(ctx, ctx->rank == 0 ? path : NULL, c->input_size)) {
    bench_cfg(ctx, "prepare", "skipped");
    return;
  }
  char dir[PATH_MAX];
  bench_path(ctx, dir, sizeof dir, "in");
  if (ctx->rank == 0 && mkdir(dir, 0755) != 0 && errno != EEXIST)
    bench_die(ctx, "mkdir %s: %s", dir, strerror(errno));
  MPI_Barrier(MPI_COMM_WORLD);
  char *buf = bench_xmalloc(ctx, c->input_size);
  for (uint64_t i = 0; i < c->inputs; i++) {
    if (!reads_input(ctx, c, i))
      continue;
    input_path(ctx, path, i);
    bench_pattern_fill(buf, c->input_size, i, 0);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, c->input_size, f) != c->input_size ||
        fclose(f) != 0)
      bench_die(ctx, "write %s: %s", path, strerror(errno));
  }
  free(buf);
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Read input i in chunks (shuffled with --random-chunks), verified;
 * returns a checksum for the summary line. */
static uint64_t read_input(struct bench_ctx *ctx, const struct post_cfg *c,
                           uint64_t i, uint64_t *order, char *buf)
{
  char path[PATH_MAX];
  input_path(ctx, path, i);
  struct stat st;
  if (stat(path, &st) != 0 || (uint64_t)st.st_size != c->input_size)
    bench_die(ctx, "stat %s: missing or not %" PRIu64 " bytes", path,
              c->input_size);
  uint64_t n = c->input_size / c->chunk, sum = 0;
  for (uint64_t k = 0; k < n; k++)
    order[k] = k;
  if (c->random_chunks) {
    struct bench_rng rng;
    bench_rng_init(&rng, ctx->seed, i);
    bench_shuffle(&rng, order, n, sizeof *order);
  }
  FILE *f = fopen(path, "rb");
  if (!f)
    bench_die(ctx, "open %s: %s", path, strerror(errno));
  for (uint64_t k = 0; k < n; k++) {
    uint64_t off = order[k] * c->chunk;
    if (c->random_chunks && fseek(f, (long)off, SEEK_SET) != 0)
      bench_die(ctx, "seek %s: %s", path, strerror(errno));
    if (fread(buf, 1, c->chunk, f) != c->chunk)
      bench_die(ctx, "read %s: short", path);
    ctx->bytes_read += c->chunk;
    bench_verify(ctx, buf, c->chunk, i, off, path);
    sum += (unsigned char)buf[0];
  }
  fclose(f);
  return sum;
}

/* The products of input i: --outputs small files. */
static void write_products(struct bench_ctx *ctx, const struct post_cfg *c,
                           uint64_t i, char *buf)
{
  for (uint64_t k = 0; k < c->outputs; k++) {
    char path[PATH_MAX];
    bench_path(ctx, path, sizeof path, "out/step.%06" PRIu64 ".%" PRIu64, i,
               k);
    bench_pattern_fill(buf, c->output_size, i * 100 + k, 0);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, c->output_size, f) != c->output_size ||
        fclose(f) != 0)
      bench_die(ctx, "write %s: %s", path, strerror(errno));
    ctx->bytes_written += c->output_size;
  }
}

static void process(struct bench_ctx *ctx, const struct post_cfg *c)
{
  if (!c->parallel && ctx->rank != 0)
    return;
  char path[PATH_MAX];
  bench_path(ctx, path, sizeof path, "summary.%d", ctx->rank);
  FILE *table = fopen(path, "w");
  if (!table)
    bench_die(ctx, "create %s: %s", path, strerror(errno));
  uint64_t nchunks = c->input_size / c->chunk;
  uint64_t *order = bench_xcalloc(ctx, nchunks, sizeof *order);
  size_t bufsize = c->chunk > c->output_size ? c->chunk : c->output_size;
  char *buf = bench_xmalloc(ctx, bufsize + 1);
  for (uint64_t pass = 0; pass < c->passes; pass++)
    for (uint64_t i = 0; i < c->inputs; i++) {
      if (!reads_input(ctx, c, i))
        continue;
      uint64_t sum = read_input(ctx, c, i, order, buf);
      if (pass > 0)
        continue;
      write_products(ctx, c, i, buf);
      int len = fprintf(table, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", i,
                        c->input_size, sum);
      ctx->bytes_written += len > 0 ? (uint64_t)len : 0;
    }
  if (fclose(table) != 0)
    bench_die(ctx, "write %s: %s", path, strerror(errno));
  free(buf);
  free(order);
}

static void validate(struct bench_ctx *ctx, struct post_cfg *c)
{
  if (c->chunk == 0 || c->chunk > c->input_size)
    c->chunk = c->input_size;
  char a[32], b[32];
  if (c->input_size % c->chunk != 0)
    bench_usage_error(ctx, "--input-size %s must be a multiple of --chunk %s",
                      bench_fmt_size(c->input_size, a, sizeof a),
                      bench_fmt_size(c->chunk, b, sizeof b));
  if (c->input_size / c->chunk > BENCH_MAX_REQUESTS)
    bench_usage_error(ctx, "too many chunks per input; use a larger --chunk");
  if (c->input_size > ((uint64_t)1 << 31))
    bench_usage_error(ctx, "--input-size must be at most 2g");
}

static void describe(struct bench_ctx *ctx, const struct post_cfg *c)
{
  char a[32], b[32], d[32];
  bench_cfg(ctx, "inputs", "%" PRIu64, c->inputs);
  bench_cfg(ctx, "input_size", "%s", bench_fmt_size(c->input_size, a, sizeof a));
  bench_cfg(ctx, "chunk", "%s", bench_fmt_size(c->chunk, b, sizeof b));
  bench_cfg(ctx, "order", "%s", c->random_chunks ? "random" : "sequential");
  bench_cfg(ctx, "outputs", "%" PRIu64, c->outputs);
  bench_cfg(ctx, "output_size", "%s",
            bench_fmt_size(c->output_size, d, sizeof d));
  bench_cfg(ctx, "passes", "%" PRIu64, c->passes);
  bench_cfg(ctx, "ranks_reading", "%s", c->parallel ? "all" : "rank0");
}

int main(int argc, char **argv)
{
  struct bench_ctx ctx;
  struct post_cfg c = {
    .inputs = 16, .input_size = 4 << 20, .chunk = 0, .outputs = 0,
    .output_size = 64 << 10, .passes = 1,
  };
  const struct bench_opt opts[] = {
    BENCH_UINT("inputs", &c.inputs, 1, 1000000, "input files (time steps)"),
    BENCH_SIZE("input-size", &c.input_size, 1, (uint64_t)1 << 31,
               "bytes per input"),
    BENCH_SIZE("chunk", &c.chunk, 0, (uint64_t)1 << 31,
               "bytes per fread (0: the whole input)"),
    BENCH_SET("random-chunks", &c.random_chunks, 1,
              "read the chunks in a seeded random order (fseek)"),
    BENCH_UINT("outputs", &c.outputs, 0, 1000, "product files per input"),
    BENCH_SIZE("output-size", &c.output_size, 1, 1 << 30,
               "bytes per product file"),
    BENCH_UINT("passes", &c.passes, 1, 100, "times every input is read"),
    BENCH_SET("parallel", &c.parallel, 1,
              "every rank takes its share of inputs (default: rank 0 only)"),
    BENCH_END,
  };
  bench_init(&argc, &argv, &kernel, opts, &ctx);
  validate(&ctx, &c);
  bench_setup_dir(&ctx);
  describe(&ctx, &c);
  prepare(&ctx, &c);
  if (ctx.rank == 0 && c.outputs > 0) {
    char dir[PATH_MAX];
    bench_path(&ctx, dir, sizeof dir, "out");
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
      bench_die(&ctx, "mkdir %s: %s", dir, strerror(errno));
  }
  double t0 = bench_phase_begin(&ctx);
  process(&ctx, &c);
  bench_phase_end(&ctx, "process", t0);
  bench_report(&ctx);
  return bench_finish(&ctx);
}
