/*
 * stored.c - read a log file's stored bytes, leaving out the regions the
 * read flags skip.
 *
 * With IOSAGE_READ_NO_TRACES the loader never looks at the trace regions
 * (DXT_POSIX, DXT_MPIIO, HEATMAP; IOSAGE_READ_IO_ONLY adds APMPI, APXC and
 * BGQ), and in logs with DXT enabled they are most of the file: the largest shared log is 3.6 MB, nearly all DXT.
 * Reading them anyway cost a copy of every byte into fresh memory (a page
 * fault every 4 KiB): on the shared real logs, reading the files took as
 * much of `iosage batch` as decompressing them. Here the header is read
 * first, then only the byte ranges the loader will use: the header and job
 * region, the name region and every other module region. The buffer is
 * still the file's full size, so every offset means what it does in the
 * file; the bytes left out are never touched (no page fault) and their
 * values are undefined.
 *
 * Anything unusual (not a regular file, a small file, a header that does
 * not decode, a file that shrinks while it is read) falls back to reading
 * the whole file, so the loader sees and reports exactly what it did
 * before.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "ios_bigmem.h"
#include "ios_file.h"

/* Files under this size are read whole: one read is cheaper than working
 * out what to leave out. */
#define SPARSE_MIN_BYTES (256 * 1024)

/* Ranges closer than this are read as one (fewer system calls). */
#define MERGE_GAP (64 * 1024)

/* The header is at most this long (format 3.41's; older ones are 360). */
#define HEADER_MAX 1328

/* A byte range [off, end) of the file. */
struct range {
    uint64_t off, end;
};

/* Read n bytes at off; 0 when all arrived. */
static int pread_all(int fd, uint8_t *buf, uint64_t off, size_t n)
{
    while (n > 0) {
        ssize_t r = pread(fd, buf, n, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        buf += r;
        off += (uint64_t)r;
        n -= (size_t)r;
    }
    return 0;
}

/* Append [off, off + len) clipped to the file to list (count *n). */
static void add_range(struct range *list, int *n, uint64_t off, uint64_t len,
                      uint64_t size)
{
    if (len == 0 || off >= size)
        return;
    uint64_t end = len > size - off ? size : off + len;
    list[(*n)++] = (struct range){off, end};
}

static int by_offset(const void *a, const void *b)
{
    const struct range *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* The ranges the loader reads under flags, from the decoded header h of a
 * size-byte file, sorted and merged; returns their count. */
static int needed_ranges(const struct iosage_header *h, int flags,
                         uint64_t size,
                         struct range list[IOSAGE_MAX_MODULES + 2])
{
    int n = 0;
    add_range(list, &n, 0, (uint64_t)h->header_size + h->job_len, size);
    add_range(list, &n, h->names.off, h->names.len, size);
    for (int id = 0; id < IOSAGE_MAX_MODULES; id++)
        if (!ios_module_left_out(id, flags))
            add_range(list, &n, h->modules[id].off, h->modules[id].len, size);
    qsort(list, (size_t)n, sizeof *list, by_offset);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && list[i].off <= list[m - 1].end + MERGE_GAP) {
            if (list[i].end > list[m - 1].end)
                list[m - 1].end = list[i].end;
        } else {
            list[m++] = list[i];
        }
    }
    return m;
}

/* The sparse read of an open regular file of size bytes; 0 with *out set,
 * -1 when the caller should read the whole file instead. */
static int read_sparse(int fd, uint64_t size, int flags, const char *path,
                       uint8_t **out)
{
    uint8_t *buf = ios_big_malloc((size_t)size + 1);
    if (!buf)
        return -1;
    size_t head = size < HEADER_MAX ? (size_t)size : HEADER_MAX;
    struct iosage_header h;
    struct range list[IOSAGE_MAX_MODULES + 2];
    int ok = pread_all(fd, buf, 0, head) == 0 &&
             ios_header_decode(buf, (size_t)size, &h, path, NULL) == IOSAGE_OK &&
             h.header_size <= head;
    int n = ok ? needed_ranges(&h, flags, size, list) : 0;
    for (int i = 0; ok && i < n; i++) {
        uint64_t from = list[i].off < head ? head : list[i].off;
        if (list[i].end > from &&
            pread_all(fd, buf + from, from, (size_t)(list[i].end - from)) != 0)
            ok = 0;
    }
    if (!ok) {
        free(buf);
        return -1;
    }
    buf[size] = '\0';
    *out = buf;
    return 0;
}

/* See internal.h. */
iosage_status ios_log_read_file_from(const char *path, int flags,
                                     uint64_t sparse_min, uint8_t **out,
                                     size_t *len, iosage_error *err)
{
    int regular_only = (flags & IOSAGE_READ_REGULAR_ONLY) != 0;
    if (!(flags & (IOSAGE_READ_NO_TRACES | IOSAGE_READ_IO_ONLY)))
        return ios_read_file(path, regular_only, out, len, err);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        (uint64_t)st.st_size >= sparse_min && (uint64_t)st.st_size < SIZE_MAX &&
        read_sparse(fd, (uint64_t)st.st_size, flags, path, out) == 0) {
        close(fd);
        *len = (size_t)st.st_size;
        return IOSAGE_OK;
    }
    if (fd >= 0)
        close(fd);
    /* the whole file, with ios_read_file's errors */
    return ios_read_file(path, regular_only, out, len, err);
}

/* See darshan.h. */
iosage_status iosage_log_read_file(const char *path, int flags, uint8_t **out,
                                   size_t *len, iosage_error *err)
{
    if (!path || !out || !len)
        return ios_fail(err, IOSAGE_E_USAGE, path, "", -1,
                        "iosage_log_read_file: NULL path or result");
    return ios_log_read_file_from(path, flags, SPARSE_MIN_BYTES, out, len, err);
}
