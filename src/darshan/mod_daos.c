/*
 * src/darshan/mod_daos.c - DFS and DAOS module codecs (format spec 9.13).
 *
 *   DFS v1  (584 bytes): base . int64[52] . double[15] . uint8 pool_uuid[16]
 *                        . uint8 cont_uuid[16]
 *   DAOS v1 (696 bytes): base . int64[64] . double[15] . pool_uuid[16] .
 *                        cont_uuid[16] . uint64 oid_hi . uint64 oid_lo
 *
 * UUIDs are byte arrays and are never swapped, except that with
 * ctx->compat a byte-swapped log gets each 16-byte UUID reversed end to end,
 * as the reference reader does. DFS records have no object id (oid_hi and
 * oid_lo stay 0).
 */
#include "mod_fixed.h"

#define DFS_SIZE 584
#define DAOS_SIZE 696

/* One module's layout. */
struct daos_layout {
    const char *where;
    int n_int, n_dbl;
    size_t size;
    int has_oid;
};

static const struct daos_layout dfs_layout = {
    "DFS", IOSAGE_DFS_NUM_COUNTERS, IOSAGE_DFS_NUM_FCOUNTERS, DFS_SIZE, 0};
static const struct daos_layout daos_layout = {
    "DAOS", IOSAGE_DAOS_NUM_COUNTERS, IOSAGE_DAOS_NUM_FCOUNTERS, DAOS_SIZE, 1};

/* Copy a 16-byte UUID, reversed when rev is set. */
static void load_uuid(const uint8_t *src, uint8_t *dst, int rev)
{
    for (int i = 0; i < 16; i++)
        dst[i] = rev ? src[15 - i] : src[i];
}

static int decode(const struct daos_layout *L, ios_cursor *c,
                  ios_mod_ctx *ctx, iosage_record *rec, ios_arena *arena,
                  iosage_error *err)
{
    if (ctx->version != 1)
        return ios_fail(err, IOSAGE_E_UNSUPPORTED, ctx->path, L->where,
                        (int64_t)c->pos, "record version %u is not "
                        "supported (newest known: 1)", (unsigned)ctx->version);
    if (ios_cur_left(c) < L->size)
        return IOS_DECODE_SHORT;
    int rc = ios_fixed_alloc(rec, L->n_int, L->n_dbl, arena, c, ctx, L->where,
                             err);
    if (rc != IOSAGE_OK)
        return rc;

    const uint8_t *p = c->p + c->pos;
    const uint8_t *q = p + IOS_BASE_SIZE;
    int rev = ctx->compat && ctx->swap;
    ios_fixed_base(p, ctx->swap, rec);
    ios_fixed_load_i64s(q, ctx->swap, rec->counters, L->n_int);
    q += 8 * (size_t)L->n_int;
    ios_fixed_load_f64s(q, ctx->swap, rec->fcounters, L->n_dbl);
    q += 8 * (size_t)L->n_dbl;
    load_uuid(q, rec->x.daos.pool_uuid, rev);
    load_uuid(q + 16, rec->x.daos.cont_uuid, rev);
    rec->x.daos.oid_hi = 0;
    rec->x.daos.oid_lo = 0;
    if (L->has_oid) {
        rec->x.daos.oid_hi = ios_load_u64(q + 32, ctx->swap);
        rec->x.daos.oid_lo = ios_load_u64(q + 40, ctx->swap);
    }
    c->pos += L->size;
    return IOSAGE_OK;
}

static iosage_status encode(const struct daos_layout *L,
                            const iosage_record *rec, ios_buf *out,
                            iosage_error *err)
{
    iosage_status st = ios_fixed_check(rec, L->n_int, L->n_dbl, L->where,
                                       err);
    if (st != IOSAGE_OK)
        return st;
    ios_fixed_put_base(out, rec);
    ios_fixed_put_i64s(out, rec->counters, L->n_int);
    ios_fixed_put_f64s(out, rec->fcounters, L->n_dbl);
    ios_buf_append(out, rec->x.daos.pool_uuid, 16);
    ios_buf_append(out, rec->x.daos.cont_uuid, 16);
    if (L->has_oid) {
        ios_buf_u64(out, rec->x.daos.oid_hi);
        ios_buf_u64(out, rec->x.daos.oid_lo);
    }
    return ios_fixed_done(out, L->where, err);
}

int ios_dfs_decode(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                   ios_arena *arena, iosage_error *err)
{
    return decode(&dfs_layout, c, ctx, rec, arena, err);
}

int ios_daos_decode(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                    ios_arena *arena, iosage_error *err)
{
    return decode(&daos_layout, c, ctx, rec, arena, err);
}

iosage_status ios_dfs_encode(const iosage_record *rec, ios_buf *out,
                             iosage_error *err)
{
    return encode(&dfs_layout, rec, out, err);
}

iosage_status ios_daos_encode(const iosage_record *rec, ios_buf *out,
                              iosage_error *err)
{
    return encode(&daos_layout, rec, out, err);
}
