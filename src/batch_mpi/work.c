/*
 * src/batch_mpi/work.c - the ranks share the logs dynamically: one counter
 * in rank 0's memory (an MPI one-sided window) gives out schedule
 * positions, largest log first; every rank, rank 0 included, takes the
 * next positions with MPI_Fetch_and_op, in groups scored by one model call
 * (IOSAGE_BATCH_GROUP), until the schedule is used up.
 *
 * On one node Open MPI serves the counter from shared memory; across nodes
 * a network without remote atomics needs rank 0 to enter MPI to answer,
 * which it does between its own logs.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi_batch.h"

void mpi_rows_free(struct mpi_rows *rows)
{
    for (size_t i = 0; i < rows->n; i++)
        free(rows->v[i].text);
    free(rows->v);
    memset(rows, 0, sizeof *rows);
}

int mpi_rows_whole(const struct ios_batch_opts *o)
{
    return o->summary || o->db;
}

/* Keep row: its output text in format, or its exact JSON line when whole.
 * 0, or -1 on no memory. */
static int keep(struct mpi_rows *rows, struct iosage_batch_row *row,
                int whole, int format)
{
    if (rows->n == rows->cap) {
        size_t cap = rows->cap ? rows->cap * 2 : 256;
        struct mpi_row *v = realloc(rows->v, cap * sizeof *v);
        if (!v)
            return -1;
        rows->v = v;
        rows->cap = cap;
    }
    char *text = NULL;
    size_t len = 0;
    if (whole) {
        text = iosage_batch_row_serialize(row);
        len = text ? strlen(text) : 0;
    } else if (iosage_batch_row_render(row, format) == 0) {
        text = row->text; /* ours now */
        len = row->text_len;
        row->text = NULL;
    }
    if (!text)
        return -1;
    rows->v[rows->n] = (struct mpi_row){row->index,
                                        row->status == IOSAGE_BATCH_ERROR,
                                        text, len};
    rows->n++;
    return 0;
}

/* Analyse the n items idx[] of list (one model call) into kept rows.
 * 0, or -1 (printed). */
static int do_group(const iosage_model *m, const iosage_batch_list *list,
                    const size_t *idx, size_t n,
                    const struct ios_batch_opts *o, struct mpi_rows *rows,
                    struct iosage_batch_times *times)
{
    struct iosage_batch_row group[IOSAGE_BATCH_GROUP];
    struct iosage_batch_row *ptr[IOSAGE_BATCH_GROUP];
    memset(group, 0, sizeof group);
    for (size_t j = 0; j < IOSAGE_BATCH_GROUP; j++)
        ptr[j] = &group[j];
    iosage_error err;
    int rc = 0;
    if (iosage_batch_analyze_many(m, list, idx, n, ptr, times, &err) !=
        IOSAGE_OK) {
        char line[800];
        fprintf(stderr, "iosage-mpi: %s\n",
                iosage_error_line(&err, line, sizeof line));
        rc = -1;
    }
    for (size_t j = 0; j < n; j++) {
        if (rc == 0 &&
            keep(rows, &group[j], mpi_rows_whole(o), o->format) != 0) {
            fputs("iosage-mpi: out of memory keeping rows\n", stderr);
            rc = -1;
        }
        iosage_batch_row_clear(&group[j]);
    }
    return rc;
}

/* The next schedule position from the shared counter. */
static long take(MPI_Win win)
{
    const long one = 1;
    long pos;
    MPI_Fetch_and_op(&one, &pos, MPI_LONG, 0, 0, MPI_SUM, win);
    MPI_Win_flush(0, win);
    return pos;
}

/* Take positions into a group as the threaded pool does (at most
 * IOSAGE_BATCH_GROUP logs and iosage_batch_group_bytes of files for the
 * ranks; a big log alone). Returns the group's size, 0 when the schedule
 * is used up; *last gets the last position taken (for the progress bar). */
static size_t take_group(MPI_Win win, const iosage_batch_list *list,
                         const size_t *order, const int64_t *tail,
                         int n_ranks, size_t *idx, long *last)
{
    size_t n = 0;
    int64_t bytes = 0, cap = 1;
    while (n < IOSAGE_BATCH_GROUP && bytes < cap) {
        long pos = take(win);
        if (pos < 0 || (size_t)pos >= list->n)
            break;
        if (n == 0)
            cap = iosage_batch_group_bytes(tail[pos], n_ranks);
        *last = pos;
        idx[n++] = order[pos];
        int64_t size = list->items[order[pos]].size;
        if (size > IOSAGE_BATCH_BIG_LOG)
            break; /* a big log ends the group */
        bytes += size > 0 ? size : 0;
    }
    return n;
}

int mpi_work(const iosage_model *m, const iosage_batch_list *list, int rank,
             const struct ios_batch_opts *o, struct mpi_rows *rows,
             struct iosage_batch_times *times)
{
    size_t *order = iosage_batch_schedule(list, 0, list->n);
    int64_t *tail = order ? iosage_batch_tail_bytes(list, order, list->n)
                          : NULL;
    int ok = tail != NULL, all_ok, n_ranks;
    MPI_Comm_size(MPI_COMM_WORLD, &n_ranks);
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok) {
        free(order);
        free(tail);
        fprintf(stderr, "iosage-mpi: rank %d: out of memory\n", rank);
        return -1;
    }
    long *counter;
    MPI_Win win;
    MPI_Win_allocate(rank == 0 ? (MPI_Aint)sizeof(long) : 0, sizeof(long),
                     MPI_INFO_NULL, MPI_COMM_WORLD, &counter, &win);
    if (rank == 0)
        *counter = 0;
    MPI_Barrier(MPI_COMM_WORLD); /* the counter is zero before anyone takes */
    struct ios_batch_progress bar = {.start = ios_batch_now()};
    int draw = rank == 0 && !o->quiet && isatty(STDERR_FILENO);
    double t_draw = 0;
    int rc = 0;
    MPI_Win_lock_all(0, win);
    size_t idx[IOSAGE_BATCH_GROUP], n;
    long last = 0;
    while (rc == 0 &&
           (n = take_group(win, list, order, tail, n_ranks, idx, &last)) > 0) {
        rc = do_group(m, list, idx, n, o, rows, times);
        if (draw && ios_batch_now() - t_draw >= 0.2) { /* logs handed out */
            t_draw = ios_batch_now();
            ios_batch_progress_draw(&bar, (size_t)last + 1, 0, list->n);
        }
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    if (draw)
        ios_batch_progress_end(&bar);
    free(order);
    free(tail);
    return rc;
}
