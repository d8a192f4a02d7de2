/*
 * iosage/error.h - status codes and the error record every library call fills.
 *
 * The library never prints. A call that fails returns a status code and, when
 * the caller passed a non-NULL struct iosage_error, fills it with the detail:
 * the file being read, the region or module, the byte offset where the problem
 * was seen, and one line of text (no trailing newline).
 *
 * Status numbers are part of the ABI: never renumber, never reuse a number.
 */
#ifndef IOSAGE_ERROR_H
#define IOSAGE_ERROR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define IOSAGE_API __attribute__((visibility("default")))
#else
#define IOSAGE_API
#endif

typedef enum iosage_status {
    IOSAGE_OK = 0,
    IOSAGE_E_IO = 10,          /* open/read/write/rename failed; sys_errno set */
    IOSAGE_E_NOT_DARSHAN = 20, /* not a Darshan log at all (magic, version text) */
    IOSAGE_E_VERSION = 21,     /* a Darshan log of a format we do not read (2.x) */
    IOSAGE_E_CORRUPT = 22,     /* structure inconsistent with the format */
    IOSAGE_E_DECOMPRESS = 23,  /* a zlib/bzip2 stream is damaged */
    IOSAGE_E_TRUNCATED = 24,   /* the file ends before a structure it announces */
    IOSAGE_E_UNSUPPORTED = 25, /* valid but not handled (unknown compression) */
    IOSAGE_E_NOMEM = 30,       /* allocation failed */
    IOSAGE_E_LIMIT = 32,       /* a size read from input exceeds a fixed cap */
    IOSAGE_E_USAGE = 40,       /* the caller passed invalid arguments */
    IOSAGE_E_INTERNAL = 50     /* a bug in iosage */
} iosage_status;

struct iosage_error {
    iosage_status code;
    int sys_errno;      /* set only for IOSAGE_E_IO, else 0 */
    uint64_t offset;    /* byte offset (file, or decompressed region when
                           'where' names a module) where it was seen */
    int has_offset;     /* 0 when no offset applies */
    char path[256];     /* input being read, may be truncated */
    char where[48];     /* "header", "job region", "name region", a module
                           name such as "POSIX", or "" */
    char msg[240];      /* one line, no newline */
};
typedef struct iosage_error iosage_error;

/* Short constant text for a status code, e.g. "corrupt log". Never NULL. */
IOSAGE_API const char *iosage_strerror(iosage_status code);

/* Format err as one line without a newline into buf (always NUL-terminated):
 *   "<path>: <where>: <msg> (at byte <offset>)"
 * Parts that are empty are left out. Control characters (line feeds and
 * escape sequences in a file name included) and bytes that are not UTF-8
 * are written as \xHH, so the line is one line and cannot act on a
 * terminal; err itself keeps the bytes. Returns buf. */
IOSAGE_API char *iosage_error_line(const iosage_error *err, char *buf,
                                   size_t size);

#ifdef __cplusplus
}
#endif
#endif
