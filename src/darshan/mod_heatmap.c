/*
 * src/darshan/mod_heatmap.c - HEATMAP records (format spec 9.11).
 *
 *   off       type          field
 *     0       uint64        id (hash of "heatmap:<API>")
 *     8       int64         rank
 *    16       double        bin width in seconds
 *    24       int64         nbins
 *    32       16 bytes      two pointers of the writer: ignored, written 0
 *    48       int64[nbins]  bytes written per bin
 *    48+8n    int64[nbins]  bytes read per bin
 *
 * Bin normalisation (both modes; it works around a 3.4.0-3.4.3 runtime
 * bug): the first record of the region fixes a reference (nbins, width). A
 * later record with the same width and one bin more loses its last bin; one
 * with one bin fewer gains a zero bin at the end. x.heatmap.nbins is the
 * normalised count.
 *
 * Size limit: compat mode refuses records over the reference reader's
 * 81,920 bytes (more than 5117 bins) with IOSAGE_E_LIMIT; default mode
 * accepts any record that fits in the region.
 */
#include "internal.h"

#define WHERE "HEATMAP"
#define HM_FIXED 48
/* The reference reader's per-module record buffer (same size as Lustre's). */
#define REF_RECORD_MAX IOS_LUSTRE_SCRATCH

/* Adjust nbins against the region's reference (set by the first record). */
static int64_t normalise_bins(ios_mod_ctx *ctx, int64_t nbins, double width)
{
    if (!ctx->heatmap_have_ref) {
        ctx->heatmap_have_ref = 1;
        ctx->heatmap_ref_nbins = nbins;
        ctx->heatmap_ref_width = width;
        return nbins;
    }
    if (width != ctx->heatmap_ref_width)
        return nbins;
    if (nbins == ctx->heatmap_ref_nbins + 1 ||
        nbins == ctx->heatmap_ref_nbins - 1)
        return ctx->heatmap_ref_nbins;
    return nbins;
}

/* Check the stored bin count; counts are bounded before multiplying. */
static int check_bins(const ios_cursor *c, const ios_mod_ctx *ctx,
                      int64_t nbins, size_t avail, iosage_error *err)
{
    if (nbins < 0)
        return ios_fail(err, IOSAGE_E_CORRUPT, ctx->path, WHERE,
                        (int64_t)c->pos, "heatmap record with %lld bins",
                        (long long)nbins);
    if (ctx->compat && (uint64_t)nbins > (REF_RECORD_MAX - HM_FIXED) / 16)
        return ios_fail(err, IOSAGE_E_LIMIT, ctx->path, WHERE,
                        (int64_t)c->pos,
                        "heatmap record of %lld bins exceeds the reference "
                        "reader's %d-byte limit", (long long)nbins,
                        REF_RECORD_MAX);
    if ((uint64_t)nbins > avail / 16)
        return ios_fail(err, IOSAGE_E_TRUNCATED, ctx->path, WHERE,
                        (int64_t)c->pos,
                        "heatmap record announces %lld bins, only %zu bytes "
                        "left", (long long)nbins, avail);
    return IOSAGE_OK;
}

/* Load min(stored, out) bins from src into a new array of out entries (the
 * rest stay 0). NULL on no memory; NULL is also returned for out == 0. */
static int64_t *load_bins(ios_arena *arena, const uint8_t *src,
                          int64_t stored, int64_t out, int sw)
{
    if (out == 0)
        return NULL;
    int64_t *bins = ios_arena_alloc(arena, (size_t)out * 8);
    if (!bins)
        return NULL;
    int64_t n = stored < out ? stored : out;
    for (int64_t i = 0; i < n; i++)
        bins[i] = ios_load_i64(src + 8 * i, sw);
    return bins;
}

int ios_heatmap_decode(ios_cursor *c, ios_mod_ctx *ctx, iosage_record *rec,
                       ios_arena *arena, iosage_error *err)
{
    if (ctx->version != 1)
        return ios_fail(err, IOSAGE_E_UNSUPPORTED, ctx->path, WHERE,
                        (int64_t)c->pos, "heatmap record version %u",
                        (unsigned)ctx->version);
    size_t left = ios_cur_left(c);
    if (left < HM_FIXED)
        return IOS_DECODE_SHORT;
    const uint8_t *p = c->p + c->pos;
    int sw = c->swap;
    double width = ios_load_f64(p + 16, sw);
    int64_t stored = ios_load_i64(p + 24, sw);
    int st = check_bins(c, ctx, stored, left - HM_FIXED, err);
    if (st != IOSAGE_OK)
        return st;

    int64_t nbins = normalise_bins(ctx, stored, width);
    const uint8_t *wsrc = p + HM_FIXED;
    const uint8_t *rsrc = wsrc + (size_t)stored * 8;
    int64_t *wbins = load_bins(arena, wsrc, stored, nbins, sw);
    int64_t *rbins = load_bins(arena, rsrc, stored, nbins, sw);
    if (nbins > 0 && (!wbins || !rbins))
        return ios_fail(err, IOSAGE_E_NOMEM, ctx->path, WHERE,
                        (int64_t)c->pos, "out of memory for %lld heatmap bins",
                        (long long)nbins);
    rec->id = ios_load_u64(p, sw);
    rec->rank = ios_load_i64(p + 8, sw);
    rec->x.heatmap.bin_width = width;
    rec->x.heatmap.nbins = nbins;
    rec->x.heatmap.write_bins = wbins;
    rec->x.heatmap.read_bins = rbins;
    c->pos += HM_FIXED + (size_t)stored * 16;
    return IOSAGE_OK;
}

/* Append rec as a v1 record: fixed part with zeroed pointer slots, write
 * bins, then read bins. Errors: negative nbins or missing bin arrays. */
iosage_status ios_heatmap_encode(const iosage_record *rec, ios_buf *out,
                                 iosage_error *err)
{
    int64_t n = rec->x.heatmap.nbins;
    if (n < 0)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, WHERE, -1,
                        "heatmap record with negative bin count");
    if (n > 0 && (!rec->x.heatmap.write_bins || !rec->x.heatmap.read_bins))
        return ios_fail(err, IOSAGE_E_USAGE, NULL, WHERE, -1,
                        "heatmap record has bins but no bin arrays");
    ios_buf_u64(out, rec->id);
    ios_buf_i64(out, rec->rank);
    ios_buf_f64(out, rec->x.heatmap.bin_width);
    ios_buf_i64(out, n);
    ios_buf_zeros(out, 16);
    for (int64_t i = 0; i < n && !out->oom; i++)
        ios_buf_i64(out, rec->x.heatmap.write_bins[i]);
    for (int64_t i = 0; i < n && !out->oom; i++)
        ios_buf_i64(out, rec->x.heatmap.read_bins[i]);
    if (out->oom)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, WHERE, -1,
                        "out of memory encoding a heatmap record");
    return IOSAGE_OK;
}
