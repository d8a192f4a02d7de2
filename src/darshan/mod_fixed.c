/*
 * src/darshan/mod_fixed.c - helpers for the fixed-layout module codecs
 * (contract in mod_fixed.h).
 */
#include <stdint.h>

#include "mod_fixed.h"

size_t ios_fixed_size_or_fail(const ios_cursor *c, const ios_mod_ctx *ctx,
                              const size_t *sizes, uint32_t n_versions,
                              const char *where, iosage_error *err)
{
    if (ctx->version >= 1 && ctx->version <= n_versions)
        return sizes[ctx->version - 1];
    ios_fail(err, IOSAGE_E_UNSUPPORTED, ctx->path, where, (int64_t)c->pos,
             "record version %u is not supported (newest known: %u)",
             (unsigned)ctx->version, (unsigned)n_versions);
    return 0;
}

int ios_fixed_alloc(iosage_record *rec, int n_int, int n_dbl,
                    ios_arena *arena, const ios_cursor *c,
                    const ios_mod_ctx *ctx, const char *where,
                    iosage_error *err)
{
    rec->counters = NULL;
    rec->fcounters = NULL;
    if (n_int > 0)
        rec->counters = ios_arena_alloc(arena, (size_t)n_int * 8);
    if (n_dbl > 0)
        rec->fcounters = ios_arena_alloc(arena, (size_t)n_dbl * 8);
    if ((n_int > 0 && rec->counters == NULL) ||
        (n_dbl > 0 && rec->fcounters == NULL))
        return ios_fail(err, IOSAGE_E_NOMEM, ctx->path, where,
                        (int64_t)c->pos, "out of memory for counters");
    rec->n_counters = n_int;
    rec->n_fcounters = n_dbl;
    return IOSAGE_OK;
}

int ios_fixed_in_place(ios_cursor *c, size_t size, int n_int, int n_dbl,
                       ios_mod_ctx *ctx, iosage_record *rec)
{
    const uint8_t *ip = c->p + c->pos + IOS_BASE_SIZE;
    if (!ctx->data_is_ours || ctx->swap || (uintptr_t)ip % 8 != 0)
        return 0;
    /* the cursor's bytes are const to the codecs, but this buffer is the
     * reader's own (data_is_ours): the records may own them */
    rec->counters = (int64_t *)(uintptr_t)ip;
    rec->fcounters = (double *)(uintptr_t)(ip + 8 * (size_t)n_int);
    rec->n_counters = n_int;
    rec->n_fcounters = n_dbl;
    ctx->data_used = 1;
    c->pos += size;
    return 1;
}

void ios_fixed_base(const uint8_t *p, int swap, iosage_record *rec)
{
    rec->id = ios_load_u64(p, swap);
    rec->rank = ios_load_i64(p + 8, swap);
}

void ios_fixed_load_i64s(const uint8_t *p, int swap, int64_t *dst, int n)
{
    for (int i = 0; i < n; i++)
        dst[i] = ios_load_i64(p + 8 * (size_t)i, swap);
}

void ios_fixed_load_f64s(const uint8_t *p, int swap, double *dst, int n)
{
    for (int i = 0; i < n; i++)
        dst[i] = ios_load_f64(p + 8 * (size_t)i, swap);
}

void ios_fixed_fill_i64(int64_t *dst, int n, int64_t v)
{
    for (int i = 0; i < n; i++)
        dst[i] = v;
}

void ios_fixed_fill_f64(double *dst, int n, double v)
{
    for (int i = 0; i < n; i++)
        dst[i] = v;
}

void ios_fixed_times15_to_17(const double *src, double *dst)
{
    dst[0] = src[0];  /* F_OPEN_TIMESTAMP -> F_OPEN_START_TIMESTAMP */
    dst[1] = src[1];  /* F_READ_START_TIMESTAMP */
    dst[2] = src[2];  /* F_WRITE_START_TIMESTAMP */
    dst[3] = -1.0;    /* F_CLOSE_START_TIMESTAMP: not recorded */
    dst[4] = -1.0;    /* F_OPEN_END_TIMESTAMP: not recorded */
    dst[5] = src[3];  /* F_READ_END_TIMESTAMP */
    dst[6] = src[4];  /* F_WRITE_END_TIMESTAMP */
    dst[7] = src[5];  /* F_CLOSE_TIMESTAMP -> F_CLOSE_END_TIMESTAMP */
    for (int i = 6; i < 15; i++)
        dst[i + 2] = src[i]; /* READ_TIME .. VARIANCE_RANK_BYTES */
}

iosage_status ios_fixed_check(const iosage_record *rec, int n_int, int n_dbl,
                              const char *where, iosage_error *err)
{
    if (rec->n_counters != n_int || rec->n_fcounters != n_dbl)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, where, -1,
                        "record has %d/%d counters, the newest layout has "
                        "%d/%d", rec->n_counters, rec->n_fcounters, n_int,
                        n_dbl);
    if ((n_int > 0 && rec->counters == NULL) ||
        (n_dbl > 0 && rec->fcounters == NULL))
        return ios_fail(err, IOSAGE_E_USAGE, NULL, where, -1,
                        "record has no counter arrays");
    return IOSAGE_OK;
}

void ios_fixed_put_base(ios_buf *out, const iosage_record *rec)
{
    ios_buf_u64(out, rec->id);
    ios_buf_i64(out, rec->rank);
}

void ios_fixed_put_i64s(ios_buf *out, const int64_t *v, int n)
{
    for (int i = 0; i < n; i++)
        ios_buf_i64(out, v[i]);
}

void ios_fixed_put_f64s(ios_buf *out, const double *v, int n)
{
    for (int i = 0; i < n; i++)
        ios_buf_f64(out, v[i]);
}

iosage_status ios_fixed_done(const ios_buf *out, const char *where,
                             iosage_error *err)
{
    if (out->oom)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, where, -1,
                        "out of memory while encoding a record");
    return IOSAGE_OK;
}
