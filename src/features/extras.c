/*
 * src/features/extras.c - counters of data files that the rows do not keep
 * (size bins, alignment, top-4 counters, MPI-IO call kinds) and the rank
 * spread of rank -1 records, summed for the features.
 */
#include <stddef.h>

#include "ios_features.h"
#include "ios_math.h"
#include "ios_sort.h"

static void add_bins(int64_t dst[2][IOS_N_BINS], const struct ios_layer *L,
                     const iosage_record *r)
{
    for (int k = 0; k < IOS_N_BINS; k++) {
        dst[0][k] = ios_sadd(dst[0][k], ios_cnt(r, L->rbin0 + k));
        dst[1][k] = ios_sadd(dst[1][k], ios_cnt(r, L->wbin0 + k));
    }
}

static int64_t top_counts(const iosage_record *r, int count0, int n)
{
    int64_t s = 0;
    for (int k = 0; k < n; k++)
        s = ios_sadd(s, ios_cnt(r, count0 + k));
    return s;
}

static void add_posix(struct ios_ft_extra *x, const struct ios_layer *L,
                      const iosage_record *r)
{
    add_bins(x->size_bins[0], L, r);
    x->access_top1 = ios_sadd(x->access_top1, ios_cnt(r, L->access0 + 4));
    x->access_top4 = ios_sadd(x->access_top4, top_counts(r, L->access0 + 4, 4));
    if (L->module == IOSAGE_MOD_DFS) {
        x->rw_switches = ios_sadd(x->rw_switches,
                                  ios_cnt(r, IOSAGE_DFS_RW_SWITCHES));
        return;
    }
    x->rw_switches = ios_sadd(x->rw_switches,
                              ios_cnt(r, IOSAGE_POSIX_RW_SWITCHES));
    x->file_not_aligned = ios_sadd(x->file_not_aligned,
                                   ios_cnt(r, IOSAGE_POSIX_FILE_NOT_ALIGNED));
    x->mem_not_aligned = ios_sadd(x->mem_not_aligned,
                                  ios_cnt(r, IOSAGE_POSIX_MEM_NOT_ALIGNED));
    x->stride_top4 = ios_sadd(x->stride_top4,
                              top_counts(r, IOSAGE_POSIX_STRIDE1_COUNT, 4));
    x->stats = ios_sadd(x->stats, ios_cnt(r, IOSAGE_POSIX_STATS));
    x->seq_reads = ios_sadd(x->seq_reads, ios_cnt(r, IOSAGE_POSIX_SEQ_READS));
    x->seq_writes = ios_sadd(x->seq_writes, ios_cnt(r, IOSAGE_POSIX_SEQ_WRITES));
    x->consec_reads = ios_sadd(x->consec_reads,
                               ios_cnt(r, IOSAGE_POSIX_CONSEC_READS));
    x->consec_writes = ios_sadd(x->consec_writes,
                                ios_cnt(r, IOSAGE_POSIX_CONSEC_WRITES));
    x->posix_reads = ios_sadd(x->posix_reads, ios_cnt(r, IOSAGE_POSIX_READS));
    x->posix_writes = ios_sadd(x->posix_writes, ios_cnt(r, IOSAGE_POSIX_WRITES));
    x->seeks = ios_sadd(x->seeks, ios_cnt(r, IOSAGE_POSIX_SEEKS));
}

static void add_mpiio(struct ios_ft_extra *x, const struct ios_layer *L,
                      const iosage_record *r)
{
    add_bins(x->size_bins[1], L, r);
    x->mpiio_access_top4 = ios_sadd(x->mpiio_access_top4,
                                    top_counts(r, L->access0 + 4, 4));
    x->views = ios_sadd(x->views, ios_cnt(r, IOSAGE_MPIIO_VIEWS));
    x->mpiio_opens = ios_sadd(x->mpiio_opens,
                              ios_sadd(ios_cnt(r, IOSAGE_MPIIO_INDEP_OPENS),
                                       ios_cnt(r, IOSAGE_MPIIO_COLL_OPENS)));
    x->nb_ops = ios_sadd(x->nb_ops, ios_sadd(ios_cnt(r, IOSAGE_MPIIO_NB_READS),
                                             ios_cnt(r, IOSAGE_MPIIO_NB_WRITES)));
    x->coll_reads = ios_sadd(x->coll_reads,
                             ios_sadd(ios_cnt(r, IOSAGE_MPIIO_COLL_READS),
                                      ios_cnt(r, IOSAGE_MPIIO_SPLIT_READS)));
    x->coll_writes = ios_sadd(x->coll_writes,
                              ios_sadd(ios_cnt(r, IOSAGE_MPIIO_COLL_WRITES),
                                       ios_cnt(r, IOSAGE_MPIIO_SPLIT_WRITES)));
    x->mpiio_reads = ios_sadd(x->mpiio_reads, ios_rec_reads(L, r));
    x->mpiio_writes = ios_sadd(x->mpiio_writes, ios_rec_writes(L, r));
}

/* Rank spread of one rank -1 record: (slowest - fastest) / slowest time and
 * bytes, and the coefficient of variation from the variance counters. */
static void add_spread(struct ios_ft_extra *x, const struct ios_layer *L,
                       const iosage_record *r, int64_t nprocs)
{
    double t = ios_rec_time(L, r);
    double b = (double)ios_cnt(r, L->bytes_read) +
               (double)ios_cnt(r, L->bytes_written);
    double st = ios_fcnt(r, L->slowest_time), ft = ios_fcnt(r, L->fastest_time);
    double sb = (double)ios_cnt(r, L->slowest_bytes);
    double fb = (double)ios_cnt(r, L->fastest_bytes);
    if (t > 0.0 && st > 0.0) {
        x->spread_time_sum += t * ios_share(st - ft, st);
        x->spread_time_w += t;
    }
    if (b > 0.0 && (sb > 0.0 || fb > 0.0)) {
        double hi = sb > fb ? sb : fb, lo = sb > fb ? fb : sb;
        x->spread_bytes_sum += b * ios_share(hi - lo, hi);
        x->spread_bytes_w += b;
    }
    double n = (double)(nprocs > 0 ? nprocs : 1);
    if (t > 0.0) {
        x->cv_time_sum += t * ios_ratio(ios_libm()->sqrt(ios_fcnt(r, L->var_time)), t / n);
        x->cv_time_w += t;
    }
    if (b > 0.0) {
        x->cv_bytes_sum += b * ios_ratio(ios_libm()->sqrt(ios_fcnt(r, L->var_bytes)), b / n);
        x->cv_bytes_w += b;
    }
}

void ios_ft_extras_row(const iosage_file_table *t, size_t k,
                       const struct ios_ref *refs, size_t from, size_t to,
                       struct ios_ft_extra *x)
{
    const struct iosage_file_row *row = &t->rows[k];
    if (!(row->flags & IOSAGE_FILE_DATA))
        return;
    const struct ios_layer *L = ios_layer_of(row->module);
    for (size_t i = from; i < to; i++) {
        const iosage_record *r = refs[i].rec;
        ios_prefetch_ref(refs, to, i); /* within a row of many records */
        if (row->module == IOSAGE_MOD_POSIX || row->module == IOSAGE_MOD_DFS)
            add_posix(x, L, r);
        else if (row->module == IOSAGE_MOD_MPIIO)
            add_mpiio(x, L, r);
        else if (row->module == IOSAGE_MOD_STDIO) {
            x->stdio_flushes = ios_sadd(x->stdio_flushes,
                                        ios_cnt(r, IOSAGE_STDIO_FLUSHES));
            x->seeks = ios_sadd(x->seeks, ios_cnt(r, IOSAGE_STDIO_SEEKS));
        }
        if (r->rank < 0 && (row->flags & IOSAGE_FILE_COUNTED))
            add_spread(x, L, r, t->job.nprocs);
    }
}

/* --- per data file ---------------------------------------------------------- */

/* Rows [from, to) of one data file: size, kind, sharing. Shares of files
 * weigh each file by the ranks that opened it, so that one shared file among
 * n private ones keeps its weight whatever n is. */
static void one_file(const iosage_file_table *t, size_t from, size_t to,
                     struct ios_ft_extra *x, double *size)
{
    int64_t extent = -1, rd = 0, wr = 0, ranks = 1;
    double bytes = 0.0, moved = 0.0;
    unsigned flags = t->rows[from].flags;
    for (size_t i = from; i < to; i++) {
        const struct iosage_file_row *r = &t->rows[i];
        int64_t e = r->max_byte_read > r->max_byte_written ? r->max_byte_read
                                                           : r->max_byte_written;
        extent = e > extent ? e : extent;
        double m = (double)r->bytes_read + (double)r->bytes_written;
        moved = m > moved ? m : moved;
        rd += r->bytes_read > 0;
        wr += r->bytes_written > 0;
        ranks = r->ranks > ranks ? r->ranks : ranks;
        if (r->flags & IOSAGE_FILE_COUNTED)
            bytes += m;
    }
    double w = (double)ranks;
    *size = extent >= 0 ? (double)extent + 1.0 : moved;
    x->files_small += *size < 4.0 * IOS_MIB;
    x->pairs_data += w;
    x->pairs_small += *size < 4.0 * IOS_MIB ? w : 0.0;
    x->pairs_ro += rd && !wr ? w : 0.0;
    x->pairs_wo += wr && !rd ? w : 0.0;
    x->pairs_rw += rd && wr ? w : 0.0;
    x->files_unique += ranks == 1 && !(flags & IOSAGE_FILE_REDUCED);
    x->data_bytes += bytes;
    x->data_time += t->rows[from].file_time;
    if (t->rows[from].file_time > x->top_file_time)
        x->top_file_time = t->rows[from].file_time;
    if (flags & IOSAGE_FILE_SHARED) {
        x->files_shared++;
        x->pairs_shared += w;
        x->shared_bytes += bytes;
        x->shared_time += t->rows[from].file_time;
    }
}

/* Ranks that opened the file of rows [from, to) (at least 1). */
static int64_t file_ranks(const iosage_file_table *t, size_t from, size_t to)
{
    int64_t ranks = 1;
    for (size_t i = from; i < to; i++)
        ranks = t->rows[i].ranks > ranks ? t->rows[i].ranks : ranks;
    return ranks;
}

void ios_ft_file(const iosage_file_table *t, size_t from, size_t to,
                 struct ios_ft_extra *x, double *sizes, size_t *n_sizes)
{
    x->pairs_all += (double)file_ranks(t, from, to);
    if (t->rows[from].flags & IOSAGE_FILE_DATA)
        one_file(t, from, to, x, &sizes[(*n_sizes)++]);
}

void ios_ft_files_done(struct ios_ft_extra *x, double *sizes, size_t n)
{
    x->median_size = n == 0 ? 0.0 : ios_median(sizes, n);
}
