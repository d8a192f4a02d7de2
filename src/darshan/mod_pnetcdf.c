/*
 * src/darshan/mod_pnetcdf.c - PNETCDF_FILE and PNETCDF_VAR module codecs
 * (format spec 9.6, 9.7).
 *
 * PNETCDF_FILE (the "PNETCDF" module before 3.41):
 *
 *   version  layout                        bytes
 *   1        base . int64[2] . double[2]   48   INDEP_OPENS, COLL_OPENS;
 *                                               OPEN, CLOSE stamps
 *   2        base . int64[2] . double[4]   64   open/close start and end
 *   3        base . int64[9] . double[8]   152  newest
 *
 * Up-conversion to v3: OPENS = INDEP_OPENS + COLL_OPENS, CREATES and
 * REDEFS .. WAIT_FAILURES = -1; the open/close stamps move to their v3
 * places (v1 OPEN -> OPEN_START, CLOSE -> CLOSE_END), every other double is
 * -1. With ctx->compat a big-endian v1/v2 record gets the reference reader's
 * OPENS: the two stored values added before byte swapping, then swapped.
 *
 * PNETCDF_VAR v1 (1120 bytes): base . uint64 file_rec_id . int64[120] .
 * double[17]; file_rec_id goes to rec->x.file_ref.
 */
#include "mod_fixed.h"

static const size_t file_sizes[] = {48, 64, 152};
#define FILE_NVERSIONS 3
static const size_t var_sizes[] = {1120};
#define VAR_NVERSIONS 1

/* OPENS of a v1/v2 record whose int64 array starts at ip. Unsigned
 * arithmetic: the sum of two stored values may wrap, never trap. */
static int64_t old_opens(const uint8_t *ip, const ios_mod_ctx *ctx)
{
    if (ctx->compat && ctx->swap) {
        uint64_t raw = ios_load_u64(ip, 0) + ios_load_u64(ip + 8, 0);
        return (int64_t)ios_bswap64(raw);
    }
    return (int64_t)(ios_load_u64(ip, ctx->swap) +
                     ios_load_u64(ip + 8, ctx->swap));
}

/* Up-convert a v1/v2 record's arrays (ints at ip) into rec. */
static void file_decode_old(const uint8_t *ip, const ios_mod_ctx *ctx,
                            iosage_record *rec)
{
    double d[4]; /* v2 order: OPEN_START, CLOSE_START, OPEN_END, CLOSE_END */
    int64_t *ci = rec->counters;
    double *cd = rec->fcounters;

    ios_fixed_fill_i64(ci, IOSAGE_PNETCDF_FILE_NUM_COUNTERS, -1);
    ci[IOSAGE_PNETCDF_FILE_OPENS] = old_opens(ip, ctx);

    if (ctx->version == 1) {
        ios_fixed_load_f64s(ip + 16, ctx->swap, d, 2);
        d[3] = d[1]; /* F_CLOSE_TIMESTAMP -> CLOSE_END */
        d[1] = -1.0;
        d[2] = -1.0;
    } else {
        ios_fixed_load_f64s(ip + 16, ctx->swap, d, 4);
    }
    ios_fixed_fill_f64(cd, IOSAGE_PNETCDF_FILE_NUM_FCOUNTERS, -1.0);
    cd[IOSAGE_PNETCDF_FILE_F_OPEN_START_TIMESTAMP] = d[0];
    cd[IOSAGE_PNETCDF_FILE_F_CLOSE_START_TIMESTAMP] = d[1];
    cd[IOSAGE_PNETCDF_FILE_F_OPEN_END_TIMESTAMP] = d[2];
    cd[IOSAGE_PNETCDF_FILE_F_CLOSE_END_TIMESTAMP] = d[3];
}

int ios_pnetcdf_file_decode(ios_cursor *c, ios_mod_ctx *ctx,
                            iosage_record *rec, ios_arena *arena,
                            iosage_error *err)
{
    size_t size = ios_fixed_size_or_fail(c, ctx, file_sizes, FILE_NVERSIONS,
                                         "PNETCDF_FILE", err);
    if (size == 0)
        return IOSAGE_E_UNSUPPORTED;
    if (ios_cur_left(c) < size)
        return IOS_DECODE_SHORT;
    int rc = ios_fixed_alloc(rec, IOSAGE_PNETCDF_FILE_NUM_COUNTERS,
                             IOSAGE_PNETCDF_FILE_NUM_FCOUNTERS, arena, c, ctx,
                             "PNETCDF_FILE", err);
    if (rc != IOSAGE_OK)
        return rc;

    const uint8_t *p = c->p + c->pos;
    const uint8_t *ip = p + IOS_BASE_SIZE;
    ios_fixed_base(p, ctx->swap, rec);
    if (ctx->version == 3) {
        ios_fixed_load_i64s(ip, ctx->swap, rec->counters,
                            IOSAGE_PNETCDF_FILE_NUM_COUNTERS);
        ios_fixed_load_f64s(ip + 8 * IOSAGE_PNETCDF_FILE_NUM_COUNTERS,
                            ctx->swap, rec->fcounters,
                            IOSAGE_PNETCDF_FILE_NUM_FCOUNTERS);
    } else {
        file_decode_old(ip, ctx, rec);
    }
    c->pos += size;
    return IOSAGE_OK;
}

iosage_status ios_pnetcdf_file_encode(const iosage_record *rec, ios_buf *out,
                                      iosage_error *err)
{
    iosage_status st = ios_fixed_check(rec, IOSAGE_PNETCDF_FILE_NUM_COUNTERS,
                                       IOSAGE_PNETCDF_FILE_NUM_FCOUNTERS,
                                       "PNETCDF_FILE", err);
    if (st != IOSAGE_OK)
        return st;
    ios_fixed_put_base(out, rec);
    ios_fixed_put_i64s(out, rec->counters, IOSAGE_PNETCDF_FILE_NUM_COUNTERS);
    ios_fixed_put_f64s(out, rec->fcounters,
                       IOSAGE_PNETCDF_FILE_NUM_FCOUNTERS);
    return ios_fixed_done(out, "PNETCDF_FILE", err);
}

int ios_pnetcdf_var_decode(ios_cursor *c, ios_mod_ctx *ctx,
                           iosage_record *rec, ios_arena *arena,
                           iosage_error *err)
{
    size_t size = ios_fixed_size_or_fail(c, ctx, var_sizes, VAR_NVERSIONS,
                                         "PNETCDF_VAR", err);
    if (size == 0)
        return IOSAGE_E_UNSUPPORTED;
    if (ios_cur_left(c) < size)
        return IOS_DECODE_SHORT;
    int rc = ios_fixed_alloc(rec, IOSAGE_PNETCDF_VAR_NUM_COUNTERS,
                             IOSAGE_PNETCDF_VAR_NUM_FCOUNTERS, arena, c, ctx,
                             "PNETCDF_VAR", err);
    if (rc != IOSAGE_OK)
        return rc;

    const uint8_t *p = c->p + c->pos;
    const uint8_t *ip = p + IOS_BASE_SIZE + 8;
    ios_fixed_base(p, ctx->swap, rec);
    rec->x.file_ref.file_rec_id = ios_load_u64(p + IOS_BASE_SIZE, ctx->swap);
    ios_fixed_load_i64s(ip, ctx->swap, rec->counters,
                        IOSAGE_PNETCDF_VAR_NUM_COUNTERS);
    ios_fixed_load_f64s(ip + 8 * IOSAGE_PNETCDF_VAR_NUM_COUNTERS, ctx->swap,
                        rec->fcounters, IOSAGE_PNETCDF_VAR_NUM_FCOUNTERS);
    c->pos += size;
    return IOSAGE_OK;
}

iosage_status ios_pnetcdf_var_encode(const iosage_record *rec, ios_buf *out,
                                     iosage_error *err)
{
    iosage_status st = ios_fixed_check(rec, IOSAGE_PNETCDF_VAR_NUM_COUNTERS,
                                       IOSAGE_PNETCDF_VAR_NUM_FCOUNTERS,
                                       "PNETCDF_VAR", err);
    if (st != IOSAGE_OK)
        return st;
    ios_fixed_put_base(out, rec);
    ios_buf_u64(out, rec->x.file_ref.file_rec_id);
    ios_fixed_put_i64s(out, rec->counters, IOSAGE_PNETCDF_VAR_NUM_COUNTERS);
    ios_fixed_put_f64s(out, rec->fcounters, IOSAGE_PNETCDF_VAR_NUM_FCOUNTERS);
    return ios_fixed_done(out, "PNETCDF_VAR", err);
}
