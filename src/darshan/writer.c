/*
 * writer.c - build a log in memory and write it as a format 3.41 zlib log
 * (format spec 15).
 *
 * File layout written:
 *
 *   0      header, 1328 bytes (filled last, when every map entry is known)
 *   1328   job region: one zlib stream of the 1080-byte job record, the
 *          command line, "\n<type>\t<mount>" lines and a NUL
 *   ...    name region: one zlib stream of (uint64 id, name, NUL) entries
 *   ...    module regions in ascending id, records encoded by the module
 *          codec in its newest version: a zlib stream for each rank's
 *          records when they come rank by rank (as the runtime writes
 *          them), else one for all
 *
 * Everything is little-endian. A built log owns all its memory through one
 * arena (log->priv->arena); the name table's arrays are malloc'd.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define DARSHAN_MAGIC 6567223ULL
#define HEADER_SIZE 1328u

/* --- building ------------------------------------------------------------ */

/* See darshan.h: an empty 3.41 zlib log; NULL on no memory. */
iosage_log *iosage_log_create(void)
{
    iosage_log *log = calloc(1, sizeof *log);
    if (!log)
        return NULL;
    log->priv = calloc(1, sizeof *log->priv);
    if (!log->priv || !(log->priv->arena = ios_arena_create()) ||
        !(log->job.exe = ios_arena_strdup(log->priv->arena, ""))) {
        iosage_log_free(log);
        return NULL;
    }
    struct iosage_header *h = &log->header;
    memcpy(h->version, "3.41", 5);
    h->ver_major = 3;
    h->ver_minor = 41;
    h->compression = IOSAGE_COMP_ZLIB;
    h->header_size = HEADER_SIZE;
    for (int k = 0; k < IOSAGE_MAX_MODULES; k++) {
        log->modules[k].id = k;
        log->modules[k].name = iosage_module_name(k);
    }
    return log;
}

/* See darshan.h. Accepts NULL. */
void iosage_log_free(iosage_log *log)
{
    if (!log)
        return;
    if (log->priv) {
        ios_names_free(&log->priv->names);
        ios_arena_destroy(log->priv->arena);
        free(log->priv);
    }
    free(log);
}

/* See darshan.h. */
const char *iosage_log_name(const iosage_log *log, uint64_t id)
{
    if (!log || !log->priv)
        return NULL;
    const struct iosage_name *e = ios_names_find(&log->priv->names, id);
    return e ? e->name : NULL;
}

/* See darshan.h. */
iosage_status iosage_log_set_job(iosage_log *log, const struct iosage_job *job,
                                 iosage_error *err)
{
    if (!log || !log->priv || !job)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "job", -1,
                        "iosage_log_set_job: NULL log or job");
    return ios_job_copy(&log->job, job, log->priv->arena, err);
}

/* See darshan.h. */
iosage_status iosage_log_add_name(iosage_log *log, uint64_t id,
                                  const char *name, iosage_error *err)
{
    if (!log || !log->priv || !name)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "name region", -1,
                        "iosage_log_add_name: NULL log or name");
    ios_names *t = &log->priv->names;
    if (ios_names_put(t, id, name, strlen(name), 0, log->priv->arena) !=
        IOSAGE_OK)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "name region", -1,
                        "out of memory adding a name");
    log->names = t->v;
    log->n_names = t->n;
    return IOSAGE_OK;
}

/* Room for one more record in module m of log (arena array, doubled). */
static iosage_status grow_module(iosage_log *log, iosage_module_data *m)
{
    size_t *cap = &log->priv->rec_cap[m->id];
    if (m->n_records < *cap)
        return IOSAGE_OK;
    size_t want = *cap ? *cap * 2 : 16;
    if (want > SIZE_MAX / sizeof(iosage_record))
        return IOSAGE_E_NOMEM;
    iosage_record *p = ios_arena_alloc(log->priv->arena,
                                       want * sizeof(iosage_record));
    if (!p)
        return IOSAGE_E_NOMEM;
    if (m->n_records)
        memcpy(p, m->records, m->n_records * sizeof *p);
    m->records = p;
    *cap = want;
    return IOSAGE_OK;
}

/* See darshan.h. */
iosage_status iosage_log_add_record(iosage_log *log, const iosage_record *rec,
                                    iosage_error *err)
{
    if (!log || !log->priv || !rec)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "", -1,
                        "iosage_log_add_record: NULL log or record");
    int id = rec->module;
    const ios_module_codec *codec = ios_module_codec_get(id);
    if (!codec)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, iosage_module_name(id), -1,
                        "module id %d has no codec; its records cannot be "
                        "written", id);
    iosage_module_data *m = &log->modules[id];
    m->id = id;
    m->name = iosage_module_name(id);
    if (grow_module(log, m) != IOSAGE_OK)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, m->name, -1,
                        "out of memory adding a record");
    iosage_status st = ios_record_copy(&m->records[m->n_records], rec,
                                       log->priv->arena);
    if (st == IOSAGE_E_NOMEM)
        return ios_fail(err, st, NULL, m->name, -1,
                        "out of memory copying a record");
    if (st != IOSAGE_OK)
        return ios_fail(err, st, NULL, m->name, -1,
                        "record is inconsistent: a count is negative or an "
                        "array is missing");
    m->n_records++;
    if (m->version == 0)
        m->version = codec->max_version;
    return IOSAGE_OK;
}

/* See darshan.h. Ids outside 0..63 are ignored. */
void iosage_log_set_partial(iosage_log *log, int module)
{
    if (log && module >= 0 && module < IOSAGE_MAX_MODULES)
        log->header.partial_flags |= UINT64_C(1) << module;
}

/* --- writing ------------------------------------------------------------- */

/* Compress raw (if non-empty) as one stream at the end of out; fills the
 * region's offset and stored length. */
static iosage_status emit_region(const ios_buf *raw, ios_buf *out,
                                 struct iosage_region *reg, iosage_error *err)
{
    reg->off = out->len;
    reg->len = 0;
    if (raw->oom)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "", -1,
                        "out of memory encoding a region");
    if (raw->len == 0)
        return IOSAGE_OK;
    iosage_status st = ios_region_deflate(raw->p, raw->len, out, err);
    reg->len = out->len - reg->off;
    return st;
}

/* The job region. */
static iosage_status write_job(const iosage_log *log, ios_buf *out,
                               iosage_error *err)
{
    ios_buf raw = {0};
    struct iosage_region reg;
    iosage_status st = ios_job_encode(&log->job, &raw, err);
    if (st == IOSAGE_OK)
        st = emit_region(&raw, out, &reg, err);
    ios_buf_free(&raw);
    return st;
}

/* The name region, in the log's name order. */
static iosage_status write_names(const iosage_log *log, ios_buf *out,
                                 struct iosage_region *reg, iosage_error *err)
{
    ios_buf raw = {0};
    for (size_t i = 0; i < log->n_names; i++) {
        const char *name = log->names[i].name ? log->names[i].name : "";
        ios_buf_u64(&raw, log->names[i].id);
        ios_buf_append(&raw, name, strlen(name) + 1);
    }
    iosage_status st = emit_region(&raw, out, reg, err);
    ios_buf_free(&raw);
    return st;
}

/* The rank whose stream holds record r: the runtime's rank 0 writes the
 * shared (rank -1) records with its own. */
static int64_t stream_rank(const iosage_record *r)
{
    return r->rank < 0 ? 0 : r->rank;
}

/* 1 when m's records come rank by rank (stream_rank never falls). */
static int by_rank(const iosage_module_data *m)
{
    for (size_t i = 1; i < m->n_records; i++)
        if (stream_rank(&m->records[i]) < stream_rank(&m->records[i - 1]))
            return 0;
    return 1;
}

/*
 * Module id's region, if it has records, a codec and was not skipped. As
 * the runtime writes it (spec 5.1) when the records come rank by rank:
 * one stream for each rank's records, back to back, so that a reader
 * checks each stream's checksum while its bytes are in the cache. Records
 * in any other order go into one stream, as darshan-convert writes them.
 */
static iosage_status write_module(const iosage_log *log, int id, ios_buf *out,
                                  struct iosage_region *reg, iosage_error *err)
{
    const iosage_module_data *m = &log->modules[id];
    const ios_module_codec *codec = ios_module_codec_get(id);
    memset(reg, 0, sizeof *reg);
    if (m->n_records == 0 || m->skipped || !codec || !codec->encode)
        return IOSAGE_OK;
    int per_rank = by_rank(m);
    size_t start = out->len, stored = 0;
    ios_buf raw = {0};
    iosage_status st = IOSAGE_OK;
    for (size_t i = 0; i < m->n_records && st == IOSAGE_OK; i++) {
        st = codec->encode(&m->records[i], &raw, err);
        if (st != IOSAGE_OK && err && !err->where[0])
            snprintf(err->where, sizeof err->where, "%s",
                     iosage_module_name(id));
        int last = i + 1 == m->n_records ||
                   (per_rank && stream_rank(&m->records[i + 1]) !=
                                    stream_rank(&m->records[i]));
        if (st == IOSAGE_OK && last) { /* the stream of this rank, or all */
            struct iosage_region one;
            st = emit_region(&raw, out, &one, err);
            stored += one.len;
            raw.len = 0;
        }
    }
    ios_buf_free(&raw);
    reg->off = start;
    reg->len = stored;
    reg->version = codec->max_version;
    return st;
}

/* Store v little-endian at p. */
static void put_u64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static void put_u32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

/* The 1328-byte header at p (zeroed beforehand). */
static void fill_header(const iosage_log *log,
                        const struct iosage_region *names,
                        const struct iosage_region *mods, uint8_t *p)
{
    memcpy(p, "3.41", 4);
    put_u64(p + 8, DARSHAN_MAGIC);
    p[16] = IOSAGE_COMP_ZLIB;
    put_u64(p + 24, log->header.partial_flags);
    put_u64(p + 32, names->off);
    put_u64(p + 40, names->len);
    for (int k = 0; k < IOSAGE_MAX_MODULES; k++) {
        put_u64(p + 48 + 16 * k, mods[k].off);
        put_u64(p + 56 + 16 * k, mods[k].len);
        put_u32(p + 1072 + 4 * k, mods[k].version);
    }
}

/* See darshan.h. */
iosage_status iosage_log_write_mem(const iosage_log *log, uint8_t **out,
                                   size_t *out_len, iosage_error *err)
{
    if (!log || !out || !out_len)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "", -1,
                        "iosage_log_write_mem: NULL log or result");
    *out = NULL;
    *out_len = 0;
    ios_buf b = {0};
    struct iosage_region names, mods[IOSAGE_MAX_MODULES];
    memset(mods, 0, sizeof mods);
    ios_buf_zeros(&b, HEADER_SIZE);
    iosage_status st = write_job(log, &b, err);
    if (st == IOSAGE_OK)
        st = write_names(log, &b, &names, err);
    for (int k = 0; k < IOSAGE_MAX_MODULES && st == IOSAGE_OK; k++)
        st = write_module(log, k, &b, &mods[k], err);
    if (st == IOSAGE_OK && b.oom)
        st = ios_fail(err, IOSAGE_E_NOMEM, NULL, "", -1,
                      "out of memory writing the log");
    if (st != IOSAGE_OK) {
        ios_buf_free(&b);
        return st;
    }
    fill_header(log, &names, mods, b.p);
    *out = b.p;
    *out_len = b.len;
    return IOSAGE_OK;
}

/* IOSAGE_E_IO for path; removes tmp (if non-NULL) keeping errno. */
static iosage_status fail_io(iosage_error *err, const char *path,
                             const char *tmp, const char *what)
{
    int e = errno;
    if (tmp)
        unlink(tmp);
    errno = e;
    return ios_fail(err, IOSAGE_E_IO, path, "", -1, "%s: %s", what,
                    strerror(e));
}

/* Write all of p[0..n) to fd; -1 with errno on failure. */
static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Write data to a temporary file beside path, then rename it over path.
 * On failure the temporary file is removed. */
static iosage_status write_atomic(const char *path, const uint8_t *data,
                                  size_t len, iosage_error *err)
{
    size_t n = strlen(path) + sizeof ".tmp.XXXXXX";
    char *tmp = malloc(n);
    if (!tmp)
        return ios_fail(err, IOSAGE_E_NOMEM, path, "", -1, "out of memory");
    snprintf(tmp, n, "%s.tmp.XXXXXX", path);
    iosage_status st = IOSAGE_OK;
    int fd = mkstemp(tmp);
    if (fd < 0) {
        st = fail_io(err, path, NULL, "cannot create a temporary file");
    } else if (fchmod(fd, 0644) != 0 || write_all(fd, data, len) != 0) {
        st = fail_io(err, path, tmp, "cannot write");
        close(fd);
    } else if (close(fd) != 0) {
        st = fail_io(err, path, tmp, "cannot write");
    } else if (rename(tmp, path) != 0) {
        st = fail_io(err, path, tmp, "cannot rename the temporary file");
    }
    free(tmp);
    return st;
}

/* See darshan.h. */
iosage_status iosage_log_write(const iosage_log *log, const char *path,
                               iosage_error *err)
{
    if (!path)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "", -1,
                        "iosage_log_write: NULL path");
    uint8_t *data;
    size_t len;
    iosage_status st = iosage_log_write_mem(log, &data, &len, err);
    if (st != IOSAGE_OK) {
        if (err && !err->path[0])
            snprintf(err->path, sizeof err->path, "%s", path);
        return st;
    }
    st = write_atomic(path, data, len, err);
    free(data);
    return st;
}
