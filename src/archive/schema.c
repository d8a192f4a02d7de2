/*
 * src/archive/schema.c - the SQL of the archive's schema, version by version
 * (docs/archive.md describes every column).
 *
 * A new archive is created at version 1 and migrated step by step, exactly
 * as an old archive is, so that the migration path is the path every
 * archive takes and is tested on every run.
 *
 * Version 1: logs (one row per log: identity, job, verdicts) and findings
 *            (every pattern's score and verdict per log).
 * Version 2: changes (the ranked changes of a log, with a predicted saving
 *            from the savings models, docs/savings.md) and logs.saved_seconds.
 * Version 3: findings.criteria_only (the written criteria find the pattern
 *            and the models do not report it: batch's criteria_only; NULL
 *            for the rows stored before, which were not asked).
 */
#include <string.h>

#include "internal.h"
#include "iosage/patterns.h"

const char ios_archive_schema_v1[] =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
    "INSERT INTO meta VALUES('application', 'iosage-archive');\n"
    "CREATE TABLE logs(\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  path TEXT NOT NULL UNIQUE,\n"   /* absolute, as resolved */
    "  size INTEGER NOT NULL,\n"       /* bytes, -1 when stat failed */
    "  mtime_ns INTEGER NOT NULL,\n"   /* modification time, ns since 1970 */
    "  hash TEXT NOT NULL,\n"          /* FNV-1a 64 of the bytes, hex */
    "  status TEXT NOT NULL,\n"        /* ok | partial | error */
    "  error TEXT,\n"
    "  bundle TEXT NOT NULL,\n"        /* model bundle hash, hex */
    "  analysed_at INTEGER NOT NULL,\n"/* unix seconds */
    "  job_id INTEGER, uid INTEGER, nprocs INTEGER, exe TEXT, app TEXT,\n"
    "  start_time INTEGER, end_time INTEGER,\n"
    "  run_time REAL, io_time REAL, io_time_share REAL,\n"
    "  bytes_read INTEGER, bytes_written INTEGER,\n"
    "  healthy INTEGER, gate_score REAL,\n"
    "  top_pattern TEXT, evidence TEXT);\n"
    "CREATE INDEX logs_start ON logs(start_time);\n"
    "CREATE INDEX logs_app ON logs(app, start_time);\n"
    "CREATE INDEX logs_uid ON logs(uid, start_time);\n"
    "CREATE TABLE findings(\n"
    "  log_id INTEGER NOT NULL REFERENCES logs(id) ON DELETE CASCADE,\n"
    "  pattern TEXT NOT NULL,\n"
    "  score REAL NOT NULL,\n"
    "  detected INTEGER NOT NULL,\n"
    "  PRIMARY KEY(log_id, pattern)) WITHOUT ROWID;\n"
    "CREATE INDEX findings_pattern ON findings(pattern, detected);\n"
    "PRAGMA user_version = 1;\n";

const char ios_archive_migrate_v1_v2[] =
    "ALTER TABLE logs ADD COLUMN saved_seconds REAL;\n"
    "CREATE TABLE changes(\n"
    "  log_id INTEGER NOT NULL REFERENCES logs(id) ON DELETE CASCADE,\n"
    "  rank INTEGER NOT NULL,\n"       /* 1 = the first change to make */
    "  pattern TEXT NOT NULL,\n"
    "  change TEXT NOT NULL,\n"
    "  saved_seconds REAL,\n"          /* predicted; NULL without a model */
    "  PRIMARY KEY(log_id, rank)) WITHOUT ROWID;\n";

const char ios_archive_migrate_v2_v3[] =
    "ALTER TABLE findings ADD COLUMN criteria_only INTEGER;\n";

/* Insert one change row. */
static iosage_status insert_change(iosage_archive *a, sqlite3_stmt *ins,
                                   sqlite3_int64 log_id, int rank,
                                   const char *pattern, iosage_error *err)
{
    const struct iosage_pattern *p = iosage_pattern_find(pattern);
    if (!p || !p->change)
        return IOSAGE_OK; /* a pattern this build does not know */
    ios_sqlite()->reset(ins);
    ios_sqlite()->bind_int64(ins, 1, log_id);
    ios_sqlite()->bind_int(ins, 2, rank);
    ios_sqlite()->bind_text(ins, 3, pattern, -1, SQLITE_TRANSIENT);
    ios_sqlite()->bind_text(ins, 4, p->change, -1, SQLITE_STATIC);
    if (ios_sqlite()->step(ins) != SQLITE_DONE)
        return ios_archive_fail(a, IOSAGE_E_IO, "migrating to version 2",
                                err);
    return IOSAGE_OK;
}

iosage_status ios_archive_backfill_changes(iosage_archive *a,
                                           iosage_error *err)
{
    sqlite3_stmt *sel = NULL, *ins = NULL;
    iosage_status st = IOSAGE_OK;
    if (ios_sqlite()->prepare_v2(a->db,
            "SELECT log_id, pattern FROM findings WHERE detected = 1 "
            "ORDER BY log_id, score DESC, pattern", -1, &sel, NULL) != SQLITE_OK ||
        ios_sqlite()->prepare_v2(a->db,
            "INSERT INTO changes(log_id, rank, pattern, change) "
            "VALUES(?1, ?2, ?3, ?4)", -1, &ins, NULL) != SQLITE_OK)
        st = ios_archive_fail(a, IOSAGE_E_IO, "migrating to version 2", err);
    sqlite3_int64 last = -1;
    int rank = 0, rc = SQLITE_DONE;
    while (st == IOSAGE_OK && (rc = ios_sqlite()->step(sel)) == SQLITE_ROW) {
        sqlite3_int64 id = ios_sqlite()->column_int64(sel, 0);
        rank = id == last ? rank + 1 : 1;
        last = id;
        st = insert_change(a, ins, id, rank,
                           (const char *)ios_sqlite()->column_text(sel, 1), err);
    }
    if (st == IOSAGE_OK && rc != SQLITE_DONE)
        st = ios_archive_fail(a, IOSAGE_E_IO, "migrating to version 2", err);
    ios_sqlite()->finalize(sel);
    ios_sqlite()->finalize(ins);
    return st;
}
