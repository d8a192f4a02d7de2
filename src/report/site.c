/*
 * src/report/site.c - the pages of the archive dashboard (`iosage archive
 * site`, src/cli/archive_site.c writes them):
 *
 *   index.html  overview: hours in I/O and hours at stake per week,
 *               patterns per week (inline SVG, site_svg.c), top
 *               applications, top users, largest single jobs
 *   jobs.html   every job of the table (largest I/O first) in a table a
 *               small inline script sorts and filters
 *
 * Every page carries a Content-Security-Policy that allows no request at
 * all (inline style and script only), and every string that comes from a
 * log (paths, command lines, evidence) is cleaned and HTML-escaped by
 * rep_put, as in the HTML report. The pages are made from the query tables
 * of the archive (iosage_archive_query); the job pages are HTML reports.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "iosage/patterns.h"

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


/* --- pages ---------------------------------------------------------------- */

static double num(const char *s)
{
    return s ? strtod(s, NULL) : 0;
}

/* The page in o handed over (NULL when an allocation failed). */
static char *finish(rep_out *o, size_t *len)
{
    if (o->oom) {
        rep_out_free(o);
        return NULL;
    }
    *len = o->len;
    return o->p;
}

static void page_start(rep_out *o, const char *title, const char *prefix)
{
    rep_puts(o, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
                 "charset=\"utf-8\"><meta http-equiv=\"Content-Security-"
                 "Policy\" content=\"default-src 'none'; style-src "
                 "'unsafe-inline'; script-src 'unsafe-inline'; img-src "
                 "data:\"><meta name=\"viewport\" content=\"width=device-"
                 "width\"><title>");
    site_html(o, title);
    rep_printf(o, "</title><style>%s</style></head><body><nav><a href=\""
               "%sindex.html\">Overview</a><a href=\"%sjobs.html\">Jobs"
               "</a></nav><main>\n", page_style, prefix, prefix);
}

static void page_end(rep_out *o)
{
    rep_puts(o, "</main></body></html>\n");
}

/* One table cell: numbers right-aligned, NULL as "-", text escaped. */
static void td(rep_out *o, const char *s, int numeric)
{
    rep_puts(o, numeric ? "<td class=\"n\">" : "<td>");
    site_html(o, s ? s : "-");
    rep_puts(o, "</td>");
}

/* A whole table t with the columns named in cols (header text = name). */
static void simple_table(rep_out *o, const iosage_archive_table *t,
                         const char *const *cols)
{
    rep_puts(o, "<table><tr>");
    for (int k = 0; cols[k]; k++) {
        rep_puts(o, "<th>");
        site_html(o, cols[k]);
        rep_puts(o, "</th>");
    }
    rep_puts(o, "</tr>");
    for (size_t r = 0; r < t->nrow; r++) {
        rep_puts(o, "<tr>");
        for (int k = 0; cols[k]; k++) {
            int c = iosage_archive_column(t, cols[k]);
            td(o, iosage_archive_cell(t, r, cols[k]), c >= 0 && t->numeric[c]);
        }
        rep_puts(o, "</tr>");
    }
    rep_puts(o, "</table>\n");
}

static void kpi(rep_out *o, const char *value, const char *label,
                const char *note)
{
    rep_puts(o, "<div class=\"kpi\"><b>");
    site_html(o, value);
    rep_puts(o, "</b>");
    site_html(o, label);
    if (note) {
        rep_puts(o, "<br><small>");
        site_html(o, note);
        rep_puts(o, "</small>");
    }
    rep_puts(o, "</div>");
}

/* The headline numbers: sums over the weeks table. */
static void overview_kpis(rep_out *o, const struct iosage_site_tables *d)
{
    double jobs = 0, io = 0, stake = 0, flagged = 0, gain = 0;
    int have_gain = 0;
    for (size_t r = 0; r < d->weeks->nrow; r++) {
        jobs += num(iosage_archive_cell(d->weeks, r, "jobs"));
        io += num(iosage_archive_cell(d->weeks, r, "io_hours"));
        stake += num(iosage_archive_cell(d->weeks, r, "hours_at_stake"));
        flagged += num(iosage_archive_cell(d->weeks, r, "flagged_jobs"));
        const char *g = iosage_archive_cell(d->weeks, r, "saved_hours");
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
    rep_puts(o, "<div class=\"kpis\">");
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
    rep_puts(o, "</div>\n");
}

/* Chart 1: hours in I/O and hours at stake per week. */
static void chart_hours(rep_out *o, const struct iosage_site_tables *d,
                        const char **labels, double *v)
{
    size_t n = d->weeks->nrow;
    for (size_t r = 0; r < n; r++) {
        labels[r] = iosage_archive_cell(d->weeks, r, "week");
        v[r] = num(iosage_archive_cell(d->weeks, r, "io_hours"));
        v[n + r] = num(iosage_archive_cell(d->weeks, r, "hours_at_stake"));
    }
    struct site_series s[2] = {{"hours in I/O", colors[0], v},
                              {"hours at stake", colors[1], v + n}};
    site_svg_bars(o, "Hours in I/O per week (week of Monday, UTC)", "hours",
                  labels, n, s, 2);
}

/* Chart 2: jobs with each pattern per week. */
static void chart_patterns(rep_out *o, const struct iosage_site_tables *d,
                           const char **labels, double *v)
{
    size_t n = d->weeks->nrow;
    int np = iosage_pattern_count();
    struct site_series s[IOSAGE_MAX_PATTERNS];
    memset(v, 0, sizeof *v * n * (size_t)np);
    for (size_t r = 0; r < d->patterns->nrow; r++) {
        const char *week = iosage_archive_cell(d->patterns, r, "week");
        int k = iosage_pattern_index(iosage_archive_cell(d->patterns, r, "pattern"));
        for (size_t w = 0; k >= 0 && week && w < n; w++)
            if (labels[w] && strcmp(labels[w], week) == 0)
                v[(size_t)k * n + w] = num(iosage_archive_cell(d->patterns, r, "jobs"));
    }
    for (int k = 0; k < np; k++)
        s[k] = (struct site_series){iosage_pattern_get(k)->id,
                                   colors[(size_t)k % 8], v + (size_t)k * n};
    site_svg_lines(o, "Jobs with each pattern per week", "jobs", labels, n, s, np);
}

/* The largest jobs, with a link to their report. */
static void largest_jobs(rep_out *o, const struct iosage_site_tables *d)
{
    static const char *const cols[] = {"start", "job_id", "uid", "app",
                                       "nprocs", "io_hours", "io_share",
                                       "patterns", NULL};
    rep_puts(o, "<table><tr>");
    for (int k = 0; cols[k]; k++)
        rep_printf(o, "<th>%s</th>", cols[k]);
    rep_puts(o, "<th>report</th></tr>");
    for (size_t r = 0; r < d->jobs->nrow && r < IOSAGE_SITE_TOP_ROWS; r++) {
        rep_puts(o, "<tr>");
        for (int k = 0; cols[k]; k++)
            td(o, iosage_archive_cell(d->jobs, r, cols[k]),
               d->jobs->numeric[iosage_archive_column(d->jobs, cols[k])]);
        if (d->has_report[r])
            rep_printf(o, "<td><a href=\"jobs/%s.html\">report</a></td>",
                       iosage_archive_cell(d->jobs, r, "id"));
        else
            rep_puts(o, "<td>-</td>");
        rep_puts(o, "</tr>");
    }
    rep_puts(o, "</table>\n");
}

char *iosage_report_site_overview(const struct iosage_site_tables *d,
                                  size_t *len)
{
    rep_out o = {0};
    const char *first = iosage_archive_cell(d->info, 0, "first_job");
    const char *last = iosage_archive_cell(d->info, 0, "last_job");
    page_start(&o, "I/O archive: overview", "");
    rep_puts(&o, "<h1>I/O of the archived jobs</h1><p class=\"sub\">");
    rep_printf(&o, "%s logs (%s unreadable), %s applications, %s users; "
               "jobs from ", iosage_archive_cell(d->info, 0, "logs"),
               iosage_archive_cell(d->info, 0, "errors") ? iosage_archive_cell(d->info, 0, "errors") : "0",
               iosage_archive_cell(d->info, 0, "apps"), iosage_archive_cell(d->info, 0, "users"));
    site_html(&o, first ? first : "-");
    rep_puts(&o, " to ");
    site_html(&o, last ? last : "-");
    rep_puts(&o, ".</p>\n");
    overview_kpis(&o, d);
    size_t n = d->weeks->nrow;
    const char **labels = calloc(n + 1, sizeof *labels);
    double *v = calloc((n + 1) * (size_t)(iosage_pattern_count() + 2),
                       sizeof *v);
    if (!labels || !v) {
        free(labels);
        free(v);
        rep_out_free(&o);
        return NULL;
    }
    rep_puts(&o, "<h2>Hours per week</h2>");
    chart_hours(&o, d, labels, v);
    rep_puts(&o, "<h2>Patterns over time</h2>");
    chart_patterns(&o, d, labels, v);
    free(labels);
    free(v);
    static const char *const app_cols[] = {"app", "jobs", "users", "io_hours",
                                           "hours_at_stake", "saved_hours",
                                           NULL};
    static const char *const user_cols[] = {"uid", "jobs", "apps", "io_hours",
                                            "hours_at_stake", "saved_hours",
                                            NULL};
    rep_puts(&o, "<div class=\"cols\"><div><h2>Top applications</h2>");
    simple_table(&o, d->apps, app_cols);
    rep_puts(&o, "</div><div><h2>Top users</h2>");
    simple_table(&o, d->users, user_cols);
    rep_puts(&o, "</div></div><h2>Largest single jobs</h2>");
    largest_jobs(&o, d);
    rep_puts(&o, "<p class=\"sub\"><a href=\"jobs.html\">All jobs</a>: "
                 "sortable and filterable.</p>");
    page_end(&o);
    return finish(&o, len);
}

/* The job table: columns with their type for sorting. */
static const struct {
    const char *name;
    int numeric;
} table_cols[] = {
    {"start", 0}, {"job_id", 1}, {"uid", 1}, {"app", 0}, {"nprocs", 1},
    {"run_time", 1}, {"io_hours", 1}, {"io_share", 1}, {"patterns", 0},
    {"check_by_hand", 0}, {"saved_hours", 1}, {"path", 0},
};
#define N_TABLE_COLS (sizeof table_cols / sizeof table_cols[0])

static void job_row(rep_out *o, const struct iosage_site_tables *d, size_t r)
{
    const char *pats = iosage_archive_cell(d->jobs, r, "patterns");
    rep_puts(o, r < TABLE_PAGE ? "<tr data-p=\"" : "<tr hidden data-p=\"");
    site_html(o, pats ? pats : "healthy");
    rep_puts(o, "\">");
    for (size_t k = 0; k < N_TABLE_COLS; k++) {
        const char *s = iosage_archive_cell(d->jobs, r, table_cols[k].name);
        if (strcmp(table_cols[k].name, "path") == 0) {
            rep_puts(o, "<td class=\"path\">");
            if (d->has_report[r])
                rep_printf(o, "<a href=\"jobs/%s.html\">",
                           iosage_archive_cell(d->jobs, r, "id"));
            site_html(o, s ? s : "-");
            rep_puts(o, d->has_report[r] ? "</a></td>" : "</td>");
        } else {
            td(o, s, table_cols[k].numeric);
        }
    }
    rep_puts(o, "</tr>\n");
}

char *iosage_report_site_jobs(const struct iosage_site_tables *d, size_t *len)
{
    rep_out o = {0};
    page_start(&o, "I/O archive: jobs", "");
    rep_printf(&o, "<h1>Jobs by hours in I/O</h1><p class=\"sub\">The %zu "
               "jobs with the most I/O hours. Click a column to sort; a "
               "path links to the job's report when one was made.</p>",
               d->jobs->nrow);
    rep_puts(&o, "<p><input id=\"q\" type=\"search\" placeholder=\""
                 "filter: app, user, path...\"><select id=\"pat\"><option "
                 "value=\"\">any pattern</option><option value=\"healthy\">"
                 "healthy</option>");
    for (int k = 0; k < iosage_pattern_count(); k++)
        rep_printf(&o, "<option value=\"%s\">%s</option>",
                   iosage_pattern_get(k)->id, iosage_pattern_get(k)->id);
    rep_puts(&o, "</select><span id=\"n\"></span> <button id=\"more\" "
             "hidden>show 1000 more</button></p><table id=\"jobs\">"
                 "<thead><tr>");
    for (size_t k = 0; k < N_TABLE_COLS; k++)
        rep_printf(&o, "<th data-t=\"%s\">%s</th>",
                   table_cols[k].numeric ? "n" : "s", table_cols[k].name);
    rep_puts(&o, "</tr></thead><tbody>\n");
    for (size_t r = 0; r < d->jobs->nrow; r++)
        job_row(&o, d, r);
    rep_printf(&o, "</tbody></table><script>%s</script>", table_script);
    page_end(&o);
    return finish(&o, len);
}

