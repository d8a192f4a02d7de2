/*
 * src/advise/fallback.c - iosage_advise_set_fallback: when an LLM's changes
 * are not used, the document says so (advice.fallback and a warning) and
 * keeps the offline advice. The advise layer owns the document's advice, so
 * this is the one place that writes the fallback.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

char *iosage_advise_set_fallback(json_t *doc, const char *why)
{
    ios_text msg = {0};
    ios_text_printf(&msg, "%s; offline advice used instead", why ? why : "");
    if (msg.oom) {
        ios_text_free(&msg);
        return NULL;
    }
    json_t *advice = json_object_get(doc, "advice");
    if (json_is_object(advice))
        json_object_set_new(advice, "fallback", json_string(msg.p));
    json_t *warnings = json_object_get(doc, "warnings");
    if (json_is_array(warnings))
        json_array_append_new(warnings, json_string(msg.p));
    return msg.p;
}
