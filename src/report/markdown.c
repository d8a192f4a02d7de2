/*
 * markdown.c - the Markdown view (GitHub-flavoured: headings, pipe tables).
 *
 * Document strings go through rep_put(REP_MD): cleaned, specials and pipes
 * backslash-escaped, < > & as entities, so no raw HTML, link or emphasis can
 * come from a log or a config file. Only identifiers made of [a-z0-9_]
 * (pattern and change ids) are shown as code spans; anything else is
 * escaped text, so a backtick in the data can never close a span.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* s as a code span when it is a plain identifier, else as escaped text. */
static void ident(rep_out *o, const char *s)
{
    if (s && *s && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(s))
        rep_printf(o, "`%s`", s);
    else
        rep_put(o, s, REP_MD);
}

/* Plain text built in s (may be empty), escaped. */
static void put_built(rep_out *o, rep_out *s)
{
    rep_put(o, s->p ? s->p : "", REP_MD);
    if (s->oom)
        o->oom = 1;
    s->len = 0;
    if (s->p)
        s->p[0] = '\0';
}

/* "| label | text |" */
static void kv_row(rep_out *o, const char *label, rep_out *s)
{
    rep_printf(o, "| %s | ", label);
    put_built(o, s);
    rep_puts(o, " |\n");
}

static void md_summary(rep_out *o, const json_t *sum)
{
    rep_out s = {0};
    const char *label;
    rep_puts(o, "\n## Summary\n\n| | |\n|---|---|\n");
    for (int i = 0; (label = rep_summary_row(&s, sum, i)) != NULL; i++) {
        if (*label)
            kv_row(o, label, &s);
        s.len = 0;
    }
    rep_out_free(&s);
}

static void md_detection(rep_out *o, const json_t *det)
{
    rep_puts(o, "\n## Detection\n\nModel: ");
    rep_put(o, rep_str(det, "model"), REP_MD);
    rep_puts(o, "\n\n| Pattern | Id | Score | Threshold | Detected |\n"
                "|---|---|---:|---:|---|\n");
    size_t i;
    const json_t *p;
    json_array_foreach(rep_arr(det, "patterns"), i, p) {
        char a[32], b[32];
        rep_puts(o, "| ");
        rep_put(o, rep_str(p, "name"), REP_MD);
        rep_puts(o, " | ");
        ident(o, rep_str(p, "id"));
        rep_printf(o, " | %s | %s | %s |\n", rep_field_score(a, sizeof a, p, "score"),
                   rep_field_score(b, sizeof b, p, "threshold"),
                   rep_bool(p, "detected", 0) ? "**yes**"
                   : json_object_get(p, "floor") ? "no: under its floor" : "no");
    }
}

/* The card's feature table: value against the with/without quartiles. */
static void md_card(rep_out *o, const json_t *card)
{
    const json_t *fs = rep_arr(card, "features");
    size_t i;
    const json_t *f;
    if (json_array_size(fs) > 0)
        rep_puts(o, "\n| Feature | This job | With the pattern (median, q1-q3) "
                    "| Without (median, q1-q3) |\n|---|---:|---:|---:|\n");
    json_array_foreach(fs, i, f) {
        char v[32], a[32], b[32], c[32], d[32], e[32], g[32];
        const json_t *w = rep_obj(f, "with"), *wo = rep_obj(f, "without");
        rep_puts(o, "| ");
        ident(o, rep_str(f, "name"));
        rep_printf(o, " | %s | %s (%s-%s) | %s (%s-%s) |\n",
                   rep_field_num(v, sizeof v, f, "value"), rep_field_num(a, sizeof a, w, "median"),
                   rep_field_num(b, sizeof b, w, "q1"), rep_field_num(c, sizeof c, w, "q3"),
                   rep_field_num(d, sizeof d, wo, "median"), rep_field_num(e, sizeof e, wo, "q1"),
                   rep_field_num(g, sizeof g, wo, "q3"));
    }
    if (card) {
        rep_puts(o, "\nUsual change: ");
        rep_put(o, rep_str(card, "change"), REP_MD);
        rep_puts(o, "\n\nNot applicable when: ");
        rep_put(o, rep_str(card, "not_applicable"), REP_MD);
        rep_putc(o, '\n');
    }
}

/* "- line" for each string of a (as list items). */
static void md_list(rep_out *o, const json_t *a, const char *indent)
{
    size_t i;
    const json_t *v;
    json_array_foreach(a, i, v) {
        rep_printf(o, "%s- ", indent);
        rep_put(o, json_is_string(v) ? json_string_value(v) : NULL, REP_MD);
        rep_putc(o, '\n');
    }
}

static void md_findings(rep_out *o, const json_t *doc)
{
    const json_t *fs = rep_arr(doc, "findings");
    if (json_array_size(fs) == 0)
        return;
    rep_puts(o, "\n## Findings\n");
    size_t i;
    const json_t *f;
    json_array_foreach(fs, i, f) {
        char a[32], b[32];
        rep_printf(o, "\n### %zu. ", i + 1);
        rep_put(o, rep_str(f, "name"), REP_MD);
        rep_puts(o, " (");
        ident(o, rep_str(f, "pattern"));
        rep_printf(o, ")\n\nScore %s; %s of the job's I/O time is in the files "
                      "that carry it.\n\n",
                   rep_field_score(a, sizeof a, f, "score"),
                   rep_field_pct(b, sizeof b, f, "io_time_share"));
        md_list(o, rep_arr(f, "evidence"), "");
        md_card(o, rep_obj(f, "card"));
    }
}

/* "- **label:** text" */
static void md_item(rep_out *o, const char *label, const char *text)
{
    rep_printf(o, "- **%s:** ", label);
    rep_put(o, text, REP_MD);
    rep_putc(o, '\n');
}

static void md_changes(rep_out *o, const json_t *doc)
{
    const json_t *adv = rep_obj(doc, "advice");
    const json_t *cs = rep_arr(adv, "changes");
    rep_puts(o, "\n## Proposed changes\n\n");
    if (json_array_size(cs) == 0 && json_array_size(rep_arr(doc, "findings")) > 0)
        rep_puts(o, "None: each detected pattern's change was left out, "
                    "because it does not apply here or its files hold under "
                    "5% of the I/O time (the findings and warnings say why).\n");
    else if (json_array_size(cs) == 0)
        rep_puts(o, "None: no bottleneck pattern to act on.\n");
    size_t i;
    const json_t *c;
    json_array_foreach(cs, i, c) {
        double rank = 0;
        rep_num(c, "rank", &rank);
        rep_printf(o, "### %.0f. ", rank);
        ident(o, rep_str(c, "change_id"));
        rep_puts(o, ": ");
        rep_put(o, rep_pattern_name(doc, rep_str(c, "pattern")), REP_MD);
        rep_puts(o, "\n\n");
        md_item(o, "Change", rep_str(c, "change"));
        rep_out s = {0};
        rep_where(&s, rep_obj(c, "where"));
        if (s.len)
            md_item(o, "Where", s.p);
        rep_out_free(&s);
        md_item(o, "Why", rep_str(c, "why"));
        if (json_array_size(rep_arr(c, "evidence")) > 0) {
            rep_puts(o, "- **Evidence:**\n");
            md_list(o, rep_arr(c, "evidence"), "  ");
        }
        md_item(o, "Expected effect", rep_str(c, "expected_effect"));
        rep_out e = {0};
        rep_expected_saving(&e, c);
        if (e.len)
            md_item(o, "Expected saving", e.p);
        if (e.oom)
            o->oom = 1;
        rep_out_free(&e);
        md_item(o, "When not to apply", rep_str(c, "when_not_to_apply"));
        rep_putc(o, '\n');
    }
    rep_out s = {0};
    rep_advice_source(&s, adv);
    rep_puts(o, "*Advice source:* ");
    put_built(o, &s);
    rep_putc(o, '\n');
    rep_out_free(&s);
}

static void md_configs(rep_out *o, const json_t *doc)
{
    const json_t *cf = rep_arr(doc, "configs");
    if (json_array_size(cf) == 0)
        return;
    rep_puts(o, "\n## Configuration files\n");
    size_t i, j;
    const json_t *c, *st;
    json_array_foreach(cf, i, c) {
        char b[32];
        rep_puts(o, "\n**");
        rep_put(o, rep_str(c, "path"), REP_MD);
        rep_puts(o, "** (");
        rep_put(o, rep_str(c, "kind"), REP_MD);
        rep_printf(o, ", %s%s)\n\n", rep_field_bytes(b, sizeof b, c, "bytes"),
                   rep_bool(c, "truncated", 0) ? ", read in part" : "");
        if (json_array_size(rep_arr(c, "settings")) == 0) {
            rep_puts(o, "No setting recognised.\n");
            continue;
        }
        rep_puts(o, "| Line | Key | Value |\n|---:|---|---|\n");
        json_array_foreach(rep_arr(c, "settings"), j, st) {
            double line = 0;
            rep_num(st, "line", &line);
            rep_printf(o, "| %.0f | ", line);
            rep_put(o, rep_str(st, "key"), REP_MD);
            rep_puts(o, " | ");
            rep_put(o, rep_str(st, "value"), REP_MD);
            rep_puts(o, " |\n");
        }
    }
}

void rep_view_markdown(rep_out *o, const json_t *doc)
{
    rep_out s = {0};
    rep_puts(o, "# iosage report: ");
    rep_job_line(&s, doc);
    put_built(o, &s);
    rep_puts(o, "\n\n**Log:** ");
    rep_put(o, rep_str(doc, "file"), REP_MD);
    rep_puts(o, "\n\n**Verdict:** ");
    rep_verdict(&s, doc);
    put_built(o, &s);
    rep_putc(o, '\n');
    md_summary(o, rep_obj(doc, "summary"));
    md_detection(o, rep_obj(doc, "detection"));
    md_findings(o, doc);
    md_changes(o, doc);
    md_configs(o, doc);
    if (json_array_size(rep_arr(doc, "warnings")) > 0) {
        rep_puts(o, "\n## Warnings\n\n");
        md_list(o, rep_arr(doc, "warnings"), "");
    }
    rep_puts(o, "\n---\n\nGenerated by ");
    rep_put(o, rep_str(doc, "generator"), REP_MD);
    rep_puts(o, " (report version 1).\n");
    rep_out_free(&s);
}
