/*
 * state.c - process-wide state of the tracer: the on/off switch, the clock
 * origin, the per-thread re-entry guard, lookup of the real functions, and
 * the constructor / destructor / fork hooks.
 *
 * State machine (g_state):
 *
 *      load                  MPI_Init / MPI_Finalize
 *   OFF ----> ON <--------------------------------> SUSPENDED
 *    ^        |  trc_disable, log written
 *    +--------+
 *
 * A forked child keeps tracing, with its records reset to their state at
 * creation (the parent's counts are the parent's), and writes a log of its
 * own at exit; an exec writes the log of the process it replaces first
 * (exec.c). Logs never replace one another (output.c, the log name).
 *
 * OFF is final once trc_disable() ran (g_disabled); before the constructor
 * has run it only means "not yet".
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "trace.h"

_Atomic int g_state = TRC_OFF;
_Thread_local int tl_busy __attribute__((tls_model("initial-exec")));
pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
struct timespec g_t0_mono, g_t0_wall;
int g_rank = 0, g_nprocs = 1;
int g_mpi_started = 0;
int g_written = 0;
double g_origin = 0.0;
int g_forked = 0;

/* Set while this thread is inside dlsym: a wrapper entered then must not
 * call dlsym again. */
static _Thread_local int tl_resolving __attribute__((tls_model("initial-exec")));
static _Atomic int g_disabled;  /* trc_disable ran: never switch on again */
static int g_quiet;             /* IOSAGE_TRACE_QUIET set */
static int g_inited;            /* constructor completed */
static pid_t g_pid;             /* process the tracer was set up in */

/* See trace.h. */
void *trc_real(void *_Atomic *slot, const char *name)
{
    void *fn = atomic_load_explicit(slot, memory_order_acquire);
    if (fn || tl_resolving)
        return fn;
    int saved = errno;
    tl_resolving = 1;
    fn = dlsym(RTLD_NEXT, name);
    tl_resolving = 0;
    if (fn)
        atomic_store_explicit(slot, fn, memory_order_release);
    errno = saved;
    return fn;
}

/* See trace.h. The message goes straight to fd 2 with the real write(),
 * never through stdio, so it cannot disturb the program's buffers. */
void trc_warn(const char *fmt, ...)
{
    if (g_quiet)
        return;
    int saved = errno;
    int old = tl_busy;
    tl_busy = 1;
    char line[512];
    int n = snprintf(line, sizeof line, "iosage-trace[%d]: ", (int)getpid());
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
    if (len > sizeof line - 2)
        len = sizeof line - 2;
    line[len++] = '\n';
    ssize_t w = write(2, line, len);
    (void)w;
    tl_busy = old;
    errno = saved;
}

/* See trace.h. */
int trc_initialized(void)
{
    return g_inited;
}

/* See trace.h. */
void trc_disable(const char *why)
{
    atomic_store(&g_disabled, 1);
    if (atomic_exchange(&g_state, TRC_OFF) != TRC_OFF)
        trc_warn("tracing disabled: %s", why);
}

/* See trace.h. Written under the lock: publishing reads it. */
void trc_start_job_clock(void)
{
    int old = trc_lock();
    g_origin = trc_now();
    trc_heat_rebase();
    trc_unlock(old);
}

/* See trace.h. */
void trc_suspend(void)
{
    int on = TRC_ON;
    atomic_compare_exchange_strong(&g_state, &on, TRC_SUSPENDED);
}

/* See trace.h. */
void trc_resume(void)
{
    int susp = TRC_SUSPENDED;
    if (!atomic_load(&g_disabled))
        atomic_compare_exchange_strong(&g_state, &susp, TRC_ON);
}

/* See trace.h. */
int trc_lock(void)
{
    int old = tl_busy;
    tl_busy = 1;
    pthread_mutex_lock(&g_lock);
    return old;
}

/* See trace.h. */
void trc_unlock(int old_busy)
{
    pthread_mutex_unlock(&g_lock);
    tl_busy = old_busy;
}

/* 1 for job launchers and daemons: they would write a log of their own
 * (and may share IOSAGE_LOG with the ranks) when LD_PRELOAD is exported to
 * the whole job instead of being passed with `mpirun -x`. */
static int is_launcher(void)
{
    static const char *const names[] = {
        "mpirun", "mpiexec", "orterun", "orted", "prterun", "prted", "prte",
        "srun", "hydra_pmi_proxy", "mpiexec.hydra", NULL};
    const char *me = program_invocation_short_name;
    for (int i = 0; names[i]; i++)
        if (strcmp(me, names[i]) == 0)
            return 1;
    return 0;
}

/* fork: hold g_lock across it, so that the child's copy of the records is
 * not caught in the middle of another thread's update. */
static void at_fork_prepare(void)
{
    pthread_mutex_lock(&g_lock);
}

static void at_fork_parent(void)
{
    pthread_mutex_unlock(&g_lock);
}

/* In a forked child the parent's counts are not ours: the child starts its
 * own run (records reset, clock origin now) and writes its own log at exit,
 * unless tracing had already stopped in the parent. */
static void at_fork_child(void)
{
    if (!g_written && !atomic_load(&g_disabled))
        trc_restart_child();
    pthread_mutex_unlock(&g_lock);
}

/* See trace.h. With g_lock held. */
void trc_restart_child(void)
{
    trc_records_fork_reset();
    trc_heat_reset();
    clock_gettime(CLOCK_MONOTONIC, &g_t0_mono);
    clock_gettime(CLOCK_REALTIME, &g_t0_wall);
    g_origin = 0.0;
    g_pid = getpid();
    g_forked = 1;
    g_mpi_started = 0; /* a forked child is no MPI rank */
    g_written = 0;
    atomic_store(&g_state, TRC_ON);
}

/* See trace.h. */
int trc_active_here(void)
{
    return g_inited && !g_written && !atomic_load(&g_disabled) &&
           getpid() == g_pid;
}

/* Runs when the library is loaded. Until it completes every wrapper passes
 * through (g_state is OFF). */
__attribute__((constructor)) static void trc_init(void)
{
    int saved = errno;
    tl_busy = 1;
    clock_gettime(CLOCK_MONOTONIC, &g_t0_mono);
    clock_gettime(CLOCK_REALTIME, &g_t0_wall);
    const char *off = getenv("IOSAGE_TRACE_DISABLE");
    g_quiet = getenv("IOSAGE_TRACE_QUIET") != NULL;
    if ((off && *off && strcmp(off, "0") != 0) || is_launcher()) {
        tl_busy = 0;
        errno = saved;
        return;
    }
    g_pid = getpid();
    trc_records_init();
    pthread_atfork(at_fork_prepare, at_fork_parent, at_fork_child);
    g_inited = 1;
    tl_busy = 0;
    if (!atomic_load(&g_disabled))
        atomic_store(&g_state, TRC_ON);
    errno = saved;
}

/* Runs at exit (after main returns or exit() is called). Writes the log
 * unless MPI_Finalize already did, the process is a forked child, or
 * tracing was disabled. */
__attribute__((destructor)) static void trc_fini(void)
{
    if (!g_inited || g_written || atomic_load(&g_disabled))
        return;
    int saved = errno;
    trc_write_local();
    errno = saved;
}

/* _exit and _Exit skip the destructors; programs that leave this way (dash
 * does) still get their log. Only the process the tracer was set up in
 * writes: a vfork or posix_spawn child shares our memory but not our pid. */
static void *_Atomic real_exit_, *_Atomic real_Exit;

__attribute__((noreturn)) static void exit_common(void *fn, int status)
{
    if (g_inited && !g_written && !atomic_load(&g_disabled) &&
        getpid() == g_pid)
        trc_write_local();
    if (fn)
        ((void (*)(int))fn)(status);
    for (;;)
        syscall(SYS_exit_group, status);
}

void _exit(int status)
{
    exit_common(trc_real(&real_exit_, "_exit"), status);
}

void _Exit(int status)
{
    exit_common(trc_real(&real_Exit, "_Exit"), status);
}
