/*
 * src/darshan/mod_hdf5.c - H5F and H5D module codecs (format spec 9.4, 9.5).
 *
 * H5F (the "HDF5" module of 3.00/3.10 logs):
 *
 *   version  layout                        bytes
 *   1        base . int64[1] . double[2]   40   OPENS; OPEN, CLOSE stamps
 *   2        base . int64[1] . double[4]   56   + CLOSE_START, OPEN_END
 *   3        base . int64[3] . double[5]   80   + FLUSHES, USE_MPIIO, META_TIME
 *
 * Up-conversion: v1 -> v2 puts OPEN at OPEN_START and CLOSE at CLOSE_END and
 * sets CLOSE_START = OPEN_END = -1; v2 -> v3 sets FLUSHES = USE_MPIIO = -1
 * and appends F_META_TIME = -1.
 *
 * H5D:
 *
 *   version  layout                                            bytes
 *   1        base . int64[94] . double[17]                     904
 *   2        base . uint64 file_rec_id . int64[94] . double[17] 912
 *
 * v1 -> v2 sets file_rec_id (rec->x.file_ref) to 0. With ctx->compat, a
 * big-endian v2 record keeps file_rec_id unswapped when the log's H5F
 * version is below 2 (or H5F is absent), as the reference reader does.
 */
#include "mod_fixed.h"

static const size_t h5f_sizes[] = {40, 56, 80};
#define H5F_NVERSIONS 3
static const size_t h5d_sizes[] = {904, 912};
#define H5D_NVERSIONS 2

/* Up-convert the doubles of an H5F v1 or v2 record at dp into v3 order. */
static void h5f_old_doubles(const uint8_t *dp, const ios_mod_ctx *ctx,
                            double *dst)
{
    double old[4];
    if (ctx->version == 1) {
        ios_fixed_load_f64s(dp, ctx->swap, old, 2);
        old[3] = old[1]; /* F_CLOSE_TIMESTAMP -> F_CLOSE_END_TIMESTAMP */
        old[1] = -1.0;   /* F_CLOSE_START_TIMESTAMP */
        old[2] = -1.0;   /* F_OPEN_END_TIMESTAMP */
    } else {
        ios_fixed_load_f64s(dp, ctx->swap, old, 4);
    }
    memcpy(dst, old, sizeof old);   /* v2 order = first four of v3 */
    dst[IOSAGE_H5F_F_META_TIME] = -1.0;
}

int ios_h5f_decode(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                   ios_arena *arena, iosage_error *err)
{
    size_t size = ios_fixed_size_or_fail(c, ctx, h5f_sizes, H5F_NVERSIONS,
                                         "H5F", err);
    if (size == 0)
        return IOSAGE_E_UNSUPPORTED;
    if (ios_cur_left(c) < size)
        return IOS_DECODE_SHORT;
    int rc = ios_fixed_alloc(rec, IOSAGE_H5F_NUM_COUNTERS,
                             IOSAGE_H5F_NUM_FCOUNTERS, arena, c, ctx, "H5F",
                             err);
    if (rc != IOSAGE_OK)
        return rc;

    const uint8_t *p = c->p + c->pos;
    const uint8_t *ip = p + IOS_BASE_SIZE;
    ios_fixed_base(p, ctx->swap, rec);
    if (ctx->version == 3) {
        ios_fixed_load_i64s(ip, ctx->swap, rec->counters,
                            IOSAGE_H5F_NUM_COUNTERS);
        ios_fixed_load_f64s(ip + 8 * IOSAGE_H5F_NUM_COUNTERS, ctx->swap,
                            rec->fcounters, IOSAGE_H5F_NUM_FCOUNTERS);
    } else {
        rec->counters[IOSAGE_H5F_OPENS] = ios_load_i64(ip, ctx->swap);
        rec->counters[IOSAGE_H5F_FLUSHES] = -1;
        rec->counters[IOSAGE_H5F_USE_MPIIO] = -1;
        h5f_old_doubles(ip + 8, ctx, rec->fcounters);
    }
    c->pos += size;
    return IOSAGE_OK;
}

iosage_status ios_h5f_encode(const iosage_record *rec, ios_buf *out,
                             iosage_error *err)
{
    iosage_status st = ios_fixed_check(rec, IOSAGE_H5F_NUM_COUNTERS,
                                       IOSAGE_H5F_NUM_FCOUNTERS, "H5F", err);
    if (st != IOSAGE_OK)
        return st;
    ios_fixed_put_base(out, rec);
    ios_fixed_put_i64s(out, rec->counters, IOSAGE_H5F_NUM_COUNTERS);
    ios_fixed_put_f64s(out, rec->fcounters, IOSAGE_H5F_NUM_FCOUNTERS);
    return ios_fixed_done(out, "H5F", err);
}

/* file_rec_id of an H5D v2 record at p (see the file comment). */
static uint64_t h5d_file_rec_id(const uint8_t *p, const ios_mod_ctx *ctx)
{
    int swap = ctx->swap;
    if (ctx->compat && ctx->h5f_version < 2)
        swap = 0;
    return ios_load_u64(p + IOS_BASE_SIZE, swap);
}

int ios_h5d_decode(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                   ios_arena *arena, iosage_error *err)
{
    size_t size = ios_fixed_size_or_fail(c, ctx, h5d_sizes, H5D_NVERSIONS,
                                         "H5D", err);
    if (size == 0)
        return IOSAGE_E_UNSUPPORTED;
    if (ios_cur_left(c) < size)
        return IOS_DECODE_SHORT;
    int rc = ios_fixed_alloc(rec, IOSAGE_H5D_NUM_COUNTERS,
                             IOSAGE_H5D_NUM_FCOUNTERS, arena, c, ctx, "H5D",
                             err);
    if (rc != IOSAGE_OK)
        return rc;

    const uint8_t *p = c->p + c->pos;
    const uint8_t *ip = p + IOS_BASE_SIZE;
    ios_fixed_base(p, ctx->swap, rec);
    rec->x.file_ref.file_rec_id = 0;
    if (ctx->version == 2) {
        rec->x.file_ref.file_rec_id = h5d_file_rec_id(p, ctx);
        ip += 8;
    }
    ios_fixed_load_i64s(ip, ctx->swap, rec->counters,
                        IOSAGE_H5D_NUM_COUNTERS);
    ios_fixed_load_f64s(ip + 8 * IOSAGE_H5D_NUM_COUNTERS, ctx->swap,
                        rec->fcounters, IOSAGE_H5D_NUM_FCOUNTERS);
    c->pos += size;
    return IOSAGE_OK;
}

iosage_status ios_h5d_encode(const iosage_record *rec, ios_buf *out,
                             iosage_error *err)
{
    iosage_status st = ios_fixed_check(rec, IOSAGE_H5D_NUM_COUNTERS,
                                       IOSAGE_H5D_NUM_FCOUNTERS, "H5D", err);
    if (st != IOSAGE_OK)
        return st;
    ios_fixed_put_base(out, rec);
    ios_buf_u64(out, rec->x.file_ref.file_rec_id);
    ios_fixed_put_i64s(out, rec->counters, IOSAGE_H5D_NUM_COUNTERS);
    ios_fixed_put_f64s(out, rec->fcounters, IOSAGE_H5D_NUM_FCOUNTERS);
    return ios_fixed_done(out, "H5D", err);
}
