/*
 * src/report/eval_tables.c - the tables of `iosage eval` (docs/evaluation.md):
 * one split's metrics, the comparison of the models, a random forest and
 * the rule baseline, and leave one kernel out. A view like the others, so it
 * lives with them (it was in src/cli/cmd_eval.c).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "iosage/model.h"
#include "iosage/patterns.h"
#include "iosage/report.h"

/* "%.3f", or "-" for NAN, right-aligned in width w. */
static void cell(FILE *f, double v, int w)
{
    if (isnan(v))
        fprintf(f, " %*s", w, "-");
    else
        fprintf(f, " %*.3f", w, v);
}

void iosage_report_eval_text(FILE *f, const struct iosage_metrics *m,
                             const char *split)
{
    fprintf(f, "split %s: %" PRId64 " runs, %" PRId64 " healthy\n\n", split,
            m->runs, m->healthy_runs);
    fprintf(f, "%-16s", "micro F1");
    cell(f, m->micro_f1, 6);
    fprintf(f, "\n%-16s", "macro F1");
    cell(f, m->macro_f1, 6);
    fprintf(f, "\n%-16s", "Hamming loss");
    cell(f, m->hamming_loss, 6);
    fprintf(f, "\n%-16s", "subset accuracy");
    cell(f, m->subset_accuracy, 6);
    fprintf(f, "\n%-16s", "healthy flagged");
    cell(f, m->healthy_flagged, 6);
    fprintf(f, "  (%" PRId64 " of %" PRId64 ")\n\n", m->healthy_flagged_runs,
            m->healthy_runs);
    fprintf(f, "%-24s %9s %9s %9s %9s\n", "pattern", "precision", "recall", "f1",
            "support");
    for (int k = 0; k < m->n_patterns; k++) {
        const struct iosage_pattern_metrics *p = &m->per_pattern[k];
        fprintf(f, "%-24s", iosage_pattern_get(k)->id);
        cell(f, p->precision, 9);
        cell(f, p->recall, 9);
        cell(f, p->f1, 9);
        fprintf(f, " %9" PRId64 "\n", p->support);
    }
}

/* "| 0.996 " or "| - " */
static void md_cell(FILE *f, double v)
{
    if (isnan(v))
        fprintf(f, " | -");
    else
        fprintf(f, " | %.3f", v);
}

/* Precision and recall over all patterns (summed counts); NAN when
 * nothing is reported (precision) or nothing is labeled (recall). */
static void micro_pr(const struct iosage_metrics *m, double *prec,
                     double *rec)
{
    int64_t tp = 0, fp = 0, fn = 0;
    for (int k = 0; k < m->n_patterns; k++) {
        tp += m->per_pattern[k].tp;
        fp += m->per_pattern[k].fp;
        fn += m->per_pattern[k].fn;
    }
    *prec = tp + fp > 0 ? (double)tp / (double)(tp + fp) : NAN;
    *rec = tp + fn > 0 ? (double)tp / (double)(tp + fn) : NAN;
}

/* The comparison as two Markdown tables (also readable as text). */
void iosage_report_eval_compare(FILE *f, const struct iosage_metrics mt[3],
                                const char *split)
{
    fprintf(f, "split %s: %" PRId64 " runs, %" PRId64 " healthy\n\n", split,
            mt[0].runs, mt[0].healthy_runs);
    fprintf(f, "| metric | %s | %s | %s |\n|---|---|---|---|\n", "models",
            "random forest", "rules");
    static const char *const rows[] = {
        "micro F1",        "micro precision", "micro recall", "macro F1",
        "Hamming loss",    "subset accuracy", "healthy flagged"};
    for (int r = 0; r < 7; r++) {
        fprintf(f, "| %s", rows[r]);
        for (int k = 0; k < 3; k++) {
            const struct iosage_metrics *m = &mt[k];
            double prec, rec;
            micro_pr(m, &prec, &rec);
            double v[] = {m->micro_f1,     prec, rec, m->macro_f1,
                          m->hamming_loss, m->subset_accuracy,
                          m->healthy_flagged};
            md_cell(f, v[r]);
        }
        fprintf(f, " |\n");
    }
    fprintf(f, "\n| pattern (P / R / F1) | %s | %s | %s | support |\n"
            "|---|---|---|---|---|\n",
            "models", "random forest", "rules");
    for (int p = 0; p < mt[0].n_patterns; p++) {
        fprintf(f, "| %s", iosage_pattern_get(p)->id);
        for (int k = 0; k < 3; k++) {
            const struct iosage_pattern_metrics *q = &mt[k].per_pattern[p];
            md_cell(f, q->precision);
            fprintf(f, " /");
            cell(f, q->recall, 0);
            fprintf(f, " /");
            cell(f, q->f1, 0);
        }
        fprintf(f, " | %" PRId64 " |\n", mt[0].per_pattern[p].support);
    }
}

void iosage_report_eval_loko(FILE *f, const struct iosage_loko_row *rows,
                             size_t n, int trees)
{
    fprintf(f, "leave one kernel out: models and a random forest (%d trees) "
            "trained without the kernel, scored on all its runs\n\n", trees);
    fprintf(f, "| kernel | runs | healthy | micro F1 models | micro F1 random "
            "forest | micro F1 rules | healthy flagged models | healthy "
            "flagged random forest | healthy flagged rules |\n"
            "|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < n; i++) {
        const struct iosage_loko_row *r = &rows[i];
        fprintf(f, "| %s | %" PRId64 " | %" PRId64, r->kernel, r->models.runs,
                r->models.healthy_runs);
        md_cell(f, r->models.micro_f1);
        md_cell(f, r->forest.micro_f1);
        md_cell(f, r->rules.micro_f1);
        md_cell(f, r->models.healthy_flagged);
        md_cell(f, r->forest.healthy_flagged);
        md_cell(f, r->rules.healthy_flagged);
        fprintf(f, " |\n");
    }
}

