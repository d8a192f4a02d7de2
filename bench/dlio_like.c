/* bench/dlio_like.c - a DLIO-like training-input reader. A prepare phase
 * writes the dataset: --files files of --records-per-file records of
 * --record bytes (file f written by rank f % nranks). Then, per epoch, the
 * samples (file, record) are taken in order or in a seeded random order
 * that changes every epoch (--shuffle), the list is cut into nranks
 * contiguous slices, and each rank reads its slice one record per read,
 * opening a file when the next sample is in another file. Every record is
 * verified; --compute-us emulates the training step after each sample.
 *
 * The prepare phase is skipped when the dataset is already there, kept by
 * an earlier run with --keep in the same --dir (prepare=skipped).
 *
 * --open-per-sample makes every sample a stat, an open, one read and a
 * close, like a data loader that opens the file of each item it returns:
 * the metadata-heavy variant of the reader. */
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_SAMPLES (1u << 24) /* bounds the sample order table */

struct dlio_cfg {
  uint64_t files;      /* in the whole dataset */
  uint64_t record;     /* bytes per record (one read each) */
  uint64_t per_file;   /* records per file */
  uint64_t epochs;
  uint64_t compute_us; /* sleep after each sample */
  int shuffle;         /* 1: seeded order per epoch */
  int open_each;       /* 1: stat + open + read + close per sample */
};

static const struct bench_kernel kernel = {
  "dlio_like",
  "DLIO-like reader: prepare a dataset of many record files, then read\n"
  "it per epoch, ranks splitting the samples.",
  NULL,
};

/* Usage errors (exit 2) for bad flag combinations; resolves defaults. */
static void validate(const struct bench_ctx *ctx, const struct dlio_cfg *c)
{
  if (c->per_file > MAX_SAMPLES || c->files * c->per_file > MAX_SAMPLES)
    bench_usage_error(ctx, "--files x --records-per-file is over %u samples",
                      MAX_SAMPLES);
  if (c->record > (UINT64_MAX >> 8) / c->per_file)
    bench_usage_error(ctx, "--record x --records-per-file is too large");
}

/* Path of data file f (PATH_MAX bytes). */
static void data_path(const struct bench_ctx *ctx, uint64_t f, char *out)
{
  bench_path(ctx, out, PATH_MAX, "data/file.%06" PRIu64, f);
}

/* 1 if every file this rank would write is already complete (collective). */
static int dataset_ready(const struct bench_ctx *ctx, const struct dlio_cfg *c)
{
  char path[PATH_MAX];
  struct stat st;
  int mine = 1, all = 0;
  for (uint64_t f = (uint64_t)ctx->rank; f < c->files && mine;
       f += (uint64_t)ctx->nranks) {
    data_path(ctx, f, path);
    mine = stat(path, &st) == 0 &&
           (uint64_t)st.st_size >= c->per_file * c->record;
  }
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all;
}

/* Write this rank's files, one write per record. */
static void prepare(struct bench_ctx *ctx, const struct dlio_cfg *c,
                    void *buf)
{
  char path[PATH_MAX];
  bench_path(ctx, path, sizeof path, "data");
  if (ctx->rank == 0 && mkdir(path, 0755) != 0 && errno != EEXIST)
    bench_die(ctx, "mkdir %s: %s", path, strerror(errno));
  MPI_Barrier(MPI_COMM_WORLD);
  for (uint64_t f = (uint64_t)ctx->rank; f < c->files;
       f += (uint64_t)ctx->nranks) {
    data_path(ctx, f, path);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0)
      bench_die(ctx, "create %s: %s", path, strerror(errno));
    for (uint64_t r = 0; r < c->per_file; r++) {
      bench_pattern_fill(buf, c->record, f, r * c->record);
      if (write(fd, buf, c->record) != (ssize_t)c->record)
        bench_die(ctx, "write %s: %s", path, strerror(errno));
      ctx->bytes_written += c->record;
    }
    if (close(fd) != 0)
      bench_die(ctx, "close %s: %s", path, strerror(errno));
  }
}

/* The sample order of an epoch: identity, or a permutation seeded by
 * (seed, epoch) that every rank computes alike. */
static void epoch_order(const struct bench_ctx *ctx, const struct dlio_cfg *c,
                        uint64_t epoch, uint64_t *order, uint64_t n)
{
  for (uint64_t i = 0; i < n; i++)
    order[i] = i;
  if (c->shuffle) {
    struct bench_rng rng;
    bench_rng_init(&rng, ctx->seed, epoch);
    bench_shuffle(&rng, order, n, sizeof *order);
  }
}

/* Read sample s, reusing *fd when it is already s's file (*cur); with
 * --open-per-sample, stat and open the file for this sample alone. */
static void read_sample(struct bench_ctx *ctx, const struct dlio_cfg *c,
                        uint64_t s, int *fd, uint64_t *cur, void *buf)
{
  char path[PATH_MAX];
  uint64_t f = s / c->per_file, off = (s % c->per_file) * c->record;
  data_path(ctx, f, path);
  if (c->open_each) {
    struct stat st;
    if (stat(path, &st) != 0)
      bench_die(ctx, "stat %s: %s", path, strerror(errno));
    if (*fd >= 0 && close(*fd) != 0)
      bench_die(ctx, "close: %s", strerror(errno));
    *fd = -1;
  }
  if (*fd < 0 || *cur != f) {
    if (*fd >= 0 && close(*fd) != 0)
      bench_die(ctx, "close: %s", strerror(errno));
    *fd = open(path, O_RDONLY);
    if (*fd < 0)
      bench_die(ctx, "open %s: %s", path, strerror(errno));
    *cur = f;
  }
  if (pread(*fd, buf, c->record, (off_t)off) != (ssize_t)c->record)
    bench_die(ctx, "read %s at %" PRIu64 ": short read or error", path, off);
  bench_verify(ctx, buf, c->record, f, off, path);
  ctx->bytes_read += c->record;
  if (c->open_each) {
    if (close(*fd) != 0)
      bench_die(ctx, "close %s: %s", path, strerror(errno));
    *fd = -1;
  }
}

/* One epoch: this rank's contiguous slice of the epoch's sample order. */
static void epoch(struct bench_ctx *ctx, const struct dlio_cfg *c,
                  const uint64_t *order, uint64_t n, void *buf)
{
  uint64_t r = (uint64_t)ctx->rank, nr = (uint64_t)ctx->nranks;
  uint64_t lo = n * r / nr, hi = n * (r + 1) / nr, cur = 0;
  int fd = -1;
  struct timespec step = {(time_t)(c->compute_us / 1000000),
                          (long)(c->compute_us % 1000000) * 1000};
  for (uint64_t i = lo; i < hi; i++) {
    read_sample(ctx, c, order[i], &fd, &cur, buf);
    if (c->compute_us)
      nanosleep(&step, NULL);
  }
  if (fd >= 0 && close(fd) != 0)
    bench_die(ctx, "close: %s", strerror(errno));
}

/* Put the configuration into the summary line. */
static void describe(struct bench_ctx *ctx, const struct dlio_cfg *c)
{
  char r[32];
  bench_cfg(ctx, "files", "%" PRIu64, c->files);
  bench_cfg(ctx, "record", "%s", bench_fmt_size(c->record, r, sizeof r));
  bench_cfg(ctx, "records_per_file", "%" PRIu64, c->per_file);
  bench_cfg(ctx, "order", "%s", c->shuffle ? "shuffle" : "sequential");
  bench_cfg(ctx, "epochs", "%" PRIu64, c->epochs);
  bench_cfg(ctx, "compute_us", "%" PRIu64, c->compute_us);
  if (c->open_each) /* only when set: summaries of older flags unchanged */
    bench_cfg(ctx, "open_per_sample", "1");
  bench_cfg(ctx, "seed", "%" PRIu64, ctx->seed);
}

int main(int argc, char **argv)
{
  struct bench_ctx ctx;
  struct dlio_cfg c = {
    .files = 32, .record = 1 << 20, .per_file = 4, .epochs = 1,
  };
  const struct bench_opt opts[] = {
    BENCH_UINT("files", &c.files, 1, MAX_SAMPLES, "files in the dataset"),
    BENCH_SIZE("record", &c.record, 1, 1 << 30, "bytes per record"),
    BENCH_UINT("records-per-file", &c.per_file, 1, MAX_SAMPLES,
               "records per file"),
    BENCH_SET("sequential", &c.shuffle, 0, "samples in dataset order"),
    BENCH_SET("shuffle", &c.shuffle, 1, "seeded new sample order each epoch"),
    BENCH_UINT("epochs", &c.epochs, 1, 1000, "passes over the dataset"),
    BENCH_UINT("compute-us", &c.compute_us, 0, 10000000,
               "microseconds of compute after each sample"),
    BENCH_SET("open-per-sample", &c.open_each, 1,
              "stat, open and close the file for every sample"),
    BENCH_END,
  };
  bench_init(&argc, &argv, &kernel, opts, &ctx);
  validate(&ctx, &c);
  bench_setup_dir(&ctx);
  describe(&ctx, &c);
  void *buf = bench_xalloc(&ctx, c.record);
  if (dataset_ready(&ctx, &c)) {
    bench_cfg(&ctx, "prepare", "skipped");
  } else {
    double t0 = bench_phase_begin(&ctx);
    prepare(&ctx, &c, buf);
    bench_phase_end(&ctx, "prepare", t0);
  }
  uint64_t n = c.files * c.per_file;
  uint64_t *order = bench_xcalloc(&ctx, n, sizeof *order);
  for (uint64_t e = 0; e < c.epochs; e++) {
    epoch_order(&ctx, &c, e, order, n);
    double t0 = bench_phase_begin(&ctx);
    epoch(&ctx, &c, order, n, buf);
    bench_phase_end(&ctx, "read", t0);
  }
  free(order);
  free(buf);
  bench_report(&ctx);
  return bench_finish(&ctx);
}
