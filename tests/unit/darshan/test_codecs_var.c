/*
 * tests/unit/test_codecs_var.c - codecs of the variable-size modules:
 * LUSTRE (v1, v2), DXT_POSIX / DXT_MPIIO, HEATMAP and APMPI.
 *
 * Synthetic part: records are built byte by byte (little- or big-endian),
 * decoded with the codec entry points of src/darshan/internal.h, and
 * encoded back. It checks round trips, up-conversion, the reference
 * reader's rules (Lustre trimming and scratch buffer, heatmap +-1 bins,
 * DXT_MPIIO v1 offsets) and that bad counts end in errors, not crashes.
 *
 * Real-log part (skipped when ../shared/darshan-logs is absent): loads logs
 * with IOSAGE_READ_COMPAT and compares a handful of values with the
 * darshan-parser / darshan-dxt-parser 3.5.0 output in expected/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "darshan/internal.h"
#include "iosage/darshan.h"
#include "testutil.h"

/* --- building records -------------------------------------------------- */

/* A byte buffer written in a chosen byte order. */
struct bb {
    uint8_t *p;
    size_t len, cap;
    int be; /* 1: big-endian values */
};

static void bb_bytes(struct bb *b, const void *src, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
    memcpy(b->p + b->len, src, n);
    b->len += n;
}

static void bb_u64(struct bb *b, uint64_t v)
{
    if (b->be)
        v = __builtin_bswap64(v);
    bb_bytes(b, &v, 8);
}

static void bb_i64(struct bb *b, int64_t v) { bb_u64(b, (uint64_t)v); }

static void bb_f64(struct bb *b, double d)
{
    uint64_t v;
    memcpy(&v, &d, 8);
    bb_u64(b, v);
}

static void bb_u32(struct bb *b, uint32_t v)
{
    if (b->be)
        v = __builtin_bswap32(v);
    bb_bytes(b, &v, 4);
}

/* Fixed-size character field: s copied, the rest zero. */
static void bb_text(struct bb *b, const char *s, size_t field)
{
    uint8_t tmp[256] = {0};
    assert_true(field <= sizeof tmp);
    memcpy(tmp, s, strnlen(s, field));
    bb_bytes(b, tmp, field);
}

/* --- decoding ------------------------------------------------------------ */

/* One decoding session over a byte range: cursor, module context, arena. */
struct session {
    ios_cursor cur;
    ios_mod_ctx ctx;
    ios_arena *arena;
    iosage_error err;
};

static void session_init(struct session *s, int module, uint32_t version,
                         const uint8_t *p, size_t len, int swap, int compat)
{
    memset(s, 0, sizeof *s);
    s->cur.p = p;
    s->cur.len = len;
    s->cur.swap = swap;
    s->ctx.module = module;
    s->ctx.version = version;
    s->ctx.swap = swap;
    s->ctx.compat = compat;
    s->ctx.path = "synthetic.darshan";
    s->arena = ios_arena_create();
    assert_non_null(s->arena);
}

static void session_done(struct session *s)
{
    free(s->ctx.lustre_scratch);
    ios_arena_destroy(s->arena);
}

/* Decode the next record with fn; returns the decoder's result. */
static int next(struct session *s, ios_decode_fn fn, iosage_record *rec)
{
    memset(rec, 0, sizeof *rec);
    rec->module = s->ctx.module;
    rec->version = s->ctx.version;
    int rc = fn(&s->cur, &s->ctx, rec, s->arena, &s->err);
    if (rc == IOSAGE_OK)
        s->ctx.n_records++;
    return rc;
}

/* Decode fn over the whole of b and expect an error code (no crash, no
 * record, error filled). */
static void expect_error(ios_decode_fn fn, int module, uint32_t version,
                         const struct bb *b, int compat, int code)
{
    struct session s;
    iosage_record rec;
    session_init(&s, module, version, b->p, b->len, b->be, compat);
    assert_int_equal(next(&s, fn, &rec), code);
    assert_int_equal(s.err.code, code);
    assert_true(s.err.msg[0] != '\0');
    assert_true(s.err.has_offset);
    session_done(&s);
}

/* --- LUSTRE ----------------------------------------------------------------- */

/* Append a v2 component. */
static void lustre_comp(struct bb *b, int64_t size, int64_t count,
                        int64_t ext_start, int64_t ext_end, const char *pool)
{
    bb_i64(b, size);
    bb_i64(b, count);
    bb_i64(b, 0);      /* pattern: raid0 */
    bb_i64(b, 0x10);   /* flags: init */
    bb_i64(b, ext_start);
    bb_i64(b, ext_end);
    bb_i64(b, 0);      /* mirror id */
    bb_text(b, pool, 16);
}

static void test_lustre_round_trip(void **state)
{
    (void)state;
    struct iosage_lustre_comp comps[2] = {
        {1 << 20, 2, 0, 0x10, 0, 1 << 30, 0, "fast"},
        {4 << 20, 3, 4, 0x10, 1 << 30, -1, 1, "capacity_pool_16"},
    };
    int64_t osts[5] = {11, 12, 40, 41, 42};
    iosage_record in;
    memset(&in, 0, sizeof in);
    in.module = IOSAGE_MOD_LUSTRE;
    in.version = 2;
    in.id = 0xfedcba9876543210ULL;
    in.rank = -1;
    in.x.lustre.num_comps = 2;
    in.x.lustre.num_stripes = 5;
    in.x.lustre.comps = comps;
    in.x.lustre.ost_ids = osts;

    ios_buf out = {0};
    iosage_error err;
    assert_int_equal(ios_lustre_encode(&in, &out, &err), IOSAGE_OK);
    assert_int_equal(out.len, 32 + 2 * 72 + 5 * 8);

    for (int compat = 0; compat <= 1; compat++) {
        struct session s;
        iosage_record rec;
        session_init(&s, IOSAGE_MOD_LUSTRE, 2, out.p, out.len, 0, compat);
        assert_int_equal(next(&s, ios_lustre_decode, &rec), IOSAGE_OK);
        assert_int_equal(s.cur.pos, out.len);
        assert_true(rec.id == in.id);
        assert_int_equal(rec.rank, -1);
        assert_int_equal(rec.n_counters, 0);
        assert_int_equal(rec.x.lustre.num_comps, 2);
        assert_int_equal(rec.x.lustre.num_stripes, 5);
        for (int i = 0; i < 2; i++) {
            const struct iosage_lustre_comp *a = &comps[i];
            const struct iosage_lustre_comp *b = &rec.x.lustre.comps[i];
            assert_int_equal(a->stripe_size, b->stripe_size);
            assert_int_equal(a->stripe_count, b->stripe_count);
            assert_int_equal(a->stripe_pattern, b->stripe_pattern);
            assert_int_equal(a->flags, b->flags);
            assert_int_equal(a->ext_start, b->ext_start);
            assert_int_equal(a->ext_end, b->ext_end);
            assert_int_equal(a->mirror_id, b->mirror_id);
        }
        assert_string_equal(rec.x.lustre.comps[0].pool_name, "fast");
        /* A full 16-byte pool name: default mode stops at 16 bytes; compat
         * mode runs on into the next bytes of the scratch buffer (here the
         * first OST id, 11, then a NUL). */
        assert_string_equal(rec.x.lustre.comps[1].pool_name,
                            compat ? "capacity_pool_16\x0b"
                                   : "capacity_pool_16");
        for (int i = 0; i < 5; i++)
            assert_int_equal(rec.x.lustre.ost_ids[i], osts[i]);
        assert_int_equal(next(&s, ios_lustre_decode, &rec), IOS_DECODE_SHORT);
        session_done(&s);
    }
    ios_buf_free(&out);
}

static void test_lustre_v1_upconvert(void **state)
{
    (void)state;
    struct bb b = {0};
    bb_u64(&b, 6578666418724807991ULL);
    bb_i64(&b, 3);
    bb_i64(&b, 248);     /* OSTS (discarded) */
    bb_i64(&b, 1);       /* MDTS (discarded) */
    bb_i64(&b, 5);       /* STRIPE_OFFSET (discarded) */
    bb_i64(&b, 1048576); /* STRIPE_SIZE */
    bb_i64(&b, 3);       /* STRIPE_WIDTH */
    bb_i64(&b, 7);
    bb_i64(&b, 8);
    bb_i64(&b, 9);
    bb_bytes(&b, "\0\0\0", 3); /* trailing partial record */

    struct session s;
    iosage_record rec;
    session_init(&s, IOSAGE_MOD_LUSTRE, 1, b.p, b.len, 0, 0);
    assert_int_equal(next(&s, ios_lustre_decode, &rec), IOSAGE_OK);
    assert_true(rec.id == 6578666418724807991ULL);
    assert_int_equal(rec.rank, 3);
    assert_int_equal(rec.x.lustre.num_comps, 1);
    assert_int_equal(rec.x.lustre.num_stripes, 3);
    const struct iosage_lustre_comp *c = &rec.x.lustre.comps[0];
    assert_int_equal(c->stripe_size, 1048576);
    assert_int_equal(c->stripe_count, 3);
    assert_int_equal(c->stripe_pattern, -1);
    assert_int_equal(c->flags, -1);
    assert_int_equal(c->ext_start, 0);
    assert_int_equal(c->ext_end, -1);
    assert_int_equal(c->mirror_id, -1);
    assert_string_equal(c->pool_name, "");
    assert_int_equal(rec.x.lustre.ost_ids[0], 7);
    assert_int_equal(rec.x.lustre.ost_ids[2], 9);
    assert_int_equal(s.cur.pos, 56 + 24);
    assert_int_equal(next(&s, ios_lustre_decode, &rec), IOS_DECODE_SHORT);
    assert_int_equal(s.cur.pos, 56 + 24); /* not advanced */

    /* It re-encodes as v2 and reads back the same. */
    ios_buf out = {0};
    iosage_error err;
    session_done(&s);
    session_init(&s, IOSAGE_MOD_LUSTRE, 1, b.p, b.len, 0, 0);
    assert_int_equal(next(&s, ios_lustre_decode, &rec), IOSAGE_OK);
    assert_int_equal(ios_lustre_encode(&rec, &out, &err), IOSAGE_OK);
    assert_int_equal(out.len, 32 + 72 + 24);
    struct session s2;
    iosage_record back;
    session_init(&s2, IOSAGE_MOD_LUSTRE, 2, out.p, out.len, 0, 0);
    assert_int_equal(next(&s2, ios_lustre_decode, &back), IOSAGE_OK);
    assert_int_equal(back.x.lustre.comps[0].ext_end, -1);
    assert_int_equal(back.x.lustre.ost_ids[1], 8);
    session_done(&s2);
    session_done(&s);
    ios_buf_free(&out);
    free(b.p);
}

static void test_lustre_v1_big_endian(void **state)
{
    (void)state;
    struct bb b = {.be = 1};
    bb_u64(&b, 42);
    bb_i64(&b, 0);
    bb_i64(&b, 10);
    bb_i64(&b, 1);
    bb_i64(&b, 0);
    bb_i64(&b, 65536);
    bb_i64(&b, 1);
    bb_i64(&b, 300);
    struct session s;
    iosage_record rec;
    session_init(&s, IOSAGE_MOD_LUSTRE, 1, b.p, b.len, 1, 0);
    assert_int_equal(next(&s, ios_lustre_decode, &rec), IOSAGE_OK);
    assert_int_equal(rec.id, 42);
    assert_int_equal(rec.x.lustre.comps[0].stripe_size, 65536);
    assert_int_equal(rec.x.lustre.ost_ids[0], 300);
    session_done(&s);
    free(b.p);
}

/* Three components, the last unused (STRIPE_SIZE -1): it is trimmed, the
 * OST ids are the first (2 + 1) stored. */
static void test_lustre_trim_unused(void **state)
{
    (void)state;
    struct bb b = {0};
    bb_u64(&b, 99);
    bb_i64(&b, -1);
    bb_i64(&b, 3); /* num_comps */
    bb_i64(&b, 4); /* num_stripes stored */
    lustre_comp(&b, 1 << 20, 2, 0, 64 << 20, "");
    lustre_comp(&b, 4 << 20, 1, 64 << 20, -1, "");
    lustre_comp(&b, -1, 1, 0, 0, "unused");
    bb_i64(&b, 5);
    bb_i64(&b, 6);
    bb_i64(&b, 7);
    bb_i64(&b, 8);
    bb_u64(&b, 100); /* a second record: num_comps 0, rule 1 */
    bb_i64(&b, 0);
    bb_i64(&b, 0);
    bb_i64(&b, 7);

    for (int compat = 0; compat <= 1; compat++) {
        struct session s;
        iosage_record rec;
        session_init(&s, IOSAGE_MOD_LUSTRE, 2, b.p, b.len, 0, compat);
        assert_int_equal(next(&s, ios_lustre_decode, &rec), IOSAGE_OK);
        assert_int_equal(rec.x.lustre.num_comps, 2);
        assert_int_equal(rec.x.lustre.num_stripes, 3);
        assert_int_equal(rec.x.lustre.comps[1].ext_end, -1);
        assert_int_equal(rec.x.lustre.ost_ids[0], 5);
        assert_int_equal(rec.x.lustre.ost_ids[2], 7);
        assert_int_equal(s.cur.pos, 32 + 3 * 72 + 4 * 8);

        assert_int_equal(next(&s, ios_lustre_decode, &rec), IOSAGE_OK);
        assert_int_equal(rec.id, 100);
        assert_int_equal(rec.x.lustre.num_comps, 0);
        assert_int_equal(rec.x.lustre.num_stripes, 7); /* as stored */
        assert_null(rec.x.lustre.comps);
        assert_null(rec.x.lustre.ost_ids);
        assert_int_equal(s.cur.pos, b.len);
        session_done(&s);
    }
    free(b.p);
}

/* Component stripe counts add up to more OST ids than stored. Default:
 * only the stored ids. Compat: the reference scratch buffer, zero at first
 * and afterwards holding what an earlier larger record left there. */
static void test_lustre_excess_stripes(void **state)
{
    (void)state;
    struct bb b = {0};
    /* record 1: 1 component, 4 ids stored and announced */
    bb_u64(&b, 1);
    bb_i64(&b, 0);
    bb_i64(&b, 1);
    bb_i64(&b, 4);
    lustre_comp(&b, 1 << 20, 4, 0, -1, "");
    for (int i = 0; i < 4; i++)
        bb_i64(&b, 20 + i);
    /* record 2: 1 component of count 3, only 1 id stored */
    bb_u64(&b, 2);
    bb_i64(&b, 0);
    bb_i64(&b, 1);
    bb_i64(&b, 1);
    lustre_comp(&b, 1 << 20, 3, 0, -1, "");
    bb_i64(&b, 30);

    struct session s;
    iosage_record rec;
    session_init(&s, IOSAGE_MOD_LUSTRE, 2, b.p, b.len, 0, 0);
    assert_int_equal(next(&s, ios_lustre_decode, &rec), IOSAGE_OK);
    assert_int_equal(next(&s, ios_lustre_decode, &rec), IOSAGE_OK);
    assert_int_equal(rec.x.lustre.num_comps, 1);
    assert_int_equal(rec.x.lustre.comps[0].stripe_count, 3);
    assert_int_equal(rec.x.lustre.num_stripes, 1);
    assert_int_equal(rec.x.lustre.ost_ids[0], 30);
    assert_int_equal(s.cur.pos, b.len);
    assert_null(s.ctx.lustre_scratch); /* default mode never allocates it */
    session_done(&s);

    session_init(&s, IOSAGE_MOD_LUSTRE, 2, b.p, b.len, 0, 1);
    assert_int_equal(next(&s, ios_lustre_decode, &rec), IOSAGE_OK);
    assert_int_equal(next(&s, ios_lustre_decode, &rec), IOSAGE_OK);
    assert_int_equal(rec.x.lustre.num_stripes, 3);
    assert_int_equal(rec.x.lustre.ost_ids[0], 30);
    assert_int_equal(rec.x.lustre.ost_ids[1], 21); /* left by record 1 */
    assert_int_equal(rec.x.lustre.ost_ids[2], 22);
    assert_int_equal(s.cur.pos, b.len);
    session_done(&s);

    /* Alone, record 2 reads zeros past its stored id. */
    size_t rec2 = 32 + 72 + 4 * 8;
    session_init(&s, IOSAGE_MOD_LUSTRE, 2, b.p + rec2, b.len - rec2, 0, 1);
    assert_int_equal(next(&s, ios_lustre_decode, &rec), IOSAGE_OK);
    assert_int_equal(rec.x.lustre.num_stripes, 3);
    assert_int_equal(rec.x.lustre.ost_ids[0], 30);
    assert_int_equal(rec.x.lustre.ost_ids[1], 0);
    assert_int_equal(rec.x.lustre.ost_ids[2], 0);
    session_done(&s);
    free(b.p);
}

/* Fixed part of a v2 record with the given counts, plus extra zero bytes. */
static void lustre_head(struct bb *b, int64_t nc, int64_t ns, size_t extra)
{
    b->len = 0;
    bb_u64(b, 5);
    bb_i64(b, 0);
    bb_i64(b, nc);
    bb_i64(b, ns);
    for (size_t i = 0; i < extra; i++)
        bb_bytes(b, "", 1);
}

static void test_lustre_bad_counts(void **state)
{
    (void)state;
    struct bb b = {0};
    ios_decode_fn fn = ios_lustre_decode;
    int m = IOSAGE_MOD_LUSTRE;
    /* counts whose byte sizes overflow 64 bits if multiplied unchecked */
    lustre_head(&b, INT64_MAX / 8, 0, 72);
    expect_error(fn, m, 2, &b, 0, IOSAGE_E_TRUNCATED);
    lustre_head(&b, (int64_t)(UINT64_MAX / 72 + 2), 0, 72);
    expect_error(fn, m, 2, &b, 1, IOSAGE_E_TRUNCATED);
    lustre_head(&b, 1, INT64_MAX / 4, 72 + 8);
    expect_error(fn, m, 2, &b, 0, IOSAGE_E_TRUNCATED);
    lustre_head(&b, 1, -3, 72);
    expect_error(fn, m, 2, &b, 0, IOSAGE_E_CORRUPT);
    /* short read: the record announces more than the region holds */
    lustre_head(&b, 2, 1, 72 + 72);
    expect_error(fn, m, 2, &b, 0, IOSAGE_E_TRUNCATED);
    expect_error(fn, m, 2, &b, 1, IOSAGE_E_TRUNCATED);
    /* a record over the reference's 81,920-byte buffer: an error in compat
     * mode only (48 + 72 + 8 * 10225 = 81920 still fits) */
    lustre_head(&b, 1, 10226, 72 + 8 * 10226);
    expect_error(fn, m, 2, &b, 1, IOSAGE_E_LIMIT);
    struct session s;
    iosage_record rec;
    session_init(&s, m, 2, b.p, b.len, 0, 0);
    assert_int_equal(next(&s, fn, &rec), IOSAGE_OK);
    session_done(&s);
    lustre_head(&b, 1, 10225, 72 + 8 * 10225);
    session_init(&s, m, 2, b.p, b.len, 0, 1);
    assert_int_equal(next(&s, fn, &rec), IOSAGE_OK);
    assert_int_equal(s.cur.pos, b.len);
    session_done(&s);
    /* v1: negative and huge stripe widths */
    b.len = 0;
    for (int i = 0; i < 6; i++)
        bb_i64(&b, 0);
    bb_i64(&b, -1);
    expect_error(fn, m, 1, &b, 0, IOSAGE_E_CORRUPT);
    b.len -= 8;
    bb_i64(&b, INT64_MAX);
    expect_error(fn, m, 1, &b, 0, IOSAGE_E_TRUNCATED);
    /* fewer bytes than a fixed part: trailing, not an error */
    lustre_head(&b, 1, 1, 0);
    session_init(&s, m, 2, b.p, 31, 0, 0);
    assert_int_equal(next(&s, fn, &rec), IOS_DECODE_SHORT);
    assert_int_equal(s.cur.pos, 0);
    session_done(&s);
    free(b.p);
}

/* --- DXT ------------------------------------------------------------------ */

/* Append a DXT record header. */
static void dxt_head(struct bb *b, uint64_t id, int64_t rank, const char *host,
                     int64_t wc, int64_t rc)
{
    bb_u64(b, id);
    bb_i64(b, rank);
    bb_i64(b, 0);
    bb_text(b, host, 64);
    bb_i64(b, wc);
    bb_i64(b, rc);
}

static void dxt_seg(struct bb *b, int64_t off, int64_t len, double t0,
                    double t1)
{
    bb_i64(b, off);
    bb_i64(b, len);
    bb_f64(b, t0);
    bb_f64(b, t1);
}

static void test_dxt_round_trip(void **state)
{
    (void)state;
    struct iosage_dxt_segment segs[3] = {
        {0, 4096, 0.25, 0.5, 0},
        {4096, 4096, 0.5, 0.75, 0},
        {0, 8192, 1.0, 1.5, 0},
    };
    const int mods[2] = {IOSAGE_MOD_DXT_POSIX, IOSAGE_MOD_DXT_MPIIO};
    const uint32_t vers[2] = {1, 2};
    for (int m = 0; m < 2; m++) {
        iosage_record in;
        memset(&in, 0, sizeof in);
        in.module = mods[m];
        in.version = vers[m];
        in.id = 9457796068806373448ULL;
        in.rank = 7;
        in.x.dxt.shared_record = 1;
        in.x.dxt.hostname = "sn176.localdomain";
        in.x.dxt.write_count = 2;
        in.x.dxt.read_count = 1;
        in.x.dxt.segs = segs;
        ios_buf out = {0};
        iosage_error err;
        assert_int_equal(ios_dxt_encode(&in, &out, &err), IOSAGE_OK);
        assert_int_equal(out.len, 104 + 3 * 32);

        struct session s;
        iosage_record rec;
        session_init(&s, mods[m], vers[m], out.p, out.len, 0, 0);
        assert_int_equal(next(&s, ios_dxt_decode, &rec), IOSAGE_OK);
        assert_true(rec.id == in.id);
        assert_int_equal(rec.rank, 7);
        assert_int_equal(rec.x.dxt.shared_record, 1);
        assert_string_equal(rec.x.dxt.hostname, "sn176.localdomain");
        assert_int_equal(rec.x.dxt.write_count, 2);
        assert_int_equal(rec.x.dxt.read_count, 1);
        for (int i = 0; i < 3; i++) {
            assert_int_equal(rec.x.dxt.segs[i].offset, segs[i].offset);
            assert_int_equal(rec.x.dxt.segs[i].length, segs[i].length);
            assert_true(rec.x.dxt.segs[i].start_time == segs[i].start_time);
            assert_true(rec.x.dxt.segs[i].end_time == segs[i].end_time);
            assert_int_equal(rec.x.dxt.segs[i].pthread_id, 0);
        }
        assert_int_equal(s.cur.pos, out.len);
        session_done(&s);
        ios_buf_free(&out);
    }
}

static void test_dxt_mpiio_v1_offsets(void **state)
{
    (void)state;
    struct bb b = {0};
    dxt_head(&b, 1, 0, "host", 1, 1);
    dxt_seg(&b, 123, 10, 0.1, 0.2);
    dxt_seg(&b, 456, 20, 0.3, 0.4);
    struct session s;
    iosage_record rec;
    session_init(&s, IOSAGE_MOD_DXT_MPIIO, 1, b.p, b.len, 0, 0);
    assert_int_equal(next(&s, ios_dxt_decode, &rec), IOSAGE_OK);
    assert_int_equal(rec.x.dxt.segs[0].offset, -1);
    assert_int_equal(rec.x.dxt.segs[1].offset, -1);
    assert_int_equal(rec.x.dxt.segs[1].length, 20);
    session_done(&s);
    /* DXT_POSIX v1 keeps them */
    session_init(&s, IOSAGE_MOD_DXT_POSIX, 1, b.p, b.len, 0, 0);
    assert_int_equal(next(&s, ios_dxt_decode, &rec), IOSAGE_OK);
    assert_int_equal(rec.x.dxt.segs[0].offset, 123);
    session_done(&s);
    free(b.p);
}

/* 40-byte segments with thread ids (DXT_POSIX v2), big-endian, with a
 * 64-character hostname lacking a terminator. */
static void test_dxt_thread_ids(void **state)
{
    (void)state;
    char host[65];
    memset(host, 'h', 64);
    host[64] = '\0';
    struct bb b = {.be = 1};
    dxt_head(&b, 77, 2, host, 1, 0);
    dxt_seg(&b, 8, 16, 2.0, 3.0);
    bb_u64(&b, 0x1122334455667788ULL);
    for (int compat = 0; compat <= 1; compat++) {
        struct session s;
        iosage_record rec;
        session_init(&s, IOSAGE_MOD_DXT_POSIX, 2, b.p, b.len, 1, compat);
        assert_int_equal(next(&s, ios_dxt_decode, &rec), IOSAGE_OK);
        assert_int_equal(rec.id, 77);
        assert_int_equal(strlen(rec.x.dxt.hostname), 64);
        assert_int_equal(rec.x.dxt.segs[0].offset, 8);
        assert_true(rec.x.dxt.segs[0].end_time == 3.0);
        /* the reference reader does not swap the thread id */
        assert_true(rec.x.dxt.segs[0].pthread_id ==
                    (compat ? 0x8877665544332211ULL : 0x1122334455667788ULL));
        assert_int_equal(s.cur.pos, 104 + 40);
        session_done(&s);
    }
    free(b.p);
}

static void test_dxt_bad_counts(void **state)
{
    (void)state;
    struct bb b = {0};
    ios_decode_fn fn = ios_dxt_decode;
    int m = IOSAGE_MOD_DXT_POSIX;
    dxt_head(&b, 1, 0, "x", -1, 0);
    expect_error(fn, m, 1, &b, 0, IOSAGE_E_CORRUPT);
    b.len = 0;
    dxt_head(&b, 1, 0, "x", 0, -5);
    expect_error(fn, m, 1, &b, 0, IOSAGE_E_CORRUPT);
    b.len = 0;
    dxt_head(&b, 1, 0, "x", INT64_MAX / 16, INT64_MAX / 16);
    dxt_seg(&b, 0, 0, 0, 0);
    expect_error(fn, m, 1, &b, 0, IOSAGE_E_TRUNCATED);
    b.len = 0;
    dxt_head(&b, 1, 0, "x", 1, INT64_MAX);
    dxt_seg(&b, 0, 0, 0, 0);
    expect_error(fn, IOSAGE_MOD_DXT_MPIIO, 2, &b, 1, IOSAGE_E_TRUNCATED);
    b.len = 0;
    dxt_head(&b, 1, 0, "x", 2, 0); /* segments cut off */
    dxt_seg(&b, 0, 0, 0, 0);
    expect_error(fn, m, 1, &b, 0, IOSAGE_E_TRUNCATED);

    struct session s;
    iosage_record rec;
    session_init(&s, m, 1, b.p, 103, 0, 0);
    assert_int_equal(next(&s, fn, &rec), IOS_DECODE_SHORT);
    assert_int_equal(s.cur.pos, 0);
    session_done(&s);
    free(b.p);
}

/* --- HEATMAP ---------------------------------------------------------------- */

static void heatmap_rec(struct bb *b, uint64_t id, double width,
                        int64_t nbins, int64_t base)
{
    bb_u64(b, id);
    bb_i64(b, 0);
    bb_f64(b, width);
    bb_i64(b, nbins);
    bb_u64(b, 0x7fe9d0218040ULL); /* writer's pointers: ignored */
    bb_u64(b, 0x7fe9d0218078ULL);
    for (int64_t i = 0; i < nbins; i++)
        bb_i64(b, base + i); /* write bins */
    for (int64_t i = 0; i < nbins; i++)
        bb_i64(b, 1000 + base + i); /* read bins */
}

static void test_heatmap_round_trip(void **state)
{
    (void)state;
    int64_t wb[3] = {1, 0, 4096}, rb[3] = {0, 512, 0};
    iosage_record in;
    memset(&in, 0, sizeof in);
    in.module = IOSAGE_MOD_HEATMAP;
    in.version = 1;
    in.id = 16592106915301738621ULL; /* heatmap:POSIX */
    in.rank = 3;
    in.x.heatmap.bin_width = 0.2;
    in.x.heatmap.nbins = 3;
    in.x.heatmap.write_bins = wb;
    in.x.heatmap.read_bins = rb;
    ios_buf out = {0};
    iosage_error err;
    assert_int_equal(ios_heatmap_encode(&in, &out, &err), IOSAGE_OK);
    assert_int_equal(out.len, 48 + 16 * 3);
    for (int i = 32; i < 48; i++)
        assert_int_equal(out.p[i], 0); /* pointer slots */

    struct session s;
    iosage_record rec;
    session_init(&s, IOSAGE_MOD_HEATMAP, 1, out.p, out.len, 0, 0);
    assert_int_equal(next(&s, ios_heatmap_decode, &rec), IOSAGE_OK);
    assert_true(rec.id == in.id);
    assert_int_equal(rec.rank, 3);
    assert_true(rec.x.heatmap.bin_width == 0.2);
    assert_int_equal(rec.x.heatmap.nbins, 3);
    assert_memory_equal(rec.x.heatmap.write_bins, wb, sizeof wb);
    assert_memory_equal(rec.x.heatmap.read_bins, rb, sizeof rb);
    session_done(&s);
    ios_buf_free(&out);
}

/* First record: 4 bins of 0.1 s. Then 5 bins (same width) -> 4, 3 bins ->
 * 4 with a zero, 3 bins of another width -> unchanged, 6 bins -> 6. */
static void test_heatmap_normalise(void **state)
{
    (void)state;
    struct bb b = {0};
    heatmap_rec(&b, 1, 0.1, 4, 10);
    heatmap_rec(&b, 2, 0.1, 5, 20);
    heatmap_rec(&b, 3, 0.1, 3, 30);
    heatmap_rec(&b, 4, 0.2, 3, 40);
    heatmap_rec(&b, 5, 0.1, 6, 50);
    for (int compat = 0; compat <= 1; compat++) {
        struct session s;
        iosage_record r;
        session_init(&s, IOSAGE_MOD_HEATMAP, 1, b.p, b.len, 0, compat);
        assert_int_equal(next(&s, ios_heatmap_decode, &r), IOSAGE_OK);
        assert_int_equal(r.x.heatmap.nbins, 4);

        assert_int_equal(next(&s, ios_heatmap_decode, &r), IOSAGE_OK);
        assert_int_equal(r.x.heatmap.nbins, 4);
        assert_int_equal(r.x.heatmap.write_bins[3], 23);
        assert_int_equal(r.x.heatmap.read_bins[0], 1020);
        assert_int_equal(r.x.heatmap.read_bins[3], 1023); /* not 24 */

        assert_int_equal(next(&s, ios_heatmap_decode, &r), IOSAGE_OK);
        assert_int_equal(r.x.heatmap.nbins, 4);
        assert_int_equal(r.x.heatmap.write_bins[2], 32);
        assert_int_equal(r.x.heatmap.write_bins[3], 0);
        assert_int_equal(r.x.heatmap.read_bins[2], 1032);
        assert_int_equal(r.x.heatmap.read_bins[3], 0);

        assert_int_equal(next(&s, ios_heatmap_decode, &r), IOSAGE_OK);
        assert_int_equal(r.x.heatmap.nbins, 3);
        assert_int_equal(next(&s, ios_heatmap_decode, &r), IOSAGE_OK);
        assert_int_equal(r.x.heatmap.nbins, 6);
        assert_int_equal(r.x.heatmap.read_bins[5], 1055);
        assert_int_equal(s.cur.pos, b.len);
        session_done(&s);
    }
    free(b.p);
}

static void test_heatmap_limits(void **state)
{
    (void)state;
    struct bb b = {0};
    ios_decode_fn fn = ios_heatmap_decode;
    int m = IOSAGE_MOD_HEATMAP;
    heatmap_rec(&b, 1, 0.1, 5118, 0); /* 48 + 16 * 5118 > 81920 */
    expect_error(fn, m, 1, &b, 1, IOSAGE_E_LIMIT);
    struct session s;
    iosage_record r;
    session_init(&s, m, 1, b.p, b.len, 0, 0);
    assert_int_equal(next(&s, fn, &r), IOSAGE_OK);
    assert_int_equal(r.x.heatmap.nbins, 5118);
    assert_int_equal(r.x.heatmap.read_bins[5117], 1000 + 5117);
    session_done(&s);
    b.len = 0;
    heatmap_rec(&b, 1, 0.1, 5117, 0); /* exactly 81920 bytes */
    session_init(&s, m, 1, b.p, b.len, 0, 1);
    assert_int_equal(next(&s, fn, &r), IOSAGE_OK);
    session_done(&s);

    b.len = 0;
    heatmap_rec(&b, 1, 0.1, 0, 0);
    memcpy(b.p + 24, &(int64_t){-1}, 8);
    expect_error(fn, m, 1, &b, 0, IOSAGE_E_CORRUPT);
    memcpy(b.p + 24, &(int64_t){INT64_MAX / 2}, 8);
    expect_error(fn, m, 1, &b, 0, IOSAGE_E_TRUNCATED);
    expect_error(fn, m, 1, &b, 1, IOSAGE_E_LIMIT);
    b.len = 0;
    heatmap_rec(&b, 1, 0.1, 4, 0);
    b.len -= 1; /* cut inside the read bins */
    expect_error(fn, m, 1, &b, 0, IOSAGE_E_TRUNCATED);
    session_init(&s, m, 1, b.p, 47, 0, 0);
    assert_int_equal(next(&s, fn, &r), IOS_DECODE_SHORT);
    session_done(&s);
    free(b.p);
}

/* --- APMPI ------------------------------------------------------------------ */

static void test_apmpi_header_then_process(void **state)
{
    (void)state;
    iosage_record hdr, proc;
    memset(&hdr, 0, sizeof hdr);
    hdr.module = IOSAGE_MOD_APMPI;
    hdr.version = 1;
    hdr.id = 7713204788897956166ULL; /* darshan-apmpi-header */
    hdr.x.apmpi.is_header = 1;
    hdr.x.apmpi.magic = 0x41504D5049LL;
    hdr.x.apmpi.sync_flag = 1;
    hdr.x.apmpi.variance_total_mpitime = 0.125;
    hdr.x.apmpi.variance_total_mpisynctime = 0.5;

    int64_t cnt[396];
    double fcnt[240];
    for (int i = 0; i < 396; i++)
        cnt[i] = i * 3;
    cnt[395] = (int64_t)UINT64_MAX; /* unsigned values survive */
    for (int i = 0; i < 240; i++)
        fcnt[i] = i / 4.0;
    memset(&proc, 0, sizeof proc);
    proc.module = IOSAGE_MOD_APMPI;
    proc.version = 1;
    proc.id = 2250748219237254214ULL; /* APMPI */
    proc.rank = 63;
    proc.n_counters = 396;
    proc.n_fcounters = 240;
    proc.counters = cnt;
    proc.fcounters = fcnt;
    char node[129] = {0};
    memset(node, 'n', 128); /* no terminator stored */
    proc.x.apmpi.node_name = node;

    ios_buf out = {0};
    iosage_error err;
    assert_int_equal(ios_apmpi_encode(&hdr, &out, &err), IOSAGE_OK);
    assert_int_equal(out.len, 48);
    assert_int_equal(ios_apmpi_encode(&proc, &out, &err), IOSAGE_OK);
    assert_int_equal(ios_apmpi_encode(&proc, &out, &err), IOSAGE_OK);
    assert_int_equal(out.len, 48 + 2 * 5232);
    proc.n_counters = 10;
    assert_int_equal(ios_apmpi_encode(&proc, &out, &err), IOSAGE_E_USAGE);

    struct session s;
    iosage_record r;
    session_init(&s, IOSAGE_MOD_APMPI, 1, out.p, out.len, 0, 0);
    assert_int_equal(next(&s, ios_apmpi_decode, &r), IOSAGE_OK);
    assert_int_equal(r.x.apmpi.is_header, 1);
    assert_int_equal(r.n_counters, 0);
    assert_int_equal(r.x.apmpi.magic, 0x41504D5049LL);
    assert_int_equal(r.x.apmpi.sync_flag, 1);
    assert_true(r.x.apmpi.variance_total_mpisynctime == 0.5);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(next(&s, ios_apmpi_decode, &r), IOSAGE_OK);
        assert_int_equal(r.x.apmpi.is_header, 0);
        assert_int_equal(r.rank, 63);
        assert_int_equal(r.n_counters, 396);
        assert_int_equal(r.n_fcounters, 240);
        assert_memory_equal(r.counters, cnt, sizeof cnt);
        assert_memory_equal(r.fcounters, fcnt, sizeof fcnt);
        assert_int_equal(strlen(r.x.apmpi.node_name), 128);
        assert_int_equal(r.x.apmpi.sync_flag, 1); /* from the header */
    }
    assert_int_equal(next(&s, ios_apmpi_decode, &r), IOS_DECODE_SHORT);
    session_done(&s);

    /* a region holding only part of a per-process record after the header */
    session_init(&s, IOSAGE_MOD_APMPI, 1, out.p, 48 + 5231, 0, 0);
    assert_int_equal(next(&s, ios_apmpi_decode, &r), IOSAGE_OK);
    assert_int_equal(next(&s, ios_apmpi_decode, &r), IOS_DECODE_SHORT);
    assert_int_equal(s.cur.pos, 48);
    session_done(&s);
    ios_buf_free(&out);
}

static void test_apmpi_big_endian_header(void **state)
{
    (void)state;
    struct bb b = {.be = 1};
    bb_u64(&b, 5);
    bb_i64(&b, 0);
    bb_i64(&b, 0x41504D5049LL);
    bb_u32(&b, 0);
    bb_u32(&b, 0);
    bb_f64(&b, 2.5);
    bb_f64(&b, 0.0);
    struct session s;
    iosage_record r;
    session_init(&s, IOSAGE_MOD_APMPI, 1, b.p, b.len, 1, 0);
    assert_int_equal(next(&s, ios_apmpi_decode, &r), IOSAGE_OK);
    assert_int_equal(r.x.apmpi.magic, 0x41504D5049LL);
    assert_int_equal(r.x.apmpi.sync_flag, 0);
    assert_true(r.x.apmpi.variance_total_mpitime == 2.5);
    session_done(&s);
    free(b.p);
}

/* --- real logs ---------------------------------------------------------------- */

/* Load name from the shared logs in compat mode, or skip the test. */
static iosage_log *load_shared(const char *name)
{
    const char *dir = tu_shared_logs();
    if (!dir) {
        print_message("skipped: shared logs not present\n");
        skip();
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    iosage_log *log = NULL;
    iosage_error err;
    iosage_status st = iosage_log_load(path, IOSAGE_READ_COMPAT, &log, &err);
    if (st != IOSAGE_OK)
        print_message("%s: %s\n", name, err.msg);
    assert_int_equal(st, IOSAGE_OK);
    return log;
}

/* The first record of module m with id (and rank, unless any_rank). */
static const iosage_record *find_rec(const iosage_log *log, int m,
                                     uint64_t id, int64_t rank, int any_rank)
{
    const iosage_module_data *md = &log->modules[m];
    for (size_t i = 0; i < md->n_records; i++)
        if (md->records[i].id == id &&
            (any_rank || md->records[i].rank == rank))
            return &md->records[i];
    return NULL;
}

static void test_real_lustre(void **state)
{
    (void)state;
    /* v1, 3.10 log: 48 records, one OST each */
    iosage_log *log = load_shared("sample-goodost.darshan");
    const iosage_module_data *md = &log->modules[IOSAGE_MOD_LUSTRE];
    assert_int_equal(md->status, IOSAGE_OK);
    assert_int_equal(md->n_records, 48);
    const iosage_record *r =
        find_rec(log, IOSAGE_MOD_LUSTRE, 2184679654647006378ULL, 1, 0);
    assert_non_null(r);
    assert_int_equal(r->x.lustre.num_comps, 1);
    assert_int_equal(r->x.lustre.comps[0].stripe_size, 1048576);
    assert_int_equal(r->x.lustre.comps[0].stripe_pattern, -1);
    assert_int_equal(r->x.lustre.ost_ids[0], 4);
    iosage_log_free(log);

    /* v2, 3.4.6 log */
    log = load_shared("mpi-io-test-x86_64-3.4.6.darshan");
    r = find_rec(log, IOSAGE_MOD_LUSTRE, 4590251088648084751ULL, -1, 0);
    assert_non_null(r);
    assert_int_equal(r->x.lustre.num_stripes, 1);
    assert_int_equal(r->x.lustre.comps[0].stripe_pattern, 0);
    assert_int_equal(r->x.lustre.comps[0].mirror_id, 0);
    assert_string_equal(r->x.lustre.comps[0].pool_name, "");
    assert_int_equal(r->x.lustre.ost_ids[0], 3);
    iosage_log_free(log);

    /* 3.21 log with Lustre v1 */
    log = load_shared("dbin_ior_id66184525-37486_1-22-67323-"
                      "16349198698853775843_1.darshan");
    r = find_rec(log, IOSAGE_MOD_LUSTRE, 12452083495293990527ULL, -1, 0);
    assert_non_null(r);
    assert_int_equal(r->x.lustre.ost_ids[0], 112);
    iosage_log_free(log);
}

/* Pre-release 3.41 log: STDIO data in the LUSTRE slot. Compat mode shows
 * what darshan-parser printed (123 zero OST ids from its scratch buffer). */
static void test_real_lustre_malformed(void **state)
{
    (void)state;
    iosage_log *log = load_shared("snyders_ior-POSIX_id531897-30559_8-18-"
                                  "57636-5730483702862695835_1.darshan");
    const iosage_module_data *md = &log->modules[IOSAGE_MOD_LUSTRE];
    assert_int_equal(md->n_records, 5);
    const iosage_record *r = &md->records[0];
    assert_true(r->id == 15920181672442173319ULL);
    assert_int_equal(r->x.lustre.num_comps, 1);
    assert_int_equal(r->x.lustre.num_stripes, 123);
    assert_int_equal(r->x.lustre.comps[0].flags, 9);
    assert_int_equal(r->x.lustre.comps[0].ext_start, 2096);
    assert_int_equal(r->x.lustre.ost_ids[122], 0);
    assert_int_equal(md->records[4].id, 4590623395728588800ULL);
    assert_int_equal(md->records[4].x.lustre.num_comps, 0);
    iosage_log_free(log);
}

static void test_real_dxt(void **state)
{
    (void)state;
    iosage_log *log = load_shared("sample-dxt-simple.darshan");
    const iosage_record *r = find_rec(log, IOSAGE_MOD_DXT_POSIX,
                                      9457796068806373448ULL, 0, 0);
    assert_non_null(r);
    assert_string_equal(r->x.dxt.hostname, "sn176.localdomain");
    assert_int_equal(r->x.dxt.write_count, 1);
    assert_int_equal(r->x.dxt.read_count, 0);
    assert_int_equal(r->x.dxt.segs[0].length, 4000);
    assert_true(r->x.dxt.segs[0].start_time > 0.10415 &&
                r->x.dxt.segs[0].start_time < 0.10425);
    r = find_rec(log, IOSAGE_MOD_DXT_MPIIO, 9457796068806373448ULL, 0, 0);
    assert_non_null(r);
    assert_int_equal(r->x.dxt.segs[0].offset, 0);
    assert_true(r->x.dxt.segs[0].end_time > 0.10525 &&
                r->x.dxt.segs[0].end_time < 0.10535);
    iosage_log_free(log);
}

/* DXT_MPIIO v1 (offsets -1) and v2 (file offsets), and a big-endian log. */
static void test_real_dxt_mpiio(void **state)
{
    (void)state;
    iosage_log *log = load_shared("mpi-io-test-x86_64-3.1.4.darshan");
    const iosage_record *r = find_rec(log, IOSAGE_MOD_DXT_MPIIO,
                                      6331129185542144414ULL, 0, 0);
    assert_non_null(r);
    assert_string_equal(r->x.dxt.hostname, "shane-thinkpad");
    assert_int_equal(r->x.dxt.write_count, 1);
    assert_int_equal(r->x.dxt.read_count, 1);
    assert_int_equal(r->x.dxt.segs[0].offset, -1);
    assert_int_equal(r->x.dxt.segs[0].length, 16777216);
    iosage_log_free(log);

    log = load_shared("treddy_mpi-io-test_id4373053_6-2-60198-"
                      "9815401321915095332_1.darshan");
    r = find_rec(log, IOSAGE_MOD_DXT_MPIIO, 2971090431609867297ULL, 0, 0);
    assert_non_null(r);
    assert_int_equal(r->x.dxt.write_count, 4);
    assert_int_equal(r->x.dxt.read_count, 4);
    assert_int_equal(r->x.dxt.segs[3].offset, 1610612736);
    assert_true(r->x.dxt.segs[3].end_time > 8.04795 &&
                r->x.dxt.segs[3].end_time < 8.04805);
    assert_int_equal(r->x.dxt.segs[4].offset, 0); /* first read */
    iosage_log_free(log);

    log = load_shared("mpi-io-test-ppc64-3.1.5.darshan");
    const iosage_module_data *md = &log->modules[IOSAGE_MOD_DXT_POSIX];
    assert_int_equal(md->status, IOSAGE_OK);
    assert_true(md->n_records > 0);
    assert_int_equal(md->records[0].x.dxt.segs[0].length, 16777216);
    iosage_log_free(log);
}

static void test_real_heatmap(void **state)
{
    (void)state;
    iosage_log *log = load_shared("mpi-io-test-x86_64-3.4.6.darshan");
    const iosage_module_data *md = &log->modules[IOSAGE_MOD_HEATMAP];
    assert_int_equal(md->status, IOSAGE_OK);
    assert_int_equal(md->n_records, 9);
    const iosage_record *r = &md->records[0];
    assert_true(r->id == 3989511027826779520ULL); /* heatmap:STDIO */
    assert_true(r->x.heatmap.bin_width == 0.1);
    assert_int_equal(r->x.heatmap.nbins, 1);
    assert_int_equal(r->x.heatmap.write_bins[0], 344);
    assert_int_equal(r->x.heatmap.read_bins[0], 0);
    r = &md->records[1];
    assert_true(r->id == 16592106915301738621ULL); /* heatmap:POSIX */
    assert_int_equal(r->x.heatmap.read_bins[0], 16777216);
    iosage_log_free(log);
}

static void test_real_apmpi(void **state)
{
    (void)state;
    iosage_log *log = load_shared("darshan-apmpi-2nodes-64mpi.darshan");
    const iosage_module_data *md = &log->modules[IOSAGE_MOD_APMPI];
    assert_int_equal(md->status, IOSAGE_OK);
    assert_int_equal(md->n_records, 1 + 128);
    assert_int_equal(md->records[0].x.apmpi.is_header, 1);
    assert_true(md->records[0].x.apmpi.variance_total_mpitime > 51.4118445 &&
                md->records[0].x.apmpi.variance_total_mpitime < 51.4118455);
    assert_int_equal(md->records[1].x.apmpi.is_header, 0);
    assert_string_equal(md->records[1].x.apmpi.node_name, "nid00020");
    assert_int_equal(md->records[1].n_counters, 396);
    iosage_log_free(log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lustre_round_trip),
        cmocka_unit_test(test_lustre_v1_upconvert),
        cmocka_unit_test(test_lustre_v1_big_endian),
        cmocka_unit_test(test_lustre_trim_unused),
        cmocka_unit_test(test_lustre_excess_stripes),
        cmocka_unit_test(test_lustre_bad_counts),
        cmocka_unit_test(test_dxt_round_trip),
        cmocka_unit_test(test_dxt_mpiio_v1_offsets),
        cmocka_unit_test(test_dxt_thread_ids),
        cmocka_unit_test(test_dxt_bad_counts),
        cmocka_unit_test(test_heatmap_round_trip),
        cmocka_unit_test(test_heatmap_normalise),
        cmocka_unit_test(test_heatmap_limits),
        cmocka_unit_test(test_apmpi_header_then_process),
        cmocka_unit_test(test_apmpi_big_endian_header),
        cmocka_unit_test(test_real_lustre),
        cmocka_unit_test(test_real_lustre_malformed),
        cmocka_unit_test(test_real_dxt),
        cmocka_unit_test(test_real_dxt_mpiio),
        cmocka_unit_test(test_real_heatmap),
        cmocka_unit_test(test_real_apmpi),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
