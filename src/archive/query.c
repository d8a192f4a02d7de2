/*
 * src/archive/query.c - the questions people ask of the archive, as SQL
 * (docs/archive.md prints the same text), and a runner that turns any of
 * them into a table of text cells.
 *
 * Every query takes the same parameters:
 *   ?1 since (unix seconds, 0: no bound)  ?2 until (exclusive, 0: none)
 *   ?3 limit (-1: none)                   ?4 application (history only)
 * "I/O hours" are the job's I/O time summed over its ranks (LABELING.md),
 * in hours; "hours at stake" the I/O hours of jobs with a detected
 * pattern (an upper bound of what changes could save); "saved hours" the
 * predicted saving (NULL without savings models, docs/savings.md); "check
 * by hand" the patterns that the written criteria find and the models do
 * not report (findings.criteria_only). Weeks are named by their Monday
 * (UTC).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ios_common.h"

#define RANGE "status != 'error' AND (?1 = 0 OR start_time >= ?1) " \
              "AND (?2 = 0 OR start_time < ?2)"
#define WEEK "date(start_time, 'unixepoch', '-6 days', 'weekday 1')"
#define SUMS "count(*) AS jobs, " \
    "round(sum(io_time) / 3600.0, 3) AS io_hours, " \
    "round(sum(CASE WHEN healthy = 0 THEN io_time ELSE 0 END) / 3600.0, 3) " \
    "AS hours_at_stake, round(sum(saved_seconds) / 3600.0, 3) AS saved_hours"

static const char sql_apps_io[] =
    "SELECT app, " SUMS ", count(DISTINCT uid) AS users FROM logs WHERE "
    RANGE " GROUP BY app ORDER BY io_hours DESC, app LIMIT ?3";
static const char sql_apps_saved[] =
    "SELECT app, " SUMS ", count(DISTINCT uid) AS users FROM logs WHERE "
    RANGE " GROUP BY app ORDER BY saved_hours DESC NULLS LAST, io_hours DESC, "
    "app LIMIT ?3";
static const char sql_users_io[] =
    "SELECT uid, " SUMS ", count(DISTINCT app) AS apps FROM logs WHERE "
    RANGE " GROUP BY uid ORDER BY io_hours DESC, uid LIMIT ?3";
static const char sql_users_saved[] =
    "SELECT uid, " SUMS ", count(DISTINCT app) AS apps FROM logs WHERE "
    RANGE " GROUP BY uid ORDER BY saved_hours DESC NULLS LAST, io_hours DESC, "
    "uid LIMIT ?3";

#define JOB_COLUMNS \
    "id, job_id, uid, app, " \
    "strftime('%Y-%m-%d %H:%M', start_time, 'unixepoch') AS start, nprocs, " \
    "round(run_time, 1) AS run_time, round(io_time / 3600.0, 4) AS io_hours, " \
    "round(io_time_share, 3) AS io_share, top_pattern, " \
    "(SELECT group_concat(pattern, ' ') FROM findings f WHERE " \
    "f.log_id = logs.id AND f.detected = 1) AS patterns, " \
    "(SELECT group_concat(pattern, ' ') FROM findings f WHERE " \
    "f.log_id = logs.id AND f.criteria_only = 1) AS check_by_hand, " \
    "round(saved_seconds / 3600.0, 4) AS saved_hours, path"

static const char sql_jobs_io[] =
    "SELECT " JOB_COLUMNS " FROM logs WHERE " RANGE
    " ORDER BY io_time DESC, id LIMIT ?3";
static const char sql_jobs_saved[] =
    "SELECT " JOB_COLUMNS " FROM logs WHERE " RANGE
    " ORDER BY saved_seconds DESC NULLS LAST, io_time DESC, id LIMIT ?3";
static const char sql_patterns[] =
    "SELECT " WEEK " AS week, f.pattern, sum(f.detected = 1) AS jobs, "
    "round(sum(CASE WHEN f.detected = 1 THEN io_time ELSE 0 END) / 3600.0, 3) "
    "AS io_hours, sum(f.criteria_only = 1) AS check_by_hand FROM findings f "
    "JOIN logs ON logs.id = f.log_id WHERE (f.detected = 1 OR "
    "f.criteria_only = 1) AND " RANGE
    " GROUP BY week, f.pattern ORDER BY week, f.pattern LIMIT ?3";
static const char sql_history[] =
    "SELECT " JOB_COLUMNS " FROM logs WHERE (app = ?4 OR exe = ?4) AND "
    RANGE " ORDER BY start_time, id LIMIT ?3";
static const char sql_weeks[] =
    "SELECT " WEEK " AS week, " SUMS ", sum(healthy = 0) AS flagged_jobs "
    "FROM logs WHERE " RANGE " GROUP BY week ORDER BY week LIMIT ?3";
static const char sql_info[] =
    "SELECT count(*) AS logs, sum(status = 'ok') AS ok, "
    "sum(status = 'partial') AS partial, sum(status = 'error') AS errors, "
    "count(DISTINCT app) AS apps, count(DISTINCT uid) AS users, "
    "date(min(start_time), 'unixepoch') AS first_job, "
    "date(max(start_time), 'unixepoch') AS last_job, "
    "count(DISTINCT bundle) AS bundles, "
    "(SELECT max(user_version) FROM pragma_user_version) AS schema "
    "FROM logs WHERE (?1 = 0 OR start_time >= ?1 OR start_time IS NULL) AND "
    "(?2 = 0 OR start_time < ?2 OR start_time IS NULL) AND ?3 = ?3";

const char *iosage_archive_sql(int q, int order)
{
    int saved = order == IOSAGE_BY_SAVED;
    switch (q) {
    case IOSAGE_Q_APPS:
        return saved ? sql_apps_saved : sql_apps_io;
    case IOSAGE_Q_USERS:
        return saved ? sql_users_saved : sql_users_io;
    case IOSAGE_Q_JOBS:
    case IOSAGE_Q_TABLE:
        return saved ? sql_jobs_saved : sql_jobs_io;
    case IOSAGE_Q_PATTERNS:
        return sql_patterns;
    case IOSAGE_Q_HISTORY:
        return sql_history;
    case IOSAGE_Q_WEEKS:
        return sql_weeks;
    case IOSAGE_Q_INFO:
        return sql_info;
    default:
        return NULL;
    }
}

int iosage_archive_column(const iosage_archive_table *t, const char *name)
{
    for (int c = 0; c < t->ncol; c++)
        if (strcmp(t->cols[c], name) == 0)
            return c;
    return -1;
}

const char *iosage_archive_cell(const iosage_archive_table *t, size_t r,
                                const char *name)
{
    int c = iosage_archive_column(t, name);
    return c < 0 || r >= t->nrow ? NULL : t->cells[r * (size_t)t->ncol + (size_t)c];
}

void iosage_archive_table_free(iosage_archive_table *t)
{
    if (!t)
        return;
    for (int c = 0; c < t->ncol; c++)
        free(t->cols[c]);
    for (size_t i = 0; i < t->nrow * (size_t)t->ncol; i++)
        free(t->cells[i]);
    free(t->cols);
    free(t->numeric);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

static char *dup_or_null(const unsigned char *s)
{
    return s ? strdup((const char *)s) : NULL;
}

/* The column names of s into t. */
static int take_columns(sqlite3_stmt *s, iosage_archive_table *t)
{
    t->ncol = ios_sqlite()->column_count(s);
    t->cols = calloc((size_t)t->ncol + 1, sizeof *t->cols);
    t->numeric = calloc((size_t)t->ncol + 1, sizeof *t->numeric);
    if (!t->cols || !t->numeric)
        return -1;
    for (int c = 0; c < t->ncol; c++)
        if (!(t->cols[c] = strdup(ios_sqlite()->column_name(s, c))))
            return -1;
    return 0;
}

/* Append the current row of s to t. */
static int take_row(sqlite3_stmt *s, iosage_archive_table *t, size_t *cap)
{
    size_t n = (size_t)t->ncol;
    if (t->nrow == *cap) {
        size_t want = *cap ? *cap * 2 : 64;
        char **v = realloc(t->cells, want * (n ? n : 1) * sizeof *v);
        if (!v)
            return -1;
        t->cells = v;
        *cap = want;
    }
    char **row = t->cells + t->nrow * n;
    for (size_t c = 0; c < n; c++) {
        int type = ios_sqlite()->column_type(s, (int)c);
        row[c] = NULL;
        if (type == SQLITE_NULL)
            continue;
        if (type == SQLITE_INTEGER || type == SQLITE_FLOAT)
            t->numeric[c] = 1;
        if (!(row[c] = dup_or_null(ios_sqlite()->column_text(s, (int)c)))) {
            for (size_t k = 0; k < c; k++)
                free(row[k]);
            return -1;
        }
    }
    t->nrow++;
    return 0;
}

iosage_status iosage_archive_query(iosage_archive *a, int q,
                                   const struct iosage_archive_filter *f,
                                   iosage_archive_table *out,
                                   iosage_error *err)
{
    memset(out, 0, sizeof *out);
    const char *sql = iosage_archive_sql(q, f->order);
    if (!sql)
        return ios_fail(err, IOSAGE_E_USAGE, a->path, "archive", -1,
                        "no query %d", q);
    sqlite3_stmt *s = NULL;
    if (ios_sqlite()->prepare_v2(a->db, sql, -1, &s, NULL) != SQLITE_OK)
        return ios_archive_fail(a, IOSAGE_E_IO, "query", err);
    ios_sqlite()->bind_int64(s, 1, f->since);
    ios_sqlite()->bind_int64(s, 2, f->until);
    ios_sqlite()->bind_int64(s, 3, f->limit > 0 ? f->limit : -1);
    if (ios_sqlite()->bind_parameter_count(s) >= 4)
        ios_sqlite()->bind_text(s, 4, f->app ? f->app : "", -1, SQLITE_STATIC);
    iosage_status st = IOSAGE_OK;
    size_t cap = 0;
    int rc = SQLITE_DONE;
    if (take_columns(s, out) != 0)
        st = ios_fail(err, IOSAGE_E_NOMEM, a->path, "archive", -1,
                      "out of memory");
    while (st == IOSAGE_OK && (rc = ios_sqlite()->step(s)) == SQLITE_ROW)
        if (take_row(s, out, &cap) != 0)
            st = ios_fail(err, IOSAGE_E_NOMEM, a->path, "archive", -1,
                          "out of memory");
    if (st == IOSAGE_OK && rc != SQLITE_DONE)
        st = ios_archive_fail(a, IOSAGE_E_IO, "query", err);
    ios_sqlite()->finalize(s);
    if (st != IOSAGE_OK)
        iosage_archive_table_free(out);
    return st;
}
