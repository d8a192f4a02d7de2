/*
 * pfs_model_tables.c - the model's side of the calibration tables of
 * docs/pfs.md: what the cost model predicts, with no sleeping, for the
 * kernels' access patterns under a profile.
 *
 *   pfs-model PROFILE
 */
#include <stdio.h>

#include "pfs_sim.h"

static double run(const struct pfs_profile *p, struct pfs_sim_job j,
                  struct pfs_sim_result *r)
{
    if (pfs_sim_run(p, &j, r) < 0)
        return -1;
    return r->mib_per_s;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: pfs-model PROFILE\n");
        return 2;
    }
    struct pfs_profile p;
    char err[256];
    if (pfs_profile_load(&p, argv[1], err, sizeof err) < 0) {
        fprintf(stderr, "pfs-model: %s: %s\n", argv[1], err);
        return 2;
    }
    struct pfs_sim_result r;
    const int ranks[] = {1, 2, 4, 8, 16, 32, 64, 128};
    printf("profile %s: %d targets\n\n", p.name, p.ost_count);
    printf("file per process, 1 MiB writes, 16 MiB per rank (MiB/s)\n");
    for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++) {
        struct pfs_sim_job j = {PFS_SIM_WRITE, ranks[i], 1u << 20, 16u << 20,
                                0, 0, 0, 0, 0, 0};
        printf("  ranks %4d  %10.1f\n", ranks[i], run(&p, j, &r));
    }
    printf("\nshared file, 16 ranks, 4 MiB per rank, stripe count 4 (MiB/s)\n");
    struct pfs_sim_job il = {PFS_SIM_WRITE, 16, 4096, 4u << 20, 1, 1, 0, 4, 0, 0};
    double a = run(&p, il, &r);
    printf("  4 KiB interleaved     %10.2f  (revocations %llu)\n", a,
           (unsigned long long)r.revocations);
    struct pfs_sim_job bl = {PFS_SIM_WRITE, 16, 1u << 20, 4u << 20, 1, 0, 0, 4, 0, 0};
    double b = run(&p, bl, &r);
    printf("  1 MiB per-rank blocks %10.2f  (revocations %llu)\n", b,
           (unsigned long long)r.revocations);
    printf("  ratio per byte        %10.1f x\n", b / a);
    printf("\ncreates, 100 files per rank (creates/s)\n");
    for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++) {
        struct pfs_sim_job j = {PFS_SIM_CREATE, ranks[i], 0, 0, 0, 0, 0, 0, 0, 100};
        pfs_sim_run(&p, &j, &r);
        printf("  ranks %4d  %10.0f\n", ranks[i], r.ops_per_s);
    }
    printf("\nfsync after every 1 MiB write, 1 rank, 32 MiB\n");
    struct pfs_sim_job fs = {PFS_SIM_WRITE, 1, 1u << 20, 32u << 20, 0, 0, 1, 0, 0, 0};
    run(&p, fs, &r);
    printf("  per write %.3f ms (commit %.3f ms)\n", r.seconds / 32 * 1e3,
           p.ost_commit_us * 1e-3);
    struct pfs_sim_job nf = {PFS_SIM_WRITE, 1, 1u << 20, 32u << 20, 0, 0, 0, 0, 0, 0};
    run(&p, nf, &r);
    printf("  without fsync %.3f ms per write\n", r.seconds / 32 * 1e3);
    printf("\nshared file, 1 MiB per-rank blocks of 64 MiB, 16 ranks (MiB/s)\n");
    const int counts[] = {1, 2, 4, 8, -1};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        struct pfs_sim_job j = {PFS_SIM_WRITE, 16, 1u << 20, 64u << 20, 1, 0, 0,
                                counts[i], 0, 0};
        printf("  stripe count %3d  %10.1f\n", counts[i], run(&p, j, &r));
    }
    return 0;
}
