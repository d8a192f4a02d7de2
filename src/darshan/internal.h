/*
 * src/darshan/internal.h - what the reader, the writer and the module codecs
 * share inside the library. Nothing here is public.
 *
 * Layers, top down:
 *   reader.c    open, streaming, whole-log load       (uses everything below)
 *   writer.c    build and write 3.41 logs
 *   header.c    fixed header, byte order, slot remapping
 *   job.c       job record, executable line, mount table
 *   names.c     name region, id -> name index
 *   region.c    decompression of one region (zlib, bzip2, raw; concatenated
 *               streams; truncated input)
 *   modules.c   the table of module codecs
 *   mod_*.c     one codec per module family: decode one record (with
 *               up-conversion), encode one record (newest version)
 *   hash.c      the record-id hash
 *   cursor helpers below
 *
 * The helpers every module shares (errors, whole files, text and UTF-8,
 * arena, byte buffer) live in src/common (ios_common.h).
 *
 * Rule for every decoder: no length, count or offset read from the file is
 * used before it is checked against the bytes that remain.
 */
#ifndef IOS_DARSHAN_INTERNAL_H
#define IOS_DARSHAN_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "iosage/counters.h"
#include "iosage/darshan.h"
#include "iosage/error.h"
#include "ios_common.h" /* errors, arena, byte buffer, text (src/common) */
#include "ios_darshan.h"

/* --- Caps (IOSAGE_E_LIMIT when exceeded) --------------------------------- */
/* A name or module region inflates to at most ios_region_limit() bytes:
 * IOS_INFLATE_RATIO times its stored length (IOS_INFLATE_RATIO_HEATMAP for
 * HEATMAP), never less than IOS_INFLATE_FLOOR, never more than
 * IOS_INFLATE_CAP. The environment variables IOSAGE_MAX_INFLATE_RATIO (both
 * ratios) and IOSAGE_MAX_REGION_BYTES (the cap) change them. Measured on
 * every log of ../shared and data/ (7,691 regions): the largest ratios are
 * 29.2 (POSIX, imbalanced-io.darshan), 41.6 (APMPI) and 141 (HEATMAP of a
 * 128-rank run), and no region inflates past 6 MB. A zlib stream of 2 GiB of
 * zeros stores in 2 MB: it is refused at 64 MB instead of taking 4.8 GB. */
#define IOS_INFLATE_RATIO 32
#define IOS_INFLATE_RATIO_HEATMAP 1024 /* its bins are mostly zeros */
#define IOS_INFLATE_FLOOR ((uint64_t)16 << 20)
#define IOS_INFLATE_CAP ((uint64_t)1 << 30)
#define IOS_JOB_DATA_MAX 4096                   /* decompressed job region */
/* IOS_LUSTRE_SCRATCH, the reference reader's per-module buffer: ios_darshan.h */

/* --- Cursor over decompressed bytes -------------------------------------- */
typedef struct ios_cursor {
    const uint8_t *p;
    size_t len;
    size_t pos;
    int swap; /* 1: the data's byte order differs from little-endian host */
} ios_cursor;

static inline size_t ios_cur_left(const ios_cursor *c) { return c->len - c->pos; }

static inline uint64_t ios_bswap64(uint64_t v) { return __builtin_bswap64(v); }
static inline uint32_t ios_bswap32(uint32_t v) { return __builtin_bswap32(v); }

/* Raw loads at p with the file's byte order (swap or not). The caller has
 * already checked that the bytes are there. The host is little-endian
 * (checked at build time in CMake). */
static inline uint64_t ios_load_u64(const uint8_t *p, int swap)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return swap ? ios_bswap64(v) : v;
}
static inline uint32_t ios_load_u32(const uint8_t *p, int swap)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return swap ? ios_bswap32(v) : v;
}
static inline int64_t ios_load_i64(const uint8_t *p, int swap)
{
    return (int64_t)ios_load_u64(p, swap);
}
static inline double ios_load_f64(const uint8_t *p, int swap)
{
    uint64_t u = ios_load_u64(p, swap);
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* --- Module codecs -------------------------------------------------------- */

/* Per-module decoding state, zeroed at the start of each module region. */
typedef struct ios_mod_ctx {
    int module;          /* enum iosage_module_id */
    uint32_t version;    /* stored record version of this region */
    int swap;            /* byte order differs */
    int compat;          /* IOSAGE_READ_COMPAT */
    uint32_t h5f_version;   /* the log's H5F record version (H5D quirk) */
    const struct iosage_header *header;
    const char *path;    /* for error messages */
    size_t n_records;    /* records decoded so far in this region */
    /* HEATMAP: reference set by the first record */
    int heatmap_have_ref;
    int64_t heatmap_ref_nbins;
    double heatmap_ref_width;
    /* APMPI: header record seen, its sync flag */
    int apmpi_seen_header;
    uint32_t apmpi_sync_flag;
    /* LUSTRE compat emulation of the reference scratch buffer (lazily
     * allocated, IOS_LUSTRE_SCRATCH bytes, freed by the reader) */
    uint8_t *lustre_scratch;
    /* The decompressed region is the reader's own writable buffer, which
     * the records may point into instead of copying their counters
     * (ios_fixed_in_place); a codec that does so sets data_used, and the
     * reader then keeps the buffer as long as the records. */
    int data_is_ours;
    int data_used;
} ios_mod_ctx;

/* Decoder results besides iosage_status values. */
enum {
    IOS_DECODE_SHORT = -1, /* fewer bytes left than one whole record: the
                              caller stops and reports them as trailing */
    IOS_DECODE_DROP = -2   /* record consumed but dropped (POSIX v1 with
                              FOPENS > 0) */
};

/*
 * Decode one record at c->pos (advancing c->pos past it) and up-convert it
 * into *rec (rec is zeroed by the caller; rec->module, version, set by the
 * caller). Arrays and strings come from arena. Returns IOSAGE_OK,
 * IOS_DECODE_SHORT, IOS_DECODE_DROP, or an iosage_status error with err
 * filled (where = module name, offset = c->pos in the decompressed region).
 */
typedef int (*ios_decode_fn)(ios_cursor *c, ios_mod_ctx *ctx,
                             iosage_record *rec, ios_arena *arena,
                             iosage_error *err);

/* Append rec encoded in the newest record version to out (little-endian).
 * Returns IOSAGE_OK or an error (record inconsistent with its layout). */
typedef iosage_status (*ios_encode_fn)(const iosage_record *rec, ios_buf *out,
                                       iosage_error *err);

/* Deep-copy rec's arrays and strings into arena (dst already = *src). */
typedef iosage_status (*ios_copy_fn)(iosage_record *dst, ios_arena *arena);

typedef struct ios_module_codec {
    int id;
    uint32_t max_version;      /* newest version we read and write */
    ios_decode_fn decode;
    ios_encode_fn encode;      /* NULL: module is not written */
} ios_module_codec;

/* Codec for module id (3.41 numbering), or NULL when there is none. */
const ios_module_codec *ios_module_codec_get(int id);

/* Generic deep copy used by iosage_log_add_record (modules.c). */
iosage_status ios_record_copy(iosage_record *dst, const iosage_record *src,
                              ios_arena *arena);

/* Module codec entry points (mod_*.c). */
int ios_posix_decode(ios_cursor *, ios_mod_ctx *, iosage_record *, ios_arena *, iosage_error *);
int ios_mpiio_decode(ios_cursor *, ios_mod_ctx *, iosage_record *, ios_arena *, iosage_error *);
int ios_stdio_decode(ios_cursor *, ios_mod_ctx *, iosage_record *, ios_arena *, iosage_error *);
int ios_h5f_decode(ios_cursor *, ios_mod_ctx *, iosage_record *, ios_arena *, iosage_error *);
int ios_h5d_decode(ios_cursor *, ios_mod_ctx *, iosage_record *, ios_arena *, iosage_error *);
int ios_pnetcdf_file_decode(ios_cursor *, ios_mod_ctx *, iosage_record *, ios_arena *, iosage_error *);
int ios_pnetcdf_var_decode(ios_cursor *, ios_mod_ctx *, iosage_record *, ios_arena *, iosage_error *);
int ios_bgq_decode(ios_cursor *, ios_mod_ctx *, iosage_record *, ios_arena *, iosage_error *);
int ios_lustre_decode(ios_cursor *, ios_mod_ctx *, iosage_record *, ios_arena *, iosage_error *);
int ios_dxt_decode(ios_cursor *, ios_mod_ctx *, iosage_record *, ios_arena *, iosage_error *);
int ios_mdhim_decode(ios_cursor *, ios_mod_ctx *, iosage_record *, ios_arena *, iosage_error *);
int ios_apmpi_decode(ios_cursor *, ios_mod_ctx *, iosage_record *, ios_arena *, iosage_error *);
int ios_heatmap_decode(ios_cursor *, ios_mod_ctx *, iosage_record *, ios_arena *, iosage_error *);
int ios_dfs_decode(ios_cursor *, ios_mod_ctx *, iosage_record *, ios_arena *, iosage_error *);
int ios_daos_decode(ios_cursor *, ios_mod_ctx *, iosage_record *, ios_arena *, iosage_error *);

iosage_status ios_posix_encode(const iosage_record *, ios_buf *, iosage_error *);
iosage_status ios_mpiio_encode(const iosage_record *, ios_buf *, iosage_error *);
iosage_status ios_stdio_encode(const iosage_record *, ios_buf *, iosage_error *);
iosage_status ios_h5f_encode(const iosage_record *, ios_buf *, iosage_error *);
iosage_status ios_h5d_encode(const iosage_record *, ios_buf *, iosage_error *);
iosage_status ios_pnetcdf_file_encode(const iosage_record *, ios_buf *, iosage_error *);
iosage_status ios_pnetcdf_var_encode(const iosage_record *, ios_buf *, iosage_error *);
iosage_status ios_bgq_encode(const iosage_record *, ios_buf *, iosage_error *);
iosage_status ios_lustre_encode(const iosage_record *, ios_buf *, iosage_error *);
iosage_status ios_dxt_encode(const iosage_record *, ios_buf *, iosage_error *);
iosage_status ios_mdhim_encode(const iosage_record *, ios_buf *, iosage_error *);
iosage_status ios_apmpi_encode(const iosage_record *, ios_buf *, iosage_error *);
iosage_status ios_heatmap_encode(const iosage_record *, ios_buf *, iosage_error *);
iosage_status ios_dfs_encode(const iosage_record *, ios_buf *, iosage_error *);
iosage_status ios_daos_encode(const iosage_record *, ios_buf *, iosage_error *);

/* --- Regions -------------------------------------------------------------- */

/*
 * Decompress stored bytes src[0..len) with compression comp into a malloc'd
 * buffer (*out, *out_len; caller frees; *out may be NULL when *out_len is 0).
 * Handles concatenated streams. A stream cut off at the end of src keeps the
 * bytes decoded so far and sets *truncated = 1. A damaged stream is
 * IOSAGE_E_DECOMPRESS; output over max_out bytes is IOSAGE_E_LIMIT.
 * region_off is the file offset of src, for error messages.
 */
iosage_status ios_region_inflate(const uint8_t *src, size_t len, int comp,
                                 uint64_t max_out, uint8_t **out,
                                 size_t *out_len, int *truncated,
                                 const char *path, const char *where,
                                 uint64_t region_off, iosage_error *err);

/* How many compressed bytes of small zlib regions this process still
 * decodes with zlib before it switches to libdeflate (region.c); tests set
 * it to cover both sides of the switch. */
void ios_region_set_zlib_first(long bytes);

/* The most bytes a region of module_id (-1: the name region) stored in
 * stored_len bytes may inflate to (see IOS_INFLATE_RATIO), and in why[] the
 * limit in words for the error message. */
uint64_t ios_region_limit(int module_id, uint64_t stored_len, char *why,
                          size_t why_size);

/* Compress src into one zlib stream appended to out. */
iosage_status ios_region_deflate(const uint8_t *src, size_t len, ios_buf *out,
                                 iosage_error *err);

/* --- Reader core (header.c, job.c, names.c; owned by the reader core) ---- */

/*
 * Decode and validate the fixed header of the log held in data[0..size):
 * version, byte order, maps, versions, partial bits, slot remapping to the
 * 3.41 numbering (spec 4.2) and the job region's extent (5.3). Module regions
 * are not checked against the file size here (see ios_region_past_eof).
 */
iosage_status ios_header_decode(const uint8_t *data, size_t size,
                                struct iosage_header *h, const char *path,
                                iosage_error *err);

/* 1 when region r (len > 0) does not lie inside a file of file_size bytes. */
int ios_region_past_eof(const struct iosage_region *r, uint64_t file_size);

/* 1 when the read flags leave module id out: the trace regions (DXT_POSIX,
 * DXT_MPIIO, HEATMAP) with IOSAGE_READ_NO_TRACES, APMPI, APXC and BGQ with
 * IOSAGE_READ_IO_ONLY. Such a region is neither read nor decoded. */
int ios_module_left_out(int id, int flags);

/* iosage_log_read_file with its size threshold: files of at least
 * sparse_min bytes are read without the regions flags leave out (the
 * library uses 256 KiB; the tests use 0, so that small damaged logs take
 * that path too). */
iosage_status ios_log_read_file_from(const char *path, int flags,
                                     uint64_t sparse_min, uint8_t **out,
                                     size_t *len, iosage_error *err);

/*
 * Decode the decompressed job region data[0..len) of a log with header h
 * into *job (strings and the mount array come from arena).
 */
iosage_status ios_job_decode(const uint8_t *data, size_t len,
                             const struct iosage_header *h,
                             struct iosage_job *job, ios_arena *arena,
                             const char *path, iosage_error *err);

/* Append the 3.41 job data (record, exe, mount lines, NUL; <= 4096 bytes)
 * for job to out. */
iosage_status ios_job_encode(const struct iosage_job *job, ios_buf *out,
                             iosage_error *err);

/* *dst = deep copy of src (exe, mounts) in arena. Rejects mount entries
 * that would not survive a write and a re-read (empty, blanks inside). */
iosage_status ios_job_copy(struct iosage_job *dst, const struct iosage_job *src,
                           ios_arena *arena, iosage_error *err);

/* Id -> name table: entries in first-seen order plus an open-addressing
 * index. Entry names live in the arena given to each call; the arrays are
 * malloc'd and released by ios_names_free. */
typedef struct ios_names {
    struct iosage_name *v; /* entries, first-seen order */
    size_t n, cap;
    ios_idmap index;       /* id -> its entry in v */
} ios_names;

/* Find an entry; NULL when absent. */
struct iosage_name *ios_names_find(const ios_names *t, uint64_t id);

/* Add (id, name[0..len)) unless id is present. With replace_empty, a
 * present entry whose name is "" takes the new name when it is non-empty
 * (the 3.10+ merge rule, spec 7.1). IOSAGE_E_NOMEM on no memory. */
iosage_status ios_names_put(ios_names *t, uint64_t id, const char *name,
                            size_t len, int replace_empty, ios_arena *arena);

/* Parse a decompressed name region into t (format 3.00 when v300). */
iosage_status ios_names_decode(ios_names *t, const uint8_t *data, size_t len,
                               int v300, int swap, ios_arena *arena,
                               const char *path, iosage_error *err);

void ios_names_free(ios_names *t);

/* Private part of an iosage_log: one arena owns every record, string and
 * array; names holds the table and its index (log->names aliases names.v). */
struct ios_log_private {
    ios_arena *arena;
    ios_names names;
    size_t rec_cap[IOSAGE_MAX_MODULES]; /* capacity of modules[k].records */
};

/* APXC codec (mod_apxc.c), wired into the codec table in modules.c. */
int ios_apxc_decode(ios_cursor *, ios_mod_ctx *, iosage_record *, ios_arena *, iosage_error *);
iosage_status ios_apxc_encode(const iosage_record *, ios_buf *, iosage_error *);

#endif
