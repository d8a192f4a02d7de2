/*
 * src/analyze/llm_step.c - the LLM step of an analysis: the prompt's two
 * parts go to the client named on the command line, and the reply's changes
 * replace the offline ones when they validate. Any failure (no key, no
 * server, a reply without a valid change) keeps the offline advice and says
 * why, through the advise layer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "iosage/llm.h"
#include "ios_common.h"

/* Record why (one line) as the analysis' fallback. */
static iosage_status fall_back(iosage_analysis *a, const char *why,
                               iosage_error *err)
{
    a->fallback = iosage_advise_set_fallback(a->doc, why);
    if (!a->fallback)
        return ios_fail(err, IOSAGE_E_NOMEM, a->log ? a->log->path : NULL,
                        "llm", -1, "no memory to record the LLM fallback");
    return IOSAGE_OK;
}

/* Open the client for spec with the environment's settings. */
static iosage_status open_client(const char *spec, iosage_llm_client **c,
                                 iosage_error *err)
{
    iosage_llm_options opt;
    iosage_llm_options_init(&opt);
    iosage_status st = iosage_llm_options_env(&opt, err);
    if (st == IOSAGE_OK)
        st = iosage_llm_open(spec, &opt, c, err);
    return st;
}

iosage_status ios_analyze_llm(iosage_analysis *a, const char *spec,
                              iosage_error *err)
{
    iosage_error e;
    char line[900], why[1000];
    iosage_llm_client *c = NULL;
    if (open_client(spec, &c, &e) != IOSAGE_OK) {
        snprintf(why, sizeof why, "LLM %s not used: %s", spec,
                 iosage_error_line(&e, line, sizeof line));
        return fall_back(a, why, err);
    }
    char *system = NULL, *user = NULL;
    iosage_llm_result res;
    memset(&res, 0, sizeof res);
    iosage_status st = iosage_advise_prompt_parts(
        a->doc, (const struct iosage_config *const *)a->configs, a->n_configs,
        &system, &user, &e);
    int have_prompt = st == IOSAGE_OK;
    if (st == IOSAGE_OK)
        st = iosage_llm_chat(c, system, user, &res, &e);
    if (st == IOSAGE_OK)
        st = iosage_advise_apply_reply(a->doc, res.text, iosage_llm_provider(c),
                                       iosage_llm_model(c), &e);
    if (st != IOSAGE_OK) {
        if (!have_prompt)
            snprintf(why, sizeof why, "LLM %s not used: out of memory", spec);
        else
            snprintf(why, sizeof why, "LLM %s failed: %s", spec,
                     iosage_error_line(&e, line, sizeof line));
        st = fall_back(a, why, err);
    }
    iosage_llm_result_clear(&res);
    free(system);
    free(user);
    iosage_llm_free(c);
    return st;
}
