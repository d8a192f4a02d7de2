/*
 * src/batch/internal.h - what the files of src/batch share.
 */
#ifndef IOSAGE_BATCH_INTERNAL_H
#define IOSAGE_BATCH_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "iosage/batch.h"

/* A malloc'd copy of s (NULL gives "") in which every byte that is not part
 * of valid UTF-8 is replaced by U+FFFD, so that every row string can be
 * written as JSON and read back unchanged; NULL when out of memory. */
char *ios_batch_text(const char *s);

#endif
