/*
 * src/darshan/mod_apxc.c - APXC (AutoPerf Cray XC router counters) records.
 *
 * The format spec leaves APXC opaque because its layout changed between
 * AutoPerf revisions. darshan-util 3.5.0 built with AutoPerf reads record
 * version 1 as follows (checked against the one public log that has APXC
 * data), and so do we:
 *
 * The first record of the region is a 72-byte header record:
 *
 *   off  type     field
 *     0  uint64   id
 *     8  int64    rank
 *    16  int64    magic ("AUTOPERF")
 *    24  int64    blades       -> counters[0]
 *    32  int64    chassis      -> counters[1]
 *    40  int64    groups       -> counters[2]
 *    48  int64    memory mode  -> counters[3] (bit 31: not consistent)
 *    56  int64    cluster mode -> counters[4] (bit 31: not consistent)
 *    64  uint64   application id -> counters[5]
 *
 * Every later record is a 3184-byte router record: id, rank, then 396
 * int64 (group, chassis, blade, node, 392 unsigned port counters).
 *
 * A region of another AutoPerf revision does not fit these sizes: what is
 * left after the last whole record is reported as trailing bytes.
 */
#include "internal.h"

#define WHERE "APXC"
#define HDR_SIZE 72
#define HDR_COUNTERS 6
#define RTR_COUNTERS 396
#define RTR_SIZE (16 + 8 * RTR_COUNTERS)

/* Decode id, rank and n int64 values that follow them at offset first. */
static int decode_counters(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                           ios_arena *arena, size_t first, int n,
                           iosage_error *err)
{
    int64_t *cnt = ios_arena_alloc(arena, (size_t)n * sizeof *cnt);
    if (!cnt)
        return ios_fail(err, IOSAGE_E_NOMEM, ctx->path, WHERE,
                        (int64_t)c->pos, "out of memory for an APXC record");
    const uint8_t *p = c->p + c->pos;
    rec->id = ios_load_u64(p, c->swap);
    rec->rank = ios_load_i64(p + 8, c->swap);
    for (int i = 0; i < n; i++)
        cnt[i] = ios_load_i64(p + first + 8 * (size_t)i, c->swap);
    rec->n_counters = n;
    rec->counters = cnt;
    return IOSAGE_OK;
}

int ios_apxc_decode(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                    ios_arena *arena, iosage_error *err)
{
    if (ctx->version != 1)
        return ios_fail(err, IOSAGE_E_UNSUPPORTED, ctx->path, WHERE,
                        (int64_t)c->pos, "APXC record version %u",
                        (unsigned)ctx->version);
    int header = ctx->n_records == 0;
    size_t size = header ? HDR_SIZE : RTR_SIZE;
    if (ios_cur_left(c) < size)
        return IOS_DECODE_SHORT;
    int rc = header ? decode_counters(c, ctx, rec, arena, 24, HDR_COUNTERS, err)
                    : decode_counters(c, ctx, rec, arena, 16, RTR_COUNTERS, err);
    if (rc != IOSAGE_OK)
        return rc;
    rec->x.apxc.is_header = header;
    if (header)
        rec->x.apxc.magic = ios_load_i64(c->p + c->pos + 16, c->swap);
    c->pos += size;
    return IOSAGE_OK;
}

/* Append rec: the header record when x.apxc.is_header (6 counters), else a
 * router record (396 counters). The caller keeps the header first. */
iosage_status ios_apxc_encode(const iosage_record *rec, ios_buf *out,
                              iosage_error *err)
{
    int want = rec->x.apxc.is_header ? HDR_COUNTERS : RTR_COUNTERS;
    if (rec->n_counters != want || !rec->counters)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, WHERE, -1,
                        "APXC %s record needs %d counters (has %d)",
                        rec->x.apxc.is_header ? "header" : "router", want,
                        rec->n_counters);
    ios_buf_u64(out, rec->id);
    ios_buf_i64(out, rec->rank);
    if (rec->x.apxc.is_header)
        ios_buf_i64(out, rec->x.apxc.magic);
    for (int i = 0; i < want; i++)
        ios_buf_i64(out, rec->counters[i]);
    if (out->oom)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, WHERE, -1,
                        "out of memory encoding an APXC record");
    return IOSAGE_OK;
}
