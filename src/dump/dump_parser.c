/*
 * src/dump/dump_parser.c - iosage_dump_parser: darshan-parser 3.5.0 text
 * (format spec sections 12 and 13).
 *
 * Modules are read one at a time from the streaming reader. For each record
 * the line prefix ("<MODULE>\t<rank>\t<id>\t") and suffix ("\t<file name>\t
 * <mount pt>\t<fs type>\n") are built once; every counter line is then three
 * memcpys and one number conversion into the output buffer.
 */
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "ios_darshan.h" /* IOS_LUSTRE_SCRATCH */
#include "dump_internal.h"
#include "iosage/counters.h"

/* --- Counter names ---------------------------------------------------------- */

/* Names of one module's int64 (kind 0) or double (kind 1) counters. */
struct name_list {
    int n;
    const char **s;
    size_t *len;
};

static void name_list_free(struct name_list *l)
{
    free(l->s);
    free(l->len);
    memset(l, 0, sizeof *l);
}

static int name_list_load(struct name_list *l, int module, int kind)
{
    int n = kind ? iosage_fcounter_count(module) : iosage_counter_count(module);
    if (n <= 0)
        return 0;
    l->s = calloc((size_t)n, sizeof *l->s);
    l->len = calloc((size_t)n, sizeof *l->len);
    if (!l->s || !l->len) {
        name_list_free(l);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        const char *s = kind ? iosage_fcounter_name(module, i)
                             : iosage_counter_name(module, i);
        l->s[i] = s ? s : "UNKNOWN_COUNTER";
        l->len[i] = strlen(l->s[i]);
    }
    l->n = n;
    return 0;
}

/* --- One record's lines ------------------------------------------------------ */

struct line_ctx {
    ios_out *o;
    char pre[128];  /* "<MODULE>\t<rank>\t<id>\t" */
    size_t prelen;
    char *suf;      /* "\t<file>\t<mount>\t<fs>\n" */
    size_t suflen, sufcap;
    int oom;
};

static void line_begin(struct line_ctx *lc, const char *modname, int64_t rank,
                       uint64_t id)
{
    size_t ml = strlen(modname);
    if (ml > 60)
        ml = 60;
    char *p = lc->pre;
    memcpy(p, modname, ml);
    p += ml;
    *p++ = '\t';
    p += ios_fmt_i64(p, rank);
    *p++ = '\t';
    p += ios_fmt_u64(p, id);
    *p++ = '\t';
    lc->prelen = (size_t)(p - lc->pre);
}

static int suffix_reserve(struct line_ctx *lc, size_t n)
{
    if (n <= lc->sufcap)
        return 0;
    size_t cap = lc->sufcap ? lc->sufcap : 256;
    while (cap < n)
        cap *= 2;
    char *s = realloc(lc->suf, cap);
    if (!s) {
        lc->oom = 1;
        return -1;
    }
    lc->suf = s;
    lc->sufcap = cap;
    return 0;
}

/* suffix = "\t" file "\t" mnt "\t" fs "\n". */
static void line_suffix(struct line_ctx *lc, const char *file,
                        const char *mnt, const char *fs)
{
    size_t fl = strlen(file), ml = strlen(mnt), tl = strlen(fs);
    if (suffix_reserve(lc, fl + ml + tl + 4) < 0) {
        lc->suflen = 0;
        return;
    }
    char *p = lc->suf;
    *p++ = '\t';
    memcpy(p, file, fl);
    p += fl;
    *p++ = '\t';
    memcpy(p, mnt, ml);
    p += ml;
    *p++ = '\t';
    memcpy(p, fs, tl);
    p += tl;
    *p++ = '\n';
    lc->suflen = (size_t)(p - lc->suf);
}

/* Slow path for lines longer than the output buffer. */
static void line_long(struct line_ctx *lc, const char *name, size_t nlen,
                      const char *val, size_t vlen)
{
    ios_out_mem(lc->o, lc->pre, lc->prelen);
    ios_out_mem(lc->o, name, nlen);
    ios_out_mem(lc->o, "\t", 1);
    ios_out_mem(lc->o, val, vlen);
    ios_out_mem(lc->o, lc->suf, lc->suflen);
}

enum { VAL_I64, VAL_U64, VAL_F64 };

static void line_num(struct line_ctx *lc, const char *name, size_t nlen,
                     int kind, int64_t iv, double dv)
{
    size_t room = kind == VAL_F64 ? IOS_DBL_MAX : IOS_NUM_MAX;
    size_t need = lc->prelen + nlen + 1 + room + lc->suflen;
    if (need > IOS_OUT_CAP) {
        char tmp[IOS_DBL_MAX];
        size_t vl = kind == VAL_F64   ? ios_fmt_double(tmp, dv, 6)
                    : kind == VAL_U64 ? ios_fmt_u64(tmp, (uint64_t)iv)
                                      : ios_fmt_i64(tmp, iv);
        line_long(lc, name, nlen, tmp, vl);
        return;
    }
    char *start = ios_out_reserve(lc->o, need);
    char *p = start;
    memcpy(p, lc->pre, lc->prelen);
    p += lc->prelen;
    memcpy(p, name, nlen);
    p += nlen;
    *p++ = '\t';
    if (kind == VAL_F64)
        p += ios_fmt_double(p, dv, 6);
    else if (kind == VAL_U64)
        p += ios_fmt_u64(p, (uint64_t)iv);
    else
        p += ios_fmt_i64(p, iv);
    if (lc->suflen) /* 0 with no buffer after an allocation failed */
        memcpy(p, lc->suf, lc->suflen);
    p += lc->suflen;
    lc->o->len += (size_t)(p - start);
}

static inline void line_i64(struct line_ctx *lc, const char *name,
                            size_t nlen, int64_t v)
{
    line_num(lc, name, nlen, VAL_I64, v, 0.0);
}

static inline void line_u64(struct line_ctx *lc, const char *name,
                            size_t nlen, uint64_t v)
{
    line_num(lc, name, nlen, VAL_U64, (int64_t)v, 0.0);
}

static inline void line_f64(struct line_ctx *lc, const char *name,
                            size_t nlen, double v)
{
    line_num(lc, name, nlen, VAL_F64, 0, v);
}

static void line_text(struct line_ctx *lc, const char *name, size_t nlen,
                      const char *text)
{
    size_t tl = strlen(text);
    size_t need = lc->prelen + nlen + 1 + tl + lc->suflen;
    if (need > IOS_OUT_CAP) {
        line_long(lc, name, nlen, text, tl);
        return;
    }
    char *start = ios_out_reserve(lc->o, need);
    char *p = start;
    memcpy(p, lc->pre, lc->prelen);
    p += lc->prelen;
    memcpy(p, name, nlen);
    p += nlen;
    *p++ = '\t';
    memcpy(p, text, tl);
    p += tl;
    if (lc->suflen) /* 0 with no buffer after an allocation failed */
        memcpy(p, lc->suf, lc->suflen);
    p += lc->suflen;
    lc->o->len += (size_t)(p - start);
}

/* A counter name built from parts: "<a><number><b>" (number < 0: none). */
static size_t build_name(char *buf, const char *a, int64_t num, const char *b)
{
    size_t n = strlen(a);
    memcpy(buf, a, n);
    if (num >= 0)
        n += ios_fmt_i64(buf + n, num);
    size_t bl = strlen(b);
    memcpy(buf + n, b, bl);
    return n + bl;
}

/* --- Dump state -------------------------------------------------------------- */

struct parser_ctx {
    iosage_reader *r;
    int flags;
    ios_out *o;
    FILE *diag;
    struct iosage_dump_result *res;
    ios_mounts *mounts;
    const struct iosage_job *job;
    struct line_ctx lc;
    struct name_list names[IOSAGE_MOD_KNOWN][2];
    int names_loaded[IOSAGE_MOD_KNOWN];
    int posix_renamed_from; /* index of POSIX_RENAMED_FROM, or -1 */
};

static const struct name_list *names_for(struct parser_ctx *c, int module,
                                         int kind)
{
    static const struct name_list none = {0, NULL, NULL};
    if (module < 0 || module >= IOSAGE_MOD_KNOWN)
        return &none;
    if (!c->names_loaded[module]) {
        c->names_loaded[module] = 1;
        if (name_list_load(&c->names[module][0], module, 0) < 0 ||
            name_list_load(&c->names[module][1], module, 1) < 0)
            c->lc.oom = 1;
    }
    return &c->names[module][kind];
}

/* Name, mount point and fs type columns of rec (spec 12.3). */
static void record_suffix(struct parser_ctx *c, const iosage_record *rec)
{
    struct line_ctx *lc = &c->lc;
    const char *name = iosage_reader_name(c->r, rec->id);
    char buf[80];

    switch (rec->module) {
    case IOSAGE_MOD_APMPI:
    case IOSAGE_MOD_APXC:
        line_suffix(lc, "", "", "");
        return;
    case IOSAGE_MOD_DFS:
    case IOSAGE_MOD_DAOS: {
        static const uint8_t zero[16];
        char uu[80];
        const uint8_t *pu = rec->x.daos.pool_uuid, *cu = rec->x.daos.cont_uuid;
        ios_fmt_uuid(uu, pu);
        uu[36] = ':';
        ios_fmt_uuid(uu + 37, cu);
        uu[73] = '\0';
        if (rec->module == IOSAGE_MOD_DFS) {
            const char *mnt = uu;
            if (memcmp(pu, zero, 16) == 0 || memcmp(cu, zero, 16) == 0)
                mnt = "UNKNOWN";
            line_suffix(lc, name ? name : "(null)", mnt, "N/A");
        } else {
            size_t n = ios_fmt_u64(buf, rec->x.daos.oid_hi);
            buf[n++] = '.';
            n += ios_fmt_u64(buf + n, rec->x.daos.oid_lo);
            buf[n] = '\0';
            line_suffix(lc, buf, uu, "N/A");
        }
        return;
    }
    default:
        break;
    }

    const char *file = name;
    if (!file)
        file = rec->module == IOSAGE_MOD_BGQ ? "darshan-bgq-record" : "(null)";
    long mi = ios_mounts_match(c->mounts, rec->id, name);
    if (mi >= 0)
        line_suffix(lc, file, c->job->mounts[mi].point,
                    c->job->mounts[mi].fs_type);
    else
        line_suffix(lc, file, "UNKNOWN", "UNKNOWN");
}

/* Plain arrays: int64 counters then doubles (most modules). */
static void print_arrays(struct parser_ctx *c, const iosage_record *rec)
{
    struct line_ctx *lc = &c->lc;
    const struct name_list *ni = names_for(c, rec->module, 0);
    const struct name_list *nd = names_for(c, rec->module, 1);
    int unsigned_idx = rec->module == IOSAGE_MOD_POSIX ? c->posix_renamed_from
                                                       : -1;
    int n = rec->n_counters < ni->n ? rec->n_counters : ni->n;
    for (int i = 0; i < n; i++) {
        if (i == unsigned_idx)
            line_u64(lc, ni->s[i], ni->len[i], (uint64_t)rec->counters[i]);
        else
            line_i64(lc, ni->s[i], ni->len[i], rec->counters[i]);
    }
    n = rec->n_fcounters < nd->n ? rec->n_fcounters : nd->n;
    for (int i = 0; i < n; i++)
        line_f64(lc, nd->s[i], nd->len[i], rec->fcounters[i]);
}

static const char *lustre_pattern(int64_t v)
{
    switch (v) {
    case 0: return "raid0";
    case 2: return "mdt";
    case 4: return "raid0,overstriped";
    case 8: return "foreign";
    default: return "N/A";
    }
}

static void lustre_flags(char *buf, int64_t v)
{
    static const char *const bits[12] = {
        "stale",    "prefrd",  "prefwr",  "offline", "init",    "nosync",
        "extension", "parity", "compress", "partial", "nocompr", "neg",
    };
    if (v == -1) {
        memcpy(buf, "N/A", 4);
        return;
    }
    size_t n = 0;
    for (int b = 0; b < 12; b++) {
        if (!((uint64_t)v >> b & 1))
            continue;
        if (n)
            buf[n++] = ',';
        size_t l = strlen(bits[b]);
        memcpy(buf + n, bits[b], l);
        n += l;
    }
    if (n == 0)
        buf[n++] = '0';
    buf[n] = '\0';
}

#define MAX_OST_LINES (IOS_LUSTRE_SCRATCH / 8)

static void print_lustre(struct parser_ctx *c, const iosage_record *rec)
{
    struct line_ctx *lc = &c->lc;
    char nm[96], txt[128];
    int64_t nc = rec->x.lustre.num_comps;
    line_i64(lc, "LUSTRE_NUM_COMPONENTS", 21, nc);
    line_i64(lc, "LUSTRE_NUM_STRIPES", 18, rec->x.lustre.num_stripes);
    if (nc < 1 || !rec->x.lustre.comps)
        return;
    int64_t base = 0;
    for (int64_t ci = 0; ci < nc; ci++) {
        const struct iosage_lustre_comp *cp = &rec->x.lustre.comps[ci];
        int64_t num = ci + 1;
        line_i64(lc, nm, build_name(nm, "LUSTRE_COMP", num, "_STRIPE_SIZE"),
                 cp->stripe_size);
        line_i64(lc, nm, build_name(nm, "LUSTRE_COMP", num, "_STRIPE_COUNT"),
                 cp->stripe_count);
        line_text(lc, nm,
                  build_name(nm, "LUSTRE_COMP", num, "_STRIPE_PATTERN"),
                  lustre_pattern(cp->stripe_pattern));
        lustre_flags(txt, cp->flags);
        line_text(lc, nm, build_name(nm, "LUSTRE_COMP", num, "_FLAGS"), txt);
        line_i64(lc, nm, build_name(nm, "LUSTRE_COMP", num, "_EXT_START"),
                 cp->ext_start);
        line_i64(lc, nm, build_name(nm, "LUSTRE_COMP", num, "_EXT_END"),
                 cp->ext_end);
        line_i64(lc, nm, build_name(nm, "LUSTRE_COMP", num, "_MIRROR_ID"),
                 cp->mirror_id);
        const char *pool = cp->pool_name && cp->pool_name[0] ? cp->pool_name
                                                              : "N/A";
        line_text(lc, nm, build_name(nm, "LUSTRE_COMP", num, "_POOL_NAME"),
                  pool);
        size_t stem = build_name(nm, "LUSTRE_COMP", num, "_OST_ID_");
        /* The reader hands out every OST id the record claims (emulating
         * the reference's scratch buffer); the cap only guards against
         * damaged counts beyond anything it can hold. */
        for (int64_t j = 0; j < cp->stripe_count && j <= MAX_OST_LINES; j++) {
            int64_t k = (int64_t)((uint64_t)base + (uint64_t)j);
            int64_t ost = (k >= 0 && k < rec->x.lustre.num_stripes &&
                           rec->x.lustre.ost_ids)
                              ? rec->x.lustre.ost_ids[k]
                              : 0;
            size_t l = stem + ios_fmt_i64(nm + stem, j);
            line_i64(lc, nm, l, ost);
        }
        if (cp->stripe_count > 0)
            base = (int64_t)((uint64_t)base + (uint64_t)cp->stripe_count);
    }
}

static void print_heatmap(struct parser_ctx *c, const iosage_record *rec)
{
    struct line_ctx *lc = &c->lc;
    char nm[64];
    line_f64(lc, "HEATMAP_F_BIN_WIDTH_SECONDS", 27, rec->x.heatmap.bin_width);
    int64_t nb = rec->x.heatmap.nbins;
    if (rec->x.heatmap.read_bins)
        for (int64_t i = 0; i < nb; i++)
            line_i64(lc, nm, build_name(nm, "HEATMAP_READ_BIN_", i, ""),
                     rec->x.heatmap.read_bins[i]);
    if (rec->x.heatmap.write_bins)
        for (int64_t i = 0; i < nb; i++)
            line_i64(lc, nm, build_name(nm, "HEATMAP_WRITE_BIN_", i, ""),
                     rec->x.heatmap.write_bins[i]);
}

/* APMPI fcounters: time[222], sync_time[16], then the two totals. */
#define APMPI_N_TIME 222
#define APMPI_N_SYNC 16

static void print_apmpi(struct parser_ctx *c, const iosage_record *rec)
{
    struct line_ctx *lc = &c->lc;
    int sync = rec->x.apmpi.sync_flag != 0;
    if (rec->x.apmpi.is_header) {
        line_f64(lc, "MPI_TOTAL_COMM_TIME_VARIANCE", 28,
                 rec->x.apmpi.variance_total_mpitime);
        if (sync)
            line_f64(lc, "MPI_TOTAL_COMM_SYNC_TIME_VARIANCE", 33,
                     rec->x.apmpi.variance_total_mpisynctime);
        return;
    }
    const struct name_list *ni = names_for(c, rec->module, 0);
    const struct name_list *nd = names_for(c, rec->module, 1);
    line_text(lc, "MPI_PROCESSOR_NAME", 18,
              rec->x.apmpi.node_name ? rec->x.apmpi.node_name : "");
    int n = rec->n_counters < ni->n ? rec->n_counters : ni->n;
    for (int i = 0; i < n; i++)
        line_u64(lc, ni->s[i], ni->len[i], (uint64_t)rec->counters[i]);
    n = rec->n_fcounters < nd->n ? rec->n_fcounters : nd->n;
    for (int i = 0; i < n; i++) {
        int is_sync = i >= APMPI_N_TIME + APMPI_N_SYNC + 1 ||
                      (i >= APMPI_N_TIME && i < APMPI_N_TIME + APMPI_N_SYNC);
        if (is_sync && !sync)
            continue;
        line_f64(lc, nd->s[i], nd->len[i], rec->fcounters[i]);
    }
}

/* APXC memory and cluster modes: names by value, bit 31 = inconsistent. */
static const char *const apxc_memory_modes[] = {
    "MM_UNKNOWN", "MM_FLAT", "MM_EQUAL", "MM_SPLIT", "MM_CACHE"};
static const char *const apxc_cluster_modes[] = {
    "CM_UNKNOWN", "CM_ALL2ALL", "CM_QUAD", "CM_HEMI", "CM_SNC4", "CM_SNC2"};
#define APXC_INCONSISTENT ((int64_t)1 << 31)

/* Print an APXC mode as its name (or its number when unnamed) and the
 * matching _CONSISTENT line. */
static void print_apxc_mode(struct line_ctx *lc, const char *name,
                            const char *const *modes, int n_modes, int64_t v)
{
    char nm[64];
    int64_t mode = v & ~APXC_INCONSISTENT;
    if (mode >= 0 && mode < n_modes)
        line_text(lc, name, strlen(name), modes[mode]);
    else
        line_i64(lc, name, strlen(name), mode);
    size_t l = (size_t)snprintf(nm, sizeof nm, "%s_CONSISTENT", name);
    line_i64(lc, nm, l, (v & APXC_INCONSISTENT) ? 0 : 1);
}

/* APXC: the header record's fields by name, then router counters. */
static void print_apxc(struct parser_ctx *c, const iosage_record *rec)
{
    struct line_ctx *lc = &c->lc;
    if (rec->x.apxc.is_header) {
        const int64_t *v = rec->counters;
        if (rec->n_counters < 6)
            return;
        line_i64(lc, "APXC_GROUPS", 11, v[2]);
        line_i64(lc, "APXC_CHASSIS", 12, v[1]);
        line_i64(lc, "APXC_BLADES", 11, v[0]);
        print_apxc_mode(lc, "APXC_MEMORY_MODE", apxc_memory_modes, 5, v[3]);
        print_apxc_mode(lc, "APXC_CLUSTER_MODE", apxc_cluster_modes, 6, v[4]);
        line_u64(lc, "APXC_APPLICATION_ID", 19, (uint64_t)v[5]);
        return;
    }
    const struct name_list *ni = names_for(c, rec->module, 0);
    int n = rec->n_counters < ni->n ? rec->n_counters : ni->n;
    for (int i = 0; i < n; i++) {
        if (i < 4)
            line_i64(lc, ni->s[i], ni->len[i], rec->counters[i]);
        else
            line_u64(lc, ni->s[i], ni->len[i], (uint64_t)rec->counters[i]);
    }
}

static void print_record(struct parser_ctx *c, const iosage_module_data *md,
                         const iosage_record *rec)
{
    struct line_ctx *lc = &c->lc;
    line_begin(lc, md->name, rec->rank, rec->id);
    record_suffix(c, rec);
    switch (rec->module) {
    case IOSAGE_MOD_LUSTRE:
        print_lustre(c, rec);
        break;
    case IOSAGE_MOD_HEATMAP:
        print_heatmap(c, rec);
        break;
    case IOSAGE_MOD_APMPI:
        print_apmpi(c, rec);
        break;
    case IOSAGE_MOD_APXC:
        print_apxc(c, rec);
        break;
    case IOSAGE_MOD_H5D:
        print_arrays(c, rec);
        line_u64(lc, "H5D_FILE_REC_ID", 15, rec->x.file_ref.file_rec_id);
        break;
    case IOSAGE_MOD_PNETCDF_VAR:
        print_arrays(c, rec);
        line_u64(lc, "PNETCDF_VAR_FILE_REC_ID", 23,
                 rec->x.file_ref.file_rec_id);
        break;
    case IOSAGE_MOD_MDHIM: {
        char nm[48];
        print_arrays(c, rec);
        if (rec->x.mdhim.server_hist)
            for (int64_t i = 0; i < rec->x.mdhim.n_servers; i++)
                line_i64(lc, nm, build_name(nm, "MDHIM_SERVER_", i, ""),
                         rec->x.mdhim.server_hist[i]);
        break;
    }
    default:
        print_arrays(c, rec);
        break;
    }
}

/* --- Module sections ---------------------------------------------------------- */

/* Partial module: warning (and go on) or error (and stop). Returns 1 when
 * the dump must stop. */
static int partial_block(struct parser_ctx *c, const iosage_module_data *md)
{
    return ios_dump_partial(c->o, c->diag, c->res, md,
                            (c->flags & IOSAGE_DUMP_SHOW_INCOMPLETE) != 0, 0);
}

/* Records of one module, plus the summaries. Returns -1 on no memory. */
static int module_records(struct parser_ctx *c, const iosage_module_data *md)
{
    int base = c->flags & IOSAGE_DUMP_BASE;
    int sums = c->flags & (IOSAGE_DUMP_TOTAL | IOSAGE_DUMP_FILE |
                           IOSAGE_DUMP_PERF);
    ios_accum *acc = NULL;
    if (sums && ios_accum_supported(md->id)) {
        acc = ios_accum_create(md->id, c->job->nprocs);
        if (!acc)
            return -1;
    }
    for (size_t i = 0; i < md->n_records; i++) {
        const iosage_record *rec = &md->records[i];
        if (base)
            print_record(c, md, rec);
        if (acc && ios_accum_add(acc, rec) < 0) {
            ios_accum_free(acc);
            return -1;
        }
    }
    ios_dump_check_module(md, c->job->nprocs, c->res);
    if (md->status != IOSAGE_OK)
        ios_dump_failed(c->diag, c->res, md);
    else if (acc)
        ios_accum_print(acc, c->o, c->flags, md->version);
    ios_accum_free(acc);
    return c->lc.oom ? -1 : 0;
}

/* One module: returns 0 to go on, 1 to stop (partial), -1 on no memory. */
static int parser_module(struct parser_ctx *c, const iosage_module_data *md)
{
    int id = md->id;
    if (id >= IOSAGE_MOD_KNOWN || id < 0) {
        if (md->stored_len > 0 && c->diag)
            fprintf(c->diag,
                    "# Warning: module id %d is unknown. You may need a newer "
                    "version of the Darshan utilities to parse it.\n",
                    id);
        c->res->skipped_modules++;
        return 0;
    }
    if (md->stored_len == 0) {
        if (!md->partial)
            return 0;
        ios_dump_banner(c->o, md->name, 55);
        return partial_block(c, md);
    }
    if (id == IOSAGE_MOD_DXT_POSIX || id == IOSAGE_MOD_DXT_MPIIO)
        return 0;
    if (md->skipped) {
        if (c->diag) {
            if (id == IOSAGE_MOD_NULL || id == IOSAGE_MOD_APXC ||
                id == IOSAGE_MOD_APMPI)
                fprintf(c->diag,
                        "# Warning: no log utility handlers defined for "
                        "module %s, SKIPPING.\n",
                        md->name);
            else
                fprintf(c->diag, "# Warning: %s module skipped: %s\n",
                        md->name, md->notice);
        }
        c->res->skipped_modules++;
        return 0;
    }
    if (!(c->flags & IOSAGE_DUMP_BASE) && !ios_accum_supported(id))
        return 0;

    ios_dump_banner(c->o, md->name, 55);
    if (md->partial && partial_block(c, md))
        return 1;
    if (c->flags & IOSAGE_DUMP_BASE) {
        ios_txt_description(c->o, id, md->version);
        ios_out_str(c->o, "\n#<module>\t<rank>\t<record id>\t<counter>\t"
                          "<value>\t<file name>\t<mount pt>\t<fs type>\n");
    }
    return module_records(c, md);
}

static void parser_ctx_free(struct parser_ctx *c)
{
    for (int m = 0; m < IOSAGE_MOD_KNOWN; m++) {
        name_list_free(&c->names[m][0]);
        name_list_free(&c->names[m][1]);
    }
    free(c->lc.suf);
    ios_mounts_free(c->mounts);
}

static int any_module_data(const struct iosage_header *h)
{
    for (int k = 0; k < IOSAGE_MAX_MODULES; k++)
        if (h->modules[k].len > 0)
            return 1;
    return 0;
}

iosage_status iosage_dump_parser(iosage_reader *r, int flags, FILE *out,
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
    struct parser_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        ios_out_finish(&o);
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "dump", -1,
                        "no memory for the dump state");
    }
    c->r = r;
    c->flags = flags;
    c->o = &o;
    c->diag = diag;
    c->res = res;
    c->job = iosage_reader_job(r);
    c->lc.o = &o;
    c->mounts = ios_mounts_create(c->job);
    /* the index in the newest layout, as the lookup by name gave it (and
     * without touching the pages of counter names at every start) */
    c->posix_renamed_from = IOSAGE_POSIX_RENAMED_FROM;

    iosage_status st = IOSAGE_OK;
    if (!c->mounts) {
        st = ios_fail(err, IOSAGE_E_NOMEM, NULL, "dump", -1,
                      "no memory for the mount table");
        goto done;
    }
    ios_dump_preamble(&o, r);
    ios_out_str(&o, ios_txt_columns);

    for (;;) {
        const iosage_module_data *md = NULL;
        st = iosage_reader_next_module(r, &md, err);
        if (st != IOSAGE_OK || !md)
            break;
        int rc = parser_module(c, md);
        if (rc < 0) {
            st = ios_fail(err, IOSAGE_E_NOMEM, NULL, "dump", -1,
                          "no memory while printing the %s module", md->name);
            break;
        }
        if (rc > 0)
            goto done;
    }
    if (st == IOSAGE_OK && !any_module_data(iosage_reader_header(r)))
        ios_out_str(&o, "\n# no module data available.\n");
done:
    parser_ctx_free(c);
    free(c);
    if (ios_out_finish(&o) < 0) {
        res->write_errno = o.err;
        if (st == IOSAGE_OK)
            st = ios_fail(err, IOSAGE_E_IO, NULL, "dump", -1,
                          "cannot write the output: %s", strerror(o.err));
    }
    return st;
}
