/*
 * tests/unit/test_codecs.c - the fixed-layout module codecs (POSIX, MPI-IO,
 * STDIO, H5F, H5D, PNETCDF_FILE, PNETCDF_VAR, BG/Q, MDHIM, DFS, DAOS) and
 * the counter name tables.
 *
 * Four groups:
 *   - names: counts, names and index lookups of iosage/counters.h;
 *   - round trip: a synthetic record per module is encoded (newest version)
 *     and decoded back, field by field;
 *   - up-conversion: old record versions built byte by byte here, in both
 *     byte orders, decoded and checked counter by counter against the
 *     format spec (section 9), with and without the compat defects;
 *   - real logs (needs ../shared/darshan-logs; otherwise the program exits
 *     77 after the other groups pass): a handful of counter values per
 *     module and record version, as darshan-parser 3.5.0 printed them
 *     (IOSAGE_READ_COMPAT), and the values its defects lose, read correctly
 *     (default mode).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "darshan/internal.h"
#include "iosage/counters.h"
#include "iosage/darshan.h"
#include "testutil.h"

/* --- Building stored records -------------------------------------------- */

/* A record as stored in a log, in either byte order. */
typedef struct bytes {
    uint8_t b[8192];
    size_t n;
    int be; /* write big-endian */
} bytes;

static void put_u64(bytes *x, uint64_t v)
{
    if (x->be)
        v = __builtin_bswap64(v);
    memcpy(x->b + x->n, &v, 8);
    x->n += 8;
}

static void put_i64(bytes *x, int64_t v) { put_u64(x, (uint64_t)v); }

static void put_u32(bytes *x, uint32_t v)
{
    if (x->be)
        v = __builtin_bswap32(v);
    memcpy(x->b + x->n, &v, 4);
    x->n += 4;
}

static void put_f64(bytes *x, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    put_u64(x, u);
}

static void put_raw(bytes *x, const void *p, size_t n)
{
    memcpy(x->b + x->n, p, n);
    x->n += n;
}

/* Test values: distinct per index, and never equal to their byte swap. */
static int64_t ival(int base, int i) { return base + 7 * i; }
static double dval(double base, int i) { return base + i; }

static void put_base(bytes *x, uint64_t id, int64_t rank)
{
    put_u64(x, id);
    put_i64(x, rank);
}

static void put_ints(bytes *x, int base, int n)
{
    for (int i = 0; i < n; i++)
        put_i64(x, ival(base, i));
}

static void put_dbls(bytes *x, double base, int n)
{
    for (int i = 0; i < n; i++)
        put_f64(x, dval(base, i));
}

/* d with its 8 bytes reversed: what an unswapped big-endian double reads as. */
static double reversed(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    u = __builtin_bswap64(u);
    memcpy(&d, &u, 8);
    return d;
}

/* Compare doubles by bit pattern (reversed values may be NaN). */
#define assert_same_double(a, b)                                          \
    do {                                                                   \
        double a_ = (a), b_ = (b);                                         \
        assert_memory_equal(&a_, &b_, 8);                                  \
    } while (0)

/* --- Decoding one record -------------------------------------------------- */

static ios_arena *arena;

typedef struct decoded {
    int rc;
    size_t consumed;
    iosage_record rec;
    iosage_error err;
} decoded;

/* Decode the record in x with fn as stored version ver. */
static decoded run(ios_decode_fn fn, int module, uint32_t ver,
                   const bytes *x, int compat, uint32_t h5f_version)
{
    decoded d;
    memset(&d, 0, sizeof d);
    ios_cursor c = {x->b, x->n, 0, x->be};
    ios_mod_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.module = module;
    ctx.version = ver;
    ctx.swap = x->be;
    ctx.compat = compat;
    ctx.h5f_version = h5f_version;
    ctx.path = "synthetic.darshan";
    d.rec.module = module;
    d.rec.version = ver;
    d.rc = fn(&c, &ctx, &d.rec, arena, &d.err);
    d.consumed = c.pos;
    return d;
}

static int setup_arena(void **state)
{
    (void)state;
    arena = ios_arena_create();
    return arena ? 0 : -1;
}

static int teardown_arena(void **state)
{
    (void)state;
    ios_arena_destroy(arena);
    arena = NULL;
    return 0;
}

/* --- Names ------------------------------------------------------------------ */

static void test_names(void **state)
{
    (void)state;
    assert_int_equal(iosage_counter_count(IOSAGE_MOD_POSIX), 69);
    assert_int_equal(iosage_fcounter_count(IOSAGE_MOD_POSIX), 17);
    assert_string_equal(iosage_counter_name(IOSAGE_MOD_POSIX, 0), "POSIX_OPENS");
    assert_string_equal(iosage_fcounter_name(IOSAGE_MOD_POSIX,
                                             IOSAGE_POSIX_F_READ_TIME),
                        "POSIX_F_READ_TIME");
    assert_int_equal(IOSAGE_POSIX_F_READ_TIME, 8);
    assert_int_equal(iosage_counter_index(IOSAGE_MOD_MPIIO, "MPIIO_COLL_WRITES"),
                     IOSAGE_MPIIO_COLL_WRITES);
    assert_int_equal(iosage_fcounter_index(IOSAGE_MOD_STDIO, "STDIO_F_META_TIME"),
                     0);
    assert_int_equal(iosage_counter_index(IOSAGE_MOD_POSIX, "STDIO_OPENS"), -1);
    assert_int_equal(iosage_counter_index(IOSAGE_MOD_POSIX, NULL), -1);
    assert_null(iosage_counter_name(IOSAGE_MOD_POSIX, 69));
    assert_null(iosage_counter_name(IOSAGE_MOD_POSIX, -1));
    assert_null(iosage_counter_name(-3, 0));

    static const struct { int mod, ni, nd; const char *last_i, *last_d; } t[] = {
        {IOSAGE_MOD_MPIIO, 51, 17, "MPIIO_SLOWEST_RANK_BYTES", "MPIIO_F_VARIANCE_RANK_BYTES"},
        {IOSAGE_MOD_STDIO, 14, 15, "STDIO_SLOWEST_RANK_BYTES", "STDIO_F_VARIANCE_RANK_BYTES"},
        {IOSAGE_MOD_H5F, 3, 5, "H5F_USE_MPIIO", "H5F_F_META_TIME"},
        {IOSAGE_MOD_H5D, 94, 17, "H5D_SLOWEST_RANK_BYTES", "H5D_F_VARIANCE_RANK_BYTES"},
        {IOSAGE_MOD_PNETCDF_FILE, 9, 8, "PNETCDF_FILE_WAIT_FAILURES", "PNETCDF_FILE_F_WAIT_TIME"},
        {IOSAGE_MOD_PNETCDF_VAR, 120, 17, "PNETCDF_VAR_SLOWEST_RANK_BYTES", "PNETCDF_VAR_F_VARIANCE_RANK_BYTES"},
        {IOSAGE_MOD_BGQ, 11, 1, "BGQ_TORUSENABLED", "BGQ_F_TIMESTAMP"},
        {IOSAGE_MOD_MDHIM, 5, 4, "MDHIM_SERVERS", "MDHIM_F_GET_MAX_DURATION"},
        {IOSAGE_MOD_DFS, 52, 15, "DFS_SLOWEST_RANK_BYTES", "DFS_F_SLOWEST_RANK_TIME"},
        {IOSAGE_MOD_DAOS, 64, 15, "DAOS_SLOWEST_RANK_BYTES", "DAOS_F_SLOWEST_RANK_TIME"},
        {IOSAGE_MOD_APMPI, 396, 240, "MPI_WIN_SYNC_CALL_COUNT", "MPI_TOTAL_COMM_SYNC_TIME"},
    };
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        assert_int_equal(iosage_counter_count(t[k].mod), t[k].ni);
        assert_int_equal(iosage_fcounter_count(t[k].mod), t[k].nd);
        assert_string_equal(iosage_counter_name(t[k].mod, t[k].ni - 1), t[k].last_i);
        assert_string_equal(iosage_fcounter_name(t[k].mod, t[k].nd - 1), t[k].last_d);
        assert_int_equal(iosage_counter_index(t[k].mod, t[k].last_i), t[k].ni - 1);
        assert_int_equal(iosage_fcounter_index(t[k].mod, t[k].last_d), t[k].nd - 1);
    }
    /* APMPI doubles: time[222], sync_time[16], then the two totals */
    assert_string_equal(iosage_fcounter_name(IOSAGE_MOD_APMPI, 221),
                        "MPI_WIN_SYNC_MAX_TIME");
    assert_string_equal(iosage_fcounter_name(IOSAGE_MOD_APMPI, 222),
                        "MPI_BARRIER_TOTAL_SYNC_TIME");
    assert_string_equal(iosage_fcounter_name(IOSAGE_MOD_APMPI, 238),
                        "MPI_TOTAL_COMM_TIME");
    assert_int_equal(IOSAGE_APMPI_NUM_COUNTERS, 396);
    assert_int_equal(IOSAGE_APMPI_NUM_FCOUNTERS, 240);
    /* modules without counter arrays */
    assert_int_equal(iosage_counter_count(IOSAGE_MOD_LUSTRE), 0);
    assert_int_equal(iosage_fcounter_count(IOSAGE_MOD_HEATMAP), 0);
    assert_null(iosage_counter_name(IOSAGE_MOD_DXT_POSIX, 0));
    assert_int_equal(iosage_counter_index(IOSAGE_MOD_LUSTRE, "POSIX_OPENS"), -1);
    /* every name maps back to its own index */
    for (int m = 0; m < IOSAGE_MOD_KNOWN; m++) {
        for (int i = 0; i < iosage_counter_count(m); i++)
            assert_int_equal(iosage_counter_index(m, iosage_counter_name(m, i)), i);
        for (int i = 0; i < iosage_fcounter_count(m); i++)
            assert_int_equal(iosage_fcounter_index(m, iosage_fcounter_name(m, i)), i);
    }
}

/* --- Round trip --------------------------------------------------------------- */

typedef struct codec {
    int module;
    ios_decode_fn decode;
    ios_encode_fn encode;
    uint32_t version; /* newest */
    size_t size;      /* encoded bytes of the synthetic record */
    size_t fixed;     /* fewer bytes than this: IOS_DECODE_SHORT */
} codec;

static const codec codecs[] = {
    {IOSAGE_MOD_POSIX, ios_posix_decode, ios_posix_encode, 4, 704, 704},
    {IOSAGE_MOD_MPIIO, ios_mpiio_decode, ios_mpiio_encode, 3, 560, 560},
    {IOSAGE_MOD_STDIO, ios_stdio_decode, ios_stdio_encode, 2, 248, 248},
    {IOSAGE_MOD_H5F, ios_h5f_decode, ios_h5f_encode, 3, 80, 80},
    {IOSAGE_MOD_H5D, ios_h5d_decode, ios_h5d_encode, 2, 912, 912},
    {IOSAGE_MOD_PNETCDF_FILE, ios_pnetcdf_file_decode, ios_pnetcdf_file_encode, 3, 152, 152},
    {IOSAGE_MOD_PNETCDF_VAR, ios_pnetcdf_var_decode, ios_pnetcdf_var_encode, 1, 1120, 1120},
    {IOSAGE_MOD_BGQ, ios_bgq_decode, ios_bgq_encode, 2, 112, 112},
    {IOSAGE_MOD_MDHIM, ios_mdhim_decode, ios_mdhim_encode, 1, 96 + 2 * 8, 96},
    {IOSAGE_MOD_DFS, ios_dfs_decode, ios_dfs_encode, 1, 584, 584},
    {IOSAGE_MOD_DAOS, ios_daos_decode, ios_daos_encode, 1, 696, 696},
};

/* A synthetic newest-layout record of module m (arrays point into ints,
 * dbls, hist). */
static void synth(int m, iosage_record *r, int64_t *ints, double *dbls,
                  int64_t *hist)
{
    memset(r, 0, sizeof *r);
    r->module = m;
    r->id = 0xFEDCBA9876543210ULL + (uint64_t)m;
    r->rank = m % 2 ? -1 : 17;
    r->n_counters = iosage_counter_count(m);
    r->n_fcounters = iosage_fcounter_count(m);
    r->counters = ints;
    r->fcounters = dbls;
    for (int i = 0; i < r->n_counters; i++)
        ints[i] = (int64_t)0x0102030405060708LL * (i + 1) + m;
    for (int i = 0; i < r->n_fcounters; i++)
        dbls[i] = -1.0 + 0.125 * i + m;
    if (m == IOSAGE_MOD_H5D || m == IOSAGE_MOD_PNETCDF_VAR)
        r->x.file_ref.file_rec_id = 0xF00DF00DF00D1234ULL;
    if (m == IOSAGE_MOD_DFS || m == IOSAGE_MOD_DAOS) {
        for (int i = 0; i < 16; i++) {
            r->x.daos.pool_uuid[i] = (uint8_t)(i + 1);
            r->x.daos.cont_uuid[i] = (uint8_t)(0xF0 - i);
        }
        if (m == IOSAGE_MOD_DAOS) {
            r->x.daos.oid_hi = 0x8000000000000001ULL;
            r->x.daos.oid_lo = 42;
        }
    }
    if (m == IOSAGE_MOD_MDHIM) {
        ints[IOSAGE_MDHIM_SERVERS] = 3;
        hist[0] = 11;
        hist[1] = 22;
        hist[2] = -33;
        r->x.mdhim.n_servers = 3;
        r->x.mdhim.server_hist = hist;
    }
}

static void check_same(const iosage_record *a, const iosage_record *b)
{
    assert_int_equal(a->id, b->id);
    assert_int_equal(a->rank, b->rank);
    assert_int_equal(a->n_counters, b->n_counters);
    assert_int_equal(a->n_fcounters, b->n_fcounters);
    assert_memory_equal(a->counters, b->counters, 8 * (size_t)a->n_counters);
    assert_memory_equal(a->fcounters, b->fcounters, 8 * (size_t)a->n_fcounters);
    switch (a->module) {
    case IOSAGE_MOD_H5D:
    case IOSAGE_MOD_PNETCDF_VAR:
        assert_int_equal(a->x.file_ref.file_rec_id, b->x.file_ref.file_rec_id);
        break;
    case IOSAGE_MOD_DFS:
    case IOSAGE_MOD_DAOS:
        assert_memory_equal(a->x.daos.pool_uuid, b->x.daos.pool_uuid, 16);
        assert_memory_equal(a->x.daos.cont_uuid, b->x.daos.cont_uuid, 16);
        assert_int_equal(a->x.daos.oid_hi, b->x.daos.oid_hi);
        assert_int_equal(a->x.daos.oid_lo, b->x.daos.oid_lo);
        break;
    case IOSAGE_MOD_MDHIM:
        assert_int_equal(a->x.mdhim.n_servers, b->x.mdhim.n_servers);
        assert_memory_equal(a->x.mdhim.server_hist, b->x.mdhim.server_hist,
                            8 * (size_t)a->x.mdhim.n_servers);
        break;
    default:
        break;
    }
}

static void test_round_trip(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof codecs / sizeof codecs[0]; k++) {
        const codec *cd = &codecs[k];
        int64_t ints[128], hist[3];
        double dbls[32];
        iosage_record in;
        synth(cd->module, &in, ints, dbls, hist);

        ios_buf out = {0};
        iosage_error err;
        /* two records back to back: each decode consumes exactly one */
        assert_int_equal(cd->encode(&in, &out, &err), IOSAGE_OK);
        assert_int_equal(cd->encode(&in, &out, &err), IOSAGE_OK);
        assert_int_equal(out.len, 2 * cd->size);

        bytes x = {.n = out.len, .be = 0};
        memcpy(x.b, out.p, out.len);
        ios_buf_free(&out);
        for (int compat = 0; compat <= 1; compat++) {
            decoded d = run(cd->decode, cd->module, cd->version, &x, compat, 3);
            assert_int_equal(d.rc, IOSAGE_OK);
            assert_int_equal(d.consumed, cd->size);
            check_same(&in, &d.rec);
        }

        /* one byte short of a record: SHORT, nothing consumed (an MDHIM
         * histogram cut short is an error, see test_mdhim) */
        x.n = cd->fixed - 1;
        decoded s = run(cd->decode, cd->module, cd->version, &x, 0, 3);
        assert_int_equal(s.rc, IOS_DECODE_SHORT);
        assert_int_equal(s.consumed, 0);

        /* a version newer than any we know */
        x.n = 2 * cd->size;
        decoded u = run(cd->decode, cd->module, cd->version + 1, &x, 0, 3);
        assert_int_equal(u.rc, IOSAGE_E_UNSUPPORTED);
        assert_int_equal(u.err.code, IOSAGE_E_UNSUPPORTED);
        decoded z = run(cd->decode, cd->module, 0, &x, 0, 3);
        assert_int_equal(z.rc, IOSAGE_E_UNSUPPORTED);
    }
}

static void test_encode_rejects_bad_layout(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof codecs / sizeof codecs[0]; k++) {
        const codec *cd = &codecs[k];
        int64_t ints[128], hist[3];
        double dbls[32];
        iosage_record in;
        ios_buf out = {0};
        iosage_error err;

        synth(cd->module, &in, ints, dbls, hist);
        in.n_counters--;
        assert_int_equal(cd->encode(&in, &out, &err), IOSAGE_E_USAGE);
        assert_int_equal(err.code, IOSAGE_E_USAGE);
        synth(cd->module, &in, ints, dbls, hist);
        in.n_fcounters++;
        assert_int_equal(cd->encode(&in, &out, &err), IOSAGE_E_USAGE);
        synth(cd->module, &in, ints, dbls, hist);
        in.counters = NULL;
        assert_int_equal(cd->encode(&in, &out, &err), IOSAGE_E_USAGE);
        ios_buf_free(&out);
    }
}

/* --- POSIX up-conversion ------------------------------------------------------- */

/* A POSIX v1 record: ints 100 + 7i (FOPENS = fopens), doubles 0.25 + i. */
static void posix_v1(bytes *x, int be, int64_t fopens)
{
    memset(x, 0, sizeof *x);
    x->be = be;
    put_base(x, 9063791019878933741ULL, -1);
    for (int i = 0; i < 68; i++)
        put_i64(x, i == 6 ? fopens : ival(100, i));
    put_dbls(x, 0.25, 15);
}

/* Ints of a v1..v3 record converted to v4. v3ints[i] is the value of v3
 * int index i. */
static void check_posix_ints(const int64_t *c, const int64_t *v3ints)
{
    assert_int_equal(c[IOSAGE_POSIX_OPENS], v3ints[0]);
    assert_int_equal(c[IOSAGE_POSIX_FILENOS], -1);
    assert_int_equal(c[IOSAGE_POSIX_DUPS], -1);
    assert_int_equal(c[IOSAGE_POSIX_READS], v3ints[1]);
    assert_int_equal(c[IOSAGE_POSIX_WRITES], v3ints[2]);
    assert_int_equal(c[IOSAGE_POSIX_SEEKS], v3ints[3]);
    assert_int_equal(c[IOSAGE_POSIX_STATS], v3ints[4]);
    assert_int_equal(c[IOSAGE_POSIX_MMAPS], v3ints[5]);
    assert_int_equal(c[IOSAGE_POSIX_FSYNCS], v3ints[6]);
    assert_int_equal(c[IOSAGE_POSIX_FDSYNCS], v3ints[7]);
    assert_int_equal(c[IOSAGE_POSIX_RENAME_SOURCES], -1);
    assert_int_equal(c[IOSAGE_POSIX_RENAME_TARGETS], -1);
    assert_int_equal(c[IOSAGE_POSIX_RENAMED_FROM], 0);
    /* MODE .. SLOWEST_RANK_BYTES keep their order */
    for (int k = 0; k < 56; k++)
        assert_int_equal(c[IOSAGE_POSIX_MODE + k], v3ints[8 + k]);
    assert_int_equal(c[IOSAGE_POSIX_SLOWEST_RANK_BYTES], v3ints[63]);
}

/* Doubles of a v1/v2 record (15 stored, 0.25 + i style from base). */
static void check_posix_dbls15(const double *d, double base)
{
    assert_same_double(d[IOSAGE_POSIX_F_OPEN_START_TIMESTAMP], dval(base, 0));
    assert_same_double(d[IOSAGE_POSIX_F_READ_START_TIMESTAMP], dval(base, 1));
    assert_same_double(d[IOSAGE_POSIX_F_WRITE_START_TIMESTAMP], dval(base, 2));
    assert_same_double(d[IOSAGE_POSIX_F_CLOSE_START_TIMESTAMP], -1.0);
    assert_same_double(d[IOSAGE_POSIX_F_OPEN_END_TIMESTAMP], -1.0);
    assert_same_double(d[IOSAGE_POSIX_F_READ_END_TIMESTAMP], dval(base, 3));
    assert_same_double(d[IOSAGE_POSIX_F_WRITE_END_TIMESTAMP], dval(base, 4));
    assert_same_double(d[IOSAGE_POSIX_F_CLOSE_END_TIMESTAMP], dval(base, 5));
    assert_same_double(d[IOSAGE_POSIX_F_READ_TIME], dval(base, 6));
    assert_same_double(d[IOSAGE_POSIX_F_WRITE_TIME], dval(base, 7));
    /* 10..16 are checked by the callers (compat differences) */
}

/* Expected META_TIME, MAX_READ_TIME, MAX_WRITE_TIME (indices 10..12) given
 * their stored values v0..v2. */
static void check_posix_meta(const double *d, double v0, int unswapped)
{
    for (int k = 0; k < 3; k++) {
        double want = unswapped ? reversed(v0 + k) : v0 + k;
        assert_same_double(d[IOSAGE_POSIX_F_META_TIME + k], want);
    }
}

static void test_posix_v1(void **state)
{
    (void)state;
    int64_t v3ints[64];
    for (int i = 0; i < 6; i++)
        v3ints[i] = ival(100, i);
    for (int i = 10; i < 68; i++)
        v3ints[i - 4] = ival(100, i);

    for (int be = 0; be <= 1; be++) {
        for (int compat = 0; compat <= 1; compat++) {
            bytes x;
            posix_v1(&x, be, 0);
            decoded d = run(ios_posix_decode, IOSAGE_MOD_POSIX, 1, &x, compat, 0);
            assert_int_equal(d.rc, IOSAGE_OK);
            assert_int_equal(d.consumed, 680);
            assert_int_equal(d.rec.id, 9063791019878933741ULL);
            assert_int_equal(d.rec.rank, -1);
            assert_int_equal(d.rec.n_counters, 69);
            assert_int_equal(d.rec.n_fcounters, 17);
            check_posix_ints(d.rec.counters, v3ints);
            check_posix_dbls15(d.rec.fcounters, 0.25);
            check_posix_meta(d.rec.fcounters, dval(0.25, 8), compat && be);
            /* v1 keeps the rank times and variances (no loss) */
            for (int k = 0; k < 4; k++)
                assert_same_double(d.rec.fcounters[IOSAGE_POSIX_F_FASTEST_RANK_TIME + k],
                                   dval(0.25, 11 + k));
        }
    }
}

static void test_posix_v1_dropped(void **state)
{
    (void)state;
    bytes x;
    /* stdio activity: consumed and dropped, both byte orders */
    for (int be = 0; be <= 1; be++) {
        posix_v1(&x, be, 3);
        decoded d = run(ios_posix_decode, IOSAGE_MOD_POSIX, 1, &x, 0, 0);
        assert_int_equal(d.rc, IOS_DECODE_DROP);
        assert_int_equal(d.consumed, 680);
    }
    /* the test is on the stored bytes: big-endian 128 reads as a negative
     * host value, so that record is kept (the reference reader's rule) */
    posix_v1(&x, 1, 128);
    decoded k = run(ios_posix_decode, IOSAGE_MOD_POSIX, 1, &x, 0, 0);
    assert_int_equal(k.rc, IOSAGE_OK);
    assert_int_equal(k.rec.counters[IOSAGE_POSIX_OPENS], 100);
    /* a negative FOPENS is not stdio activity */
    posix_v1(&x, 0, -1);
    assert_int_equal(run(ios_posix_decode, IOSAGE_MOD_POSIX, 1, &x, 0, 0).rc,
                     IOSAGE_OK);
}

/* A POSIX v2 (n_dbl 15) or v3 (17) record: ints 200 + 7i, doubles base + i. */
static void posix_v23(bytes *x, int be, int n_dbl, double base)
{
    memset(x, 0, sizeof *x);
    x->be = be;
    put_base(x, 77, 5);
    put_ints(x, 200, 64);
    put_dbls(x, base, n_dbl);
}

static void test_posix_v2(void **state)
{
    (void)state;
    int64_t v3ints[64];
    for (int i = 0; i < 64; i++)
        v3ints[i] = ival(200, i);
    for (int be = 0; be <= 1; be++) {
        for (int compat = 0; compat <= 1; compat++) {
            bytes x;
            posix_v23(&x, be, 15, 1.5);
            assert_int_equal(x.n, 648);
            decoded d = run(ios_posix_decode, IOSAGE_MOD_POSIX, 2, &x, compat, 0);
            assert_int_equal(d.rc, IOSAGE_OK);
            assert_int_equal(d.consumed, 648);
            assert_int_equal(d.rec.rank, 5);
            check_posix_ints(d.rec.counters, v3ints);
            check_posix_dbls15(d.rec.fcounters, 1.5);
            check_posix_meta(d.rec.fcounters, dval(1.5, 8), compat && be);
            for (int k = 0; k < 4; k++) {
                double want = compat ? 0.0 : dval(1.5, 11 + k);
                assert_same_double(d.rec.fcounters[IOSAGE_POSIX_F_FASTEST_RANK_TIME + k],
                                   want);
            }
        }
    }
}

static void test_posix_v3(void **state)
{
    (void)state;
    int64_t v3ints[64];
    for (int i = 0; i < 64; i++)
        v3ints[i] = ival(200, i);
    for (int be = 0; be <= 1; be++) {
        for (int compat = 0; compat <= 1; compat++) {
            bytes x;
            posix_v23(&x, be, 17, 2.5);
            assert_int_equal(x.n, 664);
            decoded d = run(ios_posix_decode, IOSAGE_MOD_POSIX, 3, &x, compat, 0);
            assert_int_equal(d.rc, IOSAGE_OK);
            assert_int_equal(d.consumed, 664);
            check_posix_ints(d.rec.counters, v3ints);
            const double *f = d.rec.fcounters;
            for (int i = 0; i < 10; i++)
                assert_same_double(f[i], dval(2.5, i));
            check_posix_meta(f, dval(2.5, 10), compat && be);
            assert_same_double(f[IOSAGE_POSIX_F_FASTEST_RANK_TIME], dval(2.5, 13));
            assert_same_double(f[IOSAGE_POSIX_F_SLOWEST_RANK_TIME], dval(2.5, 14));
            assert_same_double(f[IOSAGE_POSIX_F_VARIANCE_RANK_TIME],
                               compat ? 0.0 : dval(2.5, 15));
            assert_same_double(f[IOSAGE_POSIX_F_VARIANCE_RANK_BYTES],
                               compat ? 0.0 : dval(2.5, 16));
        }
    }
}

/* v4 in big-endian: everything swapped, no compat difference. */
static void test_posix_v4_big_endian(void **state)
{
    (void)state;
    for (int compat = 0; compat <= 1; compat++) {
        bytes x = {.be = 1};
        put_base(&x, 0x1122334455667788ULL, 3);
        put_ints(&x, 400, 69);
        put_dbls(&x, 4.5, 17);
        decoded d = run(ios_posix_decode, IOSAGE_MOD_POSIX, 4, &x, compat, 0);
        assert_int_equal(d.rc, IOSAGE_OK);
        assert_int_equal(d.rec.id, 0x1122334455667788ULL);
        for (int i = 0; i < 69; i++)
            assert_int_equal(d.rec.counters[i], ival(400, i));
        for (int i = 0; i < 17; i++)
            assert_same_double(d.rec.fcounters[i], dval(4.5, i));
    }
}

/* --- Other modules' up-conversion ------------------------------------------------ */

static void test_mpiio_v1_v2(void **state)
{
    (void)state;
    for (uint32_t ver = 1; ver <= 2; ver++) {
        for (int be = 0; be <= 1; be++) {
            bytes x = {.be = be};
            put_base(&x, 99, 0);
            put_ints(&x, 300, 51);
            put_dbls(&x, 3.5, 15);
            assert_int_equal(x.n, 544);
            decoded d = run(ios_mpiio_decode, IOSAGE_MOD_MPIIO, ver, &x, 1, 0);
            assert_int_equal(d.rc, IOSAGE_OK);
            assert_int_equal(d.consumed, 544);
            assert_int_equal(d.rec.n_counters, 51);
            assert_int_equal(d.rec.n_fcounters, 17);
            for (int i = 0; i < 51; i++)
                assert_int_equal(d.rec.counters[i], ival(300, i));
            const double *f = d.rec.fcounters;
            assert_same_double(f[IOSAGE_MPIIO_F_OPEN_START_TIMESTAMP], 3.5);
            assert_same_double(f[IOSAGE_MPIIO_F_READ_START_TIMESTAMP], 4.5);
            assert_same_double(f[IOSAGE_MPIIO_F_WRITE_START_TIMESTAMP], 5.5);
            assert_same_double(f[IOSAGE_MPIIO_F_CLOSE_START_TIMESTAMP], -1.0);
            assert_same_double(f[IOSAGE_MPIIO_F_OPEN_END_TIMESTAMP], -1.0);
            assert_same_double(f[IOSAGE_MPIIO_F_READ_END_TIMESTAMP], 6.5);
            assert_same_double(f[IOSAGE_MPIIO_F_WRITE_END_TIMESTAMP], 7.5);
            assert_same_double(f[IOSAGE_MPIIO_F_CLOSE_END_TIMESTAMP], 8.5);
            for (int k = 0; k < 9; k++)
                assert_same_double(f[IOSAGE_MPIIO_F_READ_TIME + k], dval(3.5, 6 + k));
        }
    }
}

static void test_stdio_v1(void **state)
{
    (void)state;
    for (int be = 0; be <= 1; be++) {
        bytes x = {.be = be};
        put_base(&x, 14734109647742566553ULL, 0);
        put_ints(&x, 500, 13);
        put_dbls(&x, 5.5, 15);
        assert_int_equal(x.n, 240);
        decoded d = run(ios_stdio_decode, IOSAGE_MOD_STDIO, 1, &x, 0, 0);
        assert_int_equal(d.rc, IOSAGE_OK);
        assert_int_equal(d.consumed, 240);
        assert_int_equal(d.rec.n_counters, 14);
        assert_int_equal(d.rec.counters[IOSAGE_STDIO_OPENS], 500);
        assert_int_equal(d.rec.counters[IOSAGE_STDIO_FDOPENS], -1);
        for (int i = 1; i < 13; i++)
            assert_int_equal(d.rec.counters[i + 1], ival(500, i));
        assert_int_equal(d.rec.counters[IOSAGE_STDIO_SLOWEST_RANK_BYTES], ival(500, 12));
        for (int i = 0; i < 15; i++)
            assert_same_double(d.rec.fcounters[i], dval(5.5, i));
    }
}

static void test_h5f_v1_v2(void **state)
{
    (void)state;
    for (int be = 0; be <= 1; be++) {
        bytes x = {.be = be};
        put_base(&x, 1, 2);
        put_i64(&x, 12);
        put_f64(&x, 0.5);   /* OPEN */
        put_f64(&x, 9.75);  /* CLOSE */
        decoded d = run(ios_h5f_decode, IOSAGE_MOD_H5F, 1, &x, 0, 0);
        assert_int_equal(d.rc, IOSAGE_OK);
        assert_int_equal(d.consumed, 40);
        assert_int_equal(d.rec.n_counters, 3);
        assert_int_equal(d.rec.n_fcounters, 5);
        assert_int_equal(d.rec.counters[IOSAGE_H5F_OPENS], 12);
        assert_int_equal(d.rec.counters[IOSAGE_H5F_FLUSHES], -1);
        assert_int_equal(d.rec.counters[IOSAGE_H5F_USE_MPIIO], -1);
        const double *f = d.rec.fcounters;
        assert_same_double(f[IOSAGE_H5F_F_OPEN_START_TIMESTAMP], 0.5);
        assert_same_double(f[IOSAGE_H5F_F_CLOSE_START_TIMESTAMP], -1.0);
        assert_same_double(f[IOSAGE_H5F_F_OPEN_END_TIMESTAMP], -1.0);
        assert_same_double(f[IOSAGE_H5F_F_CLOSE_END_TIMESTAMP], 9.75);
        assert_same_double(f[IOSAGE_H5F_F_META_TIME], -1.0);

        bytes y = {.be = be};
        put_base(&y, 1, 2);
        put_i64(&y, 13);
        put_dbls(&y, 1.25, 4);
        decoded e = run(ios_h5f_decode, IOSAGE_MOD_H5F, 2, &y, 0, 0);
        assert_int_equal(e.rc, IOSAGE_OK);
        assert_int_equal(e.consumed, 56);
        assert_int_equal(e.rec.counters[IOSAGE_H5F_OPENS], 13);
        assert_int_equal(e.rec.counters[IOSAGE_H5F_FLUSHES], -1);
        for (int i = 0; i < 4; i++)
            assert_same_double(e.rec.fcounters[i], dval(1.25, i));
        assert_same_double(e.rec.fcounters[IOSAGE_H5F_F_META_TIME], -1.0);
    }
}

static void test_h5d(void **state)
{
    (void)state;
    /* v1: no file_rec_id stored; it becomes 0 */
    bytes x = {.be = 1};
    put_base(&x, 5, 0);
    put_ints(&x, 600, 94);
    put_dbls(&x, 6.5, 17);
    decoded d = run(ios_h5d_decode, IOSAGE_MOD_H5D, 1, &x, 1, 0);
    assert_int_equal(d.rc, IOSAGE_OK);
    assert_int_equal(d.consumed, 904);
    assert_int_equal(d.rec.x.file_ref.file_rec_id, 0);
    for (int i = 0; i < 94; i++)
        assert_int_equal(d.rec.counters[i], ival(600, i));
    for (int i = 0; i < 17; i++)
        assert_same_double(d.rec.fcounters[i], dval(6.5, i));

    /* v2 big-endian: file_rec_id unswapped only in compat with H5F < 2 */
    const uint64_t fid = 0x0102030405060708ULL;
    bytes y = {.be = 1};
    put_base(&y, 5, 0);
    put_u64(&y, fid);
    put_ints(&y, 600, 94);
    put_dbls(&y, 6.5, 17);
    static const struct { int compat; uint32_t h5f; uint64_t want; } t[] = {
        {0, 0, 0x0102030405060708ULL}, {0, 3, 0x0102030405060708ULL},
        {1, 0, 0x0807060504030201ULL}, {1, 1, 0x0807060504030201ULL},
        {1, 2, 0x0102030405060708ULL}, {1, 3, 0x0102030405060708ULL},
    };
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        decoded e = run(ios_h5d_decode, IOSAGE_MOD_H5D, 2, &y, t[k].compat, t[k].h5f);
        assert_int_equal(e.rc, IOSAGE_OK);
        assert_int_equal(e.consumed, 912);
        assert_int_equal(e.rec.x.file_ref.file_rec_id, t[k].want);
        assert_int_equal(e.rec.counters[93], ival(600, 93));
    }
}

/* PNETCDF v1/v2 -> v3; OPENS = INDEP_OPENS + COLL_OPENS. indep 1 and coll
 * 255 show the big-endian compat defect: the stored values 1 << 56 and
 * 255 << 56 add up to 0 modulo 2^64, so compat OPENS is 0 instead of 256. */
static void test_pnetcdf_file_old(void **state)
{
    (void)state;
    for (uint32_t ver = 1; ver <= 2; ver++) {
        for (int be = 0; be <= 1; be++) {
            for (int compat = 0; compat <= 1; compat++) {
                bytes x = {.be = be};
                put_base(&x, 8, 1);
                put_i64(&x, 1);
                put_i64(&x, 255);
                put_dbls(&x, 0.5, ver == 1 ? 2 : 4);
                decoded d = run(ios_pnetcdf_file_decode, IOSAGE_MOD_PNETCDF_FILE,
                                ver, &x, compat, 0);
                assert_int_equal(d.rc, IOSAGE_OK);
                assert_int_equal(d.consumed, ver == 1 ? 48 : 64);
                assert_int_equal(d.rec.n_counters, 9);
                assert_int_equal(d.rec.n_fcounters, 8);
                const int64_t *c = d.rec.counters;
                assert_int_equal(c[IOSAGE_PNETCDF_FILE_OPENS], compat && be ? 0 : 256);
                assert_int_equal(c[IOSAGE_PNETCDF_FILE_CREATES], -1);
                for (int i = IOSAGE_PNETCDF_FILE_REDEFS;
                     i <= IOSAGE_PNETCDF_FILE_WAIT_FAILURES; i++)
                    assert_int_equal(c[i], -1);
                const double *f = d.rec.fcounters;
                assert_same_double(f[IOSAGE_PNETCDF_FILE_F_OPEN_START_TIMESTAMP], 0.5);
                if (ver == 1) {
                    assert_same_double(f[IOSAGE_PNETCDF_FILE_F_CLOSE_START_TIMESTAMP], -1.0);
                    assert_same_double(f[IOSAGE_PNETCDF_FILE_F_OPEN_END_TIMESTAMP], -1.0);
                    assert_same_double(f[IOSAGE_PNETCDF_FILE_F_CLOSE_END_TIMESTAMP], 1.5);
                } else {
                    assert_same_double(f[IOSAGE_PNETCDF_FILE_F_CLOSE_START_TIMESTAMP], 1.5);
                    assert_same_double(f[IOSAGE_PNETCDF_FILE_F_OPEN_END_TIMESTAMP], 2.5);
                    assert_same_double(f[IOSAGE_PNETCDF_FILE_F_CLOSE_END_TIMESTAMP], 3.5);
                }
                assert_same_double(f[IOSAGE_PNETCDF_FILE_F_WAIT_START_TIMESTAMP], -1.0);
                assert_same_double(f[IOSAGE_PNETCDF_FILE_F_WAIT_END_TIMESTAMP], -1.0);
                assert_same_double(f[IOSAGE_PNETCDF_FILE_F_META_TIME], -1.0);
                assert_same_double(f[IOSAGE_PNETCDF_FILE_F_WAIT_TIME], -1.0);
            }
        }
    }
}

static void test_pnetcdf_var_big_endian(void **state)
{
    (void)state;
    bytes x = {.be = 1};
    put_base(&x, 0xAABBCCDDEEFF0011ULL, -1);
    put_u64(&x, 0x8877665544332211ULL);
    put_ints(&x, 700, 120);
    put_dbls(&x, 7.5, 17);
    decoded d = run(ios_pnetcdf_var_decode, IOSAGE_MOD_PNETCDF_VAR, 1, &x, 1, 0);
    assert_int_equal(d.rc, IOSAGE_OK);
    assert_int_equal(d.consumed, 1120);
    assert_int_equal(d.rec.id, 0xAABBCCDDEEFF0011ULL);
    assert_int_equal(d.rec.x.file_ref.file_rec_id, 0x8877665544332211ULL);
    assert_int_equal(d.rec.counters[IOSAGE_PNETCDF_VAR_IS_RECORD_VAR], ival(700, 115));
    assert_same_double(d.rec.fcounters[16], dval(7.5, 16));
}

static void test_bgq_v1(void **state)
{
    (void)state;
    for (int be = 0; be <= 1; be++) {
        bytes x = {.be = be};
        put_base(&x, 17224881367579287459ULL, 0);
        put_u32(&x, 0xDEADBEEF); /* unused */
        put_u32(&x, 0);          /* padding */
        put_ints(&x, 800, 11);
        put_f64(&x, 1463765853.25);
        assert_int_equal(x.n, 120);
        decoded d = run(ios_bgq_decode, IOSAGE_MOD_BGQ, 1, &x, 1, 0);
        assert_int_equal(d.rc, IOSAGE_OK);
        assert_int_equal(d.consumed, 120);
        assert_int_equal(d.rec.id, 17224881367579287459ULL);
        assert_int_equal(d.rec.n_counters, 11);
        assert_int_equal(d.rec.n_fcounters, 1);
        assert_int_equal(d.rec.counters[IOSAGE_BGQ_CSJOBID], 800);
        for (int i = 0; i < 11; i++)
            assert_int_equal(d.rec.counters[i], ival(800, i));
        assert_same_double(d.rec.fcounters[IOSAGE_BGQ_F_TIMESTAMP], 1463765853.25);
    }
}

/* An MDHIM record with SERVERS = servers and n_hist stored entries. */
static void mdhim(bytes *x, int be, int64_t servers, int n_hist)
{
    memset(x, 0, sizeof *x);
    x->be = be;
    put_base(x, 5828525108966349513ULL, -1);
    put_i64(x, 10);
    put_i64(x, 20);
    put_i64(x, 30);
    put_i64(x, 40);
    put_i64(x, servers);
    put_dbls(x, 0.5, 4);
    for (int i = 0; i < n_hist; i++)
        put_i64(x, 1000 + i);
}

static void test_mdhim(void **state)
{
    (void)state;
    bytes x;
    for (int be = 0; be <= 1; be++) {
        mdhim(&x, be, 3, 3);
        decoded d = run(ios_mdhim_decode, IOSAGE_MOD_MDHIM, 1, &x, 0, 0);
        assert_int_equal(d.rc, IOSAGE_OK);
        assert_int_equal(d.consumed, 96 + 16);
        assert_int_equal(d.rec.counters[IOSAGE_MDHIM_SERVERS], 3);
        assert_int_equal(d.rec.counters[IOSAGE_MDHIM_PUTS], 10);
        assert_same_double(d.rec.fcounters[IOSAGE_MDHIM_F_GET_MAX_DURATION], 3.5);
        assert_int_equal(d.rec.x.mdhim.n_servers, 3);
        for (int i = 0; i < 3; i++)
            assert_int_equal(d.rec.x.mdhim.server_hist[i], 1000 + i);
    }
    /* SERVERS 1, 0 or negative: the first entry is always stored; it
     * describes a server only when SERVERS is 1 */
    for (int64_t s = -5; s <= 1; s++) {
        mdhim(&x, 0, s, 1);
        decoded d = run(ios_mdhim_decode, IOSAGE_MOD_MDHIM, 1, &x, 0, 0);
        assert_int_equal(d.rc, IOSAGE_OK);
        assert_int_equal(d.consumed, 96);
        assert_int_equal(d.rec.x.mdhim.n_servers, s == 1 ? 1 : 0);
        if (s == 1)
            assert_int_equal(d.rec.x.mdhim.server_hist[0], 1000);
        else
            assert_null(d.rec.x.mdhim.server_hist);
    }
    /* a histogram running past the region is an error, not a crash */
    static const int64_t bad[] = {4, 1000, (int64_t)1 << 40, INT64_MAX,
                                  (int64_t)((UINT64_MAX / 8) + 2)};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        mdhim(&x, 0, bad[k], 3);
        decoded d = run(ios_mdhim_decode, IOSAGE_MOD_MDHIM, 1, &x, 0, 0);
        assert_int_equal(d.rc, IOSAGE_E_CORRUPT);
        assert_int_equal(d.err.code, IOSAGE_E_CORRUPT);
        assert_int_equal(d.consumed, 0);
    }
    /* less than the fixed part: SHORT */
    mdhim(&x, 0, 1, 1);
    x.n = 95;
    assert_int_equal(run(ios_mdhim_decode, IOSAGE_MOD_MDHIM, 1, &x, 0, 0).rc,
                     IOS_DECODE_SHORT);
}

static void test_mdhim_encode(void **state)
{
    (void)state;
    int64_t ints[5] = {1, 2, 3, 4, 3};
    double dbls[4] = {0.5, 1.5, 2.5, 3.5};
    int64_t hist[3] = {7, 8, 9};
    iosage_record r = {.module = IOSAGE_MOD_MDHIM, .n_counters = 5,
                       .n_fcounters = 4, .counters = ints, .fcounters = dbls};
    r.x.mdhim.n_servers = 2;
    r.x.mdhim.server_hist = hist;
    ios_buf out = {0};
    iosage_error err;
    /* SERVERS 3 but 2 entries */
    assert_int_equal(ios_mdhim_encode(&r, &out, &err), IOSAGE_E_USAGE);
    /* SERVERS 0 with no histogram: one zero entry */
    ints[4] = 0;
    r.x.mdhim.n_servers = 0;
    r.x.mdhim.server_hist = NULL;
    assert_int_equal(ios_mdhim_encode(&r, &out, &err), IOSAGE_OK);
    assert_int_equal(out.len, 96);
    bytes x = {.n = out.len};
    memcpy(x.b, out.p, out.len);
    decoded d = run(ios_mdhim_decode, IOSAGE_MOD_MDHIM, 1, &x, 0, 0);
    assert_int_equal(d.rc, IOSAGE_OK);
    assert_int_equal(d.consumed, 96);
    assert_int_equal(d.rec.x.mdhim.n_servers, 0);
    /* SERVERS 1 with its one entry */
    ints[4] = 1;
    r.x.mdhim.n_servers = 1;
    r.x.mdhim.server_hist = hist;
    out.len = 0;
    assert_int_equal(ios_mdhim_encode(&r, &out, &err), IOSAGE_OK);
    assert_int_equal(out.len, 96);
    memcpy(x.b, out.p, out.len);
    d = run(ios_mdhim_decode, IOSAGE_MOD_MDHIM, 1, &x, 0, 0);
    assert_int_equal(d.rc, IOSAGE_OK);
    assert_int_equal(d.rec.x.mdhim.n_servers, 1);
    assert_int_equal(d.rec.x.mdhim.server_hist[0], 7);
    ios_buf_free(&out);
}

/* DFS/DAOS in big-endian: UUIDs reversed only in compat; oids swapped. */
static void test_daos_big_endian(void **state)
{
    (void)state;
    uint8_t pool[16], cont[16], pool_rev[16], cont_rev[16];
    for (int i = 0; i < 16; i++) {
        pool[i] = (uint8_t)(0x10 + i);
        cont[i] = (uint8_t)(0xA0 + i);
        pool_rev[15 - i] = pool[i];
        cont_rev[15 - i] = cont[i];
    }
    for (int daos = 0; daos <= 1; daos++) {
        int ni = daos ? 64 : 52;
        for (int compat = 0; compat <= 1; compat++) {
            bytes x = {.be = 1};
            put_base(&x, 1597927878319380788ULL, 2);
            put_ints(&x, 900, ni);
            put_dbls(&x, 9.5, 15);
            put_raw(&x, pool, 16);
            put_raw(&x, cont, 16);
            if (daos) {
                put_u64(&x, 0x0000000100000002ULL);
                put_u64(&x, 0x8000000000000003ULL);
            }
            assert_int_equal(x.n, daos ? 696 : 584);
            decoded d = daos
                ? run(ios_daos_decode, IOSAGE_MOD_DAOS, 1, &x, compat, 0)
                : run(ios_dfs_decode, IOSAGE_MOD_DFS, 1, &x, compat, 0);
            assert_int_equal(d.rc, IOSAGE_OK);
            assert_int_equal(d.consumed, x.n);
            assert_int_equal(d.rec.n_counters, ni);
            assert_int_equal(d.rec.n_fcounters, 15);
            assert_int_equal(d.rec.counters[ni - 1], ival(900, ni - 1));
            assert_same_double(d.rec.fcounters[14], dval(9.5, 14));
            assert_memory_equal(d.rec.x.daos.pool_uuid, compat ? pool_rev : pool, 16);
            assert_memory_equal(d.rec.x.daos.cont_uuid, compat ? cont_rev : cont, 16);
            assert_int_equal(d.rec.x.daos.oid_hi, daos ? 0x0000000100000002ULL : 0);
            assert_int_equal(d.rec.x.daos.oid_lo, daos ? 0x8000000000000003ULL : 0);
        }
    }
}

/* --- Real logs ---------------------------------------------------------------- */

/* One expected value: module, rank, record id, counter name, and the value
 * darshan-parser 3.5.0 printed (int64 unless is_dbl). */
typedef struct real_value {
    const char *log;
    int module;
    int64_t rank;
    uint64_t id;
    const char *counter;
    int is_dbl;
    int64_t i;
    double d;
} real_value;

/* Logs (3.00 big- and little-endian, 3.10 big-endian with POSIX v3 and v4,
 * 3.10 little-endian, 3.41, HDF5, PnetCDF, DFS/DAOS). */
#define PPC_300 "mpi-io-test-ppc64-3.0.1.darshan"
#define X86_300 "mpi-io-test-x86_64-3.0.0.darshan"
#define PPC_310 "mpi-io-test-ppc64-3.1.0.darshan"
#define X86_312 "mpi-io-test-x86_64-3.1.2.darshan"
#define PPC_318 "mpi-io-test-ppc64-3.1.8.darshan"
#define X86_347 "mpi-io-test-x86_64-3.4.7.darshan"
#define HDF5 "ior_hdf5_example.darshan"
#define PNETCDF "shane_ior-PNETCDF_id438100-438100_11-9-41525-10280033558448664385_1.darshan"
#define DFS "snyder_ior-DFS_id4681120-53379_5-8-15060-3270540599978592154_1.darshan"

/* Values darshan-parser 3.5.0 printed (expected/<log>.parser.txt.gz), read
 * with IOSAGE_READ_COMPAT. "FILE_REC_ID" is x.file_ref.file_rec_id. Old
 * versions show up-conversion (FILENOS -1, CLOSE_START -1, FDOPENS -1,
 * H5D v1 file_rec_id 0) and compat defects (big-endian v1 F_META_TIME
 * unswapped: -0.000000; v3 variances 0.0). */
static const real_value real_values[] = {
    {PPC_300, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_OPENS", 0, 16, 0},
    {PPC_300, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_FILENOS", 0, -1, 0},
    {PPC_300, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_RENAMED_FROM", 0, 0, 0},
    {PPC_300, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_BYTES_READ", 0, 67108864, 0},
    {PPC_300, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_SLOWEST_RANK_BYTES", 0, 33554432, 0},
    {PPC_300, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_F_CLOSE_END_TIMESTAMP", 1, 0, 6.627706},
    {PPC_300, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_F_CLOSE_START_TIMESTAMP", 1, 0, -1.000000},
    {PPC_300, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_F_META_TIME", 1, 0, -0.000000},
    {PPC_300, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_F_VARIANCE_RANK_TIME", 1, 0, 0.001783},
    {PPC_300, IOSAGE_MOD_MPIIO, -1, 9063791019878933741ULL, "MPIIO_INDEP_OPENS", 0, 8, 0},
    {PPC_300, IOSAGE_MOD_MPIIO, -1, 9063791019878933741ULL, "MPIIO_BYTES_WRITTEN", 0, 67108864, 0},
    {PPC_300, IOSAGE_MOD_MPIIO, -1, 9063791019878933741ULL, "MPIIO_F_OPEN_END_TIMESTAMP", 1, 0, -1.000000},
    {PPC_300, IOSAGE_MOD_MPIIO, -1, 9063791019878933741ULL, "MPIIO_F_META_TIME", 1, 0, 0.200786},
    {X86_300, IOSAGE_MOD_POSIX, -1, 11344915649860608681ULL, "POSIX_OPENS", 0, 16, 0},
    {X86_300, IOSAGE_MOD_POSIX, -1, 11344915649860608681ULL, "POSIX_DUPS", 0, -1, 0},
    {X86_300, IOSAGE_MOD_POSIX, -1, 11344915649860608681ULL, "POSIX_MODE", 0, 436, 0},
    {X86_300, IOSAGE_MOD_POSIX, -1, 11344915649860608681ULL, "POSIX_SIZE_WRITE_1M_4M", 0, 0, 0},
    {X86_300, IOSAGE_MOD_POSIX, -1, 11344915649860608681ULL, "POSIX_F_META_TIME", 1, 0, 0.000180},
    {X86_300, IOSAGE_MOD_POSIX, -1, 11344915649860608681ULL, "POSIX_F_VARIANCE_RANK_TIME", 1, 0, 0.000104},
    {X86_300, IOSAGE_MOD_MPIIO, -1, 11344915649860608681ULL, "MPIIO_COLL_WRITES", 0, 0, 0},
    {X86_300, IOSAGE_MOD_MPIIO, -1, 11344915649860608681ULL, "MPIIO_F_WRITE_TIME", 1, 0, 0.094854},
    {PPC_310, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_OPENS", 0, 16, 0},
    {PPC_310, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_RENAME_SOURCES", 0, -1, 0},
    {PPC_310, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_BYTES_WRITTEN", 0, 67108864, 0},
    {PPC_310, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_F_META_TIME", 1, 0, 0.000000},
    {PPC_310, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_F_VARIANCE_RANK_TIME", 1, 0, 0.000000},
    {PPC_310, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_F_VARIANCE_RANK_BYTES", 1, 0, 0.000000},
    {PPC_310, IOSAGE_MOD_BGQ, -1, 17224881367579287459ULL, "BGQ_NNODES", 0, 128, 0},
    {PPC_310, IOSAGE_MOD_BGQ, -1, 17224881367579287459ULL, "BGQ_RANKSPERNODE", 0, 16, 0},
    {PPC_310, IOSAGE_MOD_BGQ, -1, 17224881367579287459ULL, "BGQ_F_TIMESTAMP", 1, 0, 3.581660},
    {PPC_310, IOSAGE_MOD_STDIO, 0, 15920181672442173319ULL, "STDIO_OPENS", 0, 1, 0},
    {PPC_310, IOSAGE_MOD_STDIO, 0, 15920181672442173319ULL, "STDIO_FDOPENS", 0, -1, 0},
    {PPC_310, IOSAGE_MOD_STDIO, 0, 15920181672442173319ULL, "STDIO_BYTES_WRITTEN", 0, 640, 0},
    {PPC_310, IOSAGE_MOD_STDIO, 0, 15920181672442173319ULL, "STDIO_F_META_TIME", 1, 0, 0.000000},
    {X86_312, IOSAGE_MOD_POSIX, -1, 3413451750298442736ULL, "POSIX_READS", 0, 4, 0},
    {X86_312, IOSAGE_MOD_POSIX, -1, 3413451750298442736ULL, "POSIX_FILENOS", 0, -1, 0},
    {X86_312, IOSAGE_MOD_POSIX, -1, 3413451750298442736ULL, "POSIX_F_READ_TIME", 1, 0, 0.052241},
    {X86_312, IOSAGE_MOD_POSIX, -1, 3413451750298442736ULL, "POSIX_F_VARIANCE_RANK_TIME", 1, 0, 0.000000},
    {X86_312, IOSAGE_MOD_MPIIO, -1, 3413451750298442736ULL, "MPIIO_COLL_OPENS", 0, 0, 0},
    {X86_312, IOSAGE_MOD_MPIIO, -1, 3413451750298442736ULL, "MPIIO_F_CLOSE_START_TIMESTAMP", 1, 0, -1.000000},
    {X86_312, IOSAGE_MOD_MPIIO, -1, 3413451750298442736ULL, "MPIIO_F_CLOSE_END_TIMESTAMP", 1, 0, 0.051671},
    {PPC_318, IOSAGE_MOD_POSIX, -1, 5367110662850514526ULL, "POSIX_OPENS", 0, 16, 0},
    {PPC_318, IOSAGE_MOD_POSIX, -1, 5367110662850514526ULL, "POSIX_FILENOS", 0, 0, 0},
    {PPC_318, IOSAGE_MOD_POSIX, -1, 5367110662850514526ULL, "POSIX_F_META_TIME", 1, 0, 0.430159},
    {PPC_318, IOSAGE_MOD_POSIX, -1, 5367110662850514526ULL, "POSIX_F_VARIANCE_RANK_TIME", 1, 0, 0.006616},
    {PPC_318, IOSAGE_MOD_STDIO, 0, 15920181672442173319ULL, "STDIO_OPENS", 0, 1, 0},
    {PPC_318, IOSAGE_MOD_STDIO, 0, 15920181672442173319ULL, "STDIO_FDOPENS", 0, 0, 0},
    {PPC_318, IOSAGE_MOD_STDIO, 0, 15920181672442173319ULL, "STDIO_F_WRITE_TIME", 1, 0, 0.002848},
    {X86_347, IOSAGE_MOD_POSIX, -1, 17455793042334241652ULL, "POSIX_OPENS", 0, 16, 0},
    {X86_347, IOSAGE_MOD_POSIX, -1, 17455793042334241652ULL, "POSIX_RENAME_TARGETS", 0, 0, 0},
    {X86_347, IOSAGE_MOD_POSIX, -1, 17455793042334241652ULL, "POSIX_F_CLOSE_START_TIMESTAMP", 1, 0, 0.009104},
    {HDF5, IOSAGE_MOD_H5F, 1, 10384774853006289996ULL, "H5F_OPENS", 0, 2, 0},
    {HDF5, IOSAGE_MOD_H5F, 1, 10384774853006289996ULL, "H5F_FLUSHES", 0, 0, 0},
    {HDF5, IOSAGE_MOD_H5F, 1, 10384774853006289996ULL, "H5F_USE_MPIIO", 0, 1, 0},
    {HDF5, IOSAGE_MOD_H5F, 1, 10384774853006289996ULL, "H5F_F_META_TIME", 1, 0, 0.066955},
    {HDF5, IOSAGE_MOD_H5D, 1, 9080082818774558450ULL, "H5D_OPENS", 0, 2, 0},
    {HDF5, IOSAGE_MOD_H5D, 1, 9080082818774558450ULL, "H5D_BYTES_WRITTEN", 0, 1048576, 0},
    {HDF5, IOSAGE_MOD_H5D, 1, 9080082818774558450ULL, "H5D_DATASPACE_NPOINTS", 0, 524288, 0},
    {HDF5, IOSAGE_MOD_H5D, 1, 9080082818774558450ULL, "FILE_REC_ID", 0, 0, 0},
    {HDF5, IOSAGE_MOD_H5D, 1, 9080082818774558450ULL, "H5D_F_WRITE_TIME", 1, 0, 0.152644},
    {PNETCDF, IOSAGE_MOD_PNETCDF_FILE, -1, 11831850109748558379ULL, "PNETCDF_FILE_CREATES", 0, 4, 0},
    {PNETCDF, IOSAGE_MOD_PNETCDF_FILE, -1, 11831850109748558379ULL, "PNETCDF_FILE_OPENS", 0, 4, 0},
    {PNETCDF, IOSAGE_MOD_PNETCDF_FILE, -1, 11831850109748558379ULL, "PNETCDF_FILE_BYTES_WRITTEN", 0, 4194476, 0},
    {PNETCDF, IOSAGE_MOD_PNETCDF_FILE, -1, 11831850109748558379ULL, "PNETCDF_FILE_F_META_TIME", 1, 0, 0.007914},
    {PNETCDF, IOSAGE_MOD_PNETCDF_VAR, -1, 13643764139999164549ULL, "PNETCDF_VAR_OPENS", 0, 8, 0},
    {PNETCDF, IOSAGE_MOD_PNETCDF_VAR, -1, 13643764139999164549ULL, "PNETCDF_VAR_PUT_VARA", 0, 16, 0},
    {PNETCDF, IOSAGE_MOD_PNETCDF_VAR, -1, 13643764139999164549ULL, "PNETCDF_VAR_BYTES_WRITTEN", 0, 4194304, 0},
    {PNETCDF, IOSAGE_MOD_PNETCDF_VAR, -1, 13643764139999164549ULL, "FILE_REC_ID", 0, (int64_t)11831850109748558379ULL, 0},
    {PNETCDF, IOSAGE_MOD_PNETCDF_VAR, -1, 13643764139999164549ULL, "PNETCDF_VAR_F_WRITE_TIME", 1, 0, 0.010319},
    {DFS, IOSAGE_MOD_DFS, -1, 1033117239470149052ULL, "DFS_OPENS", 0, 2, 0},
    {DFS, IOSAGE_MOD_DFS, -1, 1033117239470149052ULL, "DFS_WRITES", 0, 64, 0},
    {DFS, IOSAGE_MOD_DFS, -1, 1033117239470149052ULL, "DFS_BYTES_WRITTEN", 0, 16777216, 0},
    {DFS, IOSAGE_MOD_DFS, -1, 1033117239470149052ULL, "DFS_CHUNK_SIZE", 0, 1048576, 0},
    {DFS, IOSAGE_MOD_DFS, -1, 1033117239470149052ULL, "DFS_F_WRITE_TIME", 1, 0, 0.188893},
    {DFS, IOSAGE_MOD_DAOS, -1, 1033117239470149052ULL, "DAOS_OBJ_OPENS", 0, 1, 0},
    {DFS, IOSAGE_MOD_DAOS, -1, 1033117239470149052ULL, "DAOS_ARRAY_WRITES", 0, 64, 0},
    {DFS, IOSAGE_MOD_DAOS, -1, 1033117239470149052ULL, "DAOS_BYTES_WRITTEN", 0, 16777216, 0},
    {DFS, IOSAGE_MOD_DAOS, -1, 1033117239470149052ULL, "DAOS_OBJ_OTYPE", 0, 13, 0},
    {DFS, IOSAGE_MOD_DAOS, -1, 1033117239470149052ULL, "DAOS_F_META_TIME", 1, 0, 0.129872},
};

/* The same logs read without IOSAGE_READ_COMPAT: the values the reference
 * reader loses or misreads, correctly decoded (big-endian F_META_TIME and
 * F_MAX_*_TIME swapped, v3 variances kept). Not parser output: each was
 * checked for plausibility against the record's other timers (a maximum
 * below the cumulative time, a meta time below the run time) and the
 * MPI-IO record of the same file. */
static const real_value correct_values[] = {
    {PPC_300, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_F_META_TIME", 1, 0, 0.128771},
    {PPC_300, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_F_MAX_READ_TIME", 1, 0, 0.213375},
    {PPC_300, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_F_MAX_WRITE_TIME", 1, 0, 0.059676},
    {PPC_300, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_F_READ_TIME", 1, 0, 0.534031},
    {PPC_310, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_F_META_TIME", 1, 0, 0.129790},
    {PPC_310, IOSAGE_MOD_POSIX, -1, 9063791019878933741ULL, "POSIX_F_VARIANCE_RANK_TIME", 1, 0, 0.002178},
    {X86_312, IOSAGE_MOD_POSIX, -1, 3413451750298442736ULL, "POSIX_F_VARIANCE_RANK_TIME", 1, 0, 0.000094},
    {X86_312, IOSAGE_MOD_POSIX, -1, 3413451750298442736ULL, "POSIX_F_READ_TIME", 1, 0, 0.052241},
};

/* The record of module with (rank, id) in log, or NULL. */
static const iosage_record *find_record(const iosage_log *log, int module,
                                        int64_t rank, uint64_t id)
{
    const iosage_module_data *m = &log->modules[module];
    for (size_t i = 0; i < m->n_records; i++) {
        if (m->records[i].rank == rank && m->records[i].id == id)
            return &m->records[i];
    }
    return NULL;
}

static void check_value(const iosage_log *log, const real_value *v)
{
    const iosage_record *r = find_record(log, v->module, v->rank, v->id);
    if (r == NULL)
        fail_msg("%s: no %s record rank %lld id %llu", v->log,
                 iosage_module_name(v->module), (long long)v->rank,
                 (unsigned long long)v->id);
    if (v->is_dbl) {
        int k = iosage_fcounter_index(v->module, v->counter);
        assert_true(k >= 0);
        /* parser prints %f: six decimals */
        if (!(r->fcounters[k] > v->d - 5e-7 && r->fcounters[k] < v->d + 5e-7))
            fail_msg("%s: %s is %f, expected %f", v->log, v->counter,
                     r->fcounters[k], v->d);
        return;
    }
    if (strcmp(v->counter, "FILE_REC_ID") == 0) {
        assert_int_equal(r->x.file_ref.file_rec_id, (uint64_t)v->i);
        return;
    }
    int k = iosage_counter_index(v->module, v->counter);
    assert_true(k >= 0);
    if (r->counters[k] != v->i)
        fail_msg("%s: %s is %lld, expected %lld", v->log, v->counter,
                 (long long)r->counters[k], (long long)v->i);
}

/* Check every value of table[0..n) on logs loaded with flags. */
static void check_table(const real_value *table, size_t n, int flags)
{
    const char *dir = tu_shared_logs();
    const char *loaded = NULL;
    iosage_log *log = NULL;
    for (size_t k = 0; k < n; k++) {
        const real_value *v = &table[k];
        if (loaded == NULL || strcmp(loaded, v->log) != 0) {
            char path[1024];
            iosage_error err;
            iosage_log_free(log);
            log = NULL;
            snprintf(path, sizeof path, "%s/%s", dir, v->log);
            if (iosage_log_load(path, flags, &log, &err) != IOSAGE_OK)
                fail_msg("%s: load failed: %s", v->log, err.msg);
            loaded = v->log;
        }
        check_value(log, v);
    }
    iosage_log_free(log);
}

static void test_real_logs_compat(void **state)
{
    (void)state;
    if (tu_shared_logs() == NULL)
        skip();
    check_table(real_values, sizeof real_values / sizeof real_values[0],
                IOSAGE_READ_COMPAT);
}

static void test_real_logs_default(void **state)
{
    (void)state;
    if (tu_shared_logs() == NULL)
        skip();
    check_table(correct_values, sizeof correct_values / sizeof correct_values[0],
                IOSAGE_READ_DEFAULT);
}

int main(void)
{
    const struct CMUnitTest unit[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_encode_rejects_bad_layout),
        cmocka_unit_test(test_posix_v1),
        cmocka_unit_test(test_posix_v1_dropped),
        cmocka_unit_test(test_posix_v2),
        cmocka_unit_test(test_posix_v3),
        cmocka_unit_test(test_posix_v4_big_endian),
        cmocka_unit_test(test_mpiio_v1_v2),
        cmocka_unit_test(test_stdio_v1),
        cmocka_unit_test(test_h5f_v1_v2),
        cmocka_unit_test(test_h5d),
        cmocka_unit_test(test_pnetcdf_file_old),
        cmocka_unit_test(test_pnetcdf_var_big_endian),
        cmocka_unit_test(test_bgq_v1),
        cmocka_unit_test(test_mdhim),
        cmocka_unit_test(test_mdhim_encode),
        cmocka_unit_test(test_daos_big_endian),
    };
    const struct CMUnitTest real[] = {
        cmocka_unit_test(test_real_logs_compat),
        cmocka_unit_test(test_real_logs_default),
    };
    int failed = cmocka_run_group_tests_name("codecs", unit, setup_arena,
                                             teardown_arena);
    if (failed)
        return failed;
    if (tu_shared_logs() == NULL) {
        fprintf(stderr, "test_codecs: ../shared/darshan-logs absent; "
                        "real-log checks skipped\n");
        return 77;
    }
    return cmocka_run_group_tests_name("codecs_real_logs", real, NULL, NULL);
}
