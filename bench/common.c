/* bench/common.c - flag parsing, run directory, timing, data pattern and
 * random numbers shared by every benchmark kernel. See common.h for the
 * life cycle and the exit-status rules. */
#include "common.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#define HELP_COLUMN 30       /* where flag descriptions start in --help */
#define MAX_MISMATCH_LINES 3 /* mismatch lines printed per rank */

static int mismatch_lines; /* mismatch lines printed so far by this rank */

/* --- flag parsing ------------------------------------------------------ */

/* Copy the idx-th word of "a|b|c" into buf. Returns buf ("" if none). */
static char *choice_word(const char *choices, int idx, char *buf, size_t n)
{
  const char *p = choices;
  for (int i = 0; i < idx && p; i++) {
    p = strchr(p, '|');
    if (p)
      p++;
  }
  size_t len = 0;
  if (p)
    len = strcspn(p, "|");
  if (len >= n)
    len = n - 1;
  memcpy(buf, p ? p : "", len);
  buf[len] = '\0';
  return buf;
}

/* Index of word in "a|b|c", or -1. */
static int choice_index(const char *choices, const char *word)
{
  char buf[64];
  for (int i = 0; *choice_word(choices, i, buf, sizeof buf); i++)
    if (strcmp(buf, word) == 0)
      return i;
  return -1;
}

/* The default shown by --help for one flag, from the current *dest. */
static void describe_default(const struct bench_opt *o, char *buf, size_t n)
{
  char tmp[64];
  buf[0] = '\0';
  switch (o->kind) {
  case BENCH_OPT_SET:
    if (*(int *)o->dest == o->value)
      snprintf(buf, n, " (default)");
    break;
  case BENCH_OPT_UINT:
    snprintf(buf, n, " (default %" PRIu64 ")", *(uint64_t *)o->dest);
    break;
  case BENCH_OPT_SIZE:
    snprintf(buf, n, " (default %s)",
             bench_fmt_size(*(uint64_t *)o->dest, tmp, sizeof tmp));
    break;
  case BENCH_OPT_CHOICE:
    snprintf(buf, n, " (default %s)",
             choice_word(o->choices, *(int *)o->dest, tmp, sizeof tmp));
    break;
  case BENCH_OPT_STR:
    if (*(const char **)o->dest)
      snprintf(buf, n, " (default %s)", *(const char **)o->dest);
    break;
  }
}

/* The " VALUE" part of a flag in --help, e.g. " SIZE" or " posix|mpiio". */
static const char *opt_meta(const struct bench_opt *o, char *buf, size_t n)
{
  switch (o->kind) {
  case BENCH_OPT_UINT:
    return " N";
  case BENCH_OPT_SIZE:
    return " SIZE";
  case BENCH_OPT_CHOICE:
  case BENCH_OPT_STR:
    snprintf(buf, n, " %s", o->choices ? o->choices : "TEXT");
    return buf;
  case BENCH_OPT_SET:
    break;
  }
  return "";
}

/* Print one help line per flag of a table. */
static void print_opts(const struct bench_opt *opts)
{
  for (const struct bench_opt *o = opts; o->name; o++) {
    char left[160], meta[96], dflt[96];
    int len = snprintf(left, sizeof left, "  --%s%s", o->name,
                       opt_meta(o, meta, sizeof meta));
    describe_default(o, dflt, sizeof dflt);
    if (len >= HELP_COLUMN - 1)
      printf("%s\n%*s%s%s\n", left, HELP_COLUMN, "", o->help, dflt);
    else
      printf("%-*s%s%s\n", HELP_COLUMN, left, o->help, dflt);
  }
}

static void print_help(const struct bench_kernel *k,
                       const struct bench_opt *opts,
                       const struct bench_opt *common)
{
  printf("usage: mpirun -np N %s [flags]\n%s\n\nflags:\n", k->name,
         k->summary);
  print_opts(opts);
  printf("\ncommon flags:\n");
  print_opts(common);
  printf("  --help                      print this help and exit\n");
  printf("\nSIZE accepts 64, 4k, 1m, 2g (binary units). Prints one summary "
         "line on stdout.\nExit status: 0 ok, 1 I/O failure or read-back "
         "mismatch, 2 usage error.\n");
  if (k->notes)
    printf("\n%s", k->notes);
}

/* Store the text value of flag o; usage error if it does not fit. */
static void set_value(const struct bench_ctx *ctx, const struct bench_opt *o,
                      const char *val)
{
  char lo[32], hi[32];
  uint64_t v = 0;
  switch (o->kind) {
  case BENCH_OPT_SET:
    *(int *)o->dest = o->value;
    return;
  case BENCH_OPT_STR:
    *(const char **)o->dest = val;
    return;
  case BENCH_OPT_CHOICE:
    *(int *)o->dest = choice_index(o->choices, val);
    if (*(int *)o->dest < 0)
      bench_usage_error(ctx, "--%s: '%s' is not one of %s", o->name, val,
                        o->choices);
    return;
  case BENCH_OPT_UINT:
    if (bench_parse_size(val, &v) != 0 || !isdigit((unsigned char)
                                                   val[strlen(val) - 1]))
      bench_usage_error(ctx, "--%s: '%s' is not a whole number", o->name,
                        val);
    if (v < o->min || v > o->max)
      bench_usage_error(ctx, "--%s: %" PRIu64 " is outside %" PRIu64
                        "..%" PRIu64, o->name, v, o->min, o->max);
    break;
  case BENCH_OPT_SIZE:
    if (bench_parse_size(val, &v) != 0)
      bench_usage_error(ctx, "--%s: '%s' is not a size (64, 4k, 1m, 2g)",
                        o->name, val);
    if (v < o->min || v > o->max)
      bench_usage_error(ctx, "--%s: %s is outside %s..%s", o->name, val,
                        bench_fmt_size(o->min, lo, sizeof lo),
                        bench_fmt_size(o->max, hi, sizeof hi));
    break;
  }
  *(uint64_t *)o->dest = v;
}

static const struct bench_opt *find_opt(const struct bench_opt *opts,
                                        const char *name, size_t len)
{
  for (const struct bench_opt *o = opts; o->name; o++)
    if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
      return o;
  return NULL;
}

/* Parse argv[1..]; returns 1 if --help was asked for. */
static int parse_args(const struct bench_ctx *ctx, int argc, char **argv,
                      const struct bench_opt *opts,
                      const struct bench_opt *common)
{
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
      return 1;
    if (strncmp(arg, "--", 2) != 0)
      bench_usage_error(ctx, "unexpected argument '%s'", arg);
    const char *name = arg + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const struct bench_opt *o = find_opt(opts, name, len);
    if (!o)
      o = find_opt(common, name, len);
    if (!o)
      bench_usage_error(ctx, "unknown flag '--%.*s'", (int)len, name);
    const char *val = eq ? eq + 1 : NULL;
    if (o->kind == BENCH_OPT_SET && val)
      bench_usage_error(ctx, "--%s takes no value", o->name);
    if (o->kind != BENCH_OPT_SET && !val) {
      if (i + 1 >= argc)
        bench_usage_error(ctx, "--%s needs a value", o->name);
      val = argv[++i];
    }
    set_value(ctx, o, val);
  }
  return 0;
}

void bench_init(int *argc, char ***argv, const struct bench_kernel *kernel,
                const struct bench_opt *opts, struct bench_ctx *ctx)
{
  memset(ctx, 0, sizeof *ctx);
  ctx->kernel = kernel->name;
  ctx->seed = 1;
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &ctx->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ctx->nranks);
  const struct bench_opt common[] = {
    BENCH_STR("dir", &ctx->dir_arg, "DIR",
              "write under DIR (default: a fresh dir in $TMPDIR or /tmp)"),
    BENCH_SET("keep", &ctx->keep, 1, "keep the files written"),
    BENCH_UINT("seed", &ctx->seed, 0, UINT64_MAX,
               "seed of every random choice"),
    BENCH_STR("stripe-count", &ctx->stripe_arg, "N",
              "stripe the files of the run directory over N targets (-1: "
              "every target), as `lfs setstripe -c N` on it would; read by "
              "the emulated file system (docs/pfs.md)"),
    BENCH_END,
  };
  if (parse_args(ctx, *argc, *argv, opts, common)) {
    if (ctx->rank == 0)
      print_help(kernel, opts, common);
    MPI_Finalize();
    exit(0);
  }
  if (ctx->stripe_arg) {
    char *end = NULL;
    ctx->stripe_count = strtol(ctx->stripe_arg, &end, 10);
    if (!*ctx->stripe_arg || *end || ctx->stripe_count == 0 ||
        ctx->stripe_count < -1 || ctx->stripe_count > 4096)
      bench_usage_error(ctx, "--stripe-count: '%s' is not -1 or 1..4096",
                        ctx->stripe_arg);
    bench_cfg(ctx, "stripe_count", "%ld", ctx->stripe_count);
  }
}

/* --- errors ------------------------------------------------------------ */

void bench_usage_error(const struct bench_ctx *ctx, const char *fmt, ...)
{
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (ctx->rank == 0)
    fprintf(stderr, "%s: %s (try --help)\n", ctx->kernel, msg);
  MPI_Finalize();
  exit(2);
}

void bench_die(const struct bench_ctx *ctx, const char *fmt, ...)
{
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "%s: rank %d: %s\n", ctx->kernel, ctx->rank, msg);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  exit(1);
}

void bench_check_mpi(const struct bench_ctx *ctx, int rc, const char *what)
{
  if (rc == MPI_SUCCESS)
    return;
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  bench_die(ctx, "%s: %s", what, msg);
}

/* --- run directory ------------------------------------------------------ */

/* mkdir -p; returns 0 or -1 with errno set. */
static int mkdir_p(const char *path)
{
  char buf[PATH_MAX];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
    errno = ENAMETOOLONG;
    return -1;
  }
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/')
      continue;
    *p = '\0';
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
      return -1;
    *p = '/';
  }
  if (mkdir(buf, 0755) != 0 && errno != EEXIST)
    return -1;
  return 0;
}

/* The emulated file system's layout attribute (pfs/src/pfs_emu.c): on a
 * directory, "COUNT SIZE" is the default of the files made under it, as
 * `lfs setstripe -c COUNT DIR` sets it on Lustre (SIZE 0: the system's). */
#define BENCH_LAYOUT_ATTR "user.iosage.stripe"

/* --stripe-count, rank 0 before the others see the directory: its default
 * layout. A file system without user attributes is not an error (nothing
 * reads the layout there): one warning. */
static void set_dir_stripe(const struct bench_ctx *ctx)
{
  char val[32];
  int n = snprintf(val, sizeof val, "%ld 0", ctx->stripe_count);
  if (setxattr(ctx->dir, BENCH_LAYOUT_ATTR, val, (size_t)n, 0) != 0)
    fprintf(stderr, "%s: --stripe-count: cannot set the layout of %s: %s "
            "(ignored)\n", ctx->kernel, ctx->dir, strerror(errno));
}

/* Rank 0's half of bench_setup_dir(): fill ctx->dir and dir_created. */
static void make_run_dir(struct bench_ctx *ctx)
{
  struct stat st;
  if (ctx->dir_arg) {
    if (snprintf(ctx->dir, sizeof ctx->dir, "%s", ctx->dir_arg) >=
        (int)sizeof ctx->dir)
      bench_die(ctx, "--dir: path too long");
    ctx->dir_created = stat(ctx->dir, &st) != 0;
    if (mkdir_p(ctx->dir) != 0)
      bench_die(ctx, "mkdir %s: %s", ctx->dir, strerror(errno));
    return;
  }
  const char *base = getenv("TMPDIR");
  if (!base || !*base)
    base = "/tmp";
  if (snprintf(ctx->dir, sizeof ctx->dir, "%s/%s-XXXXXX", base,
               ctx->kernel) >= (int)sizeof ctx->dir)
    bench_die(ctx, "$TMPDIR too long");
  if (!mkdtemp(ctx->dir))
    bench_die(ctx, "mkdtemp %s: %s", ctx->dir, strerror(errno));
  ctx->dir_created = 1;
}

void bench_setup_dir(struct bench_ctx *ctx)
{
  if (ctx->rank == 0) {
    make_run_dir(ctx);
    if (ctx->stripe_count)
      set_dir_stripe(ctx);
  }
  MPI_Bcast(ctx->dir, (int)sizeof ctx->dir, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_Bcast(&ctx->dir_created, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (ctx->keep)
    bench_cfg(ctx, "dir", "%s", ctx->dir);
}

void bench_path(const struct bench_ctx *ctx, char *out, size_t n,
                const char *suffix_fmt, ...)
{
  char suffix[PATH_MAX];
  va_list ap;
  va_start(ap, suffix_fmt);
  vsnprintf(suffix, sizeof suffix, suffix_fmt, ap);
  va_end(ap);
  if (snprintf(out, n, "%s/%s.%s", ctx->dir, ctx->kernel, suffix) >= (int)n)
    bench_die(ctx, "path too long under %s", ctx->dir);
}

/* Remove path and everything under it; errors are reported, not fatal. */
static void remove_tree(const struct bench_ctx *ctx, const char *path)
{
  struct stat st;
  if (lstat(path, &st) != 0)
    return;
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
      char sub[PATH_MAX];
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
        continue;
      if (snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) <
          (int)sizeof sub)
        remove_tree(ctx, sub);
    }
    if (d)
      closedir(d);
  }
  if (remove(path) != 0)
    fprintf(stderr, "%s: cleanup: remove %s: %s\n", ctx->kernel, path,
            strerror(errno));
}

/* Remove the whole run dir if this run made it, else the kernel's entries. */
static void cleanup_dir(const struct bench_ctx *ctx)
{
  if (ctx->dir_created) {
    remove_tree(ctx, ctx->dir);
    return;
  }
  size_t plen = strlen(ctx->kernel);
  DIR *d = opendir(ctx->dir);
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL) {
    char sub[PATH_MAX];
    if (strncmp(e->d_name, ctx->kernel, plen) != 0 || e->d_name[plen] != '.')
      continue;
    if (snprintf(sub, sizeof sub, "%s/%s", ctx->dir, e->d_name) <
        (int)sizeof sub)
      remove_tree(ctx, sub);
  }
  if (d)
    closedir(d);
}

/* --- summary and exit ---------------------------------------------------- */

void bench_cfg(struct bench_ctx *ctx, const char *key, const char *fmt, ...)
{
  size_t used = strlen(ctx->cfg);
  char val[PATH_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(val, sizeof val, fmt, ap);
  va_end(ap);
  snprintf(ctx->cfg + used, sizeof ctx->cfg - used, " %s=%s", key, val);
}

void bench_report(struct bench_ctx *ctx)
{
  uint64_t local[3] = {ctx->bytes_written, ctx->bytes_read, ctx->mismatches};
  uint64_t sum[3];
  MPI_Allreduce(local, sum, 3, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  ctx->mismatches = sum[2]; /* every rank now holds the job's total */
  if (ctx->rank != 0)
    return;
  double secs = 0;
  for (int i = 0; i < ctx->nphases; i++)
    secs += ctx->phase_s[i];
  uint64_t bytes = sum[0] + sum[1];
  printf("%s ranks=%d%s bytes=%" PRIu64 " wbytes=%" PRIu64 " rbytes=%" PRIu64
         " seconds=%.4f MiB/s=%.1f", ctx->kernel, ctx->nranks, ctx->cfg,
         bytes, sum[0], sum[1], secs,
         secs > 0 ? (double)bytes / secs / 1048576.0 : 0.0);
  for (int i = 0; i < ctx->nphases; i++)
    printf(" %s_s=%.4f", ctx->phase_name[i], ctx->phase_s[i]);
  printf(" mismatches=%" PRIu64 "\n", sum[2]);
  fflush(stdout);
  if (sum[2])
    fprintf(stderr, "%s: %" PRIu64 " bytes failed read-back verification\n",
            ctx->kernel, sum[2]);
}

int bench_finish(struct bench_ctx *ctx)
{
  MPI_Barrier(MPI_COMM_WORLD);
  if (ctx->rank == 0 && !ctx->keep && ctx->dir[0])
    cleanup_dir(ctx);
  MPI_Finalize();
  return ctx->mismatches ? 1 : 0;
}

/* --- timing ------------------------------------------------------------ */

double bench_phase_begin(const struct bench_ctx *ctx)
{
  (void)ctx;
  MPI_Barrier(MPI_COMM_WORLD);
  return MPI_Wtime();
}

double bench_phase_end(struct bench_ctx *ctx, const char *name, double t0)
{
  double mine = MPI_Wtime() - t0, slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int i = 0;
  while (i < ctx->nphases && strcmp(ctx->phase_name[i], name) != 0)
    i++;
  if (i == BENCH_MAX_PHASES)
    bench_die(ctx, "too many phases");
  if (i == ctx->nphases) {
    ctx->phase_name[ctx->nphases++] = name;
    ctx->phase_s[i] = 0;
  }
  ctx->phase_s[i] += slowest;
  return mine;
}

/* --- sizes ------------------------------------------------------------- */

int bench_parse_size(const char *s, uint64_t *out)
{
  if (!s || !isdigit((unsigned char)s[0]))
    return -1;
  errno = 0;
  char *end = NULL;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno != 0)
    return -1;
  int shift = 0;
  switch (tolower((unsigned char)*end)) {
  case 'k': shift = 10; break;
  case 'm': shift = 20; break;
  case 'g': shift = 30; break;
  case 't': shift = 40; break;
  default: break;
  }
  if (shift) {
    end++;
    if (*end == 'i' && (end[1] == 'B' || end[1] == 'b'))
      end += 2;
    else if (*end == 'B' || *end == 'b')
      end++;
  }
  if (*end != '\0' || v > (UINT64_MAX >> shift))
    return -1;
  *out = (uint64_t)v << shift;
  return 0;
}

char *bench_fmt_size(uint64_t v, char *buf, size_t n)
{
  static const char units[] = "tgmk";
  for (int i = 0; i < 4; i++) {
    uint64_t unit = (uint64_t)1 << (10 * (4 - i));
    if (v && v % unit == 0) {
      snprintf(buf, n, "%" PRIu64 "%c", v / unit, units[i]);
      return buf;
    }
  }
  snprintf(buf, n, "%" PRIu64, v);
  return buf;
}

/* --- data pattern -------------------------------------------------------- */

/* splitmix64's finalizer: a strong 64-bit mix. */
static uint64_t mix64(uint64_t z)
{
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* The pattern byte at offset off: byte (off % 8), little-endian order, of
 * the word mix64((off / 8) ^ tag_hash). */
static uint8_t pattern_byte(uint64_t tag_hash, uint64_t off)
{
  return (uint8_t)(mix64((off >> 3) ^ tag_hash) >> (8 * (off & 7)));
}

static void store_le64(uint8_t *p, uint64_t w)
{
  for (int i = 0; i < 8; i++)
    p[i] = (uint8_t)(w >> (8 * i));
}

void bench_pattern_fill(void *buf, size_t len, uint64_t tag, uint64_t off)
{
  uint8_t *p = buf;
  uint64_t th = mix64(tag);
  for (; len && (off & 7); len--, off++)
    *p++ = pattern_byte(th, off);
  for (; len >= 8; len -= 8, off += 8, p += 8)
    store_le64(p, mix64((off >> 3) ^ th));
  for (; len; len--, off++)
    *p++ = pattern_byte(th, off);
}

uint64_t bench_pattern_check(const void *buf, size_t len, uint64_t tag,
                             uint64_t off)
{
  const uint8_t *p = buf;
  uint64_t th = mix64(tag), bad = 0;
  uint8_t want[8];
  for (; len && (off & 7); len--, off++)
    bad += *p++ != pattern_byte(th, off);
  for (; len >= 8; len -= 8, off += 8, p += 8) {
    store_le64(want, mix64((off >> 3) ^ th));
    if (memcmp(p, want, 8) != 0)
      for (int i = 0; i < 8; i++)
        bad += p[i] != want[i];
  }
  for (; len; len--, off++)
    bad += *p++ != pattern_byte(th, off);
  return bad;
}

/* Count a mismatch of `bad` bytes in a request of len bytes at off, the
 * first bad one at off + first, and print it (the first few per rank). */
static void report_mismatch(struct bench_ctx *ctx, const char *what,
                            uint64_t bad, size_t len, uint64_t off,
                            size_t first)
{
  ctx->mismatches += bad;
  if (mismatch_lines++ >= MAX_MISMATCH_LINES)
    return;
  fprintf(stderr, "%s: rank %d: %s: %" PRIu64 " of %zu bytes read at offset %"
          PRIu64 " differ from what was written, first at offset %" PRIu64
          "\n", ctx->kernel, ctx->rank, what, bad, len, off, off + first);
}

uint64_t bench_verify(struct bench_ctx *ctx, const void *buf, size_t len,
                      uint64_t tag, uint64_t off, const char *what)
{
  uint64_t bad = bench_pattern_check(buf, len, tag, off);
  if (!bad)
    return 0;
  size_t first = 0;
  while (first < len && !bench_pattern_check((const uint8_t *)buf + first, 1,
                                             tag, off + first))
    first++;
  report_mismatch(ctx, what, bad, len, off, first);
  return bad;
}

uint64_t bench_verify_bytes(struct bench_ctx *ctx, const void *got,
                            const void *want, size_t len, uint64_t off,
                            const char *what)
{
  const uint8_t *g = got, *w = want;
  uint64_t bad = 0;
  size_t first = len;
  for (size_t k = 0; k < len; k++) {
    if (g[k] != w[k] && bad++ == 0)
      first = k;
  }
  if (bad)
    report_mismatch(ctx, what, bad, len, off, first);
  return bad;
}

/* --- random numbers ------------------------------------------------------ */

void bench_rng_init(struct bench_rng *rng, uint64_t seed, uint64_t stream)
{
  rng->state = mix64(seed ^ mix64(stream ^ 0x5851f42d4c957f2dULL));
}

uint64_t bench_rng_next(struct bench_rng *rng)
{
  rng->state += 0x9e3779b97f4a7c15ULL;
  return mix64(rng->state);
}

uint64_t bench_rng_below(struct bench_rng *rng, uint64_t n)
{
  uint64_t limit = -n % n; /* reject the low values that would bias % n */
  uint64_t r;
  do
    r = bench_rng_next(rng);
  while (r < limit);
  return r % n;
}

void bench_shuffle(struct bench_rng *rng, void *base, size_t n, size_t size)
{
  unsigned char tmp[64], *a = base;
  if (size > sizeof tmp)
    abort(); /* programmer error: elements are small structs */
  for (size_t i = n; i > 1; i--) {
    size_t j = (size_t)bench_rng_below(rng, i);
    memcpy(tmp, a + (i - 1) * size, size);
    memcpy(a + (i - 1) * size, a + j * size, size);
    memcpy(a + j * size, tmp, size);
  }
}

/* --- memory and files ---------------------------------------------------- */

void *bench_xmalloc(const struct bench_ctx *ctx, size_t n)
{
  void *p = malloc(n ? n : 1);
  if (!p)
    bench_die(ctx, "out of memory (%zu bytes)", n);
  return p;
}

void *bench_xcalloc(const struct bench_ctx *ctx, size_t n, size_t size)
{
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p)
    bench_die(ctx, "out of memory (%zu x %zu bytes)", n, size);
  return p;
}

void *bench_xalloc(const struct bench_ctx *ctx, size_t n)
{
  void *p = NULL;
  if (posix_memalign(&p, 4096, n ? n : 1) != 0)
    bench_die(ctx, "out of memory (%zu bytes)", n);
  return p;
}

int bench_files_ready(const struct bench_ctx *ctx, const char *path,
                      uint64_t min_size)
{
  (void)ctx;
  struct stat st;
  int mine = !path || (stat(path, &st) == 0 &&
                       (uint64_t)st.st_size >= min_size);
  int all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all;
}

void bench_resolve_ops(int *do_write, int *do_read)
{
  if (!*do_write && !*do_read)
    *do_write = *do_read = 1;
}
