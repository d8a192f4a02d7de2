/*
 * src/analyze/savings_step.c - the expected saving of every proposed change
 * (issue 16, docs/savings.md): the savings model of the change's id
 * predicts the share of the job's I/O time it saves from the job's
 * features; the change gets an "expected_saving" object (share, seconds of
 * this job's slowest-rank I/O time, typical range, how many measured runs
 * the model learned from) and the changes are ranked by it, best first.
 * A change without a model gets no such object: it is ranked by the
 * typical saving of the measured changes (iosage_savings_typical, capped
 * by the share of the I/O time its operations take), which it carries as
 * "typical_saving", so that a detected pattern whose change no model
 * predicts is not put below every change predicted to save a little. Runs
 * after the LLM step, so offline and LLM advice alike are ranked by what
 * they save; equal savings keep the order they had.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ios_common.h"
#include "ios_json.h"
#include "iosage/savings.h"

struct ranked {
    json_t *change;   /* borrowed from the array */
    double saving;
    size_t order;     /* position before ranking */
};

static int cmp_ranked(const void *pa, const void *pb)
{
    const struct ranked *a = pa, *b = pb;
    if (a->saving != b->saving)
        return a->saving > b->saving ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* The expected_saving object of prediction p on a job whose slowest rank
 * spent io_s seconds in I/O. */
static json_t *saving_json(const struct iosage_savings_prediction *p,
                           double io_s)
{
    json_t *range = json_array();
    if (!range || json_array_append_new(range, ios_json_real(p->lo)) != 0 ||
        json_array_append_new(range, ios_json_real(p->hi)) != 0) {
        json_decref(range);
        return NULL;
    }
    return json_pack("{s:o,s:o,s:o,s:i}", "io_time_share",
                     ios_json_real(p->saving), "seconds",
                     ios_json_real(p->saving * io_s), "range", range,
                     "measured_runs", p->measured_rows);
}

/* The typical_saving object of a change without a model: what it is
 * ranked by (the median, capped), the median, how many measured runs the
 * median is of, and how many of them are of this change (too few). */
static json_t *typical_json(const struct iosage_savings_prediction *p)
{
    return json_pack("{s:o,s:o,s:i,s:i}", "io_time_share",
                     ios_json_real(p->saving), "median",
                     ios_json_real(p->hi), "measured_runs", p->measured_rows,
                     "change_measured_runs", p->change_rows);
}

iosage_status ios_analyze_savings(iosage_analysis *a,
                                  const iosage_savings_model *m,
                                  iosage_error *err)
{
    json_t *changes = json_object_get(json_object_get(a->doc, "advice"),
                                      "changes");
    size_t n = json_array_size(changes);
    if (!m || n == 0)
        return IOSAGE_OK;
    struct ranked *r = calloc(n, sizeof *r);
    if (!r)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "savings", -1,
                        "out of memory");
    double io_s = a->table->job.rank_time_max;
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *c = json_array_get(changes, i);
        const char *id = json_string_value(json_object_get(c, "change_id"));
        struct iosage_savings_prediction p;
        r[i] = (struct ranked){.change = json_incref(c), .order = i};
        if (id && iosage_savings_predict(m, id, a->x, &p) == 0) {
            r[i].saving = p.saving;
            bad |= ios_json_set(c, "expected_saving", saving_json(&p, io_s));
        } else if (id && iosage_savings_typical(m, id, a->x, &p) == 0) {
            r[i].saving = p.saving;
            bad |= ios_json_set(c, "typical_saving", typical_json(&p));
        }
    }
    qsort(r, n, sizeof *r, cmp_ranked);
    json_array_clear(changes);
    for (size_t i = 0; i < n; i++) {
        bad |= json_object_set_new(r[i].change, "rank",
                                   json_integer((json_int_t)i + 1)) != 0;
        bad |= json_array_append_new(changes, r[i].change) != 0;
    }
    free(r);
    return bad ? ios_fail(err, IOSAGE_E_NOMEM, NULL, "savings", -1,
                          "out of memory")
               : IOSAGE_OK;
}
