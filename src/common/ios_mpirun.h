/*
 * ios_mpirun.h - the one way a benchmark kernel is started under mpirun
 * (mpirun.c), for `iosage gen` (src/gen/run.c) and `iosage validate`
 * (src/validate/spawn.c):
 *
 *   mpirun -np RANKS --oversubscribe --bind-to none
 *          [-x LD_PRELOAD=PRELOAD] [-x IOSAGE_LOG=LOG]
 *          -x ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0
 *          BENCH_DIR/KERNEL ARGS...
 *
 * The ASan options let kernels built with ASan (make check) run with an
 * uninstrumented library preloaded. The caller forks and waits; in the
 * child ios_mpirun_exec redirects and execs.
 */
#ifndef IOS_COMMON_MPIRUN_H
#define IOS_COMMON_MPIRUN_H

#define IOS_MPIRUN_MAX_ARGS 80 /* kernel arguments at most */

/* One command line: argv points into the buffers (no allocation). */
struct ios_mpirun {
    char np[16];
    char preload[4200], log[4200], kernel[4200];
    char *argv[16 + IOS_MPIRUN_MAX_ARGS + 1];
};

/* Fill m for kernel (under bench_dir) on ranks ranks with args[0 .. n_args)
 * (n_args at most IOS_MPIRUN_MAX_ARGS; more are left out). preload and
 * log_path may be NULL (no -x for them). The strings of args must outlive
 * m. */
void ios_mpirun_argv(struct ios_mpirun *m, int ranks, const char *bench_dir,
                     const char *kernel, const char *preload,
                     const char *log_path, char *const *args, int n_args);

/* In a forked child: its own process group (a timeout kills mpirun and
 * every rank at once), stdin from /dev/null, stdout to out_path and stderr
 * to err_path (NULL: out_path too), Open MPI allowed to run as root, then
 * exec argv (searched in PATH). Never returns: exit status 126 when a file
 * cannot be opened, 127 when the exec fails (the reason on stderr). */
void ios_mpirun_exec(char *const argv[], const char *out_path,
                     const char *err_path) __attribute__((noreturn));

#endif
