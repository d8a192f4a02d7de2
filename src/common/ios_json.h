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

/* json_dumps, with the text built in iosage's own buffer: NULL when out
 * of memory (caller frees the text otherwise). jansson 2.14's json_dumps
 * ignores a failed append of an object key and returns a document with
 * the key cut (found by fault injection); here any failed append makes the
 * whole call fail. */
char *ios_json_dumps(const json_t *v, size_t flags);

/* json_loadb, but NULL with error->text "out of memory" when any
 * allocation jansson made failed: jansson 2.14's lexer ignores a failed
 * append to a string being read and returns the string with characters
 * missing (found by fault injection: advice text from the cards). */
json_t *ios_json_loadb(const char *buf, size_t len, size_t flags,
                       json_error_t *error);

#endif
