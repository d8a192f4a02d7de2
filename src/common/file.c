/*
 * file.c - read a whole file into memory (log files, config files, model
 * bundles, documents): one place for the open/stat/read loop and its
 * errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ios_error.h"
#include "ios_file.h"

/* See ios_file.h. The buffer holds at least one byte more than was read
 * (it grows before a read when full), so the NUL always fits. */
iosage_status ios_read_file(const char *path, int regular_only, uint8_t **out,
                            size_t *len, iosage_error *err)
{
    *out = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return ios_fail(err, IOSAGE_E_IO, path, "", -1, "cannot open: %s",
                        strerror(errno));
    struct stat st;
    int e = 0;
    if (fstat(fd, &st) != 0)
        e = errno;
    else if (S_ISDIR(st.st_mode))
        e = EISDIR;
    else if (regular_only && !S_ISREG(st.st_mode))
        e = EINVAL;
    if (e != 0) {
        close(fd);
        errno = e;
        return ios_fail(err, IOSAGE_E_IO, path, "", -1, "cannot read: %s",
                        e == EINVAL ? "not a regular file" : strerror(e));
    }
    size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 65536, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            uint8_t *grown = cap < SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!grown)
                break;
            buf = grown;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r == 0) {
            close(fd);
            buf[n] = '\0';
            *out = buf;
            *len = n;
            return IOSAGE_OK;
        }
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            e = errno;
            free(buf);
            close(fd);
            errno = e;
            return ios_fail(err, IOSAGE_E_IO, path, "", (int64_t)n,
                            "read failed: %s", strerror(e));
        }
        n += (size_t)r;
    }
    free(buf);
    close(fd);
    return ios_fail(err, IOSAGE_E_NOMEM, path, "", -1,
                    "out of memory reading the file");
}
