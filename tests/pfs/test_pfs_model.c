/*
 * tests/pfs/test_pfs_model.c - the emulator's cost model as pure
 * functions: a profile and a sequence of operations in, times out. Every
 * expected value is worked out from the profile's figures in the test.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pfs_model.h"
#include "pfs_sim.h"

#define MIB (1024.0 * 1024.0)

/* A small profile with round numbers, so the expected times are easy to
 * work out by hand. */
static const char *const k_round =
    "name = round\n"
    "mds.count = 1\n"
    "mds.create_us = 100\n"
    "mds.close_us = 10\n"
    "net.latency_us = 20      # 10 us each way\n"
    "client.mibs = 1000\n"
    "ost.count = 4\n"
    "ost.write_rpc_us = 1000\n"
    "ost.read_rpc_us = 500\n"
    "ost.write_mibs = 100\n"
    "ost.read_mibs = 200\n"
    "ost.commit_us = 5000\n"
    "lock.revoke_us = 100\n"
    "rpc.size = 1m\n"
    "rpc.in_flight = 2\n"
    "client.dirty_max = 4m\n"
    "client.cache = 8m\n"
    "client.readahead_max = 4m\n"
    "stripe.count = 1\n"
    "stripe.size = 1m\n";

static void load_round(struct pfs_profile *p)
{
    char err[256];
    int rc = pfs_profile_parse(p, k_round, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
}

static struct pfs_shared *new_shared(void)
{
    struct pfs_shared *sh = calloc(1, sizeof *sh);
    assert_non_null(sh);
    return sh;
}

static int near(double a, double b, double tol)
{
    return fabs(a - b) <= tol;
}

/* --- profiles -------------------------------------------------------------- */

static void test_profile_parse(void **state)
{
    (void)state;
    struct pfs_profile p;
    load_round(&p);
    assert_string_equal(p.name, "round");
    assert_int_equal(p.ost_count, 4);
    assert_true(p.md_us[PFS_MD_CREATE] == 100);
    assert_true(p.md_us[PFS_MD_STAT] == 100);   /* default kept */
    assert_true(p.rpc_size == 1u << 20);
    assert_true(p.dirty_max == 4u << 20);
    assert_int_equal(p.rpcs_in_flight, 2);
}

static void test_profile_errors(void **state)
{
    (void)state;
    struct pfs_profile p;
    char err[256];
    assert_int_equal(pfs_profile_parse(&p, "ost.count = 4\nost.cuont = 3\n",
                                       err, sizeof err), -1);
    assert_string_equal(err, "line 2: unknown key 'ost.cuont'");
    assert_int_equal(pfs_profile_parse(&p, "rpc.size = 4x\n", err, sizeof err), -1);
    assert_string_equal(err, "line 1: bad value '4x' for rpc.size");
    assert_int_equal(pfs_profile_parse(&p, "ost.count 4\n", err, sizeof err), -1);
    assert_string_equal(err, "line 1: expected `key = value`");
    assert_int_equal(pfs_profile_parse(&p, "ost.count = 2\nstripe.count = 3\n",
                                       err, sizeof err), -1);
    assert_string_equal(err, "stripe.count must be -1 or 1..ost.count");
    assert_int_equal(pfs_profile_parse(&p, "mds.create_us = -5\n", err,
                                       sizeof err), -1);
}

/* Every shipped profile reads, and says what it claims. */
static void test_shipped_profiles(void **state)
{
    (void)state;
    const char *names[] = {"lustre-hdd-small", "lustre-flash-large", "gpfs-like"};
    const int osts[] = {12, 64, 32};
    for (int i = 0; i < 3; i++) {
        char path[1024], err[256];
        snprintf(path, sizeof path, "%s/profiles/%s.pfs", IOSAGE_SOURCE_DIR,
                 names[i]);
        struct pfs_profile p;
        int rc = pfs_profile_load(&p, path, err, sizeof err);
        if (rc)
            fprintf(stderr, "%s: %s\n", path, err);
        assert_int_equal(rc, 0);
        assert_string_equal(p.name, names[i]);
        assert_int_equal(p.ost_count, osts[i]);
    }
}

/* --- metadata --------------------------------------------------------------- */

/* Ten creates arriving together on one server are served one at a time. */
static void test_md_queue(void **state)
{
    (void)state;
    struct pfs_profile p;
    load_round(&p);
    struct pfs_shared *sh = new_shared();
    double last = 0;
    for (int i = 0; i < 10; i++)
        last = pfs_md(&p, sh, PFS_MD_CREATE, 0.0);
    /* 10 us to get there, 10 x 100 us of service, 10 us back */
    assert_true(near(last, 10e-6 + 10 * 100e-6 + 10e-6, 1e-9));
    assert_int_equal(sh->cnt.md_ops[PFS_MD_CREATE], 10);
    /* two servers: the last of ten ends after five services */
    memset(sh, 0, sizeof *sh);
    p.mds_count = 2;
    for (int i = 0; i < 10; i++)
        last = pfs_md(&p, sh, PFS_MD_CREATE, 0.0);
    assert_true(near(last, 10e-6 + 5 * 100e-6 + 10e-6, 1e-9));
    free(sh);
}

/* The create rate flattens at the server's rate as clients grow. */
static void test_md_storm_flattens(void **state)
{
    (void)state;
    struct pfs_profile p;
    load_round(&p);
    struct pfs_sim_result r1, r16, r64;
    struct pfs_sim_job j = {PFS_SIM_CREATE, 1, 0, 0, 0, 0, 0, 0, 0, 50};
    assert_int_equal(pfs_sim_run(&p, &j, &r1), 0);
    j.clients = 16;
    assert_int_equal(pfs_sim_run(&p, &j, &r16), 0);
    j.clients = 64;
    assert_int_equal(pfs_sim_run(&p, &j, &r64), 0);
    /* one client: a create and a close each cost a round trip plus service */
    assert_true(near(r1.ops_per_s, 1.0 / (2 * 20e-6 + 110e-6), 1.0));
    /* many: the server's rate, 1 / (100 + 10 us) */
    double server = 1.0 / 110e-6;
    assert_true(r16.ops_per_s > 0.97 * server && r16.ops_per_s <= server * 1.0001);
    assert_true(r64.ops_per_s > 0.99 * server && r64.ops_per_s <= server * 1.0001);
}

/* --- writes ----------------------------------------------------------------- */

/* Four 1 MiB writes to one target: each a full RPC sent at once; close
 * waits for the last. */
static void test_write_full_rpcs(void **state)
{
    (void)state;
    struct pfs_profile p;
    load_round(&p);
    struct pfs_shared *sh = new_shared();
    struct pfs_client c = {.id = 1};
    struct pfs_layout lay = pfs_layout_new(&p, &sh->srv, 0, 0);
    assert_int_equal(lay.stripe_count, 1);
    assert_int_equal(lay.first_ost, 0);
    struct pfs_file f;
    pfs_file_init(&f, 7, &lay);
    double t = 0;
    for (int i = 0; i < 4; i++)
        t = pfs_write(&p, sh, &c, &f, (uint64_t)i << 20, 1u << 20, t);
    /* under the 4 MiB dirty limit: the writes did not wait */
    assert_true(t == 0.0);
    assert_int_equal(sh->cnt.write_rpcs, 4);
    double close = pfs_close(&p, sh, &c, &f, t);
    /* the first RPC crosses the link (1 ms) and the wire (10 us); the
     * target then serves four RPCs back to back, 1 ms + 10 ms each */
    double rpcs_done = 1e-3 + 10e-6 + 4 * (1e-3 + 1.0 / 100) + 10e-6;
    assert_true(near(close, rpcs_done + 10e-6 + 10e-6 + 10e-6, 1e-7));
    free(sh);
}

/* Small sequential writes merge into full RPCs; small strided ones do not. */
static void test_write_merging(void **state)
{
    (void)state;
    struct pfs_profile p;
    load_round(&p);
    struct pfs_shared *sh = new_shared();
    struct pfs_client c = {.id = 1};
    struct pfs_layout lay = pfs_layout_new(&p, &sh->srv, 0, 0);
    struct pfs_file f;
    pfs_file_init(&f, 1, &lay);
    for (int i = 0; i < 512; i++)   /* 2 MiB in 4 KiB pieces */
        pfs_write(&p, sh, &c, &f, (uint64_t)i * 4096, 4096, 0);
    assert_int_equal(sh->cnt.write_rpcs, 2);
    pfs_file_init(&f, 2, &lay);
    for (int i = 0; i < 16; i++)    /* 4 KiB every 64 KiB */
        pfs_write(&p, sh, &c, &f, (uint64_t)i * 65536, 4096, 0);
    pfs_close(&p, sh, &c, &f, 0);
    assert_int_equal(sh->cnt.write_rpcs, 2 + 16);
    free(sh);
}

/* A client holding more than dirty_max waits for its RPCs. */
static void test_dirty_limit(void **state)
{
    (void)state;
    struct pfs_profile p;
    load_round(&p);
    struct pfs_shared *sh = new_shared();
    struct pfs_client c = {.id = 1};
    struct pfs_layout lay = pfs_layout_new(&p, &sh->srv, 0, 0);
    struct pfs_file f;
    pfs_file_init(&f, 1, &lay);
    double t = 0;
    for (int i = 0; i < 16; i++)
        t = pfs_write(&p, sh, &c, &f, (uint64_t)i << 20, 1u << 20, t);
    /* 16 MiB through one target at 11 ms per MiB: the writer is held back
     * to within 4 MiB of the target, so at least 12 RPCs have completed */
    assert_true(t > 12 * 11e-3);
    assert_true(t < 16 * 11e-3);
    free(sh);
}

/* fsync after every write costs at least one commit each. */
static void test_fsync_commit(void **state)
{
    (void)state;
    struct pfs_profile p;
    load_round(&p);
    struct pfs_sim_result plain, synced;
    struct pfs_sim_job j = {PFS_SIM_WRITE, 1, 1u << 20, 16u << 20, 0, 0, 0, 0, 0, 0};
    assert_int_equal(pfs_sim_run(&p, &j, &plain), 0);
    j.fsync_each = 1;
    assert_int_equal(pfs_sim_run(&p, &j, &synced), 0);
    assert_true(synced.seconds - plain.seconds >= 16 * 5e-3);
}

/* --- locks and striping ------------------------------------------------------- */

/* Interleaved 4 KiB writes of 8 clients to one shared file are at least
 * 10x slower per byte than per-client blocks of whole stripes. */
static void test_interleaved_vs_blocks(void **state)
{
    (void)state;
    struct pfs_profile p;
    load_round(&p);
    struct pfs_sim_result il, bl;
    struct pfs_sim_job j = {PFS_SIM_WRITE, 8, 4096, 1u << 20, 1, 1, 0, 4, 0, 0};
    assert_int_equal(pfs_sim_run(&p, &j, &il), 0);
    assert_true(il.revocations > 100);
    j.xfer = 1u << 20;
    j.interleaved = 0;
    assert_int_equal(pfs_sim_run(&p, &j, &bl), 0);
    assert_int_equal(bl.revocations, 0);
    assert_true(bl.mib_per_s >= 10 * il.mib_per_s);
}

/* A revocation flushes the holder's dirty bytes and moves the lock. */
static void test_revocation(void **state)
{
    (void)state;
    struct pfs_profile p;
    load_round(&p);
    struct pfs_shared *sh = new_shared();
    struct pfs_client a = {.id = 1}, b = {.id = 2};
    struct pfs_layout lay = pfs_layout_new(&p, &sh->srv, 0, 0);
    struct pfs_file fa, fb;
    pfs_file_init(&fa, 9, &lay);
    pfs_file_init(&fb, 9, &lay);
    double ta = pfs_write(&p, sh, &a, &fa, 0, 4096, 0);
    assert_true(ta == 0.0);
    double tb = pfs_write(&p, sh, &b, &fb, 4096, 4096, 0);
    /* the callback reaches a (10 us), a's 4 KiB RPC is served (1 ms +
     * 4 KiB at 100 MiB/s), back (10 us), then cancel and re-enqueue */
    double flush = 10e-6 + 1e-3 + 4096 / (100 * MIB) + 10e-6 + 100e-6;
    assert_true(near(tb, flush, 1e-9));
    assert_int_equal(sh->cnt.revocations, 1);
    /* a's extent was flushed by the revocation: its close sends nothing */
    uint64_t before = sh->cnt.write_rpcs;
    pfs_close(&p, sh, &a, &fa, tb);
    assert_int_equal(sh->cnt.write_rpcs, before);
    free(sh);
}

/* File per process scales with the targets until they are all busy; one
 * stripe on a shared file caps at one target. */
static void test_striping_scale(void **state)
{
    (void)state;
    struct pfs_profile p;
    load_round(&p);
    struct pfs_sim_result r1, r4, r8, one, four;
    struct pfs_sim_job j = {PFS_SIM_WRITE, 1, 1u << 20, 16u << 20, 0, 0, 0, 0, 0, 0};
    assert_int_equal(pfs_sim_run(&p, &j, &r1), 0);
    j.clients = 4;
    assert_int_equal(pfs_sim_run(&p, &j, &r4), 0);
    j.clients = 8;
    assert_int_equal(pfs_sim_run(&p, &j, &r8), 0);
    assert_true(r4.mib_per_s > 3.8 * r1.mib_per_s);
    assert_true(r8.mib_per_s < 1.05 * r4.mib_per_s);   /* 4 targets: saturated */
    /* one target: 1 MiB per 11 ms */
    assert_true(near(r1.mib_per_s, 1.0 / 11e-3, 3.0));
    struct pfs_sim_job s = {PFS_SIM_WRITE, 8, 1u << 20, 8u << 20, 1, 0, 0, 1, 0, 0};
    assert_int_equal(pfs_sim_run(&p, &s, &one), 0);
    s.stripe_count = 4;
    assert_int_equal(pfs_sim_run(&p, &s, &four), 0);
    assert_true(one.mib_per_s <= 1.0 / 11e-3 * 1.01);
    assert_true(four.mib_per_s > 2.5 * one.mib_per_s);
}

/* New files start on different targets, also when striped over all. */
static void test_layout_round_robin(void **state)
{
    (void)state;
    struct pfs_profile p;
    load_round(&p);
    struct pfs_servers srv;
    memset(&srv, 0, sizeof srv);
    assert_int_equal(pfs_layout_new(&p, &srv, 1, 0).first_ost, 0);
    assert_int_equal(pfs_layout_new(&p, &srv, 1, 0).first_ost, 1);
    assert_int_equal(pfs_layout_new(&p, &srv, 2, 0).first_ost, 2);
    struct pfs_layout all = pfs_layout_new(&p, &srv, -1, 4u << 20);
    assert_int_equal(all.stripe_count, 4);
    assert_int_equal(all.first_ost, 0);
    assert_true(all.stripe_size == 4u << 20);
    assert_int_equal(pfs_layout_new(&p, &srv, -1, 0).first_ost, 1);
}

/* --- reads ------------------------------------------------------------------ */

/* Re-reads of cached bytes are free; reads beyond the cache are not;
 * sequential reads bring read-ahead. */
/* What the read tests read from: the round profile, fresh servers, one
 * client and a file of the default layout (key 3). sh is the caller's to
 * free. */
struct read_setup {
    struct pfs_profile p;
    struct pfs_shared *sh;
    struct pfs_client c;
    struct pfs_layout lay;
    struct pfs_file f;
};

static void read_setup(struct read_setup *r)
{
    load_round(&r->p);
    r->sh = new_shared();
    r->c = (struct pfs_client){.id = 1};
    r->lay = pfs_layout_new(&r->p, &r->sh->srv, 0, 0);
    pfs_file_init(&r->f, 3, &r->lay);
}

static void test_read_cache(void **state)
{
    (void)state;
    struct read_setup r;
    read_setup(&r);
    struct pfs_profile p = r.p;
    struct pfs_shared *sh = r.sh;
    struct pfs_client c = r.c;
    struct pfs_file f = r.f;
    uint64_t size = 64u << 20;
    /* a cold 1 MiB read: link, wire, 0.5 ms + 5 ms, wire */
    double t = pfs_read(&p, sh, &c, &f, 0, 1u << 20, size, 0);
    assert_true(near(t, 1e-3 + 10e-6 + 0.5e-3 + 1.0 / 200 + 10e-6, 1e-7));
    /* the same bytes again: from the cache */
    double t2 = pfs_read(&p, sh, &c, &f, 0, 1u << 20, size, t);
    assert_true(t2 == t);
    assert_int_equal(sh->cnt.cache_hits, 1);
    /* the next 1 MiB is sequential: read-ahead fetches more than asked */
    uint64_t rpcs = sh->cnt.read_rpcs;
    pfs_read(&p, sh, &c, &f, 1u << 20, 1u << 20, size, t2);
    assert_true(sh->cnt.read_rpcs - rpcs >= 2);
    /* a random read far away is not cached */
    rpcs = sh->cnt.read_rpcs;
    double t3 = pfs_read(&p, sh, &c, &f, 40u << 20, 4096, size, 1.0);
    assert_true(t3 > 1.0 + 0.5e-3);
    assert_int_equal(sh->cnt.read_rpcs - rpcs, 1);
    free(sh);
}

/* A sequential stream through a file larger than the cache keeps the most
 * recent bytes: each byte is fetched once, read-ahead included, even when
 * the read-ahead window is as large as the cache (here 4 MiB of 8 MiB,
 * then 8 of 8). The cache dropped whole ranges, and a stream's bytes merge
 * into one, so a range over the limit went entirely, the bytes just read
 * ahead with it, and every read fetched the window again (a sequential
 * read of 320 MiB measured 13x slower than random reads; docs/pfs.md). */
static void test_read_stream_past_cache(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        struct read_setup r;
        read_setup(&r);
        if (k == 1)
            r.p.readahead_max = r.p.cache_size;
        struct pfs_profile p = r.p;
        struct pfs_shared *sh = r.sh;
        struct pfs_client c = r.c;
        struct pfs_file f = r.f;
        uint64_t size = 64u << 20;
        double t = 0;
        for (uint64_t off = 0; off < size; off += 1u << 20)
            t = pfs_read(&p, sh, &c, &f, off, 1u << 20, size, t);
        assert_int_equal(sh->cnt.read_bytes, size);
        assert_int_equal(sh->cnt.read_rpcs, 64);
        /* what is cached is the file's last 8 MiB: a re-read of them hits */
        uint64_t rpcs = sh->cnt.read_rpcs;
        pfs_read(&p, sh, &c, &f, size - (4u << 20), 1u << 20, size, t + 1);
        assert_int_equal(sh->cnt.read_rpcs, rpcs);
        /* and a byte from the start is gone */
        pfs_read(&p, sh, &c, &f, 0, 4096, size, t + 2);
        assert_int_equal(sh->cnt.read_rpcs, rpcs + 1);
        free(sh);
    }
}

/* Fresh servers and client, a new file (key 7, default layout), and 1 MiB
 * writes at order[i] MiB; returns when the fsync that follows ends, less
 * its commit. */
static double write_mib_order(const struct pfs_profile *p,
                              struct pfs_shared *sh, struct pfs_client *c,
                              struct pfs_file *f, const int *order, int n)
{
    memset(sh, 0, sizeof *sh);
    memset(c, 0, sizeof *c);
    c->id = 1;
    struct pfs_layout lay = pfs_layout_new(p, &sh->srv, 0, 0);
    pfs_file_init(f, 7, &lay);
    double t = 0;
    for (int i = 0; i < n; i++)
        t = pfs_write(p, sh, c, f, (uint64_t)order[i] << 20, 1u << 20, t);
    return pfs_fsync(p, sh, c, f, t) - p->ost_commit_us * 1e-6;
}

/* With seeks: 1 MiB writes in offset order pay the seek once (the first
 * RPC starts a stream), in another order every RPC that does not start
 * where another ended pays it; a partial write always pays it; reads that
 * continue a stream do not. Without seek keys nothing changes. */
static void test_seeks(void **state)
{
    (void)state;
    struct pfs_profile p;
    load_round(&p);
    assert_true(p.ost_write_seek_us == 0 && p.ost_read_seek_us == 0);
    p.ost_write_seek_us = 4000;
    p.ost_read_seek_us = 2000;
    p.rpcs_in_flight = 1;  /* one RPC at a time: the sum is the time */
    const double link = 1e-3, wire = 10e-6;     /* 1 MiB at 1000 MiB/s */
    const double rpc = 1e-3 + 1.0 / 100;         /* write service, 1 MiB */
    const double seek = 4e-3;
    struct pfs_shared *sh = new_shared();
    struct pfs_client c;
    struct pfs_file f;

    /* in order: each RPC crosses the link and the wire, is served and
     * comes back; one seek, then a stream */
    const int in_order[] = {0, 1, 2, 3};
    double seq = write_mib_order(&p, sh, &c, &f, in_order, 4);
    assert_true(near(seq, 4 * (link + 2 * wire + rpc) + seek + 2 * wire, 1e-7));

    /* backwards: none starts where another ended */
    const int backwards[] = {3, 2, 1, 0};
    assert_true(near(write_mib_order(&p, sh, &c, &f, backwards, 4) - seq,
                     3 * seek, 1e-7));

    /* two interleaved streams: 0 and 2 pay the seek, 1 continues 0 and 3
     * continues 2 (the target keeps several streams) */
    const int two_streams[] = {0, 2, 1, 3};
    assert_true(near(write_mib_order(&p, sh, &c, &f, two_streams, 4) - seq,
                     seek, 1e-7));

    /* a partial write at the end of a stream still pays the seek */
    double before = pfs_fsync(&p, sh, &c, &f, 10.0);
    double small = pfs_write(&p, sh, &c, &f, 4u << 20, 4096, before);
    double small_done = pfs_fsync(&p, sh, &c, &f, small) - p.ost_commit_us * 1e-6;
    assert_true(near(small_done - before,
                     4096 / (1000 * MIB) + 2 * wire + 1e-3 + seek +
                         4096 / (100 * MIB) + 2 * wire,
                     1e-7));

    /* reads: 1 MiB from 8 MiB, then 9 MiB (far from the write streams) */
    struct pfs_layout lay = f.lay;
    memset(sh, 0, sizeof *sh);
    memset(&c, 0, sizeof c);
    c.id = 1;
    p.readahead_max = 0;
    pfs_file_init(&f, 9, &lay);
    uint64_t size = 64u << 20;
    double r1 = pfs_read(&p, sh, &c, &f, 8u << 20, 1u << 20, size, 0);
    double read_rpc = 0.5e-3 + 1.0 / 200;
    assert_true(near(r1, link + 2 * wire + read_rpc + 2e-3, 1e-7));
    double r2 = pfs_read(&p, sh, &c, &f, 9u << 20, 1u << 20, size, r1);
    assert_true(near(r2 - r1, link + 2 * wire + read_rpc, 1e-7));
    free(sh);
}

/* The calendar fills idle time before a later booking. */
static void test_calendar(void **state)
{
    (void)state;
    struct pfs_calendar cal;
    memset(&cal, 0, sizeof cal);
    assert_true(pfs_calendar_book(&cal, 1.0, 0.5) == 1.5);
    assert_true(pfs_calendar_book(&cal, 0.0, 0.5) == 0.5);   /* before it */
    assert_true(near(pfs_calendar_book(&cal, 0.2, 0.6), 2.1, 1e-12)); /* no gap fits */
    assert_true(pfs_calendar_book(&cal, 0.2, 0.5) == 1.0);   /* exactly fits */
    assert_int_equal(cal.n, 1);                             /* all joined */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profile_parse),
        cmocka_unit_test(test_profile_errors),
        cmocka_unit_test(test_shipped_profiles),
        cmocka_unit_test(test_md_queue),
        cmocka_unit_test(test_md_storm_flattens),
        cmocka_unit_test(test_write_full_rpcs),
        cmocka_unit_test(test_write_merging),
        cmocka_unit_test(test_dirty_limit),
        cmocka_unit_test(test_fsync_commit),
        cmocka_unit_test(test_interleaved_vs_blocks),
        cmocka_unit_test(test_revocation),
        cmocka_unit_test(test_striping_scale),
        cmocka_unit_test(test_layout_round_robin),
        cmocka_unit_test(test_read_cache),
        cmocka_unit_test(test_read_stream_past_cache),
        cmocka_unit_test(test_seeks),
        cmocka_unit_test(test_calendar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
