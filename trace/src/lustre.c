/*
 * lustre.c - what the tracer learns from the parallel file system emulator
 * (pfs/, libiosage-pfs.so) when both are preloaded, the tracer first:
 *
 *   the mount   the emulated directory goes into the job's mount table as
 *               a `lustre` file system (records.c adds it), as a Lustre
 *               mount appears in the Darshan runtime's table;
 *   LUSTRE records  at each POSIX open of a file on it, the file's layout
 *               (stripe size, stripe count, OST ids), as the runtime's
 *               Lustre module records it from the open file (format spec
 *               9.9, one component); a file opened by every rank becomes
 *               one rank -1 record like the POSIX ones;
 *   the clock   the emulator counts how much longer than its model this
 *               process's emulated calls lasted (late wake-ups of 128
 *               ranks on two cores, real copies slower than the model);
 *               trc_now() subtracts it, so the times in the log are the
 *               model's (docs/pfs.md, "Drift").
 *
 * The emulator's three questions are looked up once with dlsym; without it
 * none of this does anything.
 *
 * A live LUSTRE record keeps the layout in its counter array:
 * c[0] stripe size, c[1] stripe count, c[2 + i] the id of target i
 * (at most TRC_LUSTRE_MAX_OSTS; a wider layout is recorded as its first
 * TRC_LUSTRE_MAX_OSTS targets, with that count).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <string.h>

#include "iosage/darshan.h"
#include "trace.h"

typedef const char *(*mount_fn)(void);
typedef int (*layout_fn)(int, int64_t *, int64_t *, int64_t *, int);

static mount_fn pfs_mount;
static layout_fn pfs_layout;
double (*g_pfs_late)(void);

/* See trace.h. */
void trc_lustre_init(void)
{
    pfs_mount = (mount_fn)dlsym(RTLD_DEFAULT, "iosage_pfs_mount");
    pfs_layout = (layout_fn)dlsym(RTLD_DEFAULT, "iosage_pfs_layout");
    if (!pfs_mount || !pfs_mount() || !pfs_layout) {
        pfs_mount = NULL;
        pfs_layout = NULL;
        return;
    }
    g_pfs_late = (double (*)(void))dlsym(RTLD_DEFAULT, "iosage_pfs_late");
}

/* See trace.h. */
const char *trc_lustre_mount(char *out)
{
    const char *m = pfs_mount ? pfs_mount() : NULL;
    if (!m || trc_clean_path(AT_FDCWD, m, out) != 0)
        return NULL;
    return out;
}

/* See trace.h. */
void trc_lustre_open(const struct trc_rec *posix, int fd)
{
    if (!pfs_layout)
        return;
    struct trc_rec *r = trc_rec_find(TRC_LUSTRE, posix->name);
    if (r)
        return; /* the layout is the one the first open saw */
    int64_t size, count, ids[TRC_LUSTRE_MAX_OSTS];
    int n = pfs_layout(fd, &size, &count, ids, TRC_LUSTRE_MAX_OSTS);
    if (n < 0 || !(r = trc_rec_get(TRC_LUSTRE, posix->name)))
        return;
    r->c[0] = size;
    r->c[1] = n;
    memcpy(&r->c[2], ids, sizeof ids[0] * (size_t)n);
}

/* See trace.h. */
void trc_lustre_record(const struct trc_pub *p, iosage_record *rec,
                       struct iosage_lustre_comp *comp)
{
    memset(comp, 0, sizeof *comp);
    comp->stripe_size = p->c[0];
    comp->stripe_count = p->c[1];
    comp->stripe_pattern = 0; /* raid0: a plain striped file */
    comp->flags = 0;          /* a plain layout has no component flags */
    comp->ext_start = 0;
    comp->ext_end = -1;       /* to the end of the file */
    comp->mirror_id = 0;      /* not mirrored */
    comp->pool_name = "";
    rec->n_counters = 0;
    rec->n_fcounters = 0;
    rec->counters = NULL;
    rec->fcounters = NULL;
    rec->x.lustre.num_comps = 1;
    rec->x.lustre.num_stripes = p->c[1];
    rec->x.lustre.comps = comp;
    rec->x.lustre.ost_ids = (int64_t *)&p->c[2];
}

/* See trace.h. */
void trc_wall_now(struct timespec *out)
{
    if (!g_pfs_late) {
        clock_gettime(CLOCK_REALTIME, out);
        return;
    }
    double t = trc_now();
    int64_t ns = (int64_t)g_t0_wall.tv_nsec + (int64_t)(t * 1e9);
    out->tv_sec = g_t0_wall.tv_sec + (time_t)(ns / 1000000000);
    out->tv_nsec = (long)(ns % 1000000000);
    if (out->tv_nsec < 0) {
        out->tv_sec--;
        out->tv_nsec += 1000000000;
    }
}
