/*
 * src/batch_cli/options.c - the command line of `iosage batch` and
 * `iosage-mpi`: one parser and one help text for both.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontend.h"

/*
 * The workers of a batch (threads, or MPI ranks) are its parallelism and
 * each already asks XGBoost for one thread. Yet the OpenMP runtime still
 * made a team sized to the cores and its extra thread spun between the
 * short parallel regions: 10 to 15% of the CPU of `iosage batch -j 1`, and
 * with two ranks on two cores each rank's spinning thread took time from
 * the other rank (20 to 25% more CPU in all, measured with GNU time).
 */
void ios_batch_one_openmp_thread(void)
{
    setenv("OMP_NUM_THREADS", "1", 0);
}

void ios_batch_print_help(FILE *out, int mpi)
{
    if (mpi)
        fputs("Usage: mpirun -np N iosage-mpi [OPTIONS] PATH...\n"
              "       srun iosage-mpi [OPTIONS] PATH...\n", out);
    else
        fputs("Usage: iosage batch [OPTIONS] PATH...\n", out);
    fputs("\n"
          "Detect I/O bottleneck patterns in many Darshan logs: one row per\n"
          "log with the job id, exe, uid, nprocs, run time, I/O time share,\n"
          "bytes, every pattern's score and verdict, and the first evidence\n"
          "line of the top detected pattern. A log that cannot be read is a\n"
          "row with status \"error\" and the reason; the batch goes on.\n"
          "\n"
          "PATH is a log; a directory (searched recursively for *.darshan,\n"
          "*.darshan_partial and *.darshan.gz); a text file listing one log\n"
          "per line; or - for such a list on stdin. Rows come in input order\n"
          "(directory entries sorted by name), whatever the thread or rank\n"
          "count: the output is byte-identical.\n"
          "\n"
          "  -j, --jobs N       worker threads (default: ", out);
    fputs(mpi ? "1 per rank)\n" : "the online CPUs)\n", out);
    fputs("  -o, --output OUT   write rows to OUT (atomically: a temporary\n"
          "                     file renamed at the end); default stdout\n"
          "  --format F         jsonl or csv (default: csv when OUT ends in\n"
          "                     .csv, else jsonl)\n"
          "  --summary          print counts per pattern, the top jobs by I/O\n"
          "                     time lost to each pattern and per-executable\n"
          "                     figures on stdout (rows then go only to -o)\n"
          "  --model DIR        model bundle (default: the built-in one)\n"
          "  --profile          print the time spent reading, decoding,\n"
          "                     computing features and predicting on stderr\n"
          "  -q, --quiet        no progress bar (shown only on a terminal)\n"
          "  --db FILE          keep the rows in the archive database FILE\n"
          "                     (SQLite, created 0600): only logs that are new\n"
          "                     or changed since the last run are analysed;\n"
          "                     rows go to stdout only with -o (docs/archive.md)\n"
          "  --reanalyze        with --db: also analyse again the logs that\n"
          "                     another model bundle analysed\n",
          out);
    if (mpi)
        fputs("  --parts-dir DIR    where ranks write their parts (default: the\n"
              "                     directory of OUT, else the current one);\n"
              "                     must be visible to rank 0\n", out);
    fputs("  -h, --help         show this help\n"
          "\n"
          "Exit status: 0 every log was read, 2 usage error, 3 some logs could\n"
          "not be read (their rows say why; all rows are written), 4 internal\n"
          "error (no output file is left behind).\n", out);
}

/* A whole number in [lo, hi] from s into *v; -1 when s is not one. */
static int parse_count(const char *s, long lo, long hi, int *v)
{
    char *end;
    long n = strtol(s, &end, 10);
    if (end == s || *end || n < lo || n > hi)
        return -1;
    *v = (int)n;
    return 0;
}

/* 1 when s ends with suffix. */
static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Options that take a value: store it. Returns -1 with msg on a bad one. */
static int take_value(struct ios_batch_opts *o, const char *opt,
                      const char *val, int *format_set, char *msg,
                      size_t size)
{
    if (strcmp(opt, "-j") == 0 || strcmp(opt, "--jobs") == 0) {
        if (parse_count(val, 1, 4096, &o->threads) == 0)
            return 0;
        snprintf(msg, size, "batch: %s takes a number from 1 to 4096, got "
                 "'%s'", opt, val);
        return -1;
    }
    if (strcmp(opt, "--format") == 0) {
        *format_set = 1;
        if (strcmp(val, "jsonl") == 0 || strcmp(val, "csv") == 0) {
            o->format = val[0] == 'c' ? IOSAGE_BATCH_CSV : IOSAGE_BATCH_JSONL;
            return 0;
        }
        snprintf(msg, size, "batch: --format takes jsonl or csv, got '%s'",
                 val);
        return -1;
    }
    if (strcmp(opt, "-o") == 0 || strcmp(opt, "--output") == 0)
        o->out = val;
    else if (strcmp(opt, "--model") == 0)
        o->model_dir = val;
    else if (strcmp(opt, "--db") == 0)
        o->db = val;
    else
        o->parts_dir = val;
    return 0;
}

/* 1 when s is an option that takes a value (in this front end). */
static int takes_value(const char *s, int mpi)
{
    static const char *const with_value[] = {"-j", "--jobs", "-o", "--output",
                                             "--format", "--model", "--db"};
    for (size_t i = 0; i < sizeof with_value / sizeof with_value[0]; i++)
        if (strcmp(s, with_value[i]) == 0)
            return 1;
    return mpi && strcmp(s, "--parts-dir") == 0;
}

/* Flags without a value; 0 when s was one. */
static int take_flag(struct ios_batch_opts *o, const char *s)
{
    if (strcmp(s, "--summary") == 0)
        o->summary = 1;
    else if (strcmp(s, "-q") == 0 || strcmp(s, "--quiet") == 0)
        o->quiet = 1;
    else if (strcmp(s, "--profile") == 0)
        o->profile = 1;
    else if (strcmp(s, "--reanalyze") == 0)
        o->reanalyze = 1;
    else
        return -1;
    return 0;
}

int ios_batch_parse_opts(int argc, char **argv, int mpi,
                         struct ios_batch_opts *o, char *msg, size_t size)
{
    memset(o, 0, sizeof *o);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    o->threads = mpi ? 1 : cpus > 0 && cpus < 4096 ? (int)cpus : 1;
    int format_set = 0;
    char **dst = argv + 1;
    for (int i = 1; i < argc; i++) {
        char *s = argv[i];
        if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0)
            return IOS_BATCH_HELP;
        if (strncmp(s, "-j", 2) == 0 && s[2]) { /* -j4 */
            if (take_value(o, "-j", s + 2, &format_set, msg, size) != 0)
                return IOS_BATCH_BAD;
        } else if (takes_value(s, mpi)) {
            if (i + 1 >= argc) {
                snprintf(msg, size, "batch: %s needs a value", s);
                return IOS_BATCH_BAD;
            }
            if (take_value(o, s, argv[++i], &format_set, msg, size) != 0)
                return IOS_BATCH_BAD;
        } else if (s[0] == '-' && s[1]) {
            if (take_flag(o, s) != 0) {
                snprintf(msg, size, "batch: unknown option '%s'", s);
                return IOS_BATCH_BAD;
            }
        } else {
            *dst++ = s;
        }
    }
    o->paths = argv + 1;
    o->n_paths = (int)(dst - (argv + 1));
    if (!format_set && o->out && ends_with(o->out, ".csv"))
        o->format = IOSAGE_BATCH_CSV;
    if (o->reanalyze && !o->db) {
        snprintf(msg, size, "batch: --reanalyze needs --db");
        return IOS_BATCH_BAD;
    }
    if (o->n_paths == 0) {
        snprintf(msg, size, "batch: no PATH given");
        return IOS_BATCH_BAD;
    }
    return IOS_BATCH_RUN;
}
