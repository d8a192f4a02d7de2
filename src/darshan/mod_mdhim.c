/*
 * src/darshan/mod_mdhim.c - MDHIM module codec (format spec 9.12).
 *
 * Version 1 only, variable size:
 *
 *   base . int64[5] . double[4] . int64 server_hist[max(1, SERVERS)]
 *
 * SERVERS is counters[4]. The first histogram entry is always stored (the
 * 96-byte fixed part); SERVERS - 1 more follow when SERVERS > 1. The record
 * keeps the entries that describe servers: rec->x.mdhim.n_servers =
 * max(0, SERVERS), as darshan-parser prints MDHIM_SERVER_0 .. SERVERS-1.
 * When SERVERS < 1 the one stored (unused) entry is skipped and
 * server_hist is NULL.
 *
 * SERVERS comes from the file: a histogram that would run past the end of
 * the region is IOSAGE_E_CORRUPT, checked before any size arithmetic that
 * could overflow.
 */
#include "mod_fixed.h"

#define WHERE "MDHIM"
#define MDHIM_FIXED 96 /* base, int64[5], double[4], first histogram entry */

/* Stored histogram entries for a SERVERS value (at least the first). */
static int64_t entries_for(int64_t servers)
{
    return servers > 1 ? servers : 1;
}

/* Read n histogram entries at hp into the arena (none when n < 1). */
static int load_hist(const uint8_t *hp, int64_t n, const ios_cursor *c,
                     const ios_mod_ctx *ctx, iosage_record *rec,
                     ios_arena *arena, iosage_error *err)
{
    rec->x.mdhim.n_servers = 0;
    rec->x.mdhim.server_hist = NULL;
    if (n < 1)
        return IOSAGE_OK;
    int64_t *h = ios_arena_alloc(arena, (size_t)n * 8);
    if (h == NULL)
        return ios_fail(err, IOSAGE_E_NOMEM, ctx->path, WHERE,
                        (int64_t)c->pos, "out of memory for %lld MDHIM "
                        "histogram entries", (long long)n);
    for (int64_t i = 0; i < n; i++)
        h[i] = ios_load_i64(hp + 8 * (size_t)i, ctx->swap);
    rec->x.mdhim.n_servers = n;
    rec->x.mdhim.server_hist = h;
    return IOSAGE_OK;
}

int ios_mdhim_decode(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                     ios_arena *arena, iosage_error *err)
{
    if (ctx->version != 1)
        return ios_fail(err, IOSAGE_E_UNSUPPORTED, ctx->path, WHERE,
                        (int64_t)c->pos, "record version %u is not "
                        "supported (newest known: 1)", (unsigned)ctx->version);
    size_t left = ios_cur_left(c);
    if (left < MDHIM_FIXED)
        return IOS_DECODE_SHORT;

    const uint8_t *p = c->p + c->pos;
    const uint8_t *ip = p + IOS_BASE_SIZE;
    int64_t servers = ios_load_i64(ip + 8 * IOSAGE_MDHIM_SERVERS, ctx->swap);
    int64_t n = entries_for(servers);
    if ((uint64_t)(n - 1) > (left - MDHIM_FIXED) / 8)
        return ios_fail(err, IOSAGE_E_CORRUPT, ctx->path, WHERE,
                        (int64_t)c->pos, "MDHIM_SERVERS %lld: the server "
                        "histogram runs past the end of the region "
                        "(%zu bytes left)", (long long)servers, left);

    int rc = ios_fixed_alloc(rec, IOSAGE_MDHIM_NUM_COUNTERS,
                             IOSAGE_MDHIM_NUM_FCOUNTERS, arena, c, ctx, WHERE,
                             err);
    if (rc != IOSAGE_OK)
        return rc;
    ios_fixed_base(p, ctx->swap, rec);
    ios_fixed_load_i64s(ip, ctx->swap, rec->counters,
                        IOSAGE_MDHIM_NUM_COUNTERS);
    ip += 8 * IOSAGE_MDHIM_NUM_COUNTERS;
    ios_fixed_load_f64s(ip, ctx->swap, rec->fcounters,
                        IOSAGE_MDHIM_NUM_FCOUNTERS);
    ip += 8 * IOSAGE_MDHIM_NUM_FCOUNTERS;
    rc = load_hist(ip, servers, c, ctx, rec, arena, err);
    if (rc != IOSAGE_OK)
        return rc;
    c->pos += MDHIM_FIXED + 8 * (size_t)(n - 1);
    return IOSAGE_OK;
}

/*
 * Writes max(1, SERVERS) histogram entries. rec->x.mdhim must hold exactly
 * that many, except that with SERVERS <= 1 an empty histogram is accepted
 * and written as one zero entry (the slot the format always has).
 */
iosage_status ios_mdhim_encode(const iosage_record *rec, ios_buf *out,
                               iosage_error *err)
{
    iosage_status st = ios_fixed_check(rec, IOSAGE_MDHIM_NUM_COUNTERS,
                                       IOSAGE_MDHIM_NUM_FCOUNTERS, WHERE, err);
    if (st != IOSAGE_OK)
        return st;
    int64_t servers = rec->counters[IOSAGE_MDHIM_SERVERS];
    int64_t n = entries_for(servers);
    int64_t have = rec->x.mdhim.n_servers;
    int empty_ok = n == 1 && have == 0;
    if (!empty_ok && (have != n || rec->x.mdhim.server_hist == NULL))
        return ios_fail(err, IOSAGE_E_USAGE, NULL, WHERE, -1,
                        "MDHIM_SERVERS is %lld but the histogram has %lld "
                        "entries", (long long)servers, (long long)have);

    ios_fixed_put_base(out, rec);
    ios_fixed_put_i64s(out, rec->counters, IOSAGE_MDHIM_NUM_COUNTERS);
    ios_fixed_put_f64s(out, rec->fcounters, IOSAGE_MDHIM_NUM_FCOUNTERS);
    if (empty_ok)
        ios_buf_i64(out, 0);
    for (int64_t i = 0; i < have && !out->oom; i++)
        ios_buf_i64(out, rec->x.mdhim.server_hist[i]);
    return ios_fixed_done(out, WHERE, err);
}
