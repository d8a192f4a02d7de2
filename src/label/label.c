/*
 * src/label/label.c - iosage_label_log(): build the log's one table, apply
 * the healthy gate, then every registered pattern's criterion (its rule,
 * src/patterns/p_<id>.c) on that table, the files walked once for all of
 * them (ios_rule_verdicts).
 */
#include <stdio.h>
#include <string.h>

#include "iosage/label.h"
#include "iosage/patterns.h"
#include "ios_common.h"
#include "ios_features.h"
#include "ios_patterns.h"

_Static_assert(IOSAGE_LABEL_MAX_PATTERNS == IOSAGE_MAX_PATTERNS,
               "the labeler holds every registered pattern");
_Static_assert(IOSAGE_LABEL_EVIDENCE_MAX == IOSAGE_REASON_MAX,
               "a rule's reason is the labeler's evidence line");

const char *iosage_label_pattern_id(int p)
{
    const struct iosage_pattern *pat = iosage_pattern_get(p);
    return pat ? pat->id : NULL;
}

/* The slowest rank's I/O seconds from the table's per-rank estimate. */
static double slowest_rank(const struct fl_table *t)
{
    struct fl_ranks k;
    fl_rank_summary(t, &k);
    double s = fl_rank_time(t, k.slowest);
    return s > 0 ? s : 0;
}

/* The labeler's result for log from its table ft, with the evidence lines
 * and the summary when with_text is set. */
static void label(const iosage_log *log, const iosage_file_table *ft,
                  int with_text, struct iosage_label_result *out)
{
    const struct fl_table *t = ios_ft_layers(ft);
    memset(out, 0, sizeof *out);
    out->n_patterns = iosage_pattern_count();
    out->nprocs = t->nprocs;
    out->run_time = t->run_time;
    out->io_time = t->io_time;
    out->slowest_rank_io = slowest_rank(t);
    out->slowest_share = t->run_time > 0 ? out->slowest_rank_io / t->run_time : 0;
    out->gated = out->slowest_share < IOSAGE_LABEL_GATE;
    int any = 0;
    struct iosage_rule_verdict v[IOSAGE_MAX_PATTERNS];
    ios_rule_verdicts(log, ft, with_text, v);
    for (int p = 0; p < out->n_patterns; p++) {
        memcpy(out->evidence[p], v[p].reason, sizeof out->evidence[p]);
        out->present[p] = v[p].detected && !out->gated;
        any |= out->present[p];
    }
    out->healthy = !any;
    if (!with_text)
        return;
    char p1[16], p2[16];
    double cap = (double)t->nprocs * t->run_time;
    snprintf(out->summary, sizeof out->summary,
             "nprocs %lld, run %.3gs, I/O %.3gs (%s of nprocs x run; slowest rank %s "
             "of run)%s",
             (long long)t->nprocs, t->run_time, t->io_time,
             ios_fmt_label_pct(p1, sizeof p1, cap > 0 ? t->io_time / cap : 0),
             ios_fmt_label_pct(p2, sizeof p2, out->slowest_share),
             out->gated ? " | healthy gate: slowest rank under 5% of the run in I/O" : "");
}

void iosage_label_table(const iosage_log *log, const iosage_file_table *ft,
                        struct iosage_label_result *out)
{
    label(log, ft, 1, out);
}

void iosage_label_table_verdicts(const iosage_log *log,
                                 const iosage_file_table *ft,
                                 struct iosage_label_result *out)
{
    label(log, ft, 0, out);
}

iosage_status iosage_label_log(const iosage_log *log, struct iosage_label_result *out,
                               iosage_error *err)
{
    if (!log || !out) {
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "label", -1,
                        "iosage_label_log: NULL argument");
    }
    memset(out, 0, sizeof *out);
    iosage_file_table *t = NULL;
    if (iosage_file_table_build(log, &t, NULL) != IOSAGE_OK) {
        return ios_fail(err, IOSAGE_E_NOMEM, log->path, "label", -1,
                        "labeling: out of memory");
    }
    iosage_label_table(log, t, out);
    iosage_file_table_free(t);
    return IOSAGE_OK;
}

char *iosage_label_evidence_line(const struct iosage_label_result *r, char *buf,
                                 size_t size)
{
    if (!buf || size == 0)
        return buf;
    size_t used = (size_t)snprintf(buf, size, "%s", r->summary);
    for (int p = 0; p < r->n_patterns && used < size; p++) {
        if (!r->present[p])
            continue;
        used += (size_t)snprintf(buf + used, size - used, " | %s: %s",
                                 iosage_pattern_get(p)->abbrev, r->evidence[p]);
    }
    if (r->healthy && !r->gated && used < size)
        snprintf(buf + used, size - used, " | no pattern material");
    return buf;
}
