/*
 * src/validate/advice.c - the ranked changes of an analysis report.
 *
 * Reads the JSON document of docs/report.md ("schema": "iosage-report") and
 * keeps what validation needs: advice.changes[] {rank, pattern, change_id}
 * in rank order, advice.source, and the ids of the detected patterns.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "iosage/validate.h"

static int by_rank(const void *a, const void *b)
{
    const struct iosage_validate_proposal *x = a, *y = b;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Copy a string member of obj into buf; 0 when it is missing or too long. */
static int copy_member(json_t *obj, const char *key, char *buf, size_t size)
{
    const char *v = json_string_value(json_object_get(obj, key));
    if (!v || strlen(v) >= size)
        return 0;
    snprintf(buf, size, "%s", v);
    return 1;
}

static iosage_status read_changes(json_t *changes, const char *name,
                                  struct iosage_validate_advice *out,
                                  iosage_error *err)
{
    size_t i;
    json_t *c;
    json_array_foreach(changes, i, c) {
        if (out->n == IOSAGE_VALIDATE_MAX_CHANGES)
            break;
        struct iosage_validate_proposal *p = &out->changes[out->n];
        json_t *rank = json_object_get(c, "rank");
        if (!json_is_integer(rank) ||
            !copy_member(c, "pattern", p->pattern, sizeof p->pattern) ||
            !copy_member(c, "change_id", p->change_id, sizeof p->change_id))
            return ios_fail(err, IOSAGE_E_CORRUPT, name, NULL, -1,
                            "advice.changes[%zu] lacks rank, pattern or "
                            "change_id", i);
        long long r = json_integer_value(rank);
        p->rank = r < 0 ? 0 : r > 1000000 ? 1000000 : (int)r;
        json_t *share = json_object_get(json_object_get(c, "expected_saving"),
                                        "io_time_share");
        p->predicted = json_is_number(share);
        p->predicted_saving = p->predicted ? json_number_value(share) : 0;
        out->n++;
    }
    qsort(out->changes, out->n, sizeof out->changes[0], by_rank);
    return IOSAGE_OK;
}

/* detection.patterns[] with "detected": true. Missing detection is fine. */
static void read_detected(json_t *doc, struct iosage_validate_advice *out)
{
    json_t *pats = json_object_get(json_object_get(doc, "detection"),
                                   "patterns");
    size_t i;
    json_t *p;
    json_array_foreach(pats, i, p) {
        if (out->n_detected == IOSAGE_VALIDATE_NPATTERNS)
            break;
        if (!json_is_true(json_object_get(p, "detected")))
            continue;
        if (copy_member(p, "id", out->detected[out->n_detected],
                        sizeof out->detected[0]))
            out->n_detected++;
    }
}

iosage_status iosage_validate_advice_parse(const char *json, const char *name,
                                           struct iosage_validate_advice *out,
                                           iosage_error *err)
{
    memset(out, 0, sizeof *out);
    json_error_t jerr;
    json_t *doc = json_loads(json, 0, &jerr);
    if (!doc)
        return ios_fail(err, IOSAGE_E_CORRUPT, name, NULL, -1,
                        "not JSON: %s (line %d)", jerr.text, jerr.line);
    iosage_status st = IOSAGE_OK;
    const char *schema = json_string_value(json_object_get(doc, "schema"));
    json_t *advice = json_object_get(doc, "advice");
    json_t *changes = json_object_get(advice, "changes");
    if (!schema || strcmp(schema, "iosage-report") != 0)
        st = ios_fail(err, IOSAGE_E_CORRUPT, name, NULL, -1,
                      "not an iosage report (schema is not iosage-report)");
    else if (!json_is_array(changes))
        st = ios_fail(err, IOSAGE_E_CORRUPT, name, NULL, -1,
                      "the report has no advice.changes array");
    else {
        if (!copy_member(advice, "source", out->source, sizeof out->source))
            snprintf(out->source, sizeof out->source, "?");
        st = read_changes(changes, name, out, err);
        read_detected(doc, out);
    }
    json_decref(doc);
    if (st != IOSAGE_OK)
        memset(out, 0, sizeof *out);
    return st;
}
