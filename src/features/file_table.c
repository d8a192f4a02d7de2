/*
 * src/features/file_table.c - one row per (file id, module) for the data
 * layers, and the job sums of LABELING.md.
 *
 * Build order:
 *   1. job basics: nprocs (sanitised) and run time;
 *   2. refs: every POSIX, MPI-IO, STDIO and DFS record, sorted by
 *      (id, module, rank); a run of equal (id, module) is one row;
 *   3. rows: counters summed per row (aggregate_row);
 *   4. per file id: MPI-IO/POSIX peers, which rows count in the job's I/O
 *      time, the path class, data and shared flags, the file's time; and
 *      from the file's records, while they are in the cache, the extras
 *      for the features (extras.c) and the per-rank bytes (ranks.c);
 *      3 and 4 go file by file (build_rows);
 *   5. LUSTRE stripe counts; per-rank estimates (ranks.c);
 *   6. job sums; the per-file layer view the pattern criteria read
 *      (file_layers.c); then rows sorted by I/O time (peer indices
 *      remapped).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "ios_features.h"
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
    struct fl_groups groups; /* for the layer view (settle_file); ids NULL
                                when not kept */
    struct ios_sort_pair *names; /* the log's names by id (names_by_id) */
    size_t n_names, name_at;     /* ... and the next one to look at */
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
    int64_t maxrank = -1;
    for (size_t i = 0; i < b->n_refs; i++)
        if (b->refs[i].rank > maxrank && b->refs[i].rank < NPROCS_MAX)
            maxrank = b->refs[i].rank;
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

/* refs sorted by (id, module, rank), refs of equal keys in the order they
 * were collected: three passes of the stable radix sort, the least
 * significant field first. The ranks are keyed by their distance from the
 * smallest, so that only their low bytes vary. */
static int sort_refs(struct build *b)
{
    size_t n = b->n_refs;
    struct ios_ref *refs = b->refs;
    struct ios_sort_pair *p = ios_big_malloc((n ? n : 1) * sizeof *p);
    if (!p)
        return -1;
    int ok = 1;
    int64_t min_rank = INT64_MAX;
    for (size_t i = 0; i < n; i++)
        min_rank = refs[i].rank < min_rank ? refs[i].rank : min_rank;
    for (size_t i = 0; i < n; i++)
        p[i] = (struct ios_sort_pair){(uint64_t)refs[i].rank - (uint64_t)min_rank, i};
    ok = ok && ios_sort_pairs(p, n) == 0;
    for (size_t i = 0; ok && i < n; i++)
        p[i].key = (uint64_t)refs[p[i].at].module;
    ok = ok && ios_sort_pairs(p, n) == 0;
    for (size_t i = 0; ok && i < n; i++)
        p[i].key = refs[p[i].at].id;
    ok = ok && ios_sort_pairs(p, n) == 0;
    struct ios_ref *sorted = ok ? ios_sort_gather(refs, n, sizeof *refs, p) : NULL;
    free(p);
    if (!sorted)
        return -1;
    free(refs);
    b->refs = sorted;
    return 0;
}

static int collect_refs(struct build *b)
{
    size_t n = 0;
    for (int k = 0; k < N_TABLE_MODULES; k++)
        n += b->log->modules[table_modules[k]].n_records;
    b->refs = ios_big_malloc((n ? n : 1) * sizeof *b->refs);
    if (!b->refs)
        return -1;
    for (int k = 0; k < N_TABLE_MODULES; k++) {
        int m = table_modules[k];
        const iosage_module_data *md = &b->log->modules[m];
        /* a module with a record of impossible key: its records' counters
         * are checked too (impossible.c) */
        int suspect = 0;
        for (size_t i = 0; i < md->n_records && !suspect; i++)
            suspect = ios_record_bad_key(&md->records[i]);
        for (size_t i = 0; i < md->n_records; i++) {
            const iosage_record *r = &md->records[i];
            if (!r->counters && r->n_counters > 0)
                continue;
            int counter = suspect ? ios_record_bad_counter(r) : -1;
            if (counter >= 0 || (suspect && ios_record_bad_key(r))) {
                if (!b->skip.skip[m] &&
                    !(b->skip.skip[m] = calloc(md->n_records, 1)))
                    return -1;
                b->skip.skip[m][i] = 1;
                note_impossible(&b->t->job, m, r, counter);
                continue;
            }
            b->refs[b->n_refs++] = (struct ios_ref){r->id, m, r->rank, r};
        }
    }
    return sort_refs(b);
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
 * The files' names. The rows come in id order; the log keeps its names in
 * the order they were read, behind a hash map. Looking each file up in the
 * map cost three cache misses on a large log (slot, entry, string: 0.5 us
 * a file at 10^6 files); the names sorted by id once are walked with the
 * files instead, and the entries and strings of the names ahead are asked
 * for early.
 */
static int names_by_id(struct build *b)
{
    const iosage_log *log = b->log;
    size_t n = log->priv ? log->n_names : 0; /* iosage_log_name's rule */
    b->names = ios_big_malloc((n ? n : 1) * sizeof *b->names);
    if (!b->names)
        return -1;
    for (size_t i = 0; i < n; i++)
        b->names[i] = (struct ios_sort_pair){log->names[i].id, i};
    b->n_names = n;
    b->name_at = 0;
    return ios_sort_pairs(b->names, n);
}

/* iosage_log_name(b->log, id) for ids asked in ascending order. */
static const char *name_of(struct build *b, uint64_t id)
{
    const struct iosage_name *names = b->log->names;
    size_t at = b->name_at;
    while (at < b->n_names && b->names[at].key < id)
        at++;
    b->name_at = at;
    if (at + IOS_PREFETCH_AHEAD < b->n_names)
        __builtin_prefetch(&names[b->names[at + IOS_PREFETCH_AHEAD].at]);
    if (at + IOS_PREFETCH_AHEAD / 2 < b->n_names)
        __builtin_prefetch(names[b->names[at + IOS_PREFETCH_AHEAD / 2].at].name);
    if (at < b->n_names && b->names[at].key == id)
        return names[b->names[at].at].name;
    return NULL;
}

/* The file of rows [from, to) is the next of b->groups (the layer view's
 * way to its files without looking ids up): its id, name and class, and
 * the group of each of its records. */
static void note_group(struct build *b, size_t from, size_t to,
                       const char *name, unsigned cls)
{
    struct fl_groups *g = &b->groups;
    if (!g->ids)
        return;
    size_t at = g->n++;
    g->ids[at] = b->t->rows[from].id;
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
    g->ids = ios_big_malloc((n ? n : 1) * sizeof *g->ids);
    g->path = ios_big_malloc((n ? n : 1) * sizeof *g->path);
    g->cls = ios_big_malloc((n ? n : 1) * sizeof *g->cls);
    if (!g->ids || !g->path || !g->cls)
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
    return 0;
}

static void groups_free(struct fl_groups *g)
{
    free(g->ids);
    free(g->path);
    free(g->cls);
    for (int m = 0; m < IOSAGE_MAX_MODULES; m++)
        free(g->group[m]);
    memset(g, 0, sizeof *g);
}

/* Rows [from, to) share one id (sorted by module: POSIX, MPI-IO, STDIO,
 * DFS). */
static void settle_file(struct build *b, size_t from, size_t to)
{
    struct iosage_file_row *rows = b->t->rows;
    int posix = -1, mpiio = -1, moves = 0, shared = 0;
    double ftime = 0.0;
    const char *name = name_of(b, rows[from].id);
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
    for (size_t i = from; i < to; i++) {
        rows[i].flags |= cls | (shared ? IOSAGE_FILE_SHARED : 0u);
        if (!cls && moves)
            rows[i].flags |= IOSAGE_FILE_DATA;
        rows[i].file_time = ftime;
        rows[i].path = name; /* the log's, until set_paths copies it */
    }
    note_group(b, from, to, name, cls);
}

/* --- 3 and 4 together: file by file --------------------------------------- */

static int same_row(const struct ios_ref *a, const struct ios_ref *b)
{
    return a->id == b->id && a->module == b->module;
}

/*
 * Rows, file by file: the rows of one file id (consecutive in refs order),
 * then the file settled (peers, flags, its time), then what the features
 * need beyond the rows from the same records (extras.c, ranks.c) while
 * they are in the cache. Three passes over the records by id, each a
 * random walk over the decoded region on a large log, are one. *files
 * gets the number of file ids.
 */
static int build_rows(struct build *b, struct ios_unique_bytes *ub,
                      size_t *files)
{
    size_t n = 0;
    for (size_t i = 0; i < b->n_refs; i++)
        n += i == 0 || !same_row(&b->refs[i - 1], &b->refs[i]);
    b->t->rows = ios_big_calloc(n ? n : 1, sizeof *b->t->rows);
    b->row_start = ios_big_malloc((n + 1) * sizeof *b->row_start);
    if (!b->t->rows || !b->row_start || groups_init(b, n) != 0 ||
        names_by_id(b) != 0)
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
        aggregate_row(b, &rows[k++], from, i);
        from = i;
        if (i < b->n_refs && b->refs[i].id == rows[k - 1].id)
            continue; /* more rows of this file */
        settle_file(b, first, k);
        (*files)++;
        for (size_t r = first; r < k; r++) {
            size_t lo = b->row_start[r], hi = b->row_start[r + 1];
            ios_ft_extras_row(b->t, r, b->refs, lo, hi, &b->t->priv->extra);
            if (ios_unique_bytes_row(ub, b->t, r, b->refs, lo, hi) != 0)
                return -1;
        }
        first = k;
    }
    b->t->n_rows = k;
    return 0;
}

/* --- 5. Lustre --------------------------------------------------------------- */

/* First row with id (rows sorted by id), or n_rows. */
static size_t find_id(const iosage_file_table *t, uint64_t id)
{
    size_t lo = 0, hi = t->n_rows;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->rows[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

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
        if (width < 1)
            continue;
        for (size_t k = find_id(b->t, r->id);
             k < b->t->n_rows && b->t->rows[k].id == r->id; k++)
            if (b->t->rows[k].lustre_stripe_count < 0)
                b->t->rows[k].lustre_stripe_count = width;
    }
}

/* --- 6. paths, job sums, order ------------------------------------------- */

/* Copy every row's name (settle_file left the log's in path) into one
 * block the table owns: the table outlives the log. One name lookup a
 * file, not three: on a log of 10^5 files each lookup is a cache miss.
 * The names lie in the log's order, the rows in id order: each loop asks
 * for the name IOS_PREFETCH_AHEAD rows ahead. */
static int set_paths(struct build *b)
{
    iosage_file_table *t = b->t;
    size_t total = 1;
    for (size_t i = 0; i < t->n_rows; i++) {
        const char *nm = t->rows[i].path;
        if (i + IOS_PREFETCH_AHEAD < t->n_rows)
            __builtin_prefetch(t->rows[i + IOS_PREFETCH_AHEAD].path);
        total += (nm && *nm ? strlen(nm) : 22) + 1;
    }
    char *p = malloc(total);
    if (!p)
        return -1;
    t->priv->strings = p;
    for (size_t i = 0; i < t->n_rows; i++) {
        const char *nm = t->rows[i].path;
        if (i + IOS_PREFETCH_AHEAD < t->n_rows)
            __builtin_prefetch(t->rows[i + IOS_PREFETCH_AHEAD].path);
        size_t w;
        if (nm && *nm) { /* a copy (snprintf cost 560 instructions a name) */
            w = strlen(nm);
            memcpy(p, nm, w + 1);
        } else {
            w = (size_t)snprintf(p, total, "(%" PRIu64 ")", t->rows[i].id);
        }
        t->rows[i].path = p;
        p += w + 1;
        total -= w + 1;
    }
    return 0;
}

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
 * keys and then moving each row once, in place, 27 ms (medians of 5,
 * alternating, 2026-12-05). The key is 32 bytes: glibc's qsort sorts
 * elements above 32 bytes through an array of pointers to them, each
 * comparison a pair of cache misses on a large table, and then permutes
 * them with memcpy (the rows' count already fits an int: see where[]). */
/* Put row order[i].at at i for every i, following each cycle of the
 * permutation with one row held aside; order[i].at becomes i. */
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

/* Sort rows by I/O time, longest first, then bytes, most first, then id
 * and module, and remap the peer indices to the new order. The rows are
 * built in (id, module) order, so two passes of the stable radix sort do
 * it, the less significant key first (rows of equal keys, which cannot
 * share id and module, keep their order). */
static int sort_rows(iosage_file_table *t)
{
    size_t n = t->n_rows;
    if (n > INT_MAX)
        return -1; /* where[] holds ints */
    struct ios_sort_pair *order = ios_big_malloc((n ? n : 1) * sizeof *order);
    int *where = ios_big_malloc((n ? n : 1) * sizeof *where);
    int ok = order && where;
    const struct iosage_file_row *rows = t->rows;
    for (size_t i = 0; ok && i < n; i++) {
        const struct iosage_file_row *r = &rows[i];
        order[i] = (struct ios_sort_pair){
            ~ios_sort_key_i64(ios_sadd(r->bytes_read, r->bytes_written)), i};
    }
    ok = ok && ios_sort_pairs(order, n) == 0;
    for (size_t i = 0; ok && i < n; i++)
        order[i].key = ~ios_sort_key_nonneg_double(rows[order[i].at].io_time);
    ok = ok && ios_sort_pairs(order, n) == 0;
    if (!ok) {
        free(order);
        free(where);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        where[order[i].at] = (int)i;
    permute_rows(t->rows, order, n);
    for (size_t i = 0; i < n; i++)
        if (t->rows[i].peer >= 0)
            t->rows[i].peer = where[t->rows[i].peer];
    free(order);
    free(where);
    return 0;
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
    if (ios_ft_files(b->t) != 0 ||
        fl_table_build(b->log, &b->skip, b->t->job.nprocs, b->t->job.run_time,
                       files, b->groups.ids ? &b->groups : NULL,
                       &b->t->priv->layers) != IOSAGE_OK) {
        free(ub.v);
        return -1;
    }
    if (ios_ranks_estimate(b->t, &ub) != 0)
        return -1;
    job_sums(b->t);
    if (set_paths(b) != 0)
        return -1;
    return sort_rows(b->t);
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
    if (!t || !(t->priv = calloc(1, sizeof *t->priv))) {
        free(t);
        return ios_fail(err, IOSAGE_E_NOMEM, log->path, "features", -1,
                        "out of memory building the file table");
    }
    t->job.impossible_module = -1;
    t->job.impossible_counter = -1;
    int rc = build(&b);
    free(b.refs);
    free(b.row_start);
    free(b.names);
    groups_free(&b.groups);
    for (int m = 0; m < IOSAGE_MAX_MODULES; m++)
        free(b.skip.skip[m]);
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
        free(t->priv->strings);
        fl_table_free(&t->priv->layers);
    }
    free(t->priv);
    free(t->rows);
    free(t);
}
