/*
 * bench/min_dump.c - the start-up baseline of `make bench`: about the least
 * a C program can do to show a Darshan log.
 *
 *   min_dump LOG
 *
 * It reads the whole file, takes the header (360- or 1328-byte layout,
 * little-endian, zlib (type 0) only), inflates the job region, the name region and
 * every module region (each region is zlib streams back to back), and
 * prints the job record, the command line, one line per name record and
 * the decompressed size of each module region. It links only libc and
 * zlib. `iosage dump --all` on the empty shared log is measured against it
 * (scripts/bench.sh): no slower than this is the target of issue 12.
 *
 * Not a reader: no byte swapping, no bzip2, no version checks beyond the
 * layout, no record decoding. Exit 1 on anything it does not handle.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define MAGIC 6567223

static uint64_t u64_at(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static uint32_t u32_at(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Inflate every zlib stream of src[0..len) into a malloc'd buffer; its
 * length goes to *out_len. NULL on damage or no memory. */
static unsigned char *inflate_region(const unsigned char *src, size_t len,
                                     size_t *out_len)
{
    size_t cap = len * 8 + 4096, n = 0;
    unsigned char *out = malloc(cap);
    z_stream z;
    memset(&z, 0, sizeof z);
    if (!out || inflateInit(&z) != Z_OK) {
        free(out);
        return NULL;
    }
    z.next_in = (unsigned char *)(uintptr_t)src;
    z.avail_in = (uInt)len;
    while (z.avail_in > 0) {
        if (n == cap) {
            unsigned char *p = realloc(out, cap * 2);
            if (!p)
                break;
            out = p;
            cap *= 2;
        }
        z.next_out = out + n;
        z.avail_out = (uInt)(cap - n);
        int r = inflate(&z, Z_NO_FLUSH);
        n = cap - z.avail_out;
        if (r == Z_STREAM_END)
            inflateReset(&z); /* the next rank's stream */
        else if (r != Z_OK && r != Z_BUF_ERROR)
            break;
        else if (r == Z_BUF_ERROR && z.avail_out != 0)
            break; /* input ended inside a stream */
    }
    int bad = z.avail_in != 0;
    inflateEnd(&z);
    if (bad) {
        free(out);
        return NULL;
    }
    *out_len = n;
    return out;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: min_dump LOG\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *log = size > 0 ? malloc((size_t)size) : NULL;
    if (!log || fread(log, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "%s: cannot read\n", argv[1]);
        return 1;
    }
    fclose(f);

    /* Header: 3.41 has 64 slots at offset 48, older versions 16 at 40. */
    int v341 = size >= 1328 && strncmp((const char *)log, "3.41", 4) == 0;
    size_t hsize = v341 ? 1328 : 360, slots = v341 ? 64 : 16;
    size_t names_at = v341 ? 32 : 24, map_at = v341 ? 48 : 40;
    if ((size_t)size < hsize || u64_at(log + 8) != MAGIC || log[16] != 0) {
        fprintf(stderr, "%s: not a little-endian zlib Darshan log\n", argv[1]);
        return 1;
    }
    uint64_t noff = u64_at(log + names_at), nlen = u64_at(log + names_at + 8);
    if (noff > (uint64_t)size || nlen > (uint64_t)size - noff || noff < hsize) {
        fprintf(stderr, "%s: bad name map\n", argv[1]);
        return 1;
    }

    /* Job region: from the header to the name region. */
    size_t jlen;
    unsigned char *job = inflate_region(log + hsize, noff - hsize, &jlen);
    size_t jrec = v341 ? 1080 : 1064;
    if (!job || jlen < jrec) {
        fprintf(stderr, "%s: bad job region\n", argv[1]);
        return 1;
    }
    printf("# darshan log version: %.8s\n", (const char *)log);
    printf("# uid: %" PRId64 "\n", (int64_t)u64_at(job));
    printf("# start_time: %" PRId64 "\n", (int64_t)u64_at(job + 8));
    printf("# end_time: %" PRId64 "\n", (int64_t)u64_at(job + (v341 ? 24 : 16)));
    printf("# nprocs: %" PRId64 "\n", (int64_t)u64_at(job + (v341 ? 40 : 24)));
    printf("# jobid: %" PRId64 "\n", (int64_t)u64_at(job + (v341 ? 48 : 32)));
    printf("# exe and mounts:\n%.*s\n", (int)(jlen - jrec), job + jrec);
    free(job);

    /* Names: uint64 id then a NUL-terminated name (3.10 and later). */
    size_t len;
    unsigned char *names = nlen ? inflate_region(log + noff, nlen, &len) : NULL;
    for (size_t at = 0; names && at + 8 < len;) {
        const char *s = (const char *)names + at + 8;
        size_t sl = strnlen(s, len - at - 8);
        printf("%" PRIu64 "\t%.*s\n", u64_at(names + at), (int)sl, s);
        at += 8 + sl + 1;
    }
    free(names);

    /* Modules: the decompressed size of each region with data. */
    for (size_t k = 0; k < slots; k++) {
        uint64_t off = u64_at(log + map_at + 16 * k);
        uint64_t mlen = u64_at(log + map_at + 16 * k + 8);
        uint32_t ver = u32_at(log + map_at + 16 * slots + 4 * k);
        if (mlen == 0 || off > (uint64_t)size || mlen > (uint64_t)size - off)
            continue;
        unsigned char *data = inflate_region(log + off, mlen, &len);
        if (!data) {
            fprintf(stderr, "%s: module %zu: bad region\n", argv[1], k);
            return 1;
        }
        printf("# module %zu (version %" PRIu32 "): %zu bytes\n", k, ver, len);
        free(data);
    }
    free(log);
    return 0;
}
