/*
 * src/dump/dump_accum.c - darshan-parser's --total, --file and --perf
 * summaries for POSIX, MPI-IO, STDIO, DFS and DAOS (format spec section 13).
 *
 * Each record of the module is fed in file order. Three things are kept:
 *   - the aggregate record (13.1): one role per counter (sum, copy the last
 *     value, maximum, minimum non-zero, ...), the top-4 merges and the
 *     fastest/slowest bookkeeping;
 *   - per file id: bytes read/written, largest offset, process count (13.2);
 *   - per rank: summed I/O, read/write and metadata time of unique files.
 * Counters are found by name through iosage/counters.h, so the same code
 * serves every module; names that a module lacks are simply not used.
 *
 * When the job's nprocs is negative or absurdly large the reference tool
 * cannot allocate its per-rank arrays and skips accumulation: --total then
 * shows the last record read and --file/--perf show zeros. ABSURD_NPROCS is
 * where we draw that line (the public logs that trigger it have nprocs
 * 4427712942739450220, the ASCII of "lib_ver=").
 */
#include <stdlib.h>
#include <string.h>

#include "dump_internal.h"
#include "ios_idmap.h"
#include "iosage/counters.h"

#define ABSURD_NPROCS (INT64_C(1) << 36)

enum int_role { I_SUM, I_COPY, I_MAX, I_LATER };
enum dbl_role {
    D_SUM, D_MIN_NONZERO, D_MAX, D_MAX_READ, D_MAX_WRITE,
    D_FASTEST, D_SLOWEST, D_ZERO
};

/* One STRIDE or ACCESS top-4 block: value and count indices. */
struct top4 {
    int v[4], c[4];
};

struct file_ent {
    uint64_t id;
    int64_t r, w, max_off, np;
};

struct rank_ent {
    int64_t rank;
    double io, rw, md;
};

struct cat {
    int64_t count, bytes, max_off;
};

struct ios_accum {
    int module;
    int64_t nprocs;
    int fallback;   /* nprocs unusable: the reference skips accumulation */
    int clamp;      /* POSIX, DFS, DAOS: negative sums become -1 */
    int mpiio;      /* MPI-IO top-4 rule: skip when v[0] == 0 */
    int nc, nf;
    uint8_t *irole, *drole;
    int64_t *agg;
    double *fagg;
    int64_t *last;  /* fallback: the last record read */
    double *flast;
    uint64_t agg_id;
    int64_t agg_rank;
    size_t nrec;
    struct top4 blocks[2];
    int nblocks;
    /* counter indices (-1 when the module has none) */
    int bytes_read, bytes_written, max_byte_read, max_byte_written;
    int read_time, write_time, meta_time;
    int max_read_size, max_write_size, max_read_time, max_write_time;
    int fastest_rank, fastest_bytes, slowest_rank, slowest_bytes;
    int fastest_time, slowest_time;
    /* file and rank tables: entries in order of first sight, found by id
     * (common/idmap) */
    struct file_ent *files;
    size_t nfiles, files_cap;
    ios_idmap file_ids;
    struct rank_ent *ranks;
    size_t nranks, ranks_cap;
    ios_idmap rank_ids;
    int64_t total_bytes;
    double shared_time;
};

static const char *module_prefix(int module)
{
    switch (module) {
    case IOSAGE_MOD_POSIX: return "POSIX_";
    case IOSAGE_MOD_MPIIO: return "MPIIO_";
    case IOSAGE_MOD_STDIO: return "STDIO_";
    case IOSAGE_MOD_DFS: return "DFS_";
    case IOSAGE_MOD_DAOS: return "DAOS_";
    default: return NULL;
    }
}

int ios_accum_supported(int module)
{
    return module_prefix(module) != NULL;
}

/* Index of <prefix><suffix> among the int (kind 0) or double counters. */
static int find(int module, int kind, const char *suffix)
{
    char name[96];
    const char *prefix = module_prefix(module);
    if (!prefix)
        return -1;
    snprintf(name, sizeof name, "%s%s", prefix, suffix);
    return kind ? iosage_fcounter_index(module, name)
                : iosage_counter_index(module, name);
}

static int is_one_of(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return 1;
    return 0;
}

static int ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

static enum int_role int_role_of(const char *rest)
{
    static const char *const copy[] = {
        "MODE", "MEM_ALIGNMENT", "FILE_ALIGNMENT", "RENAMED_FROM",
        "CHUNK_SIZE", "OBJ_OTYPE", "ARRAY_CELL_SIZE", "ARRAY_CHUNK_SIZE",
        NULL};
    static const char *const later[] = {
        "MAX_READ_TIME_SIZE", "MAX_WRITE_TIME_SIZE", "FASTEST_RANK",
        "FASTEST_RANK_BYTES", "SLOWEST_RANK", "SLOWEST_RANK_BYTES", NULL};
    static const char *const max[] = {"MAX_BYTE_READ", "MAX_BYTE_WRITTEN",
                                      NULL};
    if (is_one_of(rest, copy))
        return I_COPY;
    if (is_one_of(rest, max))
        return I_MAX;
    if (is_one_of(rest, later) || strncmp(rest, "STRIDE", 6) == 0 ||
        strncmp(rest, "ACCESS", 6) == 0)
        return I_LATER;
    return I_SUM;
}

static enum dbl_role dbl_role_of(const char *rest)
{
    if (ends_with(rest, "_START_TIMESTAMP"))
        return D_MIN_NONZERO;
    if (ends_with(rest, "_END_TIMESTAMP"))
        return D_MAX;
    if (strcmp(rest, "F_MAX_READ_TIME") == 0)
        return D_MAX_READ;
    if (strcmp(rest, "F_MAX_WRITE_TIME") == 0)
        return D_MAX_WRITE;
    if (strcmp(rest, "F_FASTEST_RANK_TIME") == 0)
        return D_FASTEST;
    if (strcmp(rest, "F_SLOWEST_RANK_TIME") == 0)
        return D_SLOWEST;
    if (strncmp(rest, "F_VARIANCE_", 11) == 0)
        return D_ZERO;
    return D_SUM;
}

/* The STRIDE and ACCESS blocks the module has. */
static void find_blocks(ios_accum *a)
{
    static const char *const kinds[2][2] = {{"STRIDE%d_STRIDE", "STRIDE%d_COUNT"},
                                            {"ACCESS%d_ACCESS", "ACCESS%d_COUNT"}};
    for (int b = 0; b < 2; b++) {
        struct top4 t;
        int ok = 1;
        for (int k = 0; k < 4 && ok; k++) {
            char sv[40], sc[40];
            snprintf(sv, sizeof sv, kinds[b][0], k + 1);
            snprintf(sc, sizeof sc, kinds[b][1], k + 1);
            t.v[k] = find(a->module, 0, sv);
            t.c[k] = find(a->module, 0, sc);
            ok = t.v[k] >= 0 && t.c[k] >= 0;
        }
        if (ok)
            a->blocks[a->nblocks++] = t;
    }
}

static void find_indices(ios_accum *a)
{
    int m = a->module;
    a->bytes_read = find(m, 0, "BYTES_READ");
    a->bytes_written = find(m, 0, "BYTES_WRITTEN");
    a->max_byte_read = find(m, 0, "MAX_BYTE_READ");
    a->max_byte_written = find(m, 0, "MAX_BYTE_WRITTEN");
    a->max_read_size = find(m, 0, "MAX_READ_TIME_SIZE");
    a->max_write_size = find(m, 0, "MAX_WRITE_TIME_SIZE");
    a->fastest_rank = find(m, 0, "FASTEST_RANK");
    a->fastest_bytes = find(m, 0, "FASTEST_RANK_BYTES");
    a->slowest_rank = find(m, 0, "SLOWEST_RANK");
    a->slowest_bytes = find(m, 0, "SLOWEST_RANK_BYTES");
    a->read_time = find(m, 1, "F_READ_TIME");
    a->write_time = find(m, 1, "F_WRITE_TIME");
    a->meta_time = find(m, 1, "F_META_TIME");
    a->max_read_time = find(m, 1, "F_MAX_READ_TIME");
    a->max_write_time = find(m, 1, "F_MAX_WRITE_TIME");
    a->fastest_time = find(m, 1, "F_FASTEST_RANK_TIME");
    a->slowest_time = find(m, 1, "F_SLOWEST_RANK_TIME");
}

ios_accum *ios_accum_create(int module, int64_t nprocs)
{
    if (!ios_accum_supported(module))
        return NULL;
    ios_accum *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->module = module;
    a->nprocs = nprocs;
    a->fallback = nprocs < 0 || nprocs > ABSURD_NPROCS;
    a->clamp = module == IOSAGE_MOD_POSIX || module == IOSAGE_MOD_DFS ||
               module == IOSAGE_MOD_DAOS;
    a->mpiio = module == IOSAGE_MOD_MPIIO;
    a->nc = iosage_counter_count(module);
    a->nf = iosage_fcounter_count(module);
    size_t nc = a->nc > 0 ? (size_t)a->nc : 1, nf = a->nf > 0 ? (size_t)a->nf : 1;
    a->irole = calloc(nc, 1);
    a->drole = calloc(nf, 1);
    a->agg = calloc(nc, sizeof *a->agg);
    a->fagg = calloc(nf, sizeof *a->fagg);
    a->last = calloc(nc, sizeof *a->last);
    a->flast = calloc(nf, sizeof *a->flast);
    if (!a->irole || !a->drole || !a->agg || !a->fagg || !a->last ||
        !a->flast) {
        ios_accum_free(a);
        return NULL;
    }
    size_t pl = strlen(module_prefix(module));
    for (int i = 0; i < a->nc; i++) {
        const char *n = iosage_counter_name(module, i);
        a->irole[i] = (uint8_t)(n && strlen(n) > pl ? int_role_of(n + pl)
                                                     : I_SUM);
    }
    for (int i = 0; i < a->nf; i++) {
        const char *n = iosage_fcounter_name(module, i);
        a->drole[i] = (uint8_t)(n && strlen(n) > pl ? dbl_role_of(n + pl)
                                                     : D_SUM);
    }
    find_indices(a);
    find_blocks(a);
    return a;
}

void ios_accum_free(ios_accum *a)
{
    if (!a)
        return;
    free(a->irole);
    free(a->drole);
    free(a->agg);
    free(a->fagg);
    free(a->last);
    free(a->flast);
    free(a->files);
    free(a->ranks);
    ios_idmap_free(&a->file_ids);
    ios_idmap_free(&a->rank_ids);
    free(a);
}

/* --- Aggregate record (13.1) ------------------------------------------------- */

/* Sums wrap around like the reference's two's-complement arithmetic (values
 * from damaged logs may overflow; that must not be undefined behaviour). */
static int64_t wadd(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int64_t ival(const iosage_record *rec, int i)
{
    return (i >= 0 && i < rec->n_counters) ? rec->counters[i] : 0;
}

static double dval(const iosage_record *rec, int i)
{
    return (i >= 0 && i < rec->n_fcounters) ? rec->fcounters[i] : 0.0;
}

/* Merge the record's top-4 block into the aggregate's (spec 13.1). */
static void merge_top4(int64_t *agg, const struct top4 *b,
                       const iosage_record *rec, int mpiio)
{
    int64_t V[4], C[4], v[4], c[4];
    int done[4] = {0, 0, 0, 0};
    for (int k = 0; k < 4; k++) {
        V[k] = agg[b->v[k]];
        C[k] = agg[b->c[k]];
        v[k] = ival(rec, b->v[k]);
        c[k] = ival(rec, b->c[k]);
    }
    if (mpiio && v[0] == 0)
        return;
    for (int j = 0; j < 4; j++)
        for (int k = 0; k < 4; k++)
            if (V[k] == v[j]) {
                C[k] = wadd(C[k], c[j]);
                done[j] = 1;
            }
    for (int j = 0; j < 4; j++) {
        if (done[j])
            continue;
        if (v[j] == 0)
            break;
        int64_t t = c[j], NV[4], NC[4];
        int n = 0, k = 0;
        while (k < 4 && (C[k] > t || (C[k] == t && V[k] > v[j]))) {
            NV[n] = V[k];
            NC[n] = C[k];
            n++;
            k++;
        }
        if (n == 4)
            break;
        NV[n] = v[j];
        NC[n] = c[j];
        n++;
        for (; k < 4 && n < 4; k++) {
            if (V[k] == v[j])
                continue;
            NV[n] = V[k];
            NC[n] = C[k];
            n++;
        }
        for (; n < 4; n++) {
            NV[n] = 0;
            NC[n] = 0;
        }
        memcpy(V, NV, sizeof V);
        memcpy(C, NC, sizeof C);
    }
    for (int k = 0; k < 4; k++) {
        agg[b->v[k]] = V[k];
        agg[b->c[k]] = C[k];
    }
}

static void agg_ints(ios_accum *a, const iosage_record *rec)
{
    for (int i = 0; i < a->nc; i++) {
        int64_t v = ival(rec, i);
        switch (a->irole[i]) {
        case I_SUM:
            a->agg[i] = wadd(a->agg[i], v);
            if (a->clamp && a->agg[i] < 0)
                a->agg[i] = -1;
            break;
        case I_COPY:
            a->agg[i] = v;
            break;
        case I_MAX:
            if (v > a->agg[i])
                a->agg[i] = v;
            break;
        default:
            break;
        }
    }
    for (int b = 0; b < a->nblocks; b++)
        merge_top4(a->agg, &a->blocks[b], rec, a->mpiio);
}

static void set_i(ios_accum *a, int i, int64_t v)
{
    if (i >= 0)
        a->agg[i] = v;
}

static void agg_doubles(ios_accum *a, const iosage_record *rec, int init,
                        int same_file)
{
    int64_t frank, fbytes, srank, sbytes;
    double ftime, stime;
    if (rec->rank == -1) {
        frank = ival(rec, a->fastest_rank);
        fbytes = ival(rec, a->fastest_bytes);
        ftime = dval(rec, a->fastest_time);
        srank = ival(rec, a->slowest_rank);
        sbytes = ival(rec, a->slowest_bytes);
        stime = dval(rec, a->slowest_time);
    } else {
        frank = srank = rec->rank;
        fbytes = sbytes = wadd(ival(rec, a->bytes_read),
                               ival(rec, a->bytes_written));
        ftime = stime = dval(rec, a->read_time) + dval(rec, a->write_time) +
                        dval(rec, a->meta_time);
    }
    for (int i = 0; i < a->nf; i++) {
        double v = dval(rec, i);
        double *g = &a->fagg[i];
        switch (a->drole[i]) {
        case D_SUM:
            *g += v;
            break;
        case D_MIN_NONZERO:
            if (v > 0 && (*g == 0 || v < *g))
                *g = v;
            break;
        case D_MAX:
            if (v > *g)
                *g = v;
            break;
        case D_MAX_READ:
            if (v > *g) {
                *g = v;
                set_i(a, a->max_read_size, ival(rec, a->max_read_size));
            }
            break;
        case D_MAX_WRITE:
            if (v > *g) {
                *g = v;
                set_i(a, a->max_write_size, ival(rec, a->max_write_size));
            }
            break;
        case D_FASTEST:
            if (!same_file) {
                set_i(a, a->fastest_rank, -1);
                set_i(a, a->fastest_bytes, -1);
                *g = 0.0;
            } else if (init || ftime < *g) {
                set_i(a, a->fastest_rank, frank);
                set_i(a, a->fastest_bytes, fbytes);
                *g = ftime;
            }
            break;
        case D_SLOWEST:
            if (!same_file) {
                set_i(a, a->slowest_rank, -1);
                set_i(a, a->slowest_bytes, -1);
                *g = 0.0;
            } else if (init || stime > *g) {
                set_i(a, a->slowest_rank, srank);
                set_i(a, a->slowest_bytes, sbytes);
                *g = stime;
            }
            break;
        default:
            *g = 0.0;
            break;
        }
    }
}

/* --- File and rank tables (13.2) --------------------------------------------- */

/* The entry of file id, appended (zeroed) at first sight; NULL on no
 * memory. */
static struct file_ent *file_get(ios_accum *a, uint64_t id)
{
    size_t at;
    if (ios_idmap_get(&a->file_ids, id, &at))
        return &a->files[at];
    if (a->nfiles == a->files_cap) {
        size_t cap = a->files_cap ? a->files_cap * 2 : 256;
        struct file_ent *g = realloc(a->files, cap * sizeof *g);
        if (!g)
            return NULL;
        a->files = g;
        a->files_cap = cap;
    }
    if (ios_idmap_put(&a->file_ids, id, a->nfiles) != 0)
        return NULL;
    struct file_ent *f = &a->files[a->nfiles++];
    memset(f, 0, sizeof *f);
    f->id = id;
    return f;
}

/* The entry of rank, appended (zeroed) at first sight; NULL on no
 * memory. */
static struct rank_ent *rank_get(ios_accum *a, int64_t rank)
{
    size_t at;
    if (ios_idmap_get(&a->rank_ids, (uint64_t)rank, &at))
        return &a->ranks[at];
    if (a->nranks == a->ranks_cap) {
        size_t cap = a->ranks_cap ? a->ranks_cap * 2 : 64;
        struct rank_ent *g = realloc(a->ranks, cap * sizeof *g);
        if (!g)
            return NULL;
        a->ranks = g;
        a->ranks_cap = cap;
    }
    if (ios_idmap_put(&a->rank_ids, (uint64_t)rank, a->nranks) != 0)
        return NULL;
    struct rank_ent *r = &a->ranks[a->nranks++];
    memset(r, 0, sizeof *r);
    r->rank = rank;
    return r;
}

static int add_file_stats(ios_accum *a, const iosage_record *rec)
{
    int64_t r = ival(rec, a->bytes_read), w = ival(rec, a->bytes_written);
    int64_t max_off = -1;
    if (a->max_byte_read >= 0 && a->max_byte_written >= 0) {
        int64_t mr = ival(rec, a->max_byte_read);
        int64_t mw = ival(rec, a->max_byte_written);
        max_off = mr > mw ? mr : mw;
    }
    double rt = dval(rec, a->read_time), wt = dval(rec, a->write_time);
    double mt = dval(rec, a->meta_time);
    double io, rw, md;
    int64_t np;
    if (rec->rank < 0) {
        io = dval(rec, a->slowest_time);
        md = rw = 0.0;
        np = -1;
    } else {
        io = mt + rt + wt;
        md = mt;
        rw = rt + wt;
        np = 1;
    }
    a->total_bytes = wadd(wadd(a->total_bytes, r), w);
    if (rec->rank < 0) {
        a->shared_time += io;
    } else if (rec->rank < a->nprocs) {
        struct rank_ent *re = rank_get(a, rec->rank);
        if (!re)
            return -1;
        re->io += io;
        re->rw += rw;
        re->md += md;
    }
    struct file_ent *f = file_get(a, rec->id);
    if (!f)
        return -1;
    f->r = wadd(f->r, r);
    f->w = wadd(f->w, w);
    if (max_off == -1 || f->max_off == -1)
        f->max_off = -1;
    else if (max_off > f->max_off)
        f->max_off = max_off;
    if (np == -1)
        f->np = -1;
    else
        f->np = wadd(f->np, 1);
    return 0;
}

int ios_accum_add(ios_accum *a, const iosage_record *rec)
{
    if (a->fallback) {
        for (int i = 0; i < a->nc; i++)
            a->last[i] = ival(rec, i);
        for (int i = 0; i < a->nf; i++)
            a->flast[i] = dval(rec, i);
        a->nrec++;
        return 0;
    }
    int init = a->nrec == 0;
    if (init) {
        a->agg_id = rec->id;
        a->agg_rank = rec->rank;
    }
    int same_file = a->agg_id == rec->id;
    if (!same_file)
        a->agg_id = 0;
    if (a->agg_rank != rec->rank)
        a->agg_rank = -1;
    agg_ints(a, rec);
    agg_doubles(a, rec, init, same_file);
    a->nrec++;
    return add_file_stats(a, rec);
}

/* --- Printing ------------------------------------------------------------------- */

static void print_total(ios_accum *a, ios_out *o, uint32_t version)
{
    const int64_t *iv = a->fallback ? a->last : a->agg;
    const double *dv = a->fallback ? a->flast : a->fagg;
    ios_txt_description(o, a->module, version);
    ios_out_mem(o, "\n", 1);
    for (int i = 0; i < a->nc; i++) {
        const char *n = iosage_counter_name(a->module, i);
        ios_out_str(o, "total_");
        ios_out_str(o, n ? n : "");
        ios_out_str(o, ": ");
        ios_out_i64(o, iv[i]);
        ios_out_mem(o, "\n", 1);
    }
    for (int i = 0; i < a->nf; i++) {
        const char *n = iosage_fcounter_name(a->module, i);
        ios_out_str(o, "total_");
        ios_out_str(o, n ? n : "");
        ios_out_str(o, ": ");
        ios_out_double(o, dv[i], 6);
        ios_out_mem(o, "\n", 1);
    }
}

static void cat_add(struct cat *c, const struct file_ent *f)
{
    c->count++;
    c->bytes = wadd(c->bytes, wadd(f->r, f->w));
    if (f->max_off == -1 || c->max_off == -1)
        c->max_off = -1;
    else if (f->max_off > c->max_off)
        c->max_off = f->max_off;
}

static void cat_line(ios_out *o, const char *label, int64_t n, int64_t b,
                     int64_t m)
{
    ios_out_str(o, label);
    ios_out_i64(o, n);
    ios_out_mem(o, " ", 1);
    ios_out_i64(o, b);
    ios_out_mem(o, " ", 1);
    ios_out_i64(o, m);
    ios_out_mem(o, "\n", 1);
}

enum { C_TOTAL, C_RO, C_WO, C_RW, C_UNIQUE, C_SHARED, C_PARTIAL, C_N };

static void print_files(ios_accum *a, ios_out *o)
{
    struct cat c[C_N];
    memset(c, 0, sizeof c);
    if (!a->fallback) {
        for (size_t i = 0; i < a->nfiles; i++) {
            const struct file_ent *f = &a->files[i];
            cat_add(&c[C_TOTAL], f);
            if (f->r > 0 && f->w == 0)
                cat_add(&c[C_RO], f);
            else if (f->w > 0 && f->r == 0)
                cat_add(&c[C_WO], f);
            else if (f->r > 0 && f->w > 0)
                cat_add(&c[C_RW], f);
            if (f->np == 1)
                cat_add(&c[C_UNIQUE], f);
            else if (f->np == -1)
                cat_add(&c[C_SHARED], f);
            else
                cat_add(&c[C_PARTIAL], f);
        }
    }
    ios_out_str(o, ios_txt_file_counts);
    cat_line(o, "# total: ", c[C_TOTAL].count, c[C_TOTAL].bytes,
             c[C_TOTAL].max_off);
    cat_line(o, "# read_only: ", c[C_RO].count, c[C_RO].bytes,
             c[C_RO].max_off);
    cat_line(o, "# write_only: ", c[C_WO].count, c[C_WO].bytes,
             c[C_WO].max_off);
    cat_line(o, "# read_write: ", c[C_RW].count, c[C_RW].bytes,
             c[C_RW].max_off);
    cat_line(o, "# unique: ", c[C_UNIQUE].count, c[C_UNIQUE].bytes,
             c[C_UNIQUE].max_off);
    cat_line(o, "# shared: ", wadd(c[C_SHARED].count, c[C_PARTIAL].count),
             wadd(c[C_SHARED].bytes, c[C_PARTIAL].bytes),
             wadd(c[C_SHARED].max_off, c[C_PARTIAL].max_off));
}

static void perf_double(ios_out *o, const char *label, double v,
                        const char *tail)
{
    ios_out_str(o, label);
    ios_out_double(o, v, 6);
    ios_out_str(o, tail);
}

static void print_perf(ios_accum *a, ios_out *o)
{
    const struct rank_ent *best = NULL;
    double best_io = 0.0;
    int64_t total_bytes = 0;
    double shared = 0.0;
    if (!a->fallback) {
        for (size_t i = 0; i < a->nranks; i++) {
            const struct rank_ent *re = &a->ranks[i];
            if (re->io > best_io ||
                (best && re->io == best_io && re->rank < best->rank)) {
                best = re;
                best_io = re->io;
            }
        }
        total_bytes = a->total_bytes;
        shared = a->shared_time;
    }
    double io = best ? best->io : 0.0;
    double agg_time = io + shared;
    double perf = agg_time != 0.0
                      ? ((double)total_bytes / 1048576.0) / agg_time
                      : 0.0;

    ios_out_str(o, "\n# performance\n# -----------\n# total_bytes: ");
    ios_out_i64(o, total_bytes);
    ios_out_str(o, "\n#\n# I/O timing for unique files (seconds):\n"
                   "# ...........................\n");
    perf_double(o, "# unique files: slowest_rank_io_time: ", io, "\n");
    perf_double(o, "# unique files: slowest_rank_meta_only_time: ",
                best ? best->md : 0.0, "\n");
    perf_double(o, "# unique files: slowest_rank_rw_only_time: ",
                best ? best->rw : 0.0, "\n");
    ios_out_str(o, "# unique files: slowest_rank: ");
    ios_out_i64(o, best ? (int64_t)(int)best->rank : 0);
    ios_out_str(o, "\n#\n# I/O timing for shared files (seconds):\n"
                   "# ...........................\n");
    perf_double(o, "# shared files: time_by_slowest: ", shared, "\n");
    ios_out_str(o, "#\n# Aggregate performance, including both shared and "
                   "unique files:\n# ...........................\n");
    perf_double(o, "# agg_time_by_slowest: ", agg_time, " # seconds\n");
    perf_double(o, "# agg_perf_by_slowest: ", perf, " # MiB/s\n");
}

void ios_accum_print(ios_accum *a, ios_out *o, int flags, uint32_t version)
{
    if (flags & IOSAGE_DUMP_TOTAL)
        print_total(a, o, version);
    if (flags & IOSAGE_DUMP_FILE)
        print_files(a, o);
    if (flags & IOSAGE_DUMP_PERF)
        print_perf(a, o);
}
