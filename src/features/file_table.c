/*
 * src/features/file_table.c - one row per (file id, module) for the data
 * layers, and the job sums of LABELING.md.
 *
 * Build order:
 *   1. job basics: nprocs (sanitised) and run time;
 *   2. refs: every POSIX, MPI-IO, STDIO and DFS record, its file id
 *      numbered in the order the records first name it (files_by_id), and
 *      sorted by (file number, module, rank); a run of equal (file, module)
 *      is one row;
 *   3. rows: counters summed per row (aggregate_row);
 *   4. per file id: MPI-IO/POSIX peers, which rows count in the job's I/O
 *      time, the path class, data and shared flags, the file's time, the
 *      table's copy of its path; and from the file's records, while they
 *      are in the cache, the extras for the features (extras.c) and the
 *      per-rank bytes (ranks.c); 3 and 4 go file by file (build_rows);
 *   5. LUSTRE stripe counts; job sums; the features' file-level sums;
 *   6. rows sorted by I/O time, bytes, id and module (peer indices
 *      remapped); then the per-file layer view the pattern criteria read
 *      (file_layers.c), once the rows' old array is freed, and the
 *      per-rank estimates from it (ranks.c).
 *
 * Why files are numbered in record order and not sorted by id: every pass
 * of steps 3 to 6 reads the records, names and rows file by file. Ids are
 * hashes, so id order is a random walk over the decoded region, a cache
 * miss or more for each record, name and row once the log outgrows the
 * caches; the order the records first name their files is the order they
 * lie in, and the names of a log mostly lie in that order too. Walking
 * its 10^6 one-record files in id order, steps 3 and 4 took 0.66 us a
 * record on a log whose ids lie in random order (as they do), 0.17 us on
 * the same files written in id order (user time, 2026-12-06).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "ios_features.h"
#include "ios_idmap.h"
#include "ios_numfmt.h"
#include "ios_sort.h"

static const int table_modules[] = {IOSAGE_MOD_POSIX, IOSAGE_MOD_MPIIO,
                                    IOSAGE_MOD_STDIO, IOSAGE_MOD_DFS};
#define N_TABLE_MODULES 4
#define NPROCS_MAX 100000000 /* above this the job record is not believed */

struct build {
    const iosage_log *log;
    iosage_file_table *t;
    struct ios_ref *refs;
    size_t n_refs;
    size_t *row_start; /* n_rows + 1 */
    struct ios_skip skip; /* the records left out (collect_refs) */
    struct fl_groups groups; /* for the layer view (settle_file); by_id
                                NULL when not kept */
    ios_idmap files_by_id; /* file id -> its number (collect_refs) */
    size_t n_files;
    size_t *file_name;  /* n_files: 1 + the index in the log's names of the
                           file's name, 0 when unnamed (names_of_files) */
    size_t *file_row;   /* n_files + 1: the file's first row (build_rows) */
    double *sizes;      /* n_files: the data files' sizes (ios_ft_file) */
    /* What collect_refs notes of the refs as it makes them, for sort_refs
     * and job_nprocs (each walked 10^6 refs again for it). */
    int64_t min_rank, max_rank; /* over the refs (INT64_MAX, INT64_MIN: none) */
    int64_t top_rank;   /* the highest rank under NPROCS_MAX, or -1 */
    int refs_in_order;  /* made in (file, module, rank) order already */
    struct sort_keys {  /* per row, taken as it is built (sort_rows) */
        uint64_t *time, *bytes, *id;
    } keys;
};

/* --- 1. job basics ------------------------------------------------------- */

/* Latest end timestamp of any record of the table's modules. */
static double latest_end(const struct build *b)
{
    double m = 0.0;
    for (int k = 0; k < N_TABLE_MODULES; k++) {
        const iosage_module_data *md = &b->log->modules[table_modules[k]];
        const struct ios_layer *L = ios_layer_of(table_modules[k]);
        for (size_t i = 0; i < md->n_records; i++) {
            if (ios_skipped(&b->skip, table_modules[k], i))
                continue;
            for (int j = 0; j < 3; j++) {
                double v = ios_fcnt(&md->records[i], L->end_ts[j]);
                m = v > m ? v : m;
            }
        }
    }
    return m;
}

/* The run time as darshan-parser prints it (3.41: with nanoseconds; older:
 * end - start + 1), or the latest end timestamp when that is not positive. */
static double run_time(const struct build *b)
{
    double rt = ios_job_run_time(&b->log->header, &b->log->job);
    if (!(rt > 0.0) || !isfinite(rt) || rt > 1e9)
        rt = latest_end(b);
    return rt;
}

/*
 * The fewest processes a shared record (rank -1, reduced by the runtime)
 * proves: its fastest and slowest ranks are ranks of the job, and its
 * ranks' times add up to its read, write and metadata time with none above
 * the slowest rank's time. 0 when it proves nothing.
 */
static int64_t shared_record_ranks(const struct ios_ref *ref)
{
    const struct ios_layer *L = ios_layer_of(ref->module);
    const iosage_record *r = ref->rec;
    if (ref->rank >= 0 || !L || L->slowest_rank < 0)
        return 0;
    int64_t n = 0;
    int64_t ids[2] = {ios_cnt_raw(r, L->fastest_rank),
                      ios_cnt_raw(r, L->slowest_rank)};
    for (int k = 0; k < 2; k++)
        if (ids[k] >= 0 && ids[k] < NPROCS_MAX && ids[k] + 1 > n)
            n = ids[k] + 1;
    double slowest = ios_fcnt(r, L->slowest_time), total = ios_rec_time(L, r);
    if (slowest > 0.0 && total > 0.0 && isfinite(total)) {
        /* rounded up, with 1% slack: the times are rounded where the
         * runtime sums them (no ceil(): libm is loaded only when needed,
         * src/common/ios_math.h) */
        double x = total / slowest - 0.01;
        if (x > 0.0 && x < (double)NPROCS_MAX) {
            int64_t q = (int64_t)x;
            q += (double)q < x;
            n = q > n ? q : n;
        }
    }
    return n;
}

/* nprocs from the job record; when that holds an impossible value, the
 * fewest processes the records prove: 1 + the highest rank seen (in a
 * record or as a shared record's fastest or slowest rank), or a shared
 * record's time over its slowest rank's time. Never below 1 + the highest
 * rank seen. */
static void job_nprocs(struct build *b)
{
    int64_t maxrank = b->top_rank; /* noted by collect_refs */
    int64_t n = b->log->job.nprocs;
    struct iosage_job_summary *js = &b->t->job;
    if (n <= 0 || n > NPROCS_MAX) {
        js->nprocs_suspect = 1;
        n = maxrank + 1 > 1 ? maxrank + 1 : 1;
        for (size_t i = 0; i < b->n_refs; i++) {
            int64_t proved = shared_record_ranks(&b->refs[i]);
            n = proved > n ? proved : n;
        }
    } else if (maxrank + 1 > n) {
        js->nprocs_suspect = 1;
        n = maxrank + 1;
    }
    js->nprocs = n;
}

/* --- 2. refs --------------------------------------------------------------- */


static void note_impossible(struct iosage_job_summary *js, int module,
                            const iosage_record *r, int counter)
{
    if (js->impossible_records++ > 0)
        return;
    js->impossible_module = module;
    js->impossible_id = r->id;
    js->impossible_counter = counter;
    js->impossible_value = counter >= 0 ? r->counters[counter] : 0;
}

/*
 * refs sorted by (file, module, rank), refs of equal keys in the order
 * they were collected. The ranks are keyed by their distance from the
 * smallest, so that only their low bytes vary. When that distance fits
 * in 24 bits (every real job), the three fields make one 64-bit key:
 * one pass of the stable radix sort, and none when the refs are in order
 * already, as the records of a log of one record a file are (files are
 * numbered in the order they were collected). Otherwise three passes, the
 * least significant field first.
 */
#define RANK_SPAN_BITS 24

/* The one key of ref r (ranks spanning under 2^RANK_SPAN_BITS from
 * min_rank; module ids are below 256). */
static uint64_t ref_key(const struct ios_ref *r, int64_t min_rank)
{
    return (uint64_t)r->file << 32 | (uint64_t)r->module << RANK_SPAN_BITS |
           ((uint64_t)r->rank - (uint64_t)min_rank);
}

static int sort_refs(struct build *b)
{
    size_t n = b->n_refs;
    struct ios_ref *refs = b->refs;
    if (b->refs_in_order)
        return 0; /* a stable sort would leave them as they are */
    int64_t min_rank = b->min_rank;
    int one_key = (uint64_t)b->max_rank - (uint64_t)min_rank <
                  ((uint64_t)1 << RANK_SPAN_BITS);
    struct ios_sort_pair *p = ios_big_malloc((n ? n : 1) * sizeof *p);
    if (!p)
        return -1;
    int ok = 1;
    if (one_key) {
        for (size_t i = 0; i < n; i++)
            p[i] = (struct ios_sort_pair){ref_key(&refs[i], min_rank), i};
        ok = ios_sort_pairs(p, n) == 0;
    } else {
        for (size_t i = 0; i < n; i++)
            p[i] = (struct ios_sort_pair){(uint64_t)refs[i].rank - (uint64_t)min_rank, i};
        ok = ios_sort_pairs(p, n) == 0;
        for (size_t i = 0; ok && i < n; i++)
            p[i].key = (uint64_t)refs[p[i].at].module;
        ok = ok && ios_sort_pairs(p, n) == 0;
        for (size_t i = 0; ok && i < n; i++)
            p[i].key = refs[p[i].at].file;
        ok = ok && ios_sort_pairs(p, n) == 0;
    }
    struct ios_ref *sorted = ok ? ios_sort_gather(refs, n, sizeof *refs, p) : NULL;
    free(p);
    if (!sorted)
        return -1;
    free(refs);
    b->refs = sorted;
    return 0;
}

/* The number of file id: the one it got, or the next one. */
static int number_file(struct build *b, uint64_t id, uint32_t *file)
{
    size_t f;
    int rc = ios_idmap_add(&b->files_by_id, id, b->n_files, &f);
    if (rc < 0)
        return -1;
    b->n_files += rc == 0;
    *file = (uint32_t)f;
    return 0;
}

/* Append the ref of record r (file number file) and note its rank and
 * whether the refs are still in (file, module, rank) order. */
static void add_ref(struct build *b, const iosage_record *r, int module,
                    uint32_t file)
{
    struct ios_ref ref = {r->id, module, file, r->rank, r};
    if (b->n_refs > 0) {
        const struct ios_ref *p = &b->refs[b->n_refs - 1];
        if (p->file != ref.file ? p->file > ref.file
            : p->module != ref.module ? p->module > ref.module
                                      : p->rank > ref.rank)
            b->refs_in_order = 0;
    }
    b->min_rank = ref.rank < b->min_rank ? ref.rank : b->min_rank;
    b->max_rank = ref.rank > b->max_rank ? ref.rank : b->max_rank;
    if (ref.rank > b->top_rank && ref.rank < NPROCS_MAX)
        b->top_rank = ref.rank;
    b->refs[b->n_refs++] = ref;
}

/*
 * One pass over the records of the table's modules: every record a ref,
 * but those left out (impossible.c). In a module with a record of
 * impossible key, suspect[k], every record's counters are checked too.
 * A module is known to be one when its first such record comes: when
 * records of it were taken before that, unchecked, the pass stops and
 * returns 1 (collect_refs starts again); a walk over every record's key
 * before the pass, for the few logs that have such records, read 10^6
 * records once more. 0 when done, -1 on no memory.
 */
static int collect_pass(struct build *b, int *suspect)
{
    b->min_rank = INT64_MAX;
    b->max_rank = INT64_MIN;
    b->top_rank = -1;
    b->refs_in_order = 1;
    for (int k = 0; k < N_TABLE_MODULES; k++) {
        int m = table_modules[k];
        const iosage_module_data *md = &b->log->modules[m];
        for (size_t i = 0; i < md->n_records; i++) {
            const iosage_record *r = &md->records[i];
            if (i + IOS_PREFETCH_AHEAD < md->n_records)
                ios_idmap_prefetch(&b->files_by_id,
                                   md->records[i + IOS_PREFETCH_AHEAD].id);
            if (!suspect[k] && ios_record_bad_key(r)) {
                suspect[k] = 1;
                if (i > 0)
                    return 1;
            }
            if (!r->counters && r->n_counters > 0)
                continue;
            int counter = suspect[k] ? ios_record_bad_counter(r) : -1;
            if (counter >= 0 || (suspect[k] && ios_record_bad_key(r))) {
                if (!b->skip.skip[m] &&
                    !(b->skip.skip[m] = calloc(md->n_records, 1)))
                    return -1;
                b->skip.skip[m][i] = 1;
                note_impossible(&b->t->job, m, r, counter);
                continue;
            }
            uint32_t file;
            if (number_file(b, r->id, &file) != 0)
                return -1;
            add_ref(b, r, m, file);
        }
    }
    return 0;
}

/* Forget what a stopped pass made: refs, file numbers, records left out. */
static int refs_restart(struct build *b, size_t records)
{
    b->n_refs = 0;
    b->n_files = 0;
    ios_idmap_free(&b->files_by_id);
    memset(&b->files_by_id, 0, sizeof b->files_by_id);
    for (int m = 0; m < IOSAGE_MAX_MODULES; m++) {
        free(b->skip.skip[m]);
        b->skip.skip[m] = NULL;
    }
    struct iosage_job_summary *js = &b->t->job;
    js->impossible_records = 0;
    js->impossible_module = -1;
    js->impossible_id = 0;
    js->impossible_counter = -1;
    js->impossible_value = 0;
    return ios_idmap_reserve(&b->files_by_id, records);
}

static int collect_refs(struct build *b)
{
    size_t n = 0;
    for (int k = 0; k < N_TABLE_MODULES; k++)
        n += b->log->modules[table_modules[k]].n_records;
    if (n >= UINT32_MAX)
        return -1; /* file numbers are 32 bits: 4 x 10^9 records would
                      not fit in memory anyway */
    b->refs = ios_big_malloc((n ? n : 1) * sizeof *b->refs);
    if (!b->refs || ios_idmap_reserve(&b->files_by_id, n) != 0)
        return -1;
    int suspect[N_TABLE_MODULES] = {0};
    int rc;
    while ((rc = collect_pass(b, suspect)) == 1) /* at most once a module */
        if (refs_restart(b, n) != 0)
            return -1;
    return rc == 0 ? sort_refs(b) : -1;
}

/* --- 3. rows ----------------------------------------------------------------- */

static int64_t max_raw(int64_t cur, int64_t v)
{
    return v > cur ? v : cur;
}

static void add_counts(struct iosage_file_row *row, const struct ios_layer *L,
                       const iosage_record *r)
{
    int64_t sr, sw, opens = 0, meta = 0, syncs = 0;
    row->bytes_read = ios_sadd(row->bytes_read, ios_cnt(r, L->bytes_read));
    row->bytes_written =
        ios_sadd(row->bytes_written, ios_cnt(r, L->bytes_written));
    row->reads = ios_sadd(row->reads, ios_rec_reads(L, r));
    row->writes = ios_sadd(row->writes, ios_rec_writes(L, r));
    for (int k = 0; k < 3; k++)
        opens = ios_sadd(opens, ios_cnt(r, L->opens[k]));
    for (int k = 0; k < 5; k++)
        meta = ios_sadd(meta, ios_cnt(r, L->meta[k]));
    for (int k = 0; k < 2; k++)
        syncs = ios_sadd(syncs, ios_cnt(r, L->syncs[k]));
    row->opens = ios_sadd(row->opens, opens);
    row->syncs = ios_sadd(row->syncs, syncs);
    row->meta_ops = ios_sadd(row->meta_ops, ios_sadd(opens, ios_sadd(meta, syncs)));
    ios_rec_small(L, r, &sr, &sw);
    row->small_reads = ios_sadd(row->small_reads, sr);
    row->small_writes = ios_sadd(row->small_writes, sw);
    row->tiny_ops = ios_sadd(row->tiny_ops, ios_rec_tiny(L, r));
    if (L->seq_reads >= 0) {
        row->seq_ops = ios_sadd(row->seq_ops, ios_sadd(ios_cnt(r, L->seq_reads),
                                                       ios_cnt(r, L->seq_writes)));
        row->consec_ops = ios_sadd(row->consec_ops,
                                   ios_sadd(ios_cnt(r, L->consec_reads),
                                            ios_cnt(r, L->consec_writes)));
    }
    if (L->module == IOSAGE_MOD_MPIIO) {
        int64_t coll = ios_sadd(ios_sadd(ios_cnt(r, IOSAGE_MPIIO_COLL_READS),
                                         ios_cnt(r, IOSAGE_MPIIO_COLL_WRITES)),
                                ios_sadd(ios_cnt(r, IOSAGE_MPIIO_SPLIT_READS),
                                         ios_cnt(r, IOSAGE_MPIIO_SPLIT_WRITES)));
        int64_t all = ios_sadd(ios_rec_reads(L, r), ios_rec_writes(L, r));
        row->coll_ops = ios_sadd(row->coll_ops, coll);
        row->indep_ops = ios_sadd(row->indep_ops, all > coll ? all - coll : 0);
    }
    row->max_byte_read = max_raw(row->max_byte_read,
                                 ios_cnt_raw(r, L->max_byte_read));
    row->max_byte_written = max_raw(row->max_byte_written,
                                    ios_cnt_raw(r, L->max_byte_written));
}

static void add_times(struct iosage_file_row *row, const struct ios_layer *L,
                      const iosage_record *r, int64_t nprocs)
{
    double rt = ios_fcnt(r, L->read_time), wt = ios_fcnt(r, L->write_time);
    double mt = ios_fcnt(r, L->meta_time);
    row->read_time += rt;
    row->write_time += wt;
    row->meta_time += mt;
    double slow = rt + wt + mt;
    if (r->rank < 0) {
        double st = ios_fcnt(r, L->slowest_time);
        slow = st > 0.0 ? st : slow / (double)nprocs;
    }
    if (slow > row->slowest_rank_time)
        row->slowest_rank_time = slow;
}

/* Does a rank -1 record show data moved by several ranks: its slowest rank
 * moved under 90% of its bytes (or that count is not known)? */
static int reduced_shared(const struct ios_layer *L, const iosage_record *r,
                          int64_t nprocs)
{
    double bytes = (double)ios_cnt(r, L->bytes_read) +
                   (double)ios_cnt(r, L->bytes_written);
    if (nprocs < 2 || bytes <= 0.0)
        return 0;
    int64_t sb = ios_cnt_raw(r, L->slowest_bytes);
    return sb < 0 || (double)sb < 0.9 * bytes;
}

/* Sum the records refs[from .. to) (one id and module) into row. */
static void aggregate_row(struct build *b, struct iosage_file_row *row,
                          size_t from, size_t to)
{
    const struct ios_layer *L = ios_layer_of(b->refs[from].module);
    int64_t nprocs = b->t->job.nprocs, ranks = 0, movers = 0, prev = -2;
    int reduced = 0, shared = 0;
    memset(row, 0, sizeof *row);
    row->id = b->refs[from].id;
    row->module = b->refs[from].module;
    row->seq_ops = row->consec_ops = L->seq_reads >= 0 ? 0 : -1;
    row->max_byte_read = row->max_byte_written = -1;
    row->lustre_stripe_count = -1;
    row->peer = -1;
    for (size_t i = from; i < to; i++) {
        const iosage_record *r = b->refs[i].rec;
        ios_prefetch_ref(b->refs, b->n_refs, i);
        row->records++;
        add_counts(row, L, r);
        add_times(row, L, r, nprocs);
        if (r->rank < 0) {
            reduced = 1;
            shared |= reduced_shared(L, r, nprocs);
        } else if (r->rank != prev) {
            ranks++;
            prev = r->rank;
            movers += ios_cnt(r, L->bytes_read) > 0 || ios_cnt(r, L->bytes_written) > 0;
        }
    }
    row->ranks = reduced ? nprocs : ranks;
    row->io_time = row->read_time + row->write_time + row->meta_time;
    row->flags = (reduced ? IOSAGE_FILE_REDUCED : 0u) |
                 (shared || movers >= 2 ? IOSAGE_FILE_SHARED : 0u);
}

/* --- 4. per file id ------------------------------------------------------- */

/*
 * The files' names: for each file number, the first of the log's names of
 * its id (iosage_log_name's answer). The names are walked in the log's
 * order, which is mostly the order the records name their files in, so
 * that file_name[] and the names are written and then read nearly in
 * sequence; each name's slot in the map is asked for ahead.
 */
static int names_of_files(struct build *b)
{
    const iosage_log *log = b->log;
    size_t n = log->priv ? log->n_names : 0; /* iosage_log_name's rule */
    b->file_name = ios_big_calloc(b->n_files ? b->n_files : 1,
                                  sizeof *b->file_name);
    if (!b->file_name)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (i + IOS_PREFETCH_AHEAD < n)
            ios_idmap_prefetch(&b->files_by_id,
                               log->names[i + IOS_PREFETCH_AHEAD].id);
        size_t f;
        if (ios_idmap_get(&b->files_by_id, log->names[i].id, &f) &&
            b->file_name[f] == 0)
            b->file_name[f] = i + 1;
    }
    return 0;
}

/* The log's name of file number f, or NULL. */
static const char *name_of(const struct build *b, size_t f)
{
    size_t at = b->file_name[f];
    return at ? b->log->names[at - 1].name : NULL;
}

/* The file of rows [from, to) is the next of b->groups (the layer view's
 * way to its files without looking ids up): its name and class, and the
 * group of each of its records. */
static void note_group(struct build *b, size_t from, size_t to,
                       const char *name, unsigned cls)
{
    struct fl_groups *g = &b->groups;
    if (!g->by_id)
        return;
    size_t at = g->n++; /* the file's number: files are settled in order */
    g->path[at] = name;
    g->cls[at] = cls;
    for (size_t j = b->row_start[from]; j < b->row_start[to]; j++) {
        const struct ios_ref *r = &b->refs[j];
        size_t i = (size_t)(r->rec - b->log->modules[r->module].records);
        g->group[r->module][i] = (uint32_t)at;
    }
}

/* Room in b->groups for n file ids (at most the rows), and every record
 * of the table's modules in no group yet. Without it (more records than a
 * group number holds) the layer view looks its files up by id. */
static int groups_init(struct build *b, size_t n)
{
    struct fl_groups *g = &b->groups;
    if (b->n_refs >= FL_NO_GROUP)
        return 0;
    g->path = ios_big_malloc((n ? n : 1) * sizeof *g->path);
    g->cls = ios_big_malloc((n ? n : 1) * sizeof *g->cls);
    if (!g->path || !g->cls)
        return -1;
    for (int k = 0; k < N_TABLE_MODULES; k++) {
        int m = table_modules[k];
        size_t recs = b->log->modules[m].n_records;
        if (recs == 0)
            continue;
        if (!(g->group[m] = ios_big_malloc(recs * sizeof *g->group[m])))
            return -1;
        memset(g->group[m], 0xff, recs * sizeof *g->group[m]); /* FL_NO_GROUP */
    }
    g->by_id = &b->files_by_id; /* kept */
    return 0;
}

static void groups_free(struct fl_groups *g)
{
    free(g->path);
    free(g->cls);
    for (int m = 0; m < IOSAGE_MAX_MODULES; m++)
        free(g->group[m]);
    memset(g, 0, sizeof *g);
}

/* The table's copy of a file's path for its rows (they share it): the
 * name from the log, or "(<id>)" when it has none; NULL on no memory. The
 * table keeps its own copies, so that it does not depend on the log. */
static const char *row_path(iosage_file_table *t, const char *name, uint64_t id)
{
    char buf[24];
    if (!name || !*name) {
        snprintf(buf, sizeof buf, "(%" PRIu64 ")", id);
        name = buf;
    }
    size_t len = strlen(name);
    char *p = ios_arena_alloc_filled(t->priv->strings, len + 1);
    if (p)
        memcpy(p, name, len + 1);
    return p;
}

/* Rows [from, to) are those of file number f (sorted by module: POSIX,
 * MPI-IO, STDIO, DFS). */
static int settle_file(struct build *b, size_t from, size_t to, size_t f)
{
    struct iosage_file_row *rows = b->t->rows;
    int posix = -1, mpiio = -1, moves = 0, shared = 0;
    double ftime = 0.0;
    if (f + IOS_PREFETCH_AHEAD < b->n_files)
        __builtin_prefetch(name_of(b, f + IOS_PREFETCH_AHEAD));
    const char *name = name_of(b, f);
    unsigned cls = ios_classify_path(name);
    for (size_t i = from; i < to; i++) {
        if (rows[i].module == IOSAGE_MOD_POSIX)
            posix = (int)i;
        if (rows[i].module == IOSAGE_MOD_MPIIO)
            mpiio = (int)i;
        moves |= rows[i].bytes_read > 0 || rows[i].bytes_written > 0;
        shared |= (rows[i].flags & IOSAGE_FILE_SHARED) != 0;
    }
    if (posix >= 0 && mpiio >= 0) {
        rows[posix].peer = mpiio;
        rows[mpiio].peer = posix;
        rows[posix].flags |= IOSAGE_FILE_UNDER_MPIIO;
    }
    for (size_t i = from; i < to; i++) {
        if (!(rows[i].flags & IOSAGE_FILE_UNDER_MPIIO)) {
            rows[i].flags |= IOSAGE_FILE_COUNTED;
            ftime += rows[i].io_time;
        }
    }
    const char *path = row_path(b->t, name, rows[from].id);
    if (!path)
        return -1;
    for (size_t i = from; i < to; i++) {
        rows[i].flags |= cls | (shared ? IOSAGE_FILE_SHARED : 0u);
        if (!cls && moves)
            rows[i].flags |= IOSAGE_FILE_DATA;
        rows[i].file_time = ftime;
        rows[i].path = path;
    }
    note_group(b, from, to, name, cls);
    return 0;
}

/* --- 3 and 4 together: file by file --------------------------------------- */

static int64_t row_bytes(const struct iosage_file_row *r)
{
    return ios_sadd(r->bytes_read, r->bytes_written);
}

/* Row k's sort keys (sort_rows), taken when it is built. */
static void row_keys(struct sort_keys *keys, const struct iosage_file_row *row,
                     size_t k)
{
    keys->bytes[k] = ~ios_sort_key_i64(row_bytes(row));
    keys->time[k] = ~ios_sort_key_nonneg_double(row->io_time);
    keys->id[k] = row->id;
}

static int same_row(const struct ios_ref *a, const struct ios_ref *b)
{
    return a->file == b->file && a->module == b->module;
}

/*
 * Rows, file by file: the rows of one file (consecutive in refs order),
 * then the file settled (peers, flags, its time), then what the features
 * need beyond the rows from the same records (extras.c, ranks.c) while
 * they are in the cache: three passes over the records are one. *files
 * gets the number of file ids.
 */
static int build_rows(struct build *b, struct ios_unique_bytes *ub,
                      size_t *files)
{
    size_t n = 0;
    for (size_t i = 0; i < b->n_refs; i++)
        n += i == 0 || !same_row(&b->refs[i - 1], &b->refs[i]);
    size_t n_sizes = 0;
    b->sizes = ios_big_malloc((b->n_files ? b->n_files : 1) * sizeof *b->sizes);
    /* not cleared: aggregate_row writes each row whole, and clearing 232
     * MB of rows first was one more walk over them at 10^6 rows */
    b->t->rows = ios_big_malloc((n ? n : 1) * sizeof *b->t->rows);
    b->keys.time = ios_big_malloc((n ? n : 1) * sizeof *b->keys.time);
    b->keys.bytes = ios_big_malloc((n ? n : 1) * sizeof *b->keys.bytes);
    b->keys.id = ios_big_malloc((n ? n : 1) * sizeof *b->keys.id);
    b->row_start = ios_big_malloc((n + 1) * sizeof *b->row_start);
    b->file_row = ios_big_malloc((b->n_files + 1) * sizeof *b->file_row);
    if (!b->sizes || !b->t->rows || !b->keys.time || !b->keys.bytes ||
        !b->keys.id || !b->row_start || !b->file_row ||
        groups_init(b, b->n_files) != 0 || names_of_files(b) != 0)
        return -1;
    struct iosage_file_row *rows = b->t->rows;
    size_t k = 0, from = 0, first = 0; /* first: the file's first row */
    *files = 0;
    b->row_start[0] = 0;
    for (size_t i = 1; i <= b->n_refs; i++) {
        if (i < b->n_refs && same_row(&b->refs[i], &b->refs[from]))
            continue;
        b->row_start[k] = from;
        b->row_start[k + 1] = i;
        aggregate_row(b, &rows[k], from, i);
        row_keys(&b->keys, &rows[k], k);
        k++;
        from = i;
        if (i < b->n_refs && b->refs[i].file == b->refs[i - 1].file)
            continue; /* more rows of this file */
        b->file_row[*files] = first;
        if (settle_file(b, first, k, *files) != 0)
            return -1;
        ios_ft_file(b->t, first, k, &b->t->priv->extra, b->sizes, &n_sizes);
        (*files)++;
        for (size_t r = first; r < k; r++) {
            size_t lo = b->row_start[r], hi = b->row_start[r + 1];
            ios_ft_extras_row(b->t, r, b->refs, lo, hi, &b->t->priv->extra);
            if (ios_unique_bytes_row(ub, b->t, r, b->refs, lo, hi) != 0)
                return -1;
        }
        first = k;
    }
    ios_ft_files_done(&b->t->priv->extra, b->sizes, n_sizes);
    b->t->n_rows = k;
    b->file_row[*files] = k;
    return 0;
}

/* --- 5. Lustre --------------------------------------------------------------- */

static void apply_lustre(struct build *b)
{
    const iosage_module_data *md = &b->log->modules[IOSAGE_MOD_LUSTRE];
    for (size_t i = 0; i < md->n_records; i++) {
        const iosage_record *r = &md->records[i];
        if (r->x.lustre.num_comps < 1 || !r->x.lustre.comps)
            continue;
        int64_t width = 0;
        for (int64_t c = 0; c < r->x.lustre.num_comps; c++)
            if (r->x.lustre.comps[c].stripe_count > width)
                width = r->x.lustre.comps[c].stripe_count;
        size_t f;
        if (width < 1 || !ios_idmap_get(&b->files_by_id, r->id, &f))
            continue;
        for (size_t k = b->file_row[f]; k < b->file_row[f + 1]; k++)
            if (b->t->rows[k].lustre_stripe_count < 0)
                b->t->rows[k].lustre_stripe_count = width;
    }
}

/* --- 5 and 6. job sums, order ----------------------------------------------- */

static void job_sums(iosage_file_table *t)
{
    struct iosage_job_summary *js = &t->job;
    uint64_t prev = 0;
    for (size_t i = 0; i < t->n_rows; i++) {
        const struct iosage_file_row *r = &t->rows[i];
        if (i == 0 || r->id != prev) {
            js->files++;
            js->data_files += (r->flags & IOSAGE_FILE_DATA) != 0;
            prev = r->id;
        }
        js->meta_ops = ios_sadd(js->meta_ops, r->meta_ops);
        if (!(r->flags & IOSAGE_FILE_COUNTED))
            continue;
        js->io_time += r->io_time;
        js->read_time += r->read_time;
        js->write_time += r->write_time;
        js->meta_time += r->meta_time;
    }
}

/* What the order of the rows depends on, and where the row was. Sorting
 * the rows themselves (hundreds of bytes each, which qsort's merge sort
 * copies at every level) took 83 ms on a log of 10^5 files; sorting these
 * keys and then moving each row once, 27 ms (medians of 5, alternating,
 * 2026-12-05). The key is 32 bytes: glibc's qsort sorts
 * elements above 32 bytes through an array of pointers to them, each
 * comparison a pair of cache misses on a large table, and then permutes
 * them with memcpy (the rows' count already fits an int: see where[]). */

/* Rows asked for ahead of their turn when the rows are copied in order. */
#define PERMUTE_AHEAD 8

/* Put row order[i].at at i for every i, following each cycle of the
 * permutation with one row held aside; order[i].at becomes i. The way
 * when memory for a copy is refused. */
static void permute_rows(struct iosage_file_row *rows,
                         struct ios_sort_pair *order, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (order[i].at == i)
            continue;
        struct iosage_file_row held = rows[i];
        size_t j = i;
        for (;;) {
            size_t from = order[j].at;
            order[j].at = j;
            if (from == i) {
                rows[j] = held;
                break;
            }
            rows[j] = rows[from];
            j = from;
        }
    }
}

/* order[] holds the rows sorted by I/O time and bytes, rows of equal keys
 * in the order they were built: by file number, a file's rows by module.
 * Each run of equal I/O time and bytes is sorted by id here, stably, so
 * that a file's rows keep their module order. The runs are short but for
 * the rows of no time and no bytes; only they need the ids. */
static int ties_by_id(const uint64_t *id_key, const uint64_t *bytes_key,
                      struct ios_sort_pair *order, size_t n)
{
    struct ios_sort_pair *run = NULL;
    size_t cap = 0, from = 0;
    for (size_t i = 1; i <= n; i++) {
        if (i < n && order[i].key == order[from].key &&
            bytes_key[order[i].at] == bytes_key[order[from].at])
            continue;
        size_t len = i - from;
        if (len > 1) {
            if (len > cap) {
                free(run);
                cap = len;
                if (!(run = ios_big_malloc(cap * sizeof *run)))
                    return -1;
            }
            for (size_t j = 0; j < len; j++)
                run[j] = (struct ios_sort_pair){id_key[order[from + j].at],
                                                order[from + j].at};
            if (ios_sort_pairs(run, len) != 0) {
                free(run);
                return -1;
            }
            for (size_t j = 0; j < len; j++)
                order[from + j].at = run[j].at;
        }
        from = i;
    }
    free(run);
    return 0;
}

/* Sort rows by I/O time, longest first, then bytes, most first, then id
 * and module, and remap the peer indices to the new order: two passes of
 * the stable radix sort, the less significant key first, then the ties by
 * id (ties_by_id). The keys were taken as each row was built (row_keys):
 * a walk over 10^6 rows of 232 bytes for them read 232 MB again. The key
 * arrays are freed here. */
static int sort_rows(iosage_file_table *t, struct sort_keys *k)
{
    size_t n = t->n_rows;
    uint64_t *time_key = k->time, *bytes_key = k->bytes, *id_key = k->id;
    *k = (struct sort_keys){0};
    if (n > INT_MAX) {
        free(time_key);
        free(bytes_key);
        free(id_key);
        return -1; /* where[] holds ints */
    }
    struct ios_sort_pair *order = ios_big_malloc((n ? n : 1) * sizeof *order);
    int *where = NULL;
    int ok = order != NULL;
    for (size_t i = 0; ok && i < n; i++)
        order[i] = (struct ios_sort_pair){bytes_key[i], i};
    ok = ok && ios_sort_pairs(order, n) == 0;
    for (size_t i = 0; ok && i < n; i++)
        order[i].key = time_key[order[i].at];
    ok = ok && ios_sort_pairs(order, n) == 0 &&
         ties_by_id(id_key, bytes_key, order, n) == 0;
    free(time_key);
    free(bytes_key);
    free(id_key);
    where = ok ? ios_big_malloc((n ? n : 1) * sizeof *where) : NULL;
    if (!where) {
        free(order);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        where[order[i].at] = (int)i;
    /* A copy in the new order where memory allows (its rows are read
     * independently of each other, so the reads overlap; following the
     * cycles, each move waits for the one before): on 10^6 rows 175 -> 55
     * ms (perf). The rows' old array goes before the layer view takes its
     * memory (build), so the peak does not grow. */
    struct iosage_file_row *sorted = ios_big_malloc((n ? n : 1) * sizeof *sorted);
    if (sorted) { /* each row's peer renumbered as it is copied */
        for (size_t i = 0; i < n; i++) {
            if (i + PERMUTE_AHEAD < n)
                __builtin_prefetch(&t->rows[order[i + PERMUTE_AHEAD].at]);
            sorted[i] = t->rows[order[i].at];
            if (sorted[i].peer >= 0)
                sorted[i].peer = where[sorted[i].peer];
        }
        free(t->rows);
        t->rows = sorted;
    } else {
        permute_rows(t->rows, order, n);
        for (size_t i = 0; i < n; i++)
            if (t->rows[i].peer >= 0)
                t->rows[i].peer = where[t->rows[i].peer];
    }
    free(order);
    free(where);
    return 0;
}

/* What only the rows' build reads (the layer view still wants the
 * groups, their id map and the records left out). */
static void rows_built_free(struct build *b)
{
    free(b->refs);
    free(b->row_start);
    free(b->file_name);
    free(b->file_row);
    free(b->sizes);
    b->refs = NULL;
    b->row_start = b->file_name = b->file_row = NULL;
    b->sizes = NULL;
}

/* All the build holds beside the table. */
static void build_free(struct build *b)
{
    rows_built_free(b);
    free(b->keys.time);
    free(b->keys.bytes);
    free(b->keys.id);
    ios_idmap_free(&b->files_by_id);
    groups_free(&b->groups);
    for (int m = 0; m < IOSAGE_MAX_MODULES; m++) {
        free(b->skip.skip[m]);
        b->skip.skip[m] = NULL;
    }
}

static int build(struct build *b)
{
    if (collect_refs(b) != 0)
        return -1;
    job_nprocs(b);
    b->t->job.run_time = run_time(b);
    struct ios_unique_bytes ub = {0};
    size_t files;
    if (build_rows(b, &ub, &files) != 0) {
        free(ub.v);
        return -1;
    }
    apply_lustre(b);
    job_sums(b->t);
    /* The rows in their final order before the layer view takes its
     * memory, which then reuses what the rows' old array held. */
    rows_built_free(b);
    if (sort_rows(b->t, &b->keys) != 0 ||
        fl_table_build(b->log, &b->skip, b->t->job.nprocs, b->t->job.run_time,
                       files, b->groups.by_id ? &b->groups : NULL,
                       &b->t->priv->layers) != IOSAGE_OK) {
        free(ub.v);
        return -1;
    }
    return ios_ranks_estimate(b->t, &ub);
}

iosage_status iosage_file_table_build(const iosage_log *log,
                                      iosage_file_table **out,
                                      iosage_error *err)
{
    if (!out)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "features", -1, "no output table");
    *out = NULL;
    if (!log)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "features", -1, "no log");
    iosage_file_table *t = calloc(1, sizeof *t);
    struct build b = {.log = log, .t = t};
    if (!t || !(t->priv = calloc(1, sizeof *t->priv)) ||
        !(t->priv->strings = ios_arena_create())) {
        iosage_file_table_free(t);
        return ios_fail(err, IOSAGE_E_NOMEM, log->path, "features", -1,
                        "out of memory building the file table");
    }
    t->job.impossible_module = -1;
    t->job.impossible_counter = -1;
    int rc = build(&b);
    build_free(&b);
    if (rc != 0) {
        iosage_file_table_free(t);
        return ios_fail(err, IOSAGE_E_NOMEM, log->path, "features", -1,
                        "out of memory building the file table");
    }
    *out = t;
    return IOSAGE_OK;
}

int iosage_file_table_impossible_line(const iosage_file_table *t, char *buf,
                                      size_t size)
{
    const struct iosage_job_summary *js = &t->job;
    if (js->impossible_records <= 0 || size == 0)
        return 0;
    const char *mod = iosage_module_name(js->impossible_module);
    const char *name = js->impossible_counter >= 0
                           ? iosage_counter_name(js->impossible_module,
                                                 js->impossible_counter)
                           : NULL;
    char what[160];
    if (name)
        snprintf(what, sizeof what, "%s record id %" PRIu64 ", %s = %" PRId64,
                 mod ? mod : "?", js->impossible_id, name, js->impossible_value);
    else
        snprintf(what, sizeof what, "%s record id %" PRIu64, mod ? mod : "?",
                 js->impossible_id);
    char count[32];
    ios_fmt_doc_count(count, sizeof count, (double)js->impossible_records);
    snprintf(buf, size,
             "%s record%s left out as impossible (the first: %s): "
             "the log was probably written by a Darshan runtime whose record "
             "layout is not the format's, and the records kept may be wrong "
             "too",
             count, js->impossible_records == 1 ? "" : "s", what);
    return 1;
}

void iosage_file_table_free(iosage_file_table *t)
{
    if (!t)
        return;
    if (t->priv) {
        ios_arena_destroy(t->priv->strings);
        fl_table_free(&t->priv->layers);
    }
    free(t->priv);
    free(t->rows);
    free(t);
}
