/*
 * iosage/report.h - the views of an analysis report.
 *
 * `iosage analyze` builds one JSON document per log (docs/report.md, schema
 * docs/report-schema.json; src/advise builds it). This module renders that
 * document, unchanged, as one of four views:
 *
 *   TEXT      a compact terminal report that fits 80 columns; ANSI colour
 *             only when options->color is set (the caller decides: a
 *             terminal and no NO_COLOR; the library never looks at the
 *             environment);
 *   MARKDOWN  headings and tables, for issues and wikis;
 *   HTML      one self-contained page: inline CSS, inline SVG charts, a
 *             Content-Security-Policy that forbids scripts, no network;
 *   JSON      the document itself, indented by 2, keys in the builder's
 *             order.
 *
 * Every string in the document (paths, exe, config values, evidence, LLM
 * text) is data, never markup, in every view:
 *   - bytes that are not valid UTF-8 show as \xNN (JSON: U+FFFD);
 *   - control characters (C0, DEL, C1, ESC included) and the Unicode
 *     bidirectional overrides show as \xNN / \uNNNN, so a log cannot send
 *     terminal escapes or reorder text (JSON: standard \u escapes);
 *   - Markdown escapes its specials and pipes and lets no raw HTML through;
 *   - HTML escapes & < > " ' everywhere, SVG text included, and turns no
 *     URL from the document into a link.
 * The output depends only on the document and the options: the same input
 * gives the same bytes (numbers are formatted in the C locale style with a
 * '.' decimal point; callers must not change LC_NUMERIC).
 *
 * Ownership: iosage_report_render returns a new NUL-terminated buffer in
 * *out, owned by the caller and released with free(). The document is only
 * read. Nothing here prints.
 */
#ifndef IOSAGE_REPORT_H
#define IOSAGE_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "iosage/archive.h"
#include "iosage/error.h"
#include "iosage/model.h"
#include "iosage/savings.h"
#include "iosage/validate.h"
#include "iosage/rules.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The document this library builds and renders (docs/report.md). */
#define IOSAGE_REPORT_SCHEMA "iosage-report"
#define IOSAGE_REPORT_VERSION 1

enum iosage_report_format {
    IOSAGE_REPORT_TEXT = 0,
    IOSAGE_REPORT_MARKDOWN = 1,
    IOSAGE_REPORT_HTML = 2,
    IOSAGE_REPORT_JSON = 3
};

struct iosage_report_options {
    int color; /* TEXT only: nonzero = ANSI colour and bold */
};

/*
 * Parse a format name: "text", "md" (or "markdown"), "html", "json".
 * Returns 0 and sets *out, or -1 for an unknown name.
 */
IOSAGE_API int iosage_report_format_parse(const char *name,
                                          enum iosage_report_format *out);

/*
 * Check that doc is a report document this library knows: a JSON object
 * with "schema": "iosage-report" and "version": 1. Returns IOSAGE_OK, or
 * IOSAGE_E_USAGE (not an object) / IOSAGE_E_VERSION (another schema or
 * version) with a one-line message in err.
 */
IOSAGE_API iosage_status iosage_report_check(const json_t *doc,
                                             iosage_error *err);

/*
 * Render doc in format f. o may be NULL (no colour). On success *out is a
 * new NUL-terminated buffer (caller frees) and *len its length without the
 * NUL. On failure *out is NULL, *len 0, and err says why: the checks of
 * iosage_report_check, IOSAGE_E_USAGE for a bad format or NULL argument,
 * IOSAGE_E_NOMEM.
 *
 * Fields the document lacks, or holds with the wrong type, render as
 * "n/a" (or are left out, for lists); they are not an error.
 */
IOSAGE_API iosage_status iosage_report_render(const json_t *doc,
                                              enum iosage_report_format f,
                                              const struct iosage_report_options *o,
                                              char **out, size_t *len,
                                              iosage_error *err);

/* --- the rule baseline's view -------------------------------------------- */

/* The result as one JSON object (no newline), in a malloc'd string the
 * caller frees; NULL on no memory. path (may be NULL) is echoed as "log".
 *   {"schema":1,"log":"...","nprocs":4,"run_time":2.5,"io_time":1.2,
 *    "slowest_rank_io_share":0.4,"gated":false,"healthy":false,
 *    "summary":"...","patterns":[{"id":"access_granularity",
 *    "detected":true,"rule_holds":true,"value":0.97,"reason":"..."},...]} */
IOSAGE_API char *iosage_rules_to_json(const struct iosage_rule_result *r,
                                      const char *path);

/* --- The tables of `iosage eval` (docs/evaluation.md) --------------------- */

/* One split's metrics: the summary lines, then precision, recall, F1 and
 * support per pattern ("-" where a value is undefined). */
IOSAGE_API void iosage_report_eval_text(FILE *f, const struct iosage_metrics *m,
                                        const char *split);

/* The same for mt[0] the models, mt[1] a random forest and mt[2] the rule
 * baseline, as two Markdown tables. */
IOSAGE_API void iosage_report_eval_compare(FILE *f,
                                           const struct iosage_metrics mt[3],
                                           const char *split);

/* Leave one kernel out: one Markdown row per kernel. */
IOSAGE_API void iosage_report_eval_loko(FILE *f,
                                        const struct iosage_loko_row *rows,
                                        size_t n, int trees);

/* --- The views of `iosage validate` (docs/validation.md) ------------------ */

/* One scenario as text: baseline, labeler, advice, verdict, and per change
 * the kernel and wall seconds with their speedup and interval. */
IOSAGE_API void iosage_report_validate_text(FILE *out,
                                            const struct iosage_validate_run *run);

/* Every scenario as the iosage-validate JSON document (o: the runs and
 * warm-ups used). */
IOSAGE_API void iosage_report_validate_json(FILE *out,
                                            const struct iosage_validate_run *runs,
                                            int n,
                                            const struct iosage_validate_options *o);

/* Every scenario's changes as rows of the Markdown table. */
IOSAGE_API void iosage_report_validate_markdown(
    FILE *out, const struct iosage_validate_run *runs, int n);

/* --- The tables of `iosage savings` (docs/evaluation.md) ----------------- */

/* The disagreements of the savings labels (every row that does not pay or
 * where the labeler differs), then one Markdown row per pattern. */
IOSAGE_API void iosage_report_savings_labels(
    FILE *out, const struct iosage_savings_table *t,
    const struct iosage_savings_agreement *a);

/* The cross-validated figures of the savings models: one Markdown row per
 * change, the top-ranked and healthy lines, the healthy misses. */
IOSAGE_API void iosage_report_savings_eval(
    FILE *out, const struct iosage_savings_eval *e, int by_kernel);

/* --- The archive's answers (`iosage archive QUERY`) ---------------------- */

enum iosage_table_format {
    IOSAGE_TABLE_TEXT = 0, /* aligned columns, cells cleaned of controls */
    IOSAGE_TABLE_CSV = 1,  /* formula prefixes and controls neutralized */
    IOSAGE_TABLE_JSON = 2  /* an array of objects, strings exact */
};

/* One query table of the archive on out (src/report/archive_tables.c). */
IOSAGE_API void iosage_report_archive_table(FILE *out,
                                            const iosage_archive_table *t,
                                            enum iosage_table_format format);

/* --- The archive dashboard (`iosage archive site`) ----------------------- */

/* Rows of the top-N tables of the overview (applications, users, jobs). */
#define IOSAGE_SITE_TOP_ROWS 10

/* The archive's query tables the pages show (iosage_archive_query: info,
 * weeks, patterns, apps, users, and the job table). */
struct iosage_site_tables {
    const iosage_archive_table *info, *weeks, *patterns, *apps, *users, *jobs;
    const char *has_report; /* per job row: 1 when jobs/<id>.html exists */
};

/* The overview page (index.html) and the job table page (jobs.html) as
 * HTML: malloc'd, the caller frees it, *len set; NULL when out of memory. */
IOSAGE_API char *iosage_report_site_overview(const struct iosage_site_tables *t,
                                             size_t *len);
IOSAGE_API char *iosage_report_site_jobs(const struct iosage_site_tables *t,
                                         size_t *len);

#ifdef __cplusplus
}
#endif
#endif
