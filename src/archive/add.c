/*
 * src/archive/add.c - one finished batch row into the archive: the log's
 * row (identity, job, verdicts), its findings (every pattern's score) and
 * its changes (the detected patterns' changes, best score first), replacing
 * what was stored for the same path.
 *
 * Rows go into one open transaction, committed every
 * IOSAGE_ARCHIVE_COMMIT_ROWS rows or IOSAGE_ARCHIVE_COMMIT_SECONDS seconds:
 * a crash loses at most that transaction, never half of a row.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "internal.h"
#include "ios_common.h"
#include "iosage/darshan.h"
#include "iosage/patterns.h"

static const char sql_insert_log[] =
    "INSERT INTO logs(path, size, mtime_ns, hash, status, error, bundle, "
    "analysed_at, job_id, uid, nprocs, exe, app, start_time, end_time, "
    "run_time, io_time, io_time_share, bytes_read, bytes_written, healthy, "
    "gate_score, top_pattern, evidence, saved_seconds) VALUES(?1, ?2, ?3, ?4, "
    "?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, "
    "?20, ?21, ?22, ?23, ?24, ?25)";

/* What the archive reads from the file itself, beside the row. */
struct file_facts {
    int64_t size, mtime_ns;
    char hash[17];             /* "" when the file could not be read */
    int has_times;
    int64_t start_time, end_time;
};

/* Stat and read path: identity, hash and (for a readable log) the job's
 * start and end time. */
static void read_facts(const char *path, int readable, struct file_facts *f)
{
    memset(f, 0, sizeof *f);
    struct stat sb;
    f->size = -1;
    if (stat(path, &sb) == 0) {
        f->size = (int64_t)sb.st_size;
        f->mtime_ns = (int64_t)sb.st_mtim.tv_sec * 1000000000LL +
                      sb.st_mtim.tv_nsec;
    }
    uint8_t *buf = NULL;
    size_t len = 0;
    if (ios_read_file(path, 1, &buf, &len, NULL) != IOSAGE_OK)
        return;
    uint64_t h = iosage_archive_hash(IOSAGE_ARCHIVE_HASH_SEED, buf, len);
    snprintf(f->hash, sizeof f->hash, "%016llx", (unsigned long long)h);
    iosage_reader *r = NULL;
    if (readable &&
        iosage_reader_open_mem(buf, len, path, 0, &r, NULL) == IOSAGE_OK) {
        const struct iosage_job *job = iosage_reader_job(r);
        f->has_times = 1;
        f->start_time = job->start_time_sec;
        f->end_time = job->end_time_sec;
        iosage_reader_close(r);
    }
    free(buf);
}

static iosage_status prepare(iosage_archive *a, iosage_error *err)
{
    struct {
        sqlite3_stmt **s;
        const char *sql;
    } want[] = {
        {&a->del, "DELETE FROM logs WHERE path = ?1"},
        {&a->ins_log, sql_insert_log},
        {&a->ins_finding, "INSERT INTO findings(log_id, pattern, score, "
                          "detected, criteria_only) VALUES(?1, ?2, ?3, ?4, ?5)"},
        {&a->ins_change, "INSERT INTO changes(log_id, rank, pattern, change, "
                         "saved_seconds) VALUES(?1, ?2, ?3, ?4, ?5)"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!*want[i].s &&
            ios_sqlite()->prepare_v2(a->db, want[i].sql, -1, want[i].s, NULL) !=
                SQLITE_OK)
            return ios_archive_fail(a, IOSAGE_E_IO, "prepare", err);
    return IOSAGE_OK;
}

static const char *status_name(int status)
{
    return status == IOSAGE_BATCH_OK ? "ok"
           : status == IOSAGE_BATCH_PARTIAL ? "partial" : "error";
}

/* Bind the job and verdict columns (?9 .. ?24) of a readable log. */
static void bind_job(sqlite3_stmt *s, const struct iosage_batch_row *row,
                     const struct file_facts *f)
{
    char app[256];
    iosage_archive_app_name(row->exe, app, sizeof app);
    ios_sqlite()->bind_int64(s, 9, row->job_id);
    ios_sqlite()->bind_int64(s, 10, row->uid);
    ios_sqlite()->bind_int64(s, 11, row->nprocs);
    ios_sqlite()->bind_text(s, 12, row->exe ? row->exe : "", -1, SQLITE_STATIC);
    ios_sqlite()->bind_text(s, 13, app, -1, SQLITE_TRANSIENT);
    if (f->has_times) {
        ios_sqlite()->bind_int64(s, 14, f->start_time);
        ios_sqlite()->bind_int64(s, 15, f->end_time);
    }
    ios_sqlite()->bind_double(s, 16, row->run_time);
    ios_sqlite()->bind_double(s, 17, row->io_time);
    ios_sqlite()->bind_double(s, 18, row->io_time_share);
    ios_sqlite()->bind_int64(s, 19, row->bytes_read);
    ios_sqlite()->bind_int64(s, 20, row->bytes_written);
    ios_sqlite()->bind_int(s, 21, row->healthy);
    ios_sqlite()->bind_double(s, 22, row->gate_score);
    const struct iosage_pattern *top = iosage_pattern_get(row->top_pattern);
    if (top)
        ios_sqlite()->bind_text(s, 23, top->id, -1, SQLITE_STATIC);
    if (row->evidence)
        ios_sqlite()->bind_text(s, 24, row->evidence, -1, SQLITE_STATIC);
    /* rank-seconds, as io_time: the share of the I/O time the best change
     * saves, of the I/O time summed over ranks */
    if (!isnan(row->best_saving))
        ios_sqlite()->bind_double(s, 25, row->best_saving * row->io_time);
}

/* The logs row; its id into *id. */
static iosage_status insert_log(iosage_archive *a,
                                const struct iosage_batch_row *row,
                                const char *key, const char *bundle,
                                const struct file_facts *f, sqlite3_int64 *id,
                                iosage_error *err)
{
    sqlite3_stmt *s = a->ins_log;
    ios_sqlite()->reset(s);
    ios_sqlite()->clear_bindings(s);
    ios_sqlite()->bind_text(s, 1, key, -1, SQLITE_STATIC);
    ios_sqlite()->bind_int64(s, 2, f->size);
    ios_sqlite()->bind_int64(s, 3, f->mtime_ns);
    ios_sqlite()->bind_text(s, 4, f->hash, -1, SQLITE_STATIC);
    ios_sqlite()->bind_text(s, 5, status_name(row->status), -1, SQLITE_STATIC);
    if (row->error)
        ios_sqlite()->bind_text(s, 6, row->error, -1, SQLITE_STATIC);
    ios_sqlite()->bind_text(s, 7, bundle, -1, SQLITE_STATIC);
    ios_sqlite()->bind_int64(s, 8, (sqlite3_int64)time(NULL));
    if (row->status != IOSAGE_BATCH_ERROR)
        bind_job(s, row, f);
    if (ios_sqlite()->step(s) != SQLITE_DONE)
        return ios_archive_fail(a, IOSAGE_E_IO, "insert", err);
    *id = ios_sqlite()->last_insert_rowid(a->db);
    return IOSAGE_OK;
}

/* 1 when detected pattern a's change goes before b's: the larger
 * predicted saving first (none last), then the higher score. */
static int change_before(const struct iosage_batch_row *row, int a, int b)
{
    double sa = row->saving[a], sb = row->saving[b];
    if (isnan(sa) != isnan(sb))
        return !isnan(sa);
    if (!isnan(sa) && sa != sb)
        return sa > sb;
    return row->score[a] > row->score[b];
}

/* One findings row per pattern and one changes row per detected pattern,
 * the largest predicted saving first (best score first without savings
 * models). */
static iosage_status insert_findings(iosage_archive *a, sqlite3_int64 id,
                                     const struct iosage_batch_row *row,
                                     iosage_error *err)
{
    int order[IOSAGE_MAX_PATTERNS], n = 0;
    for (int k = 0; k < row->n_patterns && k < IOSAGE_MAX_PATTERNS; k++) {
        const struct iosage_pattern *p = iosage_pattern_get(k);
        if (!p)
            continue;
        sqlite3_stmt *s = a->ins_finding;
        ios_sqlite()->reset(s);
        ios_sqlite()->bind_int64(s, 1, id);
        ios_sqlite()->bind_text(s, 2, p->id, -1, SQLITE_STATIC);
        ios_sqlite()->bind_double(s, 3, row->score[k]);
        ios_sqlite()->bind_int(s, 4, row->detected[k] != 0);
        ios_sqlite()->bind_int(s, 5, row->criteria_only[k] != 0);
        if (ios_sqlite()->step(s) != SQLITE_DONE)
            return ios_archive_fail(a, IOSAGE_E_IO, "insert finding", err);
        if (!row->detected[k])
            continue;
        int j = n++; /* insertion sort, change_before first */
        while (j > 0 && change_before(row, k, order[j - 1])) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
    for (int r = 0; r < n; r++) {
        const struct iosage_pattern *p = iosage_pattern_get(order[r]);
        sqlite3_stmt *s = a->ins_change;
        ios_sqlite()->reset(s);
        ios_sqlite()->bind_int64(s, 1, id);
        ios_sqlite()->bind_int(s, 2, r + 1);
        ios_sqlite()->bind_text(s, 3, p->id, -1, SQLITE_STATIC);
        ios_sqlite()->bind_text(s, 4, p->change ? p->change : "", -1, SQLITE_STATIC);
        if (isnan(row->saving[order[r]]))
            ios_sqlite()->bind_null(s, 5);
        else
            ios_sqlite()->bind_double(s, 5, row->saving[order[r]] * row->io_time);
        if (ios_sqlite()->step(s) != SQLITE_DONE)
            return ios_archive_fail(a, IOSAGE_E_IO, "insert change", err);
    }
    return IOSAGE_OK;
}

/* Open a write transaction when none is. */
static iosage_status begin(iosage_archive *a, iosage_error *err)
{
    if (a->in_txn)
        return IOSAGE_OK;
    iosage_status st = ios_archive_exec(a, "BEGIN IMMEDIATE", err);
    if (st == IOSAGE_OK) {
        a->in_txn = 1;
        a->txn_rows = 0;
        a->txn_start = ios_archive_now();
    }
    return st;
}

iosage_status iosage_archive_add(iosage_archive *a,
                                 const struct iosage_batch_row *row,
                                 const char *bundle, iosage_error *err)
{
    if (a->mode != IOSAGE_ARCHIVE_WRITE)
        return ios_fail(err, IOSAGE_E_USAGE, a->path, "archive", -1,
                        "opened for reading");
    char key[4096];
    ios_archive_canonical(a, row->file, key, sizeof key);
    struct file_facts f;
    read_facts(row->file, row->status != IOSAGE_BATCH_ERROR, &f);
    iosage_status st = prepare(a, err);
    if (st == IOSAGE_OK)
        st = begin(a, err);
    if (st != IOSAGE_OK)
        return st;
    ios_sqlite()->reset(a->del);
    ios_sqlite()->bind_text(a->del, 1, key, -1, SQLITE_STATIC);
    sqlite3_int64 id = 0;
    if (ios_sqlite()->step(a->del) != SQLITE_DONE)
        st = ios_archive_fail(a, IOSAGE_E_IO, "replace", err);
    ios_sqlite()->reset(a->del);
    if (st == IOSAGE_OK)
        st = insert_log(a, row, key, bundle, &f, &id, err);
    if (st == IOSAGE_OK && row->status != IOSAGE_BATCH_ERROR)
        st = insert_findings(a, id, row, err);
    ios_sqlite()->reset(a->ins_log);
    if (st != IOSAGE_OK) {
        /* the whole open transaction goes: never half a row */
        ios_sqlite()->exec(a->db, "ROLLBACK", NULL, NULL, NULL);
        a->in_txn = 0;
        return st;
    }
    a->txn_rows++;
    if (a->txn_rows >= IOSAGE_ARCHIVE_COMMIT_ROWS ||
        ios_archive_now() - a->txn_start >= IOSAGE_ARCHIVE_COMMIT_SECONDS)
        return iosage_archive_commit(a, err);
    return IOSAGE_OK;
}

void iosage_archive_app_name(const char *exe, char *buf, size_t size)
{
    if (!exe)
        exe = "";
    while (*exe == ' ' || *exe == '\t')
        exe++;
    size_t n = strcspn(exe, " \t");
    const char *base = exe;
    for (size_t i = 0; i < n; i++)
        if (exe[i] == '/' && i + 1 < n)
            base = exe + i + 1;
    size_t len = n - (size_t)(base - exe);
    if (len == 0) {
        snprintf(buf, size, "%s", "(unknown)");
        return;
    }
    snprintf(buf, size, "%.*s", (int)len, base);
}
