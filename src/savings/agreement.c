/*
 * src/savings/agreement.c - the savings labels against the other labels
 * (issue 16 point 2, docs/evaluation.md): for every measured change, does
 * the labeler (`iosage label`, iosage/label.h) find its pattern in the log
 * of the run the campaign measured, and how often does that agree with
 * "the change pays".
 *
 * Every measured change belongs to a pattern the configuration's labels
 * claim, so "pays" is itself the agreement with the configuration labels.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "iosage/darshan.h"
#include "iosage/label.h"
#include "iosage/patterns.h"
#include "iosage/savings.h"

void iosage_savings_agreement_free(struct iosage_savings_agreement *a)
{
    if (!a)
        return;
    free(a->labeler);
    memset(a, 0, sizeof *a);
}

/* The labeler's verdicts on the log of run_id: 1 and *out filled, or 0
 * when the log cannot be read or labeled (*first keeps the first error). */
static int label_run(const char *dataset, const char *run_id,
                     struct iosage_label_result *out, int *unread,
                     iosage_error *first)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/logs/%s.darshan", dataset, run_id);
    iosage_error e;
    iosage_log *log = NULL;
    int ok = iosage_log_load(path, IOSAGE_READ_NO_TRACES, &log, &e) ==
                 IOSAGE_OK &&
             iosage_label_log(log, out, &e) == IOSAGE_OK;
    iosage_log_free(log);
    if (!ok && (*unread)++ == 0)
        *first = e;
    return ok;
}

static void tally_add(struct iosage_savings_tally *x, int pays, int present)
{
    x->rows++;
    x->pays += pays;
    x->labeler_present += present;
    x->labeler_agree += present == pays;
}

iosage_status iosage_savings_agreement(const char *dataset,
                                       const struct iosage_savings_table *t,
                                       struct iosage_savings_agreement *out,
                                       iosage_error *err)
{
    memset(out, 0, sizeof *out);
    out->labeler = malloc(t->n ? t->n : 1);
    if (!out->labeler)
        return ios_fail(err, IOSAGE_E_NOMEM, dataset, "savings", -1,
                        "out of memory");
    struct iosage_label_result lab;
    int labeled = 0;
    const char *last_run = "";
    for (size_t i = 0; i < t->n; i++) {
        const struct iosage_savings_row *r = &t->rows[i];
        if (strcmp(r->run_id, last_run) != 0) {  /* rows come by run */
            last_run = r->run_id;
            labeled = label_run(dataset, r->run_id, &lab, &out->unread,
                                &out->first_error);
        }
        int p = iosage_pattern_index(r->pattern);
        out->labeler[i] = -1;
        if (p < 0 || p >= iosage_pattern_count() ||
            p >= IOSAGE_SAVINGS_MAX_PATTERNS)
            continue;  /* the changes file checked the ids: not reached */
        int present = labeled && lab.present[p];
        if (labeled)
            out->labeler[i] = (signed char)present;
        tally_add(&out->pattern[p], r->pays, present);
        tally_add(&out->all, r->pays, present);
    }
    return IOSAGE_OK;
}
