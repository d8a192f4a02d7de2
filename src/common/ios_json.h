/*
 * ios_json.h - helpers for building JSON documents with jansson (json.c),
 * and the one hand-written JSON string escaper.
 */
#ifndef IOS_COMMON_JSON_H
#define IOS_COMMON_JSON_H

#include <jansson.h>

#include "ios_text.h"

/* A JSON string of s with bytes that are not UTF-8 replaced by U+FFFD;
 * json_null() for NULL; NULL when out of memory. */
json_t *ios_json_str(const char *s);

/* A finite real, or 0 for NaN/inf. */
json_t *ios_json_real(double v);

/* Set key of obj to a new reference v; returns -1 when v is NULL or the set
 * fails (v is released). */
int ios_json_set(json_t *obj, const char *key, json_t *v);

/* s as a JSON string in pure ASCII appended to b, for lines written
 * without jansson (`iosage rules`): control characters and every
 * non-ASCII character as \uXXXX escapes (surrogate pairs above U+FFFF);
 * bytes that are not valid UTF-8 become U+FFFD. NULL is "". */
void ios_json_ascii(ios_text *b, const char *s);

#endif
