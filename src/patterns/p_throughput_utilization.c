/*
 * src/patterns/p_throughput_utilization.c - storage used below what it
 * offers.
 *
 * Rule (LABELING.md), any of, each material (>= 10% of the job's I/O time):
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

#include "patterns/internal.h"

#define MIN_SYNCS 100
#define SYNCS_PER_WRITE 0.1

static const char *const key_features[] = {
    "sync_extra_per_write", "sync_per_write_log", "lustre_stripe_count_log",
    "lustre_mib_per_ost_log", "lustre_single_ost_write_share",
    "reread_time_share", "posix_reread_ratio_log", "posix_reread_byte_share",
    NULL};

struct tu {
    struct ios_scan sync, ost, reread;
    double m_sync, m_ost, m_reread;
    int by_sync, by_ost, by_reread;
};

static void evaluate(const iosage_file_table *t, struct tu *u)
{
    ios_scan_syncs(t, &u->sync);
    ios_scan_single_ost(t, &u->ost);
    ios_scan_reread(t, &u->reread);
    u->m_sync = ios_material_share(t, u->sync.time, u->sync.ops);
    u->m_ost = ios_material_share(t, u->ost.time, u->ost.ops);
    u->m_reread = ios_material_share(t, u->reread.time, u->reread.ops);
    u->by_sync = u->sync.count >= MIN_SYNCS &&
                 (double)u->sync.count >= SYNCS_PER_WRITE * (double)u->sync.ops &&
                 u->m_sync >= IOS_MATERIAL;
    u->by_ost = u->ost.files > 0 && u->m_ost >= IOS_MATERIAL;
    u->by_reread = u->reread.files > 0 && u->m_reread >= IOS_MATERIAL;
}

static void rule(const iosage_log *log, const iosage_file_table *t,
                 struct iosage_rule_verdict *v)
{
    (void)log;
    struct tu u;
    char c1[32], c2[32], p1[16], p2[16], p3[16];
    evaluate(t, &u);
    v->detected = u.by_sync || u.by_ost || u.by_reread;
    v->value = u.by_sync ? u.m_sync : 0.0;
    v->value = u.by_ost && u.m_ost > v->value ? u.m_ost : v->value;
    v->value = u.by_reread && u.m_reread > v->value ? u.m_reread : v->value;
    ios_reason(v, "syncs: %s extra for %s writes, %s of I/O time%s; one-OST "
               "shared files >= 1 GiB: %lld, %s%s; re-read files: %lld, %s of "
               "I/O time in reads%s",
               ios_fmt_count(c1, sizeof c1, (double)u.sync.count),
               ios_fmt_count(c2, sizeof c2, (double)u.sync.ops),
               ios_fmt_pct(p1, sizeof p1, u.m_sync), u.by_sync ? " [yes]" : "",
               (long long)u.ost.files, ios_fmt_pct(p2, sizeof p2, u.m_ost),
               u.by_ost ? " [yes]" : "", (long long)u.reread.files,
               ios_fmt_pct(p3, sizeof p3, u.m_reread), u.by_reread ? " [yes]" : "");
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
