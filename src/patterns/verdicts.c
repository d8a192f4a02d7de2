/*
 * src/patterns/verdicts.c - the criteria of every registered pattern on one
 * log's table, the files walked once (ios_rule_verdicts, for the labeler).
 *
 * Each criterion is a walk over the table's files and their layers: about
 * 230 bytes a file, so on a log of 10^6 files each walk reads some 230 MB
 * from memory, and the six criteria that walk files read it six times. In
 * steps (struct iosage_criterion_steps), every criterion takes a block of
 * files in turn while the block is in the caches: the block comes from
 * memory once. A criterion's sums are the same as in one loop, since the
 * files are added in the same order.
 */
#include <stddef.h>
#include <string.h>

#include "ios_patterns.h"

/* Files a block: 1,024 files and their layers are about 230 KB, well
 * inside a core's second-level cache. */
#define BLOCK_FILES 1024

/* One criterion's running sums, aligned for any member. */
union sums {
    max_align_t align;
    unsigned char bytes[IOS_CRITERION_SUMS];
};

static void verdict_of(const struct iosage_criterion_steps *steps,
                       const union sums *s, const struct fl_table *t,
                       int with_reason, struct iosage_rule_verdict *v)
{
    memset(v, 0, sizeof *v);
    steps->verdict(s->bytes, t, &v->detected, &v->value, v->reason,
                   with_reason ? sizeof v->reason : 0);
}

void ios_rule_verdict_steps(const struct iosage_criterion_steps *steps,
                            const iosage_file_table *ft, int with_reason,
                            struct iosage_rule_verdict *v)
{
    const struct fl_table *t = ios_ft_layers(ft);
    union sums s;
    memset(&s, 0, sizeof s);
    steps->add(s.bytes, t, 0, t->n);
    verdict_of(steps, &s, t, with_reason, v);
}

void ios_rule_verdicts(const iosage_log *log, const iosage_file_table *ft,
                       int with_reason, struct iosage_rule_verdict *v)
{
    const struct fl_table *t = ios_ft_layers(ft);
    int n = iosage_pattern_count();
    const struct iosage_criterion_steps *steps[IOSAGE_MAX_PATTERNS];
    union sums s[IOSAGE_MAX_PATTERNS];
    for (int p = 0; p < n; p++) {
        steps[p] = iosage_pattern_get(p)->steps;
        memset(&s[p], 0, sizeof s[p]);
    }
    for (size_t from = 0; from < t->n; from += BLOCK_FILES) {
        size_t to = t->n - from > BLOCK_FILES ? from + BLOCK_FILES : t->n;
        for (int p = 0; p < n; p++)
            if (steps[p])
                steps[p]->add(s[p].bytes, t, from, to);
    }
    for (int p = 0; p < n; p++) {
        if (steps[p])
            verdict_of(steps[p], &s[p], t, with_reason, &v[p]);
        else
            iosage_pattern_get(p)->rule(log, ft, with_reason, &v[p]);
    }
}
