/*
 * exec.c - the exec family: the process about to be replaced writes its log
 * first (exec runs no destructor, so without this its records would be
 * lost; the new image, when the tracer is preloaded into it, starts a log
 * of its own). When the exec fails the process goes on, and so does its
 * tracing: a new run begins (records reset, as in a forked child), and its
 * log is written at exit under the next free name (output.c).
 *
 * The variadic forms build their argument vector and call the vector form
 * through the real symbol, so that the log is written once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "trace.h"

extern char **environ;

/* Before the exec: write the log of this process (nothing when tracing is
 * off here, or in a vfork child, which shares our memory; nothing either
 * for a forked child that touched only the standard streams, such as a
 * shell setting up a command: trc_write_local). */
static int before_exec(void)
{
    if (!trc_active_here())
        return 0;
    trc_write_local();
    return 1;
}

/* After a failed exec: trace on, in a new run. */
static void after_failed_exec(int wrote)
{
    if (!wrote)
        return;
    int saved = errno;
    int old = trc_lock();
    trc_restart_child();
    trc_unlock(old);
    errno = saved;
}

static void *_Atomic real_execve, *_Atomic real_execv, *_Atomic real_execvp,
    *_Atomic real_execvpe, *_Atomic real_fexecve;

int execve(const char *path, char *const argv[], char *const envp[])
{
    int (*fn)(const char *, char *const[], char *const[]) =
        trc_real(&real_execve, "execve");
    if (!fn) {
        errno = ENOSYS;
        return -1;
    }
    int wrote = before_exec();
    int rc = fn(path, argv, envp);
    after_failed_exec(wrote);
    return rc;
}

int execv(const char *path, char *const argv[])
{
    int (*fn)(const char *, char *const[]) = trc_real(&real_execv, "execv");
    if (!fn) {
        errno = ENOSYS;
        return -1;
    }
    int wrote = before_exec();
    int rc = fn(path, argv);
    after_failed_exec(wrote);
    return rc;
}

int execvp(const char *file, char *const argv[])
{
    int (*fn)(const char *, char *const[]) = trc_real(&real_execvp, "execvp");
    if (!fn) {
        errno = ENOSYS;
        return -1;
    }
    int wrote = before_exec();
    int rc = fn(file, argv);
    after_failed_exec(wrote);
    return rc;
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
    int (*fn)(const char *, char *const[], char *const[]) =
        trc_real(&real_execvpe, "execvpe");
    if (!fn) {
        errno = ENOSYS;
        return -1;
    }
    int wrote = before_exec();
    int rc = fn(file, argv, envp);
    after_failed_exec(wrote);
    return rc;
}

int fexecve(int fd, char *const argv[], char *const envp[])
{
    int (*fn)(int, char *const[], char *const[]) =
        trc_real(&real_fexecve, "fexecve");
    if (!fn) {
        errno = ENOSYS;
        return -1;
    }
    int wrote = before_exec();
    int rc = fn(fd, argv, envp);
    after_failed_exec(wrote);
    return rc;
}

/* --- the variadic forms ------------------------------------------------------ */

/* The arguments after arg0 up to the terminating NULL, as a vector; for
 * execle also the environment after that NULL. NULL when out of memory. */
static char **collect(const char *arg0, va_list ap, char ***envp)
{
    size_t n = 1, cap = 16;
    char **v = malloc(cap * sizeof *v);
    if (!v)
        return NULL;
    v[0] = (char *)arg0;
    for (char *a = arg0 ? va_arg(ap, char *) : NULL;; a = va_arg(ap, char *)) {
        if (n + 1 >= cap) {
            char **w = realloc(v, 2 * cap * sizeof *v);
            if (!w) {
                free(v);
                return NULL;
            }
            v = w;
            cap *= 2;
        }
        v[n++] = a;
        if (!a)
            break;
    }
    if (envp)
        *envp = va_arg(ap, char **);
    return v;
}

/* The vector form a variadic one calls. */
enum vector_form { FORM_EXECV, FORM_EXECVP, FORM_EXECVE };

/* Run the vector form on argv (which it frees, keeping errno). */
static int call_vector(enum vector_form form, const char *path, char **argv,
                       char **envp)
{
    if (!argv) {
        errno = ENOMEM;
        return -1;
    }
    int rc = form == FORM_EXECVP  ? execvp(path, argv)
             : form == FORM_EXECVE ? execve(path, argv, envp ? envp : environ)
                                   : execv(path, argv);
    int saved = errno;
    free(argv);
    errno = saved;
    return rc;
}

int execl(const char *path, const char *arg0, ...)
{
    va_list ap;
    va_start(ap, arg0);
    char **argv = collect(arg0, ap, NULL);
    va_end(ap);
    return call_vector(FORM_EXECV, path, argv, NULL);
}

int execlp(const char *file, const char *arg0, ...)
{
    va_list ap;
    va_start(ap, arg0);
    char **argv = collect(arg0, ap, NULL);
    va_end(ap);
    return call_vector(FORM_EXECVP, file, argv, NULL);
}

int execle(const char *path, const char *arg0, ...)
{
    va_list ap;
    char **envp = NULL;
    va_start(ap, arg0);
    char **argv = collect(arg0, ap, &envp);
    va_end(ap);
    return call_vector(FORM_EXECVE, path, argv, envp);
}
