/*
 * src/darshan/mod_mpiio.c - MPI-IO module codec (format spec 9.2).
 *
 * Stored layouts: base (16 bytes) . int64[51] . double[n_d]
 *
 *   version  n_d  bytes
 *   1, 2     15   544   (v2 only fixed the meaning of a timestamp)
 *   3        17   560   (newest)
 *
 * Up-conversion v1/v2 -> v3 renames the open/close timestamps to
 * OPEN_START/CLOSE_END and inserts CLOSE_START = OPEN_END = -1 (double
 * indices 3, 4). No data is lost and the reference reader has no defect
 * here, so ctx->compat changes nothing.
 */
#include "mod_fixed.h"

#define WHERE "MPI-IO"

static const size_t mpiio_sizes[] = {544, 544, 560};
#define MPIIO_NVERSIONS 3

int ios_mpiio_decode(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                     ios_arena *arena, iosage_error *err)
{
    size_t size = ios_fixed_size_or_fail(c, ctx, mpiio_sizes,
                                         MPIIO_NVERSIONS, WHERE, err);
    if (size == 0)
        return IOSAGE_E_UNSUPPORTED;
    if (ios_cur_left(c) < size)
        return IOS_DECODE_SHORT;
    const uint8_t *p = c->p + c->pos;
    const uint8_t *dp = p + IOS_BASE_SIZE + 8 * IOSAGE_MPIIO_NUM_COUNTERS;
    ios_fixed_base(p, ctx->swap, rec);
    if (ctx->version == 3 &&
        ios_fixed_in_place(c, size, IOSAGE_MPIIO_NUM_COUNTERS,
                           IOSAGE_MPIIO_NUM_FCOUNTERS, ctx, rec))
        return IOSAGE_OK;
    int rc = ios_fixed_alloc(rec, IOSAGE_MPIIO_NUM_COUNTERS,
                             IOSAGE_MPIIO_NUM_FCOUNTERS, arena, c, ctx,
                             WHERE, err);
    if (rc != IOSAGE_OK)
        return rc;
    ios_fixed_load_i64s(p + IOS_BASE_SIZE, ctx->swap, rec->counters,
                        IOSAGE_MPIIO_NUM_COUNTERS);
    if (ctx->version == 3) {
        ios_fixed_load_f64s(dp, ctx->swap, rec->fcounters,
                            IOSAGE_MPIIO_NUM_FCOUNTERS);
    } else {
        double old[15];
        ios_fixed_load_f64s(dp, ctx->swap, old, 15);
        ios_fixed_times15_to_17(old, rec->fcounters);
    }
    c->pos += size;
    return IOSAGE_OK;
}

iosage_status ios_mpiio_encode(const iosage_record *rec, ios_buf *out,
                               iosage_error *err)
{
    iosage_status st = ios_fixed_check(rec, IOSAGE_MPIIO_NUM_COUNTERS,
                                       IOSAGE_MPIIO_NUM_FCOUNTERS, WHERE, err);
    if (st != IOSAGE_OK)
        return st;
    ios_fixed_put_base(out, rec);
    ios_fixed_put_i64s(out, rec->counters, IOSAGE_MPIIO_NUM_COUNTERS);
    ios_fixed_put_f64s(out, rec->fcounters, IOSAGE_MPIIO_NUM_FCOUNTERS);
    return ios_fixed_done(out, WHERE, err);
}
