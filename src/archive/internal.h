/*
 * src/archive/internal.h - what the files of the archive module share.
 *
 *   db.c      open, create, migrate (schema.c holds the SQL), close
 *   select.c  which logs of a batch list need analysing
 *   add.c     one finished batch row into the database
 *   query.c   the queries of `iosage archive` and the dashboard
 *   sqlite_api.c  the SQLite functions, loaded with dlopen on first use
 */
#ifndef IOS_ARCHIVE_INTERNAL_H
#define IOS_ARCHIVE_INTERNAL_H

#include <sqlite3.h>
#include <stdint.h>

#include "iosage/archive.h"

struct iosage_archive {
    sqlite3 *db;
    char path[256];        /* for error messages (may be truncated) */
    int mode;              /* enum iosage_archive_mode */
    int schema;            /* PRAGMA user_version after migration */
    sqlite3_stmt *find;    /* SELECT the stored identity of one path */
    sqlite3_stmt *touch;   /* UPDATE size and mtime of one path */
    sqlite3_stmt *del;     /* DELETE one path's row (findings cascade) */
    sqlite3_stmt *ins_log, *ins_finding, *ins_change;
    int in_txn;            /* a write transaction is open */
    long txn_rows;         /* rows added to it */
    double txn_start;      /* monotonic seconds when it began */
    char *dir_given;       /* the directory last resolved, as given */
    char *dir_real;        /* and resolved (both malloc'd, or NULL) */
};

/* The SQLite functions used here, loaded with dlopen on first use
 * (sqlite_api.c): ios_sqlite()->step(s) instead of sqlite3_step(s). Never
 * NULL; when loaded is 0 the function pointers are not to be called and
 * ios_sqlite_error() says why ("libsqlite3.so.0: cannot open shared
 * object file ..."). The header gives only the types and constants. */
struct ios_sqlite_api {
    int loaded;
    __typeof__(&sqlite3_open_v2) open_v2;
    __typeof__(&sqlite3_close) close;
    __typeof__(&sqlite3_busy_timeout) busy_timeout;
    __typeof__(&sqlite3_exec) exec;
    __typeof__(&sqlite3_errmsg) errmsg;
    __typeof__(&sqlite3_free) free;
    __typeof__(&sqlite3_last_insert_rowid) last_insert_rowid;
    __typeof__(&sqlite3_prepare_v2) prepare_v2;
    __typeof__(&sqlite3_step) step;
    __typeof__(&sqlite3_reset) reset;
    __typeof__(&sqlite3_finalize) finalize;
    __typeof__(&sqlite3_clear_bindings) clear_bindings;
    __typeof__(&sqlite3_bind_parameter_count) bind_parameter_count;
    __typeof__(&sqlite3_bind_int) bind_int;
    __typeof__(&sqlite3_bind_int64) bind_int64;
    __typeof__(&sqlite3_bind_double) bind_double;
    __typeof__(&sqlite3_bind_text) bind_text;
    __typeof__(&sqlite3_bind_null) bind_null;
    __typeof__(&sqlite3_column_count) column_count;
    __typeof__(&sqlite3_column_name) column_name;
    __typeof__(&sqlite3_column_type) column_type;
    __typeof__(&sqlite3_column_int64) column_int64;
    __typeof__(&sqlite3_column_text) column_text;
};
const struct ios_sqlite_api *ios_sqlite(void);
const char *ios_sqlite_error(void);

/* Fill err from the database's last error: "<path>: <what>: <sqlite msg>";
 * returns code. */
iosage_status ios_archive_fail(iosage_archive *a, iosage_status code,
                               const char *what, iosage_error *err);

/* Run sql (one or more statements, no results). */
iosage_status ios_archive_exec(iosage_archive *a, const char *sql,
                               iosage_error *err);

/* The schema: the statements creating version 1, and each migration step
 * from version v to v + 1 (v >= 1), as SQL run before the step's C part. */
extern const char ios_archive_schema_v1[];
extern const char ios_archive_migrate_v1_v2[];
extern const char ios_archive_migrate_v2_v3[];

/* The C part of the v1 -> v2 step: a change row for every detected
 * finding of the rows already stored. */
iosage_status ios_archive_backfill_changes(iosage_archive *a,
                                           iosage_error *err);

/* The key of a log: its directory made absolute and symlink-free, then
 * "/" and its file name, into buf (the path as given when the directory
 * cannot be resolved). The last directory resolved is kept in a, so that
 * the logs of one directory cost one realpath. */
void ios_archive_canonical(iosage_archive *a, const char *path, char *buf,
                           size_t size);

/* Monotonic seconds. */
double ios_archive_now(void);

#endif
