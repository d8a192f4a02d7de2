/*
 * src/patterns/ios_patterns.h - helpers shared by the pattern files (and by
 * the modules that build on them: rules, advise): number
 * formatting for evidence lines and reasons, file labels, materiality.
 *
 * Files of this folder: util.c (these helpers), p_<id>.c (one pattern
 * each: texts, key features, evidence, the criterion the labeler applies,
 * the finding and the changes of offline advice), pattern_list.c (the
 * list), registry.c (lookups over it).
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

/* A pattern's criterion of LABELING.md over the table's layer view
 * (ios_file_layers.h): sets *present (0/1), *value (the criterion's main
 * measured value) and writes one evidence line into ev, unless size is 0.
 * No healthy gate. */
typedef void (*ios_criterion)(const struct fl_table *t, int *present,
                              double *value, char *ev, size_t size);

/* A pattern's rule: its criterion on t into v (detected, value, and the
 * reason when with_reason is set). */
void ios_rule_verdict(ios_criterion criterion, const iosage_file_table *t,
                      int with_reason, struct iosage_rule_verdict *v);

/* The file's MPI-IO row (r itself or its peer), or NULL. */
const struct iosage_file_row *ios_mpiio_row(const iosage_file_table *t,
                                            const struct iosage_file_row *r);

/* Is row r a file accessed mostly with independent MPI-IO calls? */
int ios_independent_mpiio(const iosage_file_table *t,
                          const struct iosage_file_row *r);

/* A finding from what scan s found: share, main row, change as the change
 * id; returns the main row, or NULL when there is none. */
const struct iosage_file_row *ios_finding_from_scan(
    const iosage_file_table *t, const struct ios_scan *s, const char *change,
    struct iosage_pattern_finding *f);

#endif
