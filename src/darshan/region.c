/*
 * region.c - decompress one stored region, compress one for the writer.
 *
 * A stored region is one or more independent streams back to back (one per
 * MPI rank, spec 5.1). The decoder is restarted after every end-of-stream
 * while input remains. Input that ends inside a stream is a truncated region:
 * what was decoded is kept and *truncated is set. A stream the decoder
 * rejects is IOSAGE_E_DECOMPRESS; the bytes decoded before it are still
 * returned so a module can keep the records that came first.
 *
 * Output grows geometrically and is capped: more than max_out bytes is
 * IOSAGE_E_LIMIT (the cap is checked by allowing one byte more than it).
 *
 * zlib regions are first tried with libdeflate, which decodes a whole
 * stream held in memory two to three times faster than zlib's inflate
 * (inflating was 78% of the instructions of `iosage dump --all` on the
 * largest shared log). libdeflate only says "bad data" or "no room", so
 * a region it cannot decode whole, for whatever reason, is decoded again
 * by zlib, which tells exactly what is wrong and where, and keeps what came
 * before the damage. The tracer (trace/), which compiles this file too but
 * never reads a log, builds without IOSAGE_LIBDEFLATE and so without it.
 *
 * Except the first small regions of a process: libdeflate probes the CPU
 * on first use (four cpuid instructions, each a trap to the hypervisor on a
 * virtual machine: 9 us a call on the one this was measured on), which
 * costs more than zlib's slower decoding of a few kilobytes. See
 * fast_worth_it().
 */
#include <bzlib.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef IOSAGE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "internal.h"
#include "ios_bigmem.h"

#define CHUNK_IN ((size_t)1 << 30) /* zlib/bzip2 take unsigned int counts */

/* Output under construction. */
typedef struct outbuf {
    uint8_t *p;
    size_t len, cap;
    size_t limit; /* max_out + 1: reaching it means "over the cap" */
} outbuf;

/* Where the error messages point. */
typedef struct region_ctx {
    const char *path;
    const char *where;
    uint64_t off; /* file offset of the region */
} region_ctx;

/* Ensure free space in o; 0 ok, -1 no memory, 1 the cap is reached. */
static int out_grow(outbuf *o, size_t src_len)
{
    if (o->len < o->cap)
        return 0;
    if (o->cap >= o->limit)
        return 1;
    size_t cap = o->cap ? o->cap * 2 : (src_len < 4096 ? 16384 : src_len * 4);
    if (cap < o->cap || cap > o->limit)
        cap = o->limit;
    uint8_t *p = ios_big_realloc(o->p, cap);
    if (!p)
        return -1;
    o->p = p;
    o->cap = cap;
    return 0;
}

static iosage_status fail_limit(const region_ctx *rc, size_t max_out,
                                iosage_error *err)
{
    return ios_fail(err, IOSAGE_E_LIMIT, rc->path, rc->where, (int64_t)rc->off,
                    "region decompresses to more than %zu bytes", max_out);
}

static iosage_status fail_nomem(const region_ctx *rc, iosage_error *err)
{
    return ios_fail(err, IOSAGE_E_NOMEM, rc->path, rc->where, (int64_t)rc->off,
                    "out of memory while decompressing the region");
}

/* --- zlib, fast path ------------------------------------------------------ */

#ifdef IOSAGE_LIBDEFLATE

/* Resize o to cap bytes; 0, or -1 on no memory (o unchanged). */
static int set_cap(outbuf *o, size_t cap)
{
    uint8_t *p = ios_big_realloc(o->p, cap);
    if (!p)
        return -1;
    o->p = p;
    o->cap = cap;
    return 0;
}

/* times x src_len bytes, at least 16 KiB, at most the cap. */
static size_t guess(const outbuf *o, size_t src_len, size_t times)
{
    size_t cap = src_len > SIZE_MAX / times ? SIZE_MAX : src_len * times;
    if (cap < 16384)
        cap = 16384;
    return cap > o->limit ? o->limit : cap;
}

/*
 * Room for libdeflate: at least twice the current capacity, never over the
 * cap. libdeflate needs the whole output buffer up front, and when it runs
 * out the stream is decoded again from its start, so the first guess
 * matters: 32 times the input. Regions of 2 KiB or more of the shared logs
 * and data/bench-runs inflate 2.1 to 33.5 times (median 7.2, 90% under
 * 13.8; 6 of 623 over 32): with the former first guess of 8 times, the
 * regions decoded twice held 42% of the shared logs' decoded bytes and 79%
 * of data/bench-runs'. The pages of the guess that the output does
 * not reach are never touched. When that much memory is refused (a limit
 * on address space), 8 times, then the doubling. 0 ok, -1 no memory, 1 the
 * cap is reached.
 */
static int fast_grow(outbuf *o, size_t src_len)
{
    if (o->cap >= o->limit)
        return 1;
    if (o->cap == 0)
        return set_cap(o, guess(o, src_len, 32)) == 0 ||
                       set_cap(o, guess(o, src_len, 8)) == 0
                   ? 0
                   : -1;
    size_t cap = o->cap > SIZE_MAX / 2 ? SIZE_MAX : o->cap * 2;
    return set_cap(o, cap > o->limit ? o->limit : cap);
}

/*
 * 1 when a zlib region of len compressed bytes should go to libdeflate.
 * A process decodes its first ZLIB_FIRST compressed bytes with zlib, as
 * long as each region fits in what is left of them: libdeflate's CPU
 * probe costs about what zlib loses to it on that much input (zlib for
 * every region under 4 KiB made a batch of data/bench-runs 8.4 us a log
 * slower, on logs of 3 KiB), so `iosage dump` of a small log never pays
 * the probe (about 3% of the whole process on the empty shared log) and a
 * batch pays it once, after its first few logs. Threads of a batch share
 * the count; a race only moves the switch by a region.
 */
#define ZLIB_FIRST 16384
static atomic_long zlib_left = ZLIB_FIRST;

/* See internal.h. */
void ios_region_set_zlib_first(long bytes)
{
    atomic_store_explicit(&zlib_left, bytes, memory_order_relaxed);
}

static int fast_worth_it(size_t len)
{
    long left = atomic_load_explicit(&zlib_left, memory_order_relaxed);
    if (left <= 0)
        return 1;
    if (len > (size_t)left) {
        atomic_store_explicit(&zlib_left, 0, memory_order_relaxed);
        return 1;
    }
    atomic_fetch_sub_explicit(&zlib_left, (long)len, memory_order_relaxed);
    return 0;
}

/* Decode every zlib stream of src into o with libdeflate. Returns 0 when
 * all of src was decoded, 1 when zlib must do it instead (damage,
 * truncation, the cap; o->len is then 0), -1 when memory ran out. */
static int inflate_fast(const uint8_t *src, size_t len, outbuf *o)
{
    if (!fast_worth_it(len))
        return 1;
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    if (!d)
        return -1;
    int rc = 0;
    size_t pos = 0;
    if (o->cap == 0 && (rc = fast_grow(o, len)) != 0)
        goto done;
    while (pos < len) {
        size_t in_used = 0, out_used = 0;
        enum libdeflate_result r = libdeflate_zlib_decompress_ex(
            d, src + pos, len - pos, o->p + o->len, o->cap - o->len,
            &in_used, &out_used);
        if (r == LIBDEFLATE_SUCCESS) {
            pos += in_used; /* the next rank's stream, if any */
            o->len += out_used;
        } else if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
            if ((rc = fast_grow(o, len)) != 0) /* then decode it again */
                break;
        } else {
            rc = 1; /* damaged or truncated: zlib will say how */
            break;
        }
    }
done:
    libdeflate_free_decompressor(d);
    if (rc != 0)
        o->len = 0;
    return rc;
}
#else
void ios_region_set_zlib_first(long bytes)
{
    (void)bytes; /* no libdeflate: zlib does it all */
}

static int inflate_fast(const uint8_t *src, size_t len, outbuf *o)
{
    (void)src;
    (void)len;
    (void)o;
    return 1; /* no libdeflate: zlib does it all */
}
#endif

/* --- zlib ---------------------------------------------------------------- */

/*
 * Inflate every zlib stream of src into o. Returns IOSAGE_OK (with
 * *truncated set when the input ended inside a stream) or an error.
 */
static iosage_status inflate_zlib(const uint8_t *src, size_t len, outbuf *o,
                                  int *truncated, const region_ctx *rc,
                                  iosage_error *err)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK)
        return fail_nomem(rc, err);
    size_t used = 0;     /* input bytes handed to zlib so far */
    int stream_no = 1;
    iosage_status st = IOSAGE_OK;
    for (;;) {
        if (z.avail_in == 0 && used < len) {
            size_t n = len - used < CHUNK_IN ? len - used : CHUNK_IN;
            z.next_in = (Bytef *)(uintptr_t)(src + used);
            z.avail_in = (uInt)n;
            used += n;
        }
        int g = out_grow(o, len);
        if (g != 0) {
            st = g < 0 ? fail_nomem(rc, err)
                       : fail_limit(rc, o->limit - 1, err);
            break;
        }
        z.next_out = o->p + o->len;
        z.avail_out = (uInt)(o->cap - o->len < CHUNK_IN ? o->cap - o->len
                                                        : CHUNK_IN);
        uInt before = z.avail_out;
        int r = inflate(&z, Z_NO_FLUSH);
        o->len += before - z.avail_out;
        size_t consumed = used - z.avail_in;
        if (r == Z_STREAM_END) {
            if (consumed == len)
                break;
            inflateReset(&z); /* next rank's stream */
            stream_no++;
        } else if (r == Z_BUF_ERROR || r == Z_OK) {
            if (z.avail_in == 0 && used == len && z.avail_out != 0) {
                *truncated = 1; /* input ended inside a stream */
                break;
            }
        } else if (r == Z_MEM_ERROR) {
            st = fail_nomem(rc, err);
            break;
        } else {
            st = ios_fail(err, IOSAGE_E_DECOMPRESS, rc->path, rc->where,
                          (int64_t)(rc->off + consumed),
                          "zlib stream %d of the region is damaged: %s",
                          stream_no, z.msg ? z.msg : "invalid data");
            break;
        }
    }
    inflateEnd(&z);
    return st;
}

/* --- bzip2 --------------------------------------------------------------- */

static const char *bz_text(int r)
{
    switch (r) {
    case BZ_DATA_ERROR_MAGIC: return "not a bzip2 stream (bad magic)";
    case BZ_DATA_ERROR: return "data integrity error";
    case BZ_PARAM_ERROR: return "parameter error";
    default: return "invalid data";
    }
}

/* As inflate_zlib, for concatenated bzip2 streams. */
static iosage_status inflate_bzip2(const uint8_t *src, size_t len, outbuf *o,
                                   int *truncated, const region_ctx *rc,
                                   iosage_error *err)
{
    bz_stream z;
    memset(&z, 0, sizeof z);
    if (BZ2_bzDecompressInit(&z, 0, 0) != BZ_OK)
        return fail_nomem(rc, err);
    size_t used = 0;
    int stream_no = 1;
    iosage_status st = IOSAGE_OK;
    for (;;) {
        if (z.avail_in == 0 && used < len) {
            size_t n = len - used < CHUNK_IN ? len - used : CHUNK_IN;
            z.next_in = (char *)(uintptr_t)(src + used);
            z.avail_in = (unsigned)n;
            used += n;
        }
        int g = out_grow(o, len);
        if (g != 0) {
            st = g < 0 ? fail_nomem(rc, err)
                       : fail_limit(rc, o->limit - 1, err);
            break;
        }
        z.next_out = (char *)(o->p + o->len);
        z.avail_out = (unsigned)(o->cap - o->len < CHUNK_IN ? o->cap - o->len
                                                            : CHUNK_IN);
        unsigned before = z.avail_out;
        int r = BZ2_bzDecompress(&z);
        o->len += before - z.avail_out;
        size_t consumed = used - z.avail_in;
        if (r == BZ_STREAM_END) {
            if (consumed == len)
                break;
            BZ2_bzDecompressEnd(&z); /* next rank's stream */
            const char *next_in = z.next_in;
            unsigned avail_in = z.avail_in;
            memset(&z, 0, sizeof z);
            if (BZ2_bzDecompressInit(&z, 0, 0) != BZ_OK) {
                st = fail_nomem(rc, err);
                return st;
            }
            z.next_in = (char *)(uintptr_t)next_in;
            z.avail_in = avail_in;
            stream_no++;
        } else if (r == BZ_OK) {
            if (z.avail_in == 0 && used == len && z.avail_out != 0) {
                *truncated = 1;
                break;
            }
        } else if (r == BZ_MEM_ERROR) {
            st = fail_nomem(rc, err);
            break;
        } else {
            st = ios_fail(err, IOSAGE_E_DECOMPRESS, rc->path, rc->where,
                          (int64_t)(rc->off + consumed),
                          "bzip2 stream %d of the region is damaged: %s",
                          stream_no, bz_text(r));
            break;
        }
    }
    BZ2_bzDecompressEnd(&z);
    return st;
}

/* --- limits ---------------------------------------------------------------- */

/* A positive number from the environment, or def. */
static double env_number(const char *name, double def)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return def;
    char *end;
    double v = strtod(s, &end);
    return (*end == '\0' && v > 0) ? v : def;
}

/* "2.00 MiB" from 1 MiB up, "900 bytes" under it. (The tracer compiles
 * this file without src/common's number formatting.) */
static const char *size_text(char *buf, size_t size, double bytes)
{
    const double mib = 1024.0 * 1024.0;
    if (bytes >= mib)
        snprintf(buf, size, "%.2f MiB", bytes / mib);
    else
        snprintf(buf, size, "%.0f bytes", bytes);
    return buf;
}

uint64_t ios_region_limit(int module_id, uint64_t stored_len, char *why,
                          size_t why_size)
{
    double ratio = module_id == IOSAGE_MOD_HEATMAP ? IOS_INFLATE_RATIO_HEATMAP
                                                   : IOS_INFLATE_RATIO;
    ratio = env_number("IOSAGE_MAX_INFLATE_RATIO", ratio);
    double cap = env_number("IOSAGE_MAX_REGION_BYTES", (double)IOS_INFLATE_CAP);
    double floor = (double)IOS_INFLATE_FLOOR;
    if (floor > cap)
        floor = cap;
    double lim = ratio * (double)stored_len;
    if (lim < floor)
        lim = floor;
    if (lim > cap)
        lim = cap;
    if (lim > (double)(UINT64_MAX / 2))
        lim = (double)(UINT64_MAX / 2);
    char l[32], st[32], fl[32], cp[32];
    snprintf(why, why_size, "%s (%g times its %s stored, at least %s, at "
             "most %s; IOSAGE_MAX_INFLATE_RATIO and IOSAGE_MAX_REGION_BYTES "
             "allow more)", size_text(l, sizeof l, lim), ratio,
             size_text(st, sizeof st, (double)stored_len),
             size_text(fl, sizeof fl, floor), size_text(cp, sizeof cp, cap));
    return (uint64_t)lim;
}

/* --- entry points -------------------------------------------------------- */

/* See internal.h. On IOSAGE_E_DECOMPRESS *out still holds the bytes decoded
 * before the damage (caller frees); on other errors *out is NULL. */
iosage_status ios_region_inflate(const uint8_t *src, size_t len, int comp,
                                 uint64_t max_out, uint8_t **out,
                                 size_t *out_len, int *truncated,
                                 const char *path, const char *where,
                                 uint64_t region_off, iosage_error *err)
{
    region_ctx rc = {path, where, region_off};
    outbuf o = {NULL, 0, 0, 0};
    *out = NULL;
    *out_len = 0;
    *truncated = 0;
    if (max_out > SIZE_MAX - 1)
        max_out = SIZE_MAX - 1;
    o.limit = (size_t)max_out + 1;

    iosage_status st;
    if (comp == IOSAGE_COMP_NONE) {
        if (len > max_out)
            return fail_limit(&rc, (size_t)max_out, err);
        if (len == 0)
            return IOSAGE_OK;
        if (!(o.p = malloc(len)))
            return fail_nomem(&rc, err);
        memcpy(o.p, src, len);
        o.len = len;
        st = IOSAGE_OK;
    } else if (len == 0) {
        return IOSAGE_OK;
    } else if (comp == IOSAGE_COMP_ZLIB) {
        int fast = inflate_fast(src, len, &o);
        if (fast < 0) {
            free(o.p);
            return fail_nomem(&rc, err);
        }
        st = fast == 0 ? IOSAGE_OK
                       : inflate_zlib(src, len, &o, truncated, &rc, err);
    } else if (comp == IOSAGE_COMP_BZIP2) {
        st = inflate_bzip2(src, len, &o, truncated, &rc, err);
    } else {
        return ios_fail(err, IOSAGE_E_UNSUPPORTED, path, where,
                        (int64_t)region_off, "unknown compression type %d",
                        comp);
    }
    if (st == IOSAGE_OK && o.len > max_out) /* filled the one spare byte */
        st = fail_limit(&rc, (size_t)max_out, err);
    if (st != IOSAGE_OK && st != IOSAGE_E_DECOMPRESS) {
        free(o.p);
        return st;
    }
    *out = o.p;
    *out_len = o.len;
    return st;
}

/* Compress src[0..len) into one zlib stream (deflateInit framing) appended
 * to out. */
iosage_status ios_region_deflate(const uint8_t *src, size_t len, ios_buf *out,
                                 iosage_error *err)
{
    if (len > UINT_MAX / 2)
        return ios_fail(err, IOSAGE_E_LIMIT, NULL, NULL, -1,
                        "region of %zu bytes is too large to compress", len);
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit(&z, Z_DEFAULT_COMPRESSION) != Z_OK)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, NULL, -1,
                        "cannot start the zlib compressor");
    size_t bound = deflateBound(&z, (uLong)len);
    size_t start = out->len;
    ios_buf_zeros(out, bound);
    if (out->oom) {
        deflateEnd(&z);
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, NULL, -1,
                        "out of memory while compressing a region");
    }
    z.next_in = (Bytef *)(uintptr_t)src;
    z.avail_in = (uInt)len;
    z.next_out = out->p + start;
    z.avail_out = (uInt)bound;
    int r = deflate(&z, Z_FINISH);
    size_t produced = bound - z.avail_out;
    deflateEnd(&z);
    if (r != Z_STREAM_END) {
        out->len = start;
        return ios_fail(err, IOSAGE_E_INTERNAL, NULL, NULL, -1,
                        "zlib compression did not finish (code %d)", r);
    }
    out->len = start + produced;
    return IOSAGE_OK;
}
