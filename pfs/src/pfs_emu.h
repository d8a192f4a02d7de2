/*
 * pfs_emu.h - internals of libiosage-pfs.so shared by its files.
 *
 *   pfs_emu.c    switch on from the environment, the job's shared memory,
 *                the open-file table, layouts, the clock and sleeping
 *   pfs_wrap.c   the POSIX wrappers
 *   pfs_mpi.c    MPI_File_open: the striping hints
 *
 * The emulator is on only when IOSAGE_PFS_PROFILE and IOSAGE_PFS_MOUNT are
 * both set; otherwise every wrapper calls the real function and nothing
 * else (not even a clock read).
 */
#ifndef IOSAGE_PFS_EMU_H
#define IOSAGE_PFS_EMU_H

#include <sys/types.h>

#include "pfs_model.h"

/* Switch on from the environment (once; the constructor calls it, and so
 * does the tracer's first question when its constructor runs first). */
void pfs_init(void);

/* The emulated mount as given (absolute, no trailing '/'), or NULL when the
 * emulator is off. */
const char *pfs_mount_path(void);

/* Seconds this process's emulated calls have lasted beyond what the model
 * said (negative while sleep is owed); 0 with IOSAGE_PFS_VCLOCK=0. */
double pfs_late(void);

/* 1 when the calling thread may emulate: the emulator is on and the
 * thread is not inside the emulator already. */
int pfs_active(void);

/* Enter / leave the emulator's own code (its calls are not emulated). */
void pfs_enter(void);
void pfs_leave(void);

/* The real function `name`, looked up once into *slot. */
void *pfs_real(void *_Atomic *slot, const char *name);

/* 1 when path (absolute, or relative to the working directory) is under
 * the emulated mount. */
int pfs_path_in_mount(const char *path);

/* The monotonic clock, seconds. */
double pfs_now(void);

/* What every emulated call does last: the model said the call lasts
 * `model_cost` seconds of model time from its start t0 (the real call
 * ended at t1); add what is left (x IOSAGE_PFS_DILATION) to the thread's
 * time debt and sleep when the debt is large enough. Updates the drift
 * counters. */
void pfs_settle(double t0, double t1, double model_cost);

/* The model time at which a call starting at clock time `now` arrives:
 * now plus the debt the thread has not slept yet, / the dilation. */
double pfs_vnow(double now);

/* The model's state. Lock with pfs_lock_model() around every use. */
const struct pfs_profile *pfs_profile(void);
struct pfs_shared *pfs_shared_state(void);
struct pfs_client *pfs_client_state(void);
void pfs_lock_model(void);
void pfs_unlock_model(void);

/* --- open files -------------------------------------------------------- */

/* After a successful open of an emulated path: set up fd's state (layout
 * from the file's attribute, or a new layout when `created`). Returns the
 * model's file, or NULL for a directory or when fd is out of range. */
struct pfs_file *pfs_fd_open(int fd, const char *path, int created);

/* The state of an emulated fd, or NULL. */
struct pfs_file *pfs_fd_get(int fd);

/* Forget fd (after close). */
void pfs_fd_forget(int fd);

/* The striping hints MPI_File_open found, for the next file this thread
 * creates (0: none). */
void pfs_set_hints(int stripe_count, unsigned long long stripe_size);

#endif
