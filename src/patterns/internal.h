/*
 * src/patterns/internal.h - helpers shared by the pattern files: number
 * formatting for evidence lines and reasons, file labels, materiality.
 *
 * Files of this folder: util.c (these helpers), p_<id>.c (one pattern
 * each: texts, key features, evidence, and the rule, which is the
 * labeler's criterion), registry.c (the list).
 */
#ifndef IOS_PATTERNS_INTERNAL_H
#define IOS_PATTERNS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "features/internal.h"
#include "iosage/label.h"
#include "iosage/patterns.h"

/* LABELING.md: the operations showing a pattern are material when they
 * carry at least this share of the job's I/O time. */
#define IOS_MATERIAL 0.10

/* "5700", "12.3 k", "1.2 M", "3.4 G" (buf of at least 16 bytes). */
const char *ios_fmt_count(char *buf, size_t size, double n);
/* "80 B", "3.8 KiB", "1.2 GiB". */
const char *ios_fmt_bytes(char *buf, size_t size, double bytes);
/* "71%", "<1%", "4.2%" (one decimal under 10%). */
const char *ios_fmt_pct(char *buf, size_t size, double share);
/* "0.42 s", "3.1 ms", "2.5 h" style seconds. */
const char *ios_fmt_secs(char *buf, size_t size, double s);

/* "out.h5 (shared by 256 ranks)", "rsl.out.0003 (rank-private)": base name
 * of the row's path plus how many ranks used it. */
const char *ios_file_label(char *buf, size_t size,
                           const struct iosage_file_row *row);

/* Share of the job's I/O time that time represents; when the job has no
 * timers, the share of its top-layer data ops that ops represents. */
double ios_material_share(const iosage_file_table *t, double time, int64_t ops);

/* Append one formatted line to ev (ignored when ev is full). */
void ios_ev_add(struct iosage_evidence *ev, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A pattern's rule: the labeler's criterion p (enum iosage_label_pattern,
 * iosage/label.h) on log, without the healthy gate, into v (detected,
 * value, reason = the labeler's evidence line). Out of memory: not
 * detected, the reason says so. */
void ios_label_rule(const iosage_log *log, int p, struct iosage_rule_verdict *v);

#endif
