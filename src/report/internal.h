/*
 * src/report/internal.h - shared pieces of the report views.
 *
 *   out.c     rep_out, a growable text buffer (first allocation failure
 *             sets oom; later appends do nothing; check once at the end);
 *   clean.c   making document strings safe: rep_clean turns any bytes into
 *             printable UTF-8 (\xNN / \uNNNN for what is not), rep_put
 *             appends a string cleaned and escaped for one view;
 *   doc.c     tolerant access to the document (a missing field or a wrong
 *             type gives NULL / "n/a", never a crash) and the version check;
 *   common.c  sentences every view shows the same way (verdict, advice
 *             source), built as plain text that each view escapes;
 *   summary.c the rows of the summary block, the same way;
 *   text.c, markdown.c, html.c (+ html_sections.c, svg.c)  the views.
 *
 * Strings returned by the rep_* accessors point into the document; they
 * live as long as it does.
 */
#ifndef IOSAGE_REPORT_INTERNAL_H
#define IOSAGE_REPORT_INTERNAL_H

#include <stddef.h>

#include <jansson.h>

#include "ios_common.h"
#include "iosage/report.h"

/* ---- out.c -------------------------------------------------------------- */
/* p is NUL-terminated when len > 0; oom: an allocation failed, the content
 * is incomplete (see ios_text). */
typedef ios_text rep_out;

void rep_putn(rep_out *o, const char *s, size_t n);
void rep_puts(rep_out *o, const char *s);
void rep_putc(rep_out *o, char c);
void rep_printf(rep_out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void rep_repeat(rep_out *o, const char *s, int times);
void rep_out_free(rep_out *o);

/* ---- clean.c ------------------------------------------------------------ */
enum rep_escape {
    REP_PLAIN = 0, /* cleaned only (terminal text) */
    REP_MD = 1,    /* cleaned, Markdown specials and pipes escaped, no HTML */
    REP_HTML = 2   /* cleaned, & < > " ' as entities (also for SVG text) */
};

/* Append s (may be NULL: "n/a") cleaned, then escaped for mode e. */
void rep_put(rep_out *o, const char *s, enum rep_escape e);
/* Append s cleaned only: invalid UTF-8 bytes -> "\xNN", control characters
 * and bidi overrides -> "\xNN" / "\uNNNN". */
void rep_clean(rep_out *o, const char *s);
/* Number of characters (code points) in valid UTF-8 s. */
size_t rep_width(const char *s, size_t n);
/* Return a copy of v whose strings and keys are valid UTF-8 (invalid bytes
 * become U+FFFD); NULL when out of memory. For the JSON view. */
json_t *rep_json_utf8(const json_t *v);

/* Numbers: ios_fmt_doc_* (src/common/ios_numfmt.h). */

/* ---- doc.c -------------------------------------------------------------- */
const json_t *rep_obj(const json_t *o, const char *key);  /* object or NULL */
const json_t *rep_arr(const json_t *o, const char *key);  /* array or NULL */
const char *rep_str(const json_t *o, const char *key);    /* string or NULL */
/* Number (integer or real) at key: 1 and *v set, else 0. */
int rep_num(const json_t *o, const char *key, double *v);
/* Boolean at key, or dflt when missing / not a boolean. */
int rep_bool(const json_t *o, const char *key, int dflt);
/* Element i of array a as a number, 0 when it is not one. */
double rep_at_num(const json_t *a, size_t i);
/* Helpers that format a field for display into buf ("n/a" when missing). */
char *rep_field_bytes(char *buf, size_t n, const json_t *o, const char *key);
char *rep_field_secs(char *buf, size_t n, const json_t *o, const char *key);
char *rep_field_pct(char *buf, size_t n, const json_t *o, const char *key);
char *rep_field_count(char *buf, size_t n, const json_t *o, const char *key);
char *rep_field_num(char *buf, size_t n, const json_t *o, const char *key);
char *rep_field_score(char *buf, size_t n, const json_t *o, const char *key);

/* ---- summary.c ---------------------------------------------------------- */
/* Summary row i (0, 1, ...): appends its plain text (not yet cleaned or
 * escaped) to o and returns its label; "" for a row the document lacks
 * (Lustre when null), NULL past the last row. */
const char *rep_summary_row(rep_out *o, const json_t *sum, int i);

/* ---- common.c: plain sentences (not yet cleaned or escaped) -------------- */
/* "no bottleneck pattern detected; no change proposed (gate score 0.12 <
 * threshold 0.50)" or "3 bottleneck patterns detected". */
void rep_verdict(rep_out *o, const json_t *doc);
/* "offline rules" / "LLM (provider, model)"; with the fallback reason and
 * dropped count appended when present. */
void rep_advice_source(rep_out *o, const json_t *advice);
/* "exe (job 42, 16 processes, 1,234.5 s run)" */
void rep_job_line(rep_out *o, const json_t *doc);
/* "file: key" / "file" / "key" / "" for a change's "where" object. */
void rep_where(rep_out *o, const json_t *where);

/* A change's expected_saving as one line ("42% of the I/O time (3.10 s of
 * this job), typical range 20% to 60%; learned from 31 measured runs");
 * nothing when the change has none. */
void rep_expected_saving(rep_out *o, const json_t *change);
/* Name of the pattern with id (from detection.patterns), or id itself. */
const char *rep_pattern_name(const json_t *doc, const char *id);

/* ---- the views: append the whole view to o ------------------------------- */
void rep_view_text(rep_out *o, const json_t *doc, int color);
void rep_view_markdown(rep_out *o, const json_t *doc);
void rep_view_html(rep_out *o, const json_t *doc);

/* html_sections.c and svg.c, used by html.c */
void rep_html_summary(rep_out *o, const json_t *doc);
void rep_html_findings(rep_out *o, const json_t *doc);
void rep_html_changes(rep_out *o, const json_t *doc);
void rep_html_configs(rep_out *o, const json_t *doc);
void rep_svg_request_sizes(rep_out *o, const json_t *charts);
void rep_svg_ranks(rep_out *o, const json_t *charts, const char *what);
void rep_svg_scores(rep_out *o, const json_t *detection);
void rep_svg_shap(rep_out *o, const json_t *pattern);

/* ---- site.c, site_svg.c: the archive dashboard ---------------------------- */
/* One series of a chart: a name, a colour and n values. */
struct site_series {
    const char *name;
    const char *color;
    const double *v;
};

/* Grouped bars: for each of n labels (weeks), one bar per series. */
void site_svg_bars(rep_out *out, const char *title, const char *unit,
                   const char *const *labels, size_t n,
                   const struct site_series *s, int n_series);

/* Lines: one polyline per series over n labels. */
void site_svg_lines(rep_out *out, const char *title, const char *unit,
                    const char *const *labels, size_t n,
                    const struct site_series *s, int n_series);

/* s (NULL: nothing) cleaned and escaped for HTML, as rep_put does. */
void site_html(rep_out *out, const char *s);

#endif
