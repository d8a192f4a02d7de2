/*
 * src/dump/dump_dxt.c - iosage_dump_dxt: darshan-dxt-parser 3.5.0 text
 * (format spec section 14).
 *
 * LUSTRE (id 8) comes before DXT_POSIX (10) and DXT_MPIIO (11) in module
 * order. Its records are copied into a table keyed by record id (module data
 * is only valid until the next module is read), so that DXT_POSIX records
 * can show their stripe components and, per segment, the OSTs it touched.
 */
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "dump_internal.h"

/* What DXT output needs of one LUSTRE record. */
struct lustre_comp {
    int64_t stripe_size, stripe_count, ext_start, ext_end;
};

struct lustre_ent {
    uint64_t id;
    int64_t ncomps;           /* kept components (>= 0) */
    struct lustre_comp *comps;
    int64_t nosts;
    int64_t *osts;
};

/* The LUSTRE records seen, in order, and their ids (common/idmap). */
struct lustre_tab {
    struct lustre_ent *e;
    size_t n, cap;
    ios_idmap ids; /* record id -> index into e */
};

static void lustre_tab_free(struct lustre_tab *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->e[i].comps);
        free(t->e[i].osts);
    }
    free(t->e);
    ios_idmap_free(&t->ids);
    memset(t, 0, sizeof *t);
}

static const struct lustre_ent *lustre_find(const struct lustre_tab *t,
                                            uint64_t id)
{
    size_t at;
    return ios_idmap_get(&t->ids, id, &at) ? &t->e[at] : NULL;
}

/* Keep a copy of rec; the first record of an id wins. Returns -1 on no
 * memory. */
static int lustre_add(struct lustre_tab *t, const iosage_record *rec)
{
    if (lustre_find(t, rec->id))
        return 0;
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        struct lustre_ent *e = realloc(t->e, cap * sizeof *e);
        if (!e)
            return -1;
        t->e = e;
        t->cap = cap;
    }
    struct lustre_ent *e = &t->e[t->n];
    memset(e, 0, sizeof *e);
    int64_t nc = rec->x.lustre.comps ? rec->x.lustre.num_comps : 0;
    int64_t ns = rec->x.lustre.ost_ids ? rec->x.lustre.num_stripes : 0;
    if (nc < 0)
        nc = 0;
    if (ns < 0)
        ns = 0;
    e->comps = nc ? calloc((size_t)nc, sizeof *e->comps) : NULL;
    e->osts = ns ? calloc((size_t)ns, sizeof *e->osts) : NULL;
    if ((nc && !e->comps) || (ns && !e->osts) ||
        ios_idmap_put(&t->ids, rec->id, t->n) != 0) {
        free(e->comps);
        free(e->osts);
        e->comps = NULL;
        e->osts = NULL;
        return -1;
    }
    for (int64_t i = 0; i < nc; i++) {
        const struct iosage_lustre_comp *c = &rec->x.lustre.comps[i];
        e->comps[i].stripe_size = c->stripe_size;
        e->comps[i].stripe_count = c->stripe_count;
        e->comps[i].ext_start = c->ext_start;
        e->comps[i].ext_end = c->ext_end;
    }
    if (ns)
        memcpy(e->osts, rec->x.lustre.ost_ids, (size_t)ns * sizeof *e->osts);
    e->ncomps = nc;
    e->nosts = ns;
    e->id = rec->id;
    t->n++;
    return 0;
}

static int64_t ost_at(const struct lustre_ent *l, int64_t k)
{
    return (k >= 0 && k < l->nosts) ? l->osts[k] : 0;
}

/* --- Output -------------------------------------------------------------------- */

struct dxt_ctx {
    iosage_reader *r;
    int flags;
    ios_out *o;
    FILE *diag;
    struct iosage_dump_result *res;
    ios_mounts *mounts;
    const struct iosage_job *job;
    struct lustre_tab lustre;
};

/* Two's-complement arithmetic without undefined behaviour (offsets from
 * damaged logs can be anything). */
static int64_t wadd(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int64_t wsub(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a - (uint64_t)b);
}

static int64_t wmul(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * (uint64_t)b);
}

/* Upper bound on the OST columns of one segment; only damaged records come
 * near it. */
#define MAX_OST_COLUMNS 65536

/* The " [ost]" columns of one POSIX segment (spec 14). */
static void out_osts(ios_out *o, const struct lustre_ent *l, int64_t off,
                     int64_t len)
{
    int64_t cur = off, end = wadd(off, len);
    int64_t printed = 0, base = 0;
    for (int64_t c = 0; c < l->ncomps; c++) {
        const struct lustre_comp *cp = &l->comps[c];
        int64_t cnt = cp->stripe_count, size = cp->stripe_size;
        int64_t es = cp->ext_start, ee = cp->ext_end;
        if (cnt == 0)
            continue;
        if (cnt > 0 && size > 0 && es <= cur && (cur < ee || ee == -1)) {
            int64_t k = (wsub(cur, es) / size) % cnt;
            while (cur < end && (cur < ee || ee == -1) &&
                   printed < MAX_OST_COLUMNS) {
                char *p = ios_out_reserve(o, IOS_NUM_MAX + 4);
                char *s = p;
                *p++ = ' ';
                *p++ = '[';
                p += ios_fmt_i64(p, ost_at(l, wadd(base, k)));
                *p++ = ']';
                o->len += (size_t)(p - s);
                k = (k + 1) % cnt;
                cur = wadd(es, wmul(wsub(cur, es) / size + 1, size));
                printed++;
                if (printed >= cnt) {
                    cur = ee == -1 ? end : ee;
                    break;
                }
            }
        }
        base = wadd(base, cnt);
    }
}

static void out_comps(ios_out *o, const struct lustre_ent *l)
{
    int64_t base = 0;
    ios_out_str(o, "# DXT, Lustre stripe components:\n");
    for (int64_t c = 0; c < l->ncomps; c++) {
        const struct lustre_comp *cp = &l->comps[c];
        ios_out_str(o, "#\t[Component ");
        ios_out_i64(o, c + 1);
        ios_out_str(o, "] stripe_ext: ");
        ios_out_i64(o, cp->ext_start);
        ios_out_str(o, " - ");
        if (cp->ext_end == -1)
            ios_out_str(o, "EOF");
        else
            ios_out_i64(o, cp->ext_end);
        ios_out_str(o, ", stripe_size: ");
        ios_out_i64(o, cp->stripe_size);
        ios_out_str(o, ", stripe_count: ");
        ios_out_i64(o, cp->stripe_count);
        ios_out_str(o, ", OSTs:");
        for (int64_t j = 0; j < cp->stripe_count && j < MAX_OST_COLUMNS;
             j++) {
            ios_out_mem(o, " ", 1);
            ios_out_i64(o, ost_at(l, wadd(base, j)));
        }
        ios_out_mem(o, "\n", 1);
        if (cp->stripe_count > 0)
            base = wadd(base, cp->stripe_count);
    }
}

static void dxt_rows(struct dxt_ctx *c, const iosage_record *rec, int posix,
                     const struct lustre_ent *l)
{
    ios_out *o = c->o;
    const struct iosage_dxt_segment *segs = rec->x.dxt.segs;
    int64_t nw = rec->x.dxt.write_count, nr = rec->x.dxt.read_count;
    if (!segs || nw < 0 || nr < 0)
        return;
    const char *mod = posix ? " X_POSIX" : " X_MPIIO";
    for (int64_t i = 0; i < nw + nr; i++) {
        const struct iosage_dxt_segment *s = &segs[i];
        int wr = i < nw;
        int64_t seg = wr ? i : i - nw;
        /* module, 4 integers, "  write", 2 doubles, "   " */
        char *p = ios_out_reserve(o, 8 + 4 * IOS_NUM_MAX + 7 +
                                         2 * IOS_DBL_MAX + 3);
        char *start = p;
        char num[IOS_DBL_MAX];
        size_t n;
        memcpy(p, mod, 8);
        p += 8;
        n = ios_fmt_i64(num, rec->rank);
        if (n < 8) {
            memset(p, ' ', 8 - n);
            p += 8 - n;
        }
        memcpy(p, num, n);
        p += n;
        memcpy(p, wr ? "  write" : "   read", 7);
        p += 7;
        const int64_t vals[3] = {seg, s->offset, s->length};
        const int widths[3] = {9, 16, 16};
        for (int v = 0; v < 3; v++) {
            n = ios_fmt_i64(num, vals[v]);
            if (n < (size_t)widths[v]) {
                memset(p, ' ', (size_t)widths[v] - n);
                p += (size_t)widths[v] - n;
            }
            memcpy(p, num, n);
            p += n;
        }
        const double times[2] = {s->start_time, s->end_time};
        for (int v = 0; v < 2; v++) {
            n = ios_fmt_double(num, times[v], 4);
            if (n < 12) {
                memset(p, ' ', 12 - n);
                p += 12 - n;
            }
            memcpy(p, num, n);
            p += n;
        }
        if (posix) {
            memcpy(p, "   ", 3);
            p += 3;
        }
        o->len += (size_t)(p - start);
        if (posix && l)
            out_osts(o, l, s->offset, s->length);
        ios_out_mem(o, "\n", 1);
    }
}

static void dxt_record(struct dxt_ctx *c, const iosage_record *rec, int posix)
{
    ios_out *o = c->o;
    const char *name = iosage_reader_name(c->r, rec->id);
    const struct lustre_ent *l = posix ? lustre_find(&c->lustre, rec->id)
                                       : NULL;
    ios_out_str(o, "\n# DXT, file_id: ");
    ios_out_u64(o, rec->id);
    ios_out_str(o, ", file_name: ");
    ios_out_str(o, name ? name : "(null)");
    ios_out_str(o, "\n# DXT, rank: ");
    ios_out_i64(o, rec->rank);
    ios_out_str(o, ", hostname: ");
    ios_out_str(o, rec->x.dxt.hostname ? rec->x.dxt.hostname : "");
    ios_out_str(o, "\n# DXT, write_count: ");
    ios_out_i64(o, rec->x.dxt.write_count);
    ios_out_str(o, ", read_count: ");
    ios_out_i64(o, rec->x.dxt.read_count);
    ios_out_str(o, "\n# DXT, mnt_pt: ");
    long mi = ios_mounts_match(c->mounts, rec->id, name);
    if (mi >= 0) {
        ios_out_str(o, c->job->mounts[mi].point);
        ios_out_str(o, ", fs_type: ");
        ios_out_str(o, c->job->mounts[mi].fs_type);
    } else {
        ios_out_str(o, "UNKNOWN, fs_type: UNKNOWN");
    }
    ios_out_mem(o, "\n", 1);
    if (l)
        out_comps(o, l);
    ios_out_str(o, "# Module    Rank  Wt/Rd  Segment          Offset       "
                   "Length    Start(s)      End(s)");
    if (l)
        ios_out_str(o, "   [OST]");
    ios_out_mem(o, "\n", 1);
    dxt_rows(c, rec, posix, l);
}

/* Partial DXT or LUSTRE module: 1 when the dump must stop. */
static int dxt_partial(struct dxt_ctx *c, const iosage_module_data *md)
{
    return ios_dump_partial(c->o, c->diag, c->res, md,
                            (c->flags & IOSAGE_DUMP_SHOW_INCOMPLETE) != 0, 1);
}

/* One module: 0 go on, 1 stop, -1 no memory. */
static int dxt_module(struct dxt_ctx *c, const iosage_module_data *md)
{
    if (md->stored_len == 0)
        return 0;
    if (md->skipped) {
        if ((md->id == IOSAGE_MOD_DXT_POSIX ||
             md->id == IOSAGE_MOD_DXT_MPIIO) && c->diag)
            fprintf(c->diag, "# Warning: %s module skipped: %s\n", md->name,
                    md->notice);
        c->res->skipped_modules++;
        return 0;
    }
    if (md->id == IOSAGE_MOD_LUSTRE) {
        if (md->partial && dxt_partial(c, md))
            return 1;
        for (size_t i = 0; i < md->n_records; i++)
            if (lustre_add(&c->lustre, &md->records[i]) < 0)
                return -1;
        return 0;
    }
    if (md->id != IOSAGE_MOD_DXT_POSIX && md->id != IOSAGE_MOD_DXT_MPIIO)
        return 0;
    int posix = md->id == IOSAGE_MOD_DXT_POSIX;
    ios_dump_banner(c->o, md->name, 51);
    if (md->partial && dxt_partial(c, md))
        return 1;
    for (size_t i = 0; i < md->n_records; i++)
        dxt_record(c, &md->records[i], posix);
    ios_dump_check_module(md, c->job->nprocs, c->res);
    if (md->status != IOSAGE_OK)
        ios_dump_failed(c->diag, c->res, md);
    return 0;
}

iosage_status iosage_dump_dxt(iosage_reader *r, int flags, FILE *out,
                              FILE *diag, struct iosage_dump_result *res,
                              iosage_error *err)
{
    struct iosage_dump_result scratch;
    if (!res)
        res = &scratch;
    memset(res, 0, sizeof *res);
    if (!r || !out)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "dump", -1,
                        "no reader or no output stream");
    ios_out o;
    if (ios_out_init(&o, out) < 0)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "dump", -1,
                        "no memory for the output buffer");
    o.escape = (flags & IOSAGE_DUMP_ESCAPE) != 0;
    struct dxt_ctx c;
    memset(&c, 0, sizeof c);
    c.r = r;
    c.flags = flags;
    c.o = &o;
    c.diag = diag;
    c.res = res;
    c.job = iosage_reader_job(r);
    c.mounts = ios_mounts_create(c.job);

    iosage_status st = IOSAGE_OK;
    const struct iosage_header *h = iosage_reader_header(r);
    if (!c.mounts) {
        st = ios_fail(err, IOSAGE_E_NOMEM, NULL, "dump", -1,
                      "no memory for the mount table");
        goto done;
    }
    ios_dump_preamble(&o, r);
    if (h->modules[IOSAGE_MOD_DXT_POSIX].len == 0 &&
        h->modules[IOSAGE_MOD_DXT_MPIIO].len == 0) {
        ios_out_str(&o, "\n# no DXT module data available for this Darshan "
                        "log.\n");
        goto done;
    }
    for (;;) {
        const iosage_module_data *md = NULL;
        st = iosage_reader_next_module(r, &md, err);
        if (st != IOSAGE_OK || !md)
            break;
        int rc = dxt_module(&c, md);
        if (rc < 0) {
            st = ios_fail(err, IOSAGE_E_NOMEM, NULL, "dump", -1,
                          "no memory while printing the %s module", md->name);
            break;
        }
        if (rc > 0)
            break;
        if (md->id >= IOSAGE_MOD_DXT_MPIIO)
            break; /* nothing after DXT_MPIIO is printed */
    }
done:
    lustre_tab_free(&c.lustre);
    ios_mounts_free(c.mounts);
    if (ios_out_finish(&o) < 0) {
        res->write_errno = o.err;
        if (st == IOSAGE_OK)
            st = ios_fail(err, IOSAGE_E_IO, NULL, "dump", -1,
                          "cannot write the output: %s", strerror(o.err));
    }
    return st;
}
