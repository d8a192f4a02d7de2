/*
 * pfs_accuracy.c - how close the emulator's elapsed times are to its model.
 *
 *   LD_PRELOAD=libiosage-pfs.so IOSAGE_PFS_PROFILE=P IOSAGE_PFS_MOUNT=DIR \
 *       pfs-accuracy P DIR
 *
 * For each fixed operation sequence below, the program first asks the
 * model (its own copy of pfs_model.c, started from idle servers) how long
 * the sequence lasts, then runs it for real on files under DIR (where the
 * preloaded emulator sleeps) and times it. One line per sequence:
 * `name predicted_s measured_s error_pct`. Run by pfs/bench/accuracy.sh
 * (make bench); not a test, since its figures depend on the load.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pfs_model.h"

enum step_kind { S_CREATE, S_WRITE, S_READ, S_FSYNC, S_CLOSE, S_STAT, S_UNLINK };

/* One sequence: n files, each created, written in `count` requests of
 * `size` bytes (stride apart), optionally fsynced after every write,
 * closed, reopened and read back when `reread`, then unlinked. */
struct sequence {
    const char *name;
    int files;
    int count;
    size_t size;
    size_t stride;
    int fsync_each;
    int reread;
};

static const struct sequence sequences[] = {
    {"write-1m-x128", 1, 128, 1u << 20, 1u << 20, 0, 0},
    {"write-4k-x4096", 1, 4096, 4096, 4096, 0, 0},
    {"write-4k-strided-x1024", 1, 1024, 4096, 1u << 20, 0, 0},
    {"fsync-1m-x32", 1, 32, 1u << 20, 1u << 20, 1, 0},
    {"read-1m-x64", 1, 64, 1u << 20, 1u << 20, 0, 1},
    {"create-x2000", 2000, 0, 0, 0, 0, 0},
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* What the model says the sequence lasts (one client, idle servers). */
static double predict(const struct pfs_profile *p, const struct sequence *q,
                      struct pfs_shared *sh)
{
    memset(sh, 0, sizeof *sh);
    struct pfs_client c;
    memset(&c, 0, sizeof c);
    c.id = 1;
    struct pfs_file f;
    double t = 0;
    for (int i = 0; i < q->files; i++) {
        struct pfs_layout lay = pfs_layout_new(p, &sh->srv, 0, 0);
        pfs_file_init(&f, (uint64_t)i + 1, &lay);
        t = pfs_md(p, sh, PFS_MD_CREATE, t);
        for (int k = 0; k < q->count; k++) {
            t = pfs_write(p, sh, &c, &f, (uint64_t)k * q->stride, q->size, t);
            if (q->fsync_each)
                t = pfs_fsync(p, sh, &c, &f, t);
        }
        t = pfs_close(p, sh, &c, &f, t);
        if (q->reread) {
            uint64_t size = (uint64_t)(q->count - 1) * q->stride + q->size;
            struct pfs_file g;
            pfs_file_init(&g, (uint64_t)i + 1, &lay);   /* a new open: cold cache */
            t = pfs_md(p, sh, PFS_MD_OPEN, t);
            for (int k = 0; k < q->count; k++)
                t = pfs_read(p, sh, &c, &g, (uint64_t)k * q->stride, q->size,
                             size, t);
            t = pfs_close(p, sh, &c, &g, t);
        }
        t = pfs_md(p, sh, PFS_MD_UNLINK, t);
    }
    return t;
}

/* Run the sequence on real files under dir; returns seconds, -1 on error. */
static double run(const char *dir, const struct sequence *q, char *buf)
{
    double t0 = now();
    for (int i = 0; i < q->files; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/acc.%s.%d", dir, q->name, i);
        int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
        if (fd < 0)
            return -1;
        for (int k = 0; k < q->count; k++) {
            if (pwrite(fd, buf, q->size, (off_t)k * (off_t)q->stride) !=
                (ssize_t)q->size)
                return -1;
            if (q->fsync_each)
                fsync(fd);
        }
        close(fd);
        if (q->reread) {
            fd = open(path, O_RDONLY);
            if (fd < 0)
                return -1;
            for (int k = 0; k < q->count; k++)
                if (pread(fd, buf, q->size, (off_t)k * (off_t)q->stride) !=
                    (ssize_t)q->size)
                    return -1;
            close(fd);
        }
        unlink(path);
    }
    return now() - t0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: pfs-accuracy PROFILE DIR (under the emulator)\n");
        return 2;
    }
    struct pfs_profile p;
    char err[256];
    if (pfs_profile_load(&p, argv[1], err, sizeof err) < 0) {
        fprintf(stderr, "pfs-accuracy: %s: %s\n", argv[1], err);
        return 2;
    }
    struct pfs_shared *sh = malloc(sizeof *sh);
    char *buf = calloc(1, 1u << 20);
    if (!sh || !buf)
        return 1;
    /* under IOSAGE_PFS_DILATION=D every modelled cost lasts D times longer */
    const char *dil = getenv("IOSAGE_PFS_DILATION");
    double d = dil && *dil ? strtod(dil, NULL) : 1.0;
    if (!(d >= 1.0))
        d = 1.0;
    int rc = 0;
    printf("%-24s %12s %12s %9s\n", "sequence", "model_s", "measured_s", "error_%");
    for (size_t i = 0; i < sizeof sequences / sizeof sequences[0]; i++) {
        double want = predict(&p, &sequences[i], sh) * d;
        double got = run(argv[2], &sequences[i], buf);
        if (got < 0) {
            fprintf(stderr, "pfs-accuracy: %s: I/O failed under %s\n",
                    sequences[i].name, argv[2]);
            rc = 1;
            continue;
        }
        printf("%-24s %12.4f %12.4f %+9.2f\n", sequences[i].name, want, got,
               100.0 * (got - want) / want);
    }
    free(sh);
    free(buf);
    return rc;
}
