/*
 * src/batch_cli/options.c - the command line of `iosage batch` and
 * `iosage-mpi`: one parser and one help text for both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "frontend.h"
#include "ios_args.h"

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

/*
 * A batch frees each group of logs and then allocates the same kinds of
 * buffers (stored file, inflated regions, records, file table) for the
 * next. glibc gave the larger ones back to the kernel in between (its
 * mmap threshold starts at 128 KiB, and the top of the heap is trimmed
 * beyond twice that), so every log touched fresh pages: a page fault each,
 * 19 a log on data/bench-runs and a fifth of the CPU time. With blocks up
 * to 32 MiB served from the heap and up to 64 MiB of freed heap kept, the
 * pages are reused: 33.7 k -> 6.6 k page faults over the 1,782 logs,
 * measured with the 4 MiB groups of IOSAGE_BATCH_GROUP_MEMORY. The peak
 * stays what the largest group needs.
 */
void ios_batch_reuse_freed_memory(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
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

enum {
    OPT_JOBS = 1, OPT_OUTPUT, OPT_FORMAT, OPT_MODEL, OPT_DB, OPT_PARTS_DIR,
    OPT_SUMMARY, OPT_QUIET, OPT_PROFILE, OPT_REANALYZE
};

/* The options of both front ends; --parts-dir is iosage-mpi's alone
 * (unknown to `iosage batch`). */
static const struct ios_option batch_options[] = {
    {"--jobs", "-j", 1, OPT_JOBS},       {"--output", "-o", 1, OPT_OUTPUT},
    {"--format", NULL, 1, OPT_FORMAT},   {"--model", NULL, 1, OPT_MODEL},
    {"--db", NULL, 1, OPT_DB},           {"--summary", NULL, 0, OPT_SUMMARY},
    {"--quiet", "-q", 0, OPT_QUIET},     {"--profile", NULL, 0, OPT_PROFILE},
    {"--reanalyze", NULL, 0, OPT_REANALYZE},
    {"--parts-dir", NULL, 1, OPT_PARTS_DIR},
    {0}};

/* One option into o; -1 with msg on a bad value. */
static int take_option(struct ios_batch_opts *o, int id, const char *val,
                       int *format_set, char *msg, size_t size)
{
    switch (id) {
    case OPT_JOBS:
        if (parse_count(val, 1, 4096, &o->threads) == 0)
            return 0;
        snprintf(msg, size, "batch: -j/--jobs takes a number from 1 to 4096, "
                 "got '%s'", val);
        return -1;
    case OPT_FORMAT:
        *format_set = 1;
        if (strcmp(val, "jsonl") == 0 || strcmp(val, "csv") == 0) {
            o->format = val[0] == 'c' ? IOSAGE_BATCH_CSV : IOSAGE_BATCH_JSONL;
            return 0;
        }
        snprintf(msg, size, "batch: --format takes jsonl or csv, got '%s'",
                 val);
        return -1;
    case OPT_OUTPUT: o->out = val; break;
    case OPT_MODEL: o->model_dir = val; break;
    case OPT_DB: o->db = val; break;
    case OPT_PARTS_DIR: o->parts_dir = val; break;
    case OPT_SUMMARY: o->summary = 1; break;
    case OPT_QUIET: o->quiet = 1; break;
    case OPT_PROFILE: o->profile = 1; break;
    case OPT_REANALYZE: o->reanalyze = 1; break;
    }
    return 0;
}

int ios_batch_parse_opts(int argc, char **argv, int mpi,
                         struct ios_batch_opts *o, char *msg, size_t size)
{
    memset(o, 0, sizeof *o);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    o->threads = mpi ? 1 : cpus > 0 && cpus < 4096 ? (int)cpus : 1;
    int format_set = 0, id;
    char **dst = argv + 1;
    struct ios_args it;
    ios_args_init(&it, argc, argv, batch_options);
    while ((id = ios_args_next(&it)) != IOS_ARG_END) {
        if (id == IOS_ARG_HELP)
            return IOS_BATCH_HELP;
        if (id == OPT_PARTS_DIR && !mpi) {
            id = IOS_ARG_BAD;
            snprintf(it.msg, sizeof it.msg, "unknown option '%s'", it.arg);
        }
        if (id == IOS_ARG_BAD) {
            snprintf(msg, size, "batch: %s", it.msg);
            return IOS_BATCH_BAD;
        }
        if (id == IOS_ARG_OPERAND)
            *dst++ = (char *)it.value;
        else if (take_option(o, id, it.value, &format_set, msg, size) != 0)
            return IOS_BATCH_BAD;
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
