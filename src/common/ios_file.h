/*
 * ios_file.h - whole-file reading (file.c).
 */
#ifndef IOS_COMMON_FILE_H
#define IOS_COMMON_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "iosage/error.h"

/*
 * Read the whole file at path into a malloc'd buffer (*out, *len; caller
 * frees), with a NUL after the last byte so that text can be used as a
 * string. With regular_only, anything but a regular file is refused
 * ("cannot read: not a regular file"). IOSAGE_E_IO with errno on failure.
 */
iosage_status ios_read_file(const char *path, int regular_only, uint8_t **out,
                            size_t *len, iosage_error *err);

#endif
