/*
 * src/patterns/ios_patterns.h - helpers shared by the pattern files (and by
 * the modules that build on them: rules, advise): number
 * formatting for evidence lines and reasons, file labels, materiality.
 *
 * Files of this folder: util.c (these helpers), p_<id>.c (one pattern
 * each: texts, key features, evidence, the criterion the labeler applies,
 * the finding and the changes of offline advice), pattern_list.c (the
 * list), registry.c (lookups over it), verdicts.c (every criterion on a
 * table in one walk over its files, for the labeler).
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

/*
 * A criterion in steps (struct iosage_pattern's steps): add() folds the
 * files [from, to) of t, in file order, into the running sums, which start
 * as IOS_CRITERION_SUMS zero bytes; verdict() then does what the one-walk
 * criterion does after its loop. Summing block by block in file order
 * gives the same sums to the bit as one loop over all files.
 */
#define IOS_CRITERION_SUMS 256 /* bytes of a criterion's sums, at most */
struct iosage_criterion_steps {
    void (*add)(void *sums, const struct fl_table *t, size_t from, size_t to);
    void (*verdict)(const void *sums, const struct fl_table *t, int *present,
                    double *value, char *ev, size_t size);
};

/* A pattern's rule from its steps: every file in one block. */
void ios_rule_verdict_steps(const struct iosage_criterion_steps *steps,
                            const iosage_file_table *t, int with_reason,
                            struct iosage_rule_verdict *v);

/* Every registered pattern's rule on the table of log into v[i] for
 * pattern i (iosage_pattern_count() of them): the patterns with steps in
 * one walk over the files, block by block; the others by their rule. The
 * verdicts are those of the rules one by one. */
void ios_rule_verdicts(const iosage_log *log, const iosage_file_table *t,
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
