/*
 * publish.c - from live records to the counters written in the log.
 *
 *   trc_publish      one record of this process: the top-4 stride/access
 *                    counters are chosen from the tracked candidates
 *   trc_reduce       the records of one file that every rank has, combined
 *                    into one rank -1 record (format spec 11)
 *   trc_serialize_all / trc_parse_proc   the byte form ranks send to rank 0
 *
 * How each counter is combined is a table per layer (kind_of_counter), so
 * the reduction code itself is the same for POSIX, MPI-IO and STDIO.
 */
#include <stdlib.h>
#include <string.h>

#include "iosage/counters.h"
#include "trace.h"

/* --- layer shapes ------------------------------------------------------------ */

/* See trace.h. */
int trc_layer_nc(int layer)
{
    static const int n[TRC_NLAYERS] = {
        IOSAGE_POSIX_NUM_COUNTERS, IOSAGE_MPIIO_NUM_COUNTERS,
        IOSAGE_STDIO_NUM_COUNTERS, IOSAGE_H5F_NUM_COUNTERS,
        IOSAGE_H5D_NUM_COUNTERS, IOSAGE_PNETCDF_FILE_NUM_COUNTERS,
        IOSAGE_PNETCDF_VAR_NUM_COUNTERS, TRC_NC};
    return n[layer];
}

/* See trace.h. */
int trc_layer_nf(int layer)
{
    static const int n[TRC_NLAYERS] = {
        IOSAGE_POSIX_NUM_FCOUNTERS, IOSAGE_MPIIO_NUM_FCOUNTERS,
        IOSAGE_STDIO_NUM_FCOUNTERS, IOSAGE_H5F_NUM_FCOUNTERS,
        IOSAGE_H5D_NUM_FCOUNTERS, IOSAGE_PNETCDF_FILE_NUM_FCOUNTERS,
        IOSAGE_PNETCDF_VAR_NUM_FCOUNTERS, 0};
    return n[layer];
}

/* Indices the reduction needs, per layer; -1 where the layer has none. */
struct layer_idx {
    int bytes_read, bytes_written;
    int fastest_rank, fastest_bytes, slowest_rank, slowest_bytes;
    int t_read, t_write, t_meta;
    int t_fastest, t_slowest, var_time, var_bytes;
    int access_val, access_cnt; /* first of 4 each */
    int stride_val, stride_cnt;
    int max_rsize, max_wsize, t_max_read, t_max_write;
    int ts_first, ts_last; /* the *_TIMESTAMP doubles, a contiguous range */
};

static const struct layer_idx idx_tab[TRC_NLAYERS] = {
    [TRC_POSIX] = {IOSAGE_POSIX_BYTES_READ, IOSAGE_POSIX_BYTES_WRITTEN,
                   IOSAGE_POSIX_FASTEST_RANK, IOSAGE_POSIX_FASTEST_RANK_BYTES,
                   IOSAGE_POSIX_SLOWEST_RANK, IOSAGE_POSIX_SLOWEST_RANK_BYTES,
                   IOSAGE_POSIX_F_READ_TIME, IOSAGE_POSIX_F_WRITE_TIME,
                   IOSAGE_POSIX_F_META_TIME, IOSAGE_POSIX_F_FASTEST_RANK_TIME,
                   IOSAGE_POSIX_F_SLOWEST_RANK_TIME,
                   IOSAGE_POSIX_F_VARIANCE_RANK_TIME,
                   IOSAGE_POSIX_F_VARIANCE_RANK_BYTES,
                   IOSAGE_POSIX_ACCESS1_ACCESS, IOSAGE_POSIX_ACCESS1_COUNT,
                   IOSAGE_POSIX_STRIDE1_STRIDE, IOSAGE_POSIX_STRIDE1_COUNT,
                   IOSAGE_POSIX_MAX_READ_TIME_SIZE,
                   IOSAGE_POSIX_MAX_WRITE_TIME_SIZE,
                   IOSAGE_POSIX_F_MAX_READ_TIME, IOSAGE_POSIX_F_MAX_WRITE_TIME,
                   IOSAGE_POSIX_F_OPEN_START_TIMESTAMP,
                   IOSAGE_POSIX_F_CLOSE_END_TIMESTAMP},
    [TRC_MPIIO] = {IOSAGE_MPIIO_BYTES_READ, IOSAGE_MPIIO_BYTES_WRITTEN,
                   IOSAGE_MPIIO_FASTEST_RANK, IOSAGE_MPIIO_FASTEST_RANK_BYTES,
                   IOSAGE_MPIIO_SLOWEST_RANK, IOSAGE_MPIIO_SLOWEST_RANK_BYTES,
                   IOSAGE_MPIIO_F_READ_TIME, IOSAGE_MPIIO_F_WRITE_TIME,
                   IOSAGE_MPIIO_F_META_TIME, IOSAGE_MPIIO_F_FASTEST_RANK_TIME,
                   IOSAGE_MPIIO_F_SLOWEST_RANK_TIME,
                   IOSAGE_MPIIO_F_VARIANCE_RANK_TIME,
                   IOSAGE_MPIIO_F_VARIANCE_RANK_BYTES,
                   IOSAGE_MPIIO_ACCESS1_ACCESS, IOSAGE_MPIIO_ACCESS1_COUNT,
                   -1, -1,
                   IOSAGE_MPIIO_MAX_READ_TIME_SIZE,
                   IOSAGE_MPIIO_MAX_WRITE_TIME_SIZE,
                   IOSAGE_MPIIO_F_MAX_READ_TIME, IOSAGE_MPIIO_F_MAX_WRITE_TIME,
                   IOSAGE_MPIIO_F_OPEN_START_TIMESTAMP,
                   IOSAGE_MPIIO_F_CLOSE_END_TIMESTAMP},
    [TRC_STDIO] = {IOSAGE_STDIO_BYTES_READ, IOSAGE_STDIO_BYTES_WRITTEN,
                   IOSAGE_STDIO_FASTEST_RANK, IOSAGE_STDIO_FASTEST_RANK_BYTES,
                   IOSAGE_STDIO_SLOWEST_RANK, IOSAGE_STDIO_SLOWEST_RANK_BYTES,
                   IOSAGE_STDIO_F_READ_TIME, IOSAGE_STDIO_F_WRITE_TIME,
                   IOSAGE_STDIO_F_META_TIME, IOSAGE_STDIO_F_FASTEST_RANK_TIME,
                   IOSAGE_STDIO_F_SLOWEST_RANK_TIME,
                   IOSAGE_STDIO_F_VARIANCE_RANK_TIME,
                   IOSAGE_STDIO_F_VARIANCE_RANK_BYTES,
                   -1, -1, -1, -1, -1, -1, -1, -1,
                   IOSAGE_STDIO_F_OPEN_START_TIMESTAMP,
                   IOSAGE_STDIO_F_READ_END_TIMESTAMP},
    [TRC_H5F] = {-1, -1, -1, -1, -1, -1,
                 -1, -1, IOSAGE_H5F_F_META_TIME, -1, -1, -1, -1,
                 -1, -1, -1, -1, -1, -1, -1, -1,
                 IOSAGE_H5F_F_OPEN_START_TIMESTAMP,
                 IOSAGE_H5F_F_CLOSE_END_TIMESTAMP},
    /* H5D access tuples are not value/count pairs: see put_tuples */
    [TRC_H5D] = {IOSAGE_H5D_BYTES_READ, IOSAGE_H5D_BYTES_WRITTEN,
                 IOSAGE_H5D_FASTEST_RANK, IOSAGE_H5D_FASTEST_RANK_BYTES,
                 IOSAGE_H5D_SLOWEST_RANK, IOSAGE_H5D_SLOWEST_RANK_BYTES,
                 IOSAGE_H5D_F_READ_TIME, IOSAGE_H5D_F_WRITE_TIME,
                 IOSAGE_H5D_F_META_TIME, IOSAGE_H5D_F_FASTEST_RANK_TIME,
                 IOSAGE_H5D_F_SLOWEST_RANK_TIME,
                 IOSAGE_H5D_F_VARIANCE_RANK_TIME,
                 IOSAGE_H5D_F_VARIANCE_RANK_BYTES,
                 -1, -1, -1, -1,
                 IOSAGE_H5D_MAX_READ_TIME_SIZE,
                 IOSAGE_H5D_MAX_WRITE_TIME_SIZE,
                 IOSAGE_H5D_F_MAX_READ_TIME, IOSAGE_H5D_F_MAX_WRITE_TIME,
                 IOSAGE_H5D_F_OPEN_START_TIMESTAMP,
                 IOSAGE_H5D_F_CLOSE_END_TIMESTAMP},
    [TRC_PNCF] = {-1, -1, -1, -1, -1, -1,
                  -1, -1, IOSAGE_PNETCDF_FILE_F_META_TIME, -1, -1, -1, -1,
                  -1, -1, -1, -1, -1, -1, -1, -1,
                  IOSAGE_PNETCDF_FILE_F_OPEN_START_TIMESTAMP,
                  IOSAGE_PNETCDF_FILE_F_WAIT_END_TIMESTAMP},
    [TRC_PNCV] = {IOSAGE_PNETCDF_VAR_BYTES_READ,
                  IOSAGE_PNETCDF_VAR_BYTES_WRITTEN,
                  IOSAGE_PNETCDF_VAR_FASTEST_RANK,
                  IOSAGE_PNETCDF_VAR_FASTEST_RANK_BYTES,
                  IOSAGE_PNETCDF_VAR_SLOWEST_RANK,
                  IOSAGE_PNETCDF_VAR_SLOWEST_RANK_BYTES,
                  IOSAGE_PNETCDF_VAR_F_READ_TIME, IOSAGE_PNETCDF_VAR_F_WRITE_TIME,
                  IOSAGE_PNETCDF_VAR_F_META_TIME,
                  IOSAGE_PNETCDF_VAR_F_FASTEST_RANK_TIME,
                  IOSAGE_PNETCDF_VAR_F_SLOWEST_RANK_TIME,
                  IOSAGE_PNETCDF_VAR_F_VARIANCE_RANK_TIME,
                  IOSAGE_PNETCDF_VAR_F_VARIANCE_RANK_BYTES,
                  -1, -1, -1, -1,
                  IOSAGE_PNETCDF_VAR_MAX_READ_TIME_SIZE,
                  IOSAGE_PNETCDF_VAR_MAX_WRITE_TIME_SIZE,
                  IOSAGE_PNETCDF_VAR_F_MAX_READ_TIME,
                  IOSAGE_PNETCDF_VAR_F_MAX_WRITE_TIME,
                  IOSAGE_PNETCDF_VAR_F_OPEN_START_TIMESTAMP,
                  IOSAGE_PNETCDF_VAR_F_CLOSE_END_TIMESTAMP},
    /* LUSTRE: a layout (lustre.c), nothing to rank or time-stamp */
    [TRC_LUSTRE] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                    -1, -1, -1, -1, -1, -1, -1, -1, 0, -1},
};

/* Where a layer's access tuples go: the first group and the first count. */
static void tuple_base(int layer, int *val0, int *cnt0)
{
    *val0 = layer == TRC_H5D ? IOSAGE_H5D_ACCESS1_ACCESS
                             : IOSAGE_PNETCDF_VAR_ACCESS1_ACCESS;
    *cnt0 = layer == TRC_H5D ? IOSAGE_H5D_ACCESS1_COUNT
                             : IOSAGE_PNETCDF_VAR_ACCESS1_COUNT;
}

/* --- H5D access tuples ------------------------------------------------------ */

/* Order of tuples: count descending, then the values descending. */
static int tuple_cmp(const void *a, const void *b)
{
    const struct trc_tuple *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    for (int i = 0; i < TRC_TUPLE_LEN; i++)
        if (x->v[i] != y->v[i])
            return x->v[i] < y->v[i] ? 1 : -1;
    return 0;
}

/* Write the four most frequent of n tuples to the counters of layer
 * (groups of 11 values from ACCESS1_ACCESS, counts from ACCESS1_COUNT). */
static void put_tuples(struct trc_tuple *t, int n, int layer, int64_t *c)
{
    int val0, cnt0;
    tuple_base(layer, &val0, &cnt0);
    qsort(t, (size_t)n, sizeof *t, tuple_cmp);
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < TRC_TUPLE_LEN; j++)
            c[val0 + TRC_TUPLE_LEN * i + j] = i < n ? t[i].v[j] : 0;
        c[cnt0 + i] = i < n ? t[i].count : 0;
    }
}

/* The ranks' top-4 tuples merged: equal tuples add their counts. */
static void merge_tuples(const struct trc_pub *const *recs, int n,
                         struct trc_pub *out)
{
    struct trc_tuple *t = calloc((size_t)n * 4 + 1, sizeof *t);
    int m = 0, val0, cnt0;
    if (!t)
        return;
    tuple_base(out->layer, &val0, &cnt0);
    for (int k = 0; k < n; k++) {
        for (int i = 0; i < 4; i++) {
            struct trc_tuple x;
            x.count = recs[k]->c[cnt0 + i];
            memcpy(x.v, &recs[k]->c[val0 + TRC_TUPLE_LEN * i], sizeof x.v);
            if (x.count == 0)
                continue;
            int j = 0;
            while (j < m && memcmp(t[j].v, x.v, sizeof x.v) != 0)
                j++;
            if (j == m)
                t[m++] = (struct trc_tuple){.count = 0};
            memcpy(t[j].v, x.v, sizeof x.v);
            t[j].count += x.count;
        }
    }
    put_tuples(t, m, out->layer, out->c);
    free(t);
}

/* --- publishing ------------------------------------------------------------ */

/* Order of top-4 slots: count descending, then value descending. */
static int vc_cmp(const void *a, const void *b)
{
    const struct trc_vc *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    if (x->val != y->val)
        return x->val < y->val ? 1 : -1;
    return 0;
}

/* Write the four most frequent of n candidates to c[val0..+3] and
 * c[cnt0..+3]; unused slots are 0/0. v is sorted in place. */
static void put_top4(struct trc_vc *v, int n, int64_t *c, int val0, int cnt0)
{
    qsort(v, (size_t)n, sizeof *v, vc_cmp);
    for (int i = 0; i < 4; i++) {
        c[val0 + i] = i < n ? v[i].val : 0;
        c[cnt0 + i] = i < n ? v[i].count : 0;
    }
}

/* See trace.h. */
void trc_publish(const struct trc_rec *r, int64_t rank, struct trc_pub *out)
{
    const struct layer_idx *ix = &idx_tab[r->layer];
    struct trc_vc tmp[TRC_CANDIDATES];
    memset(out, 0, sizeof *out);
    out->layer = r->layer;
    out->rank = rank;
    out->id = r->id;
    out->name = r->name;
    memcpy(out->c, r->c, sizeof out->c);
    memcpy(out->f, r->f, sizeof out->f);
    if (ix->access_val >= 0) {
        memcpy(tmp, r->access, sizeof tmp);
        put_top4(tmp, r->n_access, out->c, ix->access_val, ix->access_cnt);
    }
    if (ix->stride_val >= 0) {
        memcpy(tmp, r->stride, sizeof tmp);
        put_top4(tmp, r->n_stride, out->c, ix->stride_val, ix->stride_cnt);
    }
    if (r->tuples) {
        struct trc_tuple tt[TRC_CANDIDATES];
        memcpy(tt, r->tuples, sizeof tt);
        put_tuples(tt, r->n_tuples, r->layer, out->c);
    }
    /* Timestamps count from the job's start (MPI_Init for MPI programs);
     * anything before it (I/O between the tracer's start and MPI_Init)
     * is stamped at the start itself. 0 stays "never happened". */
    for (int i = ix->ts_first; i <= ix->ts_last; i++) {
        if (out->f[i] != 0.0) {
            out->f[i] -= g_origin;
            if (out->f[i] <= 0.0)
                out->f[i] = 1e-9;
        }
    }
}

/* --- reduction ------------------------------------------------------------- */

/* How a counter combines over ranks (format spec 11). */
enum kind {
    K_SUM = 0,     /* default */
    K_MAX,         /* MAX_BYTE_*, *_END_TIMESTAMP */
    K_FIRST,       /* alignments, RENAMED_FROM: rank 0's value */
    K_LAST,        /* POSIX_MODE: the last rank's value (below) */
    K_MIN_NZ,      /* *_START_TIMESTAMP: minimum ignoring zeros */
    K_SPECIAL      /* top-4, max time + size, fastest/slowest, variance */
};

static void posix_kinds(unsigned char *ck, unsigned char *fk)
{
    ck[IOSAGE_POSIX_MAX_BYTE_READ] = ck[IOSAGE_POSIX_MAX_BYTE_WRITTEN] = K_MAX;
    /* The runtime's reduction keeps one rank's MODE, and its logs show it is
     * not rank 0's: of a file ROMIO opens for MPI-IO, only rank 0 creates
     * it (mode 0644) and the shared record has the other ranks' 0. */
    ck[IOSAGE_POSIX_MODE] = K_LAST;
    ck[IOSAGE_POSIX_MEM_ALIGNMENT] = K_FIRST;
    ck[IOSAGE_POSIX_FILE_ALIGNMENT] = ck[IOSAGE_POSIX_RENAMED_FROM] = K_FIRST;
    for (int i = IOSAGE_POSIX_STRIDE1_STRIDE; i <= IOSAGE_POSIX_SLOWEST_RANK_BYTES;
         i++)
        ck[i] = K_SPECIAL;
    ck[IOSAGE_POSIX_MAX_READ_TIME_SIZE] = K_SPECIAL;
    ck[IOSAGE_POSIX_MAX_WRITE_TIME_SIZE] = K_SPECIAL;
    for (int i = IOSAGE_POSIX_F_OPEN_START_TIMESTAMP;
         i <= IOSAGE_POSIX_F_CLOSE_START_TIMESTAMP; i++)
        fk[i] = K_MIN_NZ;
    for (int i = IOSAGE_POSIX_F_OPEN_END_TIMESTAMP;
         i <= IOSAGE_POSIX_F_CLOSE_END_TIMESTAMP; i++)
        fk[i] = K_MAX;
    for (int i = IOSAGE_POSIX_F_MAX_READ_TIME;
         i <= IOSAGE_POSIX_F_VARIANCE_RANK_BYTES; i++)
        fk[i] = K_SPECIAL;
}

static void mpiio_kinds(unsigned char *ck, unsigned char *fk)
{
    ck[IOSAGE_MPIIO_MODE] = K_FIRST;
    ck[IOSAGE_MPIIO_MAX_READ_TIME_SIZE] = K_SPECIAL;
    ck[IOSAGE_MPIIO_MAX_WRITE_TIME_SIZE] = K_SPECIAL;
    for (int i = IOSAGE_MPIIO_ACCESS1_ACCESS; i <= IOSAGE_MPIIO_SLOWEST_RANK_BYTES;
         i++)
        ck[i] = K_SPECIAL;
    for (int i = IOSAGE_MPIIO_F_OPEN_START_TIMESTAMP;
         i <= IOSAGE_MPIIO_F_CLOSE_START_TIMESTAMP; i++)
        fk[i] = K_MIN_NZ;
    for (int i = IOSAGE_MPIIO_F_OPEN_END_TIMESTAMP;
         i <= IOSAGE_MPIIO_F_CLOSE_END_TIMESTAMP; i++)
        fk[i] = K_MAX;
    for (int i = IOSAGE_MPIIO_F_MAX_READ_TIME;
         i <= IOSAGE_MPIIO_F_VARIANCE_RANK_BYTES; i++)
        fk[i] = K_SPECIAL;
}

static void stdio_kinds(unsigned char *ck, unsigned char *fk)
{
    ck[IOSAGE_STDIO_MAX_BYTE_READ] = ck[IOSAGE_STDIO_MAX_BYTE_WRITTEN] = K_MAX;
    for (int i = IOSAGE_STDIO_FASTEST_RANK; i <= IOSAGE_STDIO_SLOWEST_RANK_BYTES;
         i++)
        ck[i] = K_SPECIAL;
    for (int i = IOSAGE_STDIO_F_OPEN_START_TIMESTAMP;
         i <= IOSAGE_STDIO_F_READ_START_TIMESTAMP; i++)
        fk[i] = K_MIN_NZ;
    for (int i = IOSAGE_STDIO_F_OPEN_END_TIMESTAMP;
         i <= IOSAGE_STDIO_F_READ_END_TIMESTAMP; i++)
        fk[i] = K_MAX;
    for (int i = IOSAGE_STDIO_F_FASTEST_RANK_TIME;
         i <= IOSAGE_STDIO_F_VARIANCE_RANK_BYTES; i++)
        fk[i] = K_SPECIAL;
}

static void h5f_kinds(unsigned char *ck, unsigned char *fk)
{
    ck[IOSAGE_H5F_USE_MPIIO] = K_MAX; /* 0/1: any rank */
    fk[IOSAGE_H5F_F_OPEN_START_TIMESTAMP] = K_MIN_NZ;
    fk[IOSAGE_H5F_F_CLOSE_START_TIMESTAMP] = K_MIN_NZ;
    fk[IOSAGE_H5F_F_OPEN_END_TIMESTAMP] = K_MAX;
    fk[IOSAGE_H5F_F_CLOSE_END_TIMESTAMP] = K_MAX;
}

static void h5d_kinds(unsigned char *ck, unsigned char *fk)
{
    for (int i = IOSAGE_H5D_ACCESS1_ACCESS; i <= IOSAGE_H5D_ACCESS4_COUNT; i++)
        ck[i] = K_SPECIAL;
    ck[IOSAGE_H5D_MAX_READ_TIME_SIZE] = K_SPECIAL;
    ck[IOSAGE_H5D_MAX_WRITE_TIME_SIZE] = K_SPECIAL;
    /* what the dataset is: one rank's value */
    for (int i = IOSAGE_H5D_DATASPACE_NDIMS; i <= IOSAGE_H5D_CHUNK_SIZE_D5; i++)
        ck[i] = K_FIRST;
    ck[IOSAGE_H5D_USE_MPIIO_COLLECTIVE] = K_MAX; /* logical or */
    ck[IOSAGE_H5D_USE_DEPRECATED] = K_MAX;
    for (int i = IOSAGE_H5D_FASTEST_RANK; i <= IOSAGE_H5D_SLOWEST_RANK_BYTES;
         i++)
        ck[i] = K_SPECIAL;
    for (int i = IOSAGE_H5D_F_OPEN_START_TIMESTAMP;
         i <= IOSAGE_H5D_F_CLOSE_START_TIMESTAMP; i++)
        fk[i] = K_MIN_NZ;
    for (int i = IOSAGE_H5D_F_OPEN_END_TIMESTAMP;
         i <= IOSAGE_H5D_F_CLOSE_END_TIMESTAMP; i++)
        fk[i] = K_MAX;
    for (int i = IOSAGE_H5D_F_MAX_READ_TIME;
         i <= IOSAGE_H5D_F_VARIANCE_RANK_BYTES; i++)
        fk[i] = K_SPECIAL;
}

static void pncf_kinds(unsigned char *ck, unsigned char *fk)
{
    (void)ck; /* every int64 counter sums */
    for (int i = IOSAGE_PNETCDF_FILE_F_OPEN_START_TIMESTAMP;
         i <= IOSAGE_PNETCDF_FILE_F_WAIT_START_TIMESTAMP; i++)
        fk[i] = K_MIN_NZ;
    for (int i = IOSAGE_PNETCDF_FILE_F_OPEN_END_TIMESTAMP;
         i <= IOSAGE_PNETCDF_FILE_F_WAIT_END_TIMESTAMP; i++)
        fk[i] = K_MAX;
}

static void pncv_kinds(unsigned char *ck, unsigned char *fk)
{
    for (int i = IOSAGE_PNETCDF_VAR_ACCESS1_ACCESS;
         i <= IOSAGE_PNETCDF_VAR_ACCESS4_COUNT; i++)
        ck[i] = K_SPECIAL;
    ck[IOSAGE_PNETCDF_VAR_MAX_READ_TIME_SIZE] = K_SPECIAL;
    ck[IOSAGE_PNETCDF_VAR_MAX_WRITE_TIME_SIZE] = K_SPECIAL;
    /* what the variable is: one rank's value */
    for (int i = IOSAGE_PNETCDF_VAR_NDIMS; i <= IOSAGE_PNETCDF_VAR_IS_RECORD_VAR;
         i++)
        ck[i] = K_FIRST;
    for (int i = IOSAGE_PNETCDF_VAR_FASTEST_RANK;
         i <= IOSAGE_PNETCDF_VAR_SLOWEST_RANK_BYTES; i++)
        ck[i] = K_SPECIAL;
    for (int i = IOSAGE_PNETCDF_VAR_F_OPEN_START_TIMESTAMP;
         i <= IOSAGE_PNETCDF_VAR_F_CLOSE_START_TIMESTAMP; i++)
        fk[i] = K_MIN_NZ;
    for (int i = IOSAGE_PNETCDF_VAR_F_OPEN_END_TIMESTAMP;
         i <= IOSAGE_PNETCDF_VAR_F_CLOSE_END_TIMESTAMP; i++)
        fk[i] = K_MAX;
    for (int i = IOSAGE_PNETCDF_VAR_F_MAX_READ_TIME;
         i <= IOSAGE_PNETCDF_VAR_F_VARIANCE_RANK_BYTES; i++)
        fk[i] = K_SPECIAL;
}

/* The kind tables of a layer, built on first use (single-threaded: only the
 * writing rank reduces, at shutdown). */
static void kinds_of(int layer, const unsigned char **ck,
                     const unsigned char **fk)
{
    static unsigned char c[TRC_NLAYERS][TRC_NC], f[TRC_NLAYERS][TRC_NF];
    static int built;
    if (!built) {
        posix_kinds(c[TRC_POSIX], f[TRC_POSIX]);
        mpiio_kinds(c[TRC_MPIIO], f[TRC_MPIIO]);
        stdio_kinds(c[TRC_STDIO], f[TRC_STDIO]);
        h5f_kinds(c[TRC_H5F], f[TRC_H5F]);
        h5d_kinds(c[TRC_H5D], f[TRC_H5D]);
        pncf_kinds(c[TRC_PNCF], f[TRC_PNCF]);
        pncv_kinds(c[TRC_PNCV], f[TRC_PNCV]);
        built = 1;
    }
    *ck = c[layer];
    *fk = f[layer];
}

/* Plain counters: sums, maxima, first values, earliest non-zero starts. */
static void reduce_plain(const struct trc_pub *const *recs, int n,
                         struct trc_pub *out)
{
    const unsigned char *ck, *fk;
    kinds_of(out->layer, &ck, &fk);
    for (int i = 0; i < trc_layer_nc(out->layer); i++) {
        int64_t v = recs[0]->c[i];
        for (int k = 1; k < n; k++) {
            int64_t x = recs[k]->c[i];
            if (ck[i] == K_SUM)
                v += x;
            else if (ck[i] == K_MAX && x > v)
                v = x;
            else if (ck[i] == K_LAST)
                v = x;
        }
        if (ck[i] == K_SUM && out->layer == TRC_POSIX && v < 0)
            v = -1; /* POSIX clamps negative sums to -1 */
        out->c[i] = ck[i] == K_SPECIAL ? 0 : v;
    }
    for (int i = 0; i < trc_layer_nf(out->layer); i++) {
        double v = recs[0]->f[i];
        for (int k = 1; k < n; k++) {
            double x = recs[k]->f[i];
            if (fk[i] == K_SUM)
                v += x;
            else if (fk[i] == K_MAX && x > v)
                v = x;
            else if (fk[i] == K_MIN_NZ && x > 0.0 && (v == 0.0 || x < v))
                v = x;
        }
        out->f[i] = fk[i] == K_SPECIAL ? 0.0 : v;
    }
}

/* Merge the top-4 slots of every rank: equal values add their counts, the
 * four most frequent survive. */
static void merge_top4(const struct trc_pub *const *recs, int n, int val0,
                       int cnt0, struct trc_pub *out)
{
    struct trc_vc *v = calloc((size_t)n * 4 + 1, sizeof *v);
    int m = 0;
    if (!v)
        return;
    for (int k = 0; k < n; k++) {
        for (int s = 0; s < 4; s++) {
            int64_t val = recs[k]->c[val0 + s], cnt = recs[k]->c[cnt0 + s];
            int j = 0;
            if (val == 0 || cnt == 0)
                continue;
            while (j < m && v[j].val != val)
                j++;
            if (j == m) {
                v[m].val = val;
                v[m++].count = 0;
            }
            v[j].count += cnt;
        }
    }
    put_top4(v, m, out->c, val0, cnt0);
    free(v);
}

/* The larger of the ranks' slowest single reads (writes), with its size. */
static void reduce_max_time(const struct trc_pub *const *recs, int n,
                            int size_idx, int time_idx, struct trc_pub *out)
{
    for (int k = 0; k < n; k++) {
        if (k == 0 || recs[k]->f[time_idx] > out->f[time_idx]) {
            out->f[time_idx] = recs[k]->f[time_idx];
            out->c[size_idx] = recs[k]->c[size_idx];
        }
    }
}

/* I/O time and bytes of one rank's record (spec 10.7). */
static double rank_time(const struct trc_pub *p, const struct layer_idx *ix)
{
    return (ix->t_read >= 0 ? p->f[ix->t_read] : 0.0) +
           (ix->t_write >= 0 ? p->f[ix->t_write] : 0.0) + p->f[ix->t_meta];
}

static int64_t rank_bytes(const struct trc_pub *p, const struct layer_idx *ix)
{
    if (ix->bytes_read < 0)
        return 0;
    return p->c[ix->bytes_read] + p->c[ix->bytes_written];
}

/* Fastest and slowest rank by read+write+meta time, and the population
 * variances of per-rank time and bytes (two passes, so large byte counts
 * do not cancel). Ties go to the lowest rank. */
static void reduce_ranks(const struct trc_pub *const *recs, int n,
                         const struct layer_idx *ix, struct trc_pub *out)
{
    int fast = 0, slow = 0;
    double mean_t = 0, mean_b = 0;
    for (int k = 0; k < n; k++) {
        double t = rank_time(recs[k], ix);
        if (t < rank_time(recs[fast], ix))
            fast = k;
        if (t > rank_time(recs[slow], ix))
            slow = k;
        mean_t += t / n;
        mean_b += (double)rank_bytes(recs[k], ix) / n;
    }
    double var_t = 0, var_b = 0;
    for (int k = 0; k < n; k++) {
        double dt = rank_time(recs[k], ix) - mean_t;
        double db = (double)rank_bytes(recs[k], ix) - mean_b;
        var_t += dt * dt / n;
        var_b += db * db / n;
    }
    out->c[ix->fastest_rank] = recs[fast]->rank;
    out->c[ix->fastest_bytes] = rank_bytes(recs[fast], ix);
    out->f[ix->t_fastest] = rank_time(recs[fast], ix);
    out->c[ix->slowest_rank] = recs[slow]->rank;
    out->c[ix->slowest_bytes] = rank_bytes(recs[slow], ix);
    out->f[ix->t_slowest] = rank_time(recs[slow], ix);
    out->f[ix->var_time] = var_t;
    out->f[ix->var_bytes] = var_b;
}

/* See trace.h. */
void trc_reduce(const struct trc_pub *const *recs, int n, struct trc_pub *out)
{
    const struct layer_idx *ix = &idx_tab[recs[0]->layer];
    memset(out, 0, sizeof *out);
    out->layer = recs[0]->layer;
    out->rank = -1;
    out->id = recs[0]->id;
    out->name = recs[0]->name;
    if (out->layer == TRC_LUSTRE) { /* one layout: every rank saw the same */
        memcpy(out->c, recs[0]->c, sizeof out->c);
        return;
    }
    reduce_plain(recs, n, out);
    if (ix->access_val >= 0)
        merge_top4(recs, n, ix->access_val, ix->access_cnt, out);
    if (ix->stride_val >= 0)
        merge_top4(recs, n, ix->stride_val, ix->stride_cnt, out);
    if (out->layer == TRC_H5D || out->layer == TRC_PNCV)
        merge_tuples(recs, n, out);
    if (ix->max_rsize >= 0) {
        reduce_max_time(recs, n, ix->max_rsize, ix->t_max_read, out);
        reduce_max_time(recs, n, ix->max_wsize, ix->t_max_write, out);
    }
    if (ix->fastest_rank >= 0) /* H5F has no rank statistics */
        reduce_ranks(recs, n, ix, out);
}

/* --- serialization --------------------------------------------------------- */
/*
 * Process blob (native byte order; all ranks of a job share the machine
 * type):
 *   int64 start_sec, start_nsec, end_sec, end_nsec, partial_mask, n
 *   n times: int32 layer, int32 name_len (with NUL), uint64 id, int64 rank,
 *            int64 c[nc(layer)], double f[nf(layer)], name bytes + NUL
 *   int64 rank, then struct trc_heat for each layer
 */

/* See trace.h. */
void trc_buf_put(struct trc_buf *b, const void *src, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + n)
            cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, src, n);
    b->len += n;
}

static void put_i64(struct trc_buf *b, int64_t v)
{
    trc_buf_put(b, &v, sizeof v);
}

static void put_pub(struct trc_buf *b, const struct trc_pub *p)
{
    int32_t layer = p->layer;
    int32_t nlen = (int32_t)strlen(p->name) + 1;
    trc_buf_put(b, &layer, sizeof layer);
    trc_buf_put(b, &nlen, sizeof nlen);
    trc_buf_put(b, &p->id, sizeof p->id);
    put_i64(b, p->rank);
    trc_buf_put(b, p->c, sizeof p->c[0] * (size_t)trc_layer_nc(p->layer));
    trc_buf_put(b, p->f, sizeof p->f[0] * (size_t)trc_layer_nf(p->layer));
    trc_buf_put(b, p->name, (size_t)nlen);
}

/* See trace.h. */
void trc_serialize_all(struct trc_buf *b, int64_t rank,
                       const struct timespec *end)
{
    int64_t n = 0, partial = 0;
    for (int l = 0; l < TRC_NLAYERS; l++) {
        for (const struct trc_rec *r = trc_rec_first(l); r; r = r->lnext)
            n += !(g_forked && trc_rec_pristine(r));
        if (trc_layer_partial(l))
            partial |= (int64_t)1 << l;
    }
    /* The job's start: the tracer's start moved on by g_origin. */
    int64_t ns = (int64_t)g_t0_wall.tv_nsec + (int64_t)(g_origin * 1e9);
    put_i64(b, (int64_t)g_t0_wall.tv_sec + ns / 1000000000);
    put_i64(b, ns % 1000000000);
    put_i64(b, (int64_t)end->tv_sec);
    put_i64(b, (int64_t)end->tv_nsec);
    put_i64(b, partial);
    put_i64(b, n);
    struct trc_pub pub;
    for (int l = 0; l < TRC_NLAYERS; l++) {
        for (const struct trc_rec *r = trc_rec_first(l); r; r = r->lnext) {
            if (g_forked && trc_rec_pristine(r))
                continue; /* the parent's file, untouched by this child */
            trc_publish(r, rank, &pub);
            put_pub(b, &pub);
        }
    }
    /* then: int64 rank, and the heatmap of each layer as it is in memory */
    put_i64(b, rank);
    for (int l = 0; l < TRC_HEAT_LAYERS; l++)
        trc_buf_put(b, trc_heat_of(l), sizeof(struct trc_heat));
}

/* A bounded reader over a blob. */
struct cursor {
    const unsigned char *p;
    size_t left;
};

static int take(struct cursor *cu, void *dst, size_t n)
{
    if (n > cu->left)
        return -1;
    memcpy(dst, cu->p, n);
    cu->p += n;
    cu->left -= n;
    return 0;
}

/* One record from the cursor; the name points into the blob. */
static int parse_pub(struct cursor *cu, struct trc_pub *p)
{
    int32_t layer, nlen;
    memset(p, 0, sizeof *p);
    if (take(cu, &layer, 4) || take(cu, &nlen, 4) || layer < 0 ||
        layer >= TRC_NLAYERS || nlen < 1)
        return -1;
    p->layer = layer;
    size_t nc = (size_t)trc_layer_nc(layer), nf = (size_t)trc_layer_nf(layer);
    if (take(cu, &p->id, 8) || take(cu, &p->rank, 8) ||
        take(cu, p->c, 8 * nc) || take(cu, p->f, 8 * nf) ||
        (size_t)nlen > cu->left || cu->p[nlen - 1] != '\0')
        return -1;
    p->name = (const char *)cu->p;
    cu->p += nlen;
    cu->left -= (size_t)nlen;
    return 0;
}

/* See trace.h. */
int trc_parse_proc(const unsigned char *p, size_t len, struct trc_proc *out)
{
    struct cursor cu = {p, len};
    int64_t n;
    memset(out, 0, sizeof *out);
    if (take(&cu, &out->start_sec, 8) || take(&cu, &out->start_nsec, 8) ||
        take(&cu, &out->end_sec, 8) || take(&cu, &out->end_nsec, 8) ||
        take(&cu, &out->partial_mask, 8) || take(&cu, &n, 8) || n < 0 ||
        (uint64_t)n > len)
        return -1;
    out->recs = calloc((size_t)n + 1, sizeof *out->recs);
    if (!out->recs)
        return -1;
    for (int64_t i = 0; i < n; i++) {
        if (parse_pub(&cu, &out->recs[i]) != 0) {
            free(out->recs);
            out->recs = NULL;
            return -1;
        }
    }
    out->n = (size_t)n;
    int bad = take(&cu, &out->rank, 8) != 0;
    for (int l = 0; l < TRC_HEAT_LAYERS && !bad; l++)
        bad = take(&cu, &out->heat[l], sizeof out->heat[l]) != 0 ||
              (out->heat[l].used && !(out->heat[l].width > 0.0));
    if (bad) {
        free(out->recs);
        out->recs = NULL;
        return -1;
    }
    return 0;
}
