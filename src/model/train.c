/*
 * src/model/train.c - training: the gate and one model per pattern on the
 * train rows, early stopping and thresholds on the validation rows, then
 * the detection rule's metrics on the validation, test and ood rows.
 *
 * Reproducible by construction: rows are used in dataset order, every
 * model gets the same seed, and nothing depends on the thread count
 * (XGBoost's hist method gives the same trees with 1 or 2 threads).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "internal.h"

#define NF IOSAGE_NUM_FEATURES

static iosage_status check_params(const struct iosage_train_params *p,
                                  iosage_error *err)
{
    const char *bad = NULL;
    if (p->seed < 0)
        bad = "seed";
    else if (p->threads < 0 || p->threads > 4096)
        bad = "threads";
    else if (p->max_rounds < 1 || p->max_rounds > 100000)
        bad = "max_rounds";
    else if (p->early_stopping < 0)
        bad = "early_stopping";
    else if (p->max_depth < 1 || p->max_depth > 30)
        bad = "max_depth";
    else if (!(p->eta > 0 && p->eta <= 1))
        bad = "eta";
    else if (!(p->subsample > 0 && p->subsample <= 1))
        bad = "subsample";
    else if (!(p->colsample_bytree > 0 && p->colsample_bytree <= 1))
        bad = "colsample_bytree";
    else if (!(p->min_child_weight >= 0) || !(p->lambda >= 0))
        bad = "min_child_weight or lambda";
    else if (p->forest_trees < 0 || p->forest_trees > 10000)
        bad = "forest_trees";
    else if (!(p->colsample_bynode > 0 && p->colsample_bynode <= 1))
        bad = "colsample_bynode";
    else if (p->feature_sets < 0 || p->feature_sets > 1)
        bad = "feature_sets";
    else if (!(p->io_share_gate >= 0 && p->io_share_gate <= 1))
        bad = "io_share_gate";
    else if (!(p->gate_outvote >= 0 && p->gate_outvote <= 1))
        bad = "gate_outvote";
    if (bad)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "train", -1,
                        "training parameter %s out of range", bad);
    return IOSAGE_OK;
}

/* The rows of one split, copied together. */
struct rows {
    size_t n;
    float *x;
    uint32_t *labels;
};

static void rows_free(struct rows *r)
{
    free(r->x);
    free(r->labels);
    memset(r, 0, sizeof *r);
}

static iosage_status rows_of(const iosage_dataset *ds, int split,
                             struct rows *r, iosage_error *err)
{
    memset(r, 0, sizeof *r);
    for (size_t i = 0; i < ds->n_rows; i++)
        r->n += ds->split[i] == split;
    r->x = malloc((r->n ? r->n : 1) * NF * sizeof *r->x);
    r->labels = malloc((r->n ? r->n : 1) * sizeof *r->labels);
    if (!r->x || !r->labels) {
        rows_free(r);
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "train", -1, "no memory");
    }
    size_t k = 0;
    for (size_t i = 0; i < ds->n_rows; i++) {
        if (ds->split[i] != split)
            continue;
        memcpy(r->x + k * NF, ds->x + i * NF, NF * sizeof *r->x);
        r->labels[k++] = ds->labels[i];
    }
    return IOSAGE_OK;
}

/* Target of a slot: "any pattern" for the gate, else the pattern's bit. */
static int target(uint32_t labels, int slot)
{
    return slot == 0 ? labels != 0 : (int)((labels >> (slot - 1)) & 1);
}

/* Working state of one training call. */
struct trainer {
    const struct iosage_train_params *p;
    struct rows train, valid;
    DMatrixHandle dtrain, dvalid;
    float *xmask;   /* the train rows with the slot's unused features
                       missing (feature_sets) */
    float *ytrain, *yvalid, *scores;
    uint8_t *truth;
    iosage_model *m;
};

/* The features each pattern model is trained on (feature_sets = 1): its
 * registry entry's key features and model_features (src/patterns/
 * p_<id>.c), or every feature when it has no model_features. A model that
 * sees every feature learns whatever tells the benchmark configurations
 * apart, and on real jobs that can be a shortcut: the first bundle called
 * every read-only job throughput_utilization (in the benchmark runs only
 * the re-read configurations read without writing) and every job with many
 * requests per rank access_granularity (docs/evaluation.md). Those two
 * models see only their key features and the other inputs of their
 * LABELING.md criterion; the others see every feature (restricting them
 * lowered the ood figures and gained nothing on the real logs, measured
 * 2026-12-02). */
static void mark(const char *name, unsigned char used[NF])
{
    int i = iosage_feature_index(name);
    if (i >= 0)
        used[i] = 1;
}

/* Mark the features of pattern k's model in used[]. */
static void mark_pattern(int k, unsigned char used[NF])
{
    const struct iosage_pattern *p = iosage_pattern_get(k);
    if (!p->model_features) {
        memset(used, 1, NF);
        return;
    }
    for (const char *const *f = p->key_features; *f; f++)
        mark(*f, used);
    for (const char *const *f = p->model_features; *f; f++)
        mark(*f, used);
}

/* The key features of every pattern. */
static void mark_keys(unsigned char used[NF])
{
    for (int k = 0; k < iosage_pattern_count(); k++)
        for (const char *const *f = iosage_pattern_get(k)->key_features; *f; f++)
            mark(*f, used);
}

/* The features a slot's model may use: its pattern's (mark_pattern); for
 * the gate every pattern's key features plus the I/O share of the slowest
 * rank. */
static void slot_features(int slot, unsigned char used[NF])
{
    memset(used, 0, NF);
    if (slot > 0) {
        mark_pattern(slot - 1, used);
        return;
    }
    mark_keys(used);
    mark("job_io_time_share_slowest", used);
}

/* The train matrix of a slot: every feature (made once), or with
 * feature_sets the slot's features and the others missing (NAN), so that
 * no tree can split on them (prediction then needs no mask). */
static iosage_status slot_matrix(struct trainer *t, int slot,
                                 iosage_error *err)
{
    if (!t->p->feature_sets && t->dtrain)
        return IOSAGE_OK;
    if (t->dtrain)
        ios_xgb()->XGDMatrixFree(t->dtrain);
    t->dtrain = NULL;
    if (!t->p->feature_sets)
        return ios_xgb_matrix(t->train.x, t->train.n, &t->dtrain, err);
    unsigned char used[NF];
    slot_features(slot, used);
    for (size_t i = 0; i < t->train.n; i++)
        for (int f = 0; f < NF; f++)
            t->xmask[i * NF + f] = used[f] ? t->train.x[i * NF + f] : NAN;
    return ios_xgb_matrix(t->xmask, t->train.n, &t->dtrain, err);
}

static iosage_status set_labels(struct trainer *t, int slot, int64_t *pos,
                                iosage_error *err)
{
    *pos = 0;
    for (size_t i = 0; i < t->train.n; i++) {
        t->ytrain[i] = (float)target(t->train.labels[i], slot);
        *pos += t->ytrain[i] > 0;
    }
    for (size_t i = 0; i < t->valid.n; i++) {
        t->yvalid[i] = (float)target(t->valid.labels[i], slot);
        t->truth[i] = t->yvalid[i] > 0;
    }
    if (ios_xgb()->XGDMatrixSetFloatInfo(t->dtrain, "label", t->ytrain,
                              (bst_ulong)t->train.n) != 0 ||
        (t->dvalid && ios_xgb()->XGDMatrixSetFloatInfo(t->dvalid, "label", t->yvalid,
                                            (bst_ulong)t->valid.n) != 0))
        return ios_xgb_fail(err, IOSAGE_E_INTERNAL, "labels");
    return IOSAGE_OK;
}

static iosage_status train_slot(struct trainer *t, int slot, iosage_error *err)
{
    struct ios_slot_info *info = &t->m->slot[slot];
    int64_t pos;
    iosage_status st = slot_matrix(t, slot, err);
    if (st == IOSAGE_OK)
        st = set_labels(t, slot, &pos, err);
    if (st != IOSAGE_OK)
        return st;
    info->train_pos = pos;
    info->train_neg = (int64_t)t->train.n - pos;
    info->scale_pos_weight = (double)(info->train_neg ? info->train_neg : 1) /
                             (double)(pos ? pos : 1);
    struct ios_boost_job job = {
        .train = t->dtrain, .valid = t->dvalid, .valid_labels = t->yvalid,
        .n_valid = t->valid.n, .scale_pos_weight = info->scale_pos_weight,
        .p = t->p, .model = slot, .n_models = t->m->n_slots,
        .id = ios_slot_id(slot)};
    st = ios_xgb_boost(&job, &t->m->booster[slot], &info->rounds, err);
    if (st == IOSAGE_OK)
        st = ios_xgb_predict(t->m->booster[slot], t->valid.x, t->valid.n, 0,
                             t->scores, err);
    if (st != IOSAGE_OK)
        return st;
    info->threshold = ios_threshold_pick(t->scores, t->truth, t->valid.n,
                                         &info->validation_f1,
                                         &info->threshold_source);
    info->validation_f1 = ios_round6(info->validation_f1);
    return IOSAGE_OK;
}

/* Metrics of the detection rule on one split (none without rows). */
static iosage_status split_metrics(iosage_model *m, const iosage_dataset *ds,
                                   int split, iosage_error *err)
{
    struct rows r;
    iosage_status st = rows_of(ds, split, &r, err);
    if (st != IOSAGE_OK || r.n == 0) {
        rows_free(&r);
        return st;
    }
    struct iosage_detection *d = malloc(r.n * sizeof *d);
    uint32_t *pred = malloc(r.n * sizeof *pred);
    if (!d || !pred)
        st = ios_fail(err, IOSAGE_E_NOMEM, NULL, "train", -1, "no memory");
    if (st == IOSAGE_OK)
        st = iosage_model_detect(m, r.x, r.n, d, err);
    if (st == IOSAGE_OK) {
        for (size_t i = 0; i < r.n; i++)
            pred[i] = d[i].labels;
        iosage_metrics_compute(r.labels, pred, r.n, m->n_patterns,
                               &m->metrics[split]);
        m->has_metrics[split] = 1;
    }
    free(d);
    free(pred);
    rows_free(&r);
    return st;
}

static iosage_status trainer_init(struct trainer *t, const iosage_dataset *ds,
                                  iosage_error *err)
{
    iosage_status st = rows_of(ds, IOSAGE_SPLIT_TRAIN, &t->train, err);
    if (st == IOSAGE_OK)
        st = rows_of(ds, IOSAGE_SPLIT_VALIDATION, &t->valid, err);
    if (st != IOSAGE_OK)
        return st;
    if (t->train.n == 0)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "train", -1,
                        "the dataset has no train rows");
    size_t nv = t->valid.n ? t->valid.n : 1;
    t->ytrain = malloc(t->train.n * sizeof *t->ytrain);
    t->yvalid = malloc(nv * sizeof *t->yvalid);
    t->scores = malloc(nv * sizeof *t->scores);
    t->truth = malloc(nv * sizeof *t->truth);
    t->xmask = malloc(t->train.n * NF * sizeof *t->xmask);
    t->m = ios_model_new();
    if (!t->ytrain || !t->yvalid || !t->scores || !t->truth || !t->m ||
        !t->xmask)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "train", -1, "no memory");
    if (t->valid.n)
        st = ios_xgb_matrix(t->valid.x, t->valid.n, &t->dvalid, err);
    return st;
}

static void trainer_done(struct trainer *t)
{
    if (t->dtrain)
        ios_xgb()->XGDMatrixFree(t->dtrain);
    if (t->dvalid)
        ios_xgb()->XGDMatrixFree(t->dvalid);
    rows_free(&t->train);
    rows_free(&t->valid);
    free(t->xmask);
    free(t->ytrain);
    free(t->yvalid);
    free(t->scores);
    free(t->truth);
    iosage_model_free(t->m);
}

iosage_status iosage_model_train(const iosage_dataset *ds,
                                 const struct iosage_train_params *p,
                                 iosage_model **out, iosage_error *err)
{
    *out = NULL;
    if (!ds || !p)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "train", -1,
                        "no dataset or parameters");
    iosage_status st = check_params(p, err);
    if (st != IOSAGE_OK)
        return st;
    ios_xgb_capture_log();
    struct trainer t;
    memset(&t, 0, sizeof t);
    t.p = p;
    st = trainer_init(&t, ds, err);
    for (int slot = 0; st == IOSAGE_OK && slot < t.m->n_slots; slot++)
        st = train_slot(&t, slot, err);
    if (st == IOSAGE_OK) {
        iosage_model *m = t.m;
        m->params = *p;
        m->params.progress = NULL;
        m->params.progress_ctx = NULL;
        m->params.threads = 0; /* not a property of the model */
        m->data_hash = iosage_dataset_hash(ds);
        m->skipped_runs = (int64_t)ds->n_skipped;
        for (size_t i = 0; i < ds->n_rows; i++)
            if (ds->split[i] < IOSAGE_SPLIT_COUNT)
                m->split_rows[ds->split[i]]++;
        for (int s = IOSAGE_SPLIT_VALIDATION; st == IOSAGE_OK &&
                                              s < IOSAGE_SPLIT_COUNT; s++)
            st = split_metrics(m, ds, s, err);
    }
    if (st == IOSAGE_OK) {
        *out = t.m;
        t.m = NULL;
    }
    trainer_done(&t);
    return st;
}
