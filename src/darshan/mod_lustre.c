/*
 * src/darshan/mod_lustre.c - LUSTRE records (format spec 9.9).
 *
 * Layouts (all integers int64 unless noted):
 *
 *   v1  id(u64) rank  OSTS MDTS STRIPE_OFFSET STRIPE_SIZE STRIPE_WIDTH
 *       ost_ids[STRIPE_WIDTH]                      = 56 + 8*width bytes
 *   v2  id(u64) rank  num_comps num_stripes        = 32-byte fixed part
 *       component[num_comps], 72 bytes each:
 *         STRIPE_SIZE STRIPE_COUNT STRIPE_PATTERN FLAGS EXT_START EXT_END
 *         MIRROR_ID, char pool_name[16]
 *       ost_ids[num_stripes], component after component
 *
 * Every record comes out in the v2 shape (struct iosage_record, x.lustre).
 * v1 becomes one component (spec 9.9, "Up-conversion v1->v2").
 *
 * Reading rules applied in both modes (spec 9.9 rules 1-3):
 *   1. num_comps < 1: only the fixed part is read; num_comps and
 *      num_stripes are reported as stored, comps and ost_ids are NULL.
 *   2. otherwise 72*num_comps + 8*num_stripes more bytes must follow;
 *      fewer is IOSAGE_E_TRUNCATED (the module stops).
 *   3. components are kept up to the first one whose STRIPE_SIZE is -1;
 *      the OST total is recomputed from the kept STRIPE_COUNTs.
 *
 * When the recomputed total exceeds the stored OST ids (malformed logs):
 *   - default mode: num_stripes = the number of stored ids; nothing past the
 *     record is read. A component's STRIPE_COUNT may then exceed what
 *     ost_ids holds; consumers must bound by num_stripes.
 *   - compat mode (rule 4): the reference reader's 81,920-byte scratch
 *     buffer is emulated in ctx->lustre_scratch, so the extra ids (and pool
 *     names without a terminator) read what that buffer holds, and a
 *     record that does not fit in that buffer is IOSAGE_E_LIMIT.
 *
 * Invariant of every decoded record with num_comps >= 1: ost_ids holds
 * exactly num_stripes entries (NULL when num_stripes is 0), comps holds
 * num_comps entries, and every pool_name is a NUL-terminated arena string.
 */
#include <stdlib.h>

#include "internal.h"

#define WHERE "LUSTRE"
#define V1_FIXED 56       /* base record + int64[5] */
#define V2_FIXED 32       /* base record + num_comps + num_stripes */
#define COMP_SIZE 72      /* int64[7] + char[16] */
#define POOL_OFF 56       /* pool name offset inside a component */
#define POOL_LEN 16
#define SCRATCH_REC 48    /* where the reference puts components */

/* The fixed part of a v2 record, as stored. */
struct v2_fixed {
    int64_t num_comps;
    int64_t num_stripes;
};

/* Pointer to the unread bytes of c. */
static const uint8_t *cur_at(const ios_cursor *c) { return c->p + c->pos; }

/* Copy at most max bytes of src up to the first NUL into a new
 * NUL-terminated arena string. NULL on no memory. */
static char *arena_strndup(ios_arena *arena, const uint8_t *src, size_t max)
{
    size_t n = 0;
    while (n < max && src[n] != 0)
        n++;
    char *s = ios_arena_alloc(arena, n + 1);
    if (s)
        memcpy(s, src, n);
    return s;
}

static int fail_nomem(const ios_cursor *c, const ios_mod_ctx *ctx,
                      iosage_error *err)
{
    return ios_fail(err, IOSAGE_E_NOMEM, ctx->path, WHERE, (int64_t)c->pos,
                    "out of memory decoding a Lustre record");
}

/* --- v1 ------------------------------------------------------------------ */

/* Decode a v1 record and up-convert it into one component. */
static int decode_v1(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                     ios_arena *arena, iosage_error *err)
{
    size_t left = ios_cur_left(c);
    if (left < V1_FIXED)
        return IOS_DECODE_SHORT;
    const uint8_t *p = cur_at(c);
    int sw = c->swap;
    int64_t stripe_size = ios_load_i64(p + 40, sw);
    int64_t width = ios_load_i64(p + 48, sw);

    if (width < 0)
        return ios_fail(err, IOSAGE_E_CORRUPT, ctx->path, WHERE,
                        (int64_t)c->pos,
                        "Lustre v1 record with negative stripe width %lld",
                        (long long)width);
    if ((uint64_t)width > (left - V1_FIXED) / 8)
        return ios_fail(err, IOSAGE_E_TRUNCATED, ctx->path, WHERE,
                        (int64_t)c->pos,
                        "Lustre v1 record announces %lld OST ids, only %zu "
                        "bytes left", (long long)width, left - V1_FIXED);
    if (ctx->compat && (uint64_t)width > (IOS_LUSTRE_SCRATCH - V1_FIXED) / 8)
        return ios_fail(err, IOSAGE_E_LIMIT, ctx->path, WHERE,
                        (int64_t)c->pos,
                        "Lustre record of %lld OST ids exceeds the reference "
                        "reader's %d-byte limit", (long long)width,
                        IOS_LUSTRE_SCRATCH);

    struct iosage_lustre_comp *comp = ios_arena_alloc(arena, sizeof *comp);
    int64_t *ids = width ? ios_arena_alloc(arena, (size_t)width * 8) : NULL;
    char *pool = ios_arena_alloc(arena, 1);
    if (!comp || !pool || (width && !ids))
        return fail_nomem(c, ctx, err);

    rec->id = ios_load_u64(p, sw);
    rec->rank = ios_load_i64(p + 8, sw);
    comp->stripe_size = stripe_size;
    comp->stripe_count = width;
    comp->stripe_pattern = -1;
    comp->flags = -1;
    comp->ext_start = 0;
    comp->ext_end = -1;
    comp->mirror_id = -1;
    comp->pool_name = pool;
    for (int64_t i = 0; i < width; i++)
        ids[i] = ios_load_i64(p + V1_FIXED + 8 * i, sw);

    rec->x.lustre.num_comps = 1;
    rec->x.lustre.num_stripes = width;
    rec->x.lustre.comps = comp;
    rec->x.lustre.ost_ids = ids;
    c->pos += V1_FIXED + (size_t)width * 8;
    return IOSAGE_OK;
}

/* --- v2 ------------------------------------------------------------------ */

/*
 * Check that the variable part announced by f fits in the bytes after the
 * fixed part (avail). Counts are bounded before any multiplication.
 */
static int check_v2_sizes(const ios_cursor *c, const ios_mod_ctx *ctx,
                          const struct v2_fixed *f, size_t avail,
                          iosage_error *err)
{
    if (f->num_stripes < 0)
        return ios_fail(err, IOSAGE_E_CORRUPT, ctx->path, WHERE,
                        (int64_t)c->pos,
                        "Lustre record with negative stripe total %lld",
                        (long long)f->num_stripes);
    if ((uint64_t)f->num_comps > avail / COMP_SIZE ||
        (uint64_t)f->num_stripes >
            (avail - (size_t)f->num_comps * COMP_SIZE) / 8)
        return ios_fail(err, IOSAGE_E_TRUNCATED, ctx->path, WHERE,
                        (int64_t)c->pos,
                        "Lustre record announces %lld components and %lld "
                        "OST ids, only %zu bytes left",
                        (long long)f->num_comps, (long long)f->num_stripes,
                        avail);
    /* Both counts now fit in the region, so this sum cannot overflow. */
    size_t need = SCRATCH_REC + (size_t)f->num_comps * COMP_SIZE +
                  (size_t)f->num_stripes * 8;
    if (ctx->compat && need > IOS_LUSTRE_SCRATCH)
        return ios_fail(err, IOSAGE_E_LIMIT, ctx->path, WHERE,
                        (int64_t)c->pos,
                        "Lustre record of %zu bytes exceeds the reference "
                        "reader's %d-byte limit", need, IOS_LUSTRE_SCRATCH);
    return IOSAGE_OK;
}

/* Number of components kept: those before the first STRIPE_SIZE of -1. */
static int64_t kept_components(const uint8_t *comps, int64_t n, int sw)
{
    for (int64_t i = 0; i < n; i++)
        if (ios_load_i64(comps + COMP_SIZE * i, sw) == -1)
            return i;
    return n;
}

/* Sum of the STRIPE_COUNTs of the first n components. In compat mode the
 * plain (wrapping) sum the reference computes; otherwise negative counts
 * count as 0 and the sum saturates at INT64_MAX. */
static int64_t stripe_total(const uint8_t *comps, int64_t n, int sw,
                            int compat)
{
    uint64_t sum = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t cnt = ios_load_i64(comps + COMP_SIZE * i + 8, sw);
        if (compat) {
            sum += (uint64_t)cnt;
            continue;
        }
        if (cnt > 0 && __builtin_add_overflow(sum, (uint64_t)cnt, &sum))
            return INT64_MAX;
    }
    if (!compat && sum > (uint64_t)INT64_MAX)
        return INT64_MAX;
    return (int64_t)sum;
}

/* Fill component fields (not the pool name) from the 72 stored bytes. */
static void load_component(struct iosage_lustre_comp *dst, const uint8_t *src,
                           int sw)
{
    dst->stripe_size = ios_load_i64(src, sw);
    dst->stripe_count = ios_load_i64(src + 8, sw);
    dst->stripe_pattern = ios_load_i64(src + 16, sw);
    dst->flags = ios_load_i64(src + 24, sw);
    dst->ext_start = ios_load_i64(src + 32, sw);
    dst->ext_end = ios_load_i64(src + 40, sw);
    dst->mirror_id = ios_load_i64(src + 48, sw);
}

/*
 * Rule 4 (compat only): lay the record out in the scratch buffer as the
 * reference reader does. Components go to offset 48, the stored OST ids
 * right after them; after trimming to 'kept' components the stored ids are
 * moved to follow the kept ones. Bytes beyond keep what earlier records of
 * the module left there. Returns the buffer, or NULL on no memory.
 *
 * The spec does not say how many bytes the reference moves when it trims;
 * we move the stored ids. The choice only shows in records that are both
 * trimmed and short of OST ids; no known log has one.
 */
static uint8_t *scratch_place(ios_mod_ctx *ctx, const uint8_t *body,
                              const struct v2_fixed *f, int64_t kept)
{
    if (!ctx->lustre_scratch)
        ctx->lustre_scratch = calloc(1, IOS_LUSTRE_SCRATCH);
    uint8_t *buf = ctx->lustre_scratch;
    if (!buf)
        return NULL;
    size_t comp_bytes = (size_t)f->num_comps * COMP_SIZE;
    size_t ost_bytes = (size_t)f->num_stripes * 8;
    /* check_v2_sizes guaranteed 48 + comp_bytes + ost_bytes <= scratch. */
    memcpy(buf + SCRATCH_REC, body, comp_bytes + ost_bytes);
    if (kept < f->num_comps)
        memmove(buf + SCRATCH_REC + (size_t)kept * COMP_SIZE,
                buf + SCRATCH_REC + comp_bytes, ost_bytes);
    return buf;
}

/* Compat: OST ids and pool names read from the scratch buffer. The id count
 * is the recomputed total, capped where the buffer ends (the reference
 * would read outside its buffer there). */
static int fill_from_scratch(ios_cursor *c, ios_mod_ctx *ctx,
                             iosage_record *rec, ios_arena *arena,
                             const struct v2_fixed *f, int64_t kept,
                             int64_t total, iosage_error *err)
{
    const uint8_t *body = cur_at(c) + V2_FIXED;
    uint8_t *buf = scratch_place(ctx, body, f, kept);
    if (!buf)
        return fail_nomem(c, ctx, err);
    size_t ost_off = SCRATCH_REC + (size_t)kept * COMP_SIZE;
    int64_t room = (int64_t)((IOS_LUSTRE_SCRATCH - ost_off) / 8);
    int64_t n = total < 0 ? 0 : (total > room ? room : total);

    struct iosage_lustre_comp *comps = rec->x.lustre.comps;
    for (int64_t i = 0; i < kept; i++) {
        size_t at = SCRATCH_REC + (size_t)i * COMP_SIZE + POOL_OFF;
        comps[i].pool_name =
            arena_strndup(arena, buf + at, IOS_LUSTRE_SCRATCH - at);
        if (!comps[i].pool_name)
            return fail_nomem(c, ctx, err);
    }
    int64_t *ids = n ? ios_arena_alloc(arena, (size_t)n * 8) : NULL;
    if (n && !ids)
        return fail_nomem(c, ctx, err);
    for (int64_t i = 0; i < n; i++)
        ids[i] = ios_load_i64(buf + ost_off + 8 * i, c->swap);
    rec->x.lustre.ost_ids = ids;
    rec->x.lustre.num_stripes = n;
    return IOSAGE_OK;
}

/* Default mode: OST ids and pool names from the record only; at most the
 * stored number of ids. */
static int fill_from_record(ios_cursor *c, ios_mod_ctx *ctx,
                            iosage_record *rec, ios_arena *arena,
                            const struct v2_fixed *f, int64_t kept,
                            int64_t total, iosage_error *err)
{
    const uint8_t *body = cur_at(c) + V2_FIXED;
    const uint8_t *osts = body + (size_t)f->num_comps * COMP_SIZE;
    int64_t n = total > f->num_stripes ? f->num_stripes : total;

    struct iosage_lustre_comp *comps = rec->x.lustre.comps;
    for (int64_t i = 0; i < kept; i++) {
        comps[i].pool_name = arena_strndup(
            arena, body + (size_t)i * COMP_SIZE + POOL_OFF, POOL_LEN);
        if (!comps[i].pool_name)
            return fail_nomem(c, ctx, err);
    }
    int64_t *ids = n ? ios_arena_alloc(arena, (size_t)n * 8) : NULL;
    if (n && !ids)
        return fail_nomem(c, ctx, err);
    for (int64_t i = 0; i < n; i++)
        ids[i] = ios_load_i64(osts + 8 * i, c->swap);
    rec->x.lustre.ost_ids = ids;
    rec->x.lustre.num_stripes = n;
    return IOSAGE_OK;
}

/* Decode the components and OST ids of a v2 record with num_comps >= 1
 * whose sizes were checked. */
static int decode_v2_body(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                          ios_arena *arena, const struct v2_fixed *f,
                          iosage_error *err)
{
    const uint8_t *body = cur_at(c) + V2_FIXED;
    int sw = c->swap;
    int64_t kept = kept_components(body, f->num_comps, sw);
    int64_t total = stripe_total(body, kept, sw, ctx->compat);

    struct iosage_lustre_comp *comps =
        kept ? ios_arena_alloc(arena, (size_t)kept * sizeof *comps) : NULL;
    if (kept && !comps)
        return fail_nomem(c, ctx, err);
    for (int64_t i = 0; i < kept; i++)
        load_component(&comps[i], body + (size_t)i * COMP_SIZE, sw);
    rec->x.lustre.num_comps = kept;
    rec->x.lustre.comps = comps;

    int rc = ctx->compat
                 ? fill_from_scratch(c, ctx, rec, arena, f, kept, total, err)
                 : fill_from_record(c, ctx, rec, arena, f, kept, total, err);
    if (rc != IOSAGE_OK)
        return rc;
    c->pos += V2_FIXED + (size_t)f->num_comps * COMP_SIZE +
              (size_t)f->num_stripes * 8;
    return IOSAGE_OK;
}

/* Decode a v2 record (rules 1-3, and 4 in compat mode). */
static int decode_v2(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                     ios_arena *arena, iosage_error *err)
{
    size_t left = ios_cur_left(c);
    if (left < V2_FIXED)
        return IOS_DECODE_SHORT;
    const uint8_t *p = cur_at(c);
    struct v2_fixed f;
    rec->id = ios_load_u64(p, c->swap);
    rec->rank = ios_load_i64(p + 8, c->swap);
    f.num_comps = ios_load_i64(p + 16, c->swap);
    f.num_stripes = ios_load_i64(p + 24, c->swap);

    if (f.num_comps < 1) { /* rule 1 */
        rec->x.lustre.num_comps = f.num_comps;
        rec->x.lustre.num_stripes = f.num_stripes;
        c->pos += V2_FIXED;
        return IOSAGE_OK;
    }
    int rc = check_v2_sizes(c, ctx, &f, left - V2_FIXED, err);
    if (rc != IOSAGE_OK)
        return rc;
    return decode_v2_body(c, ctx, rec, arena, &f, err);
}

int ios_lustre_decode(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                      ios_arena *arena, iosage_error *err)
{
    switch (ctx->version) {
    case 1:
        return decode_v1(c, ctx, rec, arena, err);
    case 2:
        return decode_v2(c, ctx, rec, arena, err);
    default:
        return ios_fail(err, IOSAGE_E_UNSUPPORTED, ctx->path, WHERE,
                        (int64_t)c->pos, "Lustre record version %u",
                        (unsigned)ctx->version);
    }
}

/* --- encoder (v2) ---------------------------------------------------------- */

static iosage_status encode_fail(iosage_error *err, const char *msg)
{
    return ios_fail(err, IOSAGE_E_USAGE, NULL, WHERE, -1, "%s", msg);
}

/* Append one 72-byte component; the pool name is cut to 16 bytes. */
static void encode_component(ios_buf *out, const struct iosage_lustre_comp *k)
{
    uint8_t pool[POOL_LEN] = {0};
    ios_buf_i64(out, k->stripe_size);
    ios_buf_i64(out, k->stripe_count);
    ios_buf_i64(out, k->stripe_pattern);
    ios_buf_i64(out, k->flags);
    ios_buf_i64(out, k->ext_start);
    ios_buf_i64(out, k->ext_end);
    ios_buf_i64(out, k->mirror_id);
    if (k->pool_name)
        memcpy(pool, k->pool_name, strnlen(k->pool_name, POOL_LEN));
    ios_buf_append(out, pool, POOL_LEN);
}

/*
 * Append rec as a v2 record. A record with num_comps < 1 is written as its
 * 32-byte fixed part only (rule 1 reads it back the same way).
 */
iosage_status ios_lustre_encode(const iosage_record *rec, ios_buf *out,
                                iosage_error *err)
{
    const int64_t nc = rec->x.lustre.num_comps;
    const int64_t ns = rec->x.lustre.num_stripes;
    if (nc >= 1 && !rec->x.lustre.comps)
        return encode_fail(err, "Lustre record has components but no array");
    if (nc >= 1 && ns < 0)
        return encode_fail(err, "Lustre record with negative stripe total");
    if (nc >= 1 && ns > 0 && !rec->x.lustre.ost_ids)
        return encode_fail(err, "Lustre record has stripes but no OST ids");

    ios_buf_u64(out, rec->id);
    ios_buf_i64(out, rec->rank);
    ios_buf_i64(out, nc);
    ios_buf_i64(out, ns);
    for (int64_t i = 0; i < nc; i++)
        encode_component(out, &rec->x.lustre.comps[i]);
    for (int64_t i = 0; nc >= 1 && i < ns; i++)
        ios_buf_i64(out, rec->x.lustre.ost_ids[i]);
    if (out->oom)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, WHERE, -1,
                        "out of memory encoding a Lustre record");
    return IOSAGE_OK;
}
