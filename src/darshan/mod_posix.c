/*
 * src/darshan/mod_posix.c - POSIX module codec (format spec 9.1).
 *
 * Stored layouts: base (16 bytes) . int64[n_i] . double[n_d]
 *
 *   version  n_i  n_d  bytes
 *   1        68   15   680   (has FOPENS, FREADS, FWRITES, FSEEKS at 6..9)
 *   2        64   15   648
 *   3        64   17   664
 *   4        69   17   704   (newest: adds FILENOS, DUPS, RENAME_*)
 *
 * Up-conversion runs v1 -> v2 -> v3 -> v4. A v1 record with stdio activity
 * (FOPENS > 0, tested on the stored bytes before any swap, as the reference
 * reader does) cannot be separated and is dropped.
 *
 * With ctx->compat the reference reader's defects are reproduced:
 *   - v3: F_VARIANCE_RANK_TIME/BYTES (indices 15, 16) read as 0.0;
 *   - v2: indices 13..16 read as 0.0;
 *   - big-endian v1..v3: F_META_TIME, F_MAX_READ_TIME, F_MAX_WRITE_TIME
 *     (indices 10..12) are left unswapped.
 * Without compat the stored values are returned, correctly swapped.
 */
#include "mod_fixed.h"

#define WHERE "POSIX"

static const size_t posix_sizes[] = {680, 648, 664, 704};
#define POSIX_NVERSIONS 4

/* Stored counts per version (index = version - 1). */
static const int stored_ints[] = {68, 64, 64, 69};
static const int stored_dbls[] = {15, 15, 17, 17};

/* Stored double index of F_META_TIME in v1..v3 (MAX_READ_TIME and
 * MAX_WRITE_TIME follow it). */
static const int stored_meta_time[] = {8, 8, 10};

/* v1 FOPENS is int64 index 6. The reference reader tests the raw bytes in
 * host order, so a big-endian record is tested on its unswapped value. */
static int v1_has_stdio(const uint8_t *rec)
{
    return ios_load_i64(rec + IOS_BASE_SIZE + 6 * 8, 0) > 0;
}

/* v1 int64[68] -> v2/v3 int64[64]: drop FOPENS..FSEEKS (v1 indices 6..9). */
static void ints_v1_to_v3(const int64_t *v1, int64_t *v3)
{
    for (int i = 0; i < 6; i++)
        v3[i] = v1[i]; /* OPENS .. MMAPS */
    for (int i = 10; i < 68; i++)
        v3[i - 4] = v1[i]; /* FSYNCS .. SLOWEST_RANK_BYTES */
}

/* v3 int64[64] -> v4 int64[69]. */
static void ints_v3_to_v4(const int64_t *v3, int64_t *v4)
{
    v4[IOSAGE_POSIX_OPENS] = v3[0];
    v4[IOSAGE_POSIX_FILENOS] = -1;
    v4[IOSAGE_POSIX_DUPS] = -1;
    for (int i = 1; i <= 7; i++)
        v4[i + 2] = v3[i]; /* READS .. FDSYNCS -> 3 .. 9 */
    v4[IOSAGE_POSIX_RENAME_SOURCES] = -1;
    v4[IOSAGE_POSIX_RENAME_TARGETS] = -1;
    v4[IOSAGE_POSIX_RENAMED_FROM] = 0;
    for (int i = 8; i < 64; i++)
        v4[i + 5] = v3[i]; /* MODE .. SLOWEST_RANK_BYTES -> 13 .. 68 */
}

/* The reference reader's defects for old records (see the file comment).
 * p is the record, dbl the up-converted doubles. */
static void apply_compat(const uint8_t *p, const ios_mod_ctx *ctx,
                         double *dbl)
{
    uint32_t v = ctx->version;
    if (v == 3) {
        dbl[IOSAGE_POSIX_F_VARIANCE_RANK_TIME] = 0.0;
        dbl[IOSAGE_POSIX_F_VARIANCE_RANK_BYTES] = 0.0;
    } else if (v == 2) {
        ios_fixed_fill_f64(dbl + IOSAGE_POSIX_F_FASTEST_RANK_TIME, 4, 0.0);
    }
    if (ctx->swap) {
        const uint8_t *d = p + IOS_BASE_SIZE + 8 * (size_t)stored_ints[v - 1];
        /* META_TIME, MAX_READ_TIME, MAX_WRITE_TIME as stored, not swapped */
        ios_fixed_load_f64s(d + 8 * (size_t)stored_meta_time[v - 1], 0,
                            dbl + IOSAGE_POSIX_F_META_TIME, 3);
    }
}

/* Decode the arrays of a v1..v3 record at p into rec (arrays allocated). */
static void decode_old(const uint8_t *p, const ios_mod_ctx *ctx,
                       iosage_record *rec)
{
    uint32_t v = ctx->version;
    int64_t ints[68], ints_v3[64];
    double dbls[17];
    const uint8_t *ip = p + IOS_BASE_SIZE;
    const uint8_t *dp = ip + 8 * (size_t)stored_ints[v - 1];

    ios_fixed_load_i64s(ip, ctx->swap, ints, stored_ints[v - 1]);
    if (v == 1)
        ints_v1_to_v3(ints, ints_v3);
    else
        memcpy(ints_v3, ints, sizeof ints_v3);
    ints_v3_to_v4(ints_v3, rec->counters);

    ios_fixed_load_f64s(dp, ctx->swap, dbls, stored_dbls[v - 1]);
    if (v == 3)
        memcpy(rec->fcounters, dbls, sizeof dbls);
    else
        ios_fixed_times15_to_17(dbls, rec->fcounters);

    if (ctx->compat)
        apply_compat(p, ctx, rec->fcounters);
}

int ios_posix_decode(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                     ios_arena *arena, iosage_error *err)
{
    size_t size = ios_fixed_size_or_fail(c, ctx, posix_sizes,
                                         POSIX_NVERSIONS, WHERE, err);
    if (size == 0)
        return IOSAGE_E_UNSUPPORTED;
    if (ios_cur_left(c) < size)
        return IOS_DECODE_SHORT;

    const uint8_t *p = c->p + c->pos;
    if (ctx->version == 1 && v1_has_stdio(p)) {
        c->pos += size;
        return IOS_DECODE_DROP;
    }
    ios_fixed_base(p, ctx->swap, rec);
    if (ctx->version == 4 &&
        ios_fixed_in_place(c, size, IOSAGE_POSIX_NUM_COUNTERS,
                           IOSAGE_POSIX_NUM_FCOUNTERS, ctx, rec))
        return IOSAGE_OK;
    int rc = ios_fixed_alloc(rec, IOSAGE_POSIX_NUM_COUNTERS,
                             IOSAGE_POSIX_NUM_FCOUNTERS, arena, c, ctx,
                             WHERE, err);
    if (rc != IOSAGE_OK)
        return rc;
    if (ctx->version == 4) {
        const uint8_t *ip = p + IOS_BASE_SIZE;
        ios_fixed_load_i64s(ip, ctx->swap, rec->counters,
                            IOSAGE_POSIX_NUM_COUNTERS);
        ios_fixed_load_f64s(ip + 8 * IOSAGE_POSIX_NUM_COUNTERS, ctx->swap,
                            rec->fcounters, IOSAGE_POSIX_NUM_FCOUNTERS);
    } else {
        decode_old(p, ctx, rec);
    }
    c->pos += size;
    return IOSAGE_OK;
}

iosage_status ios_posix_encode(const iosage_record *rec, ios_buf *out,
                               iosage_error *err)
{
    iosage_status st = ios_fixed_check(rec, IOSAGE_POSIX_NUM_COUNTERS,
                                       IOSAGE_POSIX_NUM_FCOUNTERS, WHERE, err);
    if (st != IOSAGE_OK)
        return st;
    ios_fixed_put_base(out, rec);
    ios_fixed_put_i64s(out, rec->counters, IOSAGE_POSIX_NUM_COUNTERS);
    ios_fixed_put_f64s(out, rec->fcounters, IOSAGE_POSIX_NUM_FCOUNTERS);
    return ios_fixed_done(out, WHERE, err);
}
