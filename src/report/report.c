/*
 * report.c - iosage_report_render: check the document, pick the view.
 *
 * The views (text.c, markdown.c, html.c) append to one rep_out; the JSON
 * view is the document itself, re-encoded as valid UTF-8 and indented by 2
 * with the builder's key order (jansson keeps insertion order).
 */
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "ios_json.h"
#include "internal.h"

int iosage_report_format_parse(const char *name, enum iosage_report_format *out)
{
    static const struct {
        const char *name;
        enum iosage_report_format f;
    } names[] = {{"text", IOSAGE_REPORT_TEXT},    {"md", IOSAGE_REPORT_MARKDOWN},
                 {"markdown", IOSAGE_REPORT_MARKDOWN}, {"html", IOSAGE_REPORT_HTML},
                 {"json", IOSAGE_REPORT_JSON}};
    for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i].name) == 0) {
            *out = names[i].f;
            return 0;
        }
    }
    return -1;
}

iosage_status iosage_report_check(const json_t *doc, iosage_error *err)
{
    if (!json_is_object(doc))
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "report", -1,
                        "the report document is not a JSON object");
    const char *schema = rep_str(doc, "schema");
    const json_t *ver = json_object_get(doc, "version");
    if (!schema || strcmp(schema, IOSAGE_REPORT_SCHEMA) != 0)
        return ios_fail(err, IOSAGE_E_VERSION, NULL, "report", -1,
                        "not an iosage report document (\"schema\" is not "
                        "\"%s\")", IOSAGE_REPORT_SCHEMA);
    if (!json_is_integer(ver) || json_integer_value(ver) != IOSAGE_REPORT_VERSION)
        return ios_fail(err, IOSAGE_E_VERSION, NULL, "report", -1,
                        "report document version %lld: this iosage renders "
                        "version %d only",
                        json_is_integer(ver) ? (long long)json_integer_value(ver) : -1LL,
                        IOSAGE_REPORT_VERSION);
    return IOSAGE_OK;
}

/* The JSON view: the document with its strings made valid UTF-8. */
static iosage_status render_json(const json_t *doc, rep_out *o, iosage_error *err)
{
    json_t *copy = rep_json_utf8(doc);
    char *s = copy ? ios_json_dumps(copy, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
    json_decref(copy);
    if (!s)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "report", -1,
                        "out of memory encoding the JSON report");
    rep_puts(o, s);
    rep_putc(o, '\n');
    free(s);
    return IOSAGE_OK;
}

iosage_status iosage_report_render(const json_t *doc, enum iosage_report_format f,
                                   const struct iosage_report_options *opt,
                                   char **out, size_t *len, iosage_error *err)
{
    if (!out || !len)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "report", -1,
                        "no output buffer given");
    *out = NULL;
    *len = 0;
    iosage_status st = iosage_report_check(doc, err);
    if (st != IOSAGE_OK)
        return st;
    rep_out o = {0};
    switch (f) {
    case IOSAGE_REPORT_TEXT: rep_view_text(&o, doc, opt && opt->color); break;
    case IOSAGE_REPORT_MARKDOWN: rep_view_markdown(&o, doc); break;
    case IOSAGE_REPORT_HTML: rep_view_html(&o, doc); break;
    case IOSAGE_REPORT_JSON: st = render_json(doc, &o, err); break;
    default:
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "report", -1,
                        "unknown report format %d", (int)f);
    }
    if (st == IOSAGE_OK && o.oom)
        st = ios_fail(err, IOSAGE_E_NOMEM, NULL, "report", -1,
                      "out of memory rendering the report");
    if (st != IOSAGE_OK) {
        rep_out_free(&o);
        return st;
    }
    if (!o.p) /* an empty view still returns a valid string */
        o.p = calloc(1, 1);
    if (!o.p)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "report", -1,
                        "out of memory rendering the report");
    *out = o.p;
    *len = o.len;
    return IOSAGE_OK;
}
