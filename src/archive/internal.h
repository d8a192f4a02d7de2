/*
 * src/archive/internal.h - what the files of the archive module share.
 *
 *   db.c      open, create, migrate (schema.c holds the SQL), close
 *   select.c  which logs of a batch list need analysing
 *   add.c     one finished batch row into the database
 *   query.c   the queries of `iosage archive` and the dashboard
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
