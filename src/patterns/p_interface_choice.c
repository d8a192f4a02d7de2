/*
 * src/patterns/p_interface_choice.c - shared-file I/O without collective
 * MPI-IO.
 *
 * Criterion (LABELING.md; add() and verdict() below):
 * shared data files (data moved by at least two ranks)
 * of which at least 90% of the data operations are POSIX or independent
 * MPI-IO, with small requests (average under 1 MiB) or requests that are not
 * contiguous per rank, carry together at least 10% of the job's I/O time.
 * Large disjoint contiguous blocks per rank do not count.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ios_patterns.h"

static const char *const key_features[] = {
    "file_indep_shared_time_share", "mpiio_coll_op_share", "mpiio_op_share",
    "file_shared_time_share", "job_small_op_share", "posix_consec_write_share",
    "mpiio_coll_write_share", NULL};

/* The criterion of LABELING.md on the table's layer view (the labeler
 * applies the healthy gate, not this):
 * A shared data file whose data operations are at least 90% POSIX or
 * independent MPI-IO, with small requests (average under 1 MiB) or requests
 * that are not contiguous per rank, carrying material I/O. */
struct ic_file {
    double indep, ops;   /* data ops: POSIX or independent MPI-IO, and all */
    double iops, bytes;  /* ops and bytes at the interface layer */
    int noncontig;
};

static void ic_measure(const struct fl_file *f, struct ic_file *c)
{
    const struct fl_layer *p = f->L[FL_POSIX];
    c->indep = c->ops = c->iops = c->bytes = 0;
    if (f->L[FL_MPIIO]->present) {
        const struct fl_layer *m = f->L[FL_MPIIO];
        c->indep = (double)m->indep_ops;
        c->ops = c->iops = (double)(m->indep_ops + m->coll_ops);
        c->bytes = (double)(m->bytes_r + m->bytes_w);
    } else if (p->present) {
        c->indep = c->ops = c->iops = (double)(p->reads + p->writes);
        c->bytes = (double)(p->bytes_r + p->bytes_w);
    }
    /* STDIO and DFS operations are neither POSIX nor MPI-IO. */
    for (int k = FL_STDIO; k <= FL_DFS; k++)
        if (fl_counted(f, k))
            c->ops += (double)(f->L[k]->reads + f->L[k]->writes);
    /* Not contiguous: the requests reach the file system in pieces under
     * 1 MiB (an MPI-IO request split by a file view or a datatype). Large
     * disjoint blocks per rank do not count, interleaved or not. */
    double pops = (double)(p->reads + p->writes);
    double pbytes = (double)(p->bytes_r + p->bytes_w);
    c->noncontig = f->L[FL_MPIIO]->present && pops > 0 && pbytes / pops < IOS_MIB;
}

/* The criterion's sums over the files added so far, and the first file
 * that carries the pattern, described. */
struct ic_sums {
    double time, fops;
    int64_t files;
    char detail[160];
};
_Static_assert(sizeof(struct ic_sums) <= IOS_CRITERION_SUMS, "sums fit");

static void add(void *sums, const struct fl_table *t, size_t from, size_t to)
{
    struct ic_sums *s = sums;
    for (size_t i = from; i < to; i++) {
        const struct fl_file *f = &t->files[i];
        if (!fl_is_data(f) || !fl_is_shared(f))
            continue;
        struct ic_file c;
        ic_measure(f, &c);
        double indep_share = c.ops > 0 ? c.indep / c.ops : 0;
        double avg = c.iops > 0 ? c.bytes / c.iops : 0;
        if (c.ops <= 0 || indep_share < 0.90 || (avg >= IOS_MIB && !c.noncontig))
            continue;
        s->files++;
        s->time += fl_file_time(f);
        s->fops += (double)fl_file_ops(f);
        if (!s->detail[0]) {
            const char *base = f->path ? f->path : "(unnamed)";
            for (const char *p = base; *p; p++)
                if (*p == '/')
                    base = p + 1;
            snprintf(s->detail, sizeof s->detail,
                     " [%.60s %s %.0f%% indep, %.0f ops, avg %.0f B%s]", base,
                     f->L[FL_MPIIO]->present ? "MPI-IO" : "POSIX",
                     100 * indep_share, c.ops, avg,
                     c.noncontig ? ", POSIX pieces < 1 MiB" : "");
        }
    }
}

static void verdict(const void *sums, const struct fl_table *t, int *present,
                    double *value, char *ev, size_t size)
{
    const struct ic_sums *s = sums;
    double mat = fl_material(t, s->time, s->fops);
    *present = s->files > 0 && mat >= IOSAGE_LABEL_MATERIAL;
    *value = mat;
    if (size == 0)
        return; /* the verdict alone (rule, with_reason 0) */
    char p[16];
    snprintf(ev, size,
             "%lld shared data file(s), >= 90%% POSIX/independent MPI-IO ops, small "
             "or non-contiguous requests, %s of I/O time%s",
             (long long)s->files, ios_fmt_label_pct(p, sizeof p, mat), s->detail);
}

static const struct iosage_criterion_steps steps = {add, verdict};

static void rule(const iosage_log *log, const iosage_file_table *t,
                 int with_reason, struct iosage_rule_verdict *v)
{
    (void)log;
    ios_rule_verdict_steps(&steps, t, with_reason, v);
}

static void one_line(const iosage_file_table *t, const struct iosage_file_row *r,
                     struct iosage_evidence *ev)
{
    double ops = (double)r->reads + (double)r->writes;
    double bytes = (double)r->bytes_read + (double)r->bytes_written;
    const struct iosage_file_row *px =
        r->module == IOSAGE_MOD_MPIIO ? (r->peer >= 0 ? &t->rows[r->peer] : NULL) : r;
    char lab[200], how[64], c[32], avg[32], p[16];
    if (r->module == IOSAGE_MOD_MPIIO)
        snprintf(how, sizeof how, "MPI-IO %.0f%% independent",
                 100.0 * ios_share((double)r->indep_ops, ops));
    else
        snprintf(how, sizeof how, "%s only", iosage_module_name(r->module));
    ios_ev_add(ev, "%s: %s, %s ops, average %s%s, %s of I/O time",
               ios_file_label(lab, sizeof lab, r), how,
               ios_fmt_count(c, sizeof c, ops),
               ios_fmt_bytes(avg, sizeof avg, ios_ratio(bytes, ops)),
               px && ios_row_noncontig(px) ? ", not contiguous per rank" : "",
               ios_fmt_pct(p, sizeof p,
                           ios_material_share(t, r->file_time, ios_d2i(ops))));
}

static void evidence(const iosage_log *log, const iosage_file_table *t,
                     struct iosage_evidence *ev)
{
    (void)log;
    struct ios_scan s;
    ios_scan_indep_shared(t, &s);
    for (int k = 0; k < 3 && s.top[k] >= 0; k++)
        one_line(t, &t->rows[s.top[k]], ev);
}

/* Large disjoint contiguous blocks, from which collective buffering has
 * nothing to merge: each rank's contiguous run of a shared file spans at
 * least four 1 MiB RPCs / Lustre default stripes (at most the stripes at
 * its ends are shared with another rank), in requests of at least a
 * quarter RPC (their count no longer sets the cost; smaller ones are the
 * small-request case collective buffering merges). */
#define LARGE_BLOCK (4.0 * 1024.0 * 1024.0)
#define LARGE_REQUEST (256.0 * 1024.0)

/* Bytes per contiguous run of one rank on the file of row r, from its
 * POSIX counters (a run starts at every access that does not continue the
 * rank's previous one), and bytes per request into *request; 0 when
 * unknown. */
static double run_bytes(const iosage_file_table *t,
                        const struct iosage_file_row *r, double *request)
{
    *request = 0.0;
    const struct iosage_file_row *px = r;
    if (r->module == IOSAGE_MOD_MPIIO)
        px = r->peer >= 0 && (size_t)r->peer < t->n_rows ? &t->rows[r->peer]
                                                        : NULL;
    if (!px || px->module != IOSAGE_MOD_POSIX || px->consec_ops < 0)
        return 0.0;
    double ops = (double)px->reads + (double)px->writes;
    double runs = ops - (double)px->consec_ops;
    double ranks = (double)(px->ranks > 0 ? px->ranks : 1);
    if (runs < ranks)
        runs = ranks;
    double bytes = (double)px->bytes_read + (double)px->bytes_written;
    *request = ios_ratio(bytes, ops);
    return ios_ratio(bytes, runs);
}

/* Offline advice: the share of the I/O time, the main file and the change
 * (see src/advise/findings.c for the shares of every pattern). Collective
 * I/O is held back when its "when not to apply" holds: the ranks move the
 * shared file in large disjoint contiguous blocks, which reach the servers
 * as full RPCs without lock conflicts already; funnelled through the
 * aggregators they are slower (docs/pfs.md, validation). */
static void finding(const iosage_file_table *t, struct iosage_pattern_finding *f)
{
    struct ios_scan s;
    ios_scan_indep_shared(t, &s);
    const struct iosage_file_row *r =
        ios_finding_from_scan(t, &s, "collective_io", f);
    double req = 0.0, run = r ? run_bytes(t, r, &req) : 0.0;
    if (run >= LARGE_BLOCK && req >= LARGE_REQUEST) {
        char b[32], q[32];
        f->held = 1;
        snprintf(f->held_why, sizeof f->held_why, "collective I/O not "
                 "proposed: each rank moves the shared file in contiguous "
                 "runs of %s in requests of %s on average, large disjoint "
                 "blocks that independent I/O writes as well",
                 ios_fmt_bytes(b, sizeof b, run),
                 ios_fmt_bytes(q, sizeof q, req));
    }
}

/* The change ids of docs/report.md for this pattern. */
/* The config-file settings each change looks for (offline advice). */
static const char *const keys_collective_io[] = {
    "romio_cb_write", "romio_cb_read", "io_form_history", "io_form_restart",
    "OPENPMD_HDF5_INDEPENDENT", NULL};

static const struct iosage_pattern_change changes[] = {
    {"collective_io",
     "Use collective calls (MPI_File_write_all / MPI_File_read_all, or the "
     "I/O library's collective mode) with collective buffering hints "
     "(romio_cb_write=enable, romio_cb_read=enable).",
     "Aggregator ranks write large contiguous pieces of the shared file "
     "instead of every rank sending small independent requests.",
     "The ranks write large disjoint contiguous blocks, where independent I/O "
     "does as well, and the aggregators (one a node by default) would carry "
     "every rank's data through their own links: slower.",
     keys_collective_io},
    {NULL, NULL, NULL, NULL, NULL},
};

/* Floor (docs/report.md "Floors"): never reported, whatever a model's
 * score, below the share of the job's I/O time in shared data files accessed
 * independently in small or non-contiguous requests: at least 5%. */
static const struct iosage_pattern_floor floors[] = {
    {"file_indep_shared_time_share", 0.05, 1, NULL, 0.0, NULL},
    {NULL, 0.0, 0, NULL, 0.0, NULL},
};

const struct iosage_pattern ios_pattern_interface_choice = {
    .id = "interface_choice",
    .name = "Shared file without collective I/O",
    .behaviour = "Ranks access a shared file through POSIX or independent "
                 "MPI-IO calls with small or scattered requests, so the file "
                 "system sees many small, interleaved requests.",
    .change = "Use collective MPI-IO calls (MPI_File_write_all, "
              "MPI_File_read_all) and collective buffering hints, so a few "
              "aggregators issue large contiguous requests.",
    .not_applicable = "The ranks already write large disjoint contiguous "
                      "blocks, where independent I/O performs as well (and "
                      "funnelling them through a few aggregators is slower).",
    .key_features = key_features,
    .evidence = evidence,
    .rule = rule,
    .steps = &steps,
    .finding = finding,
    .changes = changes,
    .advice_rank = 1,
    .floors = floors,
    .abbrev = "IC",
};
