/*
 * src/advise/findings.c - what offline advice knows about one detected
 * pattern: the share of the job's I/O time that carries it, the main file,
 * the evidence lines and the change id chosen from them. The pattern's
 * file (src/patterns/p_<id>.c) computes them (its .finding and .evidence);
 * this file gathers and sorts them.
 *
 * Shares (0..1), per pattern, from the per-file criteria of LABELING.md
 * (src/features/scan.c):
 *   access_granularity      time of the files with mostly small requests
 *   access_pattern          time of the files with >= 20% non-sequential ops
 *   interface_choice        time of the shared files written independently
 *   throughput_utilization  time of the files behind the chosen cause (syncs,
 *                           one OST, re-reads: the largest of the three)
 *   file_strategy           time of all data files
 *   metadata_intensity      metadata time
 *   parallelism_efficiency  the slowest rank's I/O time above the mean rank's,
 *                           as a share of the slowest rank's
 * Without timers, the share of data operations stands in (ios_material_share).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ios_math.h"

void adv_finding_make(const iosage_log *log, const iosage_file_table *t,
                      int k, double score, struct adv_finding *f)
{
    const struct iosage_pattern *p = iosage_pattern_get(k);
    memset(f, 0, sizeof *f);
    f->pattern = k;
    f->score = score;
    f->row = -1;
    struct iosage_pattern_finding pf;
    memset(&pf, 0, sizeof pf);
    pf.row = -1;
    if (p->finding)
        p->finding(t, &pf);
    f->share = pf.share;
    f->row = pf.row;
    f->change_id = pf.change_id;
    f->held = pf.held;
    /* a held-back change's reason comes first: evidence lines are capped */
    if (pf.held)
        ios_ev_add(&f->ev, "%s", pf.held_why);
    if (p->evidence)
        p->evidence(log, t, &f->ev);
    if (f->ev.n_lines == 0) {
        char pct[16];
        ios_ev_add(&f->ev, "no file meets the written criteria of this "
                   "pattern; the model's score is %.2f, %s of the I/O time "
                   "is involved", score, ios_fmt_pct(pct, sizeof pct, f->share));
    }
}

static int cmp_finding(const void *pa, const void *pb)
{
    const struct adv_finding *a = pa, *b = pb;
    if (a->held != b->held)
        return a->held ? 1 : -1;
    long sa = ios_libm()->lround(100.0 * a->share), sb = ios_libm()->lround(100.0 * b->share);
    if (sa != sb)
        return sa > sb ? -1 : 1;
    int oa = iosage_pattern_get(a->pattern)->advice_rank;
    int ob = iosage_pattern_get(b->pattern)->advice_rank;
    if (oa != ob)
        return oa < ob ? -1 : 1;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    return a->pattern - b->pattern;
}

void adv_findings_sort(struct adv_finding *f, int n)
{
    if (n > 1)
        qsort(f, (size_t)n, sizeof *f, cmp_finding);
}
