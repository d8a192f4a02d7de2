/*
 * src/patterns/p_access_pattern.c - nonsequential offsets.
 *
 * Criterion (LABELING.md; the rule below is src/label/criteria.c): in data files where at least 20% of the POSIX data
 * operations are not sequential (SEQ_READS/SEQ_WRITES count every access
 * that starts after the previous one ended, so strided-but-forward access is
 * sequential), there are at least 1,000 such operations, and those files
 * carry at least 10% of the job's I/O time.
 */
#include "ios_patterns.h"

static const char *const key_features[] = {
    "posix_nonseq_op_share", "posix_nonseq_file_time_share",
    "posix_seq_read_share", "posix_seq_write_share", "posix_consec_read_share",
    "posix_consec_write_share", "posix_stride_top4_share",
    "posix_rw_switches_per_op", NULL};

/* The criterion of LABELING.md, as the labeler (src/label) applies it,
 * without the healthy gate: one implementation of the criteria. */
static void rule(const iosage_log *log, const iosage_file_table *t,
                 struct iosage_rule_verdict *v)
{
    (void)t;
    ios_label_rule(log, IOSAGE_LABEL_ACCESS_PATTERN, v);
}

static void evidence(const iosage_log *log, const iosage_file_table *t,
                     struct iosage_evidence *ev)
{
    (void)log;
    struct ios_scan s;
    char lab[200], p1[16], c1[32], c2[32], p2[16];
    ios_scan_nonseq(t, &s);
    for (int k = 0; k < 3 && s.top[k] >= 0; k++) {
        const struct iosage_file_row *r = &t->rows[s.top[k]];
        double ops = (double)r->reads + (double)r->writes;
        double nonseq = ops - (double)r->seq_ops;
        ios_ev_add(ev, "%s: %s of %s POSIX ops not sequential (%s), %s of I/O time",
                   ios_file_label(lab, sizeof lab, r),
                   ios_fmt_pct(p1, sizeof p1, ios_share(nonseq, ops)),
                   ios_fmt_count(c1, sizeof c1, ops),
                   ios_fmt_count(c2, sizeof c2, nonseq),
                   ios_fmt_pct(p2, sizeof p2,
                               ios_material_share(t, r->file_time, ios_d2i(ops))));
    }
}

const struct iosage_pattern ios_pattern_access_pattern = {
    .id = "access_pattern",
    .name = "Non-sequential access",
    .behaviour = "Requests jump backwards in the file instead of moving "
                 "forward, which defeats read-ahead and write-behind.",
    .change = "Sort or batch the offsets so that each rank accesses the file "
              "in increasing order; for scattered small reads use MPI-IO data "
              "sieving.",
    .not_applicable = "The data layout fixes the order, or sieving would "
                      "read far more data than is needed.",
    .key_features = key_features,
    .evidence = evidence,
    .rule = rule,
};
