/*
 * src/label/criteria.c - the seven criteria of LABELING.md over the file
 * table. Each function decides one pattern and writes one evidence line;
 * the healthy gate is applied by the caller (label.c), not here.
 */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

#define MIB 1048576.0

/* --- access_granularity ---------------------------------------------------
 * Small requests are at least half of the reads (or writes) of the data
 * files that carry them, at least 1,000 such requests, and those files are
 * material. Counted per file and direction at the POSIX level (what the
 * file system sees; MPI-IO only when there is no POSIX record) plus STDIO.
 * The time that must be material is the read (write) time of the files
 * whose reads (writes) are small, at the layer whose time counts. */
static double small_dir(const struct lb_layer *l, int wr)
{
    double small = wr ? l->small_w : l->small_r;
    double ops = (double)(wr ? l->writes : l->reads);
    return small > 0 && small >= 0.5 * ops ? small : 0;
}

static double dir_time(const struct lb_file *f, int wr)
{
    double s = 0;
    for (int k = 0; k < LB_NLAYERS; k++)
        if (lb_counted(f, k))
            s += wr ? f->L[k].t_write : f->L[k].t_read;
    return s;
}

static double dir_ops(const struct lb_file *f, int wr)
{
    double s = 0;
    for (int k = 0; k < LB_NLAYERS; k++)
        if (lb_counted(f, k))
            s += (double)(wr ? f->L[k].writes : f->L[k].reads);
    return s;
}

/* The layer whose request sizes count for a file: POSIX (or DFS), the
 * requests the file system sees, else MPI-IO when the log has no POSIX
 * record of the file. */
static const struct lb_layer *low_layer(const struct lb_file *f)
{
    if (f->L[LB_POSIX].present)
        return &f->L[LB_POSIX];
    if (f->L[LB_DFS].present)
        return &f->L[LB_DFS];
    return &f->L[LB_MPIIO];
}

void lb_access_granularity(const struct lb_table *t, int *present, double *value,
                           char *ev, size_t size)
{
    double n_small = 0, all_small = 0, all_ops = 0, time = 0, ops = 0;
    int64_t files = 0;
    for (size_t i = 0; i < t->n; i++) {
        const struct lb_file *f = &t->files[i];
        if (!lb_is_data(f))
            continue;
        const struct lb_layer *low = low_layer(f), *st = &f->L[LB_STDIO];
        int carries = 0;
        for (int wr = 0; wr < 2; wr++) {
            double n = small_dir(low, wr) + small_dir(st, wr);
            if (n <= 0)
                continue;
            n_small += n;
            carries = 1;
            time += dir_time(f, wr);
            ops += dir_ops(f, wr);
        }
        files += carries;
        all_small += low->small_r + low->small_w + st->small_r + st->small_w;
        all_ops += (double)(low->reads + low->writes + st->reads + st->writes);
    }
    double mat = lb_material(t, time, ops);
    *present = n_small >= IOSAGE_LABEL_MIN_OPS && mat >= IOSAGE_LABEL_MATERIAL;
    *value = mat;
    char c[32], p1[16], p2[16];
    snprintf(ev, size,
             "%s requests <1 MiB on %lld data file(s) where they are >= half of "
             "reads or writes, %s of I/O time (data ops: %s small)",
             ios_fmt_label_count(c, sizeof c, n_small), (long long)files,
             ios_fmt_label_pct(p1, sizeof p1, mat),
             ios_fmt_label_pct(p2, sizeof p2, all_ops > 0 ? all_small / all_ops : 0));
}

/* --- metadata_intensity ---------------------------------------------------
 * Metadata time (META_TIME of the counted layers, every file) is at least
 * 30% of the job's I/O time, with at least 1,000 metadata operations
 * (opens, stats, seeks, syncs; Darshan has no close counter). */
void lb_metadata_intensity(const struct lb_table *t, int *present, double *value,
                           char *ev, size_t size)
{
    double meta = 0, ops = 0;
    for (size_t i = 0; i < t->n; i++) {
        const struct lb_file *f = &t->files[i];
        for (int k = 0; k < LB_NLAYERS; k++) {
            const struct lb_layer *l = &f->L[k];
            if (lb_counted(f, k))
                meta += l->t_meta;
            /* Operations are counted where the file system sees them:
             * POSIX (also under MPI-IO), DFS, STDIO; MPI-IO only for files
             * without a POSIX record. */
            if (k == LB_MPIIO && (f->L[LB_POSIX].present || f->L[LB_DFS].present))
                continue;
            if (l->present)
                ops += (double)(l->opens + l->stats + l->seeks + l->syncs);
        }
    }
    double share = t->io_time > 0 ? meta / t->io_time : 0;
    *present = share >= 0.30 && ops >= IOSAGE_LABEL_MIN_OPS;
    *value = share;
    char c[32], p[16];
    snprintf(ev, size, "metadata %s of I/O time, %s metadata ops",
             ios_fmt_label_pct(p, sizeof p, share), ios_fmt_label_count(c, sizeof c, ops));
}

/* --- parallelism_efficiency -----------------------------------------------
 * nprocs > 1, the slowest rank's I/O time (or the rank moving most bytes) is
 * at least 2x the mean rank's, and that rank spends at least 10% of the run
 * time in I/O. */
void lb_parallelism_efficiency(const struct lb_table *t, int *present, double *value,
                               char *ev, size_t size)
{
    int64_t n = t->nprocs, slow = 0, big = 0;
    double sum_t = 0, sum_b = 0;
    for (int64_t r = 0; r < n; r++) {
        sum_t += t->rank_time[r];
        sum_b += t->rank_bytes[r];
        if (t->rank_time[r] > t->rank_time[slow])
            slow = r;
        if (t->rank_bytes[r] > t->rank_bytes[big])
            big = r;
    }
    double mean_t = sum_t / (double)n, mean_b = sum_b / (double)n;
    double rt = mean_t > 0 ? t->rank_time[slow] / mean_t : 0;
    double rb = mean_b > 0 ? t->rank_bytes[big] / mean_b : 0;
    double st = t->run_time > 0 ? t->rank_time[slow] / t->run_time : 0;
    double sb = t->run_time > 0 ? t->rank_time[big] / t->run_time : 0;
    int by_time = rt >= 2.0 && st >= 0.10;
    int by_bytes = rb >= 2.0 && sb >= 0.10;
    *present = n > 1 && (by_time || by_bytes);
    *value = rt > rb ? rt : rb;
    char p1[16], p2[16];
    snprintf(ev, size,
             "slowest rank %.3gx mean I/O time (%s of run), max-bytes rank %.3gx "
             "mean bytes (%s of run)",
             rt, ios_fmt_label_pct(p1, sizeof p1, st), rb, ios_fmt_label_pct(p2, sizeof p2, sb));
}

/* --- access_pattern ---------------------------------------------------------
 * At least 20% of a data file's reads (or writes) are not sequential (offset
 * below the previous end: ops - SEQ_*), at least 1,000 such operations, and
 * their read (write) time is material. Only POSIX keeps SEQ counters. */
void lb_access_pattern(const struct lb_table *t, int *present, double *value,
                       char *ev, size_t size)
{
    double nonseq = 0, all_ns = 0, all_ops = 0, time = 0, fops = 0;
    int64_t files = 0;
    for (size_t i = 0; i < t->n; i++) {
        const struct lb_file *f = &t->files[i];
        const struct lb_layer *l = &f->L[LB_POSIX];
        if (!lb_is_data(f) || !l->has_seq)
            continue;
        int carries = 0;
        for (int wr = 0; wr < 2; wr++) {
            double ops = (double)(wr ? l->writes : l->reads);
            double ns = ops - (double)(wr ? l->seq_w : l->seq_r);
            ns = ns > 0 ? ns : 0;
            all_ns += ns;
            all_ops += ops;
            if (ops <= 0 || ns < 0.20 * ops)
                continue;
            nonseq += ns;
            carries = 1;
            time += dir_time(f, wr);
            fops += dir_ops(f, wr);
        }
        files += carries;
    }
    double mat = lb_material(t, time, fops);
    *present = nonseq >= IOSAGE_LABEL_MIN_OPS && mat >= IOSAGE_LABEL_MATERIAL;
    *value = mat;
    char c[32], p1[16], p2[16];
    snprintf(ev, size,
             "%s non-sequential ops on %lld data file(s) >= 20%% non-sequential, "
             "%s of I/O time (data ops: %s non-seq)",
             ios_fmt_label_count(c, sizeof c, nonseq), (long long)files,
             ios_fmt_label_pct(p1, sizeof p1, mat),
             ios_fmt_label_pct(p2, sizeof p2, all_ops > 0 ? all_ns / all_ops : 0));
}

/* --- interface_choice -------------------------------------------------------
 * A shared data file whose data operations are at least 90% POSIX or
 * independent MPI-IO, with small requests (average under 1 MiB) or requests
 * that are not contiguous per rank, carrying material I/O. */
struct ic_file {
    double indep, ops;   /* data ops: POSIX or independent MPI-IO, and all */
    double iops, bytes;  /* ops and bytes at the interface layer */
    int noncontig;
};

static void ic_measure(const struct lb_file *f, struct ic_file *c)
{
    const struct lb_layer *p = &f->L[LB_POSIX];
    c->indep = c->ops = c->iops = c->bytes = 0;
    if (f->L[LB_MPIIO].present) {
        const struct lb_layer *m = &f->L[LB_MPIIO];
        c->indep = (double)m->indep_ops;
        c->ops = c->iops = (double)(m->indep_ops + m->coll_ops);
        c->bytes = (double)(m->bytes_r + m->bytes_w);
    } else if (p->present) {
        c->indep = c->ops = c->iops = (double)(p->reads + p->writes);
        c->bytes = (double)(p->bytes_r + p->bytes_w);
    }
    /* STDIO and DFS operations are neither POSIX nor MPI-IO. */
    for (int k = LB_STDIO; k <= LB_DFS; k++)
        if (lb_counted(f, k))
            c->ops += (double)(f->L[k].reads + f->L[k].writes);
    /* Not contiguous: the requests reach the file system in pieces under
     * 1 MiB (an MPI-IO request split by a file view or a datatype). Large
     * disjoint blocks per rank do not count, interleaved or not. */
    double pops = (double)(p->reads + p->writes);
    double pbytes = (double)(p->bytes_r + p->bytes_w);
    c->noncontig = f->L[LB_MPIIO].present && pops > 0 && pbytes / pops < MIB;
}

void lb_interface_choice(const struct lb_table *t, int *present, double *value,
                         char *ev, size_t size)
{
    double time = 0, fops = 0;
    int64_t files = 0;
    char detail[160] = "";
    for (size_t i = 0; i < t->n; i++) {
        const struct lb_file *f = &t->files[i];
        if (!lb_is_data(f) || !lb_is_shared(f))
            continue;
        struct ic_file c;
        ic_measure(f, &c);
        double indep_share = c.ops > 0 ? c.indep / c.ops : 0;
        double avg = c.iops > 0 ? c.bytes / c.iops : 0;
        if (c.ops <= 0 || indep_share < 0.90 || (avg >= MIB && !c.noncontig))
            continue;
        files++;
        time += lb_file_time(f);
        fops += (double)lb_file_ops(f);
        if (!detail[0]) {
            const char *base = f->path ? f->path : "(unnamed)";
            for (const char *s = base; *s; s++)
                if (*s == '/')
                    base = s + 1;
            snprintf(detail, sizeof detail, " [%.60s %s %.0f%% indep, %.0f ops, avg %.0f B%s]",
                     base, f->L[LB_MPIIO].present ? "MPI-IO" : "POSIX",
                     100 * indep_share, c.ops, avg, c.noncontig ? ", POSIX pieces < 1 MiB" : "");
        }
    }
    double mat = lb_material(t, time, fops);
    *present = files > 0 && mat >= IOSAGE_LABEL_MATERIAL;
    *value = mat;
    char p[16];
    snprintf(ev, size,
             "%lld shared data file(s), >= 90%% POSIX/independent MPI-IO ops, small "
             "or non-contiguous requests, %s of I/O time%s",
             (long long)files, ios_fmt_label_pct(p, sizeof p, mat), detail);
}

/* --- file_strategy -----------------------------------------------------------
 * Too many files for the work: >= 1,000 data files; or >= 64 with at least
 * one per rank and a median size under 4 MiB; or >= 10 per rank and >= 64;
 * and those files are material. */
static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

void lb_file_strategy(const struct lb_table *t, int *present, double *value,
                      char *ev, size_t size)
{
    int64_t n = 0;
    double time = 0, fops = 0;
    int64_t *sizes = t->scratch; /* t->n entries */
    for (size_t i = 0; i < t->n; i++) {
        const struct lb_file *f = &t->files[i];
        if (!lb_is_data(f))
            continue;
        int64_t ext = lb_file_extent(f);
        if (ext <= 0) {
            ext = 0;
            for (int k = 0; k < LB_NLAYERS; k++)
                if (f->L[k].bytes_r + f->L[k].bytes_w > ext)
                    ext = f->L[k].bytes_r + f->L[k].bytes_w;
        }
        sizes[n++] = ext;
        time += lb_file_time(f);
        fops += (double)lb_file_ops(f);
    }
    double median = 0;
    if (n > 0) {
        qsort(sizes, (size_t)n, sizeof *sizes, cmp_i64);
        median = n % 2 ? (double)sizes[n / 2]
                       : ((double)sizes[n / 2 - 1] + (double)sizes[n / 2]) / 2;
    }
    double per_rank = (double)n / (double)t->nprocs;
    int many = n >= 1000 || (n >= 64 && per_rank >= 1 && median < 4 * MIB) ||
               (per_rank >= 10 && n >= 64);
    double mat = lb_material(t, time, fops);
    *present = many && mat >= IOSAGE_LABEL_MATERIAL;
    *value = (double)n;
    char p[16], b[32];
    snprintf(ev, size, "%lld data files (%.3g per rank, median %s), %s of I/O time",
             (long long)n, per_rank, ios_fmt_label_bytes(b, sizeof b, median),
             ios_fmt_label_pct(p, sizeof p, mat));
}

/* --- throughput_utilization -------------------------------------------------
 * Any of, each material: syncs after most writes (>= 100 beyond 2 per rank
 * and file, and >= 1 per 10 writes of those records); a shared file of
 * >= 1 GiB written by >= 16 ranks on one Lustre OST; data read again (bytes
 * read >= 2x the file's extent). */
struct tu_scan {
    double syncs, sync_writes, sync_time, ost_time, rr_time, rr_max;
    double sync_ops, ost_ops, rr_ops;
    int64_t ost_files, rr_files;
};

static void tu_file(const struct lb_file *f, struct tu_scan *s)
{
    const struct lb_layer *sl = f->L[LB_POSIX].present ? &f->L[LB_POSIX] : &f->L[LB_MPIIO];
    if (sl->counted_syncs > 0) { /* sync time is booked as write time */
        s->syncs += sl->counted_syncs;
        s->sync_writes += (double)sl->writes_synced;
        s->sync_time += dir_time(f, 1);
        s->sync_ops += dir_ops(f, 1);
    }
    /* Bytes as the file system sees them (POSIX first: collective buffering
     * may leave one aggregator writing); writers at the interface the ranks
     * call (the counted layers). */
    int64_t bw = low_layer(f)->bytes_w, wr = 0;
    for (int k = 0; k < LB_NLAYERS; k++)
        if (lb_counted(f, k) && f->L[k].write_ranks > wr)
            wr = f->L[k].write_ranks;
    if (f->lustre_stripes == 1 && lb_is_shared(f) && bw >= (int64_t)1 << 30 && wr >= 16) {
        s->ost_files++;
        s->ost_time += lb_file_time(f);
        s->ost_ops += (double)lb_file_ops(f);
    }
    int64_t ext = lb_file_extent(f), br = 0;
    for (int k = 0; k < LB_NLAYERS; k++)
        if (f->L[k].max_byte >= 0 && f->L[k].bytes_r > br)
            br = f->L[k].bytes_r;
    if (ext > 0 && (double)br >= 2.0 * (double)ext) {
        s->rr_files++; /* the reads are what repeats */
        s->rr_time += dir_time(f, 0);
        s->rr_ops += dir_ops(f, 0);
        if ((double)br / (double)ext > s->rr_max)
            s->rr_max = (double)br / (double)ext;
    }
}

void lb_throughput_utilization(const struct lb_table *t, int *present, double *value,
                               char *ev, size_t size)
{
    struct tu_scan s = {0};
    for (size_t i = 0; i < t->n; i++)
        if (lb_is_data(&t->files[i]))
            tu_file(&t->files[i], &s);
    double ms = lb_material(t, s.sync_time, s.sync_ops);
    double mo = lb_material(t, s.ost_time, s.ost_ops);
    double mr = lb_material(t, s.rr_time, s.rr_ops);
    int by_sync = s.syncs >= 100 && s.syncs >= 0.1 * s.sync_writes &&
                  ms >= IOSAGE_LABEL_MATERIAL;
    int by_ost = s.ost_files > 0 && mo >= IOSAGE_LABEL_MATERIAL;
    int by_rr = s.rr_files > 0 && mr >= IOSAGE_LABEL_MATERIAL;
    *present = by_sync || by_ost || by_rr;
    *value = by_sync ? ms : 0;
    *value = by_ost && mo > *value ? mo : *value;
    *value = by_rr && mr > *value ? mr : *value;
    char c1[32], c2[32], p1[16], p2[16], p3[16];
    snprintf(ev, size,
             "%ssyncs: %s counted for %s writes, %s of I/O time; %sone-OST shared "
             "files >= 1 GiB written by >= 16 ranks: %lld, %s of I/O time; %sre-read: "
             "%lld file(s) read up to %.3gx their extent, %s of I/O time in reads",
             by_sync ? "[yes] " : "", ios_fmt_label_count(c1, sizeof c1, s.syncs),
             ios_fmt_label_count(c2, sizeof c2, s.sync_writes), ios_fmt_label_pct(p1, sizeof p1, ms),
             by_ost ? "[yes] " : "", (long long)s.ost_files, ios_fmt_label_pct(p2, sizeof p2, mo),
             by_rr ? "[yes] " : "", (long long)s.rr_files, s.rr_max,
             ios_fmt_label_pct(p3, sizeof p3, mr));
}
