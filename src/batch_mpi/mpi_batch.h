/*
 * src/batch_mpi/mpi_batch.h - the pieces of iosage-mpi, `iosage batch`
 * across the ranks of an MPI job.
 *
 * The run, top down (main.c):
 *   1. every rank parses the same options and loads the model;
 *   2. rank 0 builds the input list and broadcasts it (list.c);
 *   3. every rank computes the same schedule (largest log first) and takes
 *      the next position from a counter in rank 0's memory
 *      (MPI_Fetch_and_op on a one-sided window), so fast ranks take more
 *      logs; each row is kept as text, as step 5 says (work.c);
 *   4. each rank sorts its rows by input index; every rank but rank 0
 *      writes them to its part file in a directory rank 0 made (parts.c);
 *   5. rank 0 merges its own rows (still in memory) and the parts by input
 *      index into the output and removes the parts. The rows come from the
 *      same writer as in `iosage batch`, so the two outputs are
 *      byte-identical: each rank writes its rows in the output format
 *      itself, which rank 0 then only copies; with
 *      --summary or --db, which need every row whole at rank 0, the ranks
 *      keep their rows in the exact JSON form instead and rank 0 reads
 *      them back and writes them (that parsing took 60 of the 420 ms of a
 *      2-rank run on data/bench-runs, all of it at rank 0).
 */
#ifndef IOSAGE_BATCH_MPI_H
#define IOSAGE_BATCH_MPI_H

#include <stddef.h>

#include "batch_cli/frontend.h"
#include "iosage/batch.h"

/* One analysed log of this rank: its index, whether it is an error row,
 * and its text: the row in the output format (as iosage_batch_write_row
 * writes it, line end included), or its exact JSON line (without line end)
 * when rank 0 needs the rows whole (see mpi_rows_whole). */
struct mpi_row {
    size_t index;
    int error;
    char *text; /* malloc'd, NUL-terminated */
    size_t len;
};

struct mpi_rows {
    size_t n, cap;
    struct mpi_row *v;
};

/* Rank 0 builds the list from o's PATHs and every rank receives it in
 * list (empty on entry). Returns 0, or -1 on every rank when rank 0 could
 * not build it (rank 0 printed why), -2 when -o or --db is one of the logs
 * (a usage error, printed by rank 0). */
int mpi_share_list(const struct ios_batch_opts *o, iosage_batch_list *list,
                   int rank);

/* Does rank 0 need every row whole (--summary, --db), rather than its
 * output text? */
int mpi_rows_whole(const struct ios_batch_opts *o);

/* Analyse this rank's share of list (the shared counter decides which) into
 * rows (texts as mpi_rows_whole(o) says), adding stage times to times.
 * Returns 0, or -1 after a memory or model failure (printed; this rank
 * took no more logs after it). */
int mpi_work(const iosage_model *m, const iosage_batch_list *list, int rank,
             const struct ios_batch_opts *o, struct mpi_rows *rows,
             struct iosage_batch_times *times);

void mpi_rows_free(struct mpi_rows *rows);

/* Rank 0 creates a fresh directory for the parts under o's parts
 * directory and every rank gets its name in dir (size bytes); a run of one
 * rank has no parts and makes none (dir ""). Returns 0, or -1 on every
 * rank (rank 0 printed why). */
int mpi_parts_dir(const struct ios_batch_opts *o, int rank, int n_ranks,
                  char *dir, size_t size);

/* Sort rows by input index. */
void mpi_sort_rows(struct mpi_rows *rows);

/* Write rows (sorted) to dir/part-<rank>. 0, or -1 (printed). */
int mpi_write_part(const char *dir, int rank, const struct mpi_rows *rows);

/* Rank 0: merge its own rows (sorted) and the parts of ranks 1 to
 * n_ranks - 1 into w in input order, then remove the parts and dir.
 * whole: the rows hold exact JSON (written through w), else output text
 * (copied to w's stream). Returns 0, or -1 (printed). */
int mpi_merge_parts(const char *dir, int n_ranks,
                    const struct mpi_rows *own, int whole,
                    struct ios_batch_out *w);

/* Remove dir/part-* and dir (after a failure). */
void mpi_remove_parts(const char *dir, int n_ranks);

#endif
