/*
 * ios_numfmt.h - numbers for people (numfmt.c). Every function writes into
 * buf (size bytes; 32 is always enough) and returns it.
 *
 * Three families, one per kind of output; they differ in digits and
 * spacing and are kept apart so that no output changes:
 *
 *   the report documents     evidence lines,           the labeler's TSV
 *   (text, md, html, json)   reasons (patterns,        evidence
 *                            rules, advise)
 *   ios_fmt_doc_bytes        ios_fmt_bytes             ios_fmt_label_bytes
 *     "1.50 KiB"               "1.5 KiB"                 "1.5 KiB" (3 digits)
 *   ios_fmt_doc_count        ios_fmt_count             ios_fmt_label_count
 *     "12,345"                 "12.3 k"                  "12.3k"
 *   ios_fmt_doc_pct          ios_fmt_pct               ios_fmt_label_pct
 *     "4.2%", "25%"            "<1%", "4.2%", "25%"      "4.2%" (2 digits)
 *   ios_fmt_doc_secs         ios_fmt_secs
 *     "1 h 06 min"             "1.1 h"
 *   ios_fmt_doc_num          (feature values, 4 significant digits)
 *   ios_fmt_doc_score        (model scores, "0.99")
 */
#ifndef IOS_COMMON_NUMFMT_H
#define IOS_COMMON_NUMFMT_H

#include <stddef.h>

/* --- the report documents --- */
char *ios_fmt_doc_bytes(char *buf, size_t n, double bytes); /* "1.5 GiB" */
char *ios_fmt_doc_secs(char *buf, size_t n, double secs);   /* "12.3 s", "4.1 ms" */
char *ios_fmt_doc_pct(char *buf, size_t n, double share);   /* 0.253 -> "25%" */
char *ios_fmt_doc_count(char *buf, size_t n, double v);     /* "12,345" */
char *ios_fmt_doc_num(char *buf, size_t n, double v);       /* "0.734", "1.2e+06" */
char *ios_fmt_doc_score(char *buf, size_t n, double v);     /* 0.9932 -> "0.99" */

/* --- evidence lines and reasons --- */
/* "5700", "12.3 k", "1.2 M", "3.4 G" (buf of at least 16 bytes). */
const char *ios_fmt_count(char *buf, size_t size, double n);
/* "80 B", "3.8 KiB", "1.2 GiB". */
const char *ios_fmt_bytes(char *buf, size_t size, double bytes);
/* "71%", "<1%", "4.2%" (one decimal under 10%). */
const char *ios_fmt_pct(char *buf, size_t size, double share);
/* "0.42 s", "3.1 ms", "2.5 h" style seconds. */
const char *ios_fmt_secs(char *buf, size_t size, double s);

/* --- the labeler's evidence: "13.4k", "35%", "3.35 KiB" --- */
char *ios_fmt_label_count(char *buf, size_t size, double v);
char *ios_fmt_label_pct(char *buf, size_t size, double share);
char *ios_fmt_label_bytes(char *buf, size_t size, double bytes);

#endif
