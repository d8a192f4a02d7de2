/*
 * src/label/label.c - iosage_label_log(): build the file table, apply the
 * healthy gate, then the seven criteria (criteria.c); and
 * iosage_label_criterion(): one criterion without the gate (the rule of
 * the pattern registry, iosage/patterns.h).
 */
#include <stdio.h>
#include <string.h>

#include "iosage/label.h"
#include "internal.h"
#include "ios_common.h"

static const char *const pattern_ids[IOSAGE_LABEL_NPATTERNS] = {
    "access_granularity", "metadata_intensity", "parallelism_efficiency",
    "access_pattern",     "interface_choice",   "file_strategy",
    "throughput_utilization"};

static const char *const pattern_abbrev[IOSAGE_LABEL_NPATTERNS] = {
    "AG", "MI", "PE", "AP", "IC", "FS", "TU"};

static const lb_criterion criteria[IOSAGE_LABEL_NPATTERNS] = {
    lb_access_granularity, lb_metadata_intensity, lb_parallelism_efficiency,
    lb_access_pattern,     lb_interface_choice,   lb_file_strategy,
    lb_throughput_utilization};

const char *iosage_label_pattern_id(int p)
{
    return p >= 0 && p < IOSAGE_LABEL_NPATTERNS ? pattern_ids[p] : NULL;
}

/* The slowest rank's I/O seconds from the table's per-rank estimate. */
static double slowest_rank(const struct lb_table *t)
{
    double s = 0;
    for (int64_t r = 0; r < t->nprocs; r++)
        if (t->rank_time[r] > s)
            s = t->rank_time[r];
    return s;
}

iosage_status iosage_label_log(const iosage_log *log, struct iosage_label_result *out,
                               iosage_error *err)
{
    if (!log || !out) {
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "label", -1,
                        "iosage_label_log: NULL argument");
    }
    memset(out, 0, sizeof *out);
    struct lb_table t;
    if (lb_table_build(log, &t) != IOSAGE_OK) {
        return ios_fail(err, IOSAGE_E_NOMEM, log->path, "label", -1,
                        "labeling: out of memory");
    }
    out->nprocs = t.nprocs;
    out->run_time = t.run_time;
    out->io_time = t.io_time;
    out->slowest_rank_io = slowest_rank(&t);
    out->slowest_share = t.run_time > 0 ? out->slowest_rank_io / t.run_time : 0;
    out->gated = out->slowest_share < IOSAGE_LABEL_GATE;
    int any = 0;
    for (int p = 0; p < IOSAGE_LABEL_NPATTERNS; p++) {
        int present = 0;
        double value = 0;
        criteria[p](&t, &present, &value, out->evidence[p],
                    sizeof out->evidence[p]);
        out->present[p] = present && !out->gated;
        any |= out->present[p];
    }
    out->healthy = !any;
    char p1[16], p2[16];
    double cap = (double)t.nprocs * t.run_time;
    snprintf(out->summary, sizeof out->summary,
             "nprocs %lld, run %.3gs, I/O %.3gs (%s of nprocs x run; slowest rank %s "
             "of run)%s",
             (long long)t.nprocs, t.run_time, t.io_time,
             ios_fmt_label_pct(p1, sizeof p1, cap > 0 ? t.io_time / cap : 0),
             ios_fmt_label_pct(p2, sizeof p2, out->slowest_share),
             out->gated ? " | healthy gate: slowest rank under 5% of the run in I/O" : "");
    lb_table_free(&t);
    return IOSAGE_OK;
}

iosage_status iosage_label_criterion(const iosage_log *log, int p, int *present,
                                     double *value, char *evidence, size_t size,
                                     iosage_error *err)
{
    if (!log || !present || !value || !evidence || size == 0 || p < 0 ||
        p >= IOSAGE_LABEL_NPATTERNS) {
        return ios_fail(err, IOSAGE_E_USAGE, log ? log->path : NULL, "label",
                        -1, "iosage_label_criterion: bad argument");
    }
    *present = 0;
    *value = 0;
    evidence[0] = '\0';
    struct lb_table t;
    if (lb_table_build(log, &t) != IOSAGE_OK) {
        return ios_fail(err, IOSAGE_E_NOMEM, log->path, "label", -1,
                        "labeling: out of memory");
    }
    criteria[p](&t, present, value, evidence, size);
    lb_table_free(&t);
    return IOSAGE_OK;
}

char *iosage_label_evidence_line(const struct iosage_label_result *r, char *buf,
                                 size_t size)
{
    if (!buf || size == 0)
        return buf;
    size_t used = (size_t)snprintf(buf, size, "%s", r->summary);
    for (int p = 0; p < IOSAGE_LABEL_NPATTERNS && used < size; p++) {
        if (!r->present[p])
            continue;
        used += (size_t)snprintf(buf + used, size - used, " | %s: %s", pattern_abbrev[p],
                                 r->evidence[p]);
    }
    if (r->healthy && !r->gated && used < size)
        snprintf(buf + used, size - used, " | no pattern material");
    return buf;
}
