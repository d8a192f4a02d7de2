/*
 * src/analyze/analyze.c - iosage_analyze: one log from its bytes to the
 * report document (see iosage/analyze.h), the one place where the pipeline
 * is wired:
 *
 *   config files -> log -> per-file table -> features -> verdict
 *   -> document with offline advice -> prompt -> LLM step
 *
 * Each step fills one member of the analysis; the first failure ends the
 * call and iosage_analysis_free releases whatever was made.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "ios_common.h"

void iosage_analysis_free(iosage_analysis *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->n_configs; i++)
        iosage_config_free(a->configs[i]);
    free(a->configs);
    iosage_file_table_free(a->table);
    iosage_log_free(a->log);
    json_decref(a->doc);
    free(a->prompt);
    free(a->fallback);
    free(a);
}

/* Read the job's files; the first that cannot be read ends the analysis. */
static iosage_status read_configs(iosage_analysis *a,
                                  const struct iosage_analyze_options *o,
                                  iosage_error *err)
{
    if (o->n_configs == 0)
        return IOSAGE_OK;
    a->configs = calloc(o->n_configs, sizeof *a->configs);
    if (!a->configs)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "configs", -1,
                        "no memory for %zu config files", o->n_configs);
    for (size_t i = 0; i < o->n_configs; i++) {
        iosage_status st =
            iosage_config_read(o->config_paths[i], 0, &a->configs[i], err);
        if (st != IOSAGE_OK)
            return st;
        a->n_configs++;
    }
    return IOSAGE_OK;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Log, table, features and (but at the features stage) the verdict, each
 * step timed into a->seconds (`iosage batch --profile`). */
static iosage_status detect(iosage_analysis *a, const char *path,
                            const struct iosage_analyze_options *o,
                            iosage_error *err)
{
    double t0 = now();
    size_t len = 0;
    uint8_t *bytes = NULL;
    iosage_status st =
        iosage_log_read_file(path, o->read_flags, &bytes, &len, err);
    a->seconds.read = now() - t0;
    if (st == IOSAGE_OK)
        st = iosage_log_load_mem(bytes, len, path, o->read_flags, &a->log, err);
    /* the log keeps nothing of the stored bytes: freed before the features,
     * which make a large log's peak memory (10^6 records: 1,694 -> 1,631 MB) */
    free(bytes);
    double t1 = now();
    if (st == IOSAGE_OK)
        st = iosage_file_table_build(a->log, &a->table, err);
    if (st == IOSAGE_OK)
        st = iosage_features_from_table(a->log, a->table, a->x, err);
    double t2 = now();
    if (st == IOSAGE_OK && o->stage != IOSAGE_ANALYZE_FEATURES)
        st = iosage_model_detect(o->model, a->x, 1, &a->det, err);
    a->seconds.decode = t1 - t0 - a->seconds.read;
    a->seconds.features = t2 - t1;
    a->seconds.detect = now() - t2;
    return st;
}

/* The report document with offline advice. */
static iosage_status document(iosage_analysis *a, const char *path,
                              const struct iosage_analyze_options *o,
                              iosage_error *err)
{
    struct iosage_advise_input in = {
        .path = path, .log = a->log, .table = a->table, .features = a->x,
        .model = o->model, .det = &a->det, .cards = o->cards,
        .configs = (const struct iosage_config *const *)a->configs,
        .n_configs = a->n_configs};
    memset(err, 0, sizeof *err);
    a->doc = iosage_report_build(&in, err);
    if (!a->doc)
        return err->code != IOSAGE_OK ? err->code : IOSAGE_E_INTERNAL;
    return IOSAGE_OK;
}

/* The prompt (when asked for) and the LLM step; nothing for a healthy job. */
static iosage_status advice(iosage_analysis *a,
                            const struct iosage_analyze_options *o,
                            iosage_error *err)
{
    if ((!o->want_prompt && !o->llm) || a->det.healthy)
        return IOSAGE_OK;
    if (o->want_prompt) {
        a->prompt = iosage_advise_prompt(
            a->doc, (const struct iosage_config *const *)a->configs,
            a->n_configs, NULL, err);
        if (!a->prompt)
            return err->code;
    }
    return o->llm ? ios_analyze_llm(a, o->llm, err) : IOSAGE_OK;
}

iosage_status iosage_analyze(const char *path,
                             const struct iosage_analyze_options *o,
                             iosage_analysis **out, iosage_error *err)
{
    iosage_error scratch;
    if (!err)
        err = &scratch;
    if (!out)
        return ios_fail(err, IOSAGE_E_USAGE, path, "analyze", -1,
                        "no place for the analysis");
    *out = NULL;
    if (!path || !o || (!o->model && o->stage != IOSAGE_ANALYZE_FEATURES))
        return ios_fail(err, IOSAGE_E_USAGE, path, "analyze", -1,
                        "a log path and a model are needed");
    iosage_analysis *a = calloc(1, sizeof *a);
    if (!a)
        return ios_fail(err, IOSAGE_E_NOMEM, path, "analyze", -1,
                        "no memory for the analysis");
    iosage_status st = IOSAGE_OK;
    if (o->stage == IOSAGE_ANALYZE_DOCUMENT)
        st = read_configs(a, o, err);
    if (st == IOSAGE_OK)
        st = detect(a, path, o, err);
    if (st == IOSAGE_OK && o->stage == IOSAGE_ANALYZE_DOCUMENT)
        st = document(a, path, o, err);
    if (st == IOSAGE_OK && o->stage == IOSAGE_ANALYZE_DOCUMENT)
        st = advice(a, o, err);
    if (st == IOSAGE_OK && o->stage == IOSAGE_ANALYZE_DOCUMENT)
        st = ios_analyze_savings(a, o->savings, err);
    if (st != IOSAGE_OK) {
        iosage_analysis_free(a);
        return st;
    }
    *out = a;
    return IOSAGE_OK;
}
