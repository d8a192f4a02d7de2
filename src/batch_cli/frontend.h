/*
 * src/batch_cli/frontend.h - what the two batch front ends share: the
 * threaded `iosage batch` (src/cli/cmd_batch.c) and the MPI `iosage-mpi`
 * (src/batch_mpi). The same options, the same output file handling, the
 * same --profile text, so that both write byte-identical output.
 *
 * Not part of the library (which never prints): cmake/parts/batch.cmake
 * compiles these files into both programs.
 */
#ifndef IOSAGE_BATCH_FRONTEND_H
#define IOSAGE_BATCH_FRONTEND_H

#include <stddef.h>
#include <stdio.h>

#include "iosage/archive.h"
#include "iosage/batch.h"
#include "ios_outfile.h"

/* --- the command line ----------------------------------------------------- */

struct ios_batch_opts {
    int threads;          /* -j N (default: online CPUs) */
    const char *out;      /* -o OUT, or NULL for stdout */
    int format;           /* enum iosage_batch_format */
    int summary;          /* --summary */
    int quiet;            /* --quiet: no progress bar */
    int profile;          /* --profile: time per stage on stderr */
    const char *model_dir;/* --model DIR, or NULL for the embedded bundle */
    const char *parts_dir;/* --parts-dir DIR (MPI only), or NULL */
    const char *db;       /* --db FILE: the archive database, or NULL */
    int reanalyze;        /* --reanalyze: logs of another model bundle too */
    int n_paths;
    char **paths;         /* the PATH arguments (pointers into argv) */
};

enum ios_batch_parse {
    IOS_BATCH_RUN = 0,    /* options parsed: run */
    IOS_BATCH_HELP = 1,   /* --help was given */
    IOS_BATCH_BAD = 2     /* usage error: msg says what */
};

/* Parse argv[1..argc) (argv[0] is the command name). mpi selects the
 * MPI front end's defaults (-j 1, --parts-dir allowed). Returns an enum
 * ios_batch_parse; on IOS_BATCH_BAD msg holds one line. PATH pointers are
 * collected in place at the front of argv. */
int ios_batch_parse_opts(int argc, char **argv, int mpi,
                         struct ios_batch_opts *o, char *msg, size_t size);

/* The --help text of `iosage batch` (mpi = 0) or `iosage-mpi` (mpi = 1). */
void ios_batch_print_help(FILE *out, int mpi);

/* Give XGBoost one OpenMP thread per process (OMP_NUM_THREADS=1 unless the
 * user set it). Call before the model is opened: libgomp reads the variable
 * once, when libxgboost is loaded on first use. */
void ios_batch_one_openmp_thread(void);

/* Keep freed memory in the process for the next logs (glibc's mallopt;
 * nothing elsewhere): see options.c for the page faults it saves. */
void ios_batch_reuse_freed_memory(void);

/* --- the output file ------------------------------------------------------ */

/* Where rows go: -o OUT written to a temporary file beside it and renamed
 * when the batch ends well; stdout otherwise (or nowhere, with --summary
 * or --db and no -o). The summary is kept when --summary is given; with
 * --db every row also goes to the archive. */
struct ios_batch_out {
    FILE *f;              /* rows, or NULL when rows are not written */
    struct ios_outfile file; /* -o OUT (file.f is NULL for stdout) */
    const char *final;    /* -o OUT */
    int format;
    iosage_batch_summary *summary; /* NULL without --summary */
    size_t rows, errors;  /* rows written, error rows among them */
    iosage_archive *archive; /* --db: every row also goes here, or NULL */
    char bundle[17];      /* the model bundle's hash (with --db) */
};

/* No output over an input (src/common/outpath.c): without list, -o OUT
 * against --db and both against the PATH operands; with list, both against
 * every listed log. One line on stderr (prog: "iosage" or "iosage-mpi")
 * and -1 on a clash (exit 2), else 0. Called before any log is read. */
int ios_batch_refuse_clash(const char *prog, const struct ios_batch_opts *o,
                           const iosage_batch_list *list);

/* Open the output for o. Prints one line on stderr and returns -1 on
 * failure (nothing is left behind). */
int ios_batch_out_open(struct ios_batch_out *w, const struct ios_batch_opts *o);

/* Write one row (its text when a worker already rendered it in w's format,
 * see iosage_batch_row_render) and count it in the summary. -1 on a write
 * or memory failure (one line on stderr). */
int ios_batch_out_row(struct ios_batch_out *w,
                      const struct iosage_batch_row *row);

/* Finish: with ok, flush, rename the temporary file to OUT and print the
 * summary on stdout; without, remove the temporary file. Returns 0, -1 when
 * finishing failed (one line on stderr; no OUT then). */
int ios_batch_out_close(struct ios_batch_out *w, int ok);

/* Print the stage times of --profile on stderr (wall: the batch's wall
 * seconds; n_workers: threads or ranks). */
void ios_batch_print_profile(const struct iosage_batch_times *t, double wall,
                             size_t n_logs, int n_workers);

/* --- the archive database (--db, src/batch_cli/archive.c) ---------------- */

/* The hash of the model bundle as 16 hex digits into hex: FNV-1a over the
 * names and bytes of the files of dir (sorted by name), or of the embedded
 * bundle when dir is NULL. -1 (printed) when dir cannot be read. */
int ios_batch_bundle_hash(const char *dir, char hex[17]);

/* With --db: keep in *list only the logs the archive needs analysed
 * (iosage_archive_select) and say on stderr how many were skipped (unless
 * --quiet). 0, or -1 (printed). */
int ios_batch_archive_select(const struct ios_batch_opts *o,
                             iosage_batch_list *list);

/* Open o's archive for writing into w (ios_batch_out_open calls this). */
int ios_batch_archive_open(struct ios_batch_out *w,
                           const struct ios_batch_opts *o);

/* Store one row (ios_batch_out_row calls this). -1 (printed) on failure. */
int ios_batch_archive_row(struct ios_batch_out *w,
                          const struct iosage_batch_row *row);

/* Commit and close w's archive (what was added is kept even when the batch
 * failed: each row is whole). -1 (printed) when the commit failed. */
int ios_batch_archive_close(struct ios_batch_out *w);

/* --- the progress bar ------------------------------------------------------ */

struct ios_batch_progress {
    double start;         /* monotonic seconds at the start */
    int shown;            /* a line was drawn (erase it at the end) */
};

/* An iosage_batch_progress_cb drawing one line on stderr:
 *   [########----------]  4210/9000 logs  1210 logs/s  3 errors  ETA 0:04
 * ctx is a struct ios_batch_progress. Call only when stderr is a TTY. */
void ios_batch_progress_draw(void *ctx, size_t done, size_t errors,
                             size_t total);

/* Erase the bar (when one was drawn). */
void ios_batch_progress_end(struct ios_batch_progress *p);

/* Monotonic seconds. */
double ios_batch_now(void);

#endif
