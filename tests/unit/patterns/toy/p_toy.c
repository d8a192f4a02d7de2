/*
 * tests/unit/patterns/toy/p_toy.c - a toy pattern, to show what adding a
 * pattern takes: this one file (texts, criterion, evidence, finding,
 * changes) and one line in the pattern list. Not a real bottleneck.
 *
 * Criterion: data files written in requests of 4 MiB or more on average
 * carry at least 10% of the job's I/O time.
 */
#include <stdio.h>

#include "ios_patterns.h"

#define BIG_REQUEST (4.0 * IOS_MIB)

static const char *const key_features[] = {"posix_write_size_log", NULL};

/* Time and data ops of the data files written in big requests. */
static int big_writes(const struct fl_table *t, double *time, double *ops)
{
    int files = 0;
    *time = *ops = 0;
    for (size_t i = 0; i < t->n; i++) {
        const struct fl_file *f = &t->files[i];
        const struct fl_layer *l = fl_low_layer(f);
        if (!fl_is_data(f) || l->writes <= 0 ||
            (double)l->bytes_w / (double)l->writes < BIG_REQUEST)
            continue;
        files++;
        *time += fl_file_time(f);
        *ops += (double)fl_file_ops(f);
    }
    return files;
}

static void criterion(const struct fl_table *t, int *present, double *value,
                      char *ev, size_t size)
{
    double time, ops;
    int files = big_writes(t, &time, &ops);
    double mat = fl_material(t, time, ops);
    *present = files > 0 && mat >= IOSAGE_LABEL_MATERIAL;
    *value = mat;
    if (size == 0)
        return; /* the verdict alone (rule, with_reason 0) */
    char p[16];
    snprintf(ev, size, "%d data file(s) written in requests >= 4 MiB, %s of I/O time",
             files, ios_fmt_label_pct(p, sizeof p, mat));
}

static void rule(const iosage_log *log, const iosage_file_table *t,
                 int with_reason, struct iosage_rule_verdict *v)
{
    (void)log;
    ios_rule_verdict(criterion, t, with_reason, v);
}

static void evidence(const iosage_log *log, const iosage_file_table *t,
                     struct iosage_evidence *ev)
{
    (void)log;
    double time, ops;
    int files = big_writes(ios_ft_layers(t), &time, &ops);
    if (files > 0)
        ios_ev_add(ev, "%d file(s) written in requests of 4 MiB or more", files);
}

static void finding(const iosage_file_table *t, struct iosage_pattern_finding *f)
{
    double time, ops;
    big_writes(ios_ft_layers(t), &time, &ops);
    f->share = ios_material_share(t, time, (int64_t)ops);
    f->change_id = "smaller_requests";
}

static const struct iosage_pattern_change changes[] = {
    {"smaller_requests", "Write in requests of 1 MiB.", "None: a toy.",
     "Always: a toy.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

const struct iosage_pattern ios_pattern_toy_large_writes = {
    .id = "toy_large_writes",
    .name = "Large writes (toy)",
    .behaviour = "The job writes in requests of 4 MiB or more.",
    .change = "Nothing: a toy pattern of the tests.",
    .not_applicable = "Always.",
    .key_features = key_features,
    .evidence = evidence,
    .rule = rule,
    .finding = finding,
    .changes = changes,
    .advice_rank = 7,
    .abbrev = "TL",
};
