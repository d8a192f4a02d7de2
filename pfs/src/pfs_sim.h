/*
 * pfs_sim.h - run a whole job through the cost model, without sleeping:
 * `clients` processes each doing the same kind of I/O, their operations
 * taken in time order (always the client that is earliest goes next). The
 * unit tests check the model's behaviour with it, and pfs-model prints
 * the model's side of the calibration tables of docs/pfs.md.
 */
#ifndef IOSAGE_PFS_SIM_H
#define IOSAGE_PFS_SIM_H

#include "pfs_model.h"

enum pfs_sim_kind {
    PFS_SIM_WRITE,      /* write per_client bytes in xfer requests, close */
    PFS_SIM_CREATE,     /* create and close `files` files each */
};

struct pfs_sim_job {
    enum pfs_sim_kind kind;
    int clients;
    uint64_t xfer;          /* bytes per request */
    uint64_t per_client;    /* bytes each client writes */
    int shared;             /* one shared file (else one file per client) */
    int interleaved;        /* shared: request k of client r at (k*clients+r)*xfer
                             * (else each client writes its own block) */
    int fsync_each;         /* fsync after every request */
    int stripe_count;       /* 0: the profile's default */
    uint64_t stripe_size;   /* 0: the profile's default */
    int files;              /* PFS_SIM_CREATE: files per client */
};

struct pfs_sim_result {
    double seconds;         /* until the last client finished */
    double mib_per_s;       /* bytes written / seconds */
    double ops_per_s;       /* PFS_SIM_CREATE: creates / seconds */
    uint64_t revocations;
};

/* Run job on profile p from idle servers. Returns 0, or -1 when job is
 * out of range (clients 1..4096) or memory ran out. */
int pfs_sim_run(const struct pfs_profile *p, const struct pfs_sim_job *job,
                struct pfs_sim_result *out);

#endif
