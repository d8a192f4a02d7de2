/*
 * src/gen/system.c - domain randomization: every run of a sweep draws the
 * file system it runs on (`iosage gen --pfs-random PROFILES`).
 *
 * A draw is a pure function of the run's seed: the same run id always gets
 * the same system, so a resumed sweep or a sweep run elsewhere gives the
 * same dataset. A draw is either "native" (no emulator: this machine's
 * page cache, one more system) or one of the base profiles with its
 * machine-defining figures replaced by values drawn from wide ranges
 * around what the profiles hold (docs/dataset.md, "Randomized systems"):
 *
 *   ost.count                  1 - 64 targets (log-uniform)
 *   ost.write_mibs             0.2 - 5 GB/s per target (log-uniform); reads
 *                              keep the base profile's read/write ratio
 *   ost.write_rpc_us           50 us - 2 ms per RPC (log-uniform); reads keep
 *                              the base ratio
 *   mds.open_us                20 us - 1 ms (log-uniform); the other
 *                              metadata operations keep their base ratio
 *   stripe.count               1, 2, 4, 8, 16 or every target (-1)
 *   stripe.size                64 KiB - 16 MiB, powers of two
 *   client.cache               64 MiB - 8 GiB, powers of two
 *   client.dirty_max           8 MiB - 128 MiB, powers of two
 *
 * What was drawn is written as a complete profile (DIR/logs/<run>.pfs,
 * loadable by the emulator and by `--pfs FILE`) and summed up in the
 * manifest's "system" column.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ios_common.h"
#include "gen.h"
#include "pfs_model.h"
#include "ios_math.h"

/* The base profiles and the native share (owned by gen_systems_free). */
struct gen_systems {
    int n;
    int native_pct;
    struct pfs_profile base[GEN_MAX_BASE_PROFILES];
};

iosage_status gen_systems_load(const char *const *paths, int n, int native_pct,
                               struct gen_systems **out, iosage_error *err)
{
    *out = NULL;
    if (n < 1 || n > GEN_MAX_BASE_PROFILES)
        return ios_fail(err, IOSAGE_E_LIMIT, "--pfs-random", NULL, -1,
                        "1 to %d base profiles, got %d", GEN_MAX_BASE_PROFILES,
                        n);
    struct gen_systems *s = calloc(1, sizeof *s);
    if (!s)
        return ios_fail(err, IOSAGE_E_NOMEM, "--pfs-random", NULL, -1,
                        "out of memory");
    s->native_pct = native_pct;
    for (int i = 0; i < n; i++) {
        char msg[256];
        if (pfs_profile_load(&s->base[i], paths[i], msg, sizeof msg) < 0) {
            free(s);
            return ios_fail(err, IOSAGE_E_CORRUPT, paths[i], NULL, -1, "%s",
                            msg);
        }
        s->n++;
    }
    *out = s;
    return IOSAGE_OK;
}

void gen_systems_free(struct gen_systems *s)
{
    free(s);
}

/* --- Drawing ---------------------------------------------------------------- */

/* splitmix64: a small, well-mixed generator; the stream is the run's own. */
static uint64_t next_u64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static double uniform(uint64_t *state)
{
    return (double)(next_u64(state) >> 11) / 9007199254740992.0;
}

/* Log-uniform in [lo, hi]: every factor of two is as likely as any other. */
static double log_uniform(uint64_t *state, double lo, double hi)
{
    return lo * ios_libm()->pow(hi / lo, uniform(state));
}

/* 2^k bytes for k uniform in [lo_log2, hi_log2]. */
static uint64_t power_of_two(uint64_t *state, int lo_log2, int hi_log2)
{
    int k = lo_log2 + (int)(next_u64(state) % (uint64_t)(hi_log2 - lo_log2 + 1));
    return (uint64_t)1 << k;
}

/* Round to 3 significant digits, so the profile file shows the value the
 * model uses. */
static double round3(double v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.3g", v);
    return strtod(buf, NULL);
}

/* The base profile as a system without seeks, which is what a draw is: a
 * random RPC costs rpc_us + seek_us, and the bandwidth is such that a
 * whole RPC in sequence takes as long as on the base (to 3 significant
 * digits, like every drawn figure). A base without seeks is returned as it
 * is. lustre-hdd-small's seek-free figures are the 2,400 us and 558 MiB/s
 * it had before it had seeks, so its draws did not change. */
static struct pfs_profile seek_free(const struct pfs_profile *b)
{
    struct pfs_profile e = *b;
    double whole = (double)b->rpc_size / (1024.0 * 1024.0);
    double w = whole / b->ost_write_mibs - b->ost_write_seek_us * 1e-6;
    double r = whole / b->ost_read_mibs - b->ost_read_seek_us * 1e-6;
    int seeks = b->ost_write_seek_us > 0 || b->ost_read_seek_us > 0;
    if (seeks && w > 0 && r > 0) {
        e.ost_write_mibs = round3(whole / w);
        e.ost_read_mibs = round3(whole / r);
        e.ost_write_rpc_us += b->ost_write_seek_us;
        e.ost_read_rpc_us += b->ost_read_seek_us;
    }
    e.ost_write_seek_us = 0;
    e.ost_read_seek_us = 0;
    return e;
}

int gen_system_draw(const struct gen_systems *s, long seed,
                    struct pfs_profile *p)
{
    uint64_t state = (uint64_t)seed * 0x2545f4914f6cdd1dULL + 0x5157ULL;
    if (uniform(&state) * 100.0 < s->native_pct)
        return 0;
    struct pfs_profile base = seek_free(&s->base[next_u64(&state) % (uint64_t)s->n]);
    const struct pfs_profile *b = &base;
    *p = *b;
    p->ost_count = (int)ios_libm()->lround(log_uniform(&state, 1, 64));

    const double mib = 1024.0 * 1024.0;
    p->ost_write_mibs = round3(log_uniform(&state, 0.2e9, 5e9) / mib);
    p->ost_read_mibs = round3(p->ost_write_mibs * b->ost_read_mibs /
                              b->ost_write_mibs);

    p->ost_write_rpc_us = round3(log_uniform(&state, 50, 2000));
    p->ost_read_rpc_us = round3(p->ost_write_rpc_us * b->ost_read_rpc_us /
                                b->ost_write_rpc_us);

    double open_us = round3(log_uniform(&state, 20, 1000));
    for (int i = 0; i < PFS_MD_NOPS; i++)
        p->md_us[i] = round3(open_us * b->md_us[i] / b->md_us[PFS_MD_OPEN]);

    static const int counts[] = {1, 2, 4, 8, 16, -1};
    p->stripe_count = counts[next_u64(&state) % 6];
    if (p->stripe_count > p->ost_count)
        p->stripe_count = -1;
    p->stripe_size = power_of_two(&state, 16, 24);
    p->cache_size = power_of_two(&state, 26, 33);
    p->dirty_max = power_of_two(&state, 23, 27);
    /* the base name, cut so that the id always fits */
    snprintf(p->name, sizeof p->name, "%.54s~%08lx", b->name,
             (unsigned long)(next_u64(&state) & 0xffffffffu));
    return 1;
}

/* --- Writing ---------------------------------------------------------------- */

/* Size in the profile's units: the largest of g, m, k that divides it. */
static void put_size(FILE *f, const char *key, uint64_t v)
{
    static const char units[] = "gmk";
    for (int i = 0; i < 3; i++) {
        uint64_t u = (uint64_t)1 << (10 * (3 - i));
        if (v >= u && v % u == 0) {
            fprintf(f, "%s = %llu%c\n", key, (unsigned long long)(v / u),
                    units[i]);
            return;
        }
    }
    fprintf(f, "%s = %llu\n", key, (unsigned long long)v);
}

/* Every key of p as profile text. */
static void put_profile(FILE *f, const struct pfs_profile *p)
{
    fprintf(f, "name = %s\n", p->name);
    fprintf(f, "mds.count = %d\n", p->mds_count);
    for (int i = 0; i < PFS_MD_NOPS; i++)
        fprintf(f, "mds.%s_us = %.6g\n", pfs_md_name((enum pfs_md_op)i),
                p->md_us[i]);
    fprintf(f, "net.latency_us = %.6g\n", p->net_latency_us);
    fprintf(f, "client.mibs = %.6g\n", p->client_mibs);
    fprintf(f, "ost.count = %d\n", p->ost_count);
    fprintf(f, "ost.write_mibs = %.6g\n", p->ost_write_mibs);
    fprintf(f, "ost.read_mibs = %.6g\n", p->ost_read_mibs);
    fprintf(f, "ost.write_rpc_us = %.6g\n", p->ost_write_rpc_us);
    fprintf(f, "ost.read_rpc_us = %.6g\n", p->ost_read_rpc_us);
    fprintf(f, "ost.write_seek_us = %.6g\n", p->ost_write_seek_us);
    fprintf(f, "ost.read_seek_us = %.6g\n", p->ost_read_seek_us);
    fprintf(f, "ost.commit_us = %.6g\n", p->ost_commit_us);
    fprintf(f, "lock.revoke_us = %.6g\n", p->lock_revoke_us);
    put_size(f, "rpc.size", p->rpc_size);
    fprintf(f, "rpc.in_flight = %d\n", p->rpcs_in_flight);
    put_size(f, "client.dirty_max", p->dirty_max);
    put_size(f, "client.cache", p->cache_size);
    put_size(f, "client.readahead_max", p->readahead_max);
    fprintf(f, "stripe.count = %d\n", p->stripe_count);
    put_size(f, "stripe.size", p->stripe_size);
}

iosage_status gen_system_write(const struct pfs_profile *p, const char *run_id,
                               const char *path, iosage_error *err)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return ios_fail(err, IOSAGE_E_IO, tmp, NULL, -1, "cannot create: %s",
                        strerror(errno));
    fprintf(f, "# the system drawn for run %s by iosage gen --pfs-random "
               "(src/gen/system.c)\n", run_id);
    put_profile(f, p);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        unlink(tmp);
        return ios_fail(err, IOSAGE_E_IO, path, NULL, -1, "cannot write");
    }
    return IOSAGE_OK;
}

void gen_system_summary(const struct pfs_profile *p, char *out, size_t size)
{
    char ss[32], cache[32];
    snprintf(ss, sizeof ss, "%lluk", (unsigned long long)(p->stripe_size >> 10));
    snprintf(cache, sizeof cache, "%llum",
             (unsigned long long)(p->cache_size >> 20));
    snprintf(out, size,
             "%s:ost=%d,ost_mibs=%.6g,rpc_us=%.6g,md_open_us=%.6g,"
             "stripe=%dx%s,cache=%s,dirty=%llum",
             p->name, p->ost_count, p->ost_write_mibs, p->ost_write_rpc_us,
             p->md_us[PFS_MD_OPEN], p->stripe_count, ss, cache,
             (unsigned long long)(p->dirty_max >> 20));
}
