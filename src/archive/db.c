/*
 * src/archive/db.c - open an archive: create the file (0600) when it is
 * missing, check that it is an iosage archive, migrate it to the current
 * schema one step per transaction, set WAL mode; and close it.
 *
 * The archive is recognised by the row ('application', 'iosage-archive')
 * of its meta table; an empty SQLite file (user_version 0, no tables) is
 * a new archive. PRAGMA user_version holds the schema version.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "ios_common.h"

double ios_archive_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

iosage_status ios_archive_fail(iosage_archive *a, iosage_status code,
                               const char *what, iosage_error *err)
{
    const char *msg = a && a->db ? ios_sqlite()->errmsg(a->db) : "no database";
    return ios_fail(err, code, a ? a->path : NULL, "archive", -1, "%s: %s",
                    what, msg);
}

iosage_status ios_archive_exec(iosage_archive *a, const char *sql,
                               iosage_error *err)
{
    char *msg = NULL;
    if (ios_sqlite()->exec(a->db, sql, NULL, NULL, &msg) == SQLITE_OK)
        return IOSAGE_OK;
    iosage_status st = ios_fail(err, IOSAGE_E_IO, a->path, "archive", -1,
                                "%s", msg ? msg : ios_sqlite()->errmsg(a->db));
    ios_sqlite()->free(msg);
    return st;
}

/* One integer from a query without parameters; -1 on failure. */
static sqlite3_int64 query_int(iosage_archive *a, const char *sql)
{
    sqlite3_stmt *s = NULL;
    sqlite3_int64 v = -1;
    if (ios_sqlite()->prepare_v2(a->db, sql, -1, &s, NULL) == SQLITE_OK &&
        ios_sqlite()->step(s) == SQLITE_ROW)
        v = ios_sqlite()->column_int64(s, 0);
    ios_sqlite()->finalize(s);
    return v;
}

/* Create path with mode 0600 when it does not exist, so that SQLite (which
 * gives its -wal and -shm files the database's mode) never makes a file
 * others can read. */
static iosage_status create_private(const char *path, iosage_error *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
        close(fd);
        return IOSAGE_OK;
    }
    if (errno == EEXIST)
        return IOSAGE_OK;
    iosage_status st = ios_fail(err, IOSAGE_E_IO, path, "archive", -1,
                                "cannot create: %s", strerror(errno));
    if (err)
        err->sys_errno = errno;
    return st;
}

/* Check that the open file is an iosage archive (or empty: new). Returns
 * the schema version (0: empty), or -1 with err filled. */
static int check_identity(iosage_archive *a, iosage_error *err)
{
    sqlite3_int64 tables = query_int(a, "SELECT count(*) FROM sqlite_schema");
    if (tables < 0) {
        ios_archive_fail(a, IOSAGE_E_CORRUPT, "not a SQLite database", err);
        return -1;
    }
    sqlite3_int64 version = query_int(a, "PRAGMA user_version");
    if (tables == 0 && version == 0)
        return 0;
    if (query_int(a, "SELECT count(*) FROM meta WHERE key = 'application' "
                     "AND value = 'iosage-archive'") != 1) {
        ios_fail(err, IOSAGE_E_CORRUPT, a->path, "archive", -1,
                 "a SQLite database, but not an iosage archive");
        return -1;
    }
    if (version < 1 || version > IOSAGE_ARCHIVE_SCHEMA_VERSION) {
        ios_fail(err, IOSAGE_E_VERSION, a->path, "archive", -1,
                 "schema version %lld; this iosage reads versions 1 to %d",
                 (long long)version, IOSAGE_ARCHIVE_SCHEMA_VERSION);
        return -1;
    }
    return (int)version;
}

/* One migration step from version v to v + 1 (v = 0: create), in one
 * transaction. */
static iosage_status migrate_step(iosage_archive *a, int v, iosage_error *err)
{
    iosage_status st = ios_archive_exec(a, "BEGIN IMMEDIATE", err);
    if (st != IOSAGE_OK)
        return st;
    if (query_int(a, "PRAGMA user_version") != v)
        return ios_archive_exec(a, "COMMIT", err); /* another writer did it */
    if (v == 0) {
        st = ios_archive_exec(a, ios_archive_schema_v1, err);
    } else if (v == 1) {
        st = ios_archive_exec(a, ios_archive_migrate_v1_v2, err);
        if (st == IOSAGE_OK)
            st = ios_archive_backfill_changes(a, err);
    } else if (v == 2) {
        st = ios_archive_exec(a, ios_archive_migrate_v2_v3, err);
    }
    if (st == IOSAGE_OK) {
        char sql[64];
        snprintf(sql, sizeof sql, "PRAGMA user_version = %d", v + 1);
        st = ios_archive_exec(a, sql, err);
    }
    if (st == IOSAGE_OK)
        return ios_archive_exec(a, "COMMIT", err);
    ios_sqlite()->exec(a->db, "ROLLBACK", NULL, NULL, NULL);
    return st;
}

/* Bring the archive to IOSAGE_ARCHIVE_SCHEMA_VERSION. migrate_step reads
 * the version again under the write lock: when a second writer migrated
 * first, there is nothing left to do. */
static iosage_status migrate(iosage_archive *a, iosage_error *err)
{
    int v = check_identity(a, err);
    while (v >= 0 && v < IOSAGE_ARCHIVE_SCHEMA_VERSION) {
        if (a->mode != IOSAGE_ARCHIVE_WRITE)
            return ios_fail(err, IOSAGE_E_VERSION, a->path, "archive", -1,
                            "schema version %d needs migrating to %d: run a "
                            "batch with --db on it first", v,
                            IOSAGE_ARCHIVE_SCHEMA_VERSION);
        iosage_status st = migrate_step(a, v, err);
        if (st != IOSAGE_OK)
            return st;
        v = check_identity(a, err);
    }
    if (v < 0)
        return err ? err->code : IOSAGE_E_CORRUPT;
    a->schema = v;
    return IOSAGE_OK;
}

/* Connection settings: WAL (readers beside a writer), a wait instead of
 * SQLITE_BUSY, cascading deletes. */
static iosage_status configure(iosage_archive *a, iosage_error *err)
{
    ios_sqlite()->busy_timeout(a->db, 10000);
    iosage_status st = ios_archive_exec(a, "PRAGMA foreign_keys = ON", err);
    if (st == IOSAGE_OK && a->mode == IOSAGE_ARCHIVE_WRITE)
        st = ios_archive_exec(a, "PRAGMA journal_mode = WAL;"
                                 "PRAGMA synchronous = NORMAL", err);
    return st;
}

iosage_status iosage_archive_open(const char *path, int mode,
                                  iosage_archive **out, iosage_error *err)
{
    *out = NULL;
    iosage_archive *a = calloc(1, sizeof *a);
    if (!a)
        return ios_fail(err, IOSAGE_E_NOMEM, path, "archive", -1,
                        "out of memory");
    snprintf(a->path, sizeof a->path, "%s", path);
    a->mode = mode;
    if (!ios_sqlite()->loaded) {
        free(a);
        return ios_fail(err, IOSAGE_E_IO, path, "archive", -1,
                        "cannot load SQLite: %s", ios_sqlite_error());
    }
    iosage_status st = IOSAGE_OK;
    struct stat sb;
    if (mode == IOSAGE_ARCHIVE_WRITE)
        st = create_private(path, err);
    else if (stat(path, &sb) != 0)
        st = ios_fail(err, IOSAGE_E_IO, path, "archive", -1,
                      "cannot open: %s", strerror(errno));
    int flags = mode == IOSAGE_ARCHIVE_WRITE ? SQLITE_OPEN_READWRITE
                                             : SQLITE_OPEN_READONLY;
    if (st == IOSAGE_OK &&
        ios_sqlite()->open_v2(path, &a->db, flags | SQLITE_OPEN_NOMUTEX, NULL) !=
            SQLITE_OK)
        st = ios_archive_fail(a, IOSAGE_E_IO, "cannot open", err);
    if (st == IOSAGE_OK)
        st = configure(a, err);
    if (st == IOSAGE_OK)
        st = migrate(a, err);
    if (st != IOSAGE_OK) {
        iosage_archive_close(a);
        return st;
    }
    *out = a;
    return IOSAGE_OK;
}

int iosage_archive_schema(const iosage_archive *a)
{
    return a->schema;
}

iosage_status iosage_archive_commit(iosage_archive *a, iosage_error *err)
{
    if (!a->in_txn)
        return IOSAGE_OK;
    a->in_txn = 0;
    a->txn_rows = 0;
    return ios_archive_exec(a, "COMMIT", err);
}

void iosage_archive_close(iosage_archive *a)
{
    if (!a)
        return;
    if (a->in_txn)
        iosage_archive_commit(a, NULL);
    sqlite3_stmt *stmts[] = {a->find, a->touch, a->del, a->ins_log,
                             a->ins_finding, a->ins_change};
    for (size_t i = 0; i < sizeof stmts / sizeof stmts[0]; i++)
        ios_sqlite()->finalize(stmts[i]);
    ios_sqlite()->close(a->db);
    free(a->dir_given);
    free(a->dir_real);
    free(a);
}

uint64_t iosage_archive_hash(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

void ios_archive_canonical(iosage_archive *a, const char *path, char *buf,
                           size_t size)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t dir_len = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);
    char *dir = slash ? strndup(path, dir_len) : strdup(".");
    if (!dir) {
        snprintf(buf, size, "%s", path);
        return;
    }
    if (!a->dir_given || strcmp(a->dir_given, dir) != 0) {
        free(a->dir_given);
        free(a->dir_real);
        a->dir_given = dir;
        a->dir_real = realpath(dir, NULL);
    } else {
        free(dir);
    }
    if (!a->dir_real)
        snprintf(buf, size, "%s", path);
    else if (strcmp(a->dir_real, "/") == 0)
        snprintf(buf, size, "/%s", base);
    else
        snprintf(buf, size, "%s/%s", a->dir_real, base);
}
