/*
 * output.c - turn the records of every process into one Darshan 3.41 log
 * with the iosage writer: the job record (uid, times, nprocs, jobid,
 * metadata, command line, mount table), one name per record id, and the
 * records of each module in the runtime's order: rank 0's own records, then
 * the shared (rank -1) records, then the other ranks' records (spec 8).
 *
 * Runs once, at exit or MPI_Finalize, with tracing switched off and the
 * calling thread marked busy, so the log write itself is never traced.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iosage/darshan.h"
#include "trace.h"

/* Record version written per layer (the newest: POSIX 4, MPI-IO 3, STDIO 2,
 * H5F 3, H5D 2, PNETCDF_FILE 3, PNETCDF_VAR 1, LUSTRE 2). */
static const uint32_t layer_version[TRC_NLAYERS] = {4, 3, 2, 3, 2, 3, 1, 2};

/* --- job data ------------------------------------------------------------- */

/* The command line from /proc/self/cmdline, arguments joined by blanks, in
 * out[size]. Empty when it cannot be read. */
static void read_cmdline(char *out, size_t size)
{
    out[0] = '\0';
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    ssize_t n = read(fd, out, size - 1);
    close(fd);
    if (n <= 0)
        return;
    while (n > 0 && out[n - 1] == '\0')
        n--;
    for (ssize_t i = 0; i < n; i++)
        if (out[i] == '\0' || out[i] == '\n')
            out[i] = ' ';
    out[n] = '\0';
}

/* Job id from the batch system, else the process id (spec 6.1). */
static int64_t job_id(void)
{
    static const char *const vars[] = {"SLURM_JOB_ID", "PBS_JOBID", NULL};
    for (int i = 0; vars[i]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v >= '0' && *v <= '9')
            return strtoll(v, NULL, 10);
    }
    return (int64_t)getpid();
}

/* Earliest start and latest end over the processes. */
static void job_times(const struct trc_proc *procs, int n, struct iosage_job *job)
{
    for (int r = 0; r < n; r++) {
        const struct trc_proc *p = &procs[r];
        if (r == 0 || p->start_sec < job->start_time_sec ||
            (p->start_sec == job->start_time_sec &&
             p->start_nsec < job->start_time_nsec)) {
            job->start_time_sec = p->start_sec;
            job->start_time_nsec = p->start_nsec;
        }
        if (r == 0 || p->end_sec > job->end_time_sec ||
            (p->end_sec == job->end_time_sec &&
             p->end_nsec > job->end_time_nsec)) {
            job->end_time_sec = p->end_sec;
            job->end_time_nsec = p->end_nsec;
        }
    }
}

/* Fill the job record; mounts must hold room for every recorded mount. */
static void build_job(const struct trc_proc *procs, int n, int nprocs,
                      const char *cmdline, struct iosage_mount *mounts,
                      struct iosage_job *job)
{
    memset(job, 0, sizeof *job);
    job->uid = (int64_t)getuid();
    job->nprocs = nprocs;
    job->jobid = job_id();
    job_times(procs, n, job);
    snprintf(job->metadata, sizeof job->metadata,
             "lib_ver=iosage-trace %s\n", IOSAGE_TRACE_VERSION);
    job->exe = (char *)cmdline;
    const struct trc_mount *m;
    size_t nm = trc_mounts(&m);
    for (size_t i = 0; i < nm; i++) {
        mounts[i].point = m[i].point;
        mounts[i].fs_type = m[i].type;
    }
    job->n_mounts = nm;
    job->mounts = mounts;
}

/* --- log path ------------------------------------------------------------- */

/* IOSAGE_LOG, else <IOSAGE_LOGDIR or .>/<exe basename>_id<jobid>_<pid>.darshan.
 * suffix (e.g. ".rank3") is appended to IOSAGE_LOG when non-empty. This is
 * the first name tried; when a process of the job has written it already,
 * the pid goes in (publish_log). */
static void log_path(const char *cmdline, const char *suffix, char *out,
                     size_t size)
{
    const char *fixed = getenv("IOSAGE_LOG");
    if (fixed && *fixed) {
        snprintf(out, size, "%s%s", fixed, suffix);
        return;
    }
    const char *dir = getenv("IOSAGE_LOGDIR");
    char exe[256];
    size_t n = strcspn(cmdline, " ");
    snprintf(exe, sizeof exe, "%.*s", (int)n, cmdline);
    const char *base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
    if (!*base)
        base = program_invocation_short_name;
    snprintf(out, size, "%s/%s_id%lld_%d.darshan", dir && *dir ? dir : ".",
             base, (long long)job_id(), (int)getpid());
}

/*
 * The k-th name tried for a log whose first choice is base: k = 0 base,
 * k = 1 base with ".<pid>" before its ".darshan" (or at its end), k >= 2
 * with ".<pid>.<k-1>": run.darshan, run.4242.darshan, run.4242.1.darshan.
 */
static void candidate(const char *base, int k, char *out, size_t size)
{
    if (k == 0) {
        snprintf(out, size, "%s", base);
        return;
    }
    size_t n = strlen(base), stem = n;
    if (n >= 8 && strcmp(base + n - 8, ".darshan") == 0)
        stem = n - 8;
    char tail[48];
    if (k == 1)
        snprintf(tail, sizeof tail, ".%d", (int)getpid());
    else
        snprintf(tail, sizeof tail, ".%d.%d", (int)getpid(), k - 1);
    snprintf(out, size, "%.*s%s%s", (int)stem, base, tail, base + stem);
}

/*
 * Give the finished log in tmp the first free name of base's candidates
 * (a forked child starts at the second).
 * link() fails on an existing name instead of replacing it, so no process
 * of the job ever replaces another's log, and the name appears only when
 * the log is whole. A file system without hard links: the name is taken
 * with O_EXCL, then the log renamed over that empty file of our own.
 * Returns 0, or -1 with a warning (tmp removed either way).
 */
static int publish_log(const char *tmp, const char *base, char *name,
                       size_t size)
{
    /* a forked child never takes the first name: it belongs to the job's
     * own processes (a rank's helper child exiting first must not push the
     * job's log aside) */
    for (int k = g_forked ? 1 : 0; k < 1000; k++) {
        candidate(base, k, name, size);
        if (link(tmp, name) == 0) {
            unlink(tmp);
            return 0;
        }
        if (errno == EEXIST)
            continue;
        if (errno != EPERM && errno != ENOTSUP && errno != EXDEV &&
            errno != EMLINK && errno != ENOSYS)
            break;
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0 && errno == EEXIST)
            continue;
        if (fd < 0)
            break;
        close(fd);
        if (rename(tmp, name) == 0)
            return 0;
        unlink(name);
        break;
    }
    trc_warn("cannot write the log %s: %s", base, strerror(errno));
    unlink(tmp);
    return -1;
}

/* --- records ---------------------------------------------------------------- */

struct entry {
    uint64_t id;
    int proc;    /* index into procs */
    size_t idx;  /* index into procs[proc].recs */
};

static int entry_cmp(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->proc < y->proc ? -1 : x->proc > y->proc;
}

/* Add one record and its name. 0 or -1. */
static int add_pub(iosage_log *log, const struct trc_pub *p, iosage_error *err)
{
    iosage_record rec;
    memset(&rec, 0, sizeof rec);
    rec.module = trc_module_id(p->layer);
    rec.version = layer_version[p->layer];
    rec.id = p->id;
    rec.rank = p->rank;
    rec.n_counters = trc_layer_nc(p->layer);
    rec.n_fcounters = trc_layer_nf(p->layer);
    rec.counters = (int64_t *)p->c;
    rec.fcounters = (double *)p->f;
    struct iosage_lustre_comp comp;
    if (p->layer == TRC_LUSTRE)
        trc_lustre_record(p, &rec, &comp);
    if (p->layer == TRC_H5D || p->layer == TRC_PNCV) {
        /* the containing file: the name up to ":/<dataset path>" (H5D) or
         * up to the ':' after the file's last '/' (PnetCDF variable) */
        const char *sep = NULL;
        if (p->layer == TRC_H5D) {
            for (const char *q = strstr(p->name, ":/"); q;
                 q = strstr(q + 1, ":/"))
                sep = q;
        } else {
            const char *slash = strrchr(p->name, '/');
            sep = strchr(slash ? slash : p->name, ':');
        }
        rec.x.file_ref.file_rec_id =
            iosage_darshan_hash(p->name, sep ? (size_t)(sep - p->name)
                                             : strlen(p->name));
    }
    if (iosage_log_add_name(log, p->id, p->name, err) != IOSAGE_OK ||
        iosage_log_add_record(log, &rec, err) != IOSAGE_OK)
        return -1;
    return 0;
}

/* Reduce the shared group starting at e[0] (n entries, one per process). */
static int add_shared(iosage_log *log, const struct trc_proc *procs,
                      const struct entry *e, int n, iosage_error *err)
{
    const struct trc_pub **recs = calloc((size_t)n, sizeof *recs);
    struct trc_pub out;
    if (!recs)
        return -1;
    for (int k = 0; k < n; k++)
        recs[k] = &procs[e[k].proc].recs[e[k].idx];
    trc_reduce(recs, n, &out);
    free(recs);
    return add_pub(log, &out, err);
}

/*
 * The records of one layer. When reduce is set, files every process has are
 * combined; shared[p][i] marks the records that went into a reduction, and
 * group0[i] gives, for process 0's record i, where its group starts in e[].
 */
static int add_layer(iosage_log *log, const struct trc_proc *procs, int n,
                     int layer, int reduce, iosage_error *err)
{
    size_t total = 0, k = 0;
    for (int p = 0; p < n; p++)
        total += procs[p].n;
    struct entry *e = calloc(total + 1, sizeof *e);
    unsigned char **shared = calloc((size_t)n, sizeof *shared);
    size_t *group0 = calloc(procs[0].n + 1, sizeof *group0);
    int rc = -1;
    if (!e || !shared || !group0)
        goto out;
    for (int p = 0; p < n; p++) {
        if (!(shared[p] = calloc(procs[p].n + 1, 1)))
            goto out;
        for (size_t i = 0; i < procs[p].n; i++)
            if (procs[p].recs[i].layer == layer)
                e[k++] = (struct entry){procs[p].recs[i].id, p, i};
    }
    qsort(e, k, sizeof *e, entry_cmp);
    for (size_t g = 0; g < k;) {
        size_t end = g;
        while (end < k && e[end].id == e[g].id)
            end++;
        if (reduce && end - g == (size_t)n && e[g].proc == 0 &&
            e[end - 1].proc == n - 1) {
            for (size_t j = g; j < end; j++)
                shared[e[j].proc][e[j].idx] = 1;
            group0[e[g].idx] = g;
        }
        g = end;
    }
    rc = 0;
    for (int pass = 0; pass < 3 && rc == 0; pass++) {
        /* pass 0: process 0's own, 1: shared, 2: the other processes' own */
        for (int p = pass == 2 ? 1 : 0; p < (pass == 2 ? n : 1) && rc == 0; p++)
            for (size_t i = 0; i < procs[p].n && rc == 0; i++) {
                const struct trc_pub *rec = &procs[p].recs[i];
                if (rec->layer != layer || shared[p][i] != (pass == 1))
                    continue;
                rc = pass == 1 ? add_shared(log, procs, &e[group0[i]], n, err)
                               : add_pub(log, rec, err);
            }
    }
out:
    for (int p = 0; shared && p < n; p++)
        free(shared[p]);
    free(shared);
    free(group0);
    free(e);
    return rc;
}

/* --- heatmaps ------------------------------------------------------------------ */

/*
 * One HEATMAP record per process and interface that moved data, in rank
 * order (POSIX, MPI-IO, STDIO within a rank). Every record gets the job's
 * widest bin width (the reader wants one width) and the bins up to the
 * one holding the job's end, as the runtime trims them.
 */
static int add_heatmaps(iosage_log *log, const struct trc_proc *procs, int n,
                        const struct iosage_job *job, iosage_error *err)
{
    static const char *const names[TRC_HEAT_LAYERS] = {
        "heatmap:POSIX", "heatmap:MPIIO", "heatmap:STDIO"};
    double width = TRC_HEAT_WIDTH;
    for (int p = 0; p < n; p++)
        for (int l = 0; l < TRC_HEAT_LAYERS; l++)
            if (procs[p].heat[l].used && procs[p].heat[l].width > width)
                width = procs[p].heat[l].width;
    double run = (double)(job->end_time_sec - job->start_time_sec) +
                 (double)(job->end_time_nsec - job->start_time_nsec) * 1e-9;
    int64_t nbins = run > 0 ? (int64_t)(run / width) + 1 : 1;
    if (nbins > TRC_HEAT_BINS)
        nbins = TRC_HEAT_BINS;
    for (int p = 0; p < n; p++) {
        for (int l = 0; l < TRC_HEAT_LAYERS; l++) {
            static struct trc_heat copy; /* one write at a time */
            struct trc_heat *h = &copy;
            if (!procs[p].heat[l].used)
                continue;
            copy = procs[p].heat[l];
            trc_heat_widen_to(h, width);
            /* bytes booked past the cut (clock skew) go to the last bin */
            for (int64_t i = nbins; i < TRC_HEAT_BINS; i++) {
                h->w[nbins - 1] += h->w[i];
                h->r[nbins - 1] += h->r[i];
            }
            iosage_record rec;
            memset(&rec, 0, sizeof rec);
            rec.module = IOSAGE_MOD_HEATMAP;
            rec.version = 1;
            rec.id = iosage_darshan_hash(names[l], strlen(names[l]));
            rec.rank = procs[p].rank;
            rec.x.heatmap.bin_width = width;
            rec.x.heatmap.nbins = nbins;
            rec.x.heatmap.write_bins = h->w;
            rec.x.heatmap.read_bins = h->r;
            if (iosage_log_add_name(log, rec.id, names[l], err) != IOSAGE_OK ||
                iosage_log_add_record(log, &rec, err) != IOSAGE_OK)
                return -1;
        }
    }
    return 0;
}

/* --- the write ---------------------------------------------------------------- */

static int fail(iosage_log *log, const iosage_error *err, const char *what)
{
    char line[800];
    trc_warn("%s: %s", what, iosage_error_line(err, line, sizeof line));
    iosage_log_free(log);
    return -1;
}

/* See trace.h. nprocs is the job's process count for the job record. */
int trc_write_log(const struct trc_proc *procs, int n, int nprocs, int reduce,
                  const char *suffix)
{
    static char cmdline[4096];
    static char path[TRC_PATH_MAX];
    iosage_error err;
    memset(&err, 0, sizeof err);
    iosage_log *log = iosage_log_create();
    if (!log) {
        trc_warn("cannot build the log: out of memory");
        return -1;
    }
    const struct trc_mount *m;
    struct iosage_mount *mounts = calloc(trc_mounts(&m) + 1, sizeof *mounts);
    struct iosage_job job;
    read_cmdline(cmdline, sizeof cmdline);
    build_job(procs, n, nprocs, cmdline, mounts ? mounts : NULL, &job);
    if (!mounts)
        job.n_mounts = 0;
    iosage_status st = iosage_log_set_job(log, &job, &err);
    free(mounts);
    if (st != IOSAGE_OK)
        return fail(log, &err, "cannot build the log");
    for (int l = 0; l < TRC_NLAYERS; l++) {
        if (add_layer(log, procs, n, l, reduce && n > 1, &err) != 0)
            return fail(log, &err, "cannot build the log");
        for (int p = 0; p < n; p++)
            if (procs[p].partial_mask & ((int64_t)1 << l))
                iosage_log_set_partial(log, trc_module_id(l));
    }
    if (add_heatmaps(log, procs, n, &job, &err) != 0)
        return fail(log, &err, "cannot build the log");
    log_path(cmdline, suffix ? suffix : "", path, sizeof path);
    static char tmp[TRC_PATH_MAX + 48], name[TRC_PATH_MAX + 48];
    snprintf(tmp, sizeof tmp, "%s.%d.part", path, (int)getpid());
    if (iosage_log_write(log, tmp, &err) != IOSAGE_OK)
        return fail(log, &err, "cannot write the log");
    iosage_log_free(log);
    return publish_log(tmp, path, name, sizeof name);
}

/* Rank and size of this process from the launcher's environment (a parallel
 * job traced with the non-MPI library, or MPI never finalized). 1 when
 * found with more than one process. */
static int launcher_rank(int *rank, int *size)
{
    static const char *const ranks[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK",
                                        "PMI_RANK", "SLURM_PROCID", NULL};
    static const char *const sizes[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                        "SLURM_NTASKS", NULL};
    const char *r = NULL, *n = NULL;
    for (int i = 0; ranks[i] && !r; i++)
        r = getenv(ranks[i]);
    for (int i = 0; sizes[i] && !n; i++)
        n = getenv(sizes[i]);
    if (!r || !n || *r < '0' || *r > '9' || *n < '0' || *n > '9')
        return 0;
    *rank = (int)strtol(r, NULL, 10);
    *size = (int)strtol(n, NULL, 10);
    return *size > 1 && *rank >= 0 && *rank < *size;
}

/* See trace.h. Each process of a parallel job that did not go through
 * MPI_Finalize writes its own log; with IOSAGE_LOG it gets ".rank<r>". */
void trc_write_local(void)
{
    atomic_store(&g_state, TRC_OFF);
    int old = trc_lock();
    g_written = 1;
    if (g_forked && !trc_any_file_io()) {
        /* a forked child that touched nothing but the standard streams (a
         * shell setting up a command, a helper process): no log; its exec'd
         * image, if any, writes the one that matters */
        trc_unlock(old);
        return;
    }
    int rank = g_rank, size = g_nprocs, parallel = g_mpi_started;
    if (!parallel)
        parallel = launcher_rank(&rank, &size);
    struct timespec end;
    trc_wall_now(&end);
    struct trc_buf b = {0};
    trc_serialize_all(&b, parallel ? rank : 0, &end);
    pthread_mutex_unlock(&g_lock); /* stay busy: the write is not traced */
    struct trc_proc proc;
    char suffix[32] = "";
    if (parallel)
        snprintf(suffix, sizeof suffix, ".rank%d", rank);
    if (b.oom || trc_parse_proc(b.p, b.len, &proc) != 0) {
        trc_warn("cannot build the log: out of memory");
    } else {
        trc_write_log(&proc, 1, parallel ? size : 1, 0, suffix);
        free(proc.recs);
    }
    free(b.p);
    tl_busy = old;
}
