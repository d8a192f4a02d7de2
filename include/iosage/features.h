/*
 * iosage/features.h - the feature vector of a job and its per-file table.
 *
 * Features. iosage_features_compute() turns a loaded log into
 * IOSAGE_NUM_FEATURES floats with stable names (iosage_feature_name). The
 * schema is versioned: a change of any name, order or formula bumps
 * IOSAGE_FEATURE_SCHEMA_VERSION, and a model bundle records the version it
 * was trained with. Every feature is scale-invariant by construction (a
 * share, a ratio, a per-rank value or log10(1 + x) of one), so that jobs of a
 * few ranks and of thousands of ranks land in the same ranges. Every value is
 * finite for every log: a missing module or an empty denominator gives 0
 * (documented per feature in docs/features.md, which gives each formula).
 * No feature says where a log came from (module presence, executable,
 * Darshan version): only how the job did its I/O.
 *
 * Counter value -1 ("not collected", older record versions) is read as
 * "not available" and contributes nothing; it is never used as a number.
 *
 * File table. iosage_file_table_build() aggregates the records of a log per
 * (file id, module) for the data layers POSIX, MPI-IO, STDIO and DFS, and
 * sums up the job the way ../shared/darshan-logs/LABELING.md defines it (I/O
 * time, data files, shared files, per-rank time). It feeds the features, the
 * threshold rules and the evidence lines of the patterns.
 *
 * Ownership: the table owns its rows and their path strings; release it with
 * iosage_file_table_free() (accepts NULL). It does not refer to the log after
 * it is built. Nothing here prints.
 */
#ifndef IOSAGE_FEATURES_H
#define IOSAGE_FEATURES_H

#include <stddef.h>
#include <stdint.h>

#include "iosage/darshan.h"
#include "iosage/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- The per-file table ---------------------------------------------------- */

/* Row flags. */
enum iosage_file_flag {
    IOSAGE_FILE_DATA = 1u << 0,    /* a data file: moves bytes, and is not a
                                      stream or a system file */
    IOSAGE_FILE_SHARED = 1u << 1,  /* data moved by at least two ranks */
    IOSAGE_FILE_REDUCED = 1u << 2, /* has a rank -1 record (all ranks opened) */
    IOSAGE_FILE_STREAM = 1u << 3,  /* <STDIN>, <STDOUT>, <STDERR> */
    IOSAGE_FILE_SYSTEM = 1u << 4,  /* /proc, /sys, /dev, /etc, libraries,
                                      Python/Java runtimes, caches */
    IOSAGE_FILE_UNDER_MPIIO = 1u << 5, /* POSIX row of a file that also has an
                                          MPI-IO row: its time is part of the
                                          MPI-IO row's and not counted twice */
    IOSAGE_FILE_COUNTED = 1u << 6  /* the row's time counts in the job's I/O
                                      time (every row but UNDER_MPIIO ones) */
};

/* One (file id, module) aggregate. Counts are sums over the file's records
 * (a rank -1 record already sums all ranks); -1 counters are skipped. */
struct iosage_file_row {
    uint64_t id;          /* record id */
    const char *path;     /* name from the log, or "(<id>)" when unnamed */
    int module;           /* IOSAGE_MOD_POSIX, _MPIIO, _STDIO or _DFS */
    unsigned flags;       /* enum iosage_file_flag */
    int64_t ranks;        /* ranks that opened it: nprocs when a rank -1
                             record exists, else the distinct ranks seen */
    int64_t records;      /* records aggregated */
    int64_t bytes_read, bytes_written;
    int64_t reads, writes;       /* data operations of this layer */
    int64_t meta_ops;     /* opens, stats, seeks, syncs (layer-specific,
                             see docs/features.md) */
    int64_t opens;
    int64_t syncs;        /* fsync + fdatasync (POSIX), MPI_File_sync */
    int64_t small_reads, small_writes; /* requests under 1 MiB (exact 1 MiB
                                          requests removed with the ACCESS
                                          counters; STDIO: a lower bound) */
    int64_t tiny_ops;     /* requests of at most 10 KiB (10,240 bytes: the
                             histogram bound; STDIO: a lower bound) */
    int64_t seq_ops, consec_ops; /* POSIX only; -1 for other layers */
    int64_t coll_ops, indep_ops; /* MPI-IO only (split collectives count as
                                    collective, nonblocking as independent) */
    int64_t max_byte_read, max_byte_written; /* highest offsets, -1 unknown */
    double read_time, write_time, meta_time; /* seconds, summed over ranks */
    double io_time;       /* read + write + meta time of this row */
    double file_time;     /* I/O time of the whole file as counted in the
                             job (the MPI-IO row for MPI-IO files, plus
                             STDIO): same value on every row of the file */
    double slowest_rank_time; /* the slowest rank's time on this row: from
                                 F_SLOWEST_RANK_TIME of rank -1 records, else
                                 the largest per-rank record */
    int64_t lustre_stripe_count; /* widest component, -1 when no LUSTRE data */
    int peer;             /* index of the file's POSIX row (for an MPI-IO
                             row) or MPI-IO row (for a POSIX row), or -1 */
};

/* Job-level sums, with the definitions of LABELING.md. */
struct iosage_job_summary {
    int64_t nprocs;        /* from the job record; when that is impossible
                              (<= 0 or huge), the fewest processes the
                              records prove (1 + the highest rank seen or
                              named, a shared record's time over its
                              slowest rank's) */
    int nprocs_suspect;    /* 1 when the job record's nprocs was replaced */
    double run_time;       /* seconds (parser formula; when not positive, the
                              latest end timestamp of any record) */
    double io_time;        /* sum of COUNTED rows' io_time */
    double read_time, write_time, meta_time; /* the same split */
    int64_t meta_ops;      /* sum of meta_ops over all rows */
    int64_t data_files;    /* distinct ids with IOSAGE_FILE_DATA */
    int64_t files;         /* distinct ids */
    /* Per-rank estimates, the same as the labeling criteria's (LABELING.md):
     * a rank's own records plus its part of the rank -1 records (the
     * slowest rank of a rank -1 record gets its F_SLOWEST_RANK_TIME and
     * SLOWEST_RANK_BYTES, the fastest its F_FASTEST_RANK_TIME and
     * FASTEST_RANK_BYTES, every rank an equal part of the rest). Bytes
     * count on data files only. */
    double rank_time_max;  /* the slowest rank's I/O time */
    int64_t rank_time_max_rank; /* -1: every rank without records of its
                                   own (they tie) */
    double rank_time_mean; /* the per-rank times summed, / nprocs */
    double rank_bytes_max;
    int64_t rank_bytes_max_rank; /* -1 as for rank_time_max_rank */
    double rank_bytes_max_time; /* I/O time of the rank that moved most */
    double rank_bytes_mean;
    int64_t active_ranks;  /* ranks estimated to do any I/O */
    /* Records no Darshan runtime writes, left out of every row and sum:
     * record id 0 or a rank below -1 or from 10^8 on, and in a module with
     * such a record, any record with an integer counter below -2^40 or from
     * 2^56 on (logs of runtimes whose record layout differs from the
     * format's read so; see src/features/impossible.c). The first one is
     * described for the report. */
    int64_t impossible_records;
    int impossible_module;       /* IOSAGE_MOD_* of the first, -1 if none */
    uint64_t impossible_id;      /* its record id */
    int impossible_counter;      /* its first counter out of bounds, or -1 when
                                    only the id was impossible */
    int64_t impossible_value;    /* that counter's value */
};

typedef struct iosage_file_table {
    size_t n_rows;
    struct iosage_file_row *rows; /* sorted by io_time descending, then by
                                     bytes, id, module */
    struct iosage_job_summary job;
    struct ios_ft_private *priv;  /* internal */
} iosage_file_table;

/* One rank's part of the job's I/O as the per-rank estimate of the job
 * summary and of the labeling criteria sees it (its own records, and what
 * it gets as the slowest or fastest rank of rank -1 records), without the
 * equal share every rank gets. */
struct iosage_rank_io {
    int64_t rank;
    double time;   /* seconds */
    double bytes;
};

/* The per-rank estimate behind t->job's rank_* fields: the ranks in
 * [0, nprocs) that have a part of their own, in rank order, in *ranks
 * (valid while t lives), and the share every rank gets besides, in
 * *base_time and *base_bytes (may be NULL). A rank not listed has only that
 * share. Returns how many ranks are listed. */
IOSAGE_API size_t iosage_file_table_ranks(const iosage_file_table *t,
                                          const struct iosage_rank_io **ranks,
                                          double *base_time,
                                          double *base_bytes);

/* Build the table of log. On success *out is owned by the caller
 * (iosage_file_table_free). Fails only on IOSAGE_E_NOMEM or IOSAGE_E_USAGE
 * (NULL arguments); *out is NULL then and err says why. */
IOSAGE_API iosage_status iosage_file_table_build(const iosage_log *log,
                                                 iosage_file_table **out,
                                                 iosage_error *err);
IOSAGE_API void iosage_file_table_free(iosage_file_table *t);

/* One line on the records the table left out as impossible (see
 * iosage_job_summary.impossible_records) into buf, e.g. "2 records left
 * out as impossible (the first: POSIX record id 0, POSIX_OPENS =
 * -3479876609991249848) ..."; returns 0 and writes nothing when there are
 * none, else 1. */
IOSAGE_API int iosage_file_table_impossible_line(const iosage_file_table *t,
                                                 char *buf, size_t size);

/* --- The feature vector ---------------------------------------------------- */

#define IOSAGE_FEATURE_SCHEMA_VERSION 3
#define IOSAGE_NUM_FEATURES 114
/* The models' inputs: the first IOSAGE_NUM_MODEL_FEATURES features. The
 * counts after them (job_data_files_log, job_meta_ops_log) are not
 * scale-invariant; only the patterns' floors read them. */
#define IOSAGE_NUM_MODEL_FEATURES 112

/* Fill out[0 .. IOSAGE_NUM_FEATURES) for log. Every value is finite. Fails
 * only on IOSAGE_E_NOMEM or IOSAGE_E_USAGE; out is then all zeros. */
IOSAGE_API iosage_status iosage_features_compute(const iosage_log *log,
                                                 float *out,
                                                 iosage_error *err);

/* The same from a table already built for log (no allocation). */
IOSAGE_API iosage_status iosage_features_from_table(const iosage_log *log,
                                                    const iosage_file_table *t,
                                                    float *out,
                                                    iosage_error *err);

/* Stable name of feature i ("posix_small_write_share"), NULL out of range. */
IOSAGE_API const char *iosage_feature_name(int i);

/* One-line formula of feature i as docs/features.md gives it, NULL out of
 * range. */
IOSAGE_API const char *iosage_feature_formula(int i);

/* 1 when feature i is a model input (i < IOSAGE_NUM_MODEL_FEATURES); 0
 * for the floors' counts after them, and out of range. */
IOSAGE_API int iosage_feature_model_input(int i);

/* Index of a feature by name, or -1. */
IOSAGE_API int iosage_feature_index(const char *name);

#ifdef __cplusplus
}
#endif
#endif
