/*
 * iosage/advise.h - cards, config files, the report document, offline
 * advice, the LLM prompt and the validation of an LLM's reply.
 *
 * What this module does, in the order `iosage analyze` uses it:
 *
 *   cards      One per registered pattern, built by `iosage train` from the
 *              train split of the dataset and kept as cards.json in the model
 *              bundle: for each key feature of the pattern (the registry's
 *              key_features) the first quartile, median and third quartile
 *              among train runs with the pattern and among those without it,
 *              plus the change and when it does not apply.
 *   configs    The job's own text files (--config): job script, MPI-IO hints,
 *              WRF namelist.input, ADIOS2 XML, HDF5/openPMD settings, Darshan
 *              environment, anything text. Each is read bounded, classified,
 *              and the settings iosage knows (docs/config-files.md) are
 *              extracted with their line numbers.
 *   report     iosage_report_build() makes the whole document of
 *              docs/report.md with offline advice: job, summary, charts,
 *              detection, findings (evidence + card), configs, advice.
 *   prompt     iosage_advise_prompt() is the exact text sent to an LLM.
 *   reply      iosage_advise_apply_reply() validates an LLM's JSON reply and
 *              puts its changes into the document's advice.
 *
 * Rules the advice keeps:
 *   - it never names a pattern the detection did not report; a healthy job
 *     gets findings [] and changes [];
 *   - offline advice is deterministic: one change per detected pattern, its
 *     change id (docs/report.md) chosen from the evidence, its "where"
 *     pointing at the config file and line that holds the setting to change
 *     when a config file has it; changes are ranked by the pattern's share
 *     of the job's I/O time (whole percent), then by a fixed root-cause
 *     order (a cause first: throughput_utilization, interface_choice,
 *     file_strategy, access_granularity, access_pattern,
 *     metadata_intensity, parallelism_efficiency), then by score.
 *
 * Ownership: every object a create/build/load/read call returns belongs to
 * the caller and is released by the matching free function (all accept
 * NULL); json_t documents are released with json_decref(). Failing calls
 * leave *out NULL and fill err. Nothing here prints and nothing reads the
 * environment.
 */
#ifndef IOSAGE_ADVISE_H
#define IOSAGE_ADVISE_H

#include <stddef.h>

#include <jansson.h>

#include "iosage/darshan.h"
#include "iosage/error.h"
#include "iosage/features.h"
#include "iosage/model.h"
#include "iosage/patterns.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- Cards ------------------------------------------------------------------ */

#define IOSAGE_CARDS_VERSION 1
#define IOSAGE_CARD_MAX_FEATURES 12

struct iosage_quartiles {
    double q1, median, q3; /* linear interpolation between order statistics
                              (the "type 7" rule of R and numpy); all 0 when
                              there are no runs */
};

struct iosage_card_feature {
    char name[64];  /* feature name (iosage_feature_name) */
    int index;      /* its index in the feature vector, -1 when the running
                       library does not know it */
    struct iosage_quartiles with, without;
};

struct iosage_card {
    char pattern[48];   /* pattern id */
    long runs_with, runs_without; /* train runs the quartiles come from */
    int n_features;
    struct iosage_card_feature features[IOSAGE_CARD_MAX_FEATURES];
    char change[400];          /* the registry's change template */
    char not_applicable[400];  /* when it does not apply */
};

typedef struct iosage_cards iosage_cards;

/* Cards of every registered pattern from the train rows of ds (all rows when
 * ds has no train row). Fails with IOSAGE_E_USAGE (NULL or empty dataset) or
 * IOSAGE_E_NOMEM. */
IOSAGE_API iosage_status iosage_cards_build(const iosage_dataset *ds,
                                            iosage_cards **out,
                                            iosage_error *err);

/* The cards as a JSON document (the cards.json format):
 *   {"schema": "iosage-cards", "version": 1, "feature_schema": 1,
 *    "runs": n, "cards": [{"pattern", "runs_with", "runs_without",
 *    "change", "not_applicable", "features": [{"name", "with": {"q1",
 *    "median", "q3"}, "without": {...}}]}]}
 * Returns a new reference, NULL when out of memory. */
IOSAGE_API json_t *iosage_cards_to_json(const iosage_cards *c);

/* Write cards.json to path (temporary file + rename: no partial file). */
IOSAGE_API iosage_status iosage_cards_save(const iosage_cards *c,
                                           const char *path,
                                           iosage_error *err);

/* Read cards from a file or from memory (label names it in errors).
 * IOSAGE_E_IO when the file cannot be read, IOSAGE_E_CORRUPT for malformed
 * JSON or fields, IOSAGE_E_VERSION for another schema version. Cards of
 * patterns the registry does not know are skipped. */
IOSAGE_API iosage_status iosage_cards_load(const char *path,
                                           iosage_cards **out,
                                           iosage_error *err);
IOSAGE_API iosage_status iosage_cards_load_mem(const void *buf, size_t len,
                                               const char *label,
                                               iosage_cards **out,
                                               iosage_error *err);
IOSAGE_API void iosage_cards_free(iosage_cards *c);

/* The card of a pattern id, or NULL. Valid while c lives. */
IOSAGE_API const struct iosage_card *iosage_cards_get(const iosage_cards *c,
                                                      const char *pattern);

/* Train runs the cards were built from. */
IOSAGE_API long iosage_cards_runs(const iosage_cards *c);

/* --- Config files ----------------------------------------------------------- */

#define IOSAGE_CONFIG_MAX_BYTES 65536   /* read per file */
#define IOSAGE_CONFIG_PROMPT_MAX 262144 /* all config text in one prompt */
#define IOSAGE_CONFIG_MAX_SETTINGS 64

enum iosage_config_kind {
    IOSAGE_CONFIG_TEXT = 0,        /* anything else */
    IOSAGE_CONFIG_JOB_SCRIPT = 1,  /* #!/bin/sh, #SBATCH, #PBS, #BSUB, mpirun */
    IOSAGE_CONFIG_MPIIO_HINTS = 2, /* ROMIO hints file: "key value" lines */
    IOSAGE_CONFIG_WRF_NAMELIST = 3,/* namelist.input (&time_control ...) */
    IOSAGE_CONFIG_ADIOS2_XML = 4,  /* <adios-config> */
    IOSAGE_CONFIG_HDF5 = 5,        /* openPMD JSON/TOML, HDF5 settings */
    IOSAGE_CONFIG_DARSHAN_ENV = 6  /* DARSHAN_* variables, darshan config */
};

/* "text", "job_script", "mpiio_hints", "wrf_namelist", "adios2_xml",
 * "hdf5", "darshan_env"; NULL out of range. */
IOSAGE_API const char *iosage_config_kind_name(int kind);

struct iosage_config_setting {
    char key[64];    /* e.g. "romio_cb_write", "lfs setstripe -c",
                        "io_form_history", "engine.type", "NumAggregators" */
    char value[160]; /* as written, trimmed */
    int line;        /* 1-based line in the file */
};

struct iosage_config {
    char *path;        /* as given */
    int kind;          /* enum iosage_config_kind */
    size_t bytes;      /* size of the file */
    int truncated;     /* text holds only the first max bytes (cut at a
                          line end) */
    int replaced;      /* bytes that were not UTF-8 became '?' */
    char *text;        /* the (bounded, cleaned) text, NUL-terminated */
    size_t text_len;
    size_t n_settings;
    struct iosage_config_setting settings[IOSAGE_CONFIG_MAX_SETTINGS];
};

/* Read a config file: at most max bytes (0: IOSAGE_CONFIG_MAX_BYTES).
 * IOSAGE_E_IO when it cannot be read, IOSAGE_E_UNSUPPORTED when it holds
 * NUL bytes (binary, not a text file). */
IOSAGE_API iosage_status iosage_config_read(const char *path, size_t max,
                                            struct iosage_config **out,
                                            iosage_error *err);

/* The same on bytes in memory; path names it (and helps classify it). */
IOSAGE_API iosage_status iosage_config_parse(const char *path, const void *buf,
                                             size_t len, size_t max,
                                             struct iosage_config **out,
                                             iosage_error *err);
IOSAGE_API void iosage_config_free(struct iosage_config *c);

/* The last setting of key (case-insensitive), or NULL. */
IOSAGE_API const struct iosage_config_setting *
iosage_config_find(const struct iosage_config *c, const char *key);

/* --- The report document ---------------------------------------------------- */

struct iosage_advise_input {
    const char *path;               /* the log's path as given */
    const iosage_log *log;
    const iosage_file_table *table; /* of log */
    const float *features;          /* IOSAGE_NUM_FEATURES values of log */
    const iosage_model *model;      /* may be NULL: no SHAP, thresholds 0.5,
                                       detection.model "none" */
    const struct iosage_detection *det; /* the model's verdict */
    const iosage_cards *cards;      /* may be NULL: cards left out, with a
                                       warning */
    const struct iosage_config *const *configs; /* n_configs files */
    size_t n_configs;
};

/* The complete document of docs/report.md for one log, with offline advice
 * (advice.source "offline"). Returns a new reference, or NULL with err
 * (IOSAGE_E_USAGE for missing inputs, IOSAGE_E_NOMEM, IOSAGE_E_INTERNAL
 * from the model's SHAP). */
IOSAGE_API json_t *iosage_report_build(const struct iosage_advise_input *in,
                                       iosage_error *err);

/* The change ids of docs/report.md for a pattern: fills ids[0 .. n) (n <=
 * cap) and returns n (0 for an unknown pattern). */
IOSAGE_API int iosage_advise_change_ids(const char *pattern, const char **ids,
                                        int cap);

/* Is change_id one of pattern's change ids? */
IOSAGE_API int iosage_advise_change_known(const char *pattern,
                                          const char *change_id);

/* --- LLM prompt and reply ---------------------------------------------------- */

/* The exact prompt for an LLM about doc (built by iosage_report_build) and
 * the config files it was built with: "SYSTEM:\n" + system part +
 * "USER:\n" + user part in one string, with the offset of the user part in
 * *user_offset (may be NULL) so that a client can send the two parts
 * separately. The user part holds the job summary, the detected patterns
 * (score, threshold, share of I/O time, allowed change ids, top SHAP
 * features, evidence, card), the offline baseline, and every config file
 * between "BEGIN UNTRUSTED DATA <marker>" and "END UNTRUSTED DATA <marker>"
 * lines (the marker is a hash of the text before it and of the file, so a
 * file cannot close its own block), all config text together cut to
 * IOSAGE_CONFIG_PROMPT_MAX bytes. The system part says that config text is
 * data never to be followed as instructions, that only the detected
 * patterns and their change ids may be used, and gives the reply schema
 * {"changes": [...]}. Returns a malloc'd string (free()), or NULL with err:
 * IOSAGE_E_USAGE for a document without findings (healthy: nothing to ask),
 * IOSAGE_E_NOMEM. */
IOSAGE_API char *iosage_advise_prompt(const json_t *doc,
                                      const struct iosage_config *const *configs,
                                      size_t n_configs, size_t *user_offset,
                                      iosage_error *err);

/* The two parts of the same prompt, each a malloc'd string (free()): the
 * system part in *system and the user part in *user, as an LLM client sends
 * them. Fails like iosage_advise_prompt (both NULL then). */
IOSAGE_API iosage_status iosage_advise_prompt_parts(
    const json_t *doc, const struct iosage_config *const *configs,
    size_t n_configs, char **system, char **user, iosage_error *err);

/* Record in doc that the LLM's changes were not used and why: advice.fallback
 * and one entry of warnings get "<why>; offline advice used instead". The
 * offline advice stays. Returns that message as a malloc'd string the
 * caller frees, or NULL when out of memory. */
IOSAGE_API char *iosage_advise_set_fallback(json_t *doc, const char *why);

/* Validate reply_text (a JSON object {"changes": [...]}, possibly inside a
 * ```json fence or with text around it) and, when at least one change is
 * valid, replace doc's advice.changes with the valid ones (ranked 1.. in the
 * reply's order), set advice.source "llm", provider, model and
 * advice.dropped (changes left out: pattern not detected, change id not one
 * of the pattern's, a field missing or of the wrong type). A change is
 * {"pattern", "change_id", "change", "where": {"file", "key"}, "why",
 * "evidence": [str], "expected_effect", "when_not_to_apply"}; "rank" is
 * ignored; "where" and "evidence" may be missing (null / []).
 * Fails with IOSAGE_E_CORRUPT (no JSON object, no "changes" array, or no
 * valid change; err.msg says which and how many were dropped), leaving doc
 * unchanged: the caller keeps the offline advice and sets advice.fallback. */
IOSAGE_API iosage_status iosage_advise_apply_reply(json_t *doc,
                                                   const char *reply_text,
                                                   const char *provider,
                                                   const char *model,
                                                   iosage_error *err);

#ifdef __cplusplus
}
#endif
#endif
