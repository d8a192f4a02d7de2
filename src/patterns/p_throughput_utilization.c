/*
 * src/patterns/p_throughput_utilization.c - storage used below what it
 * offers.
 *
 * Criterion (LABELING.md; the rule below is src/label/criteria.c), any of, each material (>= 10% of the job's I/O time):
 *   syncs:   at least 100 fsync/fdatasync (MPI_File_sync when no POSIX
 *            record) beyond 2 per rank and file (the ones at close), and at
 *            least 1 per 10 writes of those files; time = the files' time;
 *   one OST: a shared data file of at least 1 GiB written by at least 16
 *            ranks with a Lustre stripe count of 1; time = the file's time;
 *   re-read: data files whose bytes read are at least 2x their extent
 *            (highest offset + 1); time = their read time (a file read by
 *            every rank at start-up counts only its reads).
 */
#include <string.h>

#include "ios_patterns.h"

static const char *const key_features[] = {
    "sync_extra_per_write", "sync_per_write_log", "lustre_stripe_count_log",
    "lustre_mib_per_ost_log", "lustre_single_ost_write_share",
    "reread_time_share", "posix_reread_ratio_log", "posix_reread_byte_share",
    NULL};

/* The files behind each of the three criteria (for the evidence). */
struct tu {
    struct ios_scan sync, ost, reread;
};

static void evaluate(const iosage_file_table *t, struct tu *u)
{
    ios_scan_syncs(t, &u->sync);
    ios_scan_single_ost(t, &u->ost);
    ios_scan_reread(t, &u->reread);
}

/* The criterion of LABELING.md, as the labeler (src/label) applies it,
 * without the healthy gate: one implementation of the criteria. */
static void rule(const iosage_log *log, const iosage_file_table *t,
                 struct iosage_rule_verdict *v)
{
    (void)t;
    ios_label_rule(log, IOSAGE_LABEL_THROUGHPUT_UTILIZATION, v);
}

static void evidence(const iosage_log *log, const iosage_file_table *t,
                     struct iosage_evidence *ev)
{
    (void)log;
    struct tu u;
    char lab[200], c1[32], c2[32], p[16], b[32];
    evaluate(t, &u);
    if (u.sync.top[0] >= 0) {
        const struct iosage_file_row *r = &t->rows[u.sync.top[0]];
        ios_ev_add(ev, "%s: %s syncs for %s writes, %s of I/O time",
                   ios_file_label(lab, sizeof lab, r),
                   ios_fmt_count(c1, sizeof c1, (double)r->syncs),
                   ios_fmt_count(c2, sizeof c2, (double)r->writes),
                   ios_fmt_pct(p, sizeof p, ios_material_share(t, r->file_time, r->writes)));
    }
    if (u.ost.top[0] >= 0) {
        const struct iosage_file_row *r = &t->rows[u.ost.top[0]];
        ios_ev_add(ev, "%s: %s written on one Lustre OST (stripe count 1), %s of I/O time",
                   ios_file_label(lab, sizeof lab, r),
                   ios_fmt_bytes(b, sizeof b, (double)r->bytes_written),
                   ios_fmt_pct(p, sizeof p, ios_material_share(t, r->file_time, 0)));
    }
    if (u.reread.top[0] >= 0) {
        const struct iosage_file_row *r = &t->rows[u.reread.top[0]];
        double ext = (double)(r->max_byte_read > r->max_byte_written
                                  ? r->max_byte_read : r->max_byte_written) + 1.0;
        ios_ev_add(ev, "%s: %s read from a %s extent (%.1fx); %lld such file(s)",
                   ios_file_label(lab, sizeof lab, r),
                   ios_fmt_bytes(c1, sizeof c1, (double)r->bytes_read),
                   ios_fmt_bytes(b, sizeof b, ext),
                   ios_ratio((double)r->bytes_read, ext), (long long)u.reread.files);
    }
}

const struct iosage_pattern ios_pattern_throughput_utilization = {
    .id = "throughput_utilization",
    .name = "Storage underused",
    .behaviour = "The job uses less of the storage than it offers: a sync "
                 "after most writes, a large shared file striped over a "
                 "single Lustre OST, or the same bytes read again and again.",
    .change = "Drop per-write fsync calls; stripe large shared files widely "
              "(lfs setstripe -c); cache data that is read repeatedly, or "
              "read it once.",
    .not_applicable = "Durability after each write is a requirement.",
    .key_features = key_features,
    .evidence = evidence,
    .rule = rule,
};
