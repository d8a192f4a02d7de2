/*
 * src/report/rules_json.c - the rule baseline's result as one JSON line
 * (`iosage rules`): a view, so it lives with the other views (it was in
 * src/rules/rules.c). Written by hand rather than with jansson so that the
 * line is pure ASCII whatever bytes the log's names hold.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "iosage/report.h"
#include "iosage/rules.h"

/* A JSON string in ASCII: control characters and every non-ASCII character
 * as \uXXXX escapes (surrogate pairs above U+FFFF); bytes that are not
 * valid UTF-8 (names are bytes from the log) become U+FFFD. */
static void put_str(ios_text *b, const char *s)
{
    ios_text_put(b, "\"", 1);
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    const unsigned char *end = p + strlen((const char *)p);
    for (; *p; p++) {
        uint32_t cp;
        size_t n;
        if (*p == '"' || *p == '\\') {
            char e[2] = {'\\', (char)*p};
            ios_text_put(b, e, 2);
        } else if (*p == '\n' || *p == '\t' || *p == '\r') {
            char e[2] = {'\\', *p == '\n' ? 'n' : *p == '\t' ? 't' : 'r'};
            ios_text_put(b, e, 2);
        } else if (*p < 0x20 || *p == 0x7f) {
            ios_text_printf(b, "\\u%04x", *p);
        } else if (*p < 0x80) {
            ios_text_put(b, (const char *)p, 1);
        } else if ((n = ios_utf8_seq(p, (size_t)(end - p), &cp)) == 0) {
            ios_text_put(b, "\\ufffd", 6);
        } else {
            if (cp >= 0x10000)
                ios_text_printf(b, "\\u%04x\\u%04x",
                                0xd800 + ((cp - 0x10000) >> 10),
                                0xdc00 + ((cp - 0x10000) & 0x3ff));
            else
                ios_text_printf(b, "\\u%04x", cp);
            p += n - 1;
        }
    }
    ios_text_put(b, "\"", 1);
}

/* A finite number, or 0. */
static void put_num(ios_text *b, double v)
{
    ios_text_printf(b, "%.6g", isfinite(v) ? v : 0.0);
}

char *iosage_rules_to_json(const struct iosage_rule_result *r, const char *path)
{
    ios_text b = {0};
    if (!r)
        return NULL;
    ios_text_printf(&b, "{\"schema\":1,\"log\":");
    put_str(&b, path);
    ios_text_printf(&b, ",\"nprocs\":%lld,\"run_time\":",
                    (long long)r->nprocs);
    put_num(&b, r->run_time);
    ios_text_put(&b, ",\"io_time\":", 11);
    put_num(&b, r->io_time);
    ios_text_put(&b, ",\"slowest_rank_io_share\":", 25);
    put_num(&b, r->slowest_rank_io_share);
    ios_text_printf(&b, ",\"gated\":%s,\"healthy\":%s,\"summary\":",
                    r->gated ? "true" : "false", r->healthy ? "true" : "false");
    put_str(&b, r->summary);
    ios_text_put(&b, ",\"patterns\":[", 13);
    for (int i = 0; i < r->n_patterns && i < IOSAGE_MAX_PATTERNS; i++) {
        const struct iosage_rule_pattern *p = &r->patterns[i];
        ios_text_put(&b, i ? ",{\"id\":" : "{\"id\":", i ? 7 : 6);
        put_str(&b, p->id);
        ios_text_printf(&b, ",\"detected\":%s,\"rule_holds\":%s,\"value\":",
                        p->detected ? "true" : "false",
                        p->rule_holds ? "true" : "false");
        put_num(&b, p->value);
        ios_text_put(&b, ",\"reason\":", 10);
        put_str(&b, p->reason);
        ios_text_put(&b, "}", 1);
    }
    ios_text_put(&b, "]}", 2);
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}
