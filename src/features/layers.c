/*
 * src/features/layers.c - one descriptor per data layer, so that the table
 * builder reads POSIX, MPI-IO, STDIO and DFS records with one code path.
 *
 * Facts used (format spec sections 9-10): POSIX, MPI-IO and DFS have ten
 * size bins per direction with inclusive bounds 0-100, 101-1024, ...,
 * 102401-1048576 (the fifth bin holds exactly 1 MiB), ...; STDIO has no
 * histogram. The ACCESS1..4 counters list the four most common request
 * sizes of both directions with their counts.
 */
#include "ios_features.h"

static const struct ios_layer posix_layer = {
    .module = IOSAGE_MOD_POSIX,
    .reads = IOSAGE_POSIX_READS, .reads2 = -1,
    .writes = IOSAGE_POSIX_WRITES, .writes2 = -1,
    .bytes_read = IOSAGE_POSIX_BYTES_READ,
    .bytes_written = IOSAGE_POSIX_BYTES_WRITTEN,
    .max_byte_read = IOSAGE_POSIX_MAX_BYTE_READ,
    .max_byte_written = IOSAGE_POSIX_MAX_BYTE_WRITTEN,
    .rbin0 = IOSAGE_POSIX_SIZE_READ_0_100,
    .wbin0 = IOSAGE_POSIX_SIZE_WRITE_0_100,
    .access0 = IOSAGE_POSIX_ACCESS1_ACCESS,
    .seq_reads = IOSAGE_POSIX_SEQ_READS, .seq_writes = IOSAGE_POSIX_SEQ_WRITES,
    .consec_reads = IOSAGE_POSIX_CONSEC_READS,
    .consec_writes = IOSAGE_POSIX_CONSEC_WRITES,
    .opens = {IOSAGE_POSIX_OPENS, -1, -1},
    .meta = {IOSAGE_POSIX_STATS, IOSAGE_POSIX_SEEKS, -1, -1, -1},
    .syncs = {IOSAGE_POSIX_FSYNCS, IOSAGE_POSIX_FDSYNCS},
    .slowest_rank = IOSAGE_POSIX_SLOWEST_RANK,
    .slowest_bytes = IOSAGE_POSIX_SLOWEST_RANK_BYTES,
    .fastest_rank = IOSAGE_POSIX_FASTEST_RANK,
    .fastest_bytes = IOSAGE_POSIX_FASTEST_RANK_BYTES,
    .read_time = IOSAGE_POSIX_F_READ_TIME,
    .write_time = IOSAGE_POSIX_F_WRITE_TIME,
    .meta_time = IOSAGE_POSIX_F_META_TIME,
    .slowest_time = IOSAGE_POSIX_F_SLOWEST_RANK_TIME,
    .fastest_time = IOSAGE_POSIX_F_FASTEST_RANK_TIME,
    .var_time = IOSAGE_POSIX_F_VARIANCE_RANK_TIME,
    .var_bytes = IOSAGE_POSIX_F_VARIANCE_RANK_BYTES,
    .end_ts = {IOSAGE_POSIX_F_CLOSE_END_TIMESTAMP,
               IOSAGE_POSIX_F_READ_END_TIMESTAMP,
               IOSAGE_POSIX_F_WRITE_END_TIMESTAMP},
};

static const struct ios_layer mpiio_layer = {
    .module = IOSAGE_MOD_MPIIO,
    .reads = IOSAGE_MPIIO_INDEP_READS, .reads2 = -1, /* see ios_rec_reads */
    .writes = IOSAGE_MPIIO_INDEP_WRITES, .writes2 = -1,
    .bytes_read = IOSAGE_MPIIO_BYTES_READ,
    .bytes_written = IOSAGE_MPIIO_BYTES_WRITTEN,
    .max_byte_read = -1, .max_byte_written = -1,
    .rbin0 = IOSAGE_MPIIO_SIZE_READ_AGG_0_100,
    .wbin0 = IOSAGE_MPIIO_SIZE_WRITE_AGG_0_100,
    .access0 = IOSAGE_MPIIO_ACCESS1_ACCESS,
    .seq_reads = -1, .seq_writes = -1, .consec_reads = -1, .consec_writes = -1,
    .opens = {IOSAGE_MPIIO_INDEP_OPENS, IOSAGE_MPIIO_COLL_OPENS, -1},
    .meta = {IOSAGE_MPIIO_VIEWS, -1, -1, -1, -1},
    .syncs = {IOSAGE_MPIIO_SYNCS, -1},
    .slowest_rank = IOSAGE_MPIIO_SLOWEST_RANK,
    .slowest_bytes = IOSAGE_MPIIO_SLOWEST_RANK_BYTES,
    .fastest_rank = IOSAGE_MPIIO_FASTEST_RANK,
    .fastest_bytes = IOSAGE_MPIIO_FASTEST_RANK_BYTES,
    .read_time = IOSAGE_MPIIO_F_READ_TIME,
    .write_time = IOSAGE_MPIIO_F_WRITE_TIME,
    .meta_time = IOSAGE_MPIIO_F_META_TIME,
    .slowest_time = IOSAGE_MPIIO_F_SLOWEST_RANK_TIME,
    .fastest_time = IOSAGE_MPIIO_F_FASTEST_RANK_TIME,
    .var_time = IOSAGE_MPIIO_F_VARIANCE_RANK_TIME,
    .var_bytes = IOSAGE_MPIIO_F_VARIANCE_RANK_BYTES,
    .end_ts = {IOSAGE_MPIIO_F_CLOSE_END_TIMESTAMP,
               IOSAGE_MPIIO_F_READ_END_TIMESTAMP,
               IOSAGE_MPIIO_F_WRITE_END_TIMESTAMP},
};

static const struct ios_layer stdio_layer = {
    .module = IOSAGE_MOD_STDIO,
    .reads = IOSAGE_STDIO_READS, .reads2 = -1,
    .writes = IOSAGE_STDIO_WRITES, .writes2 = -1,
    .bytes_read = IOSAGE_STDIO_BYTES_READ,
    .bytes_written = IOSAGE_STDIO_BYTES_WRITTEN,
    .max_byte_read = IOSAGE_STDIO_MAX_BYTE_READ,
    .max_byte_written = IOSAGE_STDIO_MAX_BYTE_WRITTEN,
    .rbin0 = -1, .wbin0 = -1, .access0 = -1,
    .seq_reads = -1, .seq_writes = -1, .consec_reads = -1, .consec_writes = -1,
    .opens = {IOSAGE_STDIO_OPENS, IOSAGE_STDIO_FDOPENS, -1},
    .meta = {IOSAGE_STDIO_SEEKS, -1, -1, -1, -1},
    .syncs = {-1, -1},
    .slowest_rank = IOSAGE_STDIO_SLOWEST_RANK,
    .slowest_bytes = IOSAGE_STDIO_SLOWEST_RANK_BYTES,
    .fastest_rank = IOSAGE_STDIO_FASTEST_RANK,
    .fastest_bytes = IOSAGE_STDIO_FASTEST_RANK_BYTES,
    .read_time = IOSAGE_STDIO_F_READ_TIME,
    .write_time = IOSAGE_STDIO_F_WRITE_TIME,
    .meta_time = IOSAGE_STDIO_F_META_TIME,
    .slowest_time = IOSAGE_STDIO_F_SLOWEST_RANK_TIME,
    .fastest_time = IOSAGE_STDIO_F_FASTEST_RANK_TIME,
    .var_time = IOSAGE_STDIO_F_VARIANCE_RANK_TIME,
    .var_bytes = IOSAGE_STDIO_F_VARIANCE_RANK_BYTES,
    .end_ts = {IOSAGE_STDIO_F_CLOSE_END_TIMESTAMP,
               IOSAGE_STDIO_F_READ_END_TIMESTAMP,
               IOSAGE_STDIO_F_WRITE_END_TIMESTAMP},
};

static const struct ios_layer dfs_layer = {
    .module = IOSAGE_MOD_DFS,
    .reads = IOSAGE_DFS_READS, .reads2 = IOSAGE_DFS_READXS,
    .writes = IOSAGE_DFS_WRITES, .writes2 = IOSAGE_DFS_WRITEXS,
    .bytes_read = IOSAGE_DFS_BYTES_READ,
    .bytes_written = IOSAGE_DFS_BYTES_WRITTEN,
    .max_byte_read = -1, .max_byte_written = -1,
    .rbin0 = IOSAGE_DFS_SIZE_READ_0_100,
    .wbin0 = IOSAGE_DFS_SIZE_WRITE_0_100,
    .access0 = IOSAGE_DFS_ACCESS1_ACCESS,
    .seq_reads = -1, .seq_writes = -1, .consec_reads = -1, .consec_writes = -1,
    .opens = {IOSAGE_DFS_OPENS, IOSAGE_DFS_GLOBAL_OPENS, -1},
    .meta = {IOSAGE_DFS_LOOKUPS, IOSAGE_DFS_STATS, IOSAGE_DFS_GET_SIZES,
             IOSAGE_DFS_PUNCHES, IOSAGE_DFS_REMOVES},
    .syncs = {-1, -1},
    .slowest_rank = IOSAGE_DFS_SLOWEST_RANK,
    .slowest_bytes = IOSAGE_DFS_SLOWEST_RANK_BYTES,
    .fastest_rank = IOSAGE_DFS_FASTEST_RANK,
    .fastest_bytes = IOSAGE_DFS_FASTEST_RANK_BYTES,
    .read_time = IOSAGE_DFS_F_READ_TIME,
    .write_time = IOSAGE_DFS_F_WRITE_TIME,
    .meta_time = IOSAGE_DFS_F_META_TIME,
    .slowest_time = IOSAGE_DFS_F_SLOWEST_RANK_TIME,
    .fastest_time = IOSAGE_DFS_F_FASTEST_RANK_TIME,
    .var_time = -1, .var_bytes = -1,
    .end_ts = {IOSAGE_DFS_F_CLOSE_END_TIMESTAMP,
               IOSAGE_DFS_F_READ_END_TIMESTAMP,
               IOSAGE_DFS_F_WRITE_END_TIMESTAMP},
};

const struct ios_layer *ios_layer_of(int module)
{
    switch (module) {
    case IOSAGE_MOD_POSIX: return &posix_layer;
    case IOSAGE_MOD_MPIIO: return &mpiio_layer;
    case IOSAGE_MOD_STDIO: return &stdio_layer;
    case IOSAGE_MOD_DFS: return &dfs_layer;
    default: return NULL;
    }
}

/* MPI-IO counts every call family: independent, collective, split and
 * nonblocking. The others add their second family when there is one. */
int64_t ios_rec_reads(const struct ios_layer *L, const iosage_record *r)
{
    if (L->module == IOSAGE_MOD_MPIIO)
        return ios_sadd(ios_sadd(ios_cnt(r, IOSAGE_MPIIO_INDEP_READS),
                                 ios_cnt(r, IOSAGE_MPIIO_COLL_READS)),
                        ios_sadd(ios_cnt(r, IOSAGE_MPIIO_SPLIT_READS),
                                 ios_cnt(r, IOSAGE_MPIIO_NB_READS)));
    return ios_sadd(ios_cnt(r, L->reads), ios_cnt(r, L->reads2));
}

int64_t ios_rec_writes(const struct ios_layer *L, const iosage_record *r)
{
    if (L->module == IOSAGE_MOD_MPIIO)
        return ios_sadd(ios_sadd(ios_cnt(r, IOSAGE_MPIIO_INDEP_WRITES),
                                 ios_cnt(r, IOSAGE_MPIIO_COLL_WRITES)),
                        ios_sadd(ios_cnt(r, IOSAGE_MPIIO_SPLIT_WRITES),
                                 ios_cnt(r, IOSAGE_MPIIO_NB_WRITES)));
    return ios_sadd(ios_cnt(r, L->writes), ios_cnt(r, L->writes2));
}

double ios_rec_time(const struct ios_layer *L, const iosage_record *r)
{
    return ios_fcnt(r, L->read_time) + ios_fcnt(r, L->write_time) +
           ios_fcnt(r, L->meta_time);
}

/* Count of requests of exactly 1 MiB among the ACCESS1..4 counters. */
static int64_t exact_mib(const struct ios_layer *L, const iosage_record *r)
{
    int64_t n = 0;
    for (int k = 0; k < 4; k++)
        if (ios_cnt_raw(r, L->access0 + k) == 1048576)
            n = ios_sadd(n, ios_cnt(r, L->access0 + 4 + k));
    return n;
}

/* Sum of bins [from, to) of a histogram starting at bin0. */
static int64_t bins(const iosage_record *r, int bin0, int from, int to)
{
    int64_t n = 0;
    for (int k = from; k < to; k++)
        n = ios_sadd(n, ios_cnt(r, bin0 + k));
    return n;
}

/* STDIO has no histogram: at most floor(bytes / limit) requests reach limit
 * bytes, so at least ops - floor(bytes / limit) are under it. */
static int64_t bound_small(int64_t ops, int64_t bytes, double limit)
{
    double big = floor((double)bytes / limit);
    double s = (double)ops - big;
    return ios_d2i(s);
}

/* The 100K_1M bin includes requests of exactly 1 MiB: those are taken out,
 * split between reads and writes in proportion to their 100K_1M bins (the
 * ACCESS counters do not say the direction). */
void ios_rec_small(const struct ios_layer *L, const iosage_record *r,
                   int64_t *sr, int64_t *sw)
{
    if (L->rbin0 < 0) {
        *sr = bound_small(ios_rec_reads(L, r), ios_cnt(r, L->bytes_read),
                          IOS_MIB);
        *sw = bound_small(ios_rec_writes(L, r), ios_cnt(r, L->bytes_written),
                          IOS_MIB);
        return;
    }
    int64_t r5 = ios_cnt(r, L->rbin0 + 4), w5 = ios_cnt(r, L->wbin0 + 4);
    int64_t ex = exact_mib(L, r);
    int64_t exr = 0, exw = 0;
    if (ex > 0 && (r5 > 0 || w5 > 0)) {
        double fr = (double)r5 / ((double)r5 + (double)w5);
        exr = ios_d2i(floor((double)ex * fr + 0.5));
        /* near 2^63 the double rounds up past ex: keep 0 <= exr <= ex */
        exr = exr > ex ? ex : (exr < 0 ? 0 : exr);
        exw = ex - exr;
        exr = exr > r5 ? r5 : exr;
        exw = exw > w5 ? w5 : exw;
    }
    *sr = bins(r, L->rbin0, 0, 5) - exr;
    *sw = bins(r, L->wbin0, 0, 5) - exw;
}

int64_t ios_rec_tiny(const struct ios_layer *L, const iosage_record *r)
{
    if (L->rbin0 < 0)
        return ios_sadd(bound_small(ios_rec_reads(L, r),
                                    ios_cnt(r, L->bytes_read), 10240.0),
                        bound_small(ios_rec_writes(L, r),
                                    ios_cnt(r, L->bytes_written), 10240.0));
    return ios_sadd(bins(r, L->rbin0, 0, 3), bins(r, L->wbin0, 0, 3));
}
