/*
 * html.c - the HTML view: one self-contained page.
 *
 * The page needs nothing from the network and runs nothing: a
 * Content-Security-Policy meta (default-src 'none'; style-src
 * 'unsafe-inline'; img-src data:) comes first in <head>, styles are inline,
 * charts are inline SVG (svg.c), and the page holds no <script>, no event
 * attribute and no link made from the document. Every document string goes
 * through rep_put(REP_HTML), which escapes & < > " '.
 */
#include <stdio.h>

#include "internal.h"

static const char css[] =
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;"
    "color:#1d2329;background:#f4f6f8;margin:0}\n"
    "main{max-width:980px;margin:0 auto;padding:24px}\n"
    "header{background:#1f3a56;color:#fff;padding:18px 24px}\n"
    "header h1{margin:0;font-size:22px;word-break:break-all}\n"
    "header p{margin:4px 0 0;opacity:.85;word-break:break-all}\n"
    "section{background:#fff;border:1px solid #dde3e8;border-radius:8px;"
    "padding:14px 20px;margin:16px 0}\n"
    "h2{font-size:18px;margin:4px 0 12px;color:#1f3a56}\n"
    "h3{font-size:16px;margin:14px 0 6px}\n"
    ".verdict{font-weight:600;padding:10px 14px;border-radius:6px}\n"
    ".verdict.ok{background:#e3f4e8;color:#1c6b35}\n"
    ".verdict.bad{background:#fdecea;color:#9b2318}\n"
    "table{border-collapse:collapse;width:100%;margin:6px 0}\n"
    "th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #e6eaee;"
    "vertical-align:top;word-break:break-word}\n"
    "th{background:#f0f3f6;font-weight:600}\n"
    "td.num,th.num{text-align:right;white-space:nowrap}\n"
    "table.kv th{width:160px;background:none}\n"
    "code{font:13px ui-monospace,Menlo,Consolas,monospace;background:#eef1f4;"
    "padding:1px 4px;border-radius:3px;word-break:break-all}\n"
    ".card{border-left:4px solid #c0392b;padding:4px 14px;margin:12px 0;background:#fcfcfd}\n"
    ".change{border-left-color:#2471a3}\n"
    ".muted{color:#5f6b76}\n"
    "ul{margin:4px 0;padding-left:22px}\n"
    ".chart{display:block;max-width:100%;height:auto;margin:8px 0}\n"
    ".chart text{font:12px system-ui,sans-serif;fill:#1d2329}\n"
    ".chart .tick,.chart .legend{fill:#5f6b76}\n"
    ".chart .axis{stroke:#9aa5b1;stroke-width:1}\n"
    ".chart rect{shape-rendering:crispEdges}\n"
    ".chart .read,.chart .key.read{fill:#2e86c1}\n"
    ".chart .write,.chart .key.write{fill:#e67e22}\n"
    ".chart .rbytes{fill:#2e86c1}.chart .rtime{fill:#8e44ad}\n"
    ".chart .track{fill:#eef1f4}\n"
    ".chart .hit{fill:#c0392b}.chart .miss{fill:#7fb3a0}\n"
    ".chart .thr{stroke:#1d2329;stroke-width:2}\n"
    ".chart .value.hit{fill:#c0392b;font-weight:600}\n"
    ".chart .pos{fill:#c0392b}.chart .neg{fill:#2e86c1}\n"
    "footer{color:#5f6b76;font-size:13px;text-align:center;padding:8px 0 24px}\n";

/* <head> with the CSP first, the title escaped, the styles inline. */
static void html_head(rep_out *o, const json_t *doc)
{
    rep_puts(o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                "<meta charset=\"utf-8\">\n"
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
                "'none'; style-src 'unsafe-inline'; img-src data:\">\n"
                "<meta name=\"referrer\" content=\"no-referrer\">\n"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                "<title>iosage report: ");
    const char *exe = rep_str(rep_obj(doc, "job"), "exe");
    rep_put(o, exe && *exe ? exe : "unknown executable", REP_HTML);
    rep_puts(o, "</title>\n<style>\n");
    rep_puts(o, css);
    rep_puts(o, "</style>\n</head>\n<body>\n");
}

/* Banner: job line, log path, generator; then the verdict box. */
static void html_banner(rep_out *o, const json_t *doc)
{
    rep_out s = {0};
    rep_job_line(&s, doc);
    rep_puts(o, "<header>\n<h1>iosage report: ");
    rep_put(o, s.p ? s.p : "", REP_HTML);
    rep_puts(o, "</h1>\n<p>log: ");
    rep_put(o, rep_str(doc, "file"), REP_HTML);
    rep_puts(o, "</p>\n</header>\n<main>\n");
    s.len = 0;
    rep_verdict(&s, doc);
    int healthy = rep_bool(rep_obj(doc, "detection"), "healthy", 0);
    rep_printf(o, "<p class=\"verdict %s\">", healthy ? "ok" : "bad");
    rep_put(o, s.p ? s.p : "", REP_HTML);
    rep_puts(o, "</p>\n");
    if (s.oom)
        o->oom = 1;
    rep_out_free(&s);
}

/* Charts of the job's I/O: request sizes, then bytes and time per rank. */
static void html_charts(rep_out *o, const json_t *doc)
{
    const json_t *charts = rep_obj(doc, "charts");
    rep_puts(o, "<section id=\"charts\">\n<h2>I/O profile</h2>\n"
                "<h3>Request sizes</h3>\n");
    rep_svg_request_sizes(o, charts);
    rep_puts(o, "<h3>Bytes per rank</h3>\n");
    rep_svg_ranks(o, charts, "bytes");
    rep_puts(o, "<h3>I/O time per rank</h3>\n");
    rep_svg_ranks(o, charts, "time");
    rep_puts(o, "</section>\n");
}

/* Detection: the score chart, then one SHAP chart per detected pattern. */
static void html_detection(rep_out *o, const json_t *doc)
{
    const json_t *det = rep_obj(doc, "detection");
    rep_puts(o, "<section id=\"detection\">\n<h2>Detection</h2>\n<p class=\"muted\">model: ");
    rep_put(o, rep_str(det, "model"), REP_HTML);
    rep_puts(o, "</p>\n");
    rep_svg_scores(o, det);
    size_t i;
    const json_t *p;
    json_array_foreach(rep_arr(det, "patterns"), i, p) {
        if (!rep_bool(p, "detected", 0) || json_array_size(rep_arr(p, "shap")) == 0)
            continue;
        rep_puts(o, "<h3>Why the model sees ");
        rep_put(o, rep_str(p, "name"), REP_HTML);
        rep_puts(o, "</h3>\n");
        rep_svg_shap(o, p);
    }
    rep_puts(o, "</section>\n");
}

static void html_warnings(rep_out *o, const json_t *doc)
{
    const json_t *w = rep_arr(doc, "warnings");
    if (json_array_size(w) == 0)
        return;
    rep_puts(o, "<section id=\"warnings\">\n<h2>Warnings</h2>\n<ul>\n");
    size_t i;
    const json_t *v;
    json_array_foreach(w, i, v) {
        rep_puts(o, "<li>");
        rep_put(o, json_is_string(v) ? json_string_value(v) : NULL, REP_HTML);
        rep_puts(o, "</li>\n");
    }
    rep_puts(o, "</ul>\n</section>\n");
}

void rep_view_html(rep_out *o, const json_t *doc)
{
    html_head(o, doc);
    html_banner(o, doc);
    rep_html_summary(o, doc);
    rep_html_changes(o, doc);
    rep_html_findings(o, doc);
    html_detection(o, doc);
    html_charts(o, doc);
    rep_html_configs(o, doc);
    html_warnings(o, doc);
    rep_puts(o, "</main>\n<footer>generated by ");
    rep_put(o, rep_str(doc, "generator"), REP_HTML);
    rep_puts(o, " &middot; iosage report version 1 &middot; this page runs no "
                "script and loads nothing</footer>\n</body>\n</html>\n");
}
