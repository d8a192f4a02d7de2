/*
 * src/darshan/mod_stdio.c - STDIO module codec (format spec 9.3).
 *
 * Stored layouts: base (16 bytes) . int64[n_i] . double[15]
 *
 *   version  n_i  bytes
 *   1        13   240
 *   2        14   248   (newest: FDOPENS at index 1)
 *
 * Up-conversion v1 -> v2 inserts FDOPENS = -1. The double array (times
 * first, then timestamps) is the same in both versions.
 */
#include "mod_fixed.h"

#define WHERE "STDIO"

static const size_t stdio_sizes[] = {240, 248};
#define STDIO_NVERSIONS 2

int ios_stdio_decode(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                     ios_arena *arena, iosage_error *err)
{
    size_t size = ios_fixed_size_or_fail(c, ctx, stdio_sizes,
                                         STDIO_NVERSIONS, WHERE, err);
    if (size == 0)
        return IOSAGE_E_UNSUPPORTED;
    if (ios_cur_left(c) < size)
        return IOS_DECODE_SHORT;
    const uint8_t *p = c->p + c->pos;
    const uint8_t *ip = p + IOS_BASE_SIZE;
    int n_int = ctx->version == 1 ? 13 : 14;
    ios_fixed_base(p, ctx->swap, rec);
    if (ctx->version == 2 &&
        ios_fixed_in_place(c, size, IOSAGE_STDIO_NUM_COUNTERS,
                           IOSAGE_STDIO_NUM_FCOUNTERS, ctx, rec))
        return IOSAGE_OK;
    int rc = ios_fixed_alloc(rec, IOSAGE_STDIO_NUM_COUNTERS,
                             IOSAGE_STDIO_NUM_FCOUNTERS, arena, c, ctx,
                             WHERE, err);
    if (rc != IOSAGE_OK)
        return rc;
    if (ctx->version == 1) {
        /* OPENS, then FDOPENS = -1, then READS .. SLOWEST_RANK_BYTES */
        rec->counters[IOSAGE_STDIO_OPENS] = ios_load_i64(ip, ctx->swap);
        rec->counters[IOSAGE_STDIO_FDOPENS] = -1;
        ios_fixed_load_i64s(ip + 8, ctx->swap,
                            rec->counters + IOSAGE_STDIO_READS, 12);
    } else {
        ios_fixed_load_i64s(ip, ctx->swap, rec->counters, n_int);
    }
    ios_fixed_load_f64s(ip + 8 * (size_t)n_int, ctx->swap, rec->fcounters,
                        IOSAGE_STDIO_NUM_FCOUNTERS);
    c->pos += size;
    return IOSAGE_OK;
}

iosage_status ios_stdio_encode(const iosage_record *rec, ios_buf *out,
                               iosage_error *err)
{
    iosage_status st = ios_fixed_check(rec, IOSAGE_STDIO_NUM_COUNTERS,
                                       IOSAGE_STDIO_NUM_FCOUNTERS, WHERE, err);
    if (st != IOSAGE_OK)
        return st;
    ios_fixed_put_base(out, rec);
    ios_fixed_put_i64s(out, rec->counters, IOSAGE_STDIO_NUM_COUNTERS);
    ios_fixed_put_f64s(out, rec->fcounters, IOSAGE_STDIO_NUM_FCOUNTERS);
    return ios_fixed_done(out, WHERE, err);
}
