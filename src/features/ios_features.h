/*
 * src/features/ios_features.h - what the file table, the features, the patterns
 * and the rules share inside the library. Nothing here is public.
 *
 * Files of this folder, in reading order:
 *   layers.c      one descriptor per data layer (POSIX, MPI-IO, STDIO, DFS):
 *                 which counter index means what; safe counter access
 *   classify.c    data file / stream / system file, from the path
 *   file_table.c  records -> one row per (file id, module); job sums
 *   file_layers.c records -> one entry per file id with a layer per module
 *                 and per-rank sums: what the pattern criteria read
 *   extras.c      counters the rows do not keep, for the features
 *   ranks.c       per-rank I/O time and bytes estimates
 *   scan.c        the per-file criteria of LABELING.md (small requests,
 *                 non-sequential ops, independent shared files, re-reads,
 *                 syncs) shared by features, rules and evidence
 *   schema.c      feature names and formulas (feature_list.h)
 *   features.c    the feature vector
 *
 * Counter rule: a counter value below 0 (-1 = not collected) reads as 0 and
 * a double that is negative, not finite or absurdly large (> 1e12 s) reads as
 * 0. Sums of int64 counters saturate instead of overflowing (logs of modified
 * runtimes hold garbage counters).
 */
#ifndef IOS_FEATURES_IOS_FEATURES_H
#define IOS_FEATURES_IOS_FEATURES_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "iosage/counters.h"
#include "iosage/darshan.h"
#include "iosage/features.h"
#include "ios_file_layers.h"
#include "ios_math.h"

/* --- Safe counter access --------------------------------------------------- */

/* Counter i of r, or 0 when absent or negative. */
static inline int64_t ios_cnt(const iosage_record *r, int i)
{
    if (i < 0 || i >= r->n_counters)
        return 0;
    return r->counters[i] > 0 ? r->counters[i] : 0;
}

/* Counter i of r as stored, or -1 when absent. */
static inline int64_t ios_cnt_raw(const iosage_record *r, int i)
{
    if (i < 0 || i >= r->n_counters)
        return -1;
    return r->counters[i];
}

/* Double counter i of r, or 0 when absent, negative, not finite or > 1e12. */
static inline double ios_fcnt(const iosage_record *r, int i)
{
    if (i < 0 || i >= r->n_fcounters)
        return 0.0;
    double v = r->fcounters[i];
    return (isfinite(v) && v > 0.0 && v < 1e12) ? v : 0.0;
}

/* a + b, saturating at INT64_MAX (both non-negative). */
static inline int64_t ios_sadd(int64_t a, int64_t b)
{
    int64_t s;
    if (__builtin_add_overflow(a, b, &s))
        return INT64_MAX;
    return s;
}

/* x as int64, clamped to [0, 2^62] (a plain cast of a huge double is
 * undefined behaviour). */
static inline int64_t ios_d2i(double x)
{
    if (!(x > 0.0))
        return 0;
    return x < 4.6e18 ? (int64_t)x : (int64_t)4600000000000000000LL;
}

/* num / den, or 0 when den <= 0; the result is finite. */
static inline double ios_ratio(double num, double den)
{
    if (!(den > 0.0) || !isfinite(num) || !isfinite(den))
        return 0.0;
    double r = num / den;
    return isfinite(r) ? r : 0.0;
}

/* num / den capped to [0, 1]. */
static inline double ios_share(double num, double den)
{
    double r = ios_ratio(num, den);
    return r < 0.0 ? 0.0 : (r > 1.0 ? 1.0 : r);
}

/* log10(1 + x) for x >= 0 (negative or non-finite x gives 0). */
static inline double ios_log1p10(double x)
{
    if (!(x > 0.0) || !isfinite(x))
        return 0.0;
    return ios_libm()->log10(1.0 + x);
}

#define IOS_MIB 1048576.0
#define IOS_N_BINS 10

/* --- Layer descriptors (layers.c) ----------------------------------------- */

/* Counter indices of one data layer in the newest record layout; -1 when
 * the layer has no such counter. */
struct ios_layer {
    int module;
    int reads, reads2;      /* reads2: a second read call family or -1 */
    int writes, writes2;
    int bytes_read, bytes_written;
    int max_byte_read, max_byte_written;
    int rbin0, wbin0;       /* first of 10 size bins (0_100 .. 1G_PLUS) */
    int access0;            /* ACCESS1_ACCESS; its count is at access0 + 4 */
    int seq_reads, seq_writes, consec_reads, consec_writes;
    int opens[3];           /* open-like counters, -1 padded */
    int meta[5];            /* other metadata op counters, -1 padded */
    int syncs[2];
    int slowest_rank, slowest_bytes, fastest_rank, fastest_bytes;
    int read_time, write_time, meta_time;
    int slowest_time, fastest_time, var_time, var_bytes;
    int end_ts[3];          /* end timestamps, for the run-time fallback */
};

/* Descriptor of module, or NULL when it is not a data layer. */
const struct ios_layer *ios_layer_of(int module);

/* Reads and writes of one record. */
int64_t ios_rec_reads(const struct ios_layer *L, const iosage_record *r);
int64_t ios_rec_writes(const struct ios_layer *L, const iosage_record *r);
/* read + write + metadata time of one record. */
double ios_rec_time(const struct ios_layer *L, const iosage_record *r);
/* Requests under 1 MiB: reads into *sr, writes into *sw (see
 * docs/features.md for the exact-1 MiB correction and STDIO's bound). */
void ios_rec_small(const struct ios_layer *L, const iosage_record *r,
                   int64_t *sr, int64_t *sw);
/* Requests of at most 10 KiB (reads + writes). */
int64_t ios_rec_tiny(const struct ios_layer *L, const iosage_record *r);

/* --- Path classes (classify.c) --------------------------------------------- */

/* IOSAGE_FILE_STREAM, IOSAGE_FILE_SYSTEM or 0 for path (NULL = unnamed). */
unsigned ios_classify_path(const char *path);

/* --- Table internals ------------------------------------------------------- */

/* What the features need beyond the rows; filled by extras.c (counters,
 * file-level sums) and ranks.c (unique_bytes_*) while the table is built. */
struct ios_ft_extra {
    /* rank -1 records of counted rows of data files: rank spread and
     * coefficient of variation, weighted */
    double spread_time_w, spread_time_sum;   /* weight: record time */
    double spread_bytes_w, spread_bytes_sum; /* weight: record bytes */
    double cv_time_w, cv_time_sum;
    double cv_bytes_w, cv_bytes_sum;
    /* per-rank records of data files (counted rows): bytes per rank */
    double unique_bytes_max, unique_bytes_mean;
    /* POSIX-level counts of data files that are not in the rows */
    int64_t rw_switches, file_not_aligned, mem_not_aligned;
    int64_t seq_reads, seq_writes, consec_reads, consec_writes;
    int64_t posix_reads, posix_writes; /* POSIX rows only (not DFS) */
    int64_t stride_top4, access_top1, access_top4, mpiio_access_top4;
    int64_t size_bins[2][2][IOS_N_BINS]; /* [POSIX+DFS, MPI-IO][read, write] */
    int64_t stats, seeks, views, mpiio_opens, nb_ops, stdio_flushes;
    int64_t coll_reads, coll_writes, mpiio_reads, mpiio_writes;
    /* per data file (ios_ft_files) */
    double median_size;     /* bytes; see file_median_size_log */
    int64_t files_small, files_unique, files_shared; /* data files */
    /* (file, rank) pairs: each file weighted by the ranks that opened it */
    double pairs_all, pairs_data, pairs_shared, pairs_small;
    double pairs_ro, pairs_wo, pairs_rw;
    double data_bytes, shared_bytes; /* top-layer bytes of data files */
    double shared_time, top_file_time, data_time;
};

struct ios_ft_private {
    ios_arena *strings;      /* the rows' paths, one copy a file */
    struct ios_ft_extra extra;
    struct fl_table layers;  /* per-file layer view (file_layers.c), owned */
};

/* The per-file layer view of t, which the pattern criteria read. */
static inline const struct fl_table *ios_ft_layers(const iosage_file_table *t)
{
    return &t->priv->layers;
}

/* One record as the table builder sees it. */
/* Records no Darshan runtime writes (impossible.c): 1 when r's record id
 * or rank is one (id 0; a rank below -1 or from 10^8 on); the index of
 * r's first integer counter out of bounds (below -2^40 or from 2^56 on),
 * or -1. The file table leaves out a record of bad key, and in a module
 * with one, a record with a counter out of bounds. */
int ios_record_bad_key(const iosage_record *r);
int ios_record_bad_counter(const iosage_record *r);

/* Which records of a log to leave out: skip[m] is NULL when module m has
 * none (the usual case), else one byte a record of module m, 1 = leave
 * out. */
struct ios_skip {
    uint8_t *skip[IOSAGE_MAX_MODULES];
};

static inline int ios_skipped(const struct ios_skip *s, int module, size_t i)
{
    return s && s->skip[module] && s->skip[module][i];
}

struct ios_ref {
    uint64_t id;
    int module;
    uint32_t file; /* the file table's number of id (file_table.c) */
    int64_t rank;
    const iosage_record *rec;
};

/* The passes over the records in refs order (file_table.c, extras.c,
 * ranks.c) go through them file by file, in the order the records first
 * name their files: mostly the order they lie in, but the records of a
 * file of several ranks or modules lie far apart, a cache miss for the
 * record and one for each line of its counters. ios_prefetch_ref(refs, n,
 * i), called at ref i, asks for the record IOS_PREFETCH_AHEAD refs ahead
 * and for the counters of the record half as far ahead (whose struct has
 * arrived by then), so that the misses overlap. Prefetches are hints:
 * nothing is read through them. The features stage of a log of 10^6
 * files took 4.48 s with them (and two more in a copy of the rows' paths,
 * since folded into settle_file) and 5.81 s without (best of 5,
 * alternating, 2026-12-06).
 *
 * always_inline: GCC 12 judges a function whose only effects are
 * prefetches "pure" and drops calls to it before it inlines them. */
#define IOS_PREFETCH_AHEAD 16
__attribute__((always_inline)) static inline void
ios_prefetch_ref(const struct ios_ref *refs, size_t n, size_t i)
{
    if (i + IOS_PREFETCH_AHEAD < n)
        __builtin_prefetch(refs[i + IOS_PREFETCH_AHEAD].rec);
    size_t j = i + IOS_PREFETCH_AHEAD / 2;
    if (j >= n)
        return;
    const iosage_record *r = refs[j].rec;
    const char *c = (const char *)r->counters;
    const char *f = (const char *)r->fcounters;
    size_t nc = r->counters ? (size_t)r->n_counters * 8 : 0;
    size_t nf = r->fcounters ? (size_t)r->n_fcounters * 8 : 0;
    for (size_t b = 0; b < nc; b += 64)
        __builtin_prefetch(c + b);
    for (size_t b = 0; b < nf; b += 64)
        __builtin_prefetch(f + b);
}

/* Extras (extras.c): the counters of row k's records, refs[from .. to),
 * that the rows do not keep, summed into x when row k is of a data file.
 * Called row by row in the table's build order (file by file), each
 * file's rows right after they are built and settled (file_table.c),
 * while their records are in the cache. */
void ios_ft_extras_row(const iosage_file_table *t, size_t k,
                       const struct ios_ref *refs, size_t from, size_t to,
                       struct ios_ft_extra *x);

/* File-level sums (extras.c) of the file of rows [from, to), called file
 * by file in build order right after the file is settled, while its rows
 * are in the cache (a later walk over 10^6 rows read 232 MB again). A
 * data file's size goes to sizes[(*n_sizes)++]; sizes has room for one a
 * file. ios_ft_files_done() then takes their median (reordering sizes). */
void ios_ft_file(const iosage_file_table *t, size_t from, size_t to,
                 struct ios_ft_extra *x, double *sizes, size_t *n_sizes);
void ios_ft_files_done(struct ios_ft_extra *x, double *sizes, size_t n);

/* The bytes of the per-rank records of COUNTED data rows, gathered row by
 * row (ranks.c) for unique_bytes_max and _mean. */
struct ios_rank_bytes {
    int64_t rank;
    double bytes;
};

struct ios_unique_bytes {
    struct ios_rank_bytes *v; /* malloc'd; ios_ranks_estimate frees it */
    size_t n, cap;
};

/* Add row k's per-rank records, refs[from .. to), when the row is COUNTED
 * and of a data file; called like ios_ft_extras_row. 0, or -1 on no
 * memory. */
int ios_unique_bytes_row(struct ios_unique_bytes *u, const iosage_file_table *t,
                         size_t k, const struct ios_ref *refs, size_t from,
                         size_t to);

/* Per-rank sums (the layer view's, file_layers.c; the unique bytes,
 * ranks.c) go into an array indexed by rank when the ranks span at most
 * this many, or at most as many as the entries: each addition goes
 * straight to its rank in entry order, the order a stable sort by rank
 * would sum them in, so the sums are the same to the bit. A wider span is
 * sorted: a log that claims 10^6 ranks and names three costs three
 * entries. */
#define IOS_DENSE_RANKS 65536

/* Per-rank estimates (ranks.c): fills the rank_* and active_ranks fields of
 * t->job from the per-rank sums of the layer view (built before), and the
 * unique_bytes extras from u, which it frees. Returns 0, or -1 on no
 * memory. */
int ios_ranks_estimate(iosage_file_table *t, struct ios_unique_bytes *u);

/* --- Criteria scans (scan.c) ----------------------------------------------- */

/* Result of one per-file criterion over the data files of a table. */
struct ios_scan {
    int64_t count;    /* operations (or files) that show it */
    int64_t ops;      /* data operations of the files that show it */
    int64_t files;    /* files that show it */
    double time;      /* their file_time (or the time the criterion uses) */
    int top[3];       /* rows with the largest time that show it, -1 pad */
};

/* Does row i count for the "top layer" of its file: MPI-IO rows, POSIX/DFS
 * rows of files without MPI-IO, STDIO rows. */
int ios_row_top(const struct iosage_file_row *row);

/* Does the row hold the requests the file system saw: POSIX/DFS and STDIO
 * rows, and MPI-IO rows of files without a POSIX row. */
int ios_row_fs_level(const struct iosage_file_row *row);

/* Each scan below looks at every row of t. The four that the features use
 * also come in parts (ios_scan_<name>_rows: rows [from, to) into s, after
 * ios_scan_init), so that the features take them together with their own
 * sums, a block of rows at a time: the same result as the whole scan when
 * the parts cover the rows in order. */
void ios_scan_init(struct ios_scan *s);

/* Small requests (< 1 MiB) at least half of a data file's reads or of its
 * writes, counted at the file-system level (ios_row_fs_level): count =
 * those small requests; time = the file's counted I/O time. */
void ios_scan_small(const iosage_file_table *t, struct ios_scan *s);
void ios_scan_small_rows(const iosage_file_table *t, struct ios_scan *s,
                         size_t from, size_t to);
/* Non-sequential POSIX/DFS ops at least 20% of a data file's ops. */
void ios_scan_nonseq(const iosage_file_table *t, struct ios_scan *s);
void ios_scan_nonseq_rows(const iosage_file_table *t, struct ios_scan *s,
                          size_t from, size_t to);
/* Shared data files with >= 90% POSIX or independent MPI-IO data ops and
 * small (average < 1 MiB) or non-contiguous requests; count = files. Files
 * accessed through other interfaces (DFS, STDIO) do not count. */
void ios_scan_indep_shared(const iosage_file_table *t, struct ios_scan *s);
void ios_scan_indep_shared_rows(const iosage_file_table *t, struct ios_scan *s,
                                size_t from, size_t to);
/* Data files read at least 2x their extent; time = their read time. */
void ios_scan_reread(const iosage_file_table *t, struct ios_scan *s);
void ios_scan_reread_rows(const iosage_file_table *t, struct ios_scan *s,
                          size_t from, size_t to);
/* Data files with syncs beyond 2 per rank; count = those syncs, ops = the
 * writes of those files, time = their file_time. */
void ios_scan_syncs(const iosage_file_table *t, struct ios_scan *s);
/* Data files of >= 1 GiB written by >= 16 ranks on one Lustre OST. */
void ios_scan_single_ost(const iosage_file_table *t, struct ios_scan *s);

/* Is a POSIX-level row contiguous per rank (see ios_scan_indep_shared)? */
int ios_row_noncontig(const struct iosage_file_row *posix_row);

#endif
