/*
 * header.c - the fixed header at offset 0 (format spec 3, 4.2, 5.3).
 *
 *   formats 3.00-3.21: 360 bytes, 16 slots, 32-bit partial flag
 *   format  3.41:      1328 bytes, 64 slots, 64-bit partial flag
 *
 * Steps: parse the version text, pick the layout, find the byte order from
 * the magic number, read the fields, remap old slot numbers to the 3.41 id
 * table (moving maps, versions and partial bits together), then infer the
 * job region's stored length. Every field is read with explicit loads; no
 * struct is overlaid on file bytes.
 */
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "internal.h"

#define DARSHAN_MAGIC 6567223ULL
#define HEADER_OLD 360u
#define HEADER_NEW 1328u

/* Byte offsets of the fields in each layout. */
typedef struct layout {
    uint32_t size;
    int nslots;
    size_t partial_off;
    int partial_bytes; /* 4 or 8 */
    size_t name_map_off;
    size_t mod_map_off;
    size_t mod_ver_off;
} layout;

static const layout OLD_LAYOUT = {HEADER_OLD, 16, 20, 4, 24, 40, 296};
static const layout NEW_LAYOUT = {HEADER_NEW, 64, 24, 8, 32, 48, 1072};

/* The versions the reference reader accepts (spec 1). */
static const struct { int major, minor; } KNOWN_VERSIONS[] = {
    {3, 0}, {3, 10}, {3, 20}, {3, 21}, {3, 41}};

/* Render up to n bytes of p as printable text with \xNN escapes. */
static void escape_bytes(const uint8_t *p, size_t n, char *out, size_t size)
{
    size_t k = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && k + 5 < size; i++) {
        if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"' && p[i] != '\\')
            out[k++] = (char)p[i];
        else
            k += (size_t)snprintf(out + k, size - k, "\\x%02x", p[i]);
    }
    out[k] = '\0';
}

/*
 * Parse "<major>.<minor>" followed only by NUL padding in the 8 version
 * bytes. Returns 0 and sets major/minor, or -1 when it is not such text.
 * "3.00" parses as minor 0, "3.10" as 10.
 */
static int parse_version(const uint8_t *v, int *major, int *minor)
{
    size_t i = 0;
    int a = 0, b = 0, na = 0, nb = 0;
    while (i < 8 && v[i] >= '0' && v[i] <= '9' && na < 3)
        a = a * 10 + (v[i++] - '0'), na++;
    if (na == 0 || i >= 8 || v[i++] != '.')
        return -1;
    while (i < 8 && v[i] >= '0' && v[i] <= '9' && nb < 3)
        b = b * 10 + (v[i++] - '0'), nb++;
    if (nb == 0)
        return -1;
    for (; i < 8; i++)
        if (v[i] != '\0')
            return -1;
    *major = a;
    *minor = b;
    return 0;
}

static int version_known(int major, int minor)
{
    for (size_t i = 0; i < sizeof KNOWN_VERSIONS / sizeof *KNOWN_VERSIONS; i++)
        if (KNOWN_VERSIONS[i].major == major &&
            KNOWN_VERSIONS[i].minor == minor)
            return 1;
    return 0;
}

/*
 * A gzip'd file (Darshan 1.x/2.x logs were shipped as .darshan.gz): peek at
 * the first decompressed bytes to name what is inside.
 */
static iosage_status fail_gzip(const uint8_t *data, size_t size,
                               const char *path, iosage_error *err)
{
    uint8_t head[8] = {0};
    z_stream z;
    memset(&z, 0, sizeof z);
    int major = 0, minor = 0, inner = -1;
    if (inflateInit2(&z, 16 + MAX_WBITS) == Z_OK) {
        z.next_in = (Bytef *)(uintptr_t)data;
        z.avail_in = (uInt)(size < 65536 ? size : 65536);
        z.next_out = head;
        z.avail_out = sizeof head;
        int r = inflate(&z, Z_SYNC_FLUSH);
        if ((r == Z_OK || r == Z_STREAM_END) && z.avail_out == 0)
            inner = parse_version(head, &major, &minor);
        inflateEnd(&z);
    }
    if (inner == 0)
        return ios_fail(err, IOSAGE_E_VERSION, path, "header", 0,
                        "file is gzip-compressed and holds a Darshan %d.%02d "
                        "log; only formats 3.00 to 3.41 are read",
                        major, minor);
    return ios_fail(err, IOSAGE_E_NOT_DARSHAN, path, "header", 0,
                    "file is gzip-compressed, not a Darshan 3.x log");
}

/* Check the version text; on success set h->version, ver_major/minor. */
static iosage_status check_version(const uint8_t *data, size_t size,
                                   struct iosage_header *h, const char *path,
                                   iosage_error *err)
{
    char shown[48];
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b)
        return fail_gzip(data, size, path, err);
    if (size < 16)
        return ios_fail(err, IOSAGE_E_NOT_DARSHAN, path, "header", -1,
                        "file is %zu bytes, too short for a Darshan log", size);
    if (parse_version(data, &h->ver_major, &h->ver_minor) != 0) {
        escape_bytes(data, 8, shown, sizeof shown);
        return ios_fail(err, IOSAGE_E_NOT_DARSHAN, path, "header", 0,
                        "no Darshan version text at byte 0 (found \"%s\")",
                        shown);
    }
    memcpy(h->version, data, 8);
    h->version[8] = '\0';
    if (!version_known(h->ver_major, h->ver_minor))
        return ios_fail(err, IOSAGE_E_VERSION, path, "header", 0,
                        "log format version \"%s\" is not supported (known: "
                        "3.00, 3.10, 3.20, 3.21, 3.41)%s", h->version,
                        h->ver_major < 3 ? "; Darshan 1.x/2.x logs are a "
                                           "different format" : "");
    return IOSAGE_OK;
}

/* Byte order from the magic number at offset 8; sets h->big_endian. */
static iosage_status check_magic(const uint8_t *data, struct iosage_header *h,
                                 int *swap, const char *path,
                                 iosage_error *err)
{
    uint64_t le = ios_load_u64(data + 8, 0);
    if (le == DARSHAN_MAGIC) {
        *swap = 0;
        h->big_endian = 0;
        return IOSAGE_OK;
    }
    if (ios_bswap64(le) == DARSHAN_MAGIC) {
        *swap = 1;
        h->big_endian = 1;
        return IOSAGE_OK;
    }
    return ios_fail(err, IOSAGE_E_NOT_DARSHAN, path, "header", 8,
                    "bad magic number 0x%016llx (expected %llu in either byte "
                    "order)", (unsigned long long)le,
                    (unsigned long long)DARSHAN_MAGIC);
}

/* Read maps, versions and partial bits of layout L into h (slot k = k). */
static void read_fields(const uint8_t *data, const layout *L, int swap,
                        struct iosage_header *h)
{
    h->compression = data[16];
    h->header_size = L->size;
    if (L->partial_bytes == 4)
        h->partial_flags = ios_load_u32(data + L->partial_off, swap);
    else
        h->partial_flags = ios_load_u64(data + L->partial_off, swap);
    h->names.off = ios_load_u64(data + L->name_map_off, swap);
    h->names.len = ios_load_u64(data + L->name_map_off + 8, swap);
    for (int k = 0; k < L->nslots; k++) {
        const uint8_t *m = data + L->mod_map_off + 16 * (size_t)k;
        h->modules[k].off = ios_load_u64(m, swap);
        h->modules[k].len = ios_load_u64(m + 8, swap);
        const uint8_t *v = data + L->mod_ver_off + 4 * (size_t)k;
        h->modules[k].version = ios_load_u32(v, swap);
    }
}

/* Insert an empty slot at index at: slots at..62 move to at+1..63, and the
 * partial bits move with them (spec 4.2). */
static void insert_slot(struct iosage_header *h, int at)
{
    memmove(&h->modules[at + 1], &h->modules[at],
            (size_t)(IOSAGE_MAX_MODULES - 1 - at) * sizeof h->modules[0]);
    memset(&h->modules[at], 0, sizeof h->modules[at]);
    uint64_t low = h->partial_flags & ((UINT64_C(1) << at) - 1);
    uint64_t high = (h->partial_flags >> at) << (at + 1);
    h->partial_flags = low | high;
}

/* Remap old slot numbering to the 3.41 id table. */
static void remap_slots(struct iosage_header *h)
{
    int v = h->ver_major * 100 + h->ver_minor;
    if (v < 320)
        insert_slot(h, IOSAGE_MOD_H5D);
    if (v < 341)
        insert_slot(h, IOSAGE_MOD_PNETCDF_VAR);
}

/*
 * The job region starts after the header and ends where the name region
 * starts, else where the first module region (by id) starts, else at the
 * end of the file (spec 5.3).
 */
static iosage_status infer_job_len(struct iosage_header *h, const char *path,
                                   iosage_error *err)
{
    uint64_t end = h->file_size;
    const char *by = "end of file";
    if (h->names.off != 0) {
        end = h->names.off;
        by = "name region";
    } else {
        for (int k = 0; k < IOSAGE_MAX_MODULES; k++) {
            if (h->modules[k].off != 0) {
                end = h->modules[k].off;
                by = "first module region";
                break;
            }
        }
    }
    if (end < h->header_size)
        return ios_fail(err, IOSAGE_E_CORRUPT, path, "header", -1,
                        "%s starts at byte %llu, inside the %u-byte header", by,
                        (unsigned long long)end, h->header_size);
    if (end > h->file_size)
        return ios_fail(err, IOSAGE_E_TRUNCATED, path, "job region",
                        (int64_t)h->header_size,
                        "job region ends at byte %llu (start of the %s) but "
                        "the file has %llu bytes", (unsigned long long)end, by,
                        (unsigned long long)h->file_size);
    h->job_len = end - h->header_size;
    return IOSAGE_OK;
}

/* 1 when region r (len > 0) reaches past the end of a file_size-byte file. */
int ios_region_past_eof(const struct iosage_region *r, uint64_t file_size)
{
    if (r->len == 0)
        return 0;
    return r->off > file_size || r->len > file_size - r->off;
}

/* See internal.h. *h is fully overwritten. */
iosage_status ios_header_decode(const uint8_t *data, size_t size,
                                struct iosage_header *h, const char *path,
                                iosage_error *err)
{
    memset(h, 0, sizeof *h);
    iosage_status st = check_version(data, size, h, path, err);
    if (st != IOSAGE_OK)
        return st;
    const layout *L = h->ver_minor == 41 ? &NEW_LAYOUT : &OLD_LAYOUT;
    if (size < L->size)
        return ios_fail(err, IOSAGE_E_TRUNCATED, path, "header", -1,
                        "file is %zu bytes, shorter than the %u-byte header of "
                        "format %s", size, L->size, h->version);
    int swap = 0;
    if ((st = check_magic(data, h, &swap, path, err)) != IOSAGE_OK)
        return st;
    h->file_size = size;
    read_fields(data, L, swap, h);
    remap_slots(h);
    if (ios_region_past_eof(&h->names, size))
        return ios_fail(err, IOSAGE_E_TRUNCATED, path, "name region",
                        (int64_t)h->names.off,
                        "name region [%llu, +%llu) ends past the end of the "
                        "file (%zu bytes)", (unsigned long long)h->names.off,
                        (unsigned long long)h->names.len, size);
    return infer_job_len(h, path, err);
}
