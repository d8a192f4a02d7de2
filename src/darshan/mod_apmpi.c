/*
 * src/darshan/mod_apmpi.c - APMPI (AutoPerf MPI profile) records (format
 * spec 9.14).
 *
 * The first record of the region is a 48-byte header record:
 *
 *   off  type     field
 *     0  uint64   id
 *     8  int64    rank
 *    16  int64    magic (0x41504D5049, "APMPI"; not checked: the reference
 *                 reader does not check it either)
 *    24  uint32   sync_flag
 *    28  4 bytes  padding
 *    32  double   variance_total_mpitime
 *    40  double   variance_total_mpisynctime
 *
 * Every later record is a 5232-byte per-process record:
 *
 *     0  uint64      id
 *     8  int64       rank
 *    16  uint64[396] counters (stored into int64 counters[])
 *  3184  double[222] time      -> fcounters[0..221]
 *  4960  double[16]  sync_time -> fcounters[222..237]
 *  5088  double[2]   global    -> fcounters[238..239]
 *  5104  char[128]   node name (may fill all 128 bytes)
 *
 * The header's sync_flag is copied into x.apmpi.sync_flag of every record.
 */
#include "internal.h"

#define WHERE "APMPI"
#define HDR_SIZE 48
#define PROC_SIZE 5232
#define N_COUNTERS 396
#define N_FCOUNTERS 240 /* 222 time + 16 sync_time + 2 global */
#define COUNTERS_OFF 16
#define FCOUNTERS_OFF (COUNTERS_OFF + 8 * N_COUNTERS)
#define NODE_OFF (FCOUNTERS_OFF + 8 * N_FCOUNTERS)
#define NODE_LEN 128

/* Decode the region's header record. */
static int decode_header(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec)
{
    if (ios_cur_left(c) < HDR_SIZE)
        return IOS_DECODE_SHORT;
    const uint8_t *p = c->p + c->pos;
    int sw = c->swap;
    rec->id = ios_load_u64(p, sw);
    rec->rank = ios_load_i64(p + 8, sw);
    rec->x.apmpi.is_header = 1;
    rec->x.apmpi.magic = ios_load_i64(p + 16, sw);
    rec->x.apmpi.sync_flag = ios_load_u32(p + 24, sw);
    rec->x.apmpi.variance_total_mpitime = ios_load_f64(p + 32, sw);
    rec->x.apmpi.variance_total_mpisynctime = ios_load_f64(p + 40, sw);
    ctx->apmpi_seen_header = 1;
    ctx->apmpi_sync_flag = rec->x.apmpi.sync_flag;
    c->pos += HDR_SIZE;
    return IOSAGE_OK;
}

/* Decode one per-process record. */
static int decode_process(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                          ios_arena *arena, iosage_error *err)
{
    if (ios_cur_left(c) < PROC_SIZE)
        return IOS_DECODE_SHORT;
    int64_t *cnt = ios_arena_alloc(arena, N_COUNTERS * sizeof *cnt);
    double *fcnt = ios_arena_alloc(arena, N_FCOUNTERS * sizeof *fcnt);
    if (!cnt || !fcnt)
        return ios_fail(err, IOSAGE_E_NOMEM, ctx->path, WHERE,
                        (int64_t)c->pos, "out of memory for an APMPI record");
    const uint8_t *p = c->p + c->pos;
    int sw = c->swap;
    rec->id = ios_load_u64(p, sw);
    rec->rank = ios_load_i64(p + 8, sw);
    for (int i = 0; i < N_COUNTERS; i++)
        cnt[i] = ios_load_i64(p + COUNTERS_OFF + 8 * i, sw);
    for (int i = 0; i < N_FCOUNTERS; i++)
        fcnt[i] = ios_load_f64(p + FCOUNTERS_OFF + 8 * i, sw);
    rec->n_counters = N_COUNTERS;
    rec->n_fcounters = N_FCOUNTERS;
    rec->counters = cnt;
    rec->fcounters = fcnt;

    const uint8_t *node = p + NODE_OFF;
    size_t n = 0;
    while (n < NODE_LEN && node[n] != 0)
        n++;
    char *name = ios_arena_alloc(arena, n + 1); /* zeroed */
    if (!name)
        return ios_fail(err, IOSAGE_E_NOMEM, ctx->path, WHERE,
                        (int64_t)c->pos, "out of memory for an APMPI node name");
    memcpy(name, node, n);
    rec->x.apmpi.node_name = name;
    rec->x.apmpi.sync_flag = ctx->apmpi_sync_flag;
    c->pos += PROC_SIZE;
    return IOSAGE_OK;
}

int ios_apmpi_decode(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                     ios_arena *arena, iosage_error *err)
{
    if (ctx->version != 1)
        return ios_fail(err, IOSAGE_E_UNSUPPORTED, ctx->path, WHERE,
                        (int64_t)c->pos, "APMPI record version %u",
                        (unsigned)ctx->version);
    if (!ctx->apmpi_seen_header)
        return decode_header(c, ctx, rec);
    return decode_process(c, ctx, rec, arena, err);
}

/* Append the 48-byte header record. */
static void encode_header(const iosage_record *rec, ios_buf *out)
{
    ios_buf_u64(out, rec->id);
    ios_buf_i64(out, rec->rank);
    ios_buf_i64(out, rec->x.apmpi.magic);
    ios_buf_u32(out, rec->x.apmpi.sync_flag);
    ios_buf_zeros(out, 4);
    ios_buf_f64(out, rec->x.apmpi.variance_total_mpitime);
    ios_buf_f64(out, rec->x.apmpi.variance_total_mpisynctime);
}

/* Append a 5232-byte per-process record (arrays already checked). */
static void encode_process(const iosage_record *rec, ios_buf *out)
{
    uint8_t node[NODE_LEN] = {0};
    const char *name = rec->x.apmpi.node_name ? rec->x.apmpi.node_name : "";
    memcpy(node, name, strnlen(name, NODE_LEN));
    ios_buf_u64(out, rec->id);
    ios_buf_i64(out, rec->rank);
    for (int i = 0; i < N_COUNTERS; i++)
        ios_buf_u64(out, (uint64_t)rec->counters[i]);
    for (int i = 0; i < N_FCOUNTERS; i++)
        ios_buf_f64(out, rec->fcounters[i]);
    ios_buf_append(out, node, NODE_LEN);
}

/*
 * Append rec: the header record when x.apmpi.is_header, else a per-process
 * record, which needs 396 counters and 240 fcounters. The caller keeps the
 * header first in the region.
 */
iosage_status ios_apmpi_encode(const iosage_record *rec, ios_buf *out,
                               iosage_error *err)
{
    if (rec->x.apmpi.is_header) {
        encode_header(rec, out);
    } else {
        if (rec->n_counters != N_COUNTERS || rec->n_fcounters != N_FCOUNTERS ||
            !rec->counters || !rec->fcounters)
            return ios_fail(err, IOSAGE_E_USAGE, NULL, WHERE, -1,
                            "APMPI record needs %d counters and %d "
                            "fcounters (has %d and %d)", N_COUNTERS,
                            N_FCOUNTERS, rec->n_counters, rec->n_fcounters);
        encode_process(rec, out);
    }
    if (out->oom)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, WHERE, -1,
                        "out of memory encoding an APMPI record");
    return IOSAGE_OK;
}
