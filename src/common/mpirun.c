/*
 * mpirun.c - the command line of one kernel run under mpirun, and the
 * child's side of starting it (see ios_mpirun.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ios_mpirun.h"

void ios_mpirun_argv(struct ios_mpirun *m, int ranks, const char *bench_dir,
                     const char *kernel, const char *preload,
                     const char *log_path, char *const *args, int n_args)
{
    int a = 0;
    snprintf(m->np, sizeof m->np, "%d", ranks);
    snprintf(m->kernel, sizeof m->kernel, "%s/%s", bench_dir, kernel);
    m->argv[a++] = "mpirun";
    m->argv[a++] = "-np";
    m->argv[a++] = m->np;
    m->argv[a++] = "--oversubscribe";
    m->argv[a++] = "--bind-to";
    m->argv[a++] = "none";
    if (preload) {
        snprintf(m->preload, sizeof m->preload, "LD_PRELOAD=%s", preload);
        m->argv[a++] = "-x";
        m->argv[a++] = m->preload;
    }
    if (log_path) {
        snprintf(m->log, sizeof m->log, "IOSAGE_LOG=%s", log_path);
        m->argv[a++] = "-x";
        m->argv[a++] = m->log;
    }
    m->argv[a++] = "-x";
    m->argv[a++] = "ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0";
    m->argv[a++] = m->kernel;
    for (int i = 0; i < n_args && i < IOS_MPIRUN_MAX_ARGS; i++)
        m->argv[a++] = args[i];
    m->argv[a] = NULL;
}

void ios_mpirun_exec(char *const argv[], const char *out_path,
                     const char *err_path)
{
    setpgid(0, 0);
    int in = open("/dev/null", O_RDONLY);
    int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int errfd = err_path ? open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644)
                         : out;
    if (in < 0 || out < 0 || errfd < 0)
        _exit(126);
    dup2(in, 0);
    dup2(out, 1);
    dup2(errfd, 2);
    if (getuid() == 0) {
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    }
    execvp(argv[0], argv);
    dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}
