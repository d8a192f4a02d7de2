/*
 * iosage/patterns.h - the registry of I/O bottleneck patterns.
 *
 * Each pattern (ids as in ../shared/darshan-logs/LABELING.md) is code plus
 * data, defined in one file src/patterns/p_<id>.c: its id and display name,
 * the behaviour it names, the change it calls for and when that change does
 * not apply (the text of the design's pattern table), the names of its key
 * features (for the cards), an evidence extractor (the files and ranks that
 * carry the pattern, with numbers) and a threshold rule (the criteria of
 * LABELING.md). The criteria have one implementation, the labeler's
 * (src/label, iosage/label.h): a pattern's rule is
 * iosage_label_criterion() for that pattern, so it agrees with `iosage
 * label` except that it has no healthy gate. `iosage rules` is the
 * Drishti-like baseline, a different thing.
 *
 * Adding a pattern is one new file plus one line in src/patterns/registry.c.
 * Patterns are static data: nothing to free. Nothing here prints.
 */
#ifndef IOSAGE_PATTERNS_H
#define IOSAGE_PATTERNS_H

#include "iosage/darshan.h"
#include "iosage/error.h"
#include "iosage/features.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IOSAGE_MAX_PATTERNS 16 /* capacity of result arrays */
#define IOSAGE_EVIDENCE_LINES 3
#define IOSAGE_TEXT_MAX 240    /* bytes of one evidence line or reason */

/* Up to IOSAGE_EVIDENCE_LINES lines, each one sentence with numbers, e.g.
 * "out.h5 (shared by 256 ranks): 98% of 1.2 M writes under 1 MiB, 71% of
 * the job's I/O time". Lines are NUL-terminated, without a newline. */
struct iosage_evidence {
    int n_lines;
    char line[IOSAGE_EVIDENCE_LINES][IOSAGE_TEXT_MAX];
};

/* What a pattern's threshold rule found. */
struct iosage_rule_verdict {
    int detected;  /* 1 when every criterion holds */
    double value;  /* the main measured value (pattern-specific, e.g. the
                      share of I/O time that carries it; the value of
                      iosage_label_criterion) */
    char reason[IOSAGE_TEXT_MAX]; /* the numbers behind the decision: the
                                     labeler's evidence line */
};

struct iosage_pattern {
    const char *id;            /* "access_granularity", ... */
    const char *name;          /* display name */
    const char *behaviour;     /* what the job does */
    const char *change;        /* the change template */
    const char *not_applicable; /* when the change does not apply */
    const char *const *key_features; /* feature names, NULL-terminated */
    /* Fill ev from the table (log may be used for names and job data). */
    void (*evidence)(const iosage_log *log, const iosage_file_table *t,
                     struct iosage_evidence *ev);
    /* Apply the pattern's criteria (without the healthy gate): the
     * labeler's criterion (iosage_label_criterion); t is not used. */
    void (*rule)(const iosage_log *log, const iosage_file_table *t,
                 struct iosage_rule_verdict *out);
};

/* Number of registered patterns (<= IOSAGE_MAX_PATTERNS). */
IOSAGE_API int iosage_pattern_count(void);

/* Pattern i in registry order, or NULL out of range. */
IOSAGE_API const struct iosage_pattern *iosage_pattern_get(int i);

/* Pattern by id, or NULL; and its index, or -1. */
IOSAGE_API const struct iosage_pattern *iosage_pattern_find(const char *id);
IOSAGE_API int iosage_pattern_index(const char *id);

#ifdef __cplusplus
}
#endif
#endif
