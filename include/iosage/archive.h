/*
 * iosage/archive.h - the archive database: one SQLite row per Darshan log,
 * kept across batch runs, and the queries a centre asks of it.
 *
 * A batch with an archive is three steps:
 *   1. select (iosage_archive_select): of a batch list, keep the logs that
 *      are new, whose size or mtime changed (and whose content hash then
 *      differs), or, with reanalyze, that were analysed by another model
 *      bundle; logs whose size and mtime are those stored are skipped
 *      without being read, so a second run over a tree costs one stat per
 *      log. A log that failed is retried only when it changes;
 *   2. the batch engine analyses the selected logs (iosage_batch_run);
 *   3. each finished row goes to iosage_archive_add, which reads the file
 *      once more for its content hash and the job's start and end time,
 *      and writes the log's row, its findings and its changes in one
 *      transaction with the rows before it; a transaction is committed
 *      every IOSAGE_ARCHIVE_COMMIT_ROWS rows or IOSAGE_ARCHIVE_COMMIT_SECONDS
 *      seconds and by iosage_archive_commit. A crash loses at most the
 *      rows of the open transaction (they are analysed again next time)
 *      and never leaves half a row.
 *
 * The database runs in WAL mode, so readers (`iosage archive`, sqlite3,
 * pandas) can query it while a batch writes. The schema and the SQL of every
 * query are in docs/archive.md; PRAGMA user_version holds the schema
 * version, and iosage_archive_open migrates an older archive in place (one
 * transaction per step) and refuses a newer one.
 *
 * Predicted savings (issue 16) do not exist yet: the columns saved_seconds
 * are kept, and NULL.
 *
 * A new archive file is created 0600 (uids and paths are personal data).
 * The library never prints; every call fills an iosage_error on failure.
 * Ownership: an iosage_archive and an iosage_archive_table belong to the
 * caller and are released with their free function (which accept NULL).
 */
#ifndef IOSAGE_ARCHIVE_H
#define IOSAGE_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>

#include "iosage/batch.h"
#include "iosage/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IOSAGE_ARCHIVE_SCHEMA_VERSION 3
#define IOSAGE_ARCHIVE_COMMIT_ROWS 500
#define IOSAGE_ARCHIVE_COMMIT_SECONDS 2.0

typedef struct iosage_archive iosage_archive;

enum iosage_archive_mode {
    IOSAGE_ARCHIVE_READ = 0,  /* queries only; the file must exist */
    IOSAGE_ARCHIVE_WRITE = 1  /* created (0600) when missing, migrated */
};

/* Open the archive at path (mode: enum iosage_archive_mode). A file that
 * is not an iosage archive is refused with IOSAGE_E_CORRUPT, one with a
 * newer schema than this build knows with IOSAGE_E_VERSION; a missing
 * file in READ mode is IOSAGE_E_IO. */
IOSAGE_API iosage_status iosage_archive_open(const char *path, int mode,
                                             iosage_archive **out,
                                             iosage_error *err);

/* Commit what is pending (see iosage_archive_commit) and close. */
IOSAGE_API void iosage_archive_close(iosage_archive *a);

/* The schema version of the open archive (after migration). */
IOSAGE_API int iosage_archive_schema(const iosage_archive *a);

/* --- 1. select ------------------------------------------------------------ */

struct iosage_archive_counts {
    size_t listed;     /* logs in the input list */
    size_t fresh;      /* not in the archive */
    size_t changed;    /* size or mtime changed and the content differs */
    size_t touched;    /* size or mtime changed, same content: mtime updated */
    size_t reanalyze;  /* same file, another bundle, reanalyze asked */
    size_t unchanged;  /* skipped */
};

/* Append to todo the items of in that need analysing (see above); bundle
 * is the model bundle's hash (iosage_archive_bundle_hash as 16 hex
 * digits). counts may be NULL. */
IOSAGE_API iosage_status iosage_archive_select(iosage_archive *a,
                                               const iosage_batch_list *in,
                                               const char *bundle,
                                               int reanalyze,
                                               iosage_batch_list *todo,
                                               struct iosage_archive_counts *counts,
                                               iosage_error *err);

/* --- 3. add --------------------------------------------------------------- */

/* Store one finished row, analysed with bundle (replacing the log's
 * earlier row, findings and changes). A file that cannot be read again
 * for its hash keeps the row with an empty hash, so it is analysed again
 * next time. Commits as described above. */
IOSAGE_API iosage_status iosage_archive_add(iosage_archive *a,
                                            const struct iosage_batch_row *row,
                                            const char *bundle,
                                            iosage_error *err);

/* Commit the open transaction, if any. */
IOSAGE_API iosage_status iosage_archive_commit(iosage_archive *a,
                                               iosage_error *err);

/* --- hashes --------------------------------------------------------------- */

/* 64-bit FNV-1a of n bytes, continuing from h (start with
 * IOSAGE_ARCHIVE_HASH_SEED). A change detector, not a cryptographic hash. */
#define IOSAGE_ARCHIVE_HASH_SEED 0xcbf29ce484222325ULL
IOSAGE_API uint64_t iosage_archive_hash(uint64_t h, const void *p, size_t n);

/* --- queries -------------------------------------------------------------- */

/* A query's result: ncol named columns, nrow rows of cells; a cell is NULL
 * for SQL NULL; numeric[c] is 1 when column c holds numbers. */
typedef struct iosage_archive_table {
    int ncol;
    char **cols;
    int *numeric;
    size_t nrow;
    char **cells; /* row r, column c: cells[r * ncol + c] */
} iosage_archive_table;

IOSAGE_API void iosage_archive_table_free(iosage_archive_table *t);

/* The index of the column called name in t, or -1. */
IOSAGE_API int iosage_archive_column(const iosage_archive_table *t,
                                     const char *name);

/* Cell (row r, column name) of t; NULL for SQL NULL, an unknown column or a
 * row past the end. Points into t. */
IOSAGE_API const char *iosage_archive_cell(const iosage_archive_table *t,
                                           size_t r, const char *name);

enum iosage_archive_query {
    IOSAGE_Q_APPS = 0,     /* top applications */
    IOSAGE_Q_USERS = 1,    /* top users */
    IOSAGE_Q_JOBS = 2,     /* top single jobs */
    IOSAGE_Q_PATTERNS = 3, /* detected patterns per week */
    IOSAGE_Q_HISTORY = 4,  /* one application's jobs over time */
    IOSAGE_Q_WEEKS = 5,    /* hours in I/O and at stake per week */
    IOSAGE_Q_TABLE = 6,    /* every job (the dashboard's table) */
    IOSAGE_Q_INFO = 7      /* counts: logs, errors, bundles, date range */
};

enum iosage_archive_order {
    IOSAGE_BY_IO = 0,   /* I/O hours */
    IOSAGE_BY_SAVED = 1 /* predicted hours saved (NULL until issue 16) */
};

struct iosage_archive_filter {
    int64_t since;    /* job start, unix seconds, inclusive; 0: no bound */
    int64_t until;    /* exclusive; 0: no bound */
    int order;        /* enum iosage_archive_order */
    long limit;       /* rows; 0: no limit */
    const char *app;  /* IOSAGE_Q_HISTORY: the application (or full exe) */
};

/* The SQL text of query q with order (for docs and --sql). Static. */
IOSAGE_API const char *iosage_archive_sql(int q, int order);

/* Run query q into *out. */
IOSAGE_API iosage_status iosage_archive_query(iosage_archive *a, int q,
                                              const struct iosage_archive_filter *f,
                                              iosage_archive_table *out,
                                              iosage_error *err);

/* The application name of an exe (command line): the base name of its
 * first word, into buf. */
IOSAGE_API void iosage_archive_app_name(const char *exe, char *buf,
                                        size_t size);

#ifdef __cplusplus
}
#endif
#endif
