/*
 * src/analyze/internal.h - the pieces of iosage_analyze (iosage/analyze.h).
 *
 *   analyze.c   the pipeline: configs, log, table, features, verdict,
 *               document, prompt
 *   llm_step.c  asking an LLM for the changes; a failure is recorded by the
 *               advise layer (iosage_advise_set_fallback)
 *   savings_step.c  the expected saving of each change, and the ranking by it
 *   dataset_load.c  iosage_dataset_load: a dataset's runs through the
 *               pipeline to their features
 */
#ifndef IOS_ANALYZE_INTERNAL_H
#define IOS_ANALYZE_INTERNAL_H

#include "iosage/analyze.h"
#include "iosage/savings.h"

/* Ask the LLM named by spec ("provider:model") for the changes of a->doc and
 * put them in when they validate; otherwise record the fallback in the
 * document and in a->fallback. Returns IOSAGE_OK, or IOSAGE_E_NOMEM when
 * not even the fallback could be recorded. */
iosage_status ios_analyze_llm(iosage_analysis *a, const char *spec,
                              iosage_error *err);

/* Put the savings model's expected saving into every change of a->doc
 * that m has a model for and rank the changes by it (m may be NULL:
 * nothing happens). */
iosage_status ios_analyze_savings(iosage_analysis *a,
                                  const iosage_savings_model *m,
                                  iosage_error *err);

#endif
