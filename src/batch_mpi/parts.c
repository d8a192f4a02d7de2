/*
 * src/batch_mpi/parts.c - each rank but rank 0 writes its rows, sorted by
 * input index, to DIR/part-<rank>; rank 0 merges its own rows, which it
 * still holds, and the parts by index into the output and removes them.
 * (Rank 0 writing and reading back a part of its own cost a file
 * creation, a removal and a copy of a share of the rows, all while the
 * other ranks wait: a run of one rank has no part at all.)
 *
 * A row in a part is a line "INDEX ERROR LENGTH" and then its text of
 * LENGTH bytes and a newline: the text is output (a CSV row may hold line
 * ends of its own) or an exact JSON row (mpi_batch.h says which).
 *
 * DIR is a fresh directory .iosage-mpi.XXXXXX that rank 0 makes under the
 * parts directory (--parts-dir, else the directory of -o OUT, else the
 * current directory): on a cluster it must be on a file system every rank
 * sees. Memory: each rank holds its own rows until it writes its part; the
 * merge holds rank 0's rows and one row per part.
 */
#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi_batch.h"

#define DIR_MAX 4096

/* The parts directory of o: --parts-dir, the directory of -o, or ".". */
static void parent_dir(const struct ios_batch_opts *o, char *out, size_t size)
{
    if (o->parts_dir) {
        snprintf(out, size, "%s", o->parts_dir);
        return;
    }
    const char *slash = o->out ? strrchr(o->out, '/') : NULL;
    if (!slash)
        snprintf(out, size, ".");
    else if (slash == o->out)
        snprintf(out, size, "/");
    else
        snprintf(out, size, "%.*s", (int)(slash - o->out), o->out);
}

int mpi_parts_dir(const struct ios_batch_opts *o, int rank, int n_ranks,
                  char *dir, size_t size)
{
    if (n_ranks == 1) { /* rank 0's rows stay in memory: no parts */
        if (size > 0)
            dir[0] = '\0';
        return size > 0 ? 0 : -1;
    }
    char buf[DIR_MAX];
    memset(buf, 0, sizeof buf);
    if (rank == 0) {
        char parent[DIR_MAX - 32];
        parent_dir(o, parent, sizeof parent);
        snprintf(buf, sizeof buf, "%s/.iosage-mpi.XXXXXX", parent);
        if (!mkdtemp(buf)) {
            fprintf(stderr, "iosage-mpi: cannot make a directory for the "
                    "parts in %s: %s (try --parts-dir)\n", parent,
                    strerror(errno));
            buf[0] = '\0';
        }
    }
    MPI_Bcast(buf, DIR_MAX, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (!buf[0] || strlen(buf) >= size)
        return -1;
    snprintf(dir, size, "%s", buf);
    return 0;
}

static int by_index(const void *a, const void *b)
{
    size_t i = ((const struct mpi_row *)a)->index;
    size_t j = ((const struct mpi_row *)b)->index;
    return i < j ? -1 : i > j;
}

/* dir/part-<rank> into path. */
static void part_path(const char *dir, int rank, char *path, size_t size)
{
    snprintf(path, size, "%s/part-%d", dir, rank);
}

void mpi_sort_rows(struct mpi_rows *rows)
{
    if (rows->n > 1) /* a rank may have no rows at all */
        qsort(rows->v, rows->n, sizeof *rows->v, by_index);
}

int mpi_write_part(const char *dir, int rank, const struct mpi_rows *rows)
{
    char path[DIR_MAX + 32];
    part_path(dir, rank, path, sizeof path);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "iosage-mpi: %s: cannot create: %s\n", path,
                strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < rows->n; i++) {
        const struct mpi_row *r = &rows->v[i];
        fprintf(f, "%zu %d %zu\n", r->index, r->error, r->len);
        fwrite(r->text, 1, r->len, f);
        putc('\n', f);
    }
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad)
        fprintf(stderr, "iosage-mpi: %s: write failed\n", path);
    return bad ? -1 : 0;
}

void mpi_remove_parts(const char *dir, int n_ranks)
{
    if (!dir[0]) /* one rank: no parts */
        return;
    char path[DIR_MAX + 32];
    for (int r = 1; r < n_ranks; r++) {
        part_path(dir, r, path, sizeof path);
        unlink(path);
    }
    rmdir(dir);
}

/* One source being merged, rank 0's rows in memory or a part file, and
 * its current row. */
struct part {
    const struct mpi_rows *own; /* rank 0's rows, or NULL for a file */
    size_t next;                /* own: the row after the current one */
    FILE *f;
    int live;         /* the fields below hold the next row of the part */
    size_t index;
    int error;
    const char *text; /* NUL-terminated, len bytes: in own or in buf */
    size_t len;
    char *buf;        /* a file's row, malloc'd; cap bytes */
    size_t cap;
};

/* Read the next row of part p (file name). 0, or -1 (printed). */
static int advance(struct part *p, const char *name)
{
    p->live = 0;
    if (p->own) {
        if (p->next < p->own->n) {
            const struct mpi_row *r = &p->own->v[p->next++];
            p->index = r->index;
            p->error = r->error;
            p->text = r->text;
            p->len = r->len;
            p->live = 1;
        }
        return 0;
    }
    int error;
    size_t index, len;
    int got = fscanf(p->f, "%zu %d %zu", &index, &error, &len);
    if (got == EOF && !ferror(p->f))
        return 0;
    if (got != 3 || getc(p->f) != '\n' || len > ((size_t)1 << 30)) {
        fprintf(stderr, "iosage-mpi: %s: not a part written by a rank\n",
                name);
        return -1;
    }
    if (len + 1 > p->cap) {
        char *t = realloc(p->buf, len + 1);
        if (!t) {
            fputs("iosage-mpi: out of memory merging the parts\n", stderr);
            return -1;
        }
        p->buf = t;
        p->cap = len + 1;
    }
    if (fread(p->buf, 1, len, p->f) != len || getc(p->f) != '\n') {
        fprintf(stderr, "iosage-mpi: %s: part ends inside a row\n", name);
        return -1;
    }
    p->buf[len] = '\0';
    p->text = p->buf;
    p->index = index;
    p->error = error;
    p->len = len;
    p->live = 1;
    return 0;
}

/* The part whose current row has the lowest index, or -1 when all are done. */
static int lowest(const struct part *parts, int n)
{
    int best = -1;
    for (int r = 0; r < n; r++)
        if (parts[r].live &&
            (best < 0 || parts[r].index < parts[best].index))
            best = r;
    return best;
}

/* Write part p's current row to w: its text as it is, or, when whole, the
 * row read back from its exact JSON. 0, or -1 (printed). */
static int emit(const struct part *p, const char *name, int whole,
                struct ios_batch_out *w)
{
    struct iosage_batch_row row;
    memset(&row, 0, sizeof row); /* parsing clears what the row held */
    if (!whole) { /* the text, and the status the writer counts */
        row.status = p->error ? IOSAGE_BATCH_ERROR : IOSAGE_BATCH_OK;
        row.text = (char *)p->text; /* only read: the row is not cleared */
        row.text_len = p->len;
        return ios_batch_out_row(w, &row);
    }
    iosage_error err;
    if (iosage_batch_row_parse(p->text, &row, &err) != IOSAGE_OK) {
        fprintf(stderr, "iosage-mpi: %s: %s\n", name, err.msg);
        return -1;
    }
    int rc = ios_batch_out_row(w, &row);
    iosage_batch_row_clear(&row);
    return rc;
}

/* The name of merge source r in messages: rank 0's rows, or a part file. */
static void source_name(const char *dir, int r, char *name, size_t size)
{
    if (r == 0)
        snprintf(name, size, "rank 0's rows");
    else
        part_path(dir, r, name, size);
}

/* Merge the opened parts into w. 0, or -1 (printed). */
static int merge(struct part *parts, int n, const char *dir, int whole,
                 struct ios_batch_out *w)
{
    char name[DIR_MAX + 32];
    int rc = 0;
    for (int r = 0; rc == 0 && r < n; r++) {
        source_name(dir, r, name, sizeof name);
        rc = advance(&parts[r], name);
    }
    int r;
    while (rc == 0 && (r = lowest(parts, n)) >= 0) {
        source_name(dir, r, name, sizeof name);
        rc = emit(&parts[r], name, whole, w);
        if (rc == 0)
            rc = advance(&parts[r], name);
    }
    return rc;
}

int mpi_merge_parts(const char *dir, int n_ranks,
                    const struct mpi_rows *own, int whole,
                    struct ios_batch_out *w)
{
    struct part *parts = calloc((size_t)n_ranks, sizeof *parts);
    if (!parts) {
        fputs("iosage-mpi: out of memory\n", stderr);
        mpi_remove_parts(dir, n_ranks);
        return -1;
    }
    parts[0].own = own;
    int rc = 0;
    for (int r = 1; rc == 0 && r < n_ranks; r++) {
        char path[DIR_MAX + 32];
        part_path(dir, r, path, sizeof path);
        if (!(parts[r].f = fopen(path, "r"))) {
            fprintf(stderr, "iosage-mpi: %s: cannot open: %s (is the parts "
                    "directory shared by all nodes?)\n", path,
                    strerror(errno));
            rc = -1;
        }
    }
    if (rc == 0)
        rc = merge(parts, n_ranks, dir, whole, w);
    for (int r = 0; r < n_ranks; r++) {
        if (parts[r].f)
            fclose(parts[r].f);
        free(parts[r].buf);
    }
    free(parts);
    mpi_remove_parts(dir, n_ranks);
    return rc;
}
