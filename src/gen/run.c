/*
 * src/gen/run.c - run a sweep: one mpirun per run, up to `jobs` at once,
 * each kernel traced with LD_PRELOAD; append a manifest row when a run ends.
 *
 * Files under DIR:
 *   logs/<run>.darshan   the run's log (renamed into place only on success)
 *   logs/<run>.out       the run's stdout and stderr
 *   logs/<run>.pfs       with --pfs-random: the system the run drew
 *   manifest.tsv         one row per run (header first); rows of earlier
 *                        invocations are kept, and a run whose row says ok
 *                        and whose log exists is not run again
 *
 * A failed run (non-zero exit, timeout, no log) is a row with status
 * "failed:<why>", never a stopped sweep.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ios_common.h"
#include "ios_mpirun.h"
#include "gen.h"
#include "pfs_model.h"

#define MANIFEST_HEADER                                                        \
    "run_id\tconfig_id\tkernel\tflags\tranks\tlabels\tseed\twall_seconds\t"   \
    "log\tsplit\tstatus\tsystem\n"

/* Columns before "system": rows of manifests older than that column have
 * only these. */
#define MANIFEST_OLD_COLUMNS 11

struct job {
    pid_t pid;              /* 0 = free slot */
    const struct gen_config *cfg;
    char run_id[128];
    long seed;
    double t0;
    int emulated;           /* --pfs-random: runs on a drawn system */
    char system[320];       /* the manifest's system column */
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* --- Manifest ------------------------------------------------------------- */

/* The last row of manifest text whose first field is run_id, or NULL; its
 * length (without the newline) in *len. */
static const char *last_row(const char *text, const char *run_id, size_t *len)
{
    size_t n = strlen(run_id);
    const char *found = NULL;
    for (const char *p = text; *p;) {
        const char *eol = strchr(p, '\n');
        size_t l = eol ? (size_t)(eol - p) : strlen(p);
        if (l > n && strncmp(p, run_id, n) == 0 && p[n] == '\t') {
            found = p;
            *len = l;
        }
        if (!eol)
            break;
        p = eol + 1;
    }
    return found;
}

/* 1 when the last manifest row of run_id has status ok (the eleventh
 * column, the last one in manifests without the system column). */
static int manifest_has_ok(const char *text, const char *run_id)
{
    size_t len = 0;
    const char *row = last_row(text, run_id, &len);
    if (!row)
        return 0;
    const char *p = row, *end = row + len;
    for (int tabs = 0; tabs < MANIFEST_OLD_COLUMNS - 1; tabs++) {
        p = memchr(p, '\t', (size_t)(end - p));
        if (!p)
            return 0;
        p++;
    }
    return end - p >= 2 && memcmp(p, "ok", 2) == 0 &&
           (end - p == 2 || p[2] == '\t');
}

/* Number of tab-separated columns of a row of len bytes. */
static int row_columns(const char *row, size_t len)
{
    int n = 1;
    for (size_t i = 0; i < len; i++)
        n += row[i] == '\t';
    return n;
}

/* Whole manifest as a string ("" when absent); NULL on no memory. */
static char *manifest_read(const char *path)
{
    uint8_t *buf;
    size_t len;
    iosage_status st = ios_read_file(path, 0, &buf, &len, NULL);
    if (st == IOSAGE_OK)
        return (char *)buf;
    return st == IOSAGE_E_NOMEM ? NULL : strdup("");
}

static void manifest_row(FILE *m, const struct job *j, double wall,
                         const char *log, const char *status)
{
    fprintf(m, "%s\t%s\t%s\t", j->run_id, j->cfg->id, j->cfg->kernel);
    for (int i = 0; i < j->cfg->n_flags; i++)
        fprintf(m, "%s%s", i ? " " : "", j->cfg->flags[i]);
    fprintf(m, "\t%d\t%s\t%ld\t%.3f\t%s\t%s\t%s\t%s\n", j->cfg->ranks,
            j->cfg->labels, j->seed, wall, log, gen_split(j->cfg, j->run_id),
            status, j->system);
    fflush(m);
}

/* Rewrite the manifest with one row per run (its last), in sweep order, so
 * that re-running failed runs does not leave their old rows behind. */
static int manifest_compact(const char *path, const struct gen_sweep *sw)
{
    char *text = manifest_read(path);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = text ? fopen(tmp, "w") : NULL;
    if (!f) {
        free(text);
        return -1;
    }
    fputs(MANIFEST_HEADER, f);
    for (size_t i = 0; i < sw->n; i++)
        for (int r = 0; r < sw->configs[i].repeats; r++) {
            char id[128];
            size_t len = 0;
            snprintf(id, sizeof id, "%s-r%d", sw->configs[i].id, r);
            const char *row = last_row(text, id, &len);
            if (row) {
                fwrite(row, 1, len, f);
                /* a row from before the system column: unknown system */
                if (row_columns(row, len) == MANIFEST_OLD_COLUMNS)
                    fputs("\t-", f);
                fputc('\n', f);
            }
        }
    free(text);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* --- Running one run ------------------------------------------------------- */

/* The .pfs file of a run's drawn system into path. */
static void system_path(const struct gen_options *o, const struct job *j,
                        char *path, size_t size)
{
    snprintf(path, size, "%s/logs/%s.pfs", o->out_dir, j->run_id);
}

/* In the child of a --pfs-random run: point the emulator at the run's
 * drawn profile, or, for a native run, take the emulator out of the
 * environment (mpirun forwards every OMPI_* variable to the ranks).
 * Returns what to preload. */
static const char *system_env(const struct gen_options *o, const struct job *j)
{
    if (!j->emulated) {
        unsetenv("OMPI_IOSAGE_PFS_PROFILE");
        unsetenv("OMPI_IOSAGE_PFS_MOUNT");
        unsetenv("OMPI_IOSAGE_PFS_TMPDIR");
        return o->native_preload;
    }
    char rel[4096], abs[4096];
    system_path(o, j, rel, sizeof rel);
    setenv("OMPI_IOSAGE_PFS_PROFILE", realpath(rel, abs) ? abs : rel, 1);
    return o->tracer;
}

/* In the child: the run's mpirun command line (src/common/ios_mpirun.h)
 * with its seed, output into out_path. Never returns. */
static void exec_run(const struct gen_options *o, const struct job *j,
                     const char *tmp_log, const char *out_path)
{
    static char seed[32];
    static char *args[GEN_MAX_FLAGS + 2];
    static struct ios_mpirun m;
    int n = 0;
    for (int i = 0; i < j->cfg->n_flags; i++)
        args[n++] = j->cfg->flags[i];
    snprintf(seed, sizeof seed, "%ld", j->seed);
    args[n++] = "--seed";
    args[n++] = seed;
    const char *lib = o->systems ? system_env(o, j) : o->tracer;
    ios_mpirun_argv(&m, j->cfg->ranks, o->bench_dir, j->cfg->kernel, lib,
                    tmp_log, args, n);
    ios_mpirun_exec(m.argv, out_path, NULL);
}

_Static_assert(GEN_MAX_FLAGS + 2 <= IOS_MPIRUN_MAX_ARGS,
               "a sweep line's flags and the seed fit the mpirun command line");

static void run_paths(const struct gen_options *o, const struct job *j,
                      char *log, char *tmp, char *out, size_t size)
{
    snprintf(log, size, "%s/logs/%s.darshan", o->out_dir, j->run_id);
    snprintf(tmp, size, "%s/logs/%s.darshan.partial", o->out_dir, j->run_id);
    snprintf(out, size, "%s/logs/%s.out", o->out_dir, j->run_id);
}

/* Fill the job's system: the one --pfs named, or a drawn one whose profile
 * is written beside the log. Returns 0, or -1 when it cannot be written. */
static int choose_system(const struct gen_options *o, struct job *j)
{
    j->emulated = 0;
    snprintf(j->system, sizeof j->system, "%s",
             o->system ? o->system : "native");
    if (!o->systems)
        return 0;
    struct pfs_profile p;
    if (!gen_system_draw(o->systems, j->seed, &p))
        return 0;
    char path[4096];
    iosage_error err;
    system_path(o, j, path, sizeof path);
    if (gen_system_write(&p, j->run_id, path, &err) != IOSAGE_OK)
        return -1;
    gen_system_summary(&p, j->system, sizeof j->system);
    j->emulated = 1;
    return 0;
}

static int start_job(const struct gen_options *o, struct job *j)
{
    char log[4096], tmp[4096], out[4096];
    run_paths(o, j, log, tmp, out, sizeof log);
    unlink(tmp);
    if (choose_system(o, j) != 0)
        return -1;
    j->t0 = now();
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
        exec_run(o, j, tmp, out);
    j->pid = pid;
    return 0;
}

/* A child ended with status: move the log into place, write the row. */
static int finish_job(const struct gen_options *o, struct job *j, int status,
                      int timed_out, FILE *manifest)
{
    char log[4096], tmp[4096], out[4096], why[64] = "";
    run_paths(o, j, log, tmp, out, sizeof log);
    double wall = now() - j->t0;
    struct stat st;
    if (timed_out)
        snprintf(why, sizeof why, "failed:timeout");
    else if (WIFSIGNALED(status))
        snprintf(why, sizeof why, "failed:signal%d", WTERMSIG(status));
    else if (WEXITSTATUS(status) != 0)
        snprintf(why, sizeof why, "failed:exit%d", WEXITSTATUS(status));
    else if (stat(tmp, &st) != 0 || st.st_size == 0)
        snprintf(why, sizeof why, "failed:nolog");
    else if (rename(tmp, log) != 0)
        snprintf(why, sizeof why, "failed:rename");
    if (why[0]) {
        unlink(tmp);
        if (!o->quiet)
            fprintf(stderr, "%sgen: %s %s (output in %s)\n",
                    o->progress ? "\n" : "", j->run_id, why + 7, out);
    }
    const char *rel = strrchr(log, '/');
    char relpath[200];
    snprintf(relpath, sizeof relpath, "logs%s", rel ? rel : "");
    manifest_row(manifest, j, wall, why[0] ? "" : relpath, why[0] ? why : "ok");
    j->pid = 0;
    return why[0] ? -1 : 0;
}

/* --- Progress ----------------------------------------------------------------- */

static void progress(const struct gen_summary *s, int todo, double t0)
{
    int done = s->ok + s->failed;
    double el = now() - t0;
    double eta = done ? el / done * (todo - done) : 0;
    int width = 30, fill = todo ? width * done / todo : width;
    char bar[64];
    for (int i = 0; i < width; i++)
        bar[i] = i < fill ? '=' : ' ';
    bar[width] = '\0';
    fprintf(stderr, "\r[%s] %d/%d runs, %d failed, %.0fs, ETA %.0fs ", bar,
            done, todo, s->failed, el, eta);
}

/* --- The sweep ----------------------------------------------------------------- */

/* mkdir -p dir, then dir/logs. */
static int make_dirs(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/logs", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

/* Wait for one child; kill ones past the timeout. Returns the slot freed. */
static int reap_one(const struct gen_options *o, struct job *jobs, int n,
                    FILE *manifest, struct gen_summary *sum)
{
    for (;;) {
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid > 0) {
            for (int i = 0; i < n; i++)
                if (jobs[i].pid == pid) {
                    int late = now() - jobs[i].t0 > o->timeout_s;
                    if (finish_job(o, &jobs[i], status, late, manifest) == 0)
                        sum->ok++;
                    else
                        sum->failed++;
                    return i;
                }
            continue;
        }
        for (int i = 0; i < n; i++)
            if (jobs[i].pid && now() - jobs[i].t0 > o->timeout_s)
                kill(-jobs[i].pid, SIGKILL);
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

iosage_status gen_run(const struct gen_sweep *s, const struct gen_options *o,
                      struct gen_summary *sum, iosage_error *err)
{
    memset(sum, 0, sizeof *sum);
    char mpath[4096];
    snprintf(mpath, sizeof mpath, "%s/manifest.tsv", o->out_dir);
    if (make_dirs(o->out_dir) != 0)
        return ios_fail(err, IOSAGE_E_IO, o->out_dir, NULL, -1,
                        "cannot create: %s", strerror(errno));
    char *old = manifest_read(mpath);
    if (!old)
        return ios_fail(err, IOSAGE_E_NOMEM, mpath, NULL, -1, "out of memory");
    FILE *m = fopen(mpath, "a");
    if (!m) {
        free(old);
        return ios_fail(err, IOSAGE_E_IO, mpath, NULL, -1, "cannot open: %s",
                        strerror(errno));
    }
    if (old[0] == '\0')
        fputs(MANIFEST_HEADER, m);

    int jobs_n = o->jobs > 0 ? o->jobs : 1;
    struct job *jobs = calloc((size_t)jobs_n, sizeof *jobs);
    double t0 = now();
    int todo = 0;
    for (size_t i = 0; i < s->n; i++)
        todo += s->configs[i].repeats;
    sum->total = todo;

    for (size_t i = 0; jobs && i < s->n; i++) {
        const struct gen_config *c = &s->configs[i];
        for (int r = 0; r < c->repeats; r++) {
            struct job next = {0, c, "", 0, 0, 0, ""};
            snprintf(next.run_id, sizeof next.run_id, "%s-r%d", c->id, r);
            next.seed = gen_seed(next.run_id);
            char log[4096];
            struct stat st;
            snprintf(log, sizeof log, "%s/logs/%s.darshan", o->out_dir,
                     next.run_id);
            if (manifest_has_ok(old, next.run_id) && stat(log, &st) == 0) {
                sum->skipped++;
                continue;
            }
            int slot = -1;
            for (int k = 0; k < jobs_n && slot < 0; k++)
                if (!jobs[k].pid)
                    slot = k;
            if (slot < 0)
                slot = reap_one(o, jobs, jobs_n, m, sum);
            jobs[slot] = next;
            if (start_job(o, &jobs[slot]) != 0) {
                jobs[slot].pid = 0;
                sum->failed++;
            }
            if (o->progress)
                progress(sum, todo - sum->skipped, t0);
        }
    }
    for (int k = 0; jobs && k < jobs_n; k++)
        while (jobs[k].pid) {
            reap_one(o, jobs, jobs_n, m, sum);
            if (o->progress)
                progress(sum, todo - sum->skipped, t0);
        }
    if (o->progress)
        fputc('\n', stderr);
    sum->seconds = now() - t0;
    free(jobs);
    free(old);
    if (fclose(m) != 0 || manifest_compact(mpath, s) != 0)
        return ios_fail(err, IOSAGE_E_IO, mpath, NULL, -1, "cannot write");
    return IOSAGE_OK;
}
