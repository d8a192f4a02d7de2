/*
 * src/features/ios_file_layers.h - the file table's per-file layer view,
 * which the criteria of the patterns read (src/patterns/p_<id>.c; the
 * labeler applies them, iosage/label.h). Part of the one table of a log:
 * iosage_file_table_build() builds it, ios_ft_layers() returns it.
 *
 * Data layout. fl_table_build() folds every POSIX, MPI-IO, STDIO and DFS
 * record of a log into one fl_file per record id, with one fl_layer per
 * module (index enum fl_layer_id), and sums each rank's I/O time and bytes:
 *
 *   file  ─┬─ layer POSIX   counts, bytes, small ops, SEQ, syncs, times
 *          ├─ layer MPIIO   ... plus independent / collective ops
 *          ├─ layer STDIO
 *          └─ layer DFS
 *   ranks: own[r] (records of rank r) + shared part (rank -1 records),
 *          an entry for each rank some record names (sorted by rank);
 *          every other rank has the shared part only (rest_time,
 *          rest_bytes): fl_rank_time(), fl_rank_summary()
 *
 * Invariants:
 *   - a file's "counted" layers are MPI-IO when it has an MPI-IO record
 *     (its POSIX and DFS records are then the same I/O seen lower down and
 *     are not counted again), else POSIX and DFS; STDIO is always counted.
 *     fl_file_time() is the sum of the counted layers' read+write+meta time.
 *   - the job's I/O time is the sum of fl_file_time() over every file.
 *   - counters of value -1 (not collected) count as 0.
 *
 * Ownership: the table owns its arrays and its layers (an arena);
 * fl_table_free() releases them (the
 * file table does, when it is freed). Paths point into the log, which must
 * outlive the table.
 */
#ifndef IOS_FEATURES_IOS_FILE_LAYERS_H
#define IOS_FEATURES_IOS_FILE_LAYERS_H

#include <stddef.h>
#include <stdint.h>

#include "iosage/darshan.h"
#include "iosage/error.h"
#include "iosage/features.h"
#include "ios_arena.h"
#include "ios_idmap.h"
#include "ios_numfmt.h"

enum fl_layer_id { FL_POSIX = 0, FL_MPIIO = 1, FL_STDIO = 2, FL_DFS = 3, FL_NLAYERS = 4 };

/* Path classes. */
enum fl_class { FL_DATA = 0, FL_STREAM = 1, FL_SYSTEM = 2 };

struct fl_layer {
    int present;            /* any record of this module for the file */
    int64_t records;        /* records folded in */
    int64_t reads, writes;  /* data operations */
    int64_t bytes_r, bytes_w;
    double small_r, small_w; /* requests under 1 MiB */
    int has_seq;            /* POSIX: SEQ_READS/WRITES are meaningful */
    int64_t seq_r, seq_w;
    int64_t indep_ops, coll_ops; /* MPI-IO: independent (incl. NB), collective */
    int64_t opens, stats, seeks, syncs; /* metadata ops (syncs: fsync+fdatasync
                                            or MPI_File_sync) */
    double counted_syncs;   /* syncs beyond 2 per rank (the ones at close) */
    int64_t writes_synced;  /* writes of the records that have counted syncs */
    int64_t max_byte;       /* highest offset touched, -1 when none */
    double t_read, t_write, t_meta;
    int64_t data_ranks;     /* ranks that moved bytes; a rank -1 record counts
                               nprocs, or 1 when one rank moved >= 90% */
    int64_t write_ranks;    /* ranks that wrote */
};

/* A file's layers: L[k] points to its layer of module k, or, when the file
 * has no record of k, to one shared empty layer (present 0, max_byte -1,
 * every count 0), so that readers need no test. Most files have one or two
 * layers: a log of 10^6 files held 800 MB of empty layers inline. */
struct fl_file {
    uint64_t id;
    const char *path;       /* from the log, or NULL when unnamed */
    int cls;                /* enum fl_class */
    int lustre_stripes;     /* stripe count from a LUSTRE record, 0 unknown */
    const struct fl_layer *L[FL_NLAYERS];
};

struct fl_table {
    size_t n, cap;
    struct fl_file *files;
    int64_t nprocs;         /* usable rank count (>= 1) */
    struct iosage_rank_io *ranks; /* a rank some record names, by rank:
                               its own I/O seconds and bytes (records of
                               its own, its parts as the slowest or
                               fastest rank of shared ones); rest_time and
                               rest_bytes apart */
    size_t n_ranks;
    double rest_time;       /* I/O seconds every rank has (its equal part
                               of shared records): all that a rank
                               without an entry has */
    double rest_bytes;      /* bytes, the same way */
    double io_time;         /* sum of fl_file_time() */
    double run_time;
    int has_timers;         /* any non-zero time in a counted layer */
    int64_t total_ops;      /* data ops of counted layers */
    int64_t data_files;     /* files for which fl_is_data() holds */
    double meta_ops;        /* fl_meta_ops_add() over every file in order */
    uint8_t *counted;       /* n entries: bit k set when layer k of the
                               file counts (fl_counted()), so that walks in
                               another order than the files' (the per-rank
                               sums) read a byte, not the layers */
    double *scratch;        /* n entries for the criteria (file sizes),
                               not cleared: each is written before it is
                               read */
    ios_idmap map;          /* file id -> index into files */
    ios_arena *layers;      /* the present layers */
};

/*
 * What the file table already knows of each file id, so that the layer view
 * looks nothing up by id (on a log of 10^6 files each lookup, of the id and
 * of its name, was a cache miss or two, and each path was classified
 * again). The file table numbers its file ids 0..n-1 in the order its
 * records first name them: by_id maps an id to its number g, path[g] is
 * the log's name of it (NULL: unnamed), cls[g] its path class
 * (ios_classify_path). group[m][i] is the number of the id of record i of
 * module m (POSIX, MPI-IO, STDIO, DFS), or FL_NO_GROUP for a record the
 * file table left out; group[m] is NULL for a module without records and
 * for every other module (LUSTRE: found by id). The file table owns the
 * arrays and the map.
 */
#define FL_NO_GROUP UINT32_MAX
struct fl_groups {
    size_t n;
    const ios_idmap *by_id;
    const char **path;
    unsigned *cls;
    uint32_t *group[IOSAGE_MAX_MODULES];
};

/* Build / free. skip: the records the file table left out (ios_features.h;
 * NULL: none). nprocs and run_time are the file table's job values;
 * files_hint is how many files to make room for at once (the file table's
 * count of ids; 0 when not known: the arrays grow as needed either way).
 * groups: the file table's ids (NULL: files are found by id, through a
 * hash map, and named and classified here). Files come in the same order
 * either way: the order in which the records name them. Returns IOSAGE_OK
 * or IOSAGE_E_NOMEM. */
struct ios_skip;
iosage_status fl_table_build(const iosage_log *log, const struct ios_skip *skip,
                             int64_t nprocs, double run_time, size_t files_hint,
                             const struct fl_groups *groups, struct fl_table *t);
void fl_table_free(struct fl_table *t);

/* Per-rank I/O seconds and bytes of any rank 0..nprocs-1 (its own part
 * plus the part every rank has). */
double fl_rank_time(const struct fl_table *t, int64_t r);
double fl_rank_bytes(const struct fl_table *t, int64_t r);

/* True when rank r has an entry of its own in t->ranks. */
int fl_rank_listed(const struct fl_table *t, int64_t r);

/* Over all nprocs ranks: sums, and the first rank of most time (slowest)
 * and of most bytes (biggest). */
struct fl_ranks {
    double sum_time, sum_bytes;
    int64_t slowest, biggest;
};
void fl_rank_summary(const struct fl_table *t, struct fl_ranks *s);

/* Counted-layer queries. */
int fl_counted(const struct fl_file *f, int layer);
double fl_file_time(const struct fl_file *f);
int fl_is_data(const struct fl_file *f);   /* moves bytes, not stream/system */
int fl_is_shared(const struct fl_file *f); /* data moved by >= 2 ranks */
int64_t fl_file_ops(const struct fl_file *f); /* data ops of counted layers */
int64_t fl_file_extent(const struct fl_file *f); /* highest offset + 1 */

/* ops plus file f's metadata operations, one layer at a time, as
 * metadata_intensity's criterion counts them: opens, stats, seeks, syncs
 * where the file system sees them (POSIX, DFS, STDIO; MPI-IO only for a
 * file without a POSIX or DFS record). A walk over the files in order
 * adds them all. */
double fl_meta_ops_add(double ops, const struct fl_file *f);

/* Share of the job's I/O time that time (or, without timers, ops) is. */
double fl_material(const struct fl_table *t, double time, double ops);

/* Read (wr 0) or write (wr 1) time and data ops of a file's counted
 * layers. */
double fl_dir_time(const struct fl_file *f, int wr);
double fl_dir_ops(const struct fl_file *f, int wr);

/* The layer whose request sizes count for a file: POSIX (or DFS), the
 * requests the file system sees, else MPI-IO when the log has no POSIX
 * record of the file. */
const struct fl_layer *fl_low_layer(const struct fl_file *f);

#endif
