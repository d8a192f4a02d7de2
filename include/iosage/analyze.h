/*
 * iosage/analyze.h - analyse one log: the whole pipeline behind
 * `iosage analyze`, `iosage detect` and the batch and evaluation commands,
 * as one library call.
 *
 *   read the log -> per-file table -> features -> the model's verdict
 *   [-> the report document with offline advice (iosage/advise.h)
 *    -> the LLM prompt, and the LLM's changes when they validate]
 *
 * The classifier decides which patterns are there; an LLM only writes the
 * changes for them. Any failure of the LLM step keeps the offline advice:
 * the advise layer records why in the document (advice.fallback and a
 * warning) and the analysis keeps the same sentence in ->fallback for the
 * caller to show. A healthy job gets no prompt and sends nothing to an LLM.
 *
 * Nothing here prints.
 */
#ifndef IOSAGE_ANALYZE_H
#define IOSAGE_ANALYZE_H

#include <stddef.h>

#include "iosage/advise.h"
#include "iosage/darshan.h"
#include "iosage/error.h"
#include "iosage/features.h"
#include "iosage/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How far iosage_analyze goes. */
enum iosage_analyze_stage {
    IOSAGE_ANALYZE_DOCUMENT = 0,  /* everything (the default) */
    IOSAGE_ANALYZE_DETECTION = 1, /* stop after the model's verdict */
    IOSAGE_ANALYZE_FEATURES = 2   /* stop after the features (no model) */
};

struct iosage_analyze_options {
    const iosage_model *model; /* required but for IOSAGE_ANALYZE_FEATURES */
    int stage;                 /* enum iosage_analyze_stage */
    int read_flags;            /* enum iosage_read_flags for the log */
    /* the document stage only: */
    const iosage_cards *cards; /* may be NULL: the report says so */
    const char *const *config_paths; /* the job's files (--config) */
    size_t n_configs;
    int want_prompt;           /* keep the prompt text in ->prompt */
    const char *llm;           /* "provider:model" (iosage/llm.h) or NULL */
    /* the expected saving of each change and the ranking by it
     * (iosage/savings.h), or NULL: the hand-written order */
    const struct iosage_savings_model *savings;
};

typedef struct iosage_analysis {
    iosage_log *log;
    iosage_file_table *table;
    float x[IOSAGE_NUM_FEATURES];      /* the features of log */
    struct iosage_detection det;       /* zero at the features stage */
    struct iosage_config **configs;    /* n_configs read files */
    size_t n_configs;
    json_t *doc;      /* the report document (document stage), else NULL */
    char *prompt;     /* the exact prompt (want_prompt, not healthy) */
    char *fallback;   /* why the LLM's changes were not used, or NULL */
    struct iosage_analyze_times {  /* seconds spent in each step */
        double read;       /* the file's bytes */
        double decode;     /* header, regions, records */
        double features;   /* per-file table and features */
        double detect;     /* the model's verdict */
    } seconds;
} iosage_analysis;

/*
 * Analyse the log at path. The config files are read first, then the log;
 * the first that cannot be read ends the call (IOSAGE_E_IO, _CORRUPT, ...
 * with err naming the file). A failing LLM is not an error (see ->fallback).
 * On success *out is the analysis (iosage_analysis_free); on failure NULL.
 */
IOSAGE_API iosage_status iosage_analyze(const char *path,
                                        const struct iosage_analyze_options *o,
                                        iosage_analysis **out, iosage_error *err);

/* Release an analysis and everything it holds; accepts NULL. */
IOSAGE_API void iosage_analysis_free(iosage_analysis *a);

#ifdef __cplusplus
}
#endif

#endif
