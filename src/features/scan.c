/*
 * src/features/scan.c - the per-file tests of LABELING.md, run over the data
 * files of a finished table. Features use their time shares, rules their
 * counts and times, evidence their top rows; one implementation keeps the
 * three in agreement.
 *
 * "Time" is the I/O time the job counts for the file (MPI-IO time for files
 * opened through MPI-IO, else POSIX/DFS, plus STDIO), except for re-reads
 * (read time of the counted layer) as documented below.
 */
#include <string.h>

#include "ios_features.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

int ios_row_top(const struct iosage_file_row *row)
{
    return (row->flags & IOSAGE_FILE_COUNTED) != 0;
}

void ios_scan_init(struct ios_scan *s)
{
    memset(s, 0, sizeof *s);
    s->top[0] = s->top[1] = s->top[2] = -1;
}

/* Keep the three rows with the largest time (ties: first seen). */
static void scan_hit(struct ios_scan *s, const iosage_file_table *t, int row,
                     int64_t count, int64_t ops, double time)
{
    s->count = ios_sadd(s->count, count);
    s->ops = ios_sadd(s->ops, ops);
    s->files++;
    s->time += time;
    for (int k = 0; k < 3; k++) {
        if (s->top[k] < 0 || t->rows[s->top[k]].file_time < t->rows[row].file_time) {
            for (int m = 2; m > k; m--)
                s->top[m] = s->top[m - 1];
            s->top[k] = row;
            return;
        }
    }
}

static int is_data(const struct iosage_file_row *r)
{
    return (r->flags & IOSAGE_FILE_DATA) != 0;
}

/* Does the row hold the requests the file system saw: POSIX/DFS and STDIO
 * rows, and MPI-IO rows of files without a POSIX row. */
int ios_row_fs_level(const struct iosage_file_row *row)
{
    return row->module != IOSAGE_MOD_MPIIO || row->peer < 0;
}

void ios_scan_small(const iosage_file_table *t, struct ios_scan *s)
{
    ios_scan_init(s);
    ios_scan_small_rows(t, s, 0, t->n_rows);
}

void ios_scan_small_rows(const iosage_file_table *t, struct ios_scan *s,
                         size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        const struct iosage_file_row *r = &t->rows[i];
        if (!is_data(r) || !ios_row_fs_level(r))
            continue;
        int64_t n = 0;
        if (r->reads > 0 && 2 * (double)r->small_reads >= (double)r->reads)
            n = ios_sadd(n, r->small_reads);
        if (r->writes > 0 && 2 * (double)r->small_writes >= (double)r->writes)
            n = ios_sadd(n, r->small_writes);
        if (n > 0)
            scan_hit(s, t, (int)i, n, ios_sadd(r->reads, r->writes),
                     (r->flags & IOSAGE_FILE_COUNTED) ? r->io_time : r->file_time);
    }
}

void ios_scan_nonseq(const iosage_file_table *t, struct ios_scan *s)
{
    ios_scan_init(s);
    ios_scan_nonseq_rows(t, s, 0, t->n_rows);
}

void ios_scan_nonseq_rows(const iosage_file_table *t, struct ios_scan *s,
                          size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        const struct iosage_file_row *r = &t->rows[i];
        int64_t ops = ios_sadd(r->reads, r->writes);
        if (!is_data(r) || r->seq_ops < 0 || ops <= 0)
            continue;
        int64_t nonseq = ops > r->seq_ops ? ops - r->seq_ops : 0;
        if (nonseq > 0 && 5 * (double)nonseq >= (double)ops)
            scan_hit(s, t, (int)i, nonseq, ops, r->file_time);
    }
}

int ios_row_noncontig(const struct iosage_file_row *r)
{
    int64_t ops = ios_sadd(r->reads, r->writes);
    if (r->consec_ops < 0 || (double)ops < 2.0 * (double)r->ranks)
        return 0;
    double firsts = (double)(r->opens > r->ranks ? r->opens : r->ranks);
    double nonconsec = (double)ops - (double)r->consec_ops - firsts;
    return nonconsec > 0.5 * (double)ops;
}

void ios_scan_indep_shared(const iosage_file_table *t, struct ios_scan *s)
{
    ios_scan_init(s);
    ios_scan_indep_shared_rows(t, s, 0, t->n_rows);
}

void ios_scan_indep_shared_rows(const iosage_file_table *t, struct ios_scan *s,
                                size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        const struct iosage_file_row *r = &t->rows[i];
        if (!is_data(r) || !ios_row_top(r) || !(r->flags & IOSAGE_FILE_SHARED) ||
            (r->module != IOSAGE_MOD_POSIX && r->module != IOSAGE_MOD_MPIIO))
            continue;
        int64_t ops = ios_sadd(r->reads, r->writes);
        double bytes = (double)r->bytes_read + (double)r->bytes_written;
        if (ops <= 0)
            continue;
        double indep = r->module == IOSAGE_MOD_MPIIO
                           ? ios_ratio((double)r->indep_ops, (double)ops) : 1.0;
        const struct iosage_file_row *posix =
            r->module == IOSAGE_MOD_MPIIO ? (r->peer >= 0 ? &t->rows[r->peer] : NULL)
                                          : r;
        int small = bytes / (double)ops < IOS_MIB;
        int noncontig = posix && ios_row_noncontig(posix);
        if (indep >= 0.9 && (small || noncontig))
            scan_hit(s, t, (int)i, 1, ops, r->file_time);
    }
}

void ios_scan_reread(const iosage_file_table *t, struct ios_scan *s)
{
    ios_scan_init(s);
    ios_scan_reread_rows(t, s, 0, t->n_rows);
}

void ios_scan_reread_rows(const iosage_file_table *t, struct ios_scan *s,
                          size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        const struct iosage_file_row *r = &t->rows[i];
        if (!is_data(r) || r->max_byte_read < 0 || r->bytes_read <= 0)
            continue;
        int64_t e = r->max_byte_read > r->max_byte_written ? r->max_byte_read
                                                           : r->max_byte_written;
        if ((double)r->bytes_read < 2.0 * ((double)e + 1.0))
            continue;
        const struct iosage_file_row *counted =
            (r->flags & IOSAGE_FILE_UNDER_MPIIO) && r->peer >= 0 ? &t->rows[r->peer]
                                                                : r;
        /* Under MPI-IO the application's reads are the MPI-IO row's: POSIX
         * reads that MPI-IO made itself (the read-modify-write of data
         * sieving, two-phase collective buffering) are no data read again.
         * A public MACSio log showed "0 B read" in the summary and "38.0 MiB
         * read from a 12.7 MiB extent" in a finding. */
        if ((double)counted->bytes_read < 2.0 * ((double)e + 1.0))
            continue;
        scan_hit(s, t, (int)i, 1, r->reads, counted->read_time);
    }
}

void ios_scan_syncs(const iosage_file_table *t, struct ios_scan *s)
{
    ios_scan_init(s);
    for (size_t i = 0; i < t->n_rows; i++) {
        const struct iosage_file_row *r = &t->rows[i];
        if (!is_data(r) || r->syncs <= 0)
            continue;
        if (r->module == IOSAGE_MOD_MPIIO && r->peer >= 0)
            continue; /* MPI_File_sync shows as fsync in the POSIX row */
        double extra = (double)r->syncs - 2.0 * (double)r->ranks;
        if (extra > 0.0)
            scan_hit(s, t, (int)i, ios_d2i(extra), r->writes, r->file_time);
    }
}

void ios_scan_single_ost(const iosage_file_table *t, struct ios_scan *s)
{
    ios_scan_init(s);
    for (size_t i = 0; i < t->n_rows; i++) {
        const struct iosage_file_row *r = &t->rows[i];
        if (!is_data(r) || !ios_row_top(r) || r->lustre_stripe_count != 1 ||
            !(r->flags & IOSAGE_FILE_SHARED))
            continue;
        if ((double)r->bytes_written >= GIB && r->ranks >= 16)
            scan_hit(s, t, (int)i, 1, ios_sadd(r->reads, r->writes), r->file_time);
    }
}
