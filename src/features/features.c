/*
 * src/features/features.c - the feature vector, computed from a file table
 * (sums over rows, the table's extras and the criteria scans). The formulas
 * are those of feature_list.h and docs/features.md; every value passes
 * through put(), which replaces anything not finite by 0.
 */
#include <stdio.h>
#include <string.h>

#include "feature_list.h"
#include "ios_features.h"
#include "ios_math.h"

#define ENUM_ENTRY(name, formula) F_##name,
enum feature_index { IOS_FEATURES(ENUM_ENTRY) F_COUNT };

/* Sums over the rows of a table. "top" = counted rows of data files. */
struct sums {
    double top_reads, top_writes, top_bread, top_bwritten, top_small;
    double top_bytes_all, top_opens_all, all_ops;
    double px_reads, px_writes, px_bread, px_bwritten, px_sr, px_sw, px_tiny;
    double px_opens, px_syncs, px_extra_syncs;
    double mp_ops, mp_bytes, mp_small, mp_syncs, mp_px_ops, mp_under_ops;
    double st_ops, st_bytes, st_small, st_writes, st_time_all;
    double rr_bytes, rr_extent, rr_bytes_2x, rw_bytes, rw_extent;
    double lu_bytes, lu_width, lu_written, lu_single;
    /* the criteria scans the features use (scan.c), taken in the same walk */
    struct ios_scan small, nonseq, indep_shared, reread;
};

static void put(float *out, int i, double v)
{
    out[i] = isfinite(v) ? (float)v : 0.0f;
}

static void sum_posix(struct sums *s, const struct iosage_file_row *r)
{
    s->px_reads += (double)r->reads;
    s->px_writes += (double)r->writes;
    s->px_bread += (double)r->bytes_read;
    s->px_bwritten += (double)r->bytes_written;
    s->px_sr += (double)r->small_reads;
    s->px_sw += (double)r->small_writes;
    s->px_tiny += (double)r->tiny_ops;
    s->px_opens += r->module == IOSAGE_MOD_POSIX ? (double)r->opens : 0.0;
    s->px_syncs += (double)r->syncs;
    double extra = (double)r->syncs - 2.0 * (double)r->ranks;
    s->px_extra_syncs += extra > 0.0 ? extra : 0.0;
    if (r->flags & IOSAGE_FILE_UNDER_MPIIO)
        s->mp_under_ops += ((double)r->reads + (double)r->writes);
}

static void sum_offsets(struct sums *s, const struct iosage_file_row *r)
{
    if (r->max_byte_read >= 0 && r->bytes_read > 0) {
        double ext = ((double)r->max_byte_read + 1.0) *
                     (double)(r->ranks > 1 ? r->ranks : 1);
        int64_t e = r->max_byte_read > r->max_byte_written ? r->max_byte_read
                                                           : r->max_byte_written;
        s->rr_bytes += (double)r->bytes_read;
        s->rr_extent += ext;
        if ((double)r->bytes_read >= 2.0 * ((double)e + 1.0))
            s->rr_bytes_2x += (double)r->bytes_read;
    }
    if (r->max_byte_written >= 0 && r->bytes_written > 0) {
        s->rw_bytes += (double)r->bytes_written;
        s->rw_extent += (double)r->max_byte_written + 1.0;
    }
}

static void sum_lustre(struct sums *s, const struct iosage_file_row *r)
{
    if (r->lustre_stripe_count < 1 || !ios_row_top(r))
        return;
    double w = (double)r->bytes_written;
    s->lu_written += w;
    if (r->lustre_stripe_count == 1)
        s->lu_single += w;
    if (w > s->lu_bytes || s->lu_width == 0.0) {
        s->lu_bytes = w;
        s->lu_width = (double)r->lustre_stripe_count;
    }
}

static void sum_data_row(struct sums *s, const struct iosage_file_row *r)
{
    if (ios_row_top(r)) {
        s->top_reads += (double)r->reads;
        s->top_writes += (double)r->writes;
        s->top_bread += (double)r->bytes_read;
        s->top_bwritten += (double)r->bytes_written;
        s->top_small += (double)r->small_reads + (double)r->small_writes;
    }
    switch (r->module) {
    case IOSAGE_MOD_POSIX:
    case IOSAGE_MOD_DFS:
        sum_posix(s, r);
        break;
    case IOSAGE_MOD_MPIIO:
        s->mp_ops += ((double)r->reads + (double)r->writes);
        s->mp_bytes += (double)r->bytes_read + (double)r->bytes_written;
        s->mp_small += (double)r->small_reads + (double)r->small_writes;
        s->mp_syncs += (double)r->syncs;
        if (r->peer >= 0)
            s->mp_px_ops += ((double)r->reads + (double)r->writes);
        break;
    case IOSAGE_MOD_STDIO:
        s->st_ops += ((double)r->reads + (double)r->writes);
        s->st_bytes += (double)r->bytes_read + (double)r->bytes_written;
        s->st_small += (double)r->small_reads + (double)r->small_writes;
        s->st_writes += (double)r->writes;
        break;
    default:
        break;
    }
    if (r->module == IOSAGE_MOD_POSIX || r->module == IOSAGE_MOD_STDIO)
        sum_offsets(s, r);
    sum_lustre(s, r);
}

/* Rows a block: 1,024 rows are 232 KB, inside a core's second-level
 * cache, so the four scans find the block there after the sums. On a log
 * of 10^6 files, five walks over the 232 MB of rows each read them from
 * memory. */
#define BLOCK_ROWS 1024

static void sum_rows(const iosage_file_table *t, struct sums *s)
{
    memset(s, 0, sizeof *s);
    ios_scan_init(&s->small);
    ios_scan_init(&s->nonseq);
    ios_scan_init(&s->indep_shared);
    ios_scan_init(&s->reread);
    for (size_t from = 0; from < t->n_rows; from += BLOCK_ROWS) {
        size_t to = t->n_rows - from > BLOCK_ROWS ? from + BLOCK_ROWS : t->n_rows;
        for (size_t i = from; i < to; i++) {
            const struct iosage_file_row *r = &t->rows[i];
            s->all_ops += (double)r->reads + (double)r->writes;
            if (ios_row_top(r)) {
                s->top_bytes_all += (double)r->bytes_read + (double)r->bytes_written;
                s->top_opens_all += (double)r->opens;
            }
            if (r->module == IOSAGE_MOD_STDIO)
                s->st_time_all += r->io_time;
            if (r->flags & IOSAGE_FILE_DATA)
                sum_data_row(s, r);
        }
        ios_scan_small_rows(t, &s->small, from, to);
        ios_scan_nonseq_rows(t, &s->nonseq, from, to);
        ios_scan_indep_shared_rows(t, &s->indep_shared, from, to);
        ios_scan_reread_rows(t, &s->reread, from, to);
    }
}

/* --- groups of features ---------------------------------------------------- */

static void f_job(const iosage_file_table *t, const struct sums *s, float *o)
{
    const struct iosage_job_summary *j = &t->job;
    double n = (double)j->nprocs, T = j->io_time, R = j->run_time;
    double ops = s->top_reads + s->top_writes;
    double moved = s->top_bread + s->top_bwritten;
    put(o, F_job_io_time_share_slowest, ios_share(j->rank_time_max, R));
    put(o, F_job_io_time_share_mean, ios_share(T, n * R));
    put(o, F_job_bytes_per_rank_log, ios_log1p10(s->top_bytes_all / n / IOS_MIB));
    put(o, F_job_data_ops_per_rank_log, ios_log1p10(ops / n));
    put(o, F_job_bandwidth_log, ios_log1p10(ios_ratio(s->top_bytes_all / IOS_MIB, T)));
    put(o, F_job_read_byte_share, ios_share(s->top_bread, moved));
    put(o, F_job_read_op_share, ios_share(s->top_reads, ops));
    put(o, F_job_read_write_ratio_log,
        ios_libm()->log10((1.0 + s->top_bread) / (1.0 + s->top_bwritten)));
    put(o, F_job_read_time_share, ios_share(j->read_time, T));
    put(o, F_job_write_time_share, ios_share(j->write_time, T));
    put(o, F_job_meta_time_share, ios_share(j->meta_time, T));
    put(o, F_job_nondata_time_share,
        ios_share(T - t->priv->extra.data_time, T));
    put(o, F_job_small_op_share, ios_share(s->top_small, ops));
    put(o, F_job_small_file_time_share, ios_share(s->small.time, T));
    put(o, F_job_small_ops_per_rank_log, ios_log1p10(s->top_small / n));
}

static void f_posix_sizes(const struct ios_ft_extra *x, const struct sums *s,
                          float *o)
{
    const int64_t(*b)[IOS_N_BINS] = x->size_bins[0];
    for (int d = 0; d < 2; d++) {
        double ops = d ? s->px_writes : s->px_reads;
        int f0 = d ? F_posix_write_0_100_share : F_posix_read_0_100_share;
        for (int k = 0; k < 7; k++)
            put(o, f0 + k, ios_share((double)b[d][k], ops));
        put(o, f0 + 7, ios_share((double)b[d][7] + (double)b[d][8] + (double)b[d][9], ops));
    }
    put(o, F_posix_small_read_share, ios_share(s->px_sr, s->px_reads));
    put(o, F_posix_small_write_share, ios_share(s->px_sw, s->px_writes));
    put(o, F_posix_tiny_op_share, ios_share(s->px_tiny, s->px_reads + s->px_writes));
    put(o, F_posix_read_size_log, ios_log1p10(ios_ratio(s->px_bread, s->px_reads)));
    put(o, F_posix_write_size_log,
        ios_log1p10(ios_ratio(s->px_bwritten, s->px_writes)));
}

static void f_mpiio_stdio_sizes(const struct ios_ft_extra *x,
                                const struct sums *s, float *o)
{
    const int64_t(*b)[IOS_N_BINS] = x->size_bins[1];
    static const int groups[4][2] = {{0, 3}, {3, 5}, {5, 7}, {7, 10}};
    for (int d = 0; d < 2; d++) {
        double ops = (double)(d ? x->mpiio_writes : x->mpiio_reads);
        int f0 = d ? F_mpiio_write_10k_share : F_mpiio_read_10k_share;
        for (int g = 0; g < 4; g++) {
            double n = 0.0;
            for (int k = groups[g][0]; k < groups[g][1]; k++)
                n += (double)b[d][k];
            put(o, f0 + g, ios_share(n, ops));
        }
    }
    put(o, F_mpiio_small_op_share, ios_share(s->mp_small, s->mp_ops));
    put(o, F_mpiio_op_size_log, ios_log1p10(ios_ratio(s->mp_bytes, s->mp_ops)));
    put(o, F_stdio_small_op_share, ios_share(s->st_small, s->st_ops));
    put(o, F_stdio_op_size_log, ios_log1p10(ios_ratio(s->st_bytes, s->st_ops)));
}

static void f_access(const iosage_file_table *t, const struct sums *s, float *o)
{
    const struct ios_ft_extra *x = &t->priv->extra;
    double pr = (double)x->posix_reads, pw = (double)x->posix_writes;
    double ops = s->px_reads + s->px_writes;
    put(o, F_posix_consec_read_share, ios_share((double)x->consec_reads, pr));
    put(o, F_posix_consec_write_share, ios_share((double)x->consec_writes, pw));
    put(o, F_posix_seq_read_share, ios_share((double)x->seq_reads, pr));
    put(o, F_posix_seq_write_share, ios_share((double)x->seq_writes, pw));
    put(o, F_posix_nonseq_op_share,
        ios_share(pr + pw - (double)x->seq_reads - (double)x->seq_writes, pr + pw));
    put(o, F_posix_nonseq_file_time_share, ios_share(s->nonseq.time, t->job.io_time));
    put(o, F_posix_rw_switches_per_op, ios_share((double)x->rw_switches, ops));
    put(o, F_posix_file_misaligned_share,
        ios_share((double)x->file_not_aligned, pr + pw));
    put(o, F_posix_mem_misaligned_share,
        ios_share((double)x->mem_not_aligned, pr + pw));
    put(o, F_posix_access_top1_share, ios_share((double)x->access_top1, ops));
    put(o, F_posix_access_top4_share, ios_share((double)x->access_top4, ops));
    put(o, F_posix_stride_top4_share, ios_share((double)x->stride_top4, pr + pw));
    put(o, F_mpiio_access_top4_share,
        ios_share((double)x->mpiio_access_top4, s->mp_ops));
    put(o, F_posix_reread_ratio_log, ios_log1p10(ios_ratio(s->rr_bytes, s->rr_extent)));
    put(o, F_posix_reread_byte_share, ios_share(s->rr_bytes_2x, s->rr_bytes));
    put(o, F_posix_rewrite_ratio_log, ios_log1p10(ios_ratio(s->rw_bytes, s->rw_extent)));
}

static void f_meta(const iosage_file_table *t, const struct sums *s, float *o)
{
    const struct iosage_job_summary *j = &t->job;
    const struct ios_ft_extra *x = &t->priv->extra;
    double mops = (double)j->meta_ops;
    put(o, F_meta_ops_per_data_op_log, ios_log1p10(ios_ratio(mops, s->all_ops)));
    put(o, F_meta_ops_per_rank_log, ios_log1p10(mops / (double)j->nprocs));
    put(o, F_meta_opens_per_file_rank_log,
        ios_log1p10(ios_ratio(s->top_opens_all, x->pairs_all)));
    put(o, F_meta_stats_per_open_log,
        ios_log1p10(ios_ratio((double)x->stats, s->px_opens)));
    put(o, F_meta_seeks_per_op_log,
        ios_log1p10(ios_ratio((double)x->seeks, s->px_reads + s->px_writes + s->st_ops)));
    put(o, F_meta_time_per_op_log, ios_log1p10(ios_ratio(1e6 * j->meta_time, mops)));
}

static void f_files(const iosage_file_table *t, float *o)
{
    const struct iosage_job_summary *j = &t->job;
    const struct ios_ft_extra *x = &t->priv->extra;
    double nd = (double)j->data_files, n = (double)j->nprocs;
    put(o, F_file_per_rank_log, ios_log1p10(nd / n));
    put(o, F_file_shared_share, ios_share(x->pairs_shared, x->pairs_data));
    put(o, F_file_shared_byte_share, ios_share(x->shared_bytes, x->data_bytes));
    put(o, F_file_shared_time_share, ios_share(x->shared_time, j->io_time));
    put(o, F_file_unique_per_rank_log, ios_log1p10((double)x->files_unique / n));
    put(o, F_file_median_size_log, ios_log1p10(x->median_size));
    put(o, F_file_small_share, ios_share(x->pairs_small, x->pairs_data));
    put(o, F_file_read_only_share, ios_share(x->pairs_ro, x->pairs_data));
    put(o, F_file_write_only_share, ios_share(x->pairs_wo, x->pairs_data));
    put(o, F_file_read_write_share, ios_share(x->pairs_rw, x->pairs_data));
    put(o, F_file_top_time_share, ios_share(x->top_file_time, j->io_time));
    put(o, F_file_nondata_share,
        ios_share(x->pairs_all - x->pairs_data, x->pairs_all));
}

static void f_interface(const iosage_file_table *t, const struct sums *s,
                        float *o)
{
    const struct ios_ft_extra *x = &t->priv->extra;
    double top_ops = s->top_reads + s->top_writes, T = t->job.io_time;
    double mr = (double)x->mpiio_reads, mw = (double)x->mpiio_writes;
    put(o, F_mpiio_op_share, ios_share(s->mp_ops, top_ops));
    put(o, F_mpiio_coll_op_share,
        ios_share((double)x->coll_reads + (double)x->coll_writes, mr + mw));
    put(o, F_mpiio_coll_read_share, ios_share((double)x->coll_reads, mr));
    put(o, F_mpiio_coll_write_share, ios_share((double)x->coll_writes, mw));
    put(o, F_mpiio_nb_op_share, ios_share((double)x->nb_ops, mr + mw));
    put(o, F_mpiio_posix_ops_per_op_log,
        ios_log1p10(ios_ratio(s->mp_under_ops, s->mp_px_ops)));
    put(o, F_mpiio_views_per_open_log,
        ios_log1p10(ios_ratio((double)x->views, (double)x->mpiio_opens)));
    put(o, F_stdio_byte_share, ios_share(s->st_bytes, s->top_bread + s->top_bwritten));
    put(o, F_stdio_op_share, ios_share(s->st_ops, top_ops));
    put(o, F_stdio_time_share, ios_share(s->st_time_all, T));
    put(o, F_file_indep_shared_time_share, ios_share(s->indep_shared.time, T));
}

/* 1 - mean / max, and log10(max / mean), both 0 when max is 0. */
static void imbalance(float *o, int f_imb, int f_log, double max, double mean)
{
    put(o, f_imb, max > 0.0 ? 1.0 - ios_share(mean, max) : 0.0);
    put(o, f_log, max > 0.0 && mean > 0.0 && max > mean ? ios_libm()->log10(max / mean) : 0.0);
}

static void f_balance(const iosage_file_table *t, float *o)
{
    const struct iosage_job_summary *j = &t->job;
    const struct ios_ft_extra *x = &t->priv->extra;
    imbalance(o, F_rank_time_imbalance, F_rank_time_max_over_mean_log,
              j->rank_time_max, j->rank_time_mean);
    imbalance(o, F_rank_bytes_imbalance, F_rank_bytes_max_over_mean_log,
              j->rank_bytes_max, j->rank_bytes_mean);
    put(o, F_rank_active_share, ios_share((double)j->active_ranks, (double)j->nprocs));
    put(o, F_shared_time_spread, ios_share(x->spread_time_sum, x->spread_time_w));
    put(o, F_shared_bytes_spread, ios_share(x->spread_bytes_sum, x->spread_bytes_w));
    put(o, F_shared_time_cv_log, ios_log1p10(ios_ratio(x->cv_time_sum, x->cv_time_w)));
    put(o, F_shared_bytes_cv_log,
        ios_log1p10(ios_ratio(x->cv_bytes_sum, x->cv_bytes_w)));
    imbalance(o, F_unique_rank_bytes_imbalance, F_unique_rank_bytes_max_over_mean_log,
              x->unique_bytes_max, x->unique_bytes_mean);
}

static void f_storage(const iosage_file_table *t, const struct sums *s,
                      float *o)
{
    const struct ios_ft_extra *x = &t->priv->extra;
    put(o, F_sync_per_write_log, ios_log1p10(ios_ratio(s->px_syncs, s->px_writes)));
    put(o, F_sync_extra_per_write, ios_share(s->px_extra_syncs, s->px_writes));
    put(o, F_mpiio_sync_per_write_log,
        ios_log1p10(ios_ratio(s->mp_syncs, (double)x->mpiio_writes)));
    put(o, F_stdio_flush_per_write_log,
        ios_log1p10(ios_ratio((double)x->stdio_flushes, s->st_writes)));
    put(o, F_lustre_stripe_count_log, ios_log1p10(s->lu_width));
    put(o, F_lustre_mib_per_ost_log,
        ios_log1p10(ios_ratio(s->lu_bytes, s->lu_width) / IOS_MIB));
    put(o, F_lustre_single_ost_write_share, ios_share(s->lu_single, s->lu_written));
    put(o, F_reread_time_share, ios_share(s->reread.time, t->job.io_time));
}

/* The counts the floors read (not model inputs). */
static void f_counts(const iosage_file_table *t, float *o)
{
    const struct fl_table *l = ios_ft_layers(t); /* counted as it was built */
    put(o, F_job_data_files_log, ios_log1p10((double)l->data_files));
    put(o, F_job_meta_ops_log, ios_log1p10(l->meta_ops));
}

iosage_status iosage_features_from_table(const iosage_log *log,
                                         const iosage_file_table *t, float *out,
                                         iosage_error *err)
{
    (void)log;
    if (!out || !t) {
        if (out)
            memset(out, 0, IOSAGE_NUM_FEATURES * sizeof *out);
        if (err) {
            memset(err, 0, sizeof *err);
            err->code = IOSAGE_E_USAGE;
            snprintf(err->msg, sizeof err->msg, "no table or no output array");
        }
        return IOSAGE_E_USAGE;
    }
    struct sums s;
    memset(out, 0, IOSAGE_NUM_FEATURES * sizeof *out);
    sum_rows(t, &s);
    f_job(t, &s, out);
    f_posix_sizes(&t->priv->extra, &s, out);
    f_mpiio_stdio_sizes(&t->priv->extra, &s, out);
    f_access(t, &s, out);
    f_meta(t, &s, out);
    f_files(t, out);
    f_interface(t, &s, out);
    f_balance(t, out);
    f_storage(t, &s, out);
    f_counts(t, out);
    return IOSAGE_OK;
}

iosage_status iosage_features_compute(const iosage_log *log, float *out,
                                      iosage_error *err)
{
    iosage_file_table *t = NULL;
    iosage_status st = iosage_file_table_build(log, &t, err);
    if (st != IOSAGE_OK) {
        if (out)
            memset(out, 0, IOSAGE_NUM_FEATURES * sizeof *out);
        return st;
    }
    st = iosage_features_from_table(log, t, out, err);
    iosage_file_table_free(t);
    return st;
}
