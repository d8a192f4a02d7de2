/*
 * pfs_sim.c - a whole job through the cost model (see pfs_sim.h).
 */
#include <stdlib.h>
#include <string.h>

#include "pfs_sim.h"

/* One simulated process. */
struct sim_client {
    struct pfs_client c;
    struct pfs_file f;
    double t;           /* when its current operation completes */
    uint64_t next;      /* requests (or files) done */
    int state;          /* 0 working, 1 closing, 2 done */
};

/* The offset of request k of client r. */
static uint64_t offset_of(const struct pfs_sim_job *j, int r, uint64_t k)
{
    if (!j->shared)
        return k * j->xfer;
    if (j->interleaved)
        return (k * (uint64_t)j->clients + (uint64_t)r) * j->xfer;
    return (uint64_t)r * j->per_client + k * j->xfer;
}

/* The next operation of client r of a write job. */
static void write_step(const struct pfs_profile *p, struct pfs_shared *sh,
                       const struct pfs_sim_job *j, struct sim_client *s,
                       int r)
{
    uint64_t nreq = j->xfer ? j->per_client / j->xfer : 0;
    if (s->next < nreq) {
        s->t = pfs_write(p, sh, &s->c, &s->f, offset_of(j, r, s->next),
                         j->xfer, s->t);
        if (j->fsync_each)
            s->t = pfs_fsync(p, sh, &s->c, &s->f, s->t);
        s->next++;
        return;
    }
    s->t = pfs_close(p, sh, &s->c, &s->f, s->t);
    s->state = 2;
}

/* The next operation of client r of a create job. */
static void create_step(const struct pfs_profile *p, struct pfs_shared *sh,
                        const struct pfs_sim_job *j, struct sim_client *s)
{
    /* one metadata operation per step, so that they reach the server in
     * time order: create, close, create, ... */
    if ((int)s->next < 2 * j->files) {
        s->t = pfs_md(p, sh, s->next % 2 ? PFS_MD_CLOSE : PFS_MD_CREATE, s->t);
        s->next++;
        return;
    }
    s->state = 2;
}

/* See pfs_sim.h. */
int pfs_sim_run(const struct pfs_profile *p, const struct pfs_sim_job *j,
                struct pfs_sim_result *out)
{
    if (j->clients < 1 || j->clients > 4096)
        return -1;
    struct pfs_shared *sh = calloc(1, sizeof *sh);
    struct sim_client *cl = calloc((size_t)j->clients, sizeof *cl);
    if (!sh || !cl) {
        free(sh);
        free(cl);
        return -1;
    }
    struct pfs_layout shared_lay = pfs_layout_new(p, &sh->srv, j->stripe_count,
                                                  j->stripe_size);
    for (int r = 0; r < j->clients; r++) {
        struct pfs_layout lay = j->shared ? shared_lay
                                          : pfs_layout_new(p, &sh->srv,
                                                           j->stripe_count,
                                                           j->stripe_size);
        cl[r].c.id = r + 1;
        pfs_file_init(&cl[r].f, j->shared ? 1 : (uint64_t)r + 1, &lay);
    }
    for (;;) {
        int next = -1;
        for (int r = 0; r < j->clients; r++)
            if (cl[r].state != 2 && (next < 0 || cl[r].t < cl[next].t))
                next = r;
        if (next < 0)
            break;
        if (j->kind == PFS_SIM_CREATE)
            create_step(p, sh, j, &cl[next]);
        else
            write_step(p, sh, j, &cl[next], next);
    }
    double end = 0;
    for (int r = 0; r < j->clients; r++)
        end = cl[r].t > end ? cl[r].t : end;
    memset(out, 0, sizeof *out);
    out->seconds = end;
    if (end > 0) {
        out->mib_per_s = (double)j->per_client * j->clients / end / 1048576.0;
        out->ops_per_s = (double)j->files * j->clients / end;
    }
    out->revocations = sh->cnt.revocations;
    free(sh);
    free(cl);
    return 0;
}
