/*
 * src/validate/spawn.c - run one program with a timeout (the kernels under
 * mpirun, started as src/common/ios_mpirun.h says, and the analyzer), and
 * read a kernel's summary line.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ios_common.h"
#include "ios_mpirun.h"
#include "internal.h"

#define SUMMARY_MAX_BYTES (1 << 20) /* of run output searched */

_Static_assert(IOSAGE_VALIDATE_MAX_ARGS <= IOS_MPIRUN_MAX_ARGS,
               "a scenario's kernel arguments fit the mpirun command line");

double ios_validate_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void ios_validate_say(const struct iosage_validate_options *o,
                      const char *fmt, ...)
{
    if (!o->progress)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    o->progress(o->progress_ctx, line);
}

/* The child runs in its own process group (so that a timeout can kill
 * mpirun and every rank at once), which also keeps it from the terminal's
 * Ctrl-C. While a child runs, SIGINT and SIGTERM are therefore caught here:
 * the child's group is killed, the old handlers come back and the signal is
 * raised again. */
static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    got_signal = sig;
}

static void catch_signals(struct sigaction old[2])
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    got_signal = 0;
    sigaction(SIGINT, &sa, &old[0]);
    sigaction(SIGTERM, &sa, &old[1]);
}

static void restore_signals(const struct sigaction old[2])
{
    sigaction(SIGINT, &old[0], NULL);
    sigaction(SIGTERM, &old[1], NULL);
}

/* Wait for pid, killing its group after timeout_s or on a signal. */
static int wait_child(pid_t pid, double t0, int timeout_s, int *status,
                      int *timed_out)
{
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid)
            return 0;
        if (r < 0 && errno != EINTR)
            return -1;
        if (got_signal) {
            kill(-pid, SIGKILL);
            waitpid(pid, status, 0);
            return 0;
        }
        if (!*timed_out && ios_validate_now() - t0 > timeout_s) {
            kill(-pid, SIGKILL);
            *timed_out = 1;
        }
        struct timespec ts = {0, 2 * 1000 * 1000}; /* 2 ms: wall resolution */
        nanosleep(&ts, NULL);
    }
}

int ios_validate_spawn(char *const argv[], const char *out_path,
                       const char *err_path, int timeout_s, double *wall,
                       char *why, size_t why_size)
{
    double t0 = ios_validate_now();
    *wall = 0;
    struct sigaction old[2];
    catch_signals(old);
    pid_t pid = fork();
    if (pid < 0) {
        restore_signals(old);
        snprintf(why, why_size, "cannot start: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        restore_signals(old);
        ios_mpirun_exec(argv, out_path, err_path);
    }
    setpgid(pid, pid); /* both sides, so that the kill below cannot miss */
    int status = 0, timed_out = 0;
    int lost = wait_child(pid, t0, timeout_s, &status, &timed_out);
    restore_signals(old);
    if (got_signal)
        raise(got_signal); /* the caller's disposition (default: die) */
    if (lost) {
        snprintf(why, why_size, "lost the child: %s", strerror(errno));
        return -1;
    }
    *wall = ios_validate_now() - t0;
    if (timed_out) {
        snprintf(why, why_size, "timed out after %d s", timeout_s);
        return -1;
    }
    if (WIFSIGNALED(status)) {
        snprintf(why, why_size, "killed by signal %d", WTERMSIG(status));
        return -1;
    }
    why[0] = '\0';
    return WEXITSTATUS(status);
}

/* seconds= of the kernel's summary line ("<kernel> ranks=... seconds=X
 * ...") in the file at path; -1 when there is none. */
static double summary_seconds(const char *path, const char *kernel)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[4096];
    double secs = -1;
    size_t klen = strlen(kernel), seen = 0;
    while (seen < SUMMARY_MAX_BYTES && fgets(line, sizeof line, f)) {
        seen += strlen(line);
        if (strncmp(line, kernel, klen) != 0 || line[klen] != ' ')
            continue;
        const char *p = strstr(line, " seconds=");
        if (!p)
            continue;
        char *end;
        double v = strtod(p + 9, &end);
        if (end != p + 9 && v >= 0)
            secs = v;
    }
    fclose(f);
    return secs;
}

iosage_status ios_validate_run_kernel(const struct iosage_validate_options *o,
                                      const char *kernel, int ranks,
                                      const struct iosage_validate_flags *f,
                                      const char *log_path,
                                      const char *out_path,
                                      struct ios_validate_run *run,
                                      iosage_error *err)
{
    /* with a log the tracer is preloaded; without, the --preload library
     * if any */
    static struct ios_mpirun m;
    ios_mpirun_argv(&m, ranks, o->bench_dir, kernel,
                    log_path ? o->tracer : o->preload, log_path, f->v, f->n);
    char *const *argv = m.argv;
    char why[160] = "";
    for (int attempt = 0; attempt < 3; attempt++) {
        if (attempt)
            ios_validate_say(o, "%s failed (%s), again (see %s)", kernel, why,
                             out_path);
        if (log_path)
            unlink(log_path);
        int rc = ios_validate_spawn(argv, out_path, NULL, o->timeout_s,
                                    &run->wall, why, sizeof why);
        if (rc > 0)
            snprintf(why, sizeof why, "exit status %d", rc);
        if (rc < 0 && strncmp(why, "timed out", 9) == 0)
            break; /* it would time out again: fs_wrf_split_32's one
                      shared file on one target took 3 x 300 s to fail */
        if (rc != 0)
            continue;
        run->kernel_s = summary_seconds(out_path, kernel);
        if (run->kernel_s < 0) {
            snprintf(why, sizeof why, "no summary line with seconds=");
            continue;
        }
        if (run->kernel_s < 1e-4)
            run->kernel_s = 1e-4; /* the kernels print 4 decimals */
        if (log_path && access(log_path, R_OK) != 0) {
            snprintf(why, sizeof why, "the tracer wrote no log %s", log_path);
            continue;
        }
        return IOSAGE_OK;
    }
    if (strncmp(why, "timed out", 9) == 0)
        return ios_fail(err, IOSAGE_E_IO, out_path, NULL, -1,
                        "%s on %d ranks %s", kernel, ranks, why);
    return ios_fail(err, IOSAGE_E_IO, out_path, NULL, -1,
                    "%s on %d ranks failed 3 times: %s", kernel, ranks, why);
}
