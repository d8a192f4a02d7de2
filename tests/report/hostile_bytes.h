/* hostile_bytes.h - see hostile_bytes.c */
#ifndef IOSAGE_TEST_HOSTILE_BYTES_H
#define IOSAGE_TEST_HOSTILE_BYTES_H
#include <jansson.h>
void hostile_add_bad_utf8(json_t *doc);
#endif
