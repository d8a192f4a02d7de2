/*
 * src/label/label.c - iosage_label_log(): build the file table, apply the
 * healthy gate, then the seven criteria (criteria.c); and
 * iosage_label_criterion(): one criterion without the gate (the rule of
 * the pattern registry, iosage/patterns.h).
 */
#include <stdio.h>
#include <string.h>

#include "iosage/label.h"
#include "label/internal.h"

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

char *lb_fmt_count(char *buf, size_t size, double v)
{
    if (v >= 1e9)
        snprintf(buf, size, "%.3gG", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, size, "%.3gM", v / 1e6);
    else if (v >= 1e4)
        snprintf(buf, size, "%.3gk", v / 1e3);
    else
        snprintf(buf, size, "%.0f", v);
    return buf;
}

char *lb_fmt_bytes(char *buf, size_t size, double v)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, size, "%.0f B", v);
    else
        snprintf(buf, size, "%.3g %s", v, unit[u]);
    return buf;
}

char *lb_fmt_pct(char *buf, size_t size, double share)
{
    double v = 100.0 * share;
    if (v >= 9.95 || v == 0)
        snprintf(buf, size, "%.0f%%", v);
    else
        snprintf(buf, size, "%.2g%%", v);
    return buf;
}

static void set_error(iosage_error *err, iosage_status code, const char *msg)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    err->code = code;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
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
        set_error(err, IOSAGE_E_USAGE, "iosage_label_log: NULL argument");
        return IOSAGE_E_USAGE;
    }
    memset(out, 0, sizeof *out);
    struct lb_table t;
    if (lb_table_build(log, &t) != IOSAGE_OK) {
        set_error(err, IOSAGE_E_NOMEM, "labeling: out of memory");
        return IOSAGE_E_NOMEM;
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
             lb_fmt_pct(p1, sizeof p1, cap > 0 ? t.io_time / cap : 0),
             lb_fmt_pct(p2, sizeof p2, out->slowest_share),
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
        set_error(err, IOSAGE_E_USAGE, "iosage_label_criterion: bad argument");
        return IOSAGE_E_USAGE;
    }
    *present = 0;
    *value = 0;
    evidence[0] = '\0';
    struct lb_table t;
    if (lb_table_build(log, &t) != IOSAGE_OK) {
        set_error(err, IOSAGE_E_NOMEM, "labeling: out of memory");
        return IOSAGE_E_NOMEM;
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
