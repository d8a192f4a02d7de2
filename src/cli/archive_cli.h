/*
 * src/cli/archive_cli.h - the pieces of `iosage archive`: the command line
 * (cmd_archive.c), the dashboard's files (archive_site.c; its pages are
 * views of src/report) and the per-job report pages (archive_pages.c,
 * archive_report.c).
 */
#ifndef IOSAGE_ARCHIVE_CLI_H
#define IOSAGE_ARCHIVE_CLI_H

#include <stddef.h>

#include "ios_common.h"
#include "iosage/archive.h"

struct archive_args {
    const char *query;       /* apps, users, ..., site, sql */
    const char *args[2];     /* DB, and APP (history) or QUERY (sql) */
    int n_args;
    int format;              /* 't' text, 'c' csv, 'j' json */
    struct iosage_archive_filter filter;
    int limit_set;           /* --limit given */
    const char *out;         /* site: -o DIR */
    const char *model_dir;   /* site: --model DIR */
    long reports;            /* site: report pages (--reports), -1: all */
    long jobs;               /* site: report workers (-j) */
    long table_rows;         /* site: job table rows (--table) */
};

/* Print t on stdout as text ('t'), CSV ('c') or JSON ('j'). */
int archive_print_table(const iosage_archive_table *t, int format);

/* `iosage archive site DB -o DIR`. Returns an exit code. */
int archive_site(const struct archive_args *a);

/* --- report pages ---------------------------------------------------------- */

typedef struct archive_reporter archive_reporter;

/* The model bundle and cards used for every page; NULL (printed) when they
 * cannot be loaded. */
archive_reporter *archive_reporter_open(const char *model_dir);

/* The HTML report (src/report) of the log at path, malloc'd with its
 * length in *len; NULL with the reason in why when the log cannot be
 * analysed. */
char *archive_report_html(archive_reporter *r, const char *path, size_t *len,
                          char *why, size_t why_size);

void archive_reporter_free(archive_reporter *r);

/* Make the report pages of the first a->reports rows of jobs (all when
 * negative) in jobs_dir, keeping the pages of an earlier run whose log and
 * bundle did not change; sets has_report[i] for each row with a page.
 * Returns the number of pages, or -1 (printed) when one could not be
 * written. */
long archive_write_reports(const struct archive_args *a,
                           const iosage_archive_table *jobs, char *has_report,
                           const char *jobs_dir);

/* Write t to dir/name (0600) through a temporary file and a rename;
 * 0, or -1 (printed). */
int site_write_page(const char *dir, const char *name, const ios_text *t);


#endif
