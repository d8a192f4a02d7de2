/*
 * html_sections.c - the table and card sections of the HTML view: summary,
 * proposed changes, findings, configuration files. Every document string
 * goes through rep_put(REP_HTML).
 */
#include <stdio.h>

#include "internal.h"

/* <tr><th>label</th><td>built text, escaped</td></tr>; empties s. */
static void kv(rep_out *o, const char *label, rep_out *s)
{
    rep_printf(o, "<tr><th>%s</th><td>", label);
    rep_put(o, s->p && s->len ? s->p : "", REP_HTML);
    rep_puts(o, "</td></tr>\n");
    if (s->oom)
        o->oom = 1;
    s->len = 0;
}

void rep_html_summary(rep_out *o, const json_t *doc)
{
    rep_out s = {0};
    const char *label;
    rep_puts(o, "<section id=\"summary\">\n<h2>Summary</h2>\n<table class=\"kv\">\n");
    for (int i = 0; (label = rep_summary_row(&s, rep_obj(doc, "summary"), i)) != NULL; i++) {
        if (*label)
            kv(o, label, &s);
        s.len = 0;
    }
    rep_puts(o, "</table>\n</section>\n");
    rep_out_free(&s);
}

/* <ul> of the strings of a (nothing when empty). */
static void list(rep_out *o, const json_t *a)
{
    size_t i;
    const json_t *v;
    if (json_array_size(a) == 0)
        return;
    rep_puts(o, "<ul>\n");
    json_array_foreach(a, i, v) {
        rep_puts(o, "<li>");
        rep_put(o, json_is_string(v) ? json_string_value(v) : NULL, REP_HTML);
        rep_puts(o, "</li>\n");
    }
    rep_puts(o, "</ul>\n");
}

/* <tr><th>label</th><td>text</td></tr> with the document text escaped. */
static void kv_text(rep_out *o, const char *label, const char *text)
{
    rep_printf(o, "<tr><th>%s</th><td>", label);
    rep_put(o, text, REP_HTML);
    rep_puts(o, "</td></tr>\n");
}

static void one_change(rep_out *o, const json_t *doc, const json_t *c)
{
    double rank = 0;
    rep_num(c, "rank", &rank);
    rep_printf(o, "<div class=\"card change\">\n<h3>%.0f. <code>", rank);
    rep_put(o, rep_str(c, "change_id"), REP_HTML);
    rep_puts(o, "</code> ");
    rep_put(o, rep_pattern_name(doc, rep_str(c, "pattern")), REP_HTML);
    rep_puts(o, "</h3>\n<table class=\"kv\">\n");
    kv_text(o, "Change", rep_str(c, "change"));
    rep_out s = {0};
    rep_where(&s, rep_obj(c, "where"));
    if (s.len)
        kv(o, "Where", &s);
    rep_out_free(&s);
    kv_text(o, "Why", rep_str(c, "why"));
    if (json_array_size(rep_arr(c, "evidence")) > 0) {
        rep_puts(o, "<tr><th>Evidence</th><td>");
        list(o, rep_arr(c, "evidence"));
        rep_puts(o, "</td></tr>\n");
    }
    kv_text(o, "Expected effect", rep_str(c, "expected_effect"));
    rep_out e = {0};
    rep_expected_saving(&e, c);
    if (e.len)
        kv_text(o, "Expected saving", e.p);
    if (e.oom)
        o->oom = 1;
    rep_out_free(&e);
    kv_text(o, "When not to apply", rep_str(c, "when_not_to_apply"));
    rep_puts(o, "</table>\n</div>\n");
}

void rep_html_changes(rep_out *o, const json_t *doc)
{
    const json_t *adv = rep_obj(doc, "advice");
    const json_t *cs = rep_arr(adv, "changes");
    rep_puts(o, "<section id=\"changes\">\n<h2>Proposed changes</h2>\n");
    if (json_array_size(cs) == 0 && json_array_size(rep_arr(doc, "findings")) > 0)
        rep_puts(o, "<p>None: each detected pattern's change was left out, "
                    "because it does not apply here or its files hold under "
                    "5% of the I/O time (the findings and warnings say "
                    "why).</p>\n");
    else if (json_array_size(cs) == 0)
        rep_puts(o, "<p>None: no bottleneck pattern to act on.</p>\n");
    size_t i;
    const json_t *c;
    json_array_foreach(cs, i, c)
        one_change(o, doc, c);
    rep_out s = {0};
    rep_advice_source(&s, adv);
    rep_puts(o, "<p class=\"muted\">advice source: ");
    rep_put(o, s.p ? s.p : "", REP_HTML);
    rep_puts(o, "</p>\n</section>\n");
    if (s.oom)
        o->oom = 1;
    rep_out_free(&s);
}

/* The card's features: this job's value against jobs with and without. */
static void card_table(rep_out *o, const json_t *card)
{
    const json_t *fs = rep_arr(card, "features");
    if (json_array_size(fs) == 0)
        return;
    rep_puts(o, "<table>\n<tr><th>Feature</th><th class=\"num\">This job</th>"
                "<th class=\"num\">With the pattern<br>median (q1-q3)</th>"
                "<th class=\"num\">Without<br>median (q1-q3)</th></tr>\n");
    size_t i;
    const json_t *f;
    json_array_foreach(fs, i, f) {
        char v[32], a[32], b[32], c[32], d[32], e[32], g[32];
        const json_t *w = rep_obj(f, "with"), *wo = rep_obj(f, "without");
        rep_puts(o, "<tr><td><code>");
        rep_put(o, rep_str(f, "name"), REP_HTML);
        rep_printf(o, "</code></td><td class=\"num\">%s</td><td class=\"num\">%s (%s-%s)</td>"
                      "<td class=\"num\">%s (%s-%s)</td></tr>\n",
                   rep_field_num(v, sizeof v, f, "value"), rep_field_num(a, sizeof a, w, "median"),
                   rep_field_num(b, sizeof b, w, "q1"), rep_field_num(c, sizeof c, w, "q3"),
                   rep_field_num(d, sizeof d, wo, "median"), rep_field_num(e, sizeof e, wo, "q1"),
                   rep_field_num(g, sizeof g, wo, "q3"));
    }
    rep_puts(o, "</table>\n");
}

void rep_html_findings(rep_out *o, const json_t *doc)
{
    const json_t *fs = rep_arr(doc, "findings");
    if (json_array_size(fs) == 0)
        return;
    rep_puts(o, "<section id=\"findings\">\n<h2>Findings</h2>\n");
    size_t i;
    const json_t *f;
    json_array_foreach(fs, i, f) {
        char a[32], b[32];
        const json_t *card = rep_obj(f, "card");
        rep_printf(o, "<div class=\"card\">\n<h3>%zu. ", i + 1);
        rep_put(o, rep_str(f, "name"), REP_HTML);
        rep_puts(o, " <code>");
        rep_put(o, rep_str(f, "pattern"), REP_HTML);
        rep_printf(o, "</code></h3>\n<p>score %s; %s of the job's I/O time is in the "
                      "files that carry it</p>\n",
                   rep_field_score(a, sizeof a, f, "score"),
                   rep_field_pct(b, sizeof b, f, "io_time_share"));
        list(o, rep_arr(f, "evidence"));
        card_table(o, card);
        if (card) {
            rep_puts(o, "<p><b>Usual change:</b> ");
            rep_put(o, rep_str(card, "change"), REP_HTML);
            rep_puts(o, "<br><b>Not applicable when:</b> ");
            rep_put(o, rep_str(card, "not_applicable"), REP_HTML);
            rep_puts(o, "</p>\n");
        }
        rep_puts(o, "</div>\n");
    }
    rep_puts(o, "</section>\n");
}

void rep_html_configs(rep_out *o, const json_t *doc)
{
    const json_t *cf = rep_arr(doc, "configs");
    if (json_array_size(cf) == 0)
        return;
    rep_puts(o, "<section id=\"configs\">\n<h2>Configuration files</h2>\n");
    size_t i, j;
    const json_t *c, *st;
    json_array_foreach(cf, i, c) {
        char b[32];
        rep_puts(o, "<h3><code>");
        rep_put(o, rep_str(c, "path"), REP_HTML);
        rep_puts(o, "</code> <span class=\"muted\">");
        rep_put(o, rep_str(c, "kind"), REP_HTML);
        rep_printf(o, ", %s%s</span></h3>\n", rep_field_bytes(b, sizeof b, c, "bytes"),
                   rep_bool(c, "truncated", 0) ? ", read in part" : "");
        if (json_array_size(rep_arr(c, "settings")) == 0) {
            rep_puts(o, "<p class=\"muted\">no setting recognised</p>\n");
            continue;
        }
        rep_puts(o, "<table>\n<tr><th class=\"num\">Line</th><th>Key</th><th>Value</th></tr>\n");
        json_array_foreach(rep_arr(c, "settings"), j, st) {
            double line = 0;
            rep_num(st, "line", &line);
            rep_printf(o, "<tr><td class=\"num\">%.0f</td><td><code>", line);
            rep_put(o, rep_str(st, "key"), REP_HTML);
            rep_puts(o, "</code></td><td><code>");
            rep_put(o, rep_str(st, "value"), REP_HTML);
            rep_puts(o, "</code></td></tr>\n");
        }
        rep_puts(o, "</table>\n");
    }
    rep_puts(o, "</section>\n");
}
