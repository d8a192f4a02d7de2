/*
 * iosage/savings.h - what each change saves (issue 16, docs/savings.md).
 *
 * Two files of a dataset directory hold the measured savings:
 *
 *   the changes file   (bench/sweeps/hpc.changes) for each configuration of a
 *                      sweep with a pattern, the kernel flags of the
 *                      configuration with one change applied:
 *                        CONFIG_ID PATTERN CHANGE_ID [kernel=KERNEL] FLAGS...
 *                      '#' starts a comment line;
 *   the savings table  (DATASET/savings.tsv) one row per measured change of
 *                      one run of the dataset: the baseline and the changed
 *                      configuration run in alternating pairs on the run's
 *                      own (drawn) file system, medians and the pair-ratio
 *                      interval of the I/O time (the kernel's timed phases)
 *                      and of the run time (wall time of the whole mpirun).
 *
 * saving = 1 - t_changed / t_baseline, from the median pair ratio r
 * (t_baseline / t_changed): 1 - 1/r. A change "pays" when it saves at least
 * IOSAGE_SAVINGS_PAYS of the I/O time and the ratio interval lies above 1
 * (iosage/validate.h: the interval of the median pair ratio).
 *
 * Ownership: the load functions fill structures whose arrays the caller
 * releases with the matching _free (which accepts zeroed structures).
 */
#ifndef IOSAGE_SAVINGS_H
#define IOSAGE_SAVINGS_H

#include <stddef.h>

#include "iosage/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IOSAGE_SAVINGS_PAYS 0.10  /* least saving of I/O time that pays */

/* --- The changes file ---------------------------------------------------- */

struct iosage_savings_change {
    char config[96];      /* CONFIG_ID */
    char pattern[48];
    char change_id[48];
    char kernel[64];      /* kernel=KERNEL, or "" for the configuration's */
    char flags[1024];     /* the changed configuration's flags, as written */
    int lineno;
};

struct iosage_savings_changes {
    size_t n;
    struct iosage_savings_change *v; /* owned */
};

/* Read a changes file. Every (pattern, change_id) must be a change id of
 * docs/report.md; errors name "path:line: what is wrong". */
IOSAGE_API iosage_status iosage_savings_changes_load(
    const char *path, struct iosage_savings_changes *out, iosage_error *err);

IOSAGE_API void iosage_savings_changes_free(struct iosage_savings_changes *c);

/* --- The savings table --------------------------------------------------- */

struct iosage_savings_row {
    char run_id[128];     /* the dataset run whose system and seed were used */
    char config[96];
    char pattern[48];
    char change_id[48];
    char system[16];      /* "native" or "emulated" */
    int pairs;
    double io_base_s, io_changed_s;   /* medians, kernel seconds */
    double io_saving;                 /* 1 - 1/(median pair ratio) */
    double io_lo, io_hi;              /* the pair-ratio interval */
    double wall_base_s, wall_changed_s;
    double wall_saving;
    int pays;                         /* io_saving >= PAYS and io_lo > 1 */
};

struct iosage_savings_table {
    size_t n;
    struct iosage_savings_row *rows; /* owned */
};

/* Read DATASET/savings.tsv (path). A file that does not exist is an empty
 * table; a row that does not parse is IOSAGE_E_CORRUPT naming its line. */
IOSAGE_API iosage_status iosage_savings_table_load(
    const char *path, struct iosage_savings_table *out, iosage_error *err);

IOSAGE_API void iosage_savings_table_free(struct iosage_savings_table *t);

/* Append rows to path (the header first when the file is new or empty),
 * flushed and synced before returning: a campaign stopped at any point
 * keeps every configuration it finished. */
IOSAGE_API iosage_status iosage_savings_table_append(
    const char *path, const struct iosage_savings_row *rows, size_t n,
    iosage_error *err);

/* 1 when the table has a row of config. */
IOSAGE_API int iosage_savings_table_has(const struct iosage_savings_table *t,
                                        const char *config);

/* The saving of a median pair ratio r: 1 - 1/r (NaN for r <= 0). */
IOSAGE_API double iosage_savings_of_ratio(double r);

/* --- Savings labels against the other labels (src/savings/agreement.c) --- */

#define IOSAGE_SAVINGS_MAX_PATTERNS 16 /* = IOSAGE_MAX_PATTERNS */

struct iosage_savings_tally {
    int rows;             /* measured changes */
    int pays;             /* of them paying (= the configuration labels) */
    int labeler_present;  /* the labeler finds the change's pattern */
    int labeler_agree;    /* ... exactly when the change pays */
};

struct iosage_savings_agreement {
    struct iosage_savings_tally pattern[IOSAGE_SAVINGS_MAX_PATTERNS];
    struct iosage_savings_tally all;
    signed char *labeler;  /* per table row: 1 the labeler finds the
                              pattern, 0 not, -1 the log was unread (owned) */
    int unread;            /* runs whose log could not be read or labeled */
    iosage_error first_error; /* the first of them */
};

/* Label the log of every run of table t (DATASET/logs/<run>.darshan) and
 * compare with "pays", per pattern. An unreadable log is counted, not an
 * error: only memory fails the call. */
IOSAGE_API iosage_status iosage_savings_agreement(
    const char *dataset, const struct iosage_savings_table *t,
    struct iosage_savings_agreement *out, iosage_error *err);

IOSAGE_API void iosage_savings_agreement_free(
    struct iosage_savings_agreement *a);

/* --- Predicted savings (src/model/savings_model.c) ----------------------- */

#define IOSAGE_SAVINGS_MAX_CHANGES 16

struct iosage_model_file; /* iosage/model.h */
struct iosage_model;
struct iosage_dataset;

/* One XGBoost regression per change id, from a log's features
 * (iosage/features.h) to the share of its I/O time the change saves. */
typedef struct iosage_savings_model iosage_savings_model;

struct iosage_savings_prediction {
    double saving;       /* share of the job's I/O time, -1..1 */
    double lo, hi;       /* typical range: the 10th and 90th percentile of
                            the cross-validation residuals added */
    int measured_rows;   /* measured runs the model learned from */
    int change_rows;     /* iosage_savings_typical only: the change's own
                            measured runs (0: never measured) */
};

/* Train on DATASET dir: its savings.tsv and manifest, and ds, its runs as
 * iosage_dataset_load read them (features). A change with fewer than 5
 * measured rows gets no model. */
IOSAGE_API iosage_status iosage_savings_train(const char *dir,
                                              const struct iosage_dataset *ds,
                                              iosage_savings_model **out,
                                              iosage_error *err);

/* savings.json and savings-<change_id>.json into a bundle directory. */
IOSAGE_API iosage_status iosage_savings_model_save(
    const iosage_savings_model *m, const char *dir, iosage_error *err);

/* From a bundle directory, or from files in memory (the embedded bundle).
 * A bundle without savings.json gives *out = NULL and IOSAGE_OK: the
 * savings are then not predicted. */
IOSAGE_API iosage_status iosage_savings_model_load(const char *dir,
                                                   iosage_savings_model **out,
                                                   iosage_error *err);
IOSAGE_API iosage_status iosage_savings_model_load_mem(
    const struct iosage_model_file *files, size_t n, const char *label,
    iosage_savings_model **out, iosage_error *err);
/* As iosage_savings_model_load_mem, but the files' bytes must outlive the
 * model (the embedded bundle, static data) and each change's model is loaded
 * when it is first asked for a prediction: a report needs those of its
 * proposed changes only. A model that cannot be loaded then gives no
 * prediction (iosage_savings_predict returns -1) instead of an error
 * here, so give it only files that were checked (the build checks the
 * embedded ones). Thread-safe like a fully loaded model. */
IOSAGE_API iosage_status iosage_savings_model_load_static(
    const struct iosage_model_file *files, size_t n, const char *label,
    iosage_savings_model **out, iosage_error *err);

IOSAGE_API void iosage_savings_model_free(iosage_savings_model *m);

/* The predicted saving of change_id on features x; 0, or -1 when m has no
 * model for change_id (m may be NULL). */
IOSAGE_API int iosage_savings_predict(const iosage_savings_model *m,
                                      const char *change_id, const float *x,
                                      struct iosage_savings_prediction *out);

/* For a change that m has no model for (too few measured runs, or a change
 * id the campaign never measured): the typical saving, the median saving of
 * every measured row the models learned from (all changes), capped like a
 * prediction by the share of the I/O time the change's operations take on
 * features x. out->saving = lo is the capped median, out->hi the median
 * itself, out->measured_rows the rows of the median, out->change_rows the
 * measured rows of change_id itself, too few for a model (0: never
 * measured). A report ranks such a change by it (docs/savings.md) and does not
 * show it as the change's expected saving. 0, or -1 when m is NULL or was
 * saved without it. */
IOSAGE_API int iosage_savings_typical(const iosage_savings_model *m,
                                      const char *change_id, const float *x,
                                      struct iosage_savings_prediction *out);

/* Cross-validated figures on configurations left out of training: by
 * configuration (5 folds by a hash of the configuration id) or, with
 * by_kernel, leaving out one kernel family at a time. */
struct iosage_savings_eval_change {
    char pattern[48], change_id[48];
    int runs;               /* measured rows */
    double spearman;        /* predicted vs measured saving */
    double mae_pp;          /* median absolute error, percentage points */
    int measured_pays, predicted_pays, both_pay; /* saving >= 10% */
};

struct iosage_savings_eval {
    int n_changes;
    struct iosage_savings_eval_change changes[IOSAGE_SAVINGS_MAX_CHANGES];
    int pattern_runs, top_right;      /* runs with a measured change: the
                                         top predicted is the top measured */
    int multi_runs, multi_top_right;  /* the same, runs with 2+ changes */
    int healthy_runs, healthy_under;  /* configurations: every predicted
                                         saving of every run < 5% */
    int healthy_single, healthy_single_under; /* the same, run by run */
    int shown_runs;                   /* with a detector: healthy runs it
                                         never saw (test and ood splits) */
    int shown_flagged;                /* ... that it flags */
    int shown_under;                  /* ... where every saving analyze
                                         would show is under 5% */
    int n_misses;                     /* healthy configurations >= 5%: */
    struct iosage_savings_healthy_miss {
        char config[64], change_id[48];
        double predicted;             /* the largest prediction */
    } misses[32];
};

/* dir and ds as for iosage_savings_train. detector (a classifier bundle,
 * or NULL) adds the shown_* figures: on
 * the healthy runs it was not trained on, the savings `iosage analyze`
 * would show (only changes of detected patterns get one). */
IOSAGE_API iosage_status iosage_savings_evaluate(
    const char *dir, const struct iosage_dataset *ds, int by_kernel,
    const struct iosage_model *detector,
    struct iosage_savings_eval *out, iosage_error *err);

/* One row of the evaluation: a run of the dataset and one change, its
 * measured saving (clipped to [-1, 1] as learned; 0 for a healthy
 * configuration's run) and the saving predicted by the model trained
 * without the run's fold, after the cap. Strings are the dataset's and the
 * evaluation's; valid during the call only. */
struct iosage_savings_eval_row {
    const char *run_id, *kernel, *change_id;
    int healthy;            /* a healthy configuration's run */
    double measured, predicted, cap;
};
typedef void (*iosage_savings_row_cb)(void *ctx,
                                      const struct iosage_savings_eval_row *r);

/* iosage_savings_evaluate, calling row (when not NULL) for every row it
 * scores: change by change, its measured rows in the order of
 * savings.tsv, then the healthy configurations' runs. */
IOSAGE_API iosage_status iosage_savings_evaluate_rows(
    const char *dir, const struct iosage_dataset *ds, int by_kernel,
    const struct iosage_model *detector, iosage_savings_row_cb row,
    void *ctx, struct iosage_savings_eval *out, iosage_error *err);

#ifdef __cplusplus
}
#endif
#endif
