/*
 * hostile_bytes.c - add what a JSON file cannot carry to a loaded document:
 * strings with invalid UTF-8 (a lone 0xff, a cut 3-byte sequence, an
 * overlong '/', a UTF-16 surrogate) such as a log's path or exe may hold.
 * jansson refuses such bytes when it parses a file, but a builder that
 * copies raw log strings with json_stringn_nocheck can produce them.
 */
#include "hostile_bytes.h"

/* Replace doc[obj][key] (or doc[key] when obj is NULL) with n raw bytes. */
static void set_raw(json_t *doc, const char *obj, const char *key, const char *s, size_t n)
{
    json_t *o = obj ? json_object_get(doc, obj) : doc;
    json_object_set_new(o, key, json_stringn_nocheck(s, n));
}

void hostile_add_bad_utf8(json_t *doc)
{
    static const char exe[] = "/bin/app\xff\xfe-\xe2\x82-\xc0\xaf-\xed\xa0\x80-\x1b[31mend";
    static const char file[] = "/tmp/log\x80<script>alert(12)</script>\x9b" "31m.darshan";
    set_raw(doc, "job", "exe", exe, sizeof exe - 1);
    set_raw(doc, NULL, "file", file, sizeof file - 1);
    json_t *w = json_object_get(doc, "warnings");
    static const char warn[] = "bad \xf8\x88\x80\x80\x80 bytes";
    json_array_append_new(w, json_stringn_nocheck(warn, sizeof warn - 1));
}
