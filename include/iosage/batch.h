/*
 * iosage/batch.h - detection over many logs: one row per log.
 *
 * A batch is three steps, each usable alone:
 *   1. the input list (iosage_batch_list_add): logs, directories searched
 *      recursively for Darshan logs, and files listing logs, in a fixed
 *      order (the output order);
 *   2. one row per log (iosage_batch_analyze): job facts, the I/O time
 *      share, every pattern's score and verdict, and the first evidence line
 *      of the top-scoring detected pattern; a log that cannot be read gives
 *      a row with its error, never a failed call;
 *   3. output (iosage_batch_write_row, CSV or JSON lines) and a summary
 *      (iosage_batch_summary_*: counts per pattern, the jobs that lose the
 *      most I/O time to each pattern, per-executable aggregates).
 * iosage_batch_run() runs step 2 on a pool of threads, largest log first,
 * and hands the rows back in input order, whatever the thread count.
 *
 * Output order. Rows come in input order: the PATH arguments as given; in a
 * directory, its entries sorted by name (byte order), each subdirectory in
 * place; in a list file, its lines in order. So the output is byte-identical
 * for any thread count and for the MPI front end (iosage-mpi).
 *
 * "I/O time lost to a pattern" (summary): the job's I/O time (seconds
 * summed over ranks, LABELING.md) when the pattern is detected, else 0. A
 * job with two patterns counts its whole I/O time for each: an upper bound.
 *
 * Ownership: lists, rows and summaries are owned by the caller and released
 * with their free/clear function (which accept NULL or a zeroed struct).
 * Rows and summaries write only to the FILE the caller passes.
 */
#ifndef IOSAGE_BATCH_H
#define IOSAGE_BATCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "iosage/error.h"
#include "iosage/model.h"
#include "iosage/patterns.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- 1. inputs ------------------------------------------------------------ */

struct iosage_batch_item {
    char *path;    /* as given, or directory + "/" + name */
    int64_t size;  /* bytes on disk, -1 when stat failed */
    char *error;   /* found while listing (unreadable directory or list),
                      or NULL */
    int identified;    /* 1 when dev and ino below come from the listing's
                          stat; 0 when not known (pushed with a size only) */
    uint64_t dev, ino; /* the file's device and inode, when identified: an
                          output is checked against the inputs without
                          a second stat of each */
};

typedef struct iosage_batch_list {
    size_t n, cap;
    struct iosage_batch_item *items; /* in output order */
} iosage_batch_list;

/* Add one PATH argument to list:
 *   "-"          lines of in (one path per line, empty lines skipped);
 *   a directory  every file below it whose name ends in ".darshan",
 *                ".darshan_partial" or ".darshan.gz", entries sorted by name;
 *   a list file  a regular file of text (no NUL byte in its first 4 KiB)
 *                whose first non-empty line names an existing file: its
 *                lines, one path each;
 *   anything else  a log (a missing file too: its row will say so).
 * A directory or list that cannot be read becomes an item with error set.
 * Fails only with IOSAGE_E_NOMEM. */
IOSAGE_API iosage_status iosage_batch_list_add(iosage_batch_list *list,
                                               const char *arg, FILE *in,
                                               iosage_error *err);

/* Append one item (path and error are copied; error may be NULL). */
IOSAGE_API iosage_status iosage_batch_list_push(iosage_batch_list *list,
                                                const char *path, int64_t size,
                                                const char *error,
                                                iosage_error *err);

IOSAGE_API void iosage_batch_list_free(iosage_batch_list *list);

/* The indices first .. first+count-1 of list in processing order: largest
 * size first, ties in input order. Returns a malloc'd array (free()), NULL
 * when out of memory. */
IOSAGE_API size_t *iosage_batch_schedule(const iosage_batch_list *list,
                                         size_t first, size_t count);

/* The files still to come from each schedule position on: tail[k] is the
 * sum of the sizes of list items order[k .. count) (a size below 0 counts
 * as 0), tail[count] = 0. Returns a malloc'd array of count + 1 entries
 * (free()), NULL when out of memory. */
IOSAGE_API int64_t *iosage_batch_tail_bytes(const iosage_batch_list *list,
                                            const size_t *order, size_t count);

/* How many bytes of files a group may take when its first log is at a
 * schedule position with tail bytes still to come, shared by workers
 * workers: a 2 * workers-th of the tail, at most IOSAGE_BATCH_GROUP_BYTES,
 * at least 1 (a group always takes its first log). The groups shrink as
 * the schedule runs out, so the workers finish together: with groups of a
 * fixed size the 96 shared logs made three groups, and two workers
 * finished 50 ms apart. */
IOSAGE_API int64_t iosage_batch_group_bytes(int64_t tail, int workers);

/* --- 2. rows -------------------------------------------------------------- */

enum iosage_batch_status {
    IOSAGE_BATCH_OK = 0,      /* read completely */
    IOSAGE_BATCH_PARTIAL = 1, /* a module region was damaged (what came
                                 before the damage was used), or records
                                 no runtime writes were left out (see
                                 iosage_file_table_impossible_line); error
                                 says what */
    IOSAGE_BATCH_ERROR = 2    /* not read: error says why, no other field */
};

struct iosage_batch_row {
    size_t index;           /* position in the input list */
    char *file;             /* the path as listed */
    int status;             /* enum iosage_batch_status */
    char *error;            /* one line, or NULL when status is OK */
    int64_t job_id, uid, nprocs;
    char *exe;              /* command line from the log ("" if none) */
    double run_time;        /* seconds */
    double io_time;         /* seconds summed over ranks (LABELING.md) */
    double io_time_share;   /* slowest rank's I/O time / run time */
    int64_t bytes_read, bytes_written;
    int healthy;            /* 1: no pattern detected */
    double gate_score;      /* the gate's probability of "some pattern" */
    int n_patterns;         /* registry order */
    double score[IOSAGE_MAX_PATTERNS];
    int detected[IOSAGE_MAX_PATTERNS];
    int top_pattern;        /* highest-scoring detected pattern, or -1 */
    char *evidence;         /* its first evidence line, or NULL */
    char best_change[48];   /* the change of a detected pattern with the
                               largest predicted saving (docs/savings.md),
                               or "" */
    double best_saving;     /* its share of the I/O time, NaN without */
    double best_saving_s;   /* the same in seconds of the slowest rank */
    double saving[IOSAGE_MAX_PATTERNS]; /* per detected pattern: the share
                               of the I/O time its best change is predicted
                               to save, NaN without a model (the archive's
                               changes) */
    int criteria_only[IOSAGE_MAX_PATTERNS]; /* 1: the written criteria
                               (LABELING.md, iosage/label.h) find the
                               pattern in the log, and the models do not
                               report it (no floor took it back): the
                               report's "check it by hand" warning */
    char *text;             /* the row already written out in some format
                               (iosage_batch_row_render), or NULL */
    size_t text_len;
};

/* Seconds spent per stage, summed (iosage batch --profile). */
struct iosage_batch_times {
    double read;      /* reading the file into memory */
    double decode;    /* decompression and record decoding */
    double features;  /* per-file table, feature vector, evidence line */
    double predict;   /* the gate and pattern models */
    size_t logs;      /* logs analysed */
};

/* Logs whose file is larger than this are analysed one at a time by
 * iosage_batch_run, so that memory holds at most one of them. */
#define IOSAGE_BATCH_BIG_LOG (64LL << 20)

/* Fill row for the log at path (index and path copied in). Never fails for
 * a bad log: row->status says what happened. Returns IOSAGE_OK, or
 * IOSAGE_E_NOMEM / IOSAGE_E_INTERNAL (a model failure) with err filled and
 * the row an error row. times may be NULL; it is added to. */
IOSAGE_API iosage_status iosage_batch_analyze(const iosage_model *m,
                                              const char *path, size_t index,
                                              struct iosage_batch_row *row,
                                              struct iosage_batch_times *times,
                                              iosage_error *err);

/* Logs scored by one model call in iosage_batch_run and iosage-mpi: one
 * XGBoost call costs about as much for 32 rows as for one (measured: 380
 * us of CPU for one row, 14-24 us per row in calls of 64). A group also
 * stops growing at IOSAGE_BATCH_GROUP_BYTES of files; and
 * iosage_batch_analyze_many scores what it holds as soon as the decoded
 * logs reach IOSAGE_BATCH_GROUP_MEMORY, so that memory stays bounded.
 * 4 MiB still lets 32 logs of 128 KiB decoded share a call; at 32 MiB the
 * pages a group touched were mostly fresh ones (page faults: 14.3 k -> 8.1 k
 * on the shared real logs, peak RSS 61 -> 41 MiB with
 * ios_batch_reuse_freed_memory). */
#define IOSAGE_BATCH_GROUP 32
#define IOSAGE_BATCH_GROUP_BYTES (32LL << 20)
#define IOSAGE_BATCH_GROUP_MEMORY (4ULL << 20)

/* The same for the n logs idx[0..n) of list, into *rows[0..n): the logs
 * are read and their features computed until all are, or the decoded ones
 * reach IOSAGE_BATCH_GROUP_MEMORY bytes; the models score those in one
 * call, each row gets its verdicts and evidence, the logs are freed, and
 * so on. An item with a listing error becomes an error row. Returns as
 * iosage_batch_analyze (rows are then incomplete). */
IOSAGE_API iosage_status iosage_batch_analyze_many(
    const iosage_model *m, const iosage_batch_list *list, const size_t *idx,
    size_t n, struct iosage_batch_row *const *rows,
    struct iosage_batch_times *times, iosage_error *err);

/* An error row for path with message msg (both copied). */
IOSAGE_API iosage_status iosage_batch_row_error(struct iosage_batch_row *row,
                                                const char *path, size_t index,
                                                const char *msg);

/* Free the row's strings and zero it. */
IOSAGE_API void iosage_batch_row_clear(struct iosage_batch_row *row);

/* --- 3. output ------------------------------------------------------------ */

enum iosage_batch_format {
    IOSAGE_BATCH_JSONL = 0,
    IOSAGE_BATCH_CSV = 1
};

/* The CSV header line (with newline) for n_patterns patterns. */
IOSAGE_API int iosage_batch_write_header(FILE *out, int format);

/* One row as a CSV line (RFC 4180 quoting) or a compact JSON object, with
 * a newline. Reals have 6 significant digits. Returns 0, or -1 when out of
 * memory or on a write error (ferror(out)). */
IOSAGE_API int iosage_batch_write_row(FILE *out, int format,
                                      const struct iosage_batch_row *row);

/* Write the row in format into row->text (text_len bytes, the same bytes
 * iosage_batch_write_row would write), so that formatting can happen on
 * the thread or process that made the row. Returns 0, or -1 when out of
 * memory (row->text stays NULL). */
IOSAGE_API int iosage_batch_row_render(struct iosage_batch_row *row,
                                       int format);

/* The row as one exact JSON line without newline (reals round-trip), for
 * passing rows between processes; malloc'd, NULL when out of memory. */
IOSAGE_API char *iosage_batch_row_serialize(const struct iosage_batch_row *row);

/* Parse a serialized row into row (cleared first). Returns IOSAGE_OK, or
 * IOSAGE_E_CORRUPT / IOSAGE_E_NOMEM with err filled. */
IOSAGE_API iosage_status iosage_batch_row_parse(const char *text,
                                                struct iosage_batch_row *row,
                                                iosage_error *err);

typedef struct iosage_batch_summary iosage_batch_summary;

/* A new empty summary, NULL when out of memory. */
IOSAGE_API iosage_batch_summary *iosage_batch_summary_new(void);

/* Count one row. Returns 0, -1 when out of memory. */
IOSAGE_API int iosage_batch_summary_add(iosage_batch_summary *s,
                                        const struct iosage_batch_row *row);

/* Print the summary as text: counts per pattern, the top jobs by I/O time
 * lost to each pattern, and per-executable aggregates. */
IOSAGE_API void iosage_batch_summary_print(const iosage_batch_summary *s,
                                           FILE *out);

IOSAGE_API void iosage_batch_summary_free(iosage_batch_summary *s);

/* --- the thread pool ------------------------------------------------------ */

/* Called for each row in input order, from the calling thread. The row is
 * cleared after the call. Returns 0 to go on, nonzero to stop the batch. */
typedef int (*iosage_batch_row_cb)(void *ctx,
                                   const struct iosage_batch_row *row);

/* Called about 5 times a second from a pool thread with logs done, errors
 * so far and the total; may be NULL. */
typedef void (*iosage_batch_progress_cb)(void *ctx, size_t done,
                                         size_t errors, size_t total);

struct iosage_batch_run_params {
    int threads;                /* worker threads (>= 1) */
    size_t window;              /* logs held at once (0: 65536) */
    iosage_batch_row_cb on_row;
    void *row_ctx;
    iosage_batch_progress_cb on_progress;
    void *progress_ctx;
    struct iosage_batch_times *times; /* summed over threads, or NULL */
    /* render: each worker renders its rows in render_format
     * (iosage_batch_row_render) as soon as they are made, so that on_row,
     * which runs on one thread, need only copy row->text. */
    int render;
    int render_format;
};

/* Analyse every log of list with model m. The list is cut into windows of
 * `window` logs in input order; inside a window the threads take logs
 * largest first, in groups of up to IOSAGE_BATCH_GROUP scored by one model
 * call, and the window's rows are handed to on_row in input order before
 * the next window starts, so memory holds one window of rows. A thread that
 * cannot be started leaves the work to the others. Returns IOSAGE_OK,
 * IOSAGE_E_NOMEM, IOSAGE_E_INTERNAL (a model failure) or IOSAGE_E_USAGE (bad
 * parameters, or on_row asked to stop). */
IOSAGE_API iosage_status iosage_batch_run(const iosage_model *m,
                                          const iosage_batch_list *list,
                                          const struct iosage_batch_run_params *p,
                                          iosage_error *err);

#ifdef __cplusplus
}
#endif
#endif
