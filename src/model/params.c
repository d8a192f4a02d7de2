/*
 * src/model/params.c - the training parameters' defaults (gradient boosting
 * and random forest). Apart from train.c because the bundle reads them too
 * (a bundle without a "params" block gets the defaults): the bundle and the
 * trainer both depend on this file, and no longer on each other.
 */
#include <string.h>

#include "internal.h"

void iosage_train_params_default(struct iosage_train_params *p)
{
    memset(p, 0, sizeof *p);
    p->seed = 42;
    p->threads = 1;
    p->max_rounds = 300;
    p->early_stopping = 30;
    p->max_depth = 4;
    p->eta = 0.1;
    p->subsample = 0.8;
    p->colsample_bytree = 0.8;
    p->min_child_weight = 1;
    p->lambda = 1;
    p->forest_trees = 0;
    p->colsample_bynode = 1;
    p->feature_sets = 1;
    p->io_share_gate = 0.05;
    p->gate_outvote = 0.5;
}

void iosage_train_params_forest(struct iosage_train_params *p)
{
    iosage_train_params_default(p);
    p->forest_trees = 100;
    p->max_rounds = 1;
    p->early_stopping = 0;
    p->eta = 1;
    p->max_depth = 8;
    p->subsample = 0.8;
    p->colsample_bytree = 1;
    p->colsample_bynode = 0.5;
}
