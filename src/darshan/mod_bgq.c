/*
 * src/darshan/mod_bgq.c - BG/Q module codec (format spec 9.8).
 *
 *   version  layout                                              bytes
 *   1        id . rank . int32 (unused) . 4 pad . int64[11] . double[1]  120
 *   2        base . int64[11] . double[1]                        112
 *
 * Up-conversion v1 -> v2 drops the 8 extra bytes; no counter changes.
 */
#include "mod_fixed.h"

#define WHERE "BG/Q"

static const size_t bgq_sizes[] = {120, 112};
#define BGQ_NVERSIONS 2

int ios_bgq_decode(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                   ios_arena *arena, iosage_error *err)
{
    size_t size = ios_fixed_size_or_fail(c, ctx, bgq_sizes, BGQ_NVERSIONS,
                                         WHERE, err);
    if (size == 0)
        return IOSAGE_E_UNSUPPORTED;
    if (ios_cur_left(c) < size)
        return IOS_DECODE_SHORT;
    int rc = ios_fixed_alloc(rec, IOSAGE_BGQ_NUM_COUNTERS,
                             IOSAGE_BGQ_NUM_FCOUNTERS, arena, c, ctx, WHERE,
                             err);
    if (rc != IOSAGE_OK)
        return rc;

    const uint8_t *p = c->p + c->pos;
    const uint8_t *ip = p + IOS_BASE_SIZE;
    if (ctx->version == 1)
        ip += 8; /* unused int32 and its padding */
    ios_fixed_base(p, ctx->swap, rec);
    ios_fixed_load_i64s(ip, ctx->swap, rec->counters,
                        IOSAGE_BGQ_NUM_COUNTERS);
    ios_fixed_load_f64s(ip + 8 * IOSAGE_BGQ_NUM_COUNTERS, ctx->swap,
                        rec->fcounters, IOSAGE_BGQ_NUM_FCOUNTERS);
    c->pos += size;
    return IOSAGE_OK;
}

iosage_status ios_bgq_encode(const iosage_record *rec, ios_buf *out,
                             iosage_error *err)
{
    iosage_status st = ios_fixed_check(rec, IOSAGE_BGQ_NUM_COUNTERS,
                                       IOSAGE_BGQ_NUM_FCOUNTERS, WHERE, err);
    if (st != IOSAGE_OK)
        return st;
    ios_fixed_put_base(out, rec);
    ios_fixed_put_i64s(out, rec->counters, IOSAGE_BGQ_NUM_COUNTERS);
    ios_fixed_put_f64s(out, rec->fcounters, IOSAGE_BGQ_NUM_FCOUNTERS);
    return ios_fixed_done(out, WHERE, err);
}
