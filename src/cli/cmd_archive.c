/*
 * src/cli/cmd_archive.c - `iosage archive QUERY DB [OPTIONS]`: the questions
 * a centre asks of the archive database that `iosage batch --db` fills
 * (iosage/archive.h), as text, CSV or JSON (views of src/report), and
 * `iosage archive site` (the dashboard, src/cli/archive_site.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/archive_cli.h"
#include "cli/cli.h"
#include "iosage/archive.h"
#include "iosage/report.h"

static const struct {
    const char *name;
    int query;
    const char *what;
} queries[] = {
    {"apps", IOSAGE_Q_APPS, "top applications by I/O hours (or --by saved)"},
    {"users", IOSAGE_Q_USERS, "top users by I/O hours (or --by saved)"},
    {"jobs", IOSAGE_Q_JOBS, "largest single jobs by I/O hours (or --by saved)"},
    {"patterns", IOSAGE_Q_PATTERNS, "jobs with each detected pattern, per week"},
    {"weeks", IOSAGE_Q_WEEKS, "hours in I/O and at stake per week"},
    {"history", IOSAGE_Q_HISTORY, "one application's jobs over time (APP)"},
    {"info", IOSAGE_Q_INFO, "logs, errors, users, dates and schema"},
};

static void archive_help(void)
{
    fputs("Usage: iosage archive QUERY DB [APP] [OPTIONS]\n"
          "       iosage archive site DB -o DIR [OPTIONS]\n"
          "       iosage archive sql QUERY [--by io|saved]\n"
          "\n"
          "Ask the archive database that `iosage batch --db DB` fills. QUERY:\n",
          stdout);
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++)
        printf("  %-10s %s\n", queries[i].name, queries[i].what);
    fputs("  site       write the dashboard: a static site in DIR (0700)\n"
          "  sql        print the SQL of a QUERY (docs/archive.md has them all)\n"
          "\n"
          "  --format F     text (default), csv or json\n"
          "  --since DATE   jobs that started on or after DATE (YYYY-MM-DD, UTC)\n"
          "  --until DATE   jobs that started on or before DATE\n"
          "  --by io|saved  order by I/O hours (default) or by predicted hours\n"
          "                 saved (empty when the bundle had no savings models)\n"
          "  --limit N      at most N rows (default 20 for apps, users, jobs;\n"
          "                 none for the others)\n"
          "  -o DIR         site: the output directory (created 0700)\n"
          "  --reports N    site: report pages for the first N jobs of the table\n"
          "                 (default: all; pages of unchanged logs are kept)\n"
          "  -j, --jobs N   site: processes making report pages (default: CPUs)\n"
          "  --table N      site: rows in the job table (5000)\n"
          "  --model DIR    site: the model bundle of the report pages\n"
          "  -h, --help     show this help\n"
          "\n"
          "I/O hours: I/O time summed over ranks. Hours at stake: the I/O hours\n"
          "of jobs with a detected pattern (an upper bound of any saving).\n"
          "Exit status: 0 ok, 2 usage error, 3 the database cannot be read.\n",
          stdout);
}

/* YYYY-MM-DD (UTC) as unix seconds into *t; -1 when s is not one. */
static int parse_date(const char *s, int64_t *t)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    int y, m, d;
    char tail;
    if (sscanf(s, "%4d-%2d-%2d%c", &y, &m, &d, &tail) != 3 || m < 1 ||
        m > 12 || d < 1 || d > 31 || y < 1970)
        return -1;
    tm.tm_year = y - 1900;
    tm.tm_mon = m - 1;
    tm.tm_mday = d;
    *t = (int64_t)timegm(&tm);
    return 0;
}

/* One option with a value into a; CLI_OK or a usage exit code. */
static int take_value(struct archive_args *a, const char *opt,
                      const char *val)
{
    if (strcmp(opt, "--format") == 0) {
        if (strcmp(val, "text") && strcmp(val, "csv") && strcmp(val, "json"))
            return cli_usage_error("archive", "archive: --format takes text, "
                                   "csv or json, got '%s'", val);
        a->format = val[0];
    } else if (strcmp(opt, "--since") == 0 || strcmp(opt, "--until") == 0) {
        int64_t t;
        if (parse_date(val, &t) != 0)
            return cli_usage_error("archive", "archive: %s takes a date "
                                   "YYYY-MM-DD, got '%s'", opt, val);
        if (opt[2] == 's')
            a->filter.since = t;
        else
            a->filter.until = t + 86400; /* the whole day */
    } else if (strcmp(opt, "--by") == 0) {
        if (strcmp(val, "io") && strcmp(val, "saved"))
            return cli_usage_error("archive", "archive: --by takes io or "
                                   "saved, got '%s'", val);
        a->filter.order = val[0] == 's' ? IOSAGE_BY_SAVED : IOSAGE_BY_IO;
    } else if (strcmp(opt, "--output") == 0) {
        a->out = val;
    } else if (strcmp(opt, "--model") == 0) {
        a->model_dir = val;
    } else if (strcmp(opt, "--reports") == 0 && strcmp(val, "all") == 0) {
        a->reports = -1;
    } else {
        char *end;
        long n = strtol(val, &end, 10);
        if (end == val || *end || n < 0 || n > 100000000)
            return cli_usage_error("archive", "archive: %s takes a count, got "
                                   "'%s'", opt, val);
        if (strcmp(opt, "--limit") == 0) {
            a->filter.limit = n;
            a->limit_set = 1;
        } else if (strcmp(opt, "--reports") == 0) {
            a->reports = n;
        } else if (strcmp(opt, "-j") == 0 || strcmp(opt, "--jobs") == 0) {
            if (n < 1 || n > 1024)
                return cli_usage_error("archive", "archive: %s takes 1 to "
                                       "1024, got '%s'", opt, val);
            a->jobs = n;
        } else {
            a->table_rows = n;
        }
    }
    return CLI_OK;
}

static const struct ios_option archive_options[] = {
    {"--format", NULL, 1, 1}, {"--since", NULL, 1, 1}, {"--until", NULL, 1, 1},
    {"--by", NULL, 1, 1},     {"--output", "-o", 1, 1}, {"--model", NULL, 1, 1},
    {"--limit", NULL, 1, 1},  {"--reports", NULL, 1, 1}, {"--table", NULL, 1, 1},
    {"--jobs", "-j", 1, 1},   {0}};

/* argv[1] is the query; the rest are DB, APP and options. */
static int parse_args(int argc, char **argv, struct archive_args *a, int *done)
{
    memset(a, 0, sizeof *a);
    *done = 0;
    a->format = 't';
    a->reports = -1;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    a->jobs = cpus > 0 ? cpus : 1;
    a->table_rows = 5000;
    a->query = argv[1];
    struct cli_args it = cli_args("archive", argc - 1, argv + 1,
                                  archive_options, archive_help);
    int id;
    while ((id = cli_args_next(&it)) != CLI_ARG_END) {
        if (id == CLI_ARG_STOP)
            return cli_args_stop(&it, done);
        if (id > 0) {
            int rc = take_value(a, it.name, it.value);
            if (rc != CLI_OK)
                return rc;
        } else if (a->n_args < 2) {
            a->args[a->n_args++] = it.value;
        } else {
            return cli_usage_error("archive", "archive: unexpected '%s'",
                                   it.value);
        }
    }
    return CLI_OK;
}

/* --- output --------------------------------------------------------------- */

int archive_print_table(const iosage_archive_table *t, int format)
{
    iosage_report_archive_table(stdout, t,
                                format == 'c'   ? IOSAGE_TABLE_CSV
                                : format == 'j' ? IOSAGE_TABLE_JSON
                                                : IOSAGE_TABLE_TEXT);
    return cli_stdout_check(); /* the line comes from the exit check */
}

/* --- the queries ---------------------------------------------------------- */

static int find_query(const char *name)
{
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++)
        if (strcmp(name, queries[i].name) == 0)
            return queries[i].query;
    return -1;
}

static int run_query(struct archive_args *a, int q)
{
    if (a->n_args < 1)
        return cli_usage_error("archive", "archive: %s: no DB given",
                               a->query);
    if (q == IOSAGE_Q_HISTORY && a->n_args < 2)
        return cli_usage_error("archive", "archive: history: no APP given "
                               "(an application name, or a whole exe)");
    if (q != IOSAGE_Q_HISTORY && a->n_args > 1)
        return cli_usage_error("archive", "archive: unexpected '%s'",
                               a->args[1]);
    if (!a->limit_set && (q == IOSAGE_Q_APPS || q == IOSAGE_Q_USERS ||
                          q == IOSAGE_Q_JOBS))
        a->filter.limit = 20;
    a->filter.app = a->args[1];
    iosage_error err;
    iosage_archive *db = NULL;
    iosage_archive_table t;
    iosage_status st = iosage_archive_open(a->args[0], IOSAGE_ARCHIVE_READ,
                                           &db, &err);
    if (st == IOSAGE_OK)
        st = iosage_archive_query(db, q, &a->filter, &t, &err);
    iosage_archive_close(db);
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    int rc = archive_print_table(&t, a->format);
    iosage_archive_table_free(&t);
    return rc;
}

/* `iosage archive sql QUERY`: the SQL text, with its parameters named. */
static int print_sql(const struct archive_args *a)
{
    int q = a->n_args == 1 ? find_query(a->args[0]) : -1;
    if (q < 0)
        return cli_usage_error("archive", "archive: sql takes one QUERY name");
    printf("-- ?1 since, ?2 until (unix seconds, 0: none), ?3 limit (-1: "
           "none)%s\n%s;\n", q == IOSAGE_Q_HISTORY ? ", ?4 application" : "",
           iosage_archive_sql(q, a->filter.order));
    return CLI_OK;
}

int cmd_archive(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error("archive", "archive: no QUERY given");
    if (cli_is_help(argv[1])) {
        archive_help();
        return CLI_OK;
    }
    struct archive_args a;
    int done, rc = parse_args(argc, argv, &a, &done);
    if (rc != CLI_OK || done)
        return rc;
    if (strcmp(a.query, "site") == 0)
        return archive_site(&a);
    if (strcmp(a.query, "sql") == 0)
        return print_sql(&a);
    int q = find_query(a.query);
    if (q < 0)
        return cli_usage_error("archive", "archive: unknown query '%s'",
                               a.query);
    return run_query(&a, q);
}
