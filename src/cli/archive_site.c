/*
 * src/cli/archive_site.c - `iosage archive site DB -o DIR`: the dashboard,
 * a static site with no server and no external asset:
 *
 *   DIR/index.html      overview: hours in I/O and hours at stake per week,
 *                       patterns per week (inline SVG), top applications,
 *                       top users, largest single jobs
 *   DIR/jobs.html       every job (up to --table rows, largest I/O first) in
 *                       a table a small inline script sorts and filters
 *   DIR/jobs/ID.html    the HTML report (src/report) of every job in the
 *                       table (or the first --reports); ID is the archive's
 *                       row id; made by archive_pages.c
 *
 * Every page carries a Content-Security-Policy that allows no request at
 * all (inline style and script only), and every string that comes from a
 * log (paths, command lines, evidence) is HTML-escaped. The directory is
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
#include "iosage/patterns.h"

#define TOP_ROWS 10

static const char *const colors[] = {"#1f77b4", "#d62728", "#2ca02c",
                                     "#ff7f0e", "#9467bd", "#8c564b",
                                     "#e377c2", "#17becf"};

static const char page_style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222;"
    "background:#f6f7f9}main{max-width:1280px;margin:0 auto;padding:16px}"
    "nav{background:#23395d;padding:10px 16px}nav a{color:#fff;margin-right:"
    "18px;text-decoration:none;font-weight:600}h1{font-size:22px;margin:8px 0}"
    "h2{font-size:17px;margin:22px 0 8px}.sub{color:#555}.kpis{display:flex;"
    "gap:12px;flex-wrap:wrap}.kpi{background:#fff;border:1px solid #dde;"
    "border-radius:6px;padding:10px 16px;min-width:150px}.kpi b{display:block;"
    "font-size:24px}.kpi small{color:#666}.chart{background:#fff;border:1px "
    "solid #dde;border-radius:6px;width:100%;max-width:900px;margin:6px 0}"
    ".ct{font-weight:600;font-size:14px}.ax{font-size:11px;fill:#555}.grid{"
    "stroke:#e3e3e8}table{border-collapse:collapse;background:#fff;margin:4px "
    "0;font-size:13px}th,td{border:1px solid #dde;padding:3px 8px;text-align:"
    "left}td.n{text-align:right;font-variant-numeric:tabular-nums}th{"
    "background:#eef1f6}#jobs th{cursor:pointer}#jobs th[aria-sort="
    "descending]::after{content:' \\25BC'}#jobs th[aria-sort=ascending]::"
    "after{content:' \\25B2'}.cols{display:flex;gap:24px;flex-wrap:wrap}"
    ".path{color:#666;font-size:12px;word-break:break-all}#jobs td{"
    "white-space:nowrap}#jobs td.path{white-space:normal;min-width:260px}"
    "input,select{font-size:14px;padding:4px;margin-right:8px}";

/* Rows shown at first, and added by each "more" click: a browser lays
 * out a few hundred table rows quickly, not thousands. */
#define TABLE_PAGE 200

/* Sorting and filtering of the job table: click a header to sort (numbers
 * by value), type to keep the rows containing the text, pick a pattern;
 * the first `limit` matching rows are shown, "more" shows more. */
static const char table_script[] =
    "(function(){var tb=document.querySelector('#jobs tbody');"
    "var rows=Array.prototype.slice.call(tb.rows),limit=200;"
    "var q=document.getElementById('q'),pat=document.getElementById('pat'),"
    "n=document.getElementById('n'),more=document.getElementById('more');"
    "function apply(){var s=q.value.toLowerCase(),p=pat.value,hit=0;"
    "rows.forEach(function(r){var ok=(!s||r.textContent.toLowerCase()"
    ".indexOf(s)>=0)&&(!p||(' '+r.getAttribute('data-p')+' ').indexOf(' '+p+"
    "' ')>=0);if(ok)hit++;r.hidden=!ok||hit>limit;});"
    "n.textContent=hit+' of '+rows.length+' jobs match'+(hit>limit?"
    "', the first '+limit+' shown':'');more.hidden=hit<=limit;}"
    "function key(r,i){return r.cells[i].textContent;}"
    "var ths=document.querySelectorAll('#jobs th');"
    "Array.prototype.forEach.call(ths,function(th,i){th.addEventListener("
    "'click',function(){var num=th.getAttribute('data-t')==='n';"
    "var dir=th.getAttribute('aria-sort')==='descending'?1:-1;"
    "Array.prototype.forEach.call(ths,function(h){h.removeAttribute("
    "'aria-sort');});th.setAttribute('aria-sort',dir>0?'ascending':"
    "'descending');rows.sort(function(a,b){var x=key(a,i),y=key(b,i);"
    "if(num){x=parseFloat(x);y=parseFloat(y);if(isNaN(x))x=-Infinity;"
    "if(isNaN(y))y=-Infinity;return x===y?0:(x<y?-dir:dir);}"
    "return x<y?-dir:(x>y?dir:0);});"
    "rows.forEach(function(r){tb.appendChild(r);});apply();});});"
    "more.addEventListener('click',function(){limit+=1000;apply();});"
    "q.addEventListener('input',apply);pat.addEventListener('change',apply);"
    "apply();})();";

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

/* Column c of t by name, or -1. */
static int col(const iosage_archive_table *t, const char *name)
{
    for (int c = 0; c < t->ncol; c++)
        if (strcmp(t->cols[c], name) == 0)
            return c;
    return -1;
}

/* Cell (r, name) of t, or NULL. */
const char *site_cell(const iosage_archive_table *t, size_t r,
                      const char *name)
{
    int c = col(t, name);
    return c < 0 || r >= t->nrow ? NULL : t->cells[r * (size_t)t->ncol + (size_t)c];
}

static double num(const char *s)
{
    return s ? strtod(s, NULL) : 0;
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
    f.limit = TOP_ROWS;
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

static void page_start(ios_text *o, const char *title, const char *prefix)
{
    page_put(o, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
                 "charset=\"utf-8\"><meta http-equiv=\"Content-Security-"
                 "Policy\" content=\"default-src 'none'; style-src "
                 "'unsafe-inline'; script-src 'unsafe-inline'; img-src "
                 "data:\"><meta name=\"viewport\" content=\"width=device-"
                 "width\"><title>");
    html_put(o, title);
    ios_text_printf(o, "</title><style>%s</style></head><body><nav><a href=\""
                    "%sindex.html\">Overview</a><a href=\"%sjobs.html\">Jobs"
                    "</a></nav><main>\n", page_style, prefix, prefix);
}

static void page_end(ios_text *o)
{
    page_put(o, "</main></body></html>\n");
}

/* One table cell: numbers right-aligned, NULL as "-", text escaped. */
static void td(ios_text *o, const char *s, int numeric)
{
    page_put(o, numeric ? "<td class=\"n\">" : "<td>");
    html_put(o, s ? s : "-");
    page_put(o, "</td>");
}

/* A whole table t with the columns named in cols (header text = name). */
static void simple_table(ios_text *o, const iosage_archive_table *t,
                         const char *const *cols)
{
    page_put(o, "<table><tr>");
    for (int k = 0; cols[k]; k++) {
        page_put(o, "<th>");
        html_put(o, cols[k]);
        page_put(o, "</th>");
    }
    page_put(o, "</tr>");
    for (size_t r = 0; r < t->nrow; r++) {
        page_put(o, "<tr>");
        for (int k = 0; cols[k]; k++) {
            int c = col(t, cols[k]);
            td(o, site_cell(t, r, cols[k]), c >= 0 && t->numeric[c]);
        }
        page_put(o, "</tr>");
    }
    page_put(o, "</table>\n");
}

static void kpi(ios_text *o, const char *value, const char *label,
                const char *note)
{
    page_put(o, "<div class=\"kpi\"><b>");
    html_put(o, value);
    page_put(o, "</b>");
    html_put(o, label);
    if (note) {
        page_put(o, "<br><small>");
        html_put(o, note);
        page_put(o, "</small>");
    }
    page_put(o, "</div>");
}

/* The headline numbers: sums over the weeks table. */
static void overview_kpis(ios_text *o, const struct site_data *d)
{
    double jobs = 0, io = 0, stake = 0, flagged = 0, gain = 0;
    int have_gain = 0;
    for (size_t r = 0; r < d->weeks.nrow; r++) {
        jobs += num(site_cell(&d->weeks, r, "jobs"));
        io += num(site_cell(&d->weeks, r, "io_hours"));
        stake += num(site_cell(&d->weeks, r, "hours_at_stake"));
        flagged += num(site_cell(&d->weeks, r, "flagged_jobs"));
        const char *g = site_cell(&d->weeks, r, "saved_hours");
        if (g && g[0]) {
            have_gain = 1;
            gain += num(g);
        }
    }
    char v[5][64];
    snprintf(v[0], sizeof v[0], "%.0f", jobs);
    snprintf(v[1], sizeof v[1], "%.1f", io);
    snprintf(v[2], sizeof v[2], "%.1f", stake);
    snprintf(v[3], sizeof v[3], "%.0f", flagged);
    page_put(o, "<div class=\"kpis\">");
    kpi(o, v[0], "jobs", NULL);
    kpi(o, v[1], "hours in I/O", "I/O time summed over ranks");
    kpi(o, v[2], "hours at stake", "I/O hours of jobs with a pattern");
    kpi(o, v[3], "jobs with a pattern", NULL);
    snprintf(v[4], sizeof v[4], "%.1f", gain);
    if (have_gain)
        kpi(o, v[4], "hours to gain", "predicted saving of each job's best "
            "change (docs/savings.md)");
    else
        kpi(o, "n/a", "hours to gain", "the model bundle that analysed these "
            "logs had no savings models");
    page_put(o, "</div>\n");
}

/* Chart 1: hours in I/O and hours at stake per week. */
static void chart_hours(ios_text *o, const struct site_data *d,
                        const char **labels, double *v)
{
    size_t n = d->weeks.nrow;
    for (size_t r = 0; r < n; r++) {
        labels[r] = site_cell(&d->weeks, r, "week");
        v[r] = num(site_cell(&d->weeks, r, "io_hours"));
        v[n + r] = num(site_cell(&d->weeks, r, "hours_at_stake"));
    }
    struct svg_series s[2] = {{"hours in I/O", colors[0], v},
                              {"hours at stake", colors[1], v + n}};
    svg_bars(o, "Hours in I/O per week (week of Monday, UTC)", "hours",
             labels, n, s, 2);
}

/* Chart 2: jobs with each pattern per week. */
static void chart_patterns(ios_text *o, const struct site_data *d,
                           const char **labels, double *v)
{
    size_t n = d->weeks.nrow;
    int np = iosage_pattern_count();
    struct svg_series s[IOSAGE_MAX_PATTERNS];
    memset(v, 0, sizeof *v * n * (size_t)np);
    for (size_t r = 0; r < d->patterns.nrow; r++) {
        const char *week = site_cell(&d->patterns, r, "week");
        int k = iosage_pattern_index(site_cell(&d->patterns, r, "pattern"));
        for (size_t w = 0; k >= 0 && week && w < n; w++)
            if (labels[w] && strcmp(labels[w], week) == 0)
                v[(size_t)k * n + w] = num(site_cell(&d->patterns, r, "jobs"));
    }
    for (int k = 0; k < np; k++)
        s[k] = (struct svg_series){iosage_pattern_get(k)->id,
                                   colors[(size_t)k % 8], v + (size_t)k * n};
    svg_lines(o, "Jobs with each pattern per week", "jobs", labels, n, s, np);
}

/* The largest jobs, with a link to their report. */
static void largest_jobs(ios_text *o, const struct site_data *d)
{
    static const char *const cols[] = {"start", "job_id", "uid", "app",
                                       "nprocs", "io_hours", "io_share",
                                       "patterns", NULL};
    page_put(o, "<table><tr>");
    for (int k = 0; cols[k]; k++)
        ios_text_printf(o, "<th>%s</th>", cols[k]);
    page_put(o, "<th>report</th></tr>");
    for (size_t r = 0; r < d->jobs.nrow && r < TOP_ROWS; r++) {
        page_put(o, "<tr>");
        for (int k = 0; cols[k]; k++)
            td(o, site_cell(&d->jobs, r, cols[k]),
               d->jobs.numeric[col(&d->jobs, cols[k])]);
        if (d->has_report[r])
            ios_text_printf(o, "<td><a href=\"jobs/%s.html\">report</a></td>",
                            site_cell(&d->jobs, r, "id"));
        else
            page_put(o, "<td>-</td>");
        page_put(o, "</tr>");
    }
    page_put(o, "</table>\n");
}

static int write_overview(const char *dir, const struct site_data *d)
{
    ios_text o = {0};
    const char *first = site_cell(&d->info, 0, "first_job");
    const char *last = site_cell(&d->info, 0, "last_job");
    page_start(&o, "I/O archive: overview", "");
    page_put(&o, "<h1>I/O of the archived jobs</h1><p class=\"sub\">");
    ios_text_printf(&o, "%s logs (%s unreadable), %s applications, %s users; "
                    "jobs from ", site_cell(&d->info, 0, "logs"),
                    site_cell(&d->info, 0, "errors") ? site_cell(&d->info, 0, "errors") : "0",
                    site_cell(&d->info, 0, "apps"), site_cell(&d->info, 0, "users"));
    html_put(&o, first ? first : "-");
    page_put(&o, " to ");
    html_put(&o, last ? last : "-");
    page_put(&o, ".</p>\n");
    overview_kpis(&o, d);
    size_t n = d->weeks.nrow;
    const char **labels = calloc(n + 1, sizeof *labels);
    double *v = calloc((n + 1) * (size_t)(iosage_pattern_count() + 2),
                       sizeof *v);
    if (!labels || !v) {
        free(labels);
        free(v);
        ios_text_free(&o);
        fputs("iosage: archive: out of memory\n", stderr);
        return -1;
    }
    page_put(&o, "<h2>Hours per week</h2>");
    chart_hours(&o, d, labels, v);
    page_put(&o, "<h2>Patterns over time</h2>");
    chart_patterns(&o, d, labels, v);
    free(labels);
    free(v);
    static const char *const app_cols[] = {"app", "jobs", "users", "io_hours",
                                           "hours_at_stake", "saved_hours",
                                           NULL};
    static const char *const user_cols[] = {"uid", "jobs", "apps", "io_hours",
                                            "hours_at_stake", "saved_hours",
                                            NULL};
    page_put(&o, "<div class=\"cols\"><div><h2>Top applications</h2>");
    simple_table(&o, &d->apps, app_cols);
    page_put(&o, "</div><div><h2>Top users</h2>");
    simple_table(&o, &d->users, user_cols);
    page_put(&o, "</div></div><h2>Largest single jobs</h2>");
    largest_jobs(&o, d);
    page_put(&o, "<p class=\"sub\"><a href=\"jobs.html\">All jobs</a>: "
                 "sortable and filterable.</p>");
    page_end(&o);
    int rc = site_write_page(dir, "index.html", &o);
    ios_text_free(&o);
    return rc;
}

/* The job table: columns with their type for sorting. */
static const struct {
    const char *name;
    int numeric;
} table_cols[] = {
    {"start", 0}, {"job_id", 1}, {"uid", 1}, {"app", 0}, {"nprocs", 1},
    {"run_time", 1}, {"io_hours", 1}, {"io_share", 1}, {"patterns", 0},
    {"saved_hours", 1}, {"path", 0},
};
#define N_TABLE_COLS (sizeof table_cols / sizeof table_cols[0])

static void job_row(ios_text *o, const struct site_data *d, size_t r)
{
    const char *pats = site_cell(&d->jobs, r, "patterns");
    page_put(o, r < TABLE_PAGE ? "<tr data-p=\"" : "<tr hidden data-p=\"");
    html_put(o, pats ? pats : "healthy");
    page_put(o, "\">");
    for (size_t k = 0; k < N_TABLE_COLS; k++) {
        const char *s = site_cell(&d->jobs, r, table_cols[k].name);
        if (strcmp(table_cols[k].name, "path") == 0) {
            page_put(o, "<td class=\"path\">");
            if (d->has_report[r])
                ios_text_printf(o, "<a href=\"jobs/%s.html\">",
                                site_cell(&d->jobs, r, "id"));
            html_put(o, s ? s : "-");
            page_put(o, d->has_report[r] ? "</a></td>" : "</td>");
        } else {
            td(o, s, table_cols[k].numeric);
        }
    }
    page_put(o, "</tr>\n");
}

static int write_jobs(const char *dir, const struct site_data *d)
{
    ios_text o = {0};
    page_start(&o, "I/O archive: jobs", "");
    ios_text_printf(&o, "<h1>Jobs by hours in I/O</h1><p class=\"sub\">The %zu "
                    "jobs with the most I/O hours. Click a column to sort; a "
                    "path links to the job's report when one was made.</p>",
                    d->jobs.nrow);
    page_put(&o, "<p><input id=\"q\" type=\"search\" placeholder=\""
                 "filter: app, user, path...\"><select id=\"pat\"><option "
                 "value=\"\">any pattern</option><option value=\"healthy\">"
                 "healthy</option>");
    for (int k = 0; k < iosage_pattern_count(); k++)
        ios_text_printf(&o, "<option value=\"%s\">%s</option>",
                        iosage_pattern_get(k)->id, iosage_pattern_get(k)->id);
    page_put(&o, "</select><span id=\"n\"></span> <button id=\"more\" "
             "hidden>show 1000 more</button></p><table id=\"jobs\">"
                 "<thead><tr>");
    for (size_t k = 0; k < N_TABLE_COLS; k++)
        ios_text_printf(&o, "<th data-t=\"%s\">%s</th>",
                        table_cols[k].numeric ? "n" : "s", table_cols[k].name);
    page_put(&o, "</tr></thead><tbody>\n");
    for (size_t r = 0; r < d->jobs.nrow; r++)
        job_row(&o, d, r);
    ios_text_printf(&o, "</tbody></table><script>%s</script>", table_script);
    page_end(&o);
    int rc = site_write_page(dir, "jobs.html", &o);
    ios_text_free(&o);
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
    if (pages >= 0 && write_overview(a->out, &d) == 0 &&
        write_jobs(a->out, &d) == 0) {
        rc = CLI_OK;
        fprintf(stderr, "iosage: %s: overview, %zu jobs in the table, %ld "
                "report pages\n", a->out, d.jobs.nrow, pages);
    }
    site_data_free(&d);
    return rc;
}
