/*
 * src/features/file_layers.c - the per-file layer view of the file table:
 * a log's records folded into one fl_file per file id with one fl_layer
 * per module, and the per-rank sums of the labeling criteria (layout and
 * invariants in ios_file_layers.h). Built once per log with the file
 * table (iosage_file_table_build), read by the criteria of the patterns
 * (src/patterns/p_<id>.c) through ios_ft_layers().
 *
 * Per-rank I/O time (LABELING.md, healthy gate): a rank's own records, plus
 * its share of each shared (rank -1) record: the slowest rank of the record
 * gets F_SLOWEST_RANK_TIME, the fastest F_FASTEST_RANK_TIME, and every other
 * rank an equal part of what remains. Bytes are shared the same way with the
 * *_RANK_BYTES counters.
 *
 * The per-rank arrays hold only the ranks that something names (a rank's own
 * record, or the slowest or fastest rank of a shared one); every later rank
 * of the job got nothing but the equal parts, t->rest_time and
 * t->rest_bytes. A log that claims 10^6 ranks and names three costs three
 * entries, not 16 MB (fuzzed logs made this the reader target's hot spot).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iosage/counters.h"
#include "ios_bigmem.h"
#include "ios_features.h"
#include "ios_file_layers.h"
#include "ios_sort.h"

#define MIB 1048576.0
#define MAX_RANKS (1 << 22) /* ranks past this are not counted one by one */

#define CV_MAX ((int64_t)1 << 56) /* larger counter values are garbage */

/* Counter k of rec, with -1 (not collected) and other negatives as 0, and
 * values no real job reaches capped, so that a few of them add up without
 * overflow (logs of modified runtimes hold garbage). */
static int64_t cv(const iosage_record *rec, int k)
{
    if (k < 0 || k >= rec->n_counters || rec->counters[k] <= 0)
        return 0;
    return rec->counters[k] < CV_MAX ? rec->counters[k] : CV_MAX;
}

#define SUM_MAX ((int64_t)1 << 58) /* sums saturate here: a few still add */

/* a + b for a, b in [0, SUM_MAX], saturating at SUM_MAX. */
static int64_t sadd(int64_t a, int64_t b)
{
    return a > SUM_MAX - b ? SUM_MAX : a + b;
}

static double fv(const iosage_record *rec, int k)
{
    if (k < 0 || k >= rec->n_fcounters)
        return 0.0;
    double v = rec->fcounters[k];
    return isfinite(v) && v > 0.0 ? v : 0.0;
}

static int layer_of_module(int module)
{
    switch (module) {
    case IOSAGE_MOD_POSIX:
        return FL_POSIX;
    case IOSAGE_MOD_MPIIO:
        return FL_MPIIO;
    case IOSAGE_MOD_STDIO:
        return FL_STDIO;
    case IOSAGE_MOD_DFS:
        return FL_DFS;
    default:
        return -1;
    }
}

/* Counter indices that differ between the four data modules. */
struct fl_idx {
    int reads[4], writes[4];     /* summed; -1 = unused */
    int bytes_r, bytes_w;
    int rbin0, wbin0, acc0, cnt0; /* histogram and ACCESS1-4; -1 = none */
    int max_r, max_w;            /* MAX_BYTE_*; -1 = none */
    int slow_rank, slow_bytes, fast_rank, fast_bytes;
    int t_read, t_write, t_meta, t_slow, t_fast;
};

static const struct fl_idx idx_posix = {
    {IOSAGE_POSIX_READS, -1, -1, -1}, {IOSAGE_POSIX_WRITES, -1, -1, -1},
    IOSAGE_POSIX_BYTES_READ, IOSAGE_POSIX_BYTES_WRITTEN,
    IOSAGE_POSIX_SIZE_READ_0_100, IOSAGE_POSIX_SIZE_WRITE_0_100,
    IOSAGE_POSIX_ACCESS1_ACCESS, IOSAGE_POSIX_ACCESS1_COUNT,
    IOSAGE_POSIX_MAX_BYTE_READ, IOSAGE_POSIX_MAX_BYTE_WRITTEN,
    IOSAGE_POSIX_SLOWEST_RANK, IOSAGE_POSIX_SLOWEST_RANK_BYTES,
    IOSAGE_POSIX_FASTEST_RANK, IOSAGE_POSIX_FASTEST_RANK_BYTES,
    IOSAGE_POSIX_F_READ_TIME, IOSAGE_POSIX_F_WRITE_TIME, IOSAGE_POSIX_F_META_TIME,
    IOSAGE_POSIX_F_SLOWEST_RANK_TIME, IOSAGE_POSIX_F_FASTEST_RANK_TIME};

static const struct fl_idx idx_mpiio = {
    {IOSAGE_MPIIO_INDEP_READS, IOSAGE_MPIIO_COLL_READS, IOSAGE_MPIIO_SPLIT_READS,
     IOSAGE_MPIIO_NB_READS},
    {IOSAGE_MPIIO_INDEP_WRITES, IOSAGE_MPIIO_COLL_WRITES,
     IOSAGE_MPIIO_SPLIT_WRITES, IOSAGE_MPIIO_NB_WRITES},
    IOSAGE_MPIIO_BYTES_READ, IOSAGE_MPIIO_BYTES_WRITTEN,
    IOSAGE_MPIIO_SIZE_READ_AGG_0_100, IOSAGE_MPIIO_SIZE_WRITE_AGG_0_100,
    IOSAGE_MPIIO_ACCESS1_ACCESS, IOSAGE_MPIIO_ACCESS1_COUNT, -1, -1,
    IOSAGE_MPIIO_SLOWEST_RANK, IOSAGE_MPIIO_SLOWEST_RANK_BYTES,
    IOSAGE_MPIIO_FASTEST_RANK, IOSAGE_MPIIO_FASTEST_RANK_BYTES,
    IOSAGE_MPIIO_F_READ_TIME, IOSAGE_MPIIO_F_WRITE_TIME, IOSAGE_MPIIO_F_META_TIME,
    IOSAGE_MPIIO_F_SLOWEST_RANK_TIME, IOSAGE_MPIIO_F_FASTEST_RANK_TIME};

static const struct fl_idx idx_stdio = {
    {IOSAGE_STDIO_READS, -1, -1, -1}, {IOSAGE_STDIO_WRITES, -1, -1, -1},
    IOSAGE_STDIO_BYTES_READ, IOSAGE_STDIO_BYTES_WRITTEN, -1, -1, -1, -1,
    IOSAGE_STDIO_MAX_BYTE_READ, IOSAGE_STDIO_MAX_BYTE_WRITTEN,
    IOSAGE_STDIO_SLOWEST_RANK, IOSAGE_STDIO_SLOWEST_RANK_BYTES,
    IOSAGE_STDIO_FASTEST_RANK, IOSAGE_STDIO_FASTEST_RANK_BYTES,
    IOSAGE_STDIO_F_READ_TIME, IOSAGE_STDIO_F_WRITE_TIME, IOSAGE_STDIO_F_META_TIME,
    IOSAGE_STDIO_F_SLOWEST_RANK_TIME, IOSAGE_STDIO_F_FASTEST_RANK_TIME};

static const struct fl_idx idx_dfs = {
    {IOSAGE_DFS_READS, IOSAGE_DFS_READXS, -1, -1},
    {IOSAGE_DFS_WRITES, IOSAGE_DFS_WRITEXS, -1, -1},
    IOSAGE_DFS_BYTES_READ, IOSAGE_DFS_BYTES_WRITTEN,
    IOSAGE_DFS_SIZE_READ_0_100, IOSAGE_DFS_SIZE_WRITE_0_100,
    IOSAGE_DFS_ACCESS1_ACCESS, IOSAGE_DFS_ACCESS1_COUNT, -1, -1,
    IOSAGE_DFS_SLOWEST_RANK, IOSAGE_DFS_SLOWEST_RANK_BYTES,
    IOSAGE_DFS_FASTEST_RANK, IOSAGE_DFS_FASTEST_RANK_BYTES,
    IOSAGE_DFS_F_READ_TIME, IOSAGE_DFS_F_WRITE_TIME, IOSAGE_DFS_F_META_TIME,
    IOSAGE_DFS_F_SLOWEST_RANK_TIME, IOSAGE_DFS_F_FASTEST_RANK_TIME};

static const struct fl_idx *idx_of_layer(int layer)
{
    static const struct fl_idx *const all[FL_NLAYERS] = {&idx_posix, &idx_mpiio,
                                                         &idx_stdio, &idx_dfs};
    return all[layer];
}

static int64_t sum_idx(const iosage_record *rec, const int k[4])
{
    int64_t s = 0;
    for (int i = 0; i < 4; i++)
        if (k[i] >= 0)
            s += cv(rec, k[i]);
    return s;
}

/* Small reads and writes of one record: the bins up to 100K_1M, less the
 * requests of exactly 1 MiB (ACCESS1-4), which the 100K_1M bin includes. The
 * ACCESS counters do not say read or write: they are split in proportion to
 * the two 100K_1M bins. STDIO has no histogram: ops - bytes / 1 MiB. */
static void small_ops(const iosage_record *rec, const struct fl_idx *x,
                      int64_t reads, int64_t writes, double *sr, double *sw)
{
    if (x->rbin0 < 0) {
        double r = (double)reads - floor((double)cv(rec, x->bytes_r) / MIB);
        double w = (double)writes - floor((double)cv(rec, x->bytes_w) / MIB);
        *sr = r > 0 ? r : 0;
        *sw = w > 0 ? w : 0;
        return;
    }
    double r = 0, w = 0, exact = 0;
    for (int i = 0; i < 4; i++) {
        r += (double)cv(rec, x->rbin0 + i);
        w += (double)cv(rec, x->wbin0 + i);
        if (rec->counters[x->acc0 + i] == (int64_t)MIB)
            exact += (double)cv(rec, x->cnt0 + i);
    }
    double r100 = (double)cv(rec, x->rbin0 + 4), w100 = (double)cv(rec, x->wbin0 + 4);
    double er = r100 + w100 > 0 ? exact * r100 / (r100 + w100) : 0;
    double ew = exact - er;
    *sr = r + (r100 > er ? r100 - er : 0);
    *sw = w + (w100 > ew ? w100 - ew : 0);
}

/* Module-specific counters: SEQ, MPI-IO modes, metadata ops, syncs. */
static void fold_specific(struct fl_layer *l, const iosage_record *rec, int layer,
                          int64_t *syncs)
{
    switch (layer) {
    case FL_POSIX:
        l->has_seq = 1;
        l->seq_r = sadd(l->seq_r, cv(rec, IOSAGE_POSIX_SEQ_READS));
        l->seq_w = sadd(l->seq_w, cv(rec, IOSAGE_POSIX_SEQ_WRITES));
        l->opens = sadd(l->opens, cv(rec, IOSAGE_POSIX_OPENS));
        l->stats = sadd(l->stats, cv(rec, IOSAGE_POSIX_STATS));
        l->seeks = sadd(l->seeks, cv(rec, IOSAGE_POSIX_SEEKS));
        *syncs = cv(rec, IOSAGE_POSIX_FSYNCS) + cv(rec, IOSAGE_POSIX_FDSYNCS);
        break;
    case FL_MPIIO:
        l->indep_ops = sadd(l->indep_ops, cv(rec, IOSAGE_MPIIO_INDEP_READS) +
                        cv(rec, IOSAGE_MPIIO_INDEP_WRITES) +
                        cv(rec, IOSAGE_MPIIO_NB_READS) + cv(rec, IOSAGE_MPIIO_NB_WRITES));
        l->coll_ops = sadd(l->coll_ops, cv(rec, IOSAGE_MPIIO_COLL_READS) +
                       cv(rec, IOSAGE_MPIIO_COLL_WRITES) +
                       cv(rec, IOSAGE_MPIIO_SPLIT_READS) +
                       cv(rec, IOSAGE_MPIIO_SPLIT_WRITES));
        l->opens = sadd(l->opens, cv(rec, IOSAGE_MPIIO_INDEP_OPENS) + cv(rec, IOSAGE_MPIIO_COLL_OPENS));
        *syncs = cv(rec, IOSAGE_MPIIO_SYNCS);
        break;
    case FL_STDIO:
        l->opens = sadd(l->opens, cv(rec, IOSAGE_STDIO_OPENS));
        l->seeks = sadd(l->seeks, cv(rec, IOSAGE_STDIO_SEEKS));
        *syncs = 0;
        break;
    default: /* DFS */
        l->opens = sadd(l->opens, cv(rec, IOSAGE_DFS_OPENS) + cv(rec, IOSAGE_DFS_GLOBAL_OPENS));
        l->stats = sadd(l->stats, cv(rec, IOSAGE_DFS_STATS) + cv(rec, IOSAGE_DFS_GET_SIZES));
        *syncs = 0;
        break;
    }
    l->syncs = sadd(l->syncs, *syncs);
}

/* Fold one record of a data module into its file's layer. */
static void fold_record(struct fl_layer *l, const iosage_record *rec, int layer,
                        int64_t nprocs)
{
    const struct fl_idx *x = idx_of_layer(layer);
    int64_t reads = sum_idx(rec, x->reads), writes = sum_idx(rec, x->writes);
    int64_t br = cv(rec, x->bytes_r), bw = cv(rec, x->bytes_w), syncs = 0;
    double sr, sw;
    l->present = 1;
    l->records++;
    l->reads = sadd(l->reads, reads);
    l->writes = sadd(l->writes, writes);
    l->bytes_r = sadd(l->bytes_r, br);
    l->bytes_w = sadd(l->bytes_w, bw);
    small_ops(rec, x, reads, writes, &sr, &sw);
    l->small_r += sr;
    l->small_w += sw;
    fold_specific(l, rec, layer, &syncs);
    int64_t ranks = rec->rank < 0 ? nprocs : 1;
    double extra = (double)syncs - 2.0 * (double)ranks;
    if (extra > 0) {
        l->counted_syncs += extra;
        l->writes_synced = sadd(l->writes_synced, writes);
    }
    if (x->max_r >= 0) {
        int64_t m = rec->counters[x->max_r] > rec->counters[x->max_w]
                        ? rec->counters[x->max_r] : rec->counters[x->max_w];
        if (m > l->max_byte)
            l->max_byte = m;
    }
    l->t_read += fv(rec, x->t_read);
    l->t_write += fv(rec, x->t_write);
    l->t_meta += fv(rec, x->t_meta);
    int64_t bytes = br + bw;
    if (rec->rank < 0) {
        int64_t top = cv(rec, x->slow_bytes) > cv(rec, x->fast_bytes)
                          ? cv(rec, x->slow_bytes) : cv(rec, x->fast_bytes);
        /* One rank moved (nearly) all the bytes: not shared by data. */
        int one = bytes > 0 && (double)top >= 0.9 * (double)bytes;
        if (bytes > 0)
            l->data_ranks = sadd(l->data_ranks, one ? 1 : nprocs);
        if (writes > 0)
            l->write_ranks = sadd(l->write_ranks, one ? 1 : nprocs);
    } else {
        l->data_ranks = sadd(l->data_ranks, bytes > 0);
        l->write_ranks = sadd(l->write_ranks, writes > 0);
    }
}

/* --- the id -> file index ------------------------------------------------ */

/* Class of a path (LABELING.md "Data files") from the file table's
 * classifier (classify.c, ios_classify_path) mapped onto enum fl_class. */
static int class_of(unsigned c)
{
    if (c & IOSAGE_FILE_STREAM)
        return FL_STREAM;
    if (c & IOSAGE_FILE_SYSTEM)
        return FL_SYSTEM;
    return FL_DATA;
}

/* The layer of every file that has no record of a module (see fl_file). */
static const struct fl_layer absent_layer = {.max_byte = -1};

/* File f's layer k to fold a record into, made when absent; NULL on no
 * memory. */
static struct fl_layer *layer_to_fill(struct fl_table *t, struct fl_file *f,
                                      int k)
{
    if (f->L[k] == &absent_layer) {
        struct fl_layer *l = ios_arena_alloc(t->layers, sizeof *l);
        if (!l)
            return NULL;
        l->max_byte = -1;
        f->L[k] = l;
    }
    return (struct fl_layer *)f->L[k]; /* one of ours, from the arena */
}

/* The ids of the file table (NULL: none) and the index here of each of
 * its ids' file (-1: not made yet). */
struct fl_lookup {
    const struct fl_groups *g;
    int64_t *of_group; /* g->n entries */
};

/* A new file at the end of t->files; its index, or -1 on no memory. */
static int64_t add_file(struct fl_table *t, uint64_t id, const char *path,
                        unsigned path_class)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 256;
        struct fl_file *f = ios_big_realloc(t->files, cap * sizeof *f);
        if (!f)
            return -1;
        t->files = f;
        t->cap = cap;
    }
    struct fl_file *f = &t->files[t->n];
    memset(f, 0, sizeof *f);
    f->id = id;
    f->path = path;
    f->cls = class_of(path_class);
    for (int k = 0; k < FL_NLAYERS; k++)
        f->L[k] = &absent_layer;
    return (int64_t)t->n++;
}

/* The number of the file table's id that record i of module names (a
 * record the table left out: its id searched among the table's), or -1
 * when the table has no such id. */
static int64_t group_of(const struct fl_lookup *k, int module, size_t i,
                        uint64_t id)
{
    if (!k->g)
        return -1;
    if (k->g->group[module]) {
        uint32_t v = k->g->group[module][i];
        if (v != FL_NO_GROUP)
            return (int64_t)v;
    }
    size_t g;
    return ios_idmap_get(k->g->by_id, id, &g) ? (int64_t)g : -1;
}

/* The groups are numbered in the order the records first name them, but a
 * file's records of other modules or ranks can lie far from its first: on
 * a large log each lookup of such a group's file (and name and class, for
 * a new file) is a cache miss. Called at record i of module, this asks for
 * those of the record FL_AHEAD records on. */
#define FL_AHEAD 16
__attribute__((always_inline)) static inline void
prefetch_group(const struct fl_lookup *k, int module, size_t i,
               size_t n)
{
    if (!k->g || !k->g->group[module] || i + FL_AHEAD >= n)
        return;
    uint32_t v = k->g->group[module][i + FL_AHEAD];
    if (v == FL_NO_GROUP)
        return;
    __builtin_prefetch(&k->of_group[v]);
    __builtin_prefetch(&k->g->path[v]);
    __builtin_prefetch(&k->g->cls[v]);
}

/* Index of the file of record i of module (id), added when absent; -1 on
 * no memory. */
static int64_t file_index(struct fl_table *t, struct fl_lookup *k,
                          const iosage_log *log, int module, size_t i,
                          uint64_t id)
{
    int64_t g = group_of(k, module, i, id);
    if (g >= 0) {
        if (k->of_group[g] < 0)
            k->of_group[g] = add_file(t, id, k->g->path[g], k->g->cls[g]);
        return k->of_group[g];
    }
    size_t at;
    if (ios_idmap_get(&t->map, id, &at))
        return (int64_t)at;
    const char *path = iosage_log_name(log, id);
    int64_t fi = add_file(t, id, path, ios_classify_path(path));
    if (fi >= 0 && ios_idmap_put(&t->map, id, (size_t)fi) != 0)
        return -1;
    return fi;
}

static void fold_lustre(struct fl_file *f, const iosage_record *rec)
{
    int64_t sc = 0;
    if (rec->x.lustre.num_comps >= 1 && rec->x.lustre.comps) {
        for (int64_t c = 0; c < rec->x.lustre.num_comps; c++)
            if (rec->x.lustre.comps[c].stripe_count > sc)
                sc = rec->x.lustre.comps[c].stripe_count;
    } else {
        sc = rec->x.lustre.num_stripes;
    }
    if (sc > 0 && (f->lustre_stripes == 0 || sc < f->lustre_stripes))
        f->lustre_stripes = (int)(sc > 1 << 20 ? 1 << 20 : sc);
}

/* Per-rank time and bytes of the counted layers. Each record adds to its
 * rank (a shared record: to its slowest and fastest rank) in record order;
 * the equal parts of shared records go to every rank at once. */
struct rank_add {
    int64_t rank;
    double time, bytes;
};

struct rank_acc {
    double common_t, common_b; /* added to every rank */
    struct rank_add *v;        /* the additions, in record order */
    size_t n, cap;
    struct rank_sum *dense;    /* or, when not NULL, one sum per rank of
                                  [0, nprocs) */
};

/* A rank's sums when they are kept in an array by rank (IOS_DENSE_RANKS). */
struct rank_sum {
    double time, bytes;
    int named; /* some record added to it */
};

static int add_to_rank(struct rank_acc *a, int64_t rank, double time,
                       double bytes)
{
    if (a->dense) {
        struct rank_sum *d = &a->dense[rank];
        d->time += time;
        d->bytes += bytes;
        d->named = 1;
        return 0;
    }
    if (a->n == a->cap) {
        struct rank_add *v = ios_big_grow(a->v, &a->cap, sizeof *v, 64);
        if (!v)
            return -1;
        a->v = v;
    }
    a->v[a->n] = (struct rank_add){rank, time, bytes};
    a->n++;
    return 0;
}

/*
 * What a record gives the per-rank sums, noted when the record is folded
 * (its counters are in the cache then) and added up once every record is
 * folded, when it is known whether its layer counts (a file's POSIX layer
 * does not when the file has an MPI-IO record, which may come later). A
 * second walk over the records for the sums read every record's counters
 * from memory again: on a log of 10^6 POSIX records, some 700 MB of them.
 * The parts are added in the order the records were, so the sums are the
 * ones that walk made.
 */
enum { PART_RANK, PART_COMMON };
struct rank_part {
    size_t file;   /* index into t->files */
    int32_t rank;  /* PART_RANK: the rank the time and bytes go to */
    uint8_t layer;
    uint8_t kind;  /* PART_RANK, or PART_COMMON: to every rank */
    double time, bytes;
};

struct rank_parts {
    struct rank_part *v;
    size_t n, cap;
};

static int part_add(struct rank_parts *p, size_t file, int layer, int kind,
                    int64_t rank, double time, double bytes)
{
    if (p->n == p->cap) {
        struct rank_part *v = ios_big_grow(p->v, &p->cap, sizeof *v, 256);
        if (!v)
            return -1;
        p->v = v;
    }
    p->v[p->n++] = (struct rank_part){file, (int32_t)rank, (uint8_t)layer,
                                      (uint8_t)kind, time, bytes};
    return 0;
}

/* A shared (rank -1) record: its slowest and fastest rank get their time
 * and bytes less the equal part, every rank the equal part of the rest. */
static int share_reduced(const struct fl_table *t, struct rank_parts *p,
                         size_t fi, int layer, const iosage_record *rec,
                         const struct fl_idx *x, int data)
{
    int64_t n = t->nprocs;
    double T = fv(rec, x->t_read) + fv(rec, x->t_write) + fv(rec, x->t_meta);
    double B = (double)(cv(rec, x->bytes_r) + cv(rec, x->bytes_w));
    int64_t sr = rec->counters[x->slow_rank], fr = rec->counters[x->fast_rank];
    double S = fv(rec, x->t_slow), F = fv(rec, x->t_fast);
    double SB = (double)cv(rec, x->slow_bytes), FB = (double)cv(rec, x->fast_bytes);
    if (!data)
        B = SB = FB = 0;
    int ok = sr >= 0 && sr < n && fr >= 0 && fr < n && S <= T * 1.0001 + 1e-9;
    if (!ok || n == 1 || fr == sr) /* fr == sr: every rank took as long */
        return part_add(p, fi, layer, PART_COMMON, -1, T / (double)n,
                        B / (double)n);
    double rest = n > 2 ? (T - S - F) / (double)(n - 2) : 0;
    double restb = n > 2 ? (B - SB - FB) / (double)(n - 2) : 0;
    rest = rest > 0 ? rest : 0;
    restb = restb > 0 ? restb : 0;
    if (part_add(p, fi, layer, PART_COMMON, -1, rest, restb) != 0 ||
        part_add(p, fi, layer, PART_RANK, sr, S - rest, SB - restb) != 0 ||
        part_add(p, fi, layer, PART_RANK, fr, F - rest, FB - restb) != 0)
        return -1;
    return 0;
}

/* The parts of record rec of layer, folded into file fi. 0, or -1 on no
 * memory. */
static int note_parts(const struct fl_table *t, struct rank_parts *p,
                      size_t fi, int layer, const iosage_record *rec)
{
    const struct fl_idx *x = idx_of_layer(layer);
    /* Bytes count on data files only: a few bytes of stdout on one rank
     * are no imbalance. */
    int data = t->files[fi].cls == FL_DATA;
    if (rec->rank < 0)
        return share_reduced(t, p, fi, layer, rec, x, data);
    if (rec->rank >= t->nprocs)
        return 0;
    return part_add(p, fi, layer, PART_RANK, rec->rank,
                    fv(rec, x->t_read) + fv(rec, x->t_write) + fv(rec, x->t_meta),
                    data ? (double)(cv(rec, x->bytes_r) + cv(rec, x->bytes_w))
                         : 0.0);
}

/* Pass 1: every record into its file, and its parts of the per-rank sums
 * into parts. */
static iosage_status fold_all(const iosage_log *log, const struct ios_skip *skip,
                              struct fl_lookup *look, struct fl_table *t,
                              struct rank_parts *parts)
{
    static const int mods[] = {IOSAGE_MOD_POSIX, IOSAGE_MOD_MPIIO, IOSAGE_MOD_STDIO,
                               IOSAGE_MOD_DFS, IOSAGE_MOD_LUSTRE};
    for (size_t k = 0; k < sizeof mods / sizeof mods[0]; k++) {
        const iosage_module_data *md = &log->modules[mods[k]];
        int layer = layer_of_module(mods[k]);
        int want = layer >= 0 ? iosage_counter_count(mods[k]) : 0;
        int wantf = layer >= 0 ? iosage_fcounter_count(mods[k]) : 0;
        for (size_t i = 0; i < md->n_records; i++) {
            const iosage_record *rec = &md->records[i];
            prefetch_group(look, mods[k], i, md->n_records);
            if (layer >= 0 && (rec->n_counters < want || rec->n_fcounters < wantf))
                continue;
            if (layer >= 0 && ios_skipped(skip, mods[k], i))
                continue;
            int64_t fi = file_index(t, look, log, mods[k], i, rec->id);
            if (fi < 0)
                return IOSAGE_E_NOMEM;
            if (layer < 0) {
                fold_lustre(&t->files[fi], rec);
                continue;
            }
            struct fl_layer *l = layer_to_fill(t, &t->files[fi], layer);
            if (!l)
                return IOSAGE_E_NOMEM;
            fold_record(l, rec, layer, t->nprocs);
            if (note_parts(t, parts, (size_t)fi, layer, rec) != 0)
                return IOSAGE_E_NOMEM;
        }
    }
    return IOSAGE_OK;
}

/* a->v sorted by rank, in the order they were added (record order) among
 * equal ranks: the stable radix sort by the distance from the
 * smallest rank. 0, or -1 when out of memory. */
static int sort_by_rank(struct rank_acc *a)
{
    size_t n = a->n;
    struct ios_sort_pair *p = ios_big_malloc(n * sizeof *p);
    if (!p)
        return -1;
    int64_t min_rank = INT64_MAX;
    for (size_t i = 0; i < n; i++)
        min_rank = a->v[i].rank < min_rank ? a->v[i].rank : min_rank;
    for (size_t i = 0; i < n; i++)
        p[i] = (struct ios_sort_pair){(uint64_t)a->v[i].rank - (uint64_t)min_rank, i};
    struct rank_add *sorted =
        ios_sort_pairs(p, n) == 0 ? ios_sort_gather(a->v, n, sizeof *a->v, p) : NULL;
    free(p);
    if (!sorted)
        return -1;
    free(a->v);
    a->v = sorted;
    a->cap = n;
    return 0;
}

/* The named ranks of the array of sums, in rank order. */
static iosage_status fold_dense(struct rank_acc *a, struct fl_table *t)
{
    size_t named = 0;
    for (int64_t r = 0; r < t->nprocs; r++)
        named += a->dense[r].named;
    t->ranks = malloc((named ? named : 1) * sizeof *t->ranks);
    if (!t->ranks)
        return IOSAGE_E_NOMEM;
    for (int64_t r = 0; r < t->nprocs; r++)
        if (a->dense[r].named)
            t->ranks[t->n_ranks++] =
                (struct iosage_rank_io){r, a->dense[r].time, a->dense[r].bytes};
    t->rest_time = a->common_t;
    t->rest_bytes = a->common_b;
    return IOSAGE_OK;
}

/* The additions, sorted by rank (record order within a rank), summed into
 * one entry per rank in the same order as a dense array would add them;
 * the common parts stay apart (fl_rank_time adds them). */
static iosage_status fold_ranks(struct rank_acc *a, struct fl_table *t)
{
    if (a->dense)
        return fold_dense(a, t);
    if (a->n > 1 && sort_by_rank(a) != 0)
        return IOSAGE_E_NOMEM;
    t->ranks = malloc((a->n ? a->n : 1) * sizeof *t->ranks);
    if (!t->ranks)
        return IOSAGE_E_NOMEM;
    for (size_t i = 0; i < a->n;) {
        struct iosage_rank_io r = {a->v[i].rank, 0, 0};
        for (; i < a->n && a->v[i].rank == r.rank; i++) {
            r.time += a->v[i].time;
            r.bytes += a->v[i].bytes;
        }
        t->ranks[t->n_ranks++] = r;
    }
    t->rest_time = a->common_t;
    t->rest_bytes = a->common_b;
    return IOSAGE_OK;
}

/* Pass 2: the parts of the records whose layers count, into per-rank
 * sums. */
static iosage_status rank_sums(const struct rank_parts *p, size_t records,
                               struct fl_table *t)
{
    struct rank_acc a = {0};
    if (t->nprocs <= IOS_DENSE_RANKS || (uint64_t)t->nprocs <= records) {
        a.dense = ios_big_calloc((size_t)t->nprocs, sizeof *a.dense);
        if (!a.dense)
            return IOSAGE_E_NOMEM;
    }
    iosage_status st = IOSAGE_OK;
    for (size_t i = 0; i < p->n && st == IOSAGE_OK; i++) {
        const struct rank_part *q = &p->v[i];
        if (!(t->counted[q->file] >> q->layer & 1))
            continue;
        if (q->kind == PART_COMMON) {
            a.common_t += q->time;
            a.common_b += q->bytes;
        } else if (add_to_rank(&a, q->rank, q->time, q->bytes) != 0) {
            st = IOSAGE_E_NOMEM;
        }
    }
    if (st == IOSAGE_OK)
        st = fold_ranks(&a, t);
    free(a.v);
    free(a.dense);
    return st;
}

/* --- queries ---------------------------------------------------------------- */

int fl_counted(const struct fl_file *f, int layer)
{
    if (!f->L[layer]->present)
        return 0;
    if (layer == FL_POSIX || layer == FL_DFS)
        return !f->L[FL_MPIIO]->present;
    return 1;
}

double fl_file_time(const struct fl_file *f)
{
    double s = 0;
    for (int k = 0; k < FL_NLAYERS; k++)
        if (fl_counted(f, k))
            s += f->L[k]->t_read + f->L[k]->t_write + f->L[k]->t_meta;
    return s;
}

int64_t fl_file_ops(const struct fl_file *f)
{
    int64_t s = 0;
    for (int k = 0; k < FL_NLAYERS; k++)
        if (fl_counted(f, k))
            s = sadd(s, sadd(f->L[k]->reads, f->L[k]->writes));
    return s;
}

int fl_is_data(const struct fl_file *f)
{
    if (f->cls != FL_DATA)
        return 0;
    for (int k = 0; k < FL_NLAYERS; k++)
        if (f->L[k]->bytes_r + f->L[k]->bytes_w > 0)
            return 1;
    return 0;
}

/* Shared: the counted layers show data moved by two ranks or more. */
int fl_is_shared(const struct fl_file *f)
{
    for (int k = 0; k < FL_NLAYERS; k++)
        if (fl_counted(f, k) && f->L[k]->data_ranks >= 2)
            return 1;
    return 0;
}

int64_t fl_file_extent(const struct fl_file *f)
{
    int64_t m = -1;
    for (int k = 0; k < FL_NLAYERS; k++)
        if (f->L[k]->max_byte > m)
            m = f->L[k]->max_byte;
    return m + 1;
}

double fl_dir_time(const struct fl_file *f, int wr)
{
    double s = 0;
    for (int k = 0; k < FL_NLAYERS; k++)
        if (fl_counted(f, k))
            s += wr ? f->L[k]->t_write : f->L[k]->t_read;
    return s;
}

double fl_dir_ops(const struct fl_file *f, int wr)
{
    double s = 0;
    for (int k = 0; k < FL_NLAYERS; k++)
        if (fl_counted(f, k))
            s += (double)(wr ? f->L[k]->writes : f->L[k]->reads);
    return s;
}

const struct fl_layer *fl_low_layer(const struct fl_file *f)
{
    if (f->L[FL_POSIX]->present)
        return f->L[FL_POSIX];
    if (f->L[FL_DFS]->present)
        return f->L[FL_DFS];
    return f->L[FL_MPIIO];
}

double fl_meta_ops_add(double ops, const struct fl_file *f)
{
    for (int k = 0; k < FL_NLAYERS; k++) {
        const struct fl_layer *l = f->L[k];
        if (k == FL_MPIIO && (f->L[FL_POSIX]->present || f->L[FL_DFS]->present))
            continue;
        if (l->present)
            ops += (double)(l->opens + l->stats + l->seeks + l->syncs);
    }
    return ops;
}

double fl_material(const struct fl_table *t, double time, double ops)
{
    if (t->has_timers && t->io_time > 0)
        return time / t->io_time;
    return t->total_ops > 0 ? (double)ops / (double)t->total_ops : 0.0;
}

void fl_table_free(struct fl_table *t)
{
    if (!t)
        return;
    free(t->files);
    ios_idmap_free(&t->map);
    ios_arena_destroy(t->layers);
    free(t->ranks);
    free(t->scratch);
    free(t->counted);
    memset(t, 0, sizeof *t);
}

/* Room for n files in the array (and in the map, when files are found by
 * id) from the start: growing them by doubling copied the array and
 * rehashed the map about log2(n) times, and touched two to three times the
 * memory they end with. */
static int reserve_files(struct fl_table *t, size_t n, int by_id)
{
    if (n == 0)
        return 0;
    t->files = ios_big_malloc(n * sizeof *t->files);
    if (!t->files)
        return -1;
    t->cap = n;
    return by_id ? ios_idmap_reserve(&t->map, n) : 0;
}

static iosage_status build_table(const iosage_log *log,
                                 const struct ios_skip *skip, int64_t nprocs,
                                 double run_time, size_t files_hint,
                                 struct fl_lookup *look, struct fl_table *t)
{
    memset(t, 0, sizeof *t);
    /* The job's rank count and run time are the file table's, so that the
     * criteria and the features see the same job. */
    t->nprocs = nprocs >= 1 ? nprocs : 1;
    if (t->nprocs > MAX_RANKS) /* the per-rank arrays stay bounded */
        t->nprocs = MAX_RANKS;
    t->run_time = run_time;
    t->layers = ios_arena_create();
    struct rank_parts parts = {0};
    static const int data_mods[] = {IOSAGE_MOD_POSIX, IOSAGE_MOD_MPIIO,
                                    IOSAGE_MOD_STDIO, IOSAGE_MOD_DFS};
    size_t records = 0; /* of the data modules: the most ranks they name */
    for (size_t k = 0; k < sizeof data_mods / sizeof data_mods[0]; k++)
        records += log->modules[data_mods[k]].n_records;
    if (!t->layers || reserve_files(t, files_hint, look->g == NULL) != 0 ||
        fold_all(log, skip, look, t, &parts) != IOSAGE_OK ||
        !(t->scratch = ios_big_malloc((t->n ? t->n : 1) * sizeof *t->scratch))) {
        free(parts.v);
        fl_table_free(t);
        return IOSAGE_E_NOMEM;
    }
    /* One walk over the files' layers for all that is summed over them:
     * on a log of 10^6 files each walk reads some 200 MB of layers. */
    if (!(t->counted = ios_big_malloc(t->n ? t->n : 1))) {
        free(parts.v);
        fl_table_free(t);
        return IOSAGE_E_NOMEM;
    }
    for (size_t i = 0; i < t->n; i++) {
        const struct fl_file *f = &t->files[i];
        uint8_t mask = 0;
        for (int k = 0; k < FL_NLAYERS; k++)
            mask |= (uint8_t)(fl_counted(f, k) << k);
        t->counted[i] = mask;
        t->io_time += fl_file_time(f);
        t->total_ops = sadd(t->total_ops, fl_file_ops(f));
        t->data_files += fl_is_data(f);
        t->meta_ops = fl_meta_ops_add(t->meta_ops, f);
    }
    t->has_timers = t->io_time > 0;
    iosage_status st = rank_sums(&parts, records, t);
    free(parts.v);
    if (st != IOSAGE_OK) {
        fl_table_free(t);
        return IOSAGE_E_NOMEM;
    }
    return IOSAGE_OK;
}

iosage_status fl_table_build(const iosage_log *log, const struct ios_skip *skip,
                             int64_t nprocs, double run_time, size_t files_hint,
                             const struct fl_groups *groups, struct fl_table *t)
{
    struct fl_lookup look = {groups, NULL};
    if (groups) {
        look.of_group = ios_big_malloc((groups->n ? groups->n : 1) *
                                       sizeof *look.of_group);
        if (!look.of_group)
            return IOSAGE_E_NOMEM;
        for (size_t g = 0; g < groups->n; g++)
            look.of_group[g] = -1;
    }
    iosage_status st = build_table(log, skip, nprocs, run_time, files_hint,
                                   &look, t);
    free(look.of_group);
    return st;
}

/* The entry of rank r, or NULL when r has only the common parts. */
static const struct iosage_rank_io *find_rank(const struct fl_table *t, int64_t r)
{
    size_t lo = 0, hi = t->n_ranks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->ranks[mid].rank < r)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n_ranks && t->ranks[lo].rank == r ? &t->ranks[lo] : NULL;
}

double fl_rank_time(const struct fl_table *t, int64_t r)
{
    const struct iosage_rank_io *e = find_rank(t, r);
    return e ? e->time + t->rest_time : t->rest_time;
}

double fl_rank_bytes(const struct fl_table *t, int64_t r)
{
    const struct iosage_rank_io *e = find_rank(t, r);
    return e ? e->bytes + t->rest_bytes : t->rest_bytes;
}

int fl_rank_listed(const struct fl_table *t, int64_t r)
{
    return find_rank(t, r) != NULL;
}

/* Sums and first maxima over all nprocs ranks: the ranks with an entry one
 * by one, the others (all alike, the first of them is `other`) at once. */
void fl_rank_summary(const struct fl_table *t, struct fl_ranks *s)
{
    memset(s, 0, sizeof *s);
    int64_t other = 0; /* the lowest rank without an entry */
    double tmax = 0, bmax = 0;
    for (size_t i = 0; i < t->n_ranks; i++) {
        const struct iosage_rank_io *e = &t->ranks[i];
        double time = e->time + t->rest_time, bytes = e->bytes + t->rest_bytes;
        s->sum_time += time;
        s->sum_bytes += bytes;
        if (i == 0 || time > tmax) {
            tmax = time;
            s->slowest = e->rank;
        }
        if (i == 0 || bytes > bmax) {
            bmax = bytes;
            s->biggest = e->rank;
        }
        if (e->rank == other)
            other++;
    }
    int64_t rest = t->nprocs - (int64_t)t->n_ranks;
    if (rest <= 0)
        return;
    s->sum_time += t->rest_time * (double)rest;
    s->sum_bytes += t->rest_bytes * (double)rest;
    if (t->n_ranks == 0 || t->rest_time > tmax ||
        (t->rest_time == tmax && other < s->slowest))
        s->slowest = other;
    if (t->n_ranks == 0 || t->rest_bytes > bmax ||
        (t->rest_bytes == bmax && other < s->biggest))
        s->biggest = other;
}
