/* bench/stdio_heavy.c - I/O through the C stream library: every rank (or,
 * --rank0-only, rank 0 alone) writes --records records of --record bytes
 * to its own file with fwrite (binary) or fprintf (text lines), then reads
 * them back with fread and checks them.
 *
 * A text record is one line of exactly --record bytes: the record number
 * in 8 hex digits, a space, letters derived from the data pattern, '\n'.
 *
 * --reopen opens and closes the file around every record (appending when
 * writing, seeking to the record when reading), like a logger that opens
 * its file for each line: the metadata-heavy variant. */
#include "common.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct stdio_cfg {
  uint64_t record, records;
  int rank0_only; /* 1: only rank 0 does I/O */
  int text;       /* 1: fprintf text lines; 0: fwrite binary */
  int do_write, do_read;
  int reopen;     /* 1: fopen/fclose around every record */
};

static const struct bench_kernel kernel = {
  "stdio_heavy",
  "STDIO kernel: records written with fwrite or fprintf and read back\n"
  "with fread, by every rank or by rank 0 only.",
  NULL,
};

/* Usage errors (exit 2) for bad flag combinations; resolves defaults. */
static void validate(const struct bench_ctx *ctx, struct stdio_cfg *c)
{
  bench_resolve_ops(&c->do_write, &c->do_read);
  if (c->text && c->record < 10)
    bench_usage_error(ctx, "--text needs --record of at least 10 bytes");
  if (c->record > (UINT64_MAX >> 4) / c->records)
    bench_usage_error(ctx, "--record x --records is too large");
}

/* Record i as it is in the file: pattern bytes, or a text line (buf holds
 * record + 1 bytes for the line's terminating NUL). */
static void make_record(const struct bench_ctx *ctx,
                        const struct stdio_cfg *c, uint64_t i, char *buf)
{
  uint64_t off = i * c->record;
  bench_pattern_fill(buf, c->record, (uint64_t)ctx->rank, off);
  if (!c->text)
    return;
  for (uint64_t k = 0; k < c->record; k++)
    buf[k] = (char)('a' + (unsigned char)buf[k] % 26);
  snprintf(buf, 10, "%08" PRIx64, i & 0xffffffffu);
  buf[8] = ' ';
  buf[c->record - 1] = '\n';
}

/* Open path with mode, or exit with one line. */
static FILE *open_or_die(struct bench_ctx *ctx, const char *path,
                         const char *mode)
{
  FILE *fp = fopen(path, mode);
  if (!fp)
    bench_die(ctx, "fopen %s: %s", path, strerror(errno));
  return fp;
}

/* Close fp, or exit with one line. */
static void close_or_die(struct bench_ctx *ctx, const char *path, FILE *fp)
{
  if (fclose(fp) != 0)
    bench_die(ctx, "fclose %s: %s", path, strerror(errno));
}

/* Before record i with --reopen: open path for it (the first record
 * creates the file, later ones append, or seek there to read). */
static FILE *reopen_for(struct bench_ctx *ctx, const struct stdio_cfg *c,
                        const char *path, uint64_t i, int writing)
{
  FILE *fp = open_or_die(ctx, path, writing ? (i == 0 ? "w" : "a") : "r");
  if (!writing && fseeko(fp, (off_t)(i * c->record), SEEK_SET) != 0)
    bench_die(ctx, "fseek %s: %s", path, strerror(errno));
  return fp;
}

/* Write every record to path; counted if `count`. */
static void write_records(struct bench_ctx *ctx, const struct stdio_cfg *c,
                          const char *path, char *buf, int count)
{
  FILE *fp = c->reopen ? NULL : open_or_die(ctx, path, "w");
  for (uint64_t i = 0; i < c->records; i++) {
    if (c->reopen)
      fp = reopen_for(ctx, c, path, i, 1);
    make_record(ctx, c, i, buf);
    int ok = c->text
        ? fprintf(fp, "%08" PRIx64 " %.*s\n", i & 0xffffffffu,
                  (int)(c->record - 10), buf + 9) == (int)c->record
        : fwrite(buf, 1, c->record, fp) == c->record;
    if (!ok)
      bench_die(ctx, "write %s: %s", path, strerror(errno));
    if (count)
      ctx->bytes_written += c->record;
    if (c->reopen)
      close_or_die(ctx, path, fp);
  }
  if (!c->reopen)
    close_or_die(ctx, path, fp);
}

/* Read every record of path with fread and check it. */
static void read_records(struct bench_ctx *ctx, const struct stdio_cfg *c,
                         const char *path, char *buf, char *want)
{
  FILE *fp = c->reopen ? NULL : open_or_die(ctx, path, "r");
  for (uint64_t i = 0; i < c->records; i++) {
    if (c->reopen)
      fp = reopen_for(ctx, c, path, i, 0);
    if (fread(buf, 1, c->record, fp) != c->record)
      bench_die(ctx, "fread %s: short read or error", path);
    make_record(ctx, c, i, want);
    bench_verify_bytes(ctx, buf, want, c->record, i * c->record, path);
    ctx->bytes_read += c->record;
    if (c->reopen)
      close_or_die(ctx, path, fp);
  }
  if (!c->reopen)
    close_or_die(ctx, path, fp);
}

/* Run the timed phases of this rank. */
static void run(struct bench_ctx *ctx, const struct stdio_cfg *c)
{
  int active = !c->rank0_only || ctx->rank == 0;
  char path[PATH_MAX];
  bench_path(ctx, path, sizeof path, "%d.%s", ctx->rank,
             c->text ? "txt" : "dat");
  char *buf = bench_xmalloc(ctx, c->record + 1);
  char *want = bench_xmalloc(ctx, c->record + 1);
  if (c->do_write) {
    double t0 = bench_phase_begin(ctx);
    if (active)
      write_records(ctx, c, path, buf, 1);
    bench_phase_end(ctx, "write", t0);
  }
  if (c->do_read) {
    if (!c->do_write && !bench_files_ready(ctx, active ? path : NULL,
                                           c->record * c->records)) {
      if (active)
        write_records(ctx, c, path, buf, 0);
      bench_cfg(ctx, "prepared", "1");
    }
    double t0 = bench_phase_begin(ctx);
    if (active)
      read_records(ctx, c, path, buf, want);
    bench_phase_end(ctx, "read", t0);
  }
  free(want);
  free(buf);
}

/* Put the configuration into the summary line. */
static void describe(struct bench_ctx *ctx, const struct stdio_cfg *c)
{
  char r[32];
  bench_cfg(ctx, "record", "%s", bench_fmt_size(c->record, r, sizeof r));
  bench_cfg(ctx, "records", "%" PRIu64, c->records);
  bench_cfg(ctx, "format", "%s", c->text ? "text" : "binary");
  bench_cfg(ctx, "writers", "%s", c->rank0_only ? "rank0" : "all");
  bench_cfg(ctx, "ops", "%s", c->do_write && c->do_read ? "write,read"
                              : c->do_write ? "write" : "read");
  if (c->reopen) /* only when set: summaries of older flags unchanged */
    bench_cfg(ctx, "reopen", "1");
}

int main(int argc, char **argv)
{
  struct bench_ctx ctx;
  struct stdio_cfg c = {.record = 1 << 20, .records = 8};
  const struct bench_opt opts[] = {
    BENCH_SIZE("record", &c.record, 1, 1 << 30, "bytes per record"),
    BENCH_UINT("records", &c.records, 1, (uint64_t)1 << 32,
               "records per file"),
    BENCH_SET("per-rank", &c.rank0_only, 0, "every rank writes its file"),
    BENCH_SET("rank0-only", &c.rank0_only, 1, "only rank 0 does I/O"),
    BENCH_SET("binary", &c.text, 0, "fwrite binary records"),
    BENCH_SET("text", &c.text, 1, "fprintf text lines"),
    BENCH_SET("write", &c.do_write, 1, "write (alone: no read back)"),
    BENCH_SET("read", &c.do_read, 1, "read (alone: no write)"),
    BENCH_SET("reopen", &c.reopen, 1,
              "fopen and fclose the file around every record"),
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
