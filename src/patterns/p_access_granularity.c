/*
 * src/patterns/p_access_granularity.c - many small reads or writes.
 *
 * Criterion (LABELING.md; the rule below is src/label/criteria.c): requests under 1 MiB are at least half of the reads
 * or of the writes of the data files that carry them, at least 1,000 such
 * requests in the job, and those files carry at least 10% of the job's I/O
 * time. Requests are counted as the file system saw them: POSIX/DFS and
 * STDIO rows, and MPI-IO rows only for files without a POSIX row (collective
 * buffering can turn few large MPI-IO requests into many small POSIX ones,
 * and the reverse).
 */
#include "ios_patterns.h"

static const char *const key_features[] = {
    "job_small_op_share", "job_small_file_time_share", "posix_small_write_share",
    "posix_small_read_share", "posix_tiny_op_share", "mpiio_small_op_share",
    "posix_write_size_log", "posix_read_size_log", NULL};

/* The criterion of LABELING.md, as the labeler (src/label) applies it,
 * without the healthy gate: one implementation of the criteria. */
static void rule(const iosage_log *log, const iosage_file_table *t,
                 struct iosage_rule_verdict *v)
{
    (void)t;
    ios_label_rule(log, IOSAGE_LABEL_ACCESS_GRANULARITY, v);
}

/* "<file>: 98% of 1.2 M writes under 1 MiB (average 4.0 KiB), 71% of I/O
 * time" for the direction with more small requests. */
static void one_line(const iosage_file_table *t, const struct iosage_file_row *r,
                     struct iosage_evidence *ev)
{
    int wr = r->small_writes >= r->small_reads;
    double ops = (double)(wr ? r->writes : r->reads);
    double small = (double)(wr ? r->small_writes : r->small_reads);
    double bytes = (double)(wr ? r->bytes_written : r->bytes_read);
    char lab[200], p1[16], c[32], avg[32], p2[16];
    ios_ev_add(ev, "%s: %s of %s %s %s under 1 MiB (average %s), %s of I/O time",
               ios_file_label(lab, sizeof lab, r),
               ios_fmt_pct(p1, sizeof p1, ios_share(small, ops)),
               ios_fmt_count(c, sizeof c, ops), iosage_module_name(r->module),
               wr ? "writes" : "reads",
               ios_fmt_bytes(avg, sizeof avg, ios_ratio(bytes, ops)),
               ios_fmt_pct(p2, sizeof p2,
                           ios_material_share(t, r->file_time,
                                              ios_sadd(r->reads, r->writes))));
}

static void evidence(const iosage_log *log, const iosage_file_table *t,
                     struct iosage_evidence *ev)
{
    (void)log;
    struct ios_scan s;
    ios_scan_small(t, &s);
    for (int k = 0; k < 3 && s.top[k] >= 0; k++)
        one_line(t, &t->rows[s.top[k]], ev);
}

const struct iosage_pattern ios_pattern_access_granularity = {
    .id = "access_granularity",
    .name = "Small I/O requests",
    .behaviour = "The job reads or writes in many small requests (under "
                 "1 MiB), so the cost per request, not the bandwidth, sets "
                 "its I/O time.",
    .change = "Make transfers of at least 1 MiB: buffer and aggregate small "
              "writes in memory, read larger blocks, or let collective MPI-IO "
              "(or the I/O library) merge the requests.",
    .not_applicable = "The small requests carry only a negligible share of "
                      "the I/O time.",
    .key_features = key_features,
    .evidence = evidence,
    .rule = rule,
};
