/*
 * src/patterns/util.c - formatting, materiality and finding helpers for
 * the pattern files (see ios_patterns.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ios_patterns.h"

const char *ios_file_label(char *buf, size_t size,
                           const struct iosage_file_row *row)
{
    const char *base = strrchr(row->path, '/');
    base = base && base[1] ? base + 1 : row->path;
    if (row->flags & IOSAGE_FILE_SHARED)
        snprintf(buf, size, "%.120s (shared by %lld ranks)", base,
                 (long long)row->ranks);
    else if (row->ranks <= 1)
        snprintf(buf, size, "%.120s (one rank)", base);
    else
        snprintf(buf, size, "%.120s (%lld ranks, data from one)", base,
                 (long long)row->ranks);
    return buf;
}

double ios_material_share(const iosage_file_table *t, double time, int64_t ops)
{
    if (t->job.io_time > 0.0)
        return ios_share(time, t->job.io_time);
    double all = 0.0;
    for (size_t i = 0; i < t->n_rows; i++)
        if ((t->rows[i].flags & IOSAGE_FILE_DATA) && ios_row_top(&t->rows[i]))
            all += (double)t->rows[i].reads + (double)t->rows[i].writes;
    return ios_share((double)ops, all);
}

void ios_ev_add(struct iosage_evidence *ev, const char *fmt, ...)
{
    if (ev->n_lines >= IOSAGE_EVIDENCE_LINES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ev->line[ev->n_lines++], IOSAGE_TEXT_MAX, fmt, ap);
    va_end(ap);
}

void ios_rule_verdict(ios_criterion criterion, const iosage_file_table *t,
                      int with_reason, struct iosage_rule_verdict *v)
{
    memset(v, 0, sizeof *v);
    criterion(ios_ft_layers(t), &v->detected, &v->value, v->reason,
              with_reason ? sizeof v->reason : 0);
}

const struct iosage_file_row *ios_mpiio_row(const iosage_file_table *t,
                                            const struct iosage_file_row *r)
{
    if (r->module == IOSAGE_MOD_MPIIO)
        return r;
    if (r->peer >= 0 && (size_t)r->peer < t->n_rows &&
        t->rows[r->peer].module == IOSAGE_MOD_MPIIO)
        return &t->rows[r->peer];
    return NULL;
}

int ios_independent_mpiio(const iosage_file_table *t,
                          const struct iosage_file_row *r)
{
    const struct iosage_file_row *m = ios_mpiio_row(t, r);
    return m && m->indep_ops > 0 && m->indep_ops >= m->coll_ops;
}

const struct iosage_file_row *ios_finding_from_scan(
    const iosage_file_table *t, const struct ios_scan *s, const char *change,
    struct iosage_pattern_finding *f)
{
    f->share = ios_material_share(t, s->time, s->ops);
    f->row = s->top[0];
    f->change_id = change;
    return f->row >= 0 ? &t->rows[f->row] : NULL;
}
