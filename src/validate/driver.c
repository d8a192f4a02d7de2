/*
 * src/validate/driver.c - run a scenario: detect, advise, apply, measure.
 *
 *   1. the baseline once under the tracer: WORK/baseline.darshan
 *      (its output in WORK/baseline.out), labeled with the LABELING.md
 *      criteria for the record;
 *   2. the analyzer on that log: WORK/analyze.json; its advice.changes are
 *      the proposals, best first;
 *   3. the changes to measure: the top proposal (every proposal with
 *      all_changes) that the scenario has a configuration for;
 *   4. o->warmup untimed rounds, then o->runs rounds. A round runs the
 *      baseline, then each change in proposal order, so every change is
 *      paired with the baseline run just before it and slow drift of the
 *      machine hits both sides of each pair. The timed runs are not traced
 *      (the application as a user runs it); output in WORK/run.out;
 *   5. each measured change once more under the tracer, labeled, to see
 *      whether the change removed the pattern: WORK/<change_id>.darshan.
 *
 * Per change and per measure (the kernel's own seconds, and the wall time
 * of the whole mpirun) the ratio of pair i is without_i / with_i, and
 * stats.c turns the n ratios into the speedup and its interval.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "iosage/darshan.h"
#include "iosage/label.h"
#include "internal.h"

#define ANALYZE_MAX_BYTES (16 << 20)

const char *iosage_validate_verdict_text(enum iosage_validate_verdict v)
{
    switch (v) {
    case IOSAGE_VALIDATE_V_MEASURED:
        return "measured";
    case IOSAGE_VALIDATE_V_HEALTHY_OK:
        return "no change proposed (healthy, as expected)";
    case IOSAGE_VALIDATE_V_HEALTHY_PROPOSED:
        return "a change was proposed for a healthy scenario";
    case IOSAGE_VALIDATE_V_NOTHING_PROPOSED:
        return "no change proposed, but the scenario has a bottleneck";
    case IOSAGE_VALIDATE_V_NO_CONFIG:
        return "the top change has no configuration in the scenario";
    }
    return "?";
}

/* WORK/name into buf. */
static void work_path(const struct iosage_validate_options *o,
                      const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", o->work_dir, name);
}

/* The labeler's verdict on a log into labels (for the record). Returns 1
 * when labeled, 0 when the log could not be read. */
static int label_log(const char *log_path,
                     int labels[IOSAGE_VALIDATE_NPATTERNS])
{
    iosage_log *log = NULL;
    struct iosage_label_result lab;
    int ok = iosage_log_load(log_path, 0, &log, NULL) == IOSAGE_OK &&
             iosage_label_log(log, &lab, NULL) == IOSAGE_OK;
    for (int p = 0; ok && p < IOSAGE_VALIDATE_NPATTERNS; p++)
        labels[p] = lab.present[p];
    iosage_log_free(log);
    return ok;
}

/* Whole file into a new string (caller frees); NULL when unreadable. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = malloc(ANALYZE_MAX_BYTES + 1);
    size_t n = buf ? fread(buf, 1, ANALYZE_MAX_BYTES, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

/* Run the analyzer on the baseline log and read its proposals. */
static iosage_status run_analyzer(const struct iosage_validate_options *o,
                                  const char *log_path,
                                  struct iosage_validate_advice *advice,
                                  iosage_error *err)
{
    char out[4200], errp[4200], why[160];
    work_path(o, "analyze.json", out, sizeof out);
    work_path(o, "analyze.err", errp, sizeof errp);
    char *argv[10];
    int a = 0;
    argv[a++] = (char *)o->analyzer;
    argv[a++] = "analyze";
    argv[a++] = "--format";
    argv[a++] = "json";
    if (o->llm) {
        argv[a++] = "--llm";
        argv[a++] = (char *)o->llm;
    }
    argv[a++] = (char *)log_path;
    argv[a] = NULL;
    double wall;
    int rc = ios_validate_spawn(argv, out, errp, o->timeout_s, &wall, why,
                                sizeof why);
    if (rc < 0)
        return ios_fail(err, IOSAGE_E_IO, errp, NULL, -1,
                        "the analyzer %s failed: %s", o->analyzer, why);
    if (rc != 0)
        return ios_fail(err, IOSAGE_E_IO, errp, NULL, -1,
                        "the analyzer %s failed: exit status %d", o->analyzer,
                        rc);
    char *text = slurp(out);
    if (!text)
        return ios_fail(err, IOSAGE_E_IO, out, NULL, -1, "cannot read");
    iosage_status st = iosage_validate_advice_parse(text, out, advice, err);
    free(text);
    return st;
}

/* The verdict from the proposals, before anything is measured. */
static enum iosage_validate_verdict decide(
    const struct iosage_validate_scenario *s,
    const struct iosage_validate_advice *a)
{
    if (a->n == 0)
        return s->healthy ? IOSAGE_VALIDATE_V_HEALTHY_OK
                          : IOSAGE_VALIDATE_V_NOTHING_PROPOSED;
    if (s->healthy)
        return IOSAGE_VALIDATE_V_HEALTHY_PROPOSED;
    if (!iosage_validate_scenario_find(s, a->changes[0].pattern,
                                       a->changes[0].change_id))
        return IOSAGE_VALIDATE_V_NO_CONFIG;
    return IOSAGE_VALIDATE_V_MEASURED;
}

/* o->listed: every change of the scenario stands as a proposal, in the
 * scenario's order. */
static void propose_listed(const struct iosage_validate_scenario *s,
                           struct iosage_validate_advice *a)
{
    memset(a, 0, sizeof *a);
    snprintf(a->source, sizeof a->source, "listed");
    for (size_t i = 0; i < s->n_changes; i++) {
        struct iosage_validate_proposal *p = &a->changes[a->n++];
        p->rank = (int)i + 1;
        snprintf(p->pattern, sizeof p->pattern, "%s", s->changes[i].pattern);
        snprintf(p->change_id, sizeof p->change_id, "%s",
                 s->changes[i].change_id);
    }
}

/* One result per proposal to look at (the top one, or all), with arrays
 * for the measured ones. */
static iosage_status plan(const struct iosage_validate_scenario *s,
                          const struct iosage_validate_options *o,
                          struct iosage_validate_result *r, iosage_error *err)
{
    size_t n = r->advice.n == 0                      ? 0
               : o->all_changes || o->listed ? r->advice.n
                                                     : 1;
    r->results = n ? calloc(n, sizeof *r->results) : NULL;
    if (n && !r->results)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, NULL, -1, "out of memory");
    r->n_results = n;
    size_t runs = (size_t)o->runs;
    for (size_t i = 0; i < n; i++) {
        struct iosage_validate_change_result *c = &r->results[i];
        c->proposal = r->advice.changes[i];
        c->change = iosage_validate_scenario_find(s, c->proposal.pattern,
                                                  c->proposal.change_id);
        c->outcome = c->change ? IOSAGE_VALIDATE_MEASURED
                               : IOSAGE_VALIDATE_NO_CONFIG;
        if (!c->change)
            continue;
        c->runs = runs;
        c->without_s = calloc(runs, sizeof(double));
        c->with_s = calloc(runs, sizeof(double));
        c->without_wall = calloc(runs, sizeof(double));
        c->with_wall = calloc(runs, sizeof(double));
        if (!c->without_s || !c->with_s || !c->without_wall || !c->with_wall)
            return ios_fail(err, IOSAGE_E_NOMEM, NULL, NULL, -1,
                            "out of memory");
    }
    return IOSAGE_OK;
}

/* One round: the baseline, then every measured change. pair < 0: warm-up,
 * nothing kept. */
static iosage_status round_of_runs(const struct iosage_validate_scenario *s,
                                   const struct iosage_validate_options *o,
                                   struct iosage_validate_result *r, int pair,
                                   iosage_error *err)
{
    char out[4200];
    work_path(o, "run.out", out, sizeof out);
    struct ios_validate_run a, b;
    iosage_status st = ios_validate_run_kernel(o, s->kernel, s->ranks,
                                               &s->baseline, NULL, out, &a,
                                               err);
    if (st != IOSAGE_OK)
        return st;
    char tag[48];
    snprintf(tag, sizeof tag, "%s %d/%d", pair < 0 ? "warm-up" : "pair",
             pair < 0 ? -pair : pair + 1, pair < 0 ? o->warmup : o->runs);
    ios_validate_say(o, "%s: %s baseline %.4f s (wall %.3f s)", s->name, tag,
                     a.kernel_s, a.wall);
    for (size_t i = 0; i < r->n_results; i++) {
        struct iosage_validate_change_result *c = &r->results[i];
        if (c->outcome != IOSAGE_VALIDATE_MEASURED)
            continue;
        st = ios_validate_run_kernel(o, c->change->kernel, s->ranks,
                                     &c->change->flags, NULL, out, &b, err);
        if (st != IOSAGE_OK)
            return st;
        ios_validate_say(o, "%s: %s %s %.4f s (wall %.3f s), ratio %.3f",
                         s->name, tag, c->proposal.change_id, b.kernel_s,
                         b.wall, a.kernel_s / b.kernel_s);
        if (pair < 0)
            continue;
        c->without_s[pair] = a.kernel_s;
        c->with_s[pair] = b.kernel_s;
        c->without_wall[pair] = a.wall;
        c->with_wall[pair] = b.wall;
    }
    return IOSAGE_OK;
}

/* Medians and ratio statistics of one measure. */
static iosage_status summarize(const double *without, const double *with,
                               size_t n, struct iosage_validate_measure *m,
                               iosage_error *err)
{
    double ratios[IOSAGE_VALIDATE_MAX_RUNS];
    for (size_t i = 0; i < n; i++)
        ratios[i] = without[i] / with[i];
    m->median_without = iosage_validate_median(without, n);
    m->median_with = iosage_validate_median(with, n);
    return iosage_validate_stats_of(ratios, n, &m->stats, err);
}

static iosage_status measure(const struct iosage_validate_scenario *s,
                             const struct iosage_validate_options *o,
                             struct iosage_validate_result *r,
                             iosage_error *err)
{
    iosage_status st = IOSAGE_OK;
    for (int w = 1; w <= o->warmup && st == IOSAGE_OK; w++)
        st = round_of_runs(s, o, r, -w, err);
    for (int i = 0; i < o->runs && st == IOSAGE_OK; i++)
        st = round_of_runs(s, o, r, i, err);
    for (size_t i = 0; i < r->n_results && st == IOSAGE_OK; i++) {
        struct iosage_validate_change_result *c = &r->results[i];
        if (c->outcome != IOSAGE_VALIDATE_MEASURED)
            continue;
        st = summarize(c->without_s, c->with_s, c->runs, &c->kernel, err);
        if (st == IOSAGE_OK)
            st = summarize(c->without_wall, c->with_wall, c->runs, &c->wall,
                           err);
    }
    return st;
}

/* Each measured change once under the tracer, labeled: WORK/<id>.darshan. */
static iosage_status recheck(const struct iosage_validate_scenario *s,
                             const struct iosage_validate_options *o,
                             struct iosage_validate_result *r,
                             iosage_error *err)
{
    char log[4200], out[4200], name[96];
    work_path(o, "run.out", out, sizeof out);
    for (size_t i = 0; i < r->n_results; i++) {
        struct iosage_validate_change_result *c = &r->results[i];
        if (c->outcome != IOSAGE_VALIDATE_MEASURED)
            continue;
        snprintf(name, sizeof name, "%s.darshan", c->proposal.change_id);
        work_path(o, name, log, sizeof log);
        struct ios_validate_run run;
        iosage_status st = ios_validate_run_kernel(
            o, c->change->kernel, s->ranks, &c->change->flags, log, out, &run,
            err);
        if (st != IOSAGE_OK)
            return st;
        c->labeled_after = label_log(log, c->labels_after);
        ios_validate_say(o, "%s: traced %s %.4f s: %s", s->name,
                         c->proposal.change_id, run.kernel_s, log);
    }
    return IOSAGE_OK;
}

static int any_measured(const struct iosage_validate_result *r)
{
    for (size_t i = 0; i < r->n_results; i++)
        if (r->results[i].outcome == IOSAGE_VALIDATE_MEASURED)
            return 1;
    return 0;
}

iosage_status iosage_validate_run(const struct iosage_validate_scenario *s,
                                  const struct iosage_validate_options *o,
                                  struct iosage_validate_result *r,
                                  iosage_error *err)
{
    memset(r, 0, sizeof *r);
    if (o->runs < 1 || o->runs > IOSAGE_VALIDATE_MAX_RUNS || o->warmup < 0 ||
        !o->bench_dir || !o->tracer || !o->analyzer || !o->work_dir)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, NULL, -1,
                        "validate: incomplete options");
    if (o->listed) {
        propose_listed(s, &r->advice);
        r->verdict = r->advice.n ? IOSAGE_VALIDATE_V_MEASURED
                                 : IOSAGE_VALIDATE_V_NOTHING_PROPOSED;
        iosage_status st = plan(s, o, r, err);
        if (st == IOSAGE_OK && any_measured(r))
            st = measure(s, o, r, err);
        if (st != IOSAGE_OK)
            iosage_validate_result_free(r);
        return st;
    }
    char log[4200], out[4200];
    work_path(o, "baseline.darshan", log, sizeof log);
    work_path(o, "baseline.out", out, sizeof out);
    struct ios_validate_run traced;
    iosage_status st = ios_validate_run_kernel(o, s->kernel, s->ranks,
                                               &s->baseline, log, out,
                                               &traced, err);
    if (st != IOSAGE_OK)
        return st;
    r->traced_wall = traced.wall;
    ios_validate_say(o, "%s: traced baseline %.4f s (wall %.3f s): %s",
                     s->name, traced.kernel_s, traced.wall, log);
    r->labeled = label_log(log, r->labels);
    st = run_analyzer(o, log, &r->advice, err);
    if (st != IOSAGE_OK)
        return st;
    r->verdict = decide(s, &r->advice);
    ios_validate_say(o, "%s: %zu change(s) proposed: %s", s->name,
                     r->advice.n, iosage_validate_verdict_text(r->verdict));
    st = plan(s, o, r, err);
    if (st == IOSAGE_OK && any_measured(r))
        st = measure(s, o, r, err);
    if (st == IOSAGE_OK && any_measured(r))
        st = recheck(s, o, r, err);
    if (st != IOSAGE_OK)
        iosage_validate_result_free(r);
    return st;
}

void iosage_validate_result_free(struct iosage_validate_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n_results; i++) {
        free(r->results[i].without_s);
        free(r->results[i].with_s);
        free(r->results[i].without_wall);
        free(r->results[i].with_wall);
    }
    free(r->results);
    r->results = NULL;
    r->n_results = 0;
}
