/*
 * src/validate/internal.h - what the validate files share inside the
 * library: running one program with a timeout, and running a kernel
 * configuration under mpirun.
 */
#ifndef IOSAGE_VALIDATE_INTERNAL_H
#define IOSAGE_VALIDATE_INTERNAL_H

#include <stddef.h>

#include "iosage/validate.h"

/* Monotonic clock in seconds. */
double ios_validate_now(void);

/* Run argv (NULL-terminated; argv[0] looked up in PATH) in its own process
 * group with stdin from /dev/null, stdout into out_path and stderr into
 * err_path (NULL: into out_path too), killing the group after timeout_s.
 * As root the child gets OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM)=1. Returns the
 * exit status (0..255), or -1 with why set ("signal 9", "timed out after
 * 120 s", "cannot start: ..."). *wall: seconds from fork to exit. */
int ios_validate_spawn(char *const argv[], const char *out_path,
                       const char *err_path, int timeout_s, double *wall,
                       char *why, size_t why_size);

/* One run of a kernel configuration. */
struct ios_validate_run {
    double wall;     /* seconds of the whole mpirun */
    double kernel_s; /* seconds= of the kernel's summary line (its timed
                        I/O phases), at least 1e-4 */
};

/* Run kernel with flags on ranks under mpirun (--oversubscribe --bind-to
 * none), traced into log_path when log_path is not NULL, output into
 * out_path. A failed run is tried twice more (a concurrent mpirun can
 * break start-up); each retry is reported through o->progress. IOSAGE_E_IO
 * when it still fails or prints no summary line; err names out_path. */
iosage_status ios_validate_run_kernel(const struct iosage_validate_options *o,
                                      const char *kernel, int ranks,
                                      const struct iosage_validate_flags *f,
                                      const char *log_path,
                                      const char *out_path,
                                      struct ios_validate_run *run,
                                      iosage_error *err);

/* printf to o->progress (nothing when it is NULL). */
void ios_validate_say(const struct iosage_validate_options *o,
                      const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
