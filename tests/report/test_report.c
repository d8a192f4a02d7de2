/*
 * test_report.c - the report views (src/report) on the fixtures in
 * tests/report/fixtures: every fixture in every format, the content each
 * view must show, hostile strings (markup, ANSI escapes, invalid UTF-8),
 * determinism, the version check and tolerance of odd documents.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hostile_bytes.h"
#include "iosage/report.h"
#include "report/internal.h"

static const char *const fixtures[] = {"healthy", "three_patterns", "llm", "fallback",
                                       "hostile"};
#define N_FIXTURES (sizeof fixtures / sizeof fixtures[0])

/* ---- helpers ------------------------------------------------------------- */

static json_t *load(const char *name)
{
    char path[512];
    json_error_t jerr;
    snprintf(path, sizeof path, "%s/%s.json", IOSAGE_REPORT_FIXTURES, name);
    json_t *doc = json_load_file(path, 0, &jerr);
    if (!doc)
        fail_msg("%s: line %d: %s", path, jerr.line, jerr.text);
    return doc;
}

/* Render and return the view (caller frees); fails the test on error. */
static char *render(const json_t *doc, enum iosage_report_format f, int color)
{
    struct iosage_report_options opt = {color};
    char *out = NULL, line[600];
    size_t len = 0;
    iosage_error err;
    iosage_status st = iosage_report_render(doc, f, &opt, &out, &len, &err);
    if (st != IOSAGE_OK)
        fail_msg("render failed: %s", iosage_error_line(&err, line, sizeof line));
    assert_non_null(out);
    assert_int_equal(strlen(out), len);
    return out;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    size_t k = strlen(needle);
    for (const char *p = strstr(hay, needle); p; p = strstr(p + k, needle))
        n++;
    return n;
}

static void assert_contains(const char *hay, const char *needle)
{
    if (!strstr(hay, needle))
        fail_msg("output lacks \"%s\"", needle);
}

/* The part of hay from the first start to the next end (new string). */
static char *between(const char *hay, const char *start, const char *end)
{
    const char *a = strstr(hay, start);
    assert_non_null(a);
    const char *b = strstr(a + strlen(start), end);
    assert_non_null(b);
    return strndup(a, (size_t)(b - a));
}

/* Widest line, in characters (UTF-8 continuation bytes not counted). */
static int max_width(const char *s)
{
    int best = 0, w = 0;
    for (; *s; s++) {
        if (*s == '\n') {
            w = 0;
            continue;
        }
        if (((unsigned char)*s & 0xC0) != 0x80 && ++w > best)
            best = w;
    }
    return best;
}

/* 1 when s is valid UTF-8 without control bytes other than \n. */
static int clean_utf8(const char *s)
{
    json_t *probe = json_string(s); /* jansson validates UTF-8 */
    int ok = probe != NULL;
    json_decref(probe);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
            ok = 0;
    return ok;
}

/* ---- the version check ---------------------------------------------------- */

static void check_rejects(const char *json, iosage_status want, const char *msg_part)
{
    json_t *doc = json_loads(json, 0, NULL);
    assert_non_null(doc);
    iosage_error err;
    char *out = (char *)"x";
    size_t len = 7;
    assert_int_equal(iosage_report_render(doc, IOSAGE_REPORT_TEXT, NULL, &out, &len, &err),
                     want);
    assert_null(out);
    assert_int_equal(len, 0);
    assert_int_equal(err.code, want);
    assert_contains(err.msg, msg_part);
    json_decref(doc);
}

static void test_version_check(void **state)
{
    (void)state;
    check_rejects("[1]", IOSAGE_E_USAGE, "not a JSON object");
    check_rejects("{\"schema\": \"other\", \"version\": 1}", IOSAGE_E_VERSION,
                  "not an iosage report document");
    check_rejects("{\"version\": 1}", IOSAGE_E_VERSION, "not an iosage report document");
    check_rejects("{\"schema\": \"iosage-report\", \"version\": 2}", IOSAGE_E_VERSION,
                  "version 2: this iosage renders version 1 only");
    check_rejects("{\"schema\": \"iosage-report\", \"version\": \"1\"}", IOSAGE_E_VERSION,
                  "this iosage renders version 1 only");
    json_t *doc = load("healthy");
    char *out;
    size_t len;
    iosage_error err;
    assert_int_equal(iosage_report_check(doc, &err), IOSAGE_OK);
    assert_int_equal(iosage_report_render(doc, (enum iosage_report_format)9, NULL, &out,
                                          &len, &err),
                     IOSAGE_E_USAGE);
    assert_int_equal(iosage_report_render(doc, IOSAGE_REPORT_TEXT, NULL, NULL, &len, &err),
                     IOSAGE_E_USAGE);
    json_decref(doc);
}

static void test_format_names(void **state)
{
    (void)state;
    enum iosage_report_format f;
    assert_int_equal(iosage_report_format_parse("text", &f), 0);
    assert_int_equal(f, IOSAGE_REPORT_TEXT);
    assert_int_equal(iosage_report_format_parse("md", &f), 0);
    assert_int_equal(f, IOSAGE_REPORT_MARKDOWN);
    assert_int_equal(iosage_report_format_parse("markdown", &f), 0);
    assert_int_equal(f, IOSAGE_REPORT_MARKDOWN);
    assert_int_equal(iosage_report_format_parse("html", &f), 0);
    assert_int_equal(f, IOSAGE_REPORT_HTML);
    assert_int_equal(iosage_report_format_parse("json", &f), 0);
    assert_int_equal(f, IOSAGE_REPORT_JSON);
    assert_int_equal(iosage_report_format_parse("pdf", &f), -1);
    assert_int_equal(iosage_report_format_parse(NULL, &f), -1);
}

/* ---- numbers ---------------------------------------------------------------- */

static void test_units(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(ios_fmt_doc_bytes(b, sizeof b, 1023), "1023 B");
    assert_string_equal(ios_fmt_doc_bytes(b, sizeof b, 1536), "1.50 KiB");
    assert_string_equal(ios_fmt_doc_bytes(b, sizeof b, 53687091200.0), "50.0 GiB");
    assert_string_equal(ios_fmt_doc_secs(b, sizeof b, 0), "0 s");
    assert_string_equal(ios_fmt_doc_secs(b, sizeof b, 0.0000004), "0 us");
    assert_string_equal(ios_fmt_doc_secs(b, sizeof b, 0.0042), "4.2 ms");
    assert_string_equal(ios_fmt_doc_secs(b, sizeof b, 12.5), "12.50 s");
    assert_string_equal(ios_fmt_doc_secs(b, sizeof b, 812.5), "812 s");
    assert_string_equal(ios_fmt_doc_secs(b, sizeof b, 4000), "1 h 06 min");
    assert_string_equal(ios_fmt_doc_pct(b, sizeof b, 0.253), "25%");
    assert_string_equal(ios_fmt_doc_pct(b, sizeof b, 0.0042), "0.4%");
    assert_string_equal(ios_fmt_doc_pct(b, sizeof b, 0), "0%");
    assert_string_equal(ios_fmt_doc_count(b, sizeof b, 1234567), "1,234,567");
    assert_string_equal(ios_fmt_doc_count(b, sizeof b, -1000), "-1,000");
    assert_string_equal(ios_fmt_doc_count(b, sizeof b, 999), "999");
    assert_string_equal(ios_fmt_doc_num(b, sizeof b, 0.73449), "0.7345");
    assert_string_equal(ios_fmt_doc_num(b, sizeof b, -0.0), "0");
}

/* ---- healthy job ------------------------------------------------------------ */

static void test_healthy(void **state)
{
    (void)state;
    json_t *doc = load("healthy");
    char *t = render(doc, IOSAGE_REPORT_TEXT, 0);
    assert_contains(t, "verdict: no bottleneck pattern detected; no change proposed (gate "
                       "score 0.08,\n           threshold 0.50)");
    assert_int_equal(count(t, "DETECTED"), 0);
    assert_contains(t, "none: no bottleneck pattern to act on");
    assert_contains(t, "MPI-IO hints    none");
    assert_null(strstr(t, "Lustre "));
    assert_null(strchr(t, '\x1b'));
    assert_true(max_width(t) <= 80);
    char *c = render(doc, IOSAGE_REPORT_TEXT, 1);
    assert_contains(c, "\x1b[1;32mverdict:\x1b[0m no bottleneck pattern detected");
    assert_contains(c, "\x1b[1miosage report\x1b[0m");
    char *m = render(doc, IOSAGE_REPORT_MARKDOWN, 0);
    assert_contains(m, "**Verdict:** no bottleneck pattern detected; no change proposed "
                       "(gate score 0.08, threshold 0.50)");
    assert_int_equal(count(m, " | no |"), 7);
    assert_null(strstr(m, "## Findings"));
    char *h = render(doc, IOSAGE_REPORT_HTML, 0);
    assert_contains(h, "<p class=\"verdict ok\">no bottleneck pattern detected; no change "
                       "proposed (gate score 0.08, threshold 0.50)</p>");
    assert_int_equal(count(h, "<svg "), 4); /* sizes, rank bytes, rank time, scores */
    assert_int_equal(count(h, "class=\"bar miss\""), 7);
    assert_int_equal(count(h, "class=\"bar hit\""), 0);
    free(t), free(c), free(m), free(h);
    json_decref(doc);
}

/* ---- three detected patterns --------------------------------------------------- */

/* Records left out as impossible are said in the verdict, in every view:
 * a verdict on what is left of a log is read first. */
static void test_verdict_records_left_out(void **state)
{
    (void)state;
    json_t *doc = load("three_patterns");
    json_t *job = json_object_get(doc, "job");
    assert_non_null(job);
    json_object_set_new(job, "records_left_out", json_integer(0));
    char *t = render(doc, IOSAGE_REPORT_TEXT, 0);
    assert_null(strstr(t, "left out as impossible"));
    free(t);
    json_object_set_new(job, "records_left_out", json_integer(2703));
    t = render(doc, IOSAGE_REPORT_MARKDOWN, 0);
    assert_contains(t, "**Verdict:** 3 bottleneck patterns detected (gate score 0.99, "
                       "threshold 0.50); 2,703 records of the log left out as "
                       "impossible (see the warnings)");
    free(t);
    json_object_set_new(job, "records_left_out", json_integer(1));
    t = render(doc, IOSAGE_REPORT_HTML, 0);
    assert_contains(t, "; 1 record of the log left out as impossible");
    free(t);
    json_decref(doc);
}

/* A gate under its threshold that the pattern models outvoted (detection
 * rule 1's exception) is said so: the bare "gate score 0.21, threshold
 * 0.50" read as if the gate had fired. */
static void test_verdict_gate_outvoted(void **state)
{
    (void)state;
    json_t *doc = load("three_patterns");
    json_t *det = json_object_get(doc, "detection");
    assert_non_null(det);
    json_object_set_new(det, "gate_score", json_real(0.21));
    char *t = render(doc, IOSAGE_REPORT_MARKDOWN, 0);
    assert_contains(t, "**Verdict:** 3 bottleneck patterns detected (gate score 0.21, "
                       "under its threshold 0.50; outvoted by the pattern models)");
    free(t);
    json_object_set_new(det, "gate_score", json_real(0.5));
    t = render(doc, IOSAGE_REPORT_MARKDOWN, 0);
    assert_contains(t, "(gate score 0.50, threshold 0.50)");
    free(t);
    json_decref(doc);
}

/* The expected saving line of each case: a gain, a loss, and the two
 * uncertain ones, whose seconds are magnitudes (a predicted loss of 7%
 * printed "-7% ... (0.220 s)" before). */
static void test_expected_saving_lines(void **state)
{
    (void)state;
    static const struct {
        double share, lo, hi;
        const char *line;
    } cases[] = {
        {0.30, 0.10, 0.50, "**Expected saving:** 30% of the I/O time (3.00 s of this job), "
                           "typical range 10% to 50%; learned from 58 measured runs"},
        {-0.20, -0.40, -0.10, "**Expected saving:** none expected: it would add 20% to the "
                              "I/O time (2.00 s in this job)"},
        {0.10, -0.50, 0.40, "**Expected saving:** uncertain: 10% of the I/O time predicted "
                            "(1.00 s), but the measured runs like this job's range"},
        {-0.07, -0.69, 0.24, "**Expected saving:** uncertain: a loss of 7% of the I/O time "
                             "predicted (0.700 s more), but the measured runs like this "
                             "job's range from a loss to a gain, typical range -69% to "
                             "24%"},
    };
    json_t *doc = load("three_patterns");
    json_t *c = json_array_get(json_object_get(json_object_get(doc, "advice"),
                                               "changes"), 0);
    assert_non_null(c);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *e = json_pack("{s:f,s:f,s:[f,f],s:i}", "io_time_share",
                              cases[i].share, "seconds", 10 * cases[i].share,
                              "range", cases[i].lo, cases[i].hi,
                              "measured_runs", 58);
        assert_non_null(e);
        json_object_set_new(c, "expected_saving", e);
        char *t = render(doc, IOSAGE_REPORT_MARKDOWN, 0);
        assert_contains(t, cases[i].line);
        free(t);
    }
    json_decref(doc);
}

/* One stripe count and one stripe size over every Lustre file: said once,
 * not as a range "1-1". */
static void test_lustre_single_layout(void **state)
{
    (void)state;
    json_t *doc = load("three_patterns");
    json_t *lu = json_object_get(json_object_get(doc, "summary"), "lustre");
    assert_non_null(lu);
    json_object_set_new(lu, "stripe_count_max",
                        json_incref(json_object_get(lu, "stripe_count_min")));
    json_object_set_new(lu, "stripe_size_max",
                        json_incref(json_object_get(lu, "stripe_size_min")));
    char *t = render(doc, IOSAGE_REPORT_TEXT, 0);
    assert_contains(t, "Lustre          1,024 files, stripe count 1, stripe size 1.00 MiB\n");
    free(t);
    t = render(doc, IOSAGE_REPORT_MARKDOWN, 0);
    assert_contains(t, "1,024 files, stripe count 1, stripe size 1.00 MiB");
    free(t);
    json_decref(doc);
}

static void test_three_text(void **state)
{
    (void)state;
    json_t *doc = load("three_patterns");
    char *t = render(doc, IOSAGE_REPORT_TEXT, 0);
    assert_true(max_width(t) <= 80);
    assert_null(strchr(t, '\x1b'));
    assert_contains(t, "verdict: 3 bottleneck patterns detected (gate score 0.99, threshold 0.50)");
    assert_int_equal(count(t, "DETECTED"), 3);
    assert_contains(t, "  Small I/O requests               [###########|#######.] 0.97 / "
                       "0.55 DETECTED\n");
    assert_contains(t, "  Rank imbalance                   [####.....|..........] 0.21 / 0.45\n");
    assert_contains(t, "  Shared file without collectiv... [");
    assert_contains(t, "1. Small I/O requests (access_granularity), score 0.97, 71% of the");
    assert_contains(t, "2. Metadata-heavy I/O (metadata_intensity), score 0.88");
    assert_contains(t, "3. Shared file without collective I/O (interface_choice)");
    /* ranked changes in order, rank 1 with its text and its key */
    const char *c1 = strstr(t, " 1. [larger_requests] Small I/O requests");
    const char *c2 = strstr(t, " 2. [batch_metadata] Metadata-heavy I/O");
    const char *c3 = strstr(t, " 3. [collective_io] Shared file without collective I/O");
    assert_true(c1 && c2 && c3 && c1 < c2 && c2 < c3);
    assert_contains(c1, "change: Set io_form_history = 11 (parallel netCDF) so that history "
                        "writes\n             reach 1 MiB or more");
    assert_contains(c1, "where:  namelist.input: io_form_history");
    assert_contains(c1, "when not to apply: when PnetCDF is not available in this WRF build");
    assert_contains(c3, "where:  romio_cb_write");
    assert_contains(t, "Data            50.0 GiB read (120 s), 10.0 GiB written (610 s), metadata");
    assert_contains(t, "Files           1,040 (1,024 with data)");
    assert_contains(t, "Lustre          1,024 files, stripe count 1-4, stripe size 1.00 MiB-4.00 MiB");
    assert_contains(t, "advice source: offline (built-in advice for each pattern)");
    assert_contains(t, "line 41: io_form_history = 2");
    assert_contains(t, "! DXT module not present: access offsets estimated from counters");
    free(t);
    json_decref(doc);
}

static void test_three_markdown(void **state)
{
    (void)state;
    json_t *doc = load("three_patterns");
    char *m = render(doc, IOSAGE_REPORT_MARKDOWN, 0);
    char *det = between(m, "## Detection", "## Findings");
    assert_int_equal(count(det, "\n|"), 9); /* header, rule, 7 patterns */
    assert_int_equal(count(det, " | **yes** |"), 3);
    assert_int_equal(count(det, " | no |"), 4);
    assert_contains(det, "| Small I/O requests | `access_granularity` | 0.97 | 0.55 | **yes** |");
    assert_contains(m, "### 1. Small I/O requests (`access_granularity`)");
    assert_contains(m, "### 3. Shared file without collective I/O (`interface_choice`)");
    assert_contains(m, "| `job_small_op_share` | 0.98 | 0.95 (0.81-0.99) | 0.08 (0.01-0.3) |");
    const char *c1 = strstr(m, "### 1. `larger_requests`: Small I/O requests");
    const char *c3 = strstr(m, "### 3. `collective_io`: Shared file without collective I/O");
    assert_true(c1 && c3 && c1 < c3);
    assert_contains(c1, "- **Change:** Set io\\_form\\_history = 11 (parallel netCDF) so "
                        "that history writes reach 1 MiB or more\n");
    assert_contains(c1, "- **Where:** namelist.input: io\\_form\\_history\n");
    assert_contains(m, "| 41 | io\\_form\\_history | 2 |\n| 57 | nocolons | .true. |\n");
    assert_contains(m, "*Advice source:* offline (built-in advice for each pattern)\n");
    assert_null(strchr(m, '<'));
    free(det);
    free(m);
    json_decref(doc);
}

static void test_three_html(void **state)
{
    (void)state;
    json_t *doc = load("three_patterns");
    char *h = render(doc, IOSAGE_REPORT_HTML, 0);
    static const char head[] =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; img-src data:\">\n";
    assert_true(strncmp(h, head, sizeof head - 1) == 0);
    assert_int_equal(count(h, "<svg "), 7); /* 3 profile, scores, 3 SHAP */
    assert_int_equal(count(h, "</svg>"), 7);
    assert_int_equal(count(h, "<script"), 0);
    assert_int_equal(count(h, "href"), 0);
    assert_int_equal(count(h, "class=\"bar read\""), 10);
    assert_int_equal(count(h, "class=\"bar write\""), 10);
    assert_int_equal(count(h, "class=\"bar rbytes\""), 16);
    assert_int_equal(count(h, "class=\"bar rtime\""), 16);
    assert_int_equal(count(h, "class=\"bar hit\""), 3);
    assert_int_equal(count(h, "class=\"bar miss\""), 4);
    assert_int_equal(count(h, "class=\"thr\""), 8); /* 7 patterns + legend */
    char *shap = between(h, "data-chart=\"shap-access_granularity\"", "</svg>");
    assert_int_equal(count(shap, "class=\"bar pos\""), 3);
    assert_int_equal(count(shap, "class=\"bar neg\""), 1);
    assert_contains(shap, ">job_small_op_share = 0.98</text>");
    free(shap);
    char *sizes = between(h, "data-chart=\"request-sizes\"", "</svg>");
    assert_contains(sizes, "<title>write, 1K-10K bytes: 860,000 requests</title>");
    free(sizes);
    assert_contains(h, "<h3>1. <code>larger_requests</code> Small I/O requests</h3>");
    assert_contains(h, "<tr><th>Where</th><td>namelist.input: io_form_history</td></tr>");
    assert_contains(h, "<tr><th>Change</th><td>Set io_form_history = 11 (parallel netCDF) so "
                       "that history writes reach 1 MiB or more</td></tr>");
    assert_contains(h, "<p class=\"verdict bad\">3 bottleneck patterns detected");
    free(h);
    json_decref(doc);
}

/* ---- LLM advice, many ranks; fallback ------------------------------------------ */

static void test_llm_and_fallback(void **state)
{
    (void)state;
    json_t *doc = load("llm");
    char *t = render(doc, IOSAGE_REPORT_TEXT, 0);
    assert_contains(t, "advice source: LLM (openai, gpt-4o-mini); 1 LLM change dropped");
    assert_contains(t, "[larger_requests] Small I/O requests\n     change: Switch WRF history "
                       "output to PnetCDF (io_form_history = 11) with\n");
    assert_null(strstr(t, "[collective_io]"));
    assert_true(max_width(t) <= 80);
    char *h = render(doc, IOSAGE_REPORT_HTML, 0);
    char *ranks = between(h, "data-chart=\"rank-bytes\"", "</svg>");
    assert_int_equal(count(ranks, "class=\"bar rbytes\""), 256);
    assert_int_equal(count(ranks, "class=\"tick\""), 3); /* a strip: no rank labels */
    assert_contains(ranks, "bytes per rank (256 ranks, the busiest shown)");
    assert_contains(ranks, "<title>rank 1020: 4.00 MiB</title>");
    free(ranks);
    char *m = render(doc, IOSAGE_REPORT_MARKDOWN, 0);
    assert_contains(m, "*Advice source:* LLM (openai, gpt-4o-mini); 1 LLM change dropped "
                       "(pattern not detected or malformed)\n");
    free(t), free(h), free(m);
    json_decref(doc);

    doc = load("fallback");
    m = render(doc, IOSAGE_REPORT_MARKDOWN, 0);
    assert_contains(m, "*Advice source:* offline (built-in advice for each pattern); offline "
                       "advice used instead of the LLM: LLM request timed out after 30 s "
                       "(provider openai)\n");
    h = render(doc, IOSAGE_REPORT_HTML, 0);
    assert_contains(h, "offline advice used instead of the LLM: LLM request timed out after "
                       "30 s (provider openai)</p>");
    t = render(doc, IOSAGE_REPORT_TEXT, 0);
    assert_contains(t, "  advice source: offline (built-in advice for each pattern); offline "
                       "advice used\n                 instead of the LLM: LLM request timed out "
                       "after 30 s (provider\n                 openai)\n");
    free(t), free(h), free(m);
    json_decref(doc);
}

/* ---- hostile strings -------------------------------------------------------------- */

/* Every backtick in Markdown is escaped or delimits a code span made of
 * identifier characters. */
static void assert_md_backticks(const char *m)
{
    for (const char *p = m; (p = strchr(p, '`')) != NULL;) {
        if (p > m && p[-1] == '\\') {
            p++;
            continue;
        }
        size_t n = strspn(p + 1, "abcdefghijklmnopqrstuvwxyz0123456789_");
        if (n == 0 || p[1 + n] != '`')
            fail_msg("unescaped backtick at: %.40s", p);
        p += n + 2;
    }
}

/* Each table row has as many unescaped pipes as its table's header. */
static void assert_md_table_pipes(const char *m)
{
    int want = -1;
    const char *line = m;
    while (*line) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        int pipes = 0;
        for (size_t i = 0; i < len; i++)
            if (line[i] == '|' && (i == 0 || line[i - 1] != '\\'))
                pipes++;
        if (len > 0 && line[0] == '|') {
            if (want < 0)
                want = pipes;
            else if (pipes != want)
                fail_msg("table row with %d pipes (header %d): %.60s", pipes, want, line);
        } else {
            want = -1;
        }
        line += len + (end ? 1 : 0);
    }
}

static void test_hostile(void **state)
{
    (void)state;
    json_t *doc = load("hostile");
    hostile_add_bad_utf8(doc);

    char *t = render(doc, IOSAGE_REPORT_TEXT, 0);
    assert_true(clean_utf8(t));
    assert_null(strchr(t, '\x1b'));
    assert_contains(t, "! \\x1b[31mred warning\\x1b[0m\n");
    assert_contains(t, "! line1\\nline2\n");
    assert_contains(t, "/bin/app\\xff\\xfe-\\xe2\\x82-\\xc0\\xaf-\\xed\\xa0\\x80-\\x1b[31mend");
    assert_contains(t, "model: model\\nwith newline\\r\\x1b[2J");
    assert_contains(t, "\\u202eevil bidi\\u202c");
    assert_true(max_width(t) <= 80);
    char *tc = render(doc, IOSAGE_REPORT_TEXT, 1);
    for (const char *p = tc; (p = strchr(p, '\x1b')) != NULL; p++) {
        size_t n = strspn(p + 1, "[0123456789;");
        if (p[1] != '[' || p[1 + n] != 'm')
            fail_msg("escape sequence not ours at: %.20s", p);
    }

    char *m = render(doc, IOSAGE_REPORT_MARKDOWN, 0);
    assert_true(clean_utf8(m));
    assert_null(strchr(m, '<'));
    for (const char *p = strstr(m, "]("); p; p = strstr(p + 2, "]("))
        assert_true(p[-1] == '\\'); /* no link: every ] is escaped */
    assert_null(strstr(m, "\n# heading"));
    assert_contains(m, "\\[x\\](javascript:alert(11))");
    assert_contains(m, "- \\| a \\| b \\| \\`c\\` \\\\x1b\\[31m\n");
    assert_contains(m, "Set \\`io\\_form\\` \\| \\*11\\* \\_now\\_ &lt;script&gt;alert(1)"
                       "&lt;/script&gt;");
    assert_contains(m, "| 57 | \\#+-=key\\\\x1b\\[1m | .true. |");
    assert_md_backticks(m);
    assert_md_table_pipes(m);

    char *h = render(doc, IOSAGE_REPORT_HTML, 0);
    assert_true(clean_utf8(h));
    assert_int_equal(count(h, "<script"), 0);
    assert_int_equal(count(h, "<img"), 0);
    assert_int_equal(count(h, "<a "), 0);
    assert_int_equal(count(h, "href=\""), 0); /* only as text: href=&quot; */
    assert_contains(h, "&lt;a href=&quot;javascript:alert(9)&quot;&gt;x&lt;/a&gt;");
    assert_int_equal(count(h, "<svg "), 7);
    assert_int_equal(count(h, "</svg>"), 7);
    assert_int_equal(count(h, "<title>"), 1 + 20 + 32 + 7 + 10); /* page, bars */
    assert_contains(h, "&lt;/svg&gt;&lt;script&gt;alert(6)&lt;/script&gt;");
    assert_contains(h, "&#39;&quot; onmouseover=alert(10) x=&#39;`|*_");
    assert_contains(h, ">&lt;/text&gt;&lt;/svg&gt;&lt;script&gt;alert(5)&lt;/script&gt;</text>");
    assert_contains(h, "<title>iosage report: /bin/app\\xff\\xfe");

    char *j = render(doc, IOSAGE_REPORT_JSON, 0);
    json_error_t jerr;
    json_t *back = json_loads(j, 0, &jerr); /* strict: valid UTF-8 only */
    assert_non_null(back);
    assert_string_equal(json_string_value(json_object_get(json_object_get(back, "job"), "exe")),
                        "/bin/app\xEF\xBF\xBD\xEF\xBF\xBD-\xEF\xBF\xBD\xEF\xBF\xBD-\xEF\xBF\xBD"
                        "\xEF\xBF\xBD-\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD-\x1b[31mend");
    assert_contains(j, "\"exe\": \"/bin/app\xEF\xBF\xBD");
    assert_contains(j, "\\u001B[31mend\"");
    assert_null(strchr(j, '\x1b'));
    json_decref(back);
    free(t), free(tc), free(m), free(h), free(j);
    json_decref(doc);
}

/* ---- JSON view, determinism, every fixture --------------------------------------- */

static void test_json_view(void **state)
{
    (void)state;
    json_t *doc = load("three_patterns");
    char *j = render(doc, IOSAGE_REPORT_JSON, 0);
    assert_true(strncmp(j, "{\n  \"schema\": \"iosage-report\",\n  \"version\": 1,\n", 46) == 0);
    const char *a = strstr(j, "\"job\""), *b = strstr(j, "\"summary\""),
               *c = strstr(j, "\"advice\""), *d = strstr(j, "\"warnings\"");
    assert_true(a && b && c && d && a < b && b < c && c < d);
    json_t *back = json_loads(j, 0, NULL);
    assert_true(json_equal(back, doc));
    json_decref(back);
    free(j);
    json_decref(doc);
}

static void test_every_fixture_deterministic(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_FIXTURES; i++) {
        json_t *doc = load(fixtures[i]);
        for (int f = IOSAGE_REPORT_TEXT; f <= IOSAGE_REPORT_JSON; f++) {
            char *x = render(doc, (enum iosage_report_format)f, f == 0);
            char *y = render(doc, (enum iosage_report_format)f, f == 0);
            assert_string_equal(x, y);
            assert_true(strlen(x) > 1000);
            if (f == IOSAGE_REPORT_HTML) {
                assert_int_equal(count(x, "<script"), 0);
                assert_int_equal(count(x, "<svg "), count(x, "</svg>"));
                assert_contains(x, "</html>\n");
            }
            free(x);
            free(y);
        }
        json_decref(doc);
    }
}

/* ---- odd documents render, they do not crash -------------------------------------- */

static void test_tolerant(void **state)
{
    (void)state;
    static const char *const docs[] = {
        "{\"schema\": \"iosage-report\", \"version\": 1}",
        "{\"schema\": \"iosage-report\", \"version\": 1, \"job\": [], \"summary\": \"x\","
        " \"charts\": {\"request_sizes\": {\"bins\": [1, null], \"read\": \"x\"},"
        " \"ranks\": {\"rank\": \"x\", \"bytes\": [1, \"a\", null], \"time\": [-5, 1e300]}},"
        " \"detection\": {\"patterns\": [1, \"x\", {\"name\": 5, \"detected\": true,"
        " \"score\": 7, \"threshold\": -1, \"shap\": [3, {\"contribution\": 0}]}]},"
        " \"findings\": [null, {\"card\": {\"features\": [1, {}]}}],"
        " \"configs\": [{\"settings\": [null]}],"
        " \"advice\": {\"source\": 3, \"dropped\": \"x\", \"changes\": [7, {\"where\": 1}]},"
        " \"warnings\": [1, \"\"]}"};
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        json_t *doc = json_loads(docs[i], 0, NULL);
        assert_non_null(doc);
        for (int f = IOSAGE_REPORT_TEXT; f <= IOSAGE_REPORT_JSON; f++) {
            char *x = render(doc, (enum iosage_report_format)f, 1);
            if (f != IOSAGE_REPORT_JSON)
                assert_contains(x, "n/a");
            free(x);
        }
        json_decref(doc);
    }
}

/* Scores and thresholds far outside 0..1 (a fuzzed document had 1e26):
 * the bars are full or empty, the conversion to a bar position is never
 * out of range (UBSan in the test build). */
static void test_score_bars_out_of_range(void **state)
{
    (void)state;
    json_t *doc = json_loads(
        "{\"schema\": \"iosage-report\", \"version\": 1, \"detection\":"
        " {\"patterns\": [{\"name\": \"Huge\", \"detected\": true,"
        " \"score\": 1e26, \"threshold\": 1.3e57},"
        " {\"name\": \"Tiny\", \"detected\": false, \"score\": -1e26,"
        " \"threshold\": -4e24}]}}",
        0, NULL);
    assert_non_null(doc);
    char *t = render(doc, IOSAGE_REPORT_TEXT, 0);
    assert_contains(t, "[###################|]");
    assert_contains(t, "[|...................]");
    free(t);
    json_decref(doc);
}

/* ---- long strings: wrapped in the text view, whole in every view ------------- */

static void test_long_strings(void **state)
{
    (void)state;
    json_t *doc = load("three_patterns");
    char exe[3003];
    memset(exe, 'a', 3000);
    memcpy(exe + 3000, "/b", 3);
    json_object_set_new(json_object_get(doc, "job"), "exe", json_string(exe));
    char *t = render(doc, IOSAGE_REPORT_TEXT, 0);
    assert_true(max_width(t) <= 80);
    char *job = between(t, "job:     ", "log:");
    int a = 0;
    for (const char *p = job; *p; p++)
        a += *p == 'a';
    assert_int_equal(a, 3000);
    assert_true(count(job, "\n           ") >= 40); /* cut into lines of 69 */
    free(job);
    char *h = render(doc, IOSAGE_REPORT_HTML, 0);
    assert_contains(h, exe);
    char *m = render(doc, IOSAGE_REPORT_MARKDOWN, 0);
    assert_contains(m, exe);
    free(t), free(h), free(m);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_check),
        cmocka_unit_test(test_format_names),
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_healthy),
        cmocka_unit_test(test_three_text),
        cmocka_unit_test(test_lustre_single_layout),
        cmocka_unit_test(test_verdict_records_left_out),
        cmocka_unit_test(test_verdict_gate_outvoted),
        cmocka_unit_test(test_expected_saving_lines),
        cmocka_unit_test(test_three_markdown),
        cmocka_unit_test(test_three_html),
        cmocka_unit_test(test_llm_and_fallback),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_json_view),
        cmocka_unit_test(test_every_fixture_deterministic),
        cmocka_unit_test(test_tolerant),
        cmocka_unit_test(test_score_bars_out_of_range),
        cmocka_unit_test(test_long_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
