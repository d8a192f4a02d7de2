/*
 * src/batch_mpi/list.c - rank 0 builds the input list (it alone reads
 * stdin, which mpirun forwards to rank 0) and broadcasts it.
 *
 * Wire format: the item count, then the sizes (int64 each), then one
 * buffer of "path\0error\0" pairs (error "" when none).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_batch.h"

/* Rank 0: the list of o's PATHs. 0, -1 (printed), or -2 when -o or --db
 * is one of the logs (printed: a usage error). */
static int build(const struct ios_batch_opts *o, iosage_batch_list *list)
{
    for (int i = 0; i < o->n_paths; i++) {
        iosage_error err;
        if (iosage_batch_list_add(list, o->paths[i], stdin, &err) !=
            IOSAGE_OK) {
            char line[800];
            fprintf(stderr, "iosage-mpi: %s\n",
                    iosage_error_line(&err, line, sizeof line));
            return -1;
        }
    }
    if (ios_batch_refuse_clash("iosage-mpi", o, list) != 0)
        return -2;
    /* --db: only the logs the archive needs (rank 0 alone opens it) */
    return o->db ? ios_batch_archive_select(o, list) : 0;
}

/* Rank 0: the strings of list as one buffer; *len bytes. NULL on no memory. */
static char *pack(const iosage_batch_list *list, size_t *len)
{
    size_t n = 0;
    for (size_t i = 0; i < list->n; i++)
        n += strlen(list->items[i].path) + 1 +
             (list->items[i].error ? strlen(list->items[i].error) : 0) + 1;
    char *buf = malloc(n ? n : 1), *p = buf;
    for (size_t i = 0; buf && i < list->n; i++) {
        const char *e = list->items[i].error ? list->items[i].error : "";
        size_t a = strlen(list->items[i].path) + 1, b = strlen(e) + 1;
        memcpy(p, list->items[i].path, a);
        memcpy(p + a, e, b);
        p += a + b;
    }
    *len = n;
    return buf;
}

/* Other ranks: the list from the buffer and sizes. 0, or -1 on no memory. */
static int unpack(iosage_batch_list *list, const char *buf, size_t n,
                  const int64_t *sizes)
{
    const char *p = buf;
    for (size_t i = 0; i < n; i++) {
        const char *path = p, *e = p + strlen(p) + 1;
        p = e + strlen(e) + 1;
        if (iosage_batch_list_push(list, path, sizes[i], *e ? e : NULL,
                                   NULL) != IOSAGE_OK)
            return -1;
    }
    return 0;
}

/* Broadcast len bytes at buf from rank 0 in pieces MPI counts can hold. */
static void bcast_bytes(void *buf, size_t len)
{
    char *p = buf;
    while (len > 0) {
        int piece = len > (1u << 30) ? 1 << 30 : (int)len;
        MPI_Bcast(p, piece, MPI_BYTE, 0, MPI_COMM_WORLD);
        p += piece;
        len -= (size_t)piece;
    }
}

int mpi_share_list(const struct ios_batch_opts *o, iosage_batch_list *list,
                   int rank)
{
    /* header: ok flag, item count, buffer length */
    uint64_t head[3] = {0, 0, 0}; /* head[0]: 1 ok, 0 failed, 2 clash */
    char *buf = NULL;
    size_t len = 0;
    int built = rank == 0 ? build(o, list) : 0;
    if (built == -2)
        head[0] = 2;
    if (rank == 0 && built == 0) {
        buf = pack(list, &len);
        if (buf)
            head[0] = 1;
        else
            fputs("iosage-mpi: out of memory\n", stderr);
        head[1] = list->n;
        head[2] = len;
    }
    MPI_Bcast(head, 3, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (head[0] != 1) {
        free(buf);
        return head[0] == 2 ? -2 : -1;
    }
    size_t n = (size_t)head[1];
    len = (size_t)head[2];
    int64_t *sizes = malloc((n ? n : 1) * sizeof *sizes);
    if (rank != 0)
        buf = malloc(len ? len : 1);
    int ok = sizes && buf, all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (all_ok) {
        for (size_t i = 0; rank == 0 && i < n; i++)
            sizes[i] = list->items[i].size;
        bcast_bytes(sizes, n * sizeof *sizes);
        bcast_bytes(buf, len);
        if (rank != 0)
            ok = unpack(list, buf, n, sizes) == 0;
        MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    }
    if (!all_ok && ok)
        fprintf(stderr, "iosage-mpi: rank %d: out of memory for the list\n",
                rank);
    free(sizes);
    free(buf);
    return all_ok ? 0 : -1;
}
