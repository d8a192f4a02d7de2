/*
 * tests/fuzz/fuzz_report.c - libFuzzer target: the report renderer never
 * crashes on a document with wrong types or missing fields.
 *
 * The input is parsed as JSON; when it is an object it gets the schema and
 * version the renderer checks ("iosage-report", 1) and is rendered in all
 * four formats, with and without colour for the text view. Every render
 * must succeed and return a NUL-terminated buffer of the length it says.
 *
 * Built two ways, like fuzz_reader.c: with clang -fsanitize=fuzzer (make fuzz
 * FUZZ_TARGET=report) and with replay.c (ctest fuzz_replay_report).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "iosage/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void render(const json_t *doc, enum iosage_report_format f, int color)
{
    struct iosage_report_options o = {.color = color};
    char *out = NULL;
    size_t len = 0;
    iosage_error err;
    if (iosage_report_render(doc, f, &o, &out, &len, &err) != IOSAGE_OK)
        abort(); /* a report object with the right schema always renders */
    if (!out || strlen(out) != len)
        abort();
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error_t jerr;
    json_t *doc = json_loadb((const char *)data, size,
                             JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
    if (!json_is_object(doc)) {
        json_decref(doc);
        return 0;
    }
    json_object_set_new(doc, "schema", json_string(IOSAGE_REPORT_SCHEMA));
    json_object_set_new(doc, "version", json_integer(IOSAGE_REPORT_VERSION));
    render(doc, IOSAGE_REPORT_TEXT, 0);
    render(doc, IOSAGE_REPORT_TEXT, 1);
    render(doc, IOSAGE_REPORT_MARKDOWN, 0);
    render(doc, IOSAGE_REPORT_HTML, 0);
    render(doc, IOSAGE_REPORT_JSON, 0);
    json_decref(doc);
    return 0;
}
