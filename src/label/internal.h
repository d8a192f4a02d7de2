/*
 * src/label/internal.h - the labeler's view of a log (see iosage/label.h).
 *
 * Data layout. lb_table_build() folds every POSIX, MPI-IO, STDIO and DFS
 * record of a log into one lb_file per record id, with one lb_layer per
 * module (index enum lb_layer_id), and sums each rank's I/O time and bytes:
 *
 *   file  ─┬─ layer POSIX   counts, bytes, small ops, SEQ, syncs, times
 *          ├─ layer MPIIO   ... plus independent / collective ops
 *          ├─ layer STDIO
 *          └─ layer DFS
 *   ranks: own[r] (records of rank r) + shared part (rank -1 records)
 *
 * Invariants:
 *   - a file's "counted" layers are MPI-IO when it has an MPI-IO record
 *     (its POSIX and DFS records are then the same I/O seen lower down and
 *     are not counted again), else POSIX and DFS; STDIO is always counted.
 *     lb_file_time() is the sum of the counted layers' read+write+meta time.
 *   - the job's I/O time is the sum of lb_file_time() over every file.
 *   - counters of value -1 (not collected) count as 0.
 *
 * Ownership: the table owns its arrays; lb_table_free() releases them. Paths
 * point into the log, which must outlive the table.
 */
#ifndef IOSAGE_LABEL_INTERNAL_H
#define IOSAGE_LABEL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "iosage/darshan.h"
#include "iosage/label.h"
#include "ios_idmap.h"
#include "ios_numfmt.h"

enum lb_layer_id { LB_POSIX = 0, LB_MPIIO = 1, LB_STDIO = 2, LB_DFS = 3, LB_NLAYERS = 4 };

/* Path classes. */
enum lb_class { LB_DATA = 0, LB_STREAM = 1, LB_SYSTEM = 2 };

struct lb_layer {
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

struct lb_file {
    uint64_t id;
    const char *path;       /* from the log, or NULL when unnamed */
    int cls;                /* enum lb_class */
    int lustre_stripes;     /* stripe count from a LUSTRE record, 0 unknown */
    struct lb_layer L[LB_NLAYERS];
};

struct lb_table {
    size_t n, cap;
    struct lb_file *files;
    int64_t nprocs;         /* usable rank count (>= 1) */
    double *rank_time;      /* nprocs: estimated I/O seconds per rank */
    double *rank_bytes;     /* nprocs: bytes moved per rank */
    double io_time;         /* sum of lb_file_time() */
    double run_time;
    int has_timers;         /* any non-zero time in a counted layer */
    int64_t total_ops;      /* data ops of counted layers */
    int64_t *scratch;       /* n entries for the criteria (file sizes) */
    ios_idmap map;          /* file id -> index into files */
};

/* Build / free. Returns IOSAGE_OK or IOSAGE_E_NOMEM. */
iosage_status lb_table_build(const iosage_log *log, struct lb_table *t);
void lb_table_free(struct lb_table *t);

/* Class of a path (NULL: data). */
int lb_classify_path(const char *path);

/* Counted-layer queries. */
int lb_counted(const struct lb_file *f, int layer);
double lb_file_time(const struct lb_file *f);
int lb_is_data(const struct lb_file *f);   /* moves bytes, not stream/system */
int lb_is_shared(const struct lb_file *f); /* data moved by >= 2 ranks */
int64_t lb_file_ops(const struct lb_file *f); /* data ops of counted layers */
int64_t lb_file_extent(const struct lb_file *f); /* highest offset + 1 */

/* Share of the job's I/O time that time (or, without timers, ops) is. */
double lb_material(const struct lb_table *t, double time, double ops);

/* The seven criteria: each sets present (0/1), its main measured value
 * (see iosage_label_criterion) and writes its evidence. */
typedef void (*lb_criterion)(const struct lb_table *t, int *present,
                             double *value, char *ev, size_t size);
void lb_access_granularity(const struct lb_table *t, int *present, double *value,
        char *ev, size_t size);
void lb_metadata_intensity(const struct lb_table *t, int *present, double *value,
        char *ev, size_t size);
void lb_parallelism_efficiency(const struct lb_table *t, int *present, double *value,
        char *ev, size_t size);
void lb_access_pattern(const struct lb_table *t, int *present, double *value,
        char *ev, size_t size);
void lb_interface_choice(const struct lb_table *t, int *present, double *value,
        char *ev, size_t size);
void lb_file_strategy(const struct lb_table *t, int *present, double *value,
        char *ev, size_t size);
void lb_throughput_utilization(const struct lb_table *t, int *present, double *value,
        char *ev, size_t size);

/* Numbers in the labeler's evidence: ios_fmt_label_* (ios_numfmt.h). */

#endif
