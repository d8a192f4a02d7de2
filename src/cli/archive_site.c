/*
 * src/cli/archive_site.c - `iosage archive site DB -o DIR`: the dashboard,
 * a static site with no server and no external asset:
 *
 *   DIR/index.html      overview (iosage_report_site_overview)
 *   DIR/jobs.html       every job (up to --table rows, largest I/O first):
 *                       iosage_report_site_jobs
 *   DIR/jobs/ID.html    the HTML report (src/report) of every job in the
 *                       table (or the first --reports); ID is the archive's
 *                       row id; made by archive_pages.c
 *
 * The pages themselves are views (src/report/site.c and site_svg.c); here:
 * the queries they show, the directories and the files. The directory is
 * created 0700 and the files 0600 (uids and paths are personal data); each
 * file is written to a temporary name and renamed, so a failure leaves no
 * half-written page.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/archive_cli.h"
#include "cli/cli.h"
#include "iosage/report.h"

/* --- files ---------------------------------------------------------------- */

/* Write t to dir/name (0600) through a temporary file and a rename. */
int site_write_page(const char *dir, const char *name, const ios_text *t)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    if (t->oom) {
        fprintf(stderr, "iosage: %s: out of memory\n", path);
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        fprintf(stderr, "iosage: %s: cannot write: %s\n", path,
                strerror(errno));
        if (fd >= 0)
            close(fd);
        unlink(tmp);
        return -1;
    }
    int ok = fwrite(t->p, 1, t->len, f) == t->len;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, "iosage: %s: cannot write: %s\n", path,
                strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* mkdir dir 0700 unless it exists. */
static int make_dir(const char *dir)
{
    if (mkdir(dir, 0700) == 0 || errno == EEXIST)
        return 0;
    fprintf(stderr, "iosage: %s: cannot create: %s\n", dir, strerror(errno));
    return -1;
}

/* --- tables of the archive ------------------------------------------------ */

/* The data the pages are built from. */
struct site_data {
    iosage_archive_table info, weeks, patterns, apps, users, jobs;
    char *has_report; /* per jobs row: a report page was written */
};

static void site_data_free(struct site_data *d)
{
    iosage_archive_table_free(&d->info);
    iosage_archive_table_free(&d->weeks);
    iosage_archive_table_free(&d->patterns);
    iosage_archive_table_free(&d->apps);
    iosage_archive_table_free(&d->users);
    iosage_archive_table_free(&d->jobs);
    free(d->has_report);
}

/* Run the queries of the pages. */
static iosage_status load_data(iosage_archive *db, const struct archive_args *a,
                               struct site_data *d, iosage_error *err)
{
    struct iosage_archive_filter f = a->filter;
    f.app = NULL;
    f.order = IOSAGE_BY_IO;
    f.limit = 0;
    iosage_status st = iosage_archive_query(db, IOSAGE_Q_INFO, &f, &d->info, err);
    if (st == IOSAGE_OK)
        st = iosage_archive_query(db, IOSAGE_Q_WEEKS, &f, &d->weeks, err);
    if (st == IOSAGE_OK)
        st = iosage_archive_query(db, IOSAGE_Q_PATTERNS, &f, &d->patterns, err);
    f.limit = IOSAGE_SITE_TOP_ROWS;
    if (st == IOSAGE_OK)
        st = iosage_archive_query(db, IOSAGE_Q_APPS, &f, &d->apps, err);
    if (st == IOSAGE_OK)
        st = iosage_archive_query(db, IOSAGE_Q_USERS, &f, &d->users, err);
    f.limit = a->table_rows > 0 ? a->table_rows : 1;
    if (st == IOSAGE_OK)
        st = iosage_archive_query(db, IOSAGE_Q_TABLE, &f, &d->jobs, err);
    if (st == IOSAGE_OK &&
        !(d->has_report = calloc(d->jobs.nrow + 1, 1)))
        st = ios_fail(err, IOSAGE_E_NOMEM, NULL, "archive", -1,
                      "out of memory");
    return st;
}

/* --- pages ---------------------------------------------------------------- */

/* Write one page made by view (NULL: out of memory) as dir/name. */
static int write_view(const char *dir, const char *name, const struct site_data *d,
                      char *(*view)(const struct iosage_site_tables *, size_t *))
{
    struct iosage_site_tables t = {&d->info, &d->weeks, &d->patterns,
                                   &d->apps, &d->users, &d->jobs, d->has_report};
    size_t len = 0;
    char *html = view(&t, &len);
    ios_text page = {.p = html, .len = len, .cap = len, .oom = html == NULL};
    int rc = site_write_page(dir, name, &page);
    free(html);
    return rc;
}

int archive_site(const struct archive_args *a)
{
    if (a->n_args != 1)
        return cli_usage_error("archive", "archive: site takes one DB");
    if (!a->out)
        return cli_usage_error("archive", "archive: site needs -o DIR");
    /* the pages must not land over the database */
    int clash = cli_refuse_clash("archive", "-o", a->out, 1, a->args, 1);
    if (clash != CLI_OK)
        return clash;
    char jobs_dir[4200];
    snprintf(jobs_dir, sizeof jobs_dir, "%s/jobs", a->out);
    iosage_error err;
    iosage_archive *db = NULL;
    struct site_data d;
    memset(&d, 0, sizeof d);
    iosage_status st = iosage_archive_open(a->args[0], IOSAGE_ARCHIVE_READ,
                                           &db, &err);
    if (st == IOSAGE_OK)
        st = load_data(db, a, &d, &err);
    iosage_archive_close(db);
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        site_data_free(&d);
        return cli_exit_for(st);
    }
    int rc = CLI_INTERNAL;
    long pages = -1;
    if (make_dir(a->out) == 0 && make_dir(jobs_dir) == 0)
        pages = archive_write_reports(a, &d.jobs, d.has_report, jobs_dir);
    if (pages >= 0 &&
        write_view(a->out, "index.html", &d, iosage_report_site_overview) == 0 &&
        write_view(a->out, "jobs.html", &d, iosage_report_site_jobs) == 0) {
        rc = CLI_OK;
        fprintf(stderr, "iosage: %s: overview, %zu jobs in the table, %ld "
                "report pages\n", a->out, d.jobs.nrow, pages);
    }
    site_data_free(&d);
    return rc;
}
