/* bench/common.h - helpers shared by the iosage benchmark kernels.
 *
 * Every kernel has the same life cycle, and these helpers own each step:
 *
 *   bench_init()          MPI_Init, then parse the common flags (--dir,
 *                         --keep, --seed, --stripe-count, --help) and the
 *                         kernel's flags
 *   bench_usage_error()   a bad combination found after parsing: exit 2
 *   bench_setup_dir()     make the run directory (rank 0), share its path
 *   bench_phase_begin/end time a phase: barrier, run, slowest rank's time
 *   bench_verify()        compare read data with the (tag, offset) pattern
 *   bench_report()        rank 0 prints the one summary line on stdout
 *   bench_finish()        remove what the run wrote unless --keep, finalize,
 *                         return the process exit status
 *
 * Exit status: 0 ok; 1 an I/O or MPI failure (the job is aborted) or a
 * read-back mismatch; 2 a usage error. A usage error is detected identically
 * on every rank (flags are the same everywhere), so every rank exits 2 and
 * only rank 0 prints its one line. Data goes to stdout, diagnostics to
 * stderr, and only rank 0 writes to stdout.
 *
 * Written data is a pure function of (tag, byte offset): the kernel picks
 * the tag (the writing rank, a file index ...) and the offset (the logical
 * offset in the file or dataset), so any rank can check any byte it reads.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

#define BENCH_MAX_PHASES 8
/* Requests one rank may plan: bounds the kernels' request tables. */
#define BENCH_MAX_REQUESTS (1u << 22)

/* What kind of value a flag takes, and how it is stored in *dest. */
enum bench_opt_kind {
  BENCH_OPT_SET,    /* --name          *(int *)dest = value */
  BENCH_OPT_UINT,   /* --name N        *(uint64_t *)dest, min..max */
  BENCH_OPT_SIZE,   /* --name SIZE     *(uint64_t *)dest: 64, 4k, 1m, 2g */
  BENCH_OPT_CHOICE, /* --name WORD     *(int *)dest = index of WORD */
  BENCH_OPT_STR,    /* --name TEXT     *(const char **)dest, points in argv */
};

/* One row of a kernel's flag table; the table ends with a row whose name is
 * NULL. The value in *dest before bench_init() is the default that --help
 * shows. Flags are given as "--name value" or "--name=value". */
struct bench_opt {
  const char *name;         /* without the leading "--" */
  enum bench_opt_kind kind;
  void *dest;               /* see enum bench_opt_kind */
  int value;                /* SET: the value stored */
  uint64_t min, max;        /* UINT, SIZE: inclusive bounds */
  const char *choices;      /* CHOICE: "posix|mpiio"; STR: metavariable */
  const char *help;         /* one line */
};

#define BENCH_SET(n, d, v, h) \
  { .name = (n), .kind = BENCH_OPT_SET, .dest = (d), .value = (v), \
    .help = (h) }
#define BENCH_UINT(n, d, lo, hi, h) \
  { .name = (n), .kind = BENCH_OPT_UINT, .dest = (d), .min = (lo), \
    .max = (hi), .help = (h) }
#define BENCH_SIZE(n, d, lo, hi, h) \
  { .name = (n), .kind = BENCH_OPT_SIZE, .dest = (d), .min = (lo), \
    .max = (hi), .help = (h) }
#define BENCH_CHOICE(n, d, c, h) \
  { .name = (n), .kind = BENCH_OPT_CHOICE, .dest = (d), .choices = (c), \
    .help = (h) }
#define BENCH_STR(n, d, meta, h) \
  { .name = (n), .kind = BENCH_OPT_STR, .dest = (d), .choices = (meta), \
    .help = (h) }
#define BENCH_END { .name = NULL }

/* The kernel's identity, for --help and every message. */
struct bench_kernel {
  const char *name;    /* e.g. "ior_like"; also the prefix of its files */
  const char *summary; /* one line: what the kernel does */
  const char *notes;   /* more --help text (may be NULL), ends with '\n' */
};

/* Per-run state; one per process, filled by bench_init(). */
struct bench_ctx {
  const char *kernel;        /* kernel name */
  int rank, nranks;          /* in MPI_COMM_WORLD */
  const char *dir_arg;       /* --dir, or NULL for a fresh temp dir */
  const char *stripe_arg;    /* --stripe-count, or NULL: the default layout */
  long stripe_count;         /* its value: -1 or 1..4096; 0 when not given */
  int keep;                  /* --keep: leave the files behind */
  uint64_t seed;             /* --seed */
  char dir[PATH_MAX];        /* run directory, same on every rank */
  int dir_created;           /* 1 if this run created dir (removed whole) */
  char cfg[1024];            /* " key=value" pairs for the summary line */
  uint64_t bytes_written;    /* this rank, timed phases only */
  uint64_t bytes_read;       /* this rank, timed phases only */
  uint64_t mismatches;       /* this rank: bytes that failed verification */
  int nphases;               /* used entries of phase_name/phase_s */
  const char *phase_name[BENCH_MAX_PHASES];
  double phase_s[BENCH_MAX_PHASES]; /* slowest rank's time, summed */
};

/* Life cycle --------------------------------------------------------------*/

/* Initialize MPI and parse argv against opts plus the common flags. Returns
 * only when the flags are valid; --help prints usage on rank 0's stdout and
 * exits 0, a bad flag prints one line on rank 0's stderr and exits 2. */
void bench_init(int *argc, char ***argv, const struct bench_kernel *kernel,
                const struct bench_opt *opts, struct bench_ctx *ctx);

/* Report a usage error found after parsing (same on every rank): rank 0
 * prints "<kernel>: <message> (try --help)"; every rank exits 2. */
_Noreturn void bench_usage_error(const struct bench_ctx *ctx,
                                 const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A runtime failure on this rank: print "<kernel>: rank R: <message>" and
 * abort the whole job with status 1. */
_Noreturn void bench_die(const struct bench_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* bench_die() unless rc is MPI_SUCCESS; what names the failed call. */
void bench_check_mpi(const struct bench_ctx *ctx, int rc, const char *what);

/* Create the run directory: --dir (made if missing) or a fresh
 * "<kernel>-XXXXXX" in $TMPDIR or /tmp. Collective. */
void bench_setup_dir(struct bench_ctx *ctx);

/* Write "<run dir>/<kernel>.<suffix>" into out (n bytes); dies if too long.
 * Every file and directory a kernel makes is named this way, which is how
 * bench_finish() finds what to remove in a --dir that already existed. */
void bench_path(const struct bench_ctx *ctx, char *out, size_t n,
                const char *suffix_fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Append " key=value" to the configuration shown in the summary line. */
void bench_cfg(struct bench_ctx *ctx, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Rank 0 prints the summary line: kernel, configuration, ranks, bytes,
 * seconds, MiB/s, per-phase seconds, mismatched bytes. Collective. */
void bench_report(struct bench_ctx *ctx);

/* Remove the kernel's files unless --keep (rank 0), MPI_Finalize, and
 * return the exit status for main(): 1 if any rank saw a mismatch. */
int bench_finish(struct bench_ctx *ctx);

/* Timing -----------------------------------------------------------------*/

/* Barrier, then return MPI_Wtime(). Collective. */
double bench_phase_begin(const struct bench_ctx *ctx);

/* Add the slowest rank's time since t0 to phase `name` (a string literal).
 * Collective. Returns this rank's own elapsed time. */
double bench_phase_end(struct bench_ctx *ctx, const char *name, double t0);

/* Sizes and numbers -------------------------------------------------------*/

/* Parse "64", "4k", "1m", "2G", "8KiB" (binary units) into *out.
 * Returns 0, or -1 on a malformed or overflowing value. */
int bench_parse_size(const char *s, uint64_t *out);

/* Format v as the shortest exact "4k"/"1m"/"3" form into buf. Returns buf. */
char *bench_fmt_size(uint64_t v, char *buf, size_t n);

/* Data pattern and verification -------------------------------------------*/

/* Fill buf with the len pattern bytes that start at offset off for tag. */
void bench_pattern_fill(void *buf, size_t len, uint64_t tag, uint64_t off);

/* Count the bytes of buf that differ from the pattern for (tag, off). */
uint64_t bench_pattern_check(const void *buf, size_t len, uint64_t tag,
                             uint64_t off);

/* Check buf against the pattern; on a mismatch add the bad bytes to
 * ctx->mismatches and print a line (first few per rank only). `what` names
 * the file or dataset. Returns the number of bad bytes. */
uint64_t bench_verify(struct bench_ctx *ctx, const void *buf, size_t len,
                      uint64_t tag, uint64_t off, const char *what);

/* Like bench_verify(), against the expected bytes `want` instead of the
 * pattern (for data that is not the raw pattern, e.g. text lines). */
uint64_t bench_verify_bytes(struct bench_ctx *ctx, const void *got,
                            const void *want, size_t len, uint64_t off,
                            const char *what);

/* Deterministic random numbers (splitmix64) --------------------------------*/

struct bench_rng {
  uint64_t state;
};

/* Seed a stream from (seed, stream): same inputs, same sequence. */
void bench_rng_init(struct bench_rng *rng, uint64_t seed, uint64_t stream);
uint64_t bench_rng_next(struct bench_rng *rng);
/* A value in [0, n); n > 0. */
uint64_t bench_rng_below(struct bench_rng *rng, uint64_t n);
/* Shuffle n elements of `size` bytes each in place (Fisher-Yates). */
void bench_shuffle(struct bench_rng *rng, void *base, size_t n, size_t size);

/* Memory and files ---------------------------------------------------------*/

/* malloc/calloc that die on failure; bench_xalloc returns a 4 KiB-aligned
 * buffer. Release all with free(). */
void *bench_xmalloc(const struct bench_ctx *ctx, size_t n);
void *bench_xcalloc(const struct bench_ctx *ctx, size_t n, size_t size);
void *bench_xalloc(const struct bench_ctx *ctx, size_t n);

/* Collective: 1 if on every rank `path` exists with at least min_size
 * bytes. A rank with nothing to check passes path NULL. */
int bench_files_ready(const struct bench_ctx *ctx, const char *path,
                      uint64_t min_size);

/* Resolve --write/--read: neither given means both. */
void bench_resolve_ops(int *do_write, int *do_read);

#endif /* BENCH_COMMON_H */
