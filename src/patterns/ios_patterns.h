/*
 * src/patterns/ios_patterns.h - helpers shared by the pattern files (and by
 * the modules that build on them: rules, advise): number
 * formatting for evidence lines and reasons, file labels, materiality.
 *
 * Files of this folder: util.c (these helpers), p_<id>.c (one pattern
 * each: texts, key features, evidence, and the rule, which is the
 * labeler's criterion), registry.c (the list).
 */
#ifndef IOS_PATTERNS_IOS_PATTERNS_H
#define IOS_PATTERNS_IOS_PATTERNS_H

#include <stddef.h>
#include <stdint.h>

#include "ios_features.h"
#include "ios_numfmt.h"
#include "iosage/label.h"
#include "iosage/patterns.h"

/* LABELING.md: the operations showing a pattern are material when they
 * carry at least this share of the job's I/O time. */
#define IOS_MATERIAL 0.10

/* Numbers in evidence lines and reasons: ios_fmt_count, ios_fmt_bytes,
 * ios_fmt_pct, ios_fmt_secs (ios_numfmt.h). */

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
