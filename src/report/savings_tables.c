/*
 * src/report/savings_tables.c - the tables of `iosage savings labels` and
 * `iosage savings eval` (docs/evaluation.md, issue 16): the savings labels
 * against the configuration labels and the labeler, and the figures of the
 * savings models on configurations left out of training.
 */
#include <stdio.h>

#include "iosage/patterns.h"
#include "iosage/report.h"
#include "iosage/savings.h"

static double percent(int part, int whole)
{
    return whole ? 100.0 * part / whole : 0.0;
}

static const char *labeler_word(int v)
{
    return v < 0 ? "unread" : v ? "present" : "absent";
}

static void tally_row(FILE *out, const char *name,
                      const struct iosage_savings_tally *x)
{
    fprintf(out, "| %s | %d | %d (%.0f%%) | %d | %d (%.0f%%) |\n", name,
            x->rows, x->pays, percent(x->pays, x->rows), x->labeler_present,
            x->labeler_agree, percent(x->labeler_agree, x->rows));
}

void iosage_report_savings_labels(FILE *out,
                                  const struct iosage_savings_table *t,
                                  const struct iosage_savings_agreement *a)
{
    fprintf(out, "disagreements (configuration labels every measured "
                 "pattern present):\n");
    fprintf(out, "%-20s %-23s %-17s %8s %11s %5s %s\n", "config", "pattern",
            "change", "saving", "ratio", "pays", "iosage label");
    for (size_t i = 0; i < t->n; i++) {
        const struct iosage_savings_row *r = &t->rows[i];
        int lab = a->labeler[i];
        if (r->pays && lab == 1)
            continue;
        fprintf(out, "%-20s %-23s %-17s %7.1f%% %5.2f-%-5.2f %5s %s\n",
                r->config, r->pattern, r->change_id, 100 * r->io_saving,
                r->io_lo, r->io_hi, r->pays ? "yes" : "no",
                labeler_word(lab));
    }
    fprintf(out, "\n| pattern | measured | pays (= configuration label) | "
                 "iosage label present | iosage label agrees |\n"
                 "|---|---:|---:|---:|---:|\n");
    int np = iosage_pattern_count();
    for (int p = 0; p < np && p < IOSAGE_SAVINGS_MAX_PATTERNS; p++)
        if (a->pattern[p].rows)
            tally_row(out, iosage_pattern_get(p)->id, &a->pattern[p]);
    if (a->all.rows)
        tally_row(out, "all", &a->all);
}

void iosage_report_savings_eval(FILE *out, const struct iosage_savings_eval *e,
                                int by_kernel)
{
    fprintf(out, "held out: %s\n\n", by_kernel ? "one kernel family at a time"
                                               : "5 folds of configurations");
    fprintf(out, "| change | measured runs | Spearman | median abs. error "
                 "(pp) | measured >= 10%% | predicted >= 10%% | both |\n"
                 "|---|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < e->n_changes; i++) {
        const struct iosage_savings_eval_change *c = &e->changes[i];
        fprintf(out, "| %s %s | %d | %.3f | %.1f | %d | %d | %d |\n",
                c->pattern, c->change_id, c->runs, c->spearman, c->mae_pp,
                c->measured_pays, c->predicted_pays, c->both_pay);
    }
    fprintf(out, "\ntop-ranked change = largest measured saving: %d of %d "
                 "runs (%.1f%%); runs with 2+ measured changes: %d of %d "
                 "(%.1f%%)\n",
            e->top_right, e->pattern_runs, percent(e->top_right, e->pattern_runs),
            e->multi_top_right, e->multi_runs,
            percent(e->multi_top_right, e->multi_runs));
    fprintf(out, "healthy configurations with every predicted saving under "
                 "5%%: %d of %d (%.1f%%)\n",
            e->healthy_under, e->healthy_runs,
            percent(e->healthy_under, e->healthy_runs));
    fprintf(out, "healthy runs, one by one, with every predicted saving "
                 "under 5%%: %d of %d (%.1f%%)\n",
            e->healthy_single_under, e->healthy_single,
            percent(e->healthy_single_under, e->healthy_single));
    if (e->shown_runs > 0)
        fprintf(out, "healthy runs the classifiers never saw, every saving "
                     "analyze shows under 5%%: %d of %d (%.1f%%; flagged by "
                     "the classifiers: %d)\n",
                e->shown_under, e->shown_runs,
                percent(e->shown_under, e->shown_runs), e->shown_flagged);
    for (int i = 0; i < e->n_misses; i++)
        fprintf(out, "  healthy %s: %s predicted %.0f%%\n", e->misses[i].config,
                e->misses[i].change_id, 100 * e->misses[i].predicted);
    int more = e->healthy_runs - e->healthy_under - e->n_misses;
    if (more > 0)
        fprintf(out, "  and %d more healthy configurations\n", more);
}
