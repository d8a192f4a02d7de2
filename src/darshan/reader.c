/*
 * reader.c - open a log, stream its modules, or load it whole.
 *
 * A reader holds the whole stored file in memory (regions are compressed,
 * so this is small next to the decoded data), plus the decoded header, job
 * and name table. iosage_reader_next_module() decompresses one module
 * region at a time, cuts it into records with the module's codec and hands
 * out the result, which stays valid until the next call:
 *
 *   recs      malloc'd array of records, reused from module to module
 *   arena     the records' arrays and strings; reset before each module
 *   meta      job strings and names; lives as long as the reader
 *
 * iosage_log_load() runs the same path with both arenas replaced by the
 * log's own arena (never reset), hands each module's record array to it
 * (the reader starts a new one for the next module), and takes over the
 * name table.
 *
 * Problems inside one module region (truncated, damaged, past the end of
 * the file, a record that does not decode) are reported in that module's
 * status and err; records decoded before the problem are kept. Only I/O and
 * memory failures make a call fail.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "ios_bigmem.h"

struct iosage_reader {
    char path[256];              /* name used in error messages */
    int flags;                   /* enum iosage_read_flags */
    const uint8_t *data;         /* the stored file */
    size_t size;
    uint8_t *owned;              /* data when we read the file, else NULL */
    struct iosage_header header;
    struct iosage_job job;       /* strings in meta */
    ios_names names;             /* entries' names in meta */
    ios_arena *meta;
    ios_arena *arena;            /* per-module arrays and strings */
    int shared;                  /* 1: meta and arena belong to a log */
    int next_id;                 /* next module slot to visit */
    iosage_module_data cur;      /* the module handed out last */
    iosage_record *recs;         /* cur.records storage (malloc'd) */
    size_t rec_cap;
};

/* --- open: header, job, names -------------------------------------------- */

/* The stored bytes of a region known to lie inside the file. */
static const uint8_t *region_bytes(const iosage_reader *r, uint64_t off)
{
    return r->data + off;
}

/* Decompress and decode the job region. */
static iosage_status read_job(iosage_reader *r, iosage_error *err)
{
    const struct iosage_header *h = &r->header;
    uint8_t *data = NULL;
    size_t len = 0;
    int truncated = 0;
    /* A job stream cut short still counts if enough of it decoded, as in
     * the reference reader (the record is checked below). */
    iosage_status st = ios_region_inflate(region_bytes(r, h->header_size),
                                          (size_t)h->job_len, h->compression,
                                          IOS_JOB_DATA_MAX, &data, &len,
                                          &truncated, r->path, "job region",
                                          h->header_size, err);
    if (st == IOSAGE_OK)
        st = ios_job_decode(data, len, h, &r->job, r->meta, r->path, err);
    free(data);
    return st;
}

/* Decompress and decode the name region into r->names. */
static iosage_status read_names(iosage_reader *r, iosage_error *err)
{
    const struct iosage_header *h = &r->header;
    if (h->names.len == 0)
        return IOSAGE_OK;
    uint8_t *data = NULL;
    size_t len = 0;
    int truncated = 0;
    char why[300];
    uint64_t limit = ios_region_limit(-1, h->names.len, why, sizeof why);
    iosage_status st = ios_region_inflate(region_bytes(r, h->names.off),
                                          (size_t)h->names.len, h->compression,
                                          limit, &data, &len,
                                          &truncated, r->path, "name region",
                                          h->names.off, err);
    if (st == IOSAGE_E_LIMIT)
        ios_fail(err, IOSAGE_E_LIMIT, r->path, "name region", -1,
                 "inflates past its limit of %s", why);
    if (st == IOSAGE_OK) {
        int v300 = h->ver_major == 3 && h->ver_minor == 0;
        st = ios_names_decode(&r->names, data, len, v300, h->big_endian,
                              r->meta, r->path, err);
    }
    free(data);
    return st;
}

/* Release everything a reader owns. Accepts NULL. */
void iosage_reader_close(iosage_reader *r)
{
    if (!r)
        return;
    if (!r->shared) {
        ios_arena_destroy(r->meta);
        ios_arena_destroy(r->arena);
    }
    ios_names_free(&r->names);
    free(r->recs);
    free(r->owned);
    free(r);
}

/*
 * Open a reader on buf[0..len). owned (may be NULL) is a buffer the reader
 * takes over and frees, even on failure. With shared non-NULL every string
 * and array goes there and nothing is reset (for iosage_log_load).
 */
static iosage_status reader_open(const uint8_t *buf, size_t len, uint8_t *owned,
                                 const char *name, int flags,
                                 ios_arena *shared, iosage_reader **out,
                                 iosage_error *err)
{
    *out = NULL;
    iosage_reader *r = calloc(1, sizeof *r);
    if (!r) {
        free(owned);
        return ios_fail(err, IOSAGE_E_NOMEM, name, "", -1, "out of memory");
    }
    snprintf(r->path, sizeof r->path, "%s", name ? name : "");
    r->flags = flags;
    r->data = buf;
    r->size = len;
    r->owned = owned;
    r->shared = shared != NULL;
    r->meta = shared ? shared : ios_arena_create();
    r->arena = shared ? shared : ios_arena_create();
    iosage_status st;
    if (!r->meta || !r->arena)
        st = ios_fail(err, IOSAGE_E_NOMEM, r->path, "", -1, "out of memory");
    else if ((st = ios_header_decode(buf, len, &r->header, r->path, err)) ==
             IOSAGE_OK &&
             (st = read_job(r, err)) == IOSAGE_OK)
        st = read_names(r, err);
    if (st != IOSAGE_OK) {
        iosage_reader_close(r);
        return st;
    }
    *out = r;
    return IOSAGE_OK;
}

/* See darshan.h. */
iosage_status iosage_reader_open_mem(const void *buf, size_t len,
                                     const char *name, int flags,
                                     iosage_reader **out, iosage_error *err)
{
    if (!out || (!buf && len > 0))
        return ios_fail(err, IOSAGE_E_USAGE, name, "", -1,
                        "iosage_reader_open_mem: NULL buffer or result");
    return reader_open(buf, len, NULL, name, flags, NULL, out, err);
}

/* See darshan.h. */
iosage_status iosage_reader_open(const char *path, int flags,
                                 iosage_reader **out, iosage_error *err)
{
    if (!path || !out)
        return ios_fail(err, IOSAGE_E_USAGE, path, "", -1,
                        "iosage_reader_open: NULL path or result");
    *out = NULL;
    uint8_t *buf;
    size_t len;
    iosage_status st = ios_read_file(path, 0, &buf, &len, err);
    if (st != IOSAGE_OK)
        return st;
    return reader_open(buf, len, buf, path, flags, NULL, out, err);
}

const struct iosage_header *iosage_reader_header(const iosage_reader *r)
{
    return r ? &r->header : NULL;
}

const struct iosage_job *iosage_reader_job(const iosage_reader *r)
{
    return r ? &r->job : NULL;
}

const char *iosage_reader_name(const iosage_reader *r, uint64_t id)
{
    const struct iosage_name *e = r ? ios_names_find(&r->names, id) : NULL;
    return e ? e->name : NULL;
}

/* --- one module region --------------------------------------------------- */

/* Record the first problem of module m (later ones are consequences). */
static void set_status(iosage_reader *r, iosage_module_data *m,
                       iosage_status code, const iosage_error *e)
{
    if (m->status != IOSAGE_OK)
        return;
    m->status = code;
    m->err = *e;
    m->err.code = code;
    if (!m->err.path[0])
        snprintf(m->err.path, sizeof m->err.path, "%s", r->path);
    if (!m->err.where[0])
        snprintf(m->err.where, sizeof m->err.where, "%s", m->name);
}

/* Mark m as not decoded; notice says why. Always IOSAGE_OK. */
static iosage_status skip(iosage_module_data *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static iosage_status skip(iosage_module_data *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->notice, sizeof m->notice, fmt, ap);
    va_end(ap);
    m->skipped = 1;
    return IOSAGE_OK;
}

/* One more slot in r->recs; -1 on no memory. */
static int grow_records(iosage_reader *r, size_t n)
{
    if (n < r->rec_cap)
        return 0;
    size_t cap = r->rec_cap ? r->rec_cap * 2 : 64;
    if (cap > SIZE_MAX / sizeof *r->recs)
        return -1;
    iosage_record *p = ios_big_realloc(r->recs, cap * sizeof *p);
    if (!p)
        return -1;
    r->recs = p;
    r->rec_cap = cap;
    return 0;
}

/*
 * Cut data[0..len) into records with codec. Stops at the end of the data,
 * at a short tail (trailing_bytes) or at a decode error (module status).
 * Fails only on no memory. data is the caller's malloc'd buffer: *data_used
 * is set when records point into it (the caller must then keep it).
 */
static iosage_status decode_records(iosage_reader *r,
                                    const ios_module_codec *codec,
                                    iosage_module_data *m, const uint8_t *data,
                                    size_t len, int *data_used,
                                    iosage_error *err)
{
    ios_mod_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.data_is_ours = 1;
    ctx.module = m->id;
    ctx.version = m->version;
    ctx.swap = r->header.big_endian;
    ctx.compat = (r->flags & IOSAGE_READ_COMPAT) != 0;
    ctx.h5f_version = r->header.modules[IOSAGE_MOD_H5F].version;
    ctx.header = &r->header;
    ctx.path = r->path;
    ios_cursor c = {data, len, 0, r->header.big_endian};
    iosage_status st = IOSAGE_OK;
    size_t n = 0;

    while (c.pos < c.len) {
        if (grow_records(r, n) != 0) {
            st = ios_fail(err, IOSAGE_E_NOMEM, r->path, m->name, -1,
                          "out of memory after %zu records", n);
            break;
        }
        iosage_record *rec = &r->recs[n];
        memset(rec, 0, sizeof *rec);
        rec->module = m->id;
        rec->version = m->version;
        size_t before = c.pos;
        iosage_error e;
        memset(&e, 0, sizeof e);
        int rc = codec->decode(&c, &ctx, rec, r->arena, &e);
        if (rc == IOSAGE_OK || rc == IOS_DECODE_DROP) {
            if (c.pos <= before || c.pos > c.len) {
                ios_fail(&e, IOSAGE_E_INTERNAL, r->path, m->name,
                         (int64_t)before,
                         "decoder did not advance correctly (record %zu)", n);
                set_status(r, m, IOSAGE_E_INTERNAL, &e);
                break;
            }
            if (rc == IOSAGE_OK)
                ctx.n_records = ++n;
        } else if (rc == IOS_DECODE_SHORT) {
            m->trailing_bytes = c.len - before;
            break;
        } else if (rc == IOSAGE_E_NOMEM) {
            if (err)
                *err = e;
            st = IOSAGE_E_NOMEM;
            break;
        } else {
            set_status(r, m, (iosage_status)rc, &e);
            break;
        }
    }
    free(ctx.lustre_scratch);
    m->n_records = n;
    m->records = n ? r->recs : NULL;
    *data_used = ctx.data_used;
    return st;
}

/*
 * Decompress module region m (codec known, version checked) and decode it.
 * A region past the end of the file is TRUNCATED; by default the bytes that
 * exist are still decoded, in compat mode (like the reference) none are.
 */
static iosage_status read_region(iosage_reader *r,
                                 const ios_module_codec *codec,
                                 iosage_module_data *m, iosage_error *err)
{
    const struct iosage_region *reg = &r->header.modules[m->id];
    uint64_t avail = reg->len;
    iosage_error e;
    memset(&e, 0, sizeof e);
    if (ios_region_past_eof(reg, r->size)) {
        ios_fail(&e, IOSAGE_E_TRUNCATED, r->path, m->name, (int64_t)reg->off,
                 "region of %llu bytes at byte %llu ends past the end of the "
                 "file (%zu bytes)", (unsigned long long)reg->len,
                 (unsigned long long)reg->off, r->size);
        set_status(r, m, IOSAGE_E_TRUNCATED, &e);
        if ((r->flags & IOSAGE_READ_COMPAT) || reg->off >= r->size)
            return IOSAGE_OK;
        avail = r->size - reg->off;
    }
    uint8_t *data = NULL;
    size_t len = 0;
    int truncated = 0;
    char why[300];
    uint64_t limit = ios_region_limit(m->id, avail, why, sizeof why);
    iosage_status st = ios_region_inflate(region_bytes(r, reg->off),
                                          (size_t)avail, r->header.compression,
                                          limit, &data, &len,
                                          &truncated, r->path, m->name,
                                          reg->off, &e);
    if (st == IOSAGE_E_LIMIT)
        ios_fail(&e, IOSAGE_E_LIMIT, r->path, m->name, -1,
                 "region inflates past its limit of %s", why);
    if (st == IOSAGE_E_NOMEM) {
        if (err)
            *err = e;
        return st;
    }
    if (st != IOSAGE_OK)
        set_status(r, m, st, &e);
    if (truncated) {
        ios_fail(&e, IOSAGE_E_TRUNCATED, r->path, m->name, (int64_t)reg->off,
                 "region ends in the middle of a compressed stream (%zu bytes "
                 "decoded)", len);
        set_status(r, m, IOSAGE_E_TRUNCATED, &e);
    }
    m->data_len = len;
    st = IOSAGE_OK;
    int data_used = 0;
    if (len > 0)
        st = decode_records(r, codec, m, data, len, &data_used, err);
    if (!data_used) {
        free(data);
        return st;
    }
    /* records point into data: it lives as long as they do, in the arena
     * their other arrays come from (not shrunk with realloc, which could
     * move it; its unused tail is never touched) */
    if (ios_arena_adopt(r->arena, data) != 0) {
        m->n_records = 0;
        m->records = NULL;
        return ios_fail(err, IOSAGE_E_NOMEM, r->path, m->name, -1,
                        "out of memory");
    }
    return st;
}

/* Fill r->cur for slot id (which has data or a partial bit). */
static iosage_status read_module(iosage_reader *r, int id, iosage_error *err)
{
    const struct iosage_region *reg = &r->header.modules[id];
    iosage_module_data *m = &r->cur;
    memset(m, 0, sizeof *m);
    m->id = id;
    m->name = iosage_module_name(id);
    m->version = reg->version;
    m->partial = (int)((r->header.partial_flags >> id) & 1);
    m->stored_len = reg->len;
    if (id >= IOSAGE_MOD_KNOWN)
        return skip(m, "module id %d is unknown", id);
    const ios_module_codec *codec = ios_module_codec_get(id);
    if (!codec)
        return skip(m, "no decoder for module %s", m->name);
    if (reg->len == 0)
        return IOSAGE_OK;
    if (reg->version == 0 || reg->version > codec->max_version)
        return skip(m, "%s record version %u is not supported (known: 1 to %u)",
                    m->name, reg->version, codec->max_version);
    return read_region(r, codec, m, err);
}

/* See internal.h. */
int ios_module_left_out(int id, int flags)
{
    int trace = id == IOSAGE_MOD_DXT_POSIX || id == IOSAGE_MOD_DXT_MPIIO ||
                id == IOSAGE_MOD_HEATMAP;
    int not_io = id == IOSAGE_MOD_APMPI || id == IOSAGE_MOD_APXC ||
                 id == IOSAGE_MOD_BGQ;
    return ((flags & IOSAGE_READ_NO_TRACES) && trace) ||
           ((flags & IOSAGE_READ_IO_ONLY) && not_io);
}

/* See darshan.h. */
iosage_status iosage_reader_next_module(iosage_reader *r,
                                        const iosage_module_data **out,
                                        iosage_error *err)
{
    if (!r || !out)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "", -1,
                        "iosage_reader_next_module: NULL reader or result");
    *out = NULL;
    if (!r->shared)
        ios_arena_reset(r->arena);
    memset(&r->cur, 0, sizeof r->cur);
    while (r->next_id < IOSAGE_MAX_MODULES) {
        int id = r->next_id++;
        const struct iosage_region *reg = &r->header.modules[id];
        if (reg->len == 0 && !((r->header.partial_flags >> id) & 1))
            continue;
        if (ios_module_left_out(id, r->flags))
            continue;
        iosage_status st = read_module(r, id, err);
        if (st != IOSAGE_OK)
            return st;
        *out = &r->cur;
        return IOSAGE_OK;
    }
    return IOSAGE_OK;
}

/* --- whole log ----------------------------------------------------------- */

/* Keep module m (r's current one) in log. Its record array, r->recs, becomes
 * the log's: the log's arena adopts it and r starts a new one for the next
 * module. (It was copied into the arena: for a log of 10^6 records, 224 MB
 * copied into fresh pages while the reader's array was still held.) */
static iosage_status keep_module(iosage_log *log, iosage_reader *r,
                                 const iosage_module_data *m,
                                 iosage_error *err)
{
    iosage_module_data *dst = &log->modules[m->id];
    *dst = *m;
    if (m->n_records == 0) {
        dst->records = NULL;
        return IOSAGE_OK;
    }
    size_t cap = r->rec_cap;
    int bad = ios_arena_adopt(log->priv->arena, r->recs); /* frees on failure */
    r->recs = NULL;
    r->rec_cap = 0;
    if (bad) {
        dst->records = NULL;
        dst->n_records = 0;
        return ios_fail(err, IOSAGE_E_NOMEM, log->path, m->name, -1,
                        "out of memory keeping %zu records", m->n_records);
    }
    log->priv->rec_cap[m->id] = cap;
    return IOSAGE_OK;
}

/* Read every module of r into log; move the name table over. */
static iosage_status fill_log(iosage_log *log, iosage_reader *r,
                              iosage_error *err)
{
    log->header = r->header;
    log->job = r->job;
    for (;;) {
        const iosage_module_data *m;
        iosage_status st = iosage_reader_next_module(r, &m, err);
        if (st != IOSAGE_OK)
            return st;
        if (!m)
            break;
        if ((st = keep_module(log, r, m, err)) != IOSAGE_OK)
            return st;
    }
    ios_names_free(&log->priv->names);
    log->priv->names = r->names;
    memset(&r->names, 0, sizeof r->names);
    log->names = log->priv->names.v;
    log->n_names = log->priv->names.n;
    return IOSAGE_OK;
}

/* Load buf (owned: freed here, may be NULL) into a new log. */
static iosage_status load(const uint8_t *buf, size_t len, uint8_t *owned,
                          const char *name, int flags, iosage_log **out,
                          iosage_error *err)
{
    *out = NULL;
    iosage_log *log = iosage_log_create();
    if (!log) {
        free(owned);
        return ios_fail(err, IOSAGE_E_NOMEM, name, "", -1, "out of memory");
    }
    snprintf(log->path, sizeof log->path, "%s", name ? name : "");
    iosage_reader *r;
    iosage_status st = reader_open(buf, len, owned, name, flags,
                                   log->priv->arena, &r, err);
    if (st == IOSAGE_OK) {
        st = fill_log(log, r, err);
        iosage_reader_close(r);
    }
    if (st != IOSAGE_OK) {
        iosage_log_free(log);
        return st;
    }
    *out = log;
    return IOSAGE_OK;
}

/* See darshan.h. */
iosage_status iosage_log_load(const char *path, int flags, iosage_log **out,
                              iosage_error *err)
{
    if (!path || !out)
        return ios_fail(err, IOSAGE_E_USAGE, path, "", -1,
                        "iosage_log_load: NULL path or result");
    *out = NULL;
    uint8_t *buf;
    size_t len;
    iosage_status st = iosage_log_read_file(path, flags, &buf, &len, err);
    if (st != IOSAGE_OK)
        return st;
    return load(buf, len, buf, path, flags, out, err);
}

/* See darshan.h. */
iosage_status iosage_log_load_mem(const void *buf, size_t len, const char *name,
                                  int flags, iosage_log **out,
                                  iosage_error *err)
{
    if (!out || (!buf && len > 0))
        return ios_fail(err, IOSAGE_E_USAGE, name, "", -1,
                        "iosage_log_load_mem: NULL buffer or result");
    return load(buf, len, NULL, name, flags, out, err);
}
