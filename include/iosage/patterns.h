/*
 * iosage/patterns.h - the registry of I/O bottleneck patterns.
 *
 * Each pattern (ids as in ../shared/darshan-logs/LABELING.md) is code plus
 * data, defined in one file src/patterns/p_<id>.c: its id, abbreviation and
 * display name, the behaviour it names, the change it calls for and when
 * that change does not apply (the text of the design's pattern table), the
 * names of its key features (for the cards), an evidence extractor (the
 * files and ranks that carry the pattern, with numbers), its criterion
 * (the rule of LABELING.md, which the labeler applies: iosage/label.h), the
 * finding offline advice starts from (share of the I/O time, main file,
 * change id) and its changes (the change ids of docs/report.md with their
 * texts). `iosage rules` is the Drishti-like baseline, a different thing.
 *
 * Adding a pattern is one new file plus one line in
 * src/patterns/pattern_list.c (and a sweep entry in src/gen/sweep.c for
 * runs that show it). Patterns are static data: nothing to free. Nothing
 * here prints.
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
#define IOSAGE_TEXT_MAX 240    /* bytes of one evidence line */
#define IOSAGE_REASON_MAX 320  /* bytes of a rule's reason (the labeler's
                                  evidence line) */

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
    double value;  /* the criterion's main measured value (pattern-specific,
                      e.g. the share of the job's I/O time in the files
                      that carry it; the ratio of the slowest rank's I/O
                      time to the mean rank's) */
    char reason[IOSAGE_REASON_MAX]; /* the numbers behind the decision: the
                                       labeler's evidence line */
};

/* A change a pattern calls for: a change id of docs/report.md and the text
 * offline advice starts from. */
struct iosage_pattern_change {
    const char *id;       /* "larger_requests" */
    const char *text;     /* what to do */
    const char *effect;   /* the expected effect */
    const char *when_not; /* when not to apply it */
    /* The settings of the job's config files (docs/config-files.md) the
     * change looks for, in order, NULL-terminated; NULL: none. Offline
     * advice names the first one found that the change should alter. */
    const char *const *config_keys;
};

/* What offline advice starts from for a detected pattern. */
struct iosage_pattern_finding {
    double share;          /* share (0..1) of the job's I/O time carrying it */
    int row;               /* table row of the main file, or -1 */
    const char *change_id; /* one of the pattern's changes, chosen from the
                              table */
    /* Non-zero when the table shows the change's "when not to apply" holds
     * (docs/pfs.md, validation under emulation): the finding stays, no
     * change is proposed, and held_why (one evidence line) says why. */
    int held;
    char held_why[400];
};

/* A floor on a pattern's defining quantity, a feature of the feature vector
 * (docs/features.md): below every one of its floors a pattern is never
 * reported, whatever a model's score (docs/report.md "Floors"). */
struct iosage_pattern_floor {
    const char *feature;  /* feature name */
    double min;           /* the floor: the feature must reach it */
    int time_share;       /* 1: a share of the job's I/O time, not measured
                             when the log has no I/O time (then the floor
                             does not apply) */
    const char *also;     /* NULL, or a second feature that must reach
                             also_min as well for this floor to be reached
                             (a quantity that means the pattern only in
                             some files: one OST is narrow for a shared
                             file, the usual layout for a file per rank) */
    double also_min;
    const char *also_count; /* NULL, or what the second feature counts when
                               it is lg(1 + a count): the text then gives
                               the count ("80 metadata operations < 750") */
};

struct iosage_criterion_steps; /* internal: src/patterns/ios_patterns.h */

struct iosage_pattern {
    const char *id;            /* "access_granularity", ... */
    const char *name;          /* display name */
    const char *behaviour;     /* what the job does */
    const char *change;        /* the change template */
    const char *not_applicable; /* when the change does not apply */
    const char *const *key_features; /* feature names, NULL-terminated */
    /* The features the pattern's model is trained on besides its key
     * features (training's feature_sets, iosage/model.h), NULL-terminated;
     * NULL: every feature. */
    const char *const *model_features;
    /* Fill ev from the table (log may be used for names and job data). */
    void (*evidence)(const iosage_log *log, const iosage_file_table *t,
                     struct iosage_evidence *ev);
    /* Apply the pattern's criterion of LABELING.md to the table t of log
     * (without the healthy gate); the labeler (iosage_label_log) calls it
     * for every pattern. Builds nothing: t is the one table of the log.
     * with_reason 0 leaves out->reason empty: the verdict alone, without
     * formatting its numbers (a batch asks for every log). */
    void (*rule)(const iosage_log *log, const iosage_file_table *t,
                 int with_reason, struct iosage_rule_verdict *out);
    /* Optional, for the registered patterns (NULL: the labeler calls
     * rule): the same criterion in steps over blocks of files, so that the
     * labeler walks a log's files once for every pattern, each block while
     * it is in the caches, instead of once a pattern. Internal
     * (src/patterns/ios_patterns.h). */
    const struct iosage_criterion_steps *steps;
    /* The share, main file and change of the pattern in t (offline advice;
     * f is zeroed with row -1 before the call). */
    void (*finding)(const iosage_file_table *t, struct iosage_pattern_finding *f);
    /* The pattern's changes, ended by an entry with a NULL id. */
    const struct iosage_pattern_change *changes;
    /* Root-cause order for ranking findings of equal share: lower first (a
     * change of an earlier pattern also fixes the later ones of the same
     * files). */
    int advice_rank;
    const char *abbrev;        /* two letters for the labeler's one-line
                                  evidence ("AG") */
    /* Floors on the defining quantity, ended by an entry with a NULL
     * feature; the pattern may be reported when any one is reached. NULL:
     * no floor. */
    const struct iosage_pattern_floor *floors;
};

/* Number of registered patterns (<= IOSAGE_MAX_PATTERNS). */
IOSAGE_API int iosage_pattern_count(void);

/* Pattern i in registry order, or NULL out of range. */
IOSAGE_API const struct iosage_pattern *iosage_pattern_get(int i);

/* Pattern by id, or NULL; and its index, or -1. */
IOSAGE_API const struct iosage_pattern *iosage_pattern_find(const char *id);
IOSAGE_API int iosage_pattern_index(const char *id);

/* Does the feature row x (IOSAGE_NUM_FEATURES values) reach one of p's
 * floors (or has p none, or are its floors not measured)? 1 yes: p may be
 * reported; 0 no: it is never reported, and when why is not NULL it gets
 * the values against their floors, e.g. "rank_time_imbalance 0.045 <
 * 0.2, rank_bytes_imbalance 0.0123 < 0.2", or for a floor with a second
 * feature whose first is reached "lustre_single_ost_write_share 1 but
 * file_shared_byte_share 0 < 0.1", or for a count "job_meta_time_share
 * 0.998 but 64 metadata operations < 750" (NUL-terminated, cut to size). */
IOSAGE_API int iosage_pattern_floor_met(const struct iosage_pattern *p,
                                        const float *x, char *why,
                                        size_t size);

/* The change change_id of pattern p, or NULL. */
IOSAGE_API const struct iosage_pattern_change *iosage_pattern_change_find(
    const struct iosage_pattern *p, const char *change_id);

#ifdef __cplusplus
}
#endif
#endif
