/*
 * error.c - status texts and the one helper that fills struct iosage_error.
 *
 * Every failure inside the library goes through ios_fail(), so the error
 * record always has the same shape: code, the input path, the region or
 * module ("where"), an optional byte offset and one line of text.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ios_error.h"
#include "ios_text.h"

/* Short constant text for a status code. Never NULL. */
const char *iosage_strerror(iosage_status code)
{
    switch (code) {
    case IOSAGE_OK: return "success";
    case IOSAGE_E_IO: return "I/O error";
    case IOSAGE_E_NOT_DARSHAN: return "not a Darshan log";
    case IOSAGE_E_VERSION: return "unsupported Darshan log version";
    case IOSAGE_E_CORRUPT: return "corrupt log";
    case IOSAGE_E_DECOMPRESS: return "damaged compressed data";
    case IOSAGE_E_TRUNCATED: return "truncated log";
    case IOSAGE_E_UNSUPPORTED: return "unsupported log feature";
    case IOSAGE_E_NOMEM: return "out of memory";
    case IOSAGE_E_LIMIT: return "size limit exceeded";
    case IOSAGE_E_USAGE: return "invalid argument";
    case IOSAGE_E_INTERNAL: return "internal error";
    }
    return "unknown error";
}

/* Copy src into dst (size n), always NUL-terminated, cutting if needed. */
static void copy_text(char *dst, size_t n, const char *src)
{
    if (n == 0)
        return;
    snprintf(dst, n, "%s", src ? src : "");
}

/* Replace line breaks and tabs by blanks so msg stays one line. */
static void flatten_line(char *s)
{
    for (; *s; s++)
        if (*s == '\n' || *s == '\r' || *s == '\t')
            *s = ' ';
}

/*
 * Fill err (when non-NULL) and return code. For IOSAGE_E_IO the current
 * errno is saved in sys_errno (read first, before anything can change it).
 * path and where may be NULL; offset < 0 means "no offset".
 */
iosage_status ios_fail(iosage_error *err, iosage_status code, const char *path,
                       const char *where, int64_t offset, const char *fmt, ...)
{
    int saved_errno = errno;
    if (!err)
        return code;
    memset(err, 0, sizeof *err);
    err->code = code;
    err->sys_errno = code == IOSAGE_E_IO ? saved_errno : 0;
    if (offset >= 0) {
        err->offset = (uint64_t)offset;
        err->has_offset = 1;
    }
    copy_text(err->path, sizeof err->path, path);
    copy_text(err->where, sizeof err->where, where);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    flatten_line(err->msg);
    return code;
}

/* Append s to buf (size, *n used) with control characters and bytes that
 * are not UTF-8 as \xHH (see ios_fput_escaped). Returns 0, or -1 when s
 * did not fit: buf then ends before the first character that did not, and
 * nothing more is appended. */
static int put_escaped(char *buf, size_t size, size_t *n, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = strlen(s);
    int rc = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp = 0;
        size_t k = ios_utf8_seq(p + i, len - i, &cp);
        int esc = k == 0 || cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f);
        if (*n + (esc ? 4 : k) + 1 > size) {
            rc = -1;
            break;
        }
        if (esc) {
            *n += (size_t)snprintf(buf + *n, size - *n, "\\x%02x", p[i]);
            i++;
        } else {
            memcpy(buf + *n, p + i, k);
            *n += k;
            i += k;
        }
    }
    buf[*n] = '\0';
    return rc;
}

/*
 * "<path>: <where>: <msg> (at byte <offset>)" into buf, leaving out empty
 * parts. When msg is empty the status text stands in for it. Returns buf.
 */
char *iosage_error_line(const iosage_error *err, char *buf, size_t size)
{
    if (!buf || size == 0)
        return buf;
    buf[0] = '\0';
    if (!err)
        return buf;
    size_t n = 0;
    const char *msg = err->msg[0] ? err->msg : iosage_strerror(err->code);
    int cut = 0;
    if (err->path[0])
        cut = put_escaped(buf, size, &n, err->path) ||
              put_escaped(buf, size, &n, ": ");
    if (!cut && err->where[0])
        cut = put_escaped(buf, size, &n, err->where) ||
              put_escaped(buf, size, &n, ": ");
    if (!cut)
        cut = put_escaped(buf, size, &n, msg);
    if (!cut && err->has_offset)
        snprintf(buf + n, size - n, " (at byte %llu)",
                 (unsigned long long)err->offset);
    return buf;
}
