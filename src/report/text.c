/*
 * text.c - the terminal view: a compact report that fits 80 columns.
 *
 * Sections in reading order: job and verdict, summary, detection (one score
 * bar per pattern against its threshold), findings with evidence, the
 * ranked changes, configuration files, advice source, warnings. Every
 * document string goes through rep_clean (no escape byte from a log reaches
 * the terminal); ANSI colour is added only when the caller asks for it.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define WIDTH 80
#define BAR 20  /* characters in a score bar */
#define NAME 32 /* columns for a pattern name in the score table */
#define CARD_FEATURES 3 /* card features shown per finding */

struct tview {
    rep_out *o;
    int color;
};

/* An SGR sequence ("1" bold, "31" red, "0" reset) when colour is on. */
static void sgr(struct tview *t, const char *code)
{
    if (t->color)
        rep_printf(t->o, "\x1b[%sm", code);
}

static void heading(struct tview *t, const char *title)
{
    rep_putc(t->o, '\n');
    sgr(t, "1");
    rep_puts(t->o, title);
    sgr(t, "0");
    rep_putc(t->o, '\n');
}

/* Byte length of the first w characters of s (or all of s). */
static size_t prefix_bytes(const char *s, size_t w)
{
    size_t i = 0, chars = 0;
    while (s[i]) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            if (chars == w)
                break;
            chars++;
        }
        i++;
    }
    return i;
}

/*
 * Append the cleaned text s word-wrapped: the first line continues the
 * current one, at column col; later lines start with indent blanks. Lines
 * stay within WIDTH; a word longer than a line is cut.
 */
static void wrap_clean(rep_out *o, const char *s, int col, int indent)
{
    int avail = WIDTH - indent;
    while (*s) {
        while (*s == ' ')
            s++;
        size_t wlen = strcspn(s, " ");
        if (wlen == 0)
            break;
        int w = (int)rep_width(s, wlen);
        if (col > indent && col + 1 + w > WIDTH) {
            rep_putc(o, '\n');
            rep_repeat(o, " ", indent);
            col = indent;
        } else if (col > indent) {
            rep_putc(o, ' ');
            col++;
        }
        while (w > WIDTH - col && w > avail) { /* a word longer than a line */
            size_t cut = prefix_bytes(s, (size_t)(WIDTH - col));
            rep_putn(o, s, cut);
            rep_putc(o, '\n');
            rep_repeat(o, " ", indent);
            col = indent;
            s += cut;
            wlen -= cut;
            w = (int)rep_width(s, wlen);
        }
        rep_putn(o, s, wlen);
        col += w;
        s += wlen;
    }
    rep_putc(o, '\n');
}

/* Append raw, cleaned and wrapped, starting at column col of the current
 * line; continuation lines start at column indent. */
static void wrap_at(struct tview *t, int col, int indent, const char *raw)
{
    rep_out clean = {0};
    rep_clean(&clean, raw ? raw : "n/a");
    wrap_clean(t->o, clean.p ? clean.p : "", col, indent);
    if (clean.oom)
        t->o->oom = 1;
    rep_out_free(&clean);
}

/* "<indent><label><text wrapped under the text's first column>" */
static void field(struct tview *t, int indent, const char *label, const char *raw)
{
    rep_repeat(t->o, " ", indent);
    rep_puts(t->o, label);
    int col = indent + (int)rep_width(label, strlen(label));
    wrap_at(t, col, col, raw);
}

/* A line of a summary block: a 16-column label, then the wrapped text. */
static void row(struct tview *t, const char *label, const char *raw)
{
    char lab[32];
    snprintf(lab, sizeof lab, "%-16s", label);
    field(t, 2, lab, raw);
}

static void text_job(struct tview *t, const json_t *doc)
{
    rep_out s = {0};
    sgr(t, "1");
    rep_puts(t->o, "iosage report");
    sgr(t, "0");
    rep_putc(t->o, '\n');
    rep_job_line(&s, doc);
    field(t, 2, "job:     ", s.p);
    field(t, 2, "log:     ", rep_str(doc, "file"));
    s.len = 0;
    rep_verdict(&s, doc);
    int healthy = rep_bool(rep_obj(doc, "detection"), "healthy", 0);
    rep_puts(t->o, "  ");
    sgr(t, healthy ? "1;32" : "1;31");
    rep_puts(t->o, "verdict:");
    sgr(t, "0");
    rep_putc(t->o, ' ');
    wrap_at(t, 11, 11, s.p);
    if (s.oom)
        t->o->oom = 1;
    rep_out_free(&s);
}

/* The summary block: one labelled, wrapped line group per row. */
static void text_summary(struct tview *t, const json_t *sum)
{
    rep_out s = {0};
    const char *label;
    heading(t, "Summary");
    for (int i = 0; (label = rep_summary_row(&s, sum, i)) != NULL; i++) {
        if (*label)
            row(t, label, s.p);
        s.len = 0;
    }
    if (s.oom)
        t->o->oom = 1;
    rep_out_free(&s);
}

/* v (a score or threshold from the document, any double) as a position in
 * [0, max]: clamped before the conversion, which is undefined for values
 * outside int (a fuzzed document had 1e26). */
static int bar_pos(double v, int max)
{
    double x = v * BAR + 0.5;
    if (!(x >= 0.0)) /* also NaN */
        return 0;
    return x >= (double)max ? max : (int)x;
}

/* "[#######|....]" with the fill at score and '|' at threshold (0..1). */
static void score_bar(struct tview *t, double score, double thr, int detected)
{
    int fill = bar_pos(score, BAR), mark = bar_pos(thr, BAR - 1);
    rep_putc(t->o, '[');
    sgr(t, detected ? "31" : "32");
    for (int i = 0; i < BAR; i++) {
        if (i == mark)
            sgr(t, "0;1"), rep_putc(t->o, '|'), sgr(t, detected ? "31" : "32");
        else
            rep_putc(t->o, i < fill ? '#' : '.');
    }
    sgr(t, "0");
    rep_putc(t->o, ']');
}

static void text_detection(struct tview *t, const json_t *doc)
{
    const json_t *det = rep_obj(doc, "detection");
    heading(t, "Detection");
    field(t, 2, "model: ", rep_str(det, "model"));
    rep_puts(t->o, "  pattern                          score (| = threshold)  score / threshold\n");
    size_t i;
    const json_t *p;
    json_array_foreach(rep_arr(det, "patterns"), i, p) {
        rep_out name = {0};
        rep_clean(&name, rep_str(p, "name") ? rep_str(p, "name") : "n/a");
        const char *nm = name.p ? name.p : "";
        int w = (int)rep_width(nm, strlen(nm));
        rep_puts(t->o, "  ");
        if (w > NAME) { /* cut long names to NAME columns, ending in "..." */
            rep_putn(t->o, nm, prefix_bytes(nm, NAME - 3));
            rep_puts(t->o, "...");
        } else {
            rep_puts(t->o, nm);
            rep_repeat(t->o, " ", NAME - w);
        }
        rep_putc(t->o, ' ');
        double s = 0, th = 0;
        rep_num(p, "score", &s);
        rep_num(p, "threshold", &th);
        int hit = rep_bool(p, "detected", 0);
        score_bar(t, s, th, hit);
        char a[32], b[32];
        rep_printf(t->o, " %s / %s", ios_fmt_doc_score(a, sizeof a, s), ios_fmt_doc_score(b, sizeof b, th));
        if (hit) {
            sgr(t, "1;31");
            rep_puts(t->o, " DETECTED");
            sgr(t, "0");
        } else if (json_object_get(p, "floor")) {
            rep_puts(t->o, " floored"); /* the warning says why */
        }
        rep_putc(t->o, '\n');
        if (name.oom)
            t->o->oom = 1;
        rep_out_free(&name);
    }
}

/* The "with / without" quartiles of one card feature, one line. */
static void card_feature(struct tview *t, const json_t *f)
{
    char v[32], a[32], b[32], c[32], d[32], e[32], g[32];
    const json_t *w = rep_obj(f, "with"), *wo = rep_obj(f, "without");
    rep_out s = {0};
    rep_printf(&s, "%s = %s (jobs with the pattern: median %s, %s-%s; without: %s, %s-%s)",
               rep_str(f, "name") ? rep_str(f, "name") : "n/a",
               rep_field_num(v, sizeof v, f, "value"), rep_field_num(a, sizeof a, w, "median"),
               rep_field_num(b, sizeof b, w, "q1"), rep_field_num(c, sizeof c, w, "q3"),
               rep_field_num(d, sizeof d, wo, "median"), rep_field_num(e, sizeof e, wo, "q1"),
               rep_field_num(g, sizeof g, wo, "q3"));
    field(t, 7, "* ", s.p);
    if (s.oom)
        t->o->oom = 1;
    rep_out_free(&s);
}

static void text_findings(struct tview *t, const json_t *doc)
{
    const json_t *fs = rep_arr(doc, "findings");
    if (json_array_size(fs) == 0)
        return;
    heading(t, "Findings");
    size_t i, j;
    const json_t *f, *v;
    json_array_foreach(fs, i, f) {
        char sc[32], sh[32], num[32];
        rep_out s = {0};
        rep_printf(&s, "%s (%s), score %s, %s of the job's I/O time",
                   rep_str(f, "name") ? rep_str(f, "name") : "n/a",
                   rep_str(f, "pattern") ? rep_str(f, "pattern") : "n/a",
                   rep_field_score(sc, sizeof sc, f, "score"),
                   rep_field_pct(sh, sizeof sh, f, "io_time_share"));
        snprintf(num, sizeof num, "%2zu. ", i + 1);
        field(t, 1, num, s.p);
        json_array_foreach(rep_arr(f, "evidence"), j, v)
            field(t, 5, "- ", json_is_string(v) ? json_string_value(v) : NULL);
        const json_t *card = rep_obj(f, "card");
        if (card) {
            const json_t *feats = rep_arr(card, "features");
            json_array_foreach(feats, j, v) {
                if (j == 0)
                    rep_puts(t->o, "     key features:\n");
                if (j < CARD_FEATURES)
                    card_feature(t, v);
            }
            if (json_array_size(feats) > CARD_FEATURES)
                rep_printf(t->o, "       (%zu more in the md and html views)\n",
                           json_array_size(feats) - CARD_FEATURES);
            field(t, 5, "usual change: ", rep_str(card, "change"));
            field(t, 5, "not applicable: ", rep_str(card, "not_applicable"));
        }
        if (s.oom)
            t->o->oom = 1;
        rep_out_free(&s);
    }
}

/* One ranked change with its where/why/evidence/effect/limits. */
static void text_change(struct tview *t, const json_t *doc, const json_t *c)
{
    double rank = 0;
    char num[32];
    rep_num(c, "rank", &rank);
    snprintf(num, sizeof num, "%2.0f. ", rank); /* 4 columns below rank 100 */
    rep_out s = {0};
    const char *id = rep_str(c, "change_id");
    const char *name = rep_pattern_name(doc, rep_str(c, "pattern"));
    rep_printf(&s, "[%s] %s", id ? id : "n/a", name ? name : "n/a");
    rep_puts(t->o, " ");
    sgr(t, "1");
    rep_puts(t->o, num);
    sgr(t, "0");
    wrap_at(t, 1 + (int)strlen(num), 5, s.p);
    field(t, 5, "change: ", rep_str(c, "change"));
    s.len = 0;
    rep_where(&s, rep_obj(c, "where"));
    if (s.len)
        field(t, 5, "where:  ", s.p);
    const char *why = rep_str(c, "why");
    field(t, 5, "why:    ", why);
    /* the evidence under it, but a line the "why" already quotes (the
     * offline advice quotes the first) is not printed a second time */
    size_t j;
    const json_t *v;
    json_array_foreach(rep_arr(c, "evidence"), j, v) {
        const char *line = json_is_string(v) ? json_string_value(v) : NULL;
        if (line && line[0] && why && strstr(why, line))
            continue;
        field(t, 5, "  - ", line);
    }
    field(t, 5, "expected effect: ", rep_str(c, "expected_effect"));
    s.len = 0;
    rep_expected_saving(&s, c);
    if (s.len)
        field(t, 5, "expected saving: ", s.p);
    field(t, 5, "when not to apply: ", rep_str(c, "when_not_to_apply"));
    if (s.oom)
        t->o->oom = 1;
    rep_out_free(&s);
}

static void text_changes(struct tview *t, const json_t *doc)
{
    const json_t *adv = rep_obj(doc, "advice");
    const json_t *cs = rep_arr(adv, "changes");
    heading(t, "Proposed changes");
    if (json_array_size(cs) == 0 && json_array_size(rep_arr(doc, "findings")) > 0)
        rep_puts(t->o, "  none: each detected pattern's change was left out, "
                       "because it does not apply here or its files hold "
                       "under 5% of the I/O time (the findings and warnings "
                       "say why)\n");
    else if (json_array_size(cs) == 0)
        rep_puts(t->o, "  none: no bottleneck pattern to act on\n");
    size_t i;
    const json_t *c;
    json_array_foreach(cs, i, c)
        text_change(t, doc, c);
    rep_out s = {0};
    rep_advice_source(&s, adv);
    field(t, 2, "advice source: ", s.p);
    if (s.oom)
        t->o->oom = 1;
    rep_out_free(&s);
}

static void text_configs(struct tview *t, const json_t *doc)
{
    const json_t *cf = rep_arr(doc, "configs");
    if (json_array_size(cf) == 0)
        return;
    heading(t, "Configuration files");
    size_t i, j;
    const json_t *c, *st;
    json_array_foreach(cf, i, c) {
        char b[32];
        rep_out s = {0};
        rep_printf(&s, "%s (%s, %s%s)", rep_str(c, "path") ? rep_str(c, "path") : "n/a",
                   rep_str(c, "kind") ? rep_str(c, "kind") : "n/a",
                   rep_field_bytes(b, sizeof b, c, "bytes"),
                   rep_bool(c, "truncated", 0) ? ", read in part" : "");
        field(t, 2, "- ", s.p);
        json_array_foreach(rep_arr(c, "settings"), j, st) {
            double line = 0;
            s.len = 0;
            rep_num(st, "line", &line);
            rep_printf(&s, "line %.0f: %s = %s", line,
                       rep_str(st, "key") ? rep_str(st, "key") : "n/a",
                       rep_str(st, "value") ? rep_str(st, "value") : "n/a");
            field(t, 6, "", s.p);
        }
        if (s.oom)
            t->o->oom = 1;
        rep_out_free(&s);
    }
}

static void text_warnings(struct tview *t, const json_t *doc)
{
    const json_t *w = rep_arr(doc, "warnings");
    if (json_array_size(w) == 0)
        return;
    heading(t, "Warnings");
    size_t i;
    const json_t *v;
    json_array_foreach(w, i, v)
        field(t, 2, "! ", json_is_string(v) ? json_string_value(v) : NULL);
}

void rep_view_text(rep_out *o, const json_t *doc, int color)
{
    struct tview t = {o, color};
    const json_t *sum = rep_obj(doc, "summary");
    text_job(&t, doc);
    text_summary(&t, sum);
    text_detection(&t, doc);
    text_findings(&t, doc);
    text_changes(&t, doc);
    text_configs(&t, doc);
    text_warnings(&t, doc);
}
