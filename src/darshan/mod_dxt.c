/*
 * src/darshan/mod_dxt.c - DXT_POSIX and DXT_MPIIO trace records (format
 * spec 9.10).
 *
 * One record per (file, rank):
 *
 *   off  type      field
 *     0  uint64    id
 *     8  int64     rank
 *    16  int64     shared_record
 *    24  char[64]  hostname, NUL-padded (may fill all 64 bytes)
 *    88  int64     write_count
 *    96  int64     read_count
 *   104  segment[write_count + read_count], writes first, then reads
 *
 * Segment: int64 offset, int64 length, double start, double end (32 bytes);
 * DXT_POSIX v2 and DXT_MPIIO v3 (Darshan after 3.5.0) append a uint64
 * pthread id (40 bytes).
 *
 * Versions read: DXT_POSIX 1-2, DXT_MPIIO 1-3. DXT_MPIIO v1 offsets are
 * meaningless and come out as -1. The reference reader leaves the pthread id
 * unswapped on byte-swapped logs; compat mode does the same, default mode
 * swaps it. Written: DXT_POSIX v1 and DXT_MPIIO v2 (32-byte segments, the
 * pthread id is dropped).
 */
#include "internal.h"

#define DXT_FIXED 104
#define HOST_LEN 64
#define SEG_V1 32   /* offset, length, start, end */
#define SEG_TID 40  /* ... plus pthread id */

static const char *dxt_where(int module)
{
    return module == IOSAGE_MOD_DXT_MPIIO ? "DXT_MPIIO" : "DXT_POSIX";
}

/* Bytes per segment of this module and record version, 0 if the version is
 * not one we read. */
static size_t segment_size(int module, uint32_t version)
{
    if (module == IOSAGE_MOD_DXT_POSIX)
        return version == 1 ? SEG_V1 : version == 2 ? SEG_TID : 0;
    if (module == IOSAGE_MOD_DXT_MPIIO)
        return version == 1 || version == 2 ? SEG_V1
               : version == 3               ? SEG_TID
                                            : 0;
    return 0;
}

/* Check write/read counts against the avail bytes after the fixed part.
 * Counts are bounded before they are multiplied. */
static int check_counts(const ios_cursor *c, const ios_mod_ctx *ctx,
                        int64_t wc, int64_t rc, size_t seg, size_t avail,
                        iosage_error *err)
{
    const char *where = dxt_where(ctx->module);
    if (wc < 0 || rc < 0)
        return ios_fail(err, IOSAGE_E_CORRUPT, ctx->path, where,
                        (int64_t)c->pos,
                        "DXT record with negative segment count (write %lld, "
                        "read %lld)", (long long)wc, (long long)rc);
    if ((uint64_t)wc > avail / seg ||
        (uint64_t)rc > (avail - (size_t)wc * seg) / seg)
        return ios_fail(err, IOSAGE_E_TRUNCATED, ctx->path, where,
                        (int64_t)c->pos,
                        "DXT record announces %lld write and %lld read "
                        "segments, only %zu bytes left",
                        (long long)wc, (long long)rc, avail);
    return IOSAGE_OK;
}

/* Decode n segments of seg bytes each from src into dst. */
static void load_segments(struct iosage_dxt_segment *dst, const uint8_t *src,
                          size_t n, size_t seg, const ios_mod_ctx *ctx,
                          int sw)
{
    int v1_mpiio = ctx->module == IOSAGE_MOD_DXT_MPIIO && ctx->version == 1;
    int swap_tid = sw && !ctx->compat;
    for (size_t i = 0; i < n; i++, src += seg) {
        dst[i].offset = v1_mpiio ? -1 : ios_load_i64(src, sw);
        dst[i].length = ios_load_i64(src + 8, sw);
        dst[i].start_time = ios_load_f64(src + 16, sw);
        dst[i].end_time = ios_load_f64(src + 24, sw);
        dst[i].pthread_id = seg == SEG_TID ? ios_load_u64(src + 32, swap_tid)
                                           : 0;
    }
}

/* Copy the 64-byte hostname field, stopping at the first NUL. */
/* The stored host name (HOST_LEN bytes, NUL-padded or not) as a string in
 * arena, or NULL on no memory. */
static const char *load_hostname(const uint8_t *src, ios_arena *arena)
{
    size_t n = 0;
    while (n < HOST_LEN && src[n] != 0)
        n++;
    char *dst = ios_arena_alloc(arena, n + 1);
    if (dst)
        memcpy(dst, src, n);
    return dst;
}

int ios_dxt_decode(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                   ios_arena *arena, iosage_error *err)
{
    size_t seg = segment_size(ctx->module, ctx->version);
    if (seg == 0)
        return ios_fail(err, IOSAGE_E_UNSUPPORTED, ctx->path,
                        dxt_where(ctx->module), (int64_t)c->pos,
                        "DXT record version %u", (unsigned)ctx->version);
    size_t left = ios_cur_left(c);
    if (left < DXT_FIXED)
        return IOS_DECODE_SHORT;
    const uint8_t *p = c->p + c->pos;
    int sw = c->swap;
    int64_t wc = ios_load_i64(p + 88, sw);
    int64_t rc = ios_load_i64(p + 96, sw);
    int st = check_counts(c, ctx, wc, rc, seg, left - DXT_FIXED, err);
    if (st != IOSAGE_OK)
        return st;

    size_t n = (size_t)wc + (size_t)rc;
    /* not zeroed: load_segments writes every field of every segment */
    struct iosage_dxt_segment *segs =
        n ? ios_arena_alloc_filled(arena, n * sizeof *segs) : NULL;
    if (n && !segs)
        return ios_fail(err, IOSAGE_E_NOMEM, ctx->path, dxt_where(ctx->module),
                        (int64_t)c->pos, "out of memory for %zu DXT segments",
                        n);
    rec->id = ios_load_u64(p, sw);
    rec->rank = ios_load_i64(p + 8, sw);
    rec->x.dxt.shared_record = ios_load_i64(p + 16, sw);
    if (!(rec->x.dxt.hostname = load_hostname(p + 24, arena)))
        return ios_fail(err, IOSAGE_E_NOMEM, ctx->path, dxt_where(ctx->module),
                        (int64_t)c->pos, "out of memory for a DXT host name");
    rec->x.dxt.write_count = wc;
    rec->x.dxt.read_count = rc;
    load_segments(segs, p + DXT_FIXED, n, seg, ctx, sw);
    rec->x.dxt.segs = segs;
    c->pos += DXT_FIXED + n * seg;
    return IOSAGE_OK;
}

/*
 * Append rec as DXT_POSIX v1 / DXT_MPIIO v2: the 104-byte fixed part and
 * 32-byte segments. Errors: negative counts, or segments missing.
 */
iosage_status ios_dxt_encode(const iosage_record *rec, ios_buf *out,
                             iosage_error *err)
{
    const char *where = dxt_where(rec->module);
    int64_t wc = rec->x.dxt.write_count, rc = rec->x.dxt.read_count;
    if (wc < 0 || rc < 0 || (wc > INT64_MAX - rc))
        return ios_fail(err, IOSAGE_E_USAGE, NULL, where, -1,
                        "DXT record with invalid segment counts");
    if (wc + rc > 0 && !rec->x.dxt.segs)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, where, -1,
                        "DXT record has segment counts but no segments");

    uint8_t host[HOST_LEN] = {0};
    const char *name = rec->x.dxt.hostname ? rec->x.dxt.hostname : "";
    memcpy(host, name, strnlen(name, HOST_LEN));
    ios_buf_u64(out, rec->id);
    ios_buf_i64(out, rec->rank);
    ios_buf_i64(out, rec->x.dxt.shared_record);
    ios_buf_append(out, host, HOST_LEN);
    ios_buf_i64(out, wc);
    ios_buf_i64(out, rc);
    for (int64_t i = 0; i < wc + rc && !out->oom; i++) {
        const struct iosage_dxt_segment *s = &rec->x.dxt.segs[i];
        ios_buf_i64(out, s->offset);
        ios_buf_i64(out, s->length);
        ios_buf_f64(out, s->start_time);
        ios_buf_f64(out, s->end_time);
    }
    if (out->oom)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, where, -1,
                        "out of memory encoding a DXT record");
    return IOSAGE_OK;
}
