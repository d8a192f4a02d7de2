/*
 * pfs_query.c - what a tracer preloaded with the emulator may ask it, the
 * way the Darshan runtime asks Lustre (llapi / an ioctl on the open file)
 * and reads the mount table:
 *
 *   iosage_pfs_mount    where the emulated file system is mounted
 *   iosage_pfs_layout   the layout of an open file on it: stripe size,
 *                       stripe count and the targets (OST ids) in order
 *   iosage_pfs_late     how much longer than the model this process's
 *                       emulated calls lasted so far: a tracer subtracts it
 *                       from its clock, so that the times it writes are
 *                       the model's even when the machine wakes late
 *
 * The tracer finds these with dlsym(RTLD_DEFAULT, ...); without the
 * emulator they do not exist and it writes what it always wrote. They take
 * no lock the tracer could hold and make no intercepted call.
 */
#define _GNU_SOURCE
#include <stdint.h>

#include "pfs_emu.h"

/* The calls of this file are the library's interface to a tracer. */
#define PFS_EXPORT __attribute__((visibility("default")))

PFS_EXPORT const char *iosage_pfs_mount(void);
PFS_EXPORT int iosage_pfs_layout(int fd, int64_t *stripe_size,
                                 int64_t *stripe_count, int64_t *ost_ids,
                                 int max_ids);
PFS_EXPORT double iosage_pfs_late(void);

/* The emulated mount (absolute, as IOSAGE_PFS_MOUNT gave it), or NULL when
 * the emulator is off. */
const char *iosage_pfs_mount(void)
{
    pfs_init();
    return pfs_mount_path();
}

/*
 * The layout of fd when it is an open regular file on the emulated file
 * system: *stripe_size bytes, *stripe_count targets, and the first
 * min(stripe_count, max_ids) target ids into ost_ids (object i of the file
 * lives on target (first + i) mod ost.count, as the model places it).
 * Returns the number of ids written, or -1 when fd is not such a file.
 */
int iosage_pfs_layout(int fd, int64_t *stripe_size, int64_t *stripe_count,
                      int64_t *ost_ids, int max_ids)
{
    if (!pfs_mount_path())
        return -1;
    const struct pfs_file *f = pfs_fd_get(fd);
    if (!f)
        return -1;
    int n_ost = pfs_profile()->ost_count;
    *stripe_size = (int64_t)f->lay.stripe_size;
    *stripe_count = f->lay.stripe_count;
    int n = f->lay.stripe_count < max_ids ? f->lay.stripe_count : max_ids;
    for (int i = 0; i < n; i++)
        ost_ids[i] = (f->lay.first_ost + i) % n_ost;
    return n;
}

/* Seconds to subtract from the clock to get this process's model time. */
double iosage_pfs_late(void)
{
    return pfs_mount_path() ? pfs_late() : 0.0;
}
