/*
 * src/report/rules_json.c - the rule baseline's result as one JSON line
 * (`iosage rules`): a view, so it lives with the other views (it was in
 * src/rules/rules.c). Written by hand rather than with jansson so that the
 * line is pure ASCII whatever bytes the log's names hold (strings through
 * ios_json_ascii, src/common/json.c).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "ios_json.h"
#include "iosage/report.h"
#include "iosage/rules.h"

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
    ios_json_ascii(&b, path);
    ios_text_printf(&b, ",\"nprocs\":%lld,\"run_time\":",
                    (long long)r->nprocs);
    put_num(&b, r->run_time);
    ios_text_put(&b, ",\"io_time\":", 11);
    put_num(&b, r->io_time);
    ios_text_put(&b, ",\"slowest_rank_io_share\":", 25);
    put_num(&b, r->slowest_rank_io_share);
    ios_text_printf(&b, ",\"gated\":%s,\"healthy\":%s,\"summary\":",
                    r->gated ? "true" : "false", r->healthy ? "true" : "false");
    ios_json_ascii(&b, r->summary);
    ios_text_put(&b, ",\"patterns\":[", 13);
    for (int i = 0; i < r->n_patterns && i < IOSAGE_MAX_PATTERNS; i++) {
        const struct iosage_rule_pattern *p = &r->patterns[i];
        ios_text_put(&b, i ? ",{\"id\":" : "{\"id\":", i ? 7 : 6);
        ios_json_ascii(&b, p->id);
        ios_text_printf(&b, ",\"detected\":%s,\"rule_holds\":%s,\"value\":",
                        p->detected ? "true" : "false",
                        p->rule_holds ? "true" : "false");
        put_num(&b, p->value);
        ios_text_put(&b, ",\"reason\":", 10);
        ios_json_ascii(&b, p->reason);
        ios_text_put(&b, "}", 1);
    }
    ios_text_put(&b, "]}", 2);
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}
