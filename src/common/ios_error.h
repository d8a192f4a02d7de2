/*
 * ios_error.h - the one helper that fills struct iosage_error (error.c).
 *
 * Every failure inside the library goes through ios_fail(), so an error
 * always has the same shape: code, the input path, the region or module
 * ("where"), an optional byte offset and one line of text.
 */
#ifndef IOS_COMMON_ERROR_H
#define IOS_COMMON_ERROR_H

#include <stdint.h>

#include "iosage/error.h"

/* Fill err (if non-NULL) and return code. where/offset may be NULL/-1. */
iosage_status ios_fail(iosage_error *err, iosage_status code, const char *path,
                       const char *where, int64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

#endif
