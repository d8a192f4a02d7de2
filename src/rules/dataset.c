/*
 * src/rules/dataset.c - the rule baseline on every log of a dataset, for
 * `iosage eval` to compare with the trained models (moved out of
 * src/model/evaluate.c, so that the models do not depend on the rules).
 */
#include <stdint.h>
#include <stdlib.h>

#include "ios_common.h"
#include "iosage/model.h"
#include "iosage/rules.h"

/* The rule baseline's patterns of one log, as bits of the registry. */
static iosage_status rules_of(const char *path, uint32_t *bits,
                              iosage_error *err)
{
    iosage_log *log = NULL;
    /* counters only: the trace and AutoPerf regions are left unread */
    iosage_status st = iosage_log_load(
        path, IOSAGE_READ_NO_TRACES | IOSAGE_READ_IO_ONLY, &log, err);
    struct iosage_rule_result r;
    if (st == IOSAGE_OK && (st = iosage_rules_eval(log, NULL, &r)) != IOSAGE_OK)
        ios_fail(err, st, path, "rules", -1, "could not apply the rules");
    *bits = 0;
    for (int k = 0; st == IOSAGE_OK && k < r.n_patterns; k++)
        if (r.patterns[k].detected)
            *bits |= 1u << k;
    iosage_log_free(log);
    return st;
}

iosage_status iosage_dataset_rules(const iosage_dataset *ds, uint32_t *pred,
                                   iosage_error *err)
{
    if (!ds->logs)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "eval", -1,
                        "the dataset has no log paths for the rules");
    for (size_t i = 0; i < ds->n_rows; i++) {
        if (!ds->logs[i])
            return ios_fail(err, IOSAGE_E_USAGE, NULL, "eval", -1,
                            "row %zu has no log path for the rules", i);
        iosage_status st = rules_of(ds->logs[i], &pred[i], err);
        if (st != IOSAGE_OK)
            return st;
    }
    return IOSAGE_OK;
}
