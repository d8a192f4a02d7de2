/* bench/mdtest_like.c - an mdtest-like metadata kernel. Phases, in order:
 *   create  make the directory tree, then every rank creates its files
 *           (open O_CREAT, --write-bytes of data, close)
 *   stat    every rank stats its files (or, --stat-other, rank+1's)
 *   read    every rank opens, reads back, verifies and closes its files
 *   remove  every rank unlinks its files, then the tree is removed
 *
 * The tree has --depth levels below its root and --fanout directories per
 * level, numbered breadth first (0 is the root); file i of a rank goes into
 * directory i % ndirs as "f.<rank>.<i>". With --unique-dir every rank has
 * its own tree under "rank.<r>"; otherwise all ranks share one tree. */
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DIRS 100000 /* directories in one tree */

enum { PH_CREATE = 1, PH_STAT = 2, PH_READ = 4, PH_REMOVE = 8 };

struct md_cfg {
  uint64_t files;        /* per rank */
  uint64_t depth, fanout;
  int unique;            /* 1: a tree per rank */
  int stat_other;        /* 1: stat rank+1's files */
  uint64_t write_bytes;  /* per file */
  uint64_t transfer;     /* bytes per write/read call */
  const char *phases;    /* comma-separated phase names */
  unsigned mask;         /* PH_* bits parsed from phases */
};

/* The tree as relative paths, shared by every rank's view. */
struct md_tree {
  char base[PATH_MAX]; /* "<run dir>/mdtest_like.tree" */
  char **dirs;         /* ndirs relative paths; dirs[0] is "" */
  size_t ndirs;
};

static const struct bench_kernel kernel = {
  "mdtest_like",
  "mdtest-like metadata kernel: create, stat, read and remove files in a\n"
  "directory tree.",
  "Phases always run in the order create, stat, read, remove. Without\n"
  "create, files kept by an earlier run (--keep, same --dir) are used.\n",
};

/* Parse "create,stat,..." into PH_* bits; usage error on a bad name. */
static unsigned parse_phases(const struct bench_ctx *ctx, const char *list)
{
  static const char *const names[] = {"create", "stat", "read", "remove"};
  unsigned mask = 0;
  for (const char *p = list; *p;) {
    size_t len = strcspn(p, ",");
    unsigned bit = 0;
    for (unsigned i = 0; i < 4; i++)
      if (strlen(names[i]) == len && strncmp(names[i], p, len) == 0)
        bit = 1u << i;
    if (!bit)
      bench_usage_error(ctx, "--phases: unknown phase '%.*s' (create, stat, "
                        "read, remove)", (int)len, p);
    mask |= bit;
    p += len + (p[len] == ',');
  }
  if (!mask)
    bench_usage_error(ctx, "--phases: no phase given");
  return mask;
}

/* Usage errors (exit 2) for bad flag combinations; resolves defaults. */
static void validate(const struct bench_ctx *ctx, struct md_cfg *c)
{
  c->mask = parse_phases(ctx, c->phases);
  uint64_t level = 1, ndirs = 1;
  for (uint64_t d = 0; d < c->depth && ndirs <= MAX_DIRS; d++) {
    level *= c->fanout;
    ndirs += level;
  }
  if (ndirs > MAX_DIRS)
    bench_usage_error(ctx, "--depth/--fanout give more than %d directories",
                      MAX_DIRS);
}

/* Build the relative directory paths, breadth first. Caller frees. */
static void tree_init(struct bench_ctx *ctx, const struct md_cfg *c,
                      struct md_tree *t)
{
  uint64_t level = 1;
  t->ndirs = 1;
  for (uint64_t d = 0; d < c->depth; d++) {
    level *= c->fanout;
    t->ndirs += level;
  }
  t->dirs = bench_xcalloc(ctx, t->ndirs, sizeof *t->dirs);
  t->dirs[0] = bench_xcalloc(ctx, 1, 1);
  for (size_t k = 1; k < t->ndirs; k++) {
    size_t parent = (k - 1) / c->fanout, child = (k - 1) % c->fanout;
    size_t n = strlen(t->dirs[parent]) + 24;
    t->dirs[k] = bench_xmalloc(ctx, n);
    snprintf(t->dirs[k], n, "%s%sd%zu", t->dirs[parent],
             parent ? "/" : "", child);
  }
  bench_path(ctx, t->base, sizeof t->base, "tree");
}

/* Release what tree_init() allocated. */
static void tree_free(struct md_tree *t)
{
  for (size_t k = 0; k < t->ndirs; k++)
    free(t->dirs[k]);
  free(t->dirs);
}

/* Path of directory k of owner's tree (the shared tree if !unique). */
static void dir_path(const struct bench_ctx *ctx, const struct md_cfg *c,
                     const struct md_tree *t, int owner, size_t k, char *out)
{
  int n = c->unique ? snprintf(out, PATH_MAX, "%s/rank.%d%s%s", t->base,
                               owner, k ? "/" : "", t->dirs[k])
                    : snprintf(out, PATH_MAX, "%s%s%s", t->base,
                               k ? "/" : "", t->dirs[k]);
  if (n >= PATH_MAX)
    bench_die(ctx, "path too long under %s", t->base);
}

/* Path of file i of rank owner. */
static void file_path(const struct bench_ctx *ctx, const struct md_cfg *c,
                      const struct md_tree *t, int owner, uint64_t i,
                      char *out)
{
  char dir[PATH_MAX];
  dir_path(ctx, c, t, owner, (size_t)(i % t->ndirs), dir);
  if (snprintf(out, PATH_MAX, "%s/f.%d.%" PRIu64, dir, owner, i) >= PATH_MAX)
    bench_die(ctx, "path too long under %s", dir);
}

/* Pattern tag of file i of rank owner. */
static uint64_t file_tag(int owner, uint64_t i)
{
  return ((uint64_t)owner << 40) ^ i;
}

/* mkdir that tolerates an existing directory. */
static void make_dir(const struct bench_ctx *ctx, const char *path)
{
  if (mkdir(path, 0755) != 0 && errno != EEXIST)
    bench_die(ctx, "mkdir %s: %s", path, strerror(errno));
}

/* Create the tree: rank 0 the base (and a shared tree), or every rank its
 * own tree. Collective. */
static void tree_create(const struct bench_ctx *ctx, const struct md_cfg *c,
                        const struct md_tree *t)
{
  char path[PATH_MAX];
  if (ctx->rank == 0)
    make_dir(ctx, t->base);
  MPI_Barrier(MPI_COMM_WORLD);
  if (c->unique || ctx->rank == 0) {
    for (size_t k = c->unique ? 0 : 1; k < t->ndirs; k++) {
      dir_path(ctx, c, t, ctx->rank, k, path);
      make_dir(ctx, path);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Remove the tree's directories, deepest first. Collective. */
static void tree_remove(const struct bench_ctx *ctx, const struct md_cfg *c,
                        const struct md_tree *t)
{
  char path[PATH_MAX];
  MPI_Barrier(MPI_COMM_WORLD);
  if (c->unique || ctx->rank == 0) {
    for (size_t k = t->ndirs; k-- > (c->unique ? 0 : 1);) {
      dir_path(ctx, c, t, ctx->rank, k, path);
      if (rmdir(path) != 0)
        bench_die(ctx, "rmdir %s: %s", path, strerror(errno));
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (ctx->rank == 0 && rmdir(t->base) != 0)
    bench_die(ctx, "rmdir %s: %s", t->base, strerror(errno));
}

/* Create file i of this rank with write_bytes of its pattern. */
static void create_file(struct bench_ctx *ctx, const struct md_cfg *c,
                        const char *path, uint64_t i, void *buf)
{
  int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (fd < 0)
    bench_die(ctx, "create %s: %s", path, strerror(errno));
  for (uint64_t off = 0; off < c->write_bytes; off += c->transfer) {
    size_t len = (size_t)(c->write_bytes - off < c->transfer
                              ? c->write_bytes - off : c->transfer);
    bench_pattern_fill(buf, len, file_tag(ctx->rank, i), off);
    if (write(fd, buf, len) != (ssize_t)len)
      bench_die(ctx, "write %s: %s", path, strerror(errno));
    ctx->bytes_written += len;
  }
  if (close(fd) != 0)
    bench_die(ctx, "close %s: %s", path, strerror(errno));
}

/* Open file i of this rank, read and verify all of it, close. */
static void read_file(struct bench_ctx *ctx, const struct md_cfg *c,
                      const char *path, uint64_t i, void *buf)
{
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    bench_die(ctx, "open %s: %s", path, strerror(errno));
  for (uint64_t off = 0; off < c->write_bytes; off += c->transfer) {
    size_t len = (size_t)(c->write_bytes - off < c->transfer
                              ? c->write_bytes - off : c->transfer);
    if (read(fd, buf, len) != (ssize_t)len)
      bench_die(ctx, "read %s: short read or error", path);
    bench_verify(ctx, buf, len, file_tag(ctx->rank, i), off, path);
    ctx->bytes_read += len;
  }
  if (close(fd) != 0)
    bench_die(ctx, "close %s: %s", path, strerror(errno));
}

/* stat every file of owner; a wrong size counts as a mismatch. */
static void stat_files(struct bench_ctx *ctx, const struct md_cfg *c,
                       const struct md_tree *t, int owner)
{
  char path[PATH_MAX];
  struct stat st;
  for (uint64_t i = 0; i < c->files; i++) {
    file_path(ctx, c, t, owner, i, path);
    if (stat(path, &st) != 0)
      bench_die(ctx, "stat %s: %s", path, strerror(errno));
    if ((uint64_t)st.st_size != c->write_bytes && ctx->mismatches++ < 3)
      fprintf(stderr, "%s: rank %d: %s has %lld bytes, expected %" PRIu64
              "\n", ctx->kernel, ctx->rank, path, (long long)st.st_size,
              c->write_bytes);
  }
}

/* Run one phase over this rank's files. */
static void run_phase(struct bench_ctx *ctx, const struct md_cfg *c,
                      const struct md_tree *t, unsigned phase, void *buf)
{
  char path[PATH_MAX];
  if (phase == PH_STAT) {
    stat_files(ctx, c, t, c->stat_other ? (ctx->rank + 1) % ctx->nranks
                                        : ctx->rank);
    return;
  }
  if (phase == PH_CREATE)
    tree_create(ctx, c, t);
  for (uint64_t i = 0; i < c->files; i++) {
    file_path(ctx, c, t, ctx->rank, i, path);
    if (phase == PH_CREATE)
      create_file(ctx, c, path, i, buf);
    else if (phase == PH_READ)
      read_file(ctx, c, path, i, buf);
    else if (unlink(path) != 0)
      bench_die(ctx, "unlink %s: %s", path, strerror(errno));
  }
  if (phase == PH_REMOVE)
    tree_remove(ctx, c, t);
}

/* Put the configuration into the summary line. */
static void describe(struct bench_ctx *ctx, const struct md_cfg *c)
{
  char w[32], x[32];
  bench_cfg(ctx, "files_per_rank", "%" PRIu64, c->files);
  bench_cfg(ctx, "depth", "%" PRIu64, c->depth);
  bench_cfg(ctx, "fanout", "%" PRIu64, c->fanout);
  bench_cfg(ctx, "dirs", "%s", c->unique ? "unique" : "shared");
  bench_cfg(ctx, "stat_other", "%d", c->stat_other);
  bench_cfg(ctx, "write_bytes", "%s",
            bench_fmt_size(c->write_bytes, w, sizeof w));
  bench_cfg(ctx, "transfer", "%s", bench_fmt_size(c->transfer, x, sizeof x));
  bench_cfg(ctx, "phases", "%s", c->phases);
}

int main(int argc, char **argv)
{
  struct bench_ctx ctx;
  struct md_cfg c = {
    .files = 2, .fanout = 2, .unique = 1, .write_bytes = 4 << 20,
    .transfer = 1 << 20, .phases = "create,stat,read,remove",
  };
  const struct bench_opt opts[] = {
    BENCH_UINT("files-per-rank", &c.files, 1, 10000000, "files per rank"),
    BENCH_UINT("depth", &c.depth, 0, 20, "tree levels below the root"),
    BENCH_UINT("fanout", &c.fanout, 1, 1000, "directories per level"),
    BENCH_SET("unique-dir", &c.unique, 1, "a tree per rank"),
    BENCH_SET("shared-dir", &c.unique, 0, "one tree shared by all ranks"),
    BENCH_SET("stat-other", &c.stat_other, 1,
              "stat the files of rank+1 instead of one's own"),
    BENCH_SIZE("write-bytes", &c.write_bytes, 0, (uint64_t)1 << 34,
               "bytes written into each file"),
    BENCH_SIZE("transfer", &c.transfer, 1, 1 << 30,
               "bytes per write/read call"),
    BENCH_STR("phases", &c.phases, "LIST", "phases to run"),
    BENCH_END,
  };
  bench_init(&argc, &argv, &kernel, opts, &ctx);
  validate(&ctx, &c);
  bench_setup_dir(&ctx);
  describe(&ctx, &c);
  struct md_tree tree;
  tree_init(&ctx, &c, &tree);
  void *buf = bench_xalloc(&ctx, c.transfer);
  static const char *const names[] = {"create", "stat", "read", "remove"};
  for (unsigned i = 0; i < 4; i++) {
    if (!(c.mask & (1u << i)))
      continue;
    double t0 = bench_phase_begin(&ctx);
    run_phase(&ctx, &c, &tree, 1u << i, buf);
    bench_phase_end(&ctx, names[i], t0);
  }
  free(buf);
  tree_free(&tree);
  bench_report(&ctx);
  return bench_finish(&ctx);
}
