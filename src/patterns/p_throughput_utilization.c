/*
 * src/patterns/p_throughput_utilization.c - storage used below what it
 * offers.
 *
 * Criterion (LABELING.md; add() and verdict() below),
 * any of, each material (>= 10% of the job's I/O time):
 *   syncs:   at least 100 fsync/fdatasync (MPI_File_sync when no POSIX
 *            record) beyond 2 per rank and file (the ones at close), and at
 *            least 1 per 10 writes of those files; time = the files' time;
 *   one OST: a shared data file of at least 1 GiB written by at least 16
 *            ranks with a Lustre stripe count of 1; time = the file's time;
 *   re-read: data files whose bytes read are at least 2x their extent
 *            (highest offset + 1); time = their read time (a file read by
 *            every rank at start-up counts only its reads).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ios_patterns.h"

static const char *const key_features[] = {
    "sync_extra_per_write", "sync_per_write_log", "lustre_stripe_count_log",
    "lustre_mib_per_ost_log", "lustre_single_ost_write_share",
    "reread_time_share", "posix_reread_ratio_log", "posix_reread_byte_share",
    NULL};

/* The model sees only the key features and these, the other inputs of the
 * criterion (training's feature_sets, src/model/train.c). */
static const char *const model_features[] = {
    "mpiio_sync_per_write_log", "stdio_flush_per_write_log", NULL};

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

/* The criterion of LABELING.md on the table's layer view (the labeler
 * applies the healthy gate, not this):
 * Any of, each material: syncs after most writes (>= 100 beyond 2 per rank
 * and file, and >= 1 per 10 writes of those records); a shared file of
 * >= 1 GiB written by >= 16 ranks on one Lustre OST; data read again (bytes
 * read >= 2x the file's extent). Its sums over the files added so far: */
struct tu_scan {
    double syncs, sync_writes, sync_time, ost_time, rr_time, rr_max;
    double sync_ops, ost_ops, rr_ops;
    int64_t ost_files, rr_files;
};
_Static_assert(sizeof(struct tu_scan) <= IOS_CRITERION_SUMS, "sums fit");

static void tu_file(const struct fl_file *f, struct tu_scan *s)
{
    const struct fl_layer *sl = f->L[FL_POSIX]->present ? f->L[FL_POSIX] : f->L[FL_MPIIO];
    if (sl->counted_syncs > 0) { /* sync time is booked as write time */
        s->syncs += sl->counted_syncs;
        s->sync_writes += (double)sl->writes_synced;
        s->sync_time += fl_dir_time(f, 1);
        s->sync_ops += fl_dir_ops(f, 1);
    }
    /* Bytes as the file system sees them (POSIX first: collective buffering
     * may leave one aggregator writing); writers at the interface the ranks
     * call (the counted layers). */
    int64_t bw = fl_low_layer(f)->bytes_w, wr = 0;
    for (int k = 0; k < FL_NLAYERS; k++)
        if (fl_counted(f, k) && f->L[k]->write_ranks > wr)
            wr = f->L[k]->write_ranks;
    if (f->lustre_stripes == 1 && fl_is_shared(f) && bw >= (int64_t)1 << 30 && wr >= 16) {
        s->ost_files++;
        s->ost_time += fl_file_time(f);
        s->ost_ops += (double)fl_file_ops(f);
    }
    int64_t ext = fl_file_extent(f), br = 0;
    for (int k = 0; k < FL_NLAYERS; k++)
        if (f->L[k]->max_byte >= 0 && f->L[k]->bytes_r > br)
            br = f->L[k]->bytes_r;
    /* Under MPI-IO the application's reads are MPI-IO's: POSIX reads that
     * MPI-IO made itself (data sieving, collective buffering) do not count
     * (the same rule as the feature's scan, src/features/scan.c). */
    if (f->L[FL_MPIIO]->present && f->L[FL_MPIIO]->bytes_r < br)
        br = f->L[FL_MPIIO]->bytes_r;
    if (ext > 0 && (double)br >= 2.0 * (double)ext) {
        s->rr_files++; /* the reads are what repeats */
        s->rr_time += fl_dir_time(f, 0);
        s->rr_ops += fl_dir_ops(f, 0);
        if ((double)br / (double)ext > s->rr_max)
            s->rr_max = (double)br / (double)ext;
    }
}

static void add(void *sums, const struct fl_table *t, size_t from, size_t to)
{
    struct tu_scan *s = sums;
    for (size_t i = from; i < to; i++)
        if (fl_is_data(&t->files[i]))
            tu_file(&t->files[i], s);
}

static void verdict(const void *sums, const struct fl_table *t, int *present,
                    double *value, char *ev, size_t size)
{
    const struct tu_scan *s = sums;
    double ms = fl_material(t, s->sync_time, s->sync_ops);
    double mo = fl_material(t, s->ost_time, s->ost_ops);
    double mr = fl_material(t, s->rr_time, s->rr_ops);
    int by_sync = s->syncs >= 100 && s->syncs >= 0.1 * s->sync_writes &&
                  ms >= IOSAGE_LABEL_MATERIAL;
    int by_ost = s->ost_files > 0 && mo >= IOSAGE_LABEL_MATERIAL;
    int by_rr = s->rr_files > 0 && mr >= IOSAGE_LABEL_MATERIAL;
    *present = by_sync || by_ost || by_rr;
    *value = by_sync ? ms : 0;
    *value = by_ost && mo > *value ? mo : *value;
    *value = by_rr && mr > *value ? mr : *value;
    if (size == 0)
        return; /* the verdict alone (rule, with_reason 0) */
    char c1[32], c2[32], p1[16], p2[16], p3[16];
    snprintf(ev, size,
             "%ssyncs: %s counted for %s writes, %s of I/O time; %sone-OST shared "
             "files >= 1 GiB written by >= 16 ranks: %lld, %s of I/O time; %sre-read: "
             "%lld file(s) read up to %.3gx their extent, %s of I/O time in reads",
             by_sync ? "[yes] " : "", ios_fmt_label_count(c1, sizeof c1, s->syncs),
             ios_fmt_label_count(c2, sizeof c2, s->sync_writes), ios_fmt_label_pct(p1, sizeof p1, ms),
             by_ost ? "[yes] " : "", (long long)s->ost_files, ios_fmt_label_pct(p2, sizeof p2, mo),
             by_rr ? "[yes] " : "", (long long)s->rr_files, s->rr_max,
             ios_fmt_label_pct(p3, sizeof p3, mr));
}

static const struct iosage_criterion_steps steps = {add, verdict};

static void rule(const iosage_log *log, const iosage_file_table *t,
                 int with_reason, struct iosage_rule_verdict *v)
{
    (void)log;
    ios_rule_verdict_steps(&steps, t, with_reason, v);
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

/* Offline advice: the share of the I/O time, the main file and the change
 * (see src/advise/findings.c for the shares of every pattern). */
static void finding(const iosage_file_table *t, struct iosage_pattern_finding *f)
{
    struct ios_scan sync, ost, reread;
    ios_scan_syncs(t, &sync);
    ios_scan_single_ost(t, &ost);
    ios_scan_reread(t, &reread);
    double m_sync = sync.count > 0 ? ios_material_share(t, sync.time, sync.ops)
                                   : -1.0;
    double m_ost = ost.files > 0 ? ios_material_share(t, ost.time, ost.ops) : -1.0;
    double m_re = reread.files > 0
                      ? ios_material_share(t, reread.time, reread.ops) : -1.0;
    f->change_id = "drop_syncs";
    f->share = m_sync;
    f->row = sync.top[0];
    if (m_ost > f->share) {
        f->change_id = "stripe_wide";
        f->share = m_ost;
        f->row = ost.top[0];
    }
    if (m_re > f->share) {
        f->change_id = "read_once";
        f->share = m_re;
        f->row = reread.top[0];
    }
    if (f->share < 0.0) /* the model saw it, the criteria did not */
        f->share = 0.0;
}

/* The change ids of docs/report.md for this pattern. */
/* The config-file settings each change looks for (offline advice). */
static const char *const keys_stripe_wide[] = {
    "lfs setstripe -c", "striping_factor", NULL};

static const struct iosage_pattern_change changes[] = {
    {"drop_syncs",
     "Remove the fsync/fdatasync after each write; sync once at the end (or "
     "at checkpoints).",
     "Writes go to the page cache and the storage at full speed instead of "
     "waiting for each one to reach the disk.",
     "Durability after each write is a requirement.", NULL},
    {"stripe_wide",
     "Stripe the large shared file over more OSTs (lfs setstripe -c on its "
     "directory before it is created).",
     "The file's bandwidth grows with the number of OSTs it is striped over.",
     "The file is small, or few ranks write it.",
     keys_stripe_wide},
    {"read_once",
     "Read the data once and keep it in memory (or cache it), instead of "
     "reading the same bytes again.",
     "The repeated reads, and their share of the I/O time, disappear.",
     "The data does not fit in memory, or it changes between the reads.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* Floor (docs/report.md "Floors"): never reported, whatever a model's
 * score, below syncs beyond 2 per rank and file, per POSIX write: at least 0.05; or
 * the read time of files read at least 2x their extent: at least 5% of the
 * job's I/O time; or the bytes written to files striped over one OST: at
 * least half of those written to files with Lustre data, with shared files
 * holding at least a tenth of the data. One OST per file is the usual
 * layout for a file per rank, not narrow striping: the public
 * sample-goodost.darshan (IOR, 48 ranks, a 1 GiB file each on one OST) got
 * "Storage underused, score 0.98" beside its own evidence "no file meets
 * the written criteria, 0.0% of the I/O time". No run of data/hpc-runs or
 * data/bench-runs labeled with the pattern is under the shared share. */
static const struct iosage_pattern_floor floors[] = {
    {"sync_extra_per_write", 0.05, 0, NULL, 0.0, NULL},
    {"reread_time_share", 0.05, 1, NULL, 0.0, NULL},
    {"lustre_single_ost_write_share", 0.5, 0, "file_shared_byte_share", 0.1, NULL},
    {NULL, 0.0, 0, NULL, 0.0, NULL},
};

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
    .model_features = model_features,
    .evidence = evidence,
    .rule = rule,
    .steps = &steps,
    .finding = finding,
    .changes = changes,
    .advice_rank = 0,
    .floors = floors,
    .abbrev = "TU",
};
