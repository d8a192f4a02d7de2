/*
 * src/cli/cmd_validate.c - `iosage validate SCENARIO...`: for each scenario
 * run the baseline under the tracer, analyze its log, apply the top change
 * (or every change) and measure it in alternating paired runs; print the
 * speedups as text, JSON or a Markdown table (docs/validation.md).
 *
 * The work is done by the library (include/iosage/validate.h); this file
 * parses the command line, makes the work directories and prints.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ios_outfile.h"
#include "iosage/label.h"
#include "iosage/validate.h"
#include "iosage/version.h"

enum out_format { OUT_TEXT, OUT_JSON, OUT_MARKDOWN };

struct validate_args {
    struct iosage_validate_options o;
    enum out_format format;
    const char *work;   /* --work DIR: keep everything under DIR/<name> */
    const char *json;   /* --json FILE: the JSON document there too */
    const char *pfs;    /* --pfs PROFILE, or NULL */
    int quiet;
    int n_scenarios;
    char **scenarios;   /* point into argv */
};

/* One scenario's outcome, kept for the final output. */
struct scenario_run {
    struct iosage_validate_scenario *s;
    struct iosage_validate_result r;
    iosage_status st;
    char error[800];    /* the error line when st != IOSAGE_OK */
};

static void validate_help(void)
{
    fputs(
        "Usage: iosage validate [OPTIONS] SCENARIO...\n"
        "\n"
        "Close the loop on a benchmark kernel: run the SCENARIO's baseline\n"
        "under the tracer, analyze its log ('iosage analyze --format json'),\n"
        "take the top-ranked change, and run the baseline and the changed\n"
        "configuration alternately (A B A B ...). For each change: median\n"
        "time without and with it, speedup = median of the pair ratios\n"
        "(without / with), and an order-statistic interval of at least 90%\n"
        "coverage (ratios 3 and 9 of 11: 93.5%). Times are the kernel's own\n"
        "seconds (its timed I/O phases); the wall time of the whole mpirun\n"
        "is reported too. Timed runs are not traced. A healthy scenario\n"
        "checks that no change is proposed. Scenario format:\n"
        "docs/validation.md and bench/scenarios/.\n"
        "\n"
        "  --runs N           pairs (default 11)\n"
        "  --warmup N         untimed rounds first (default 1)\n"
        "  --all-changes      measure every proposed change, not only the top\n"
        "  --llm P:M          ask this LLM for the advice (passed to analyze)\n"
        "  --format F         text (default), json, or markdown (one table)\n"
        "  --json FILE        also write the JSON document to FILE\n"
        "  --work DIR         keep logs and run output in DIR/<scenario>/\n"
        "                     (default: a temporary directory, removed)\n"
        "  --timeout SECONDS  per run (default 300)\n"
        "  --bench-dir DIR    the kernels (default: bench/ beside iosage)\n"
        "  --tracer LIB       the MPI tracer (default:\n"
        "                     trace/libiosage-trace-mpi.so beside iosage)\n"
        "  --pfs PROFILE      every run on the emulated parallel file system\n"
        "                     of PROFILE (a file, or a name in profiles/;\n"
        "                     docs/pfs.md)\n"
        "  -q, --quiet        no progress lines on stderr\n"
        "  -h, --help         show this help\n"
        "\n"
        "IOSAGE_VALIDATE_ANALYZER, when set, is run instead of this iosage\n"
        "binary as the analyzer (same arguments; a test hook).\n"
        "\n"
        "Exit status: 0 every scenario measured (or healthy and nothing\n"
        "proposed), 1 some scenario's check failed (a change proposed for a\n"
        "healthy one, none for a bottleneck, or the top change has no\n"
        "configuration), 2 usage error, 3 a scenario could not be read,\n"
        "4 a run or the analyzer failed.\n",
        stdout);
}

/* --- Command line -------------------------------------------------------- */

static long int_arg(const char *s, long min, long max)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return errno || end == s || *end || v < min || v > max ? -1 : v;
}

/* Options that take a value. 0 ok, else a usage error was printed. */
static int take_value(struct validate_args *a, const char *opt,
                      const char *val)
{
    long v = 0;
    if (strcmp(opt, "--runs") == 0) {
        v = int_arg(val, 1, IOSAGE_VALIDATE_MAX_RUNS);
        a->o.runs = (int)v;
    } else if (strcmp(opt, "--warmup") == 0) {
        v = int_arg(val, 0, 100);
        a->o.warmup = (int)v;
    } else if (strcmp(opt, "--timeout") == 0) {
        v = int_arg(val, 1, 86400);
        a->o.timeout_s = (int)v;
    } else if (strcmp(opt, "--llm") == 0) {
        if (!strchr(val, ':'))
            return cli_usage_error("validate", "validate: --llm takes "
                                   "PROVIDER:MODEL, got '%s'", val);
        a->o.llm = val;
    } else if (strcmp(opt, "--format") == 0) {
        if (strcmp(val, "text") == 0)
            a->format = OUT_TEXT;
        else if (strcmp(val, "json") == 0)
            a->format = OUT_JSON;
        else if (strcmp(val, "markdown") == 0)
            a->format = OUT_MARKDOWN;
        else
            return cli_usage_error("validate", "validate: --format is text, "
                                   "json or markdown, got '%s'", val);
    } else if (strcmp(opt, "--work") == 0) {
        a->work = val;
    } else if (strcmp(opt, "--json") == 0) {
        a->json = val;
    } else if (strcmp(opt, "--bench-dir") == 0) {
        a->o.bench_dir = val;
    } else if (strcmp(opt, "--pfs") == 0) {
        a->pfs = val;
    } else {
        a->o.tracer = val;
    }
    if (v < 0)
        return cli_usage_error("validate", "validate: %s: bad number '%s'",
                               opt, val);
    return 0;
}

static int is_valued(const char *s)
{
    const char *opts[] = {"--runs", "--warmup", "--timeout", "--llm",
                          "--format", "--work", "--json", "--bench-dir",
                          "--tracer", "--pfs"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (strcmp(s, opts[i]) == 0)
            return 1;
    return 0;
}

static int parse_args(int argc, char **argv, struct validate_args *a,
                      int *done)
{
    *done = 0;
    a->o.runs = 11;
    a->o.warmup = 1;
    a->o.timeout_s = 300;
    a->scenarios = calloc((size_t)argc, sizeof *a->scenarios);
    if (!a->scenarios)
        return CLI_INTERNAL;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (cli_is_help(s)) {
            validate_help();
            *done = 1;
            return CLI_OK;
        } else if (strcmp(s, "--all-changes") == 0) {
            a->o.all_changes = 1;
        } else if (strcmp(s, "-q") == 0 || strcmp(s, "--quiet") == 0) {
            a->quiet = 1;
        } else if (is_valued(s)) {
            if (i + 1 >= argc)
                return cli_usage_error("validate", "validate: %s needs a "
                                       "value", s);
            if (take_value(a, s, argv[++i]) != 0)
                return CLI_USAGE;
        } else if (s[0] == '-' && s[1]) {
            return cli_usage_error("validate", "validate: unknown option "
                                   "'%s'", s);
        } else {
            a->scenarios[a->n_scenarios++] = argv[i];
        }
    }
    if (a->n_scenarios == 0)
        return cli_usage_error("validate", "validate: no SCENARIO given");
    return CLI_OK;
}

/* --- Where things are ---------------------------------------------------- */

/* The running binary into exe, its directory into dir. */
static int self_paths(char *exe, char *dir, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", exe, size - 1);
    if (n <= 0)
        return -1;
    exe[n] = '\0';
    snprintf(dir, size, "%s", exe);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    return 0;
}

/* Fill the defaults that depend on where iosage lives. */
static int find_tools(struct validate_args *a, char *exe, char *bench,
                      char *tracer, size_t size)
{
    char dir[4096];
    if (self_paths(exe, dir, size < sizeof dir ? size : sizeof dir) != 0) {
        fputs("iosage: validate: cannot find the iosage binary "
              "(/proc/self/exe)\n", stderr);
        return CLI_INTERNAL;
    }
    const char *env = getenv("IOSAGE_VALIDATE_ANALYZER");
    /* rebuilt while running: the old image is only reachable through /proc */
    size_t n = strlen(exe);
    if (n > 10 && strcmp(exe + n - 10, " (deleted)") == 0)
        snprintf(exe, size, "/proc/self/exe");
    a->o.analyzer = env && env[0] ? env : exe;
    if (snprintf(bench, size, "%s/bench", dir) >= (int)size ||
        snprintf(tracer, size, "%s/trace/libiosage-trace-mpi.so", dir) >=
            (int)size) {
        fprintf(stderr, "iosage: validate: the path of %s is too long\n", dir);
        return CLI_INTERNAL;
    }
    if (!a->o.bench_dir)
        a->o.bench_dir = bench;
    if (!a->o.tracer)
        a->o.tracer = tracer;
    if (access(a->o.tracer, R_OK) != 0) {
        fprintf(stderr, "iosage: validate: no tracer at %s (--tracer)\n",
                a->o.tracer);
        return CLI_BADINPUT;
    }
    return CLI_OK;
}

/* Remove the files of a directory we made, then the directory. */
static void remove_work_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[4400];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

/* The work directory of scenario name: WORK/name (made), or a fresh
 * temporary one (*made_tmp = 1). 0 ok. */
static int make_work_dir(const struct validate_args *a, const char *name,
                         char *dir, size_t size, int *made_tmp)
{
    *made_tmp = 0;
    if (a->work) {
        mkdir(a->work, 0755);
        snprintf(dir, size, "%s/%s", a->work, name);
        if (mkdir(dir, 0755) != 0 && errno != EEXIST)
            return -1;
        return 0;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, size, "%s/iosage-validate-XXXXXX", tmp && tmp[0] ? tmp
                                                                   : "/tmp");
    if (!mkdtemp(dir))
        return -1;
    *made_tmp = 1;
    return 0;
}

static void progress_line(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "validate: %s\n", line);
}

/* --- Printing ------------------------------------------------------------ */

static const char *verdict_id(enum iosage_validate_verdict v)
{
    const char *ids[] = {"measured", "healthy_ok", "healthy_proposed",
                         "nothing_proposed", "no_configuration"};
    return (unsigned)v < 5 ? ids[v] : "?";
}

/* The labeler's patterns as "a, b", "healthy" or "(could not label)". */
static void print_labels(FILE *out, const int *labels, int labeled)
{
    int any = 0;
    for (int p = 0; labeled && p < IOSAGE_VALIDATE_NPATTERNS; p++)
        if (labels[p])
            fprintf(out, "%s%s", any++ ? ", " : "", iosage_label_pattern_id(p));
    if (!any)
        fputs(labeled ? "healthy" : "(could not label)", out);
}

/* Index of a pattern id in the labeler's order, or -1. */
static int label_index(const char *id)
{
    for (int p = 0; p < IOSAGE_VALIDATE_NPATTERNS; p++)
        if (strcmp(iosage_label_pattern_id(p), id) == 0)
            return p;
    return -1;
}

/* 1 when the labeler no longer finds the change's pattern after it. */
static int pattern_gone(const struct iosage_validate_change_result *c)
{
    int p = label_index(c->proposal.pattern);
    return c->labeled_after && p >= 0 && !c->labels_after[p];
}

/* "faster", "slower" or "no measurable difference". */
static const char *effect(const struct iosage_validate_stats *st)
{
    if (st->lo > 1.0)
        return "faster";
    if (st->hi < 1.0)
        return "slower";
    return "no measurable difference";
}

static void print_flags(FILE *out, const struct iosage_validate_flags *f)
{
    for (int i = 0; i < f->n; i++)
        fprintf(out, "%s%s", i ? " " : "", f->v[i]);
}

/* "93.5% interval 3.40-3.95" or "min..max 0.91-1.20 (coverage 75.0%)". */
static void print_interval(FILE *out, const struct iosage_validate_stats *st)
{
    if (st->reached)
        fprintf(out, "%.1f%% interval %.2f-%.2f", 100 * st->coverage, st->lo,
                st->hi);
    else
        fprintf(out, "min..max %.2f-%.2f (coverage %.1f%%)", st->lo, st->hi,
                100 * st->coverage);
}

static void text_change(FILE *out, const struct iosage_validate_scenario *s,
                        const struct iosage_validate_change_result *c)
{
    fprintf(out, "  change %d   %s/%s", c->proposal.rank, c->proposal.pattern,
            c->proposal.change_id);
    if (c->outcome == IOSAGE_VALIDATE_NO_CONFIG) {
        fprintf(out, ": advice proposed %s, scenario has no configuration "
                "for it\n", c->proposal.change_id);
        return;
    }
    fputs(": ", out);
    if (strcmp(c->change->kernel, s->kernel) != 0)
        fprintf(out, "kernel=%s ", c->change->kernel);
    print_flags(out, &c->change->flags);
    const struct iosage_validate_measure *m[2] = {&c->kernel, &c->wall};
    const char *what[2] = {"kernel seconds", "wall seconds  "};
    for (int i = 0; i < 2; i++) {
        fprintf(out, "\n             %s %.4f -> %.4f (medians of %zu), "
                "speedup %.2fx, ", what[i], m[i]->median_without,
                m[i]->median_with, c->runs, m[i]->stats.median);
        print_interval(out, &m[i]->stats);
        fprintf(out, ": %s", effect(&m[i]->stats));
    }
    fputs("\n             labeler after the change: ", out);
    print_labels(out, c->labels_after, c->labeled_after);
    fputc('\n', out);
}

static void print_text(FILE *out, const struct scenario_run *sr)
{
    const struct iosage_validate_scenario *s = sr->s;
    fprintf(out, "%s: %s on %d ranks (%s)\n  baseline   ", s->name, s->kernel,
            s->ranks, s->path);
    print_flags(out, &s->baseline);
    fputs("\n  built for  ", out);
    for (int i = 0; i < s->n_patterns; i++)
        fprintf(out, "%s%s", i ? ", " : "", s->patterns[i]);
    fputs(s->healthy ? "healthy\n" : "\n", out);
    if (sr->st != IOSAGE_OK) {
        fprintf(out, "  error      %s\n\n", sr->error);
        return;
    }
    const struct iosage_validate_result *r = &sr->r;
    fputs("  labeler    ", out);
    print_labels(out, r->labels, r->labeled);
    fputc('\n', out);
    fprintf(out, "  advice     %s:", r->advice.source);
    for (size_t i = 0; i < r->advice.n; i++)
        fprintf(out, " %d %s/%s", r->advice.changes[i].rank,
                r->advice.changes[i].pattern, r->advice.changes[i].change_id);
    fprintf(out, "%s\n  verdict    %s\n", r->advice.n ? "" : " none",
            iosage_validate_verdict_text(r->verdict));
    for (size_t i = 0; i < r->n_results; i++)
        text_change(out, s, &r->results[i]);
    fputc('\n', out);
}

/* --- JSON ---------------------------------------------------------------- */

static json_t *flags_json(const struct iosage_validate_flags *f)
{
    json_t *a = json_array();
    for (int i = 0; i < f->n; i++)
        json_array_append_new(a, json_string(f->v[i]));
    return a;
}

/* The labeler's patterns as an array, or null when not labeled. */
static json_t *labels_json(const int *labels, int labeled)
{
    if (!labeled)
        return json_null();
    json_t *a = json_array();
    for (int p = 0; p < IOSAGE_VALIDATE_NPATTERNS; p++)
        if (labels[p])
            json_array_append_new(a, json_string(iosage_label_pattern_id(p)));
    return a;
}

static json_t *samples_json(const double *x, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_real(x[i]));
    return a;
}

static json_t *measure_json(const struct iosage_validate_measure *m)
{
    const struct iosage_validate_stats *st = &m->stats;
    return json_pack("{s:f,s:f,s:f,s:f,s:f,s:[I,I],s:f,s:b,s:b,s:s}",
                     "median_without", m->median_without, "median_with",
                     m->median_with, "speedup", st->median, "interval_lo",
                     st->lo, "interval_hi", st->hi, "interval_ranks",
                     (json_int_t)st->k_lo, (json_int_t)st->k_hi, "coverage",
                     st->coverage, "coverage_reached", st->reached,
                     "significant", st->significant, "effect", effect(st));
}

static json_t *change_json(const struct iosage_validate_change_result *c)
{
    json_t *j = json_pack("{s:i,s:s,s:s,s:b}", "rank", c->proposal.rank,
                          "pattern", c->proposal.pattern, "change_id",
                          c->proposal.change_id, "measured",
                          c->outcome == IOSAGE_VALIDATE_MEASURED);
    if (c->outcome != IOSAGE_VALIDATE_MEASURED) {
        char why[200];
        snprintf(why, sizeof why, "advice proposed %s, scenario has no "
                 "configuration for it", c->proposal.change_id);
        json_object_set_new(j, "reason", json_string(why));
        return j;
    }
    json_object_set_new(j, "kernel", json_string(c->change->kernel));
    json_object_set_new(j, "flags", flags_json(&c->change->flags));
    json_object_set_new(j, "runs", json_integer((json_int_t)c->runs));
    json_t *k = measure_json(&c->kernel);
    json_object_update(j, k); /* the kernel's seconds are the headline */
    json_decref(k);
    json_object_set_new(j, "wall", measure_json(&c->wall));
    json_object_set_new(j, "labels_after",
                        labels_json(c->labels_after, c->labeled_after));
    json_object_set_new(j, "pattern_gone", json_boolean(pattern_gone(c)));
    json_object_set_new(j, "samples", json_pack(
        "{s:o,s:o,s:o,s:o}", "without", samples_json(c->without_s, c->runs),
        "with", samples_json(c->with_s, c->runs), "without_wall",
        samples_json(c->without_wall, c->runs), "with_wall",
        samples_json(c->with_wall, c->runs)));
    return j;
}

static json_t *result_json(const struct scenario_run *sr,
                           const struct validate_args *a)
{
    const struct iosage_validate_scenario *s = sr->s;
    json_t *pats = json_array();
    for (int i = 0; i < s->n_patterns; i++)
        json_array_append_new(pats, json_string(s->patterns[i]));
    json_t *j = json_pack("{s:s,s:s,s:s,s:i,s:o,s:b,s:o}", "name", s->name,
                          "file", s->path, "kernel", s->kernel, "ranks",
                          s->ranks, "patterns", pats, "healthy", s->healthy,
                          "baseline", flags_json(&s->baseline));
    if (sr->st != IOSAGE_OK) {
        json_object_set_new(j, "error", json_string(sr->error));
        return j;
    }
    const struct iosage_validate_result *r = &sr->r;
    json_t *labels = labels_json(r->labels, r->labeled);
    json_t *det = json_array(), *prop = json_array(), *ch = json_array();
    for (int i = 0; i < r->advice.n_detected; i++)
        json_array_append_new(det, json_string(r->advice.detected[i]));
    for (size_t i = 0; i < r->advice.n; i++)
        json_array_append_new(prop, json_pack(
            "{s:i,s:s,s:s}", "rank", r->advice.changes[i].rank, "pattern",
            r->advice.changes[i].pattern, "change_id",
            r->advice.changes[i].change_id));
    for (size_t i = 0; i < r->n_results; i++)
        json_array_append_new(ch, change_json(&r->results[i]));
    json_object_set_new(j, "labels", labels);
    json_object_set_new(j, "detected", det);
    json_object_set_new(j, "advice", json_pack("{s:s,s:o}", "source",
                                               r->advice.source, "proposed",
                                               prop));
    json_object_set_new(j, "verdict", json_string(verdict_id(r->verdict)));
    json_object_set_new(j, "verdict_text", json_string(
        iosage_validate_verdict_text(r->verdict)));
    json_object_set_new(j, "warmup", json_integer(a->o.warmup));
    json_object_set_new(j, "changes", ch);
    return j;
}

static void print_json(FILE *out, const struct scenario_run *runs, int n,
                       const struct validate_args *a)
{
    json_t *list = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(list, result_json(&runs[i], a));
    char generator[64];
    snprintf(generator, sizeof generator, "iosage %s", iosage_version());
    json_t *doc = json_pack("{s:s,s:i,s:s,s:i,s:b,s:s,s:o}", "schema",
                            "iosage-validate", "version", 1, "metric",
                            "kernel_seconds", "runs", a->o.runs, "traced_runs",
                            0, "generator", generator,
                            "scenarios", list);
    json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
    fputc('\n', out);
    json_decref(doc);
}

/* The JSON document into path (a temporary file renamed: no partial
 * file). */
static int write_json(const char *path, const struct scenario_run *runs,
                      int n, const struct validate_args *a)
{
    struct ios_outfile f;
    int e = ios_outfile_open(&f, path);
    if (e == 0) {
        print_json(f.f, runs, n, a);
        e = ios_outfile_commit(&f);
    }
    return e == 0 ? CLI_OK : cli_output_error(path, e);
}

/* --- Markdown (the table of docs/validation.md) -------------------------- */

static void md_row(FILE *out, const struct scenario_run *sr,
                   const struct iosage_validate_change_result *c)
{
    const struct iosage_validate_scenario *s = sr->s;
    fprintf(out, "| %s | %d | %s | %s", s->name, s->ranks,
            c->proposal.pattern, c->proposal.change_id);
    if (c->proposal.rank != 1)
        fprintf(out, " (#%d)", c->proposal.rank);
    if (c->change && strcmp(c->change->kernel, s->kernel) != 0)
        fprintf(out, " [%s]", c->change->kernel);
    fputs(" | ", out);
    if (c->outcome != IOSAGE_VALIDATE_MEASURED) {
        fputs("— | — | no configuration | — | — | — | — |\n", out);
        return;
    }
    const struct iosage_validate_stats *k = &c->kernel.stats;
    const struct iosage_validate_stats *w = &c->wall.stats;
    const char *bold = k->significant ? "**" : "";
    fprintf(out, "%.3f | %.3f | %s%.2fx%s | %.2f–%.2f (%.1f%%) | %s | "
            "%.2fx (%.2f–%.2f) | %s |\n", c->kernel.median_without,
            c->kernel.median_with, bold, k->median, bold, k->lo, k->hi,
            100 * k->coverage, effect(k), w->median, w->lo, w->hi,
            !c->labeled_after ? "?" : pattern_gone(c) ? "yes" : "no");
}

static void print_markdown(FILE *out, const struct scenario_run *runs, int n)
{
    fputs("| scenario | ranks | pattern | change | baseline (s) | changed (s) "
          "| speedup | interval (coverage) | effect "
          "| wall speedup (interval) | pattern gone |\n"
          "|---|---:|---|---|---:|---:|---:|---|---|---|---|\n", out);
    for (int i = 0; i < n; i++) {
        const struct scenario_run *sr = &runs[i];
        if (sr->st != IOSAGE_OK) {
            fprintf(out, "| %s | %d | — | error: %s | | | | | | | |\n",
                    sr->s->name, sr->s->ranks, sr->error);
            continue;
        }
        const struct iosage_validate_result *r = &sr->r;
        if (r->n_results == 0)
            fprintf(out, "| %s | %d | %s | %s | | | | | | | |\n", sr->s->name,
                    sr->s->ranks, sr->s->healthy ? "(healthy)" : "—",
                    iosage_validate_verdict_text(r->verdict));
        for (size_t k = 0; k < r->n_results; k++)
            md_row(out, sr, &r->results[k]);
    }
}

/* --- Running ------------------------------------------------------------- */

/* Run one loaded scenario into sr. */
static void run_one(const struct validate_args *a, struct scenario_run *sr)
{
    char dir[4096];
    int made_tmp = 0;
    if (make_work_dir(a, sr->s->name, dir, sizeof dir, &made_tmp) != 0) {
        sr->st = IOSAGE_E_IO;
        snprintf(sr->error, sizeof sr->error, "cannot make a work directory "
                 "%.600s: %s", dir, strerror(errno));
        return;
    }
    struct iosage_validate_options o = a->o;
    o.work_dir = dir;
    iosage_error err;
    sr->st = iosage_validate_run(sr->s, &o, &sr->r, &err);
    if (sr->st != IOSAGE_OK) {
        iosage_error_line(&err, sr->error, sizeof sr->error);
        fprintf(stderr, "iosage: validate: %s: %s (kept %s)\n", sr->s->name,
                sr->error, dir);
    } else if (made_tmp) {
        remove_work_dir(dir);
    }
}

/* Load every scenario before running any. CLI_OK or CLI_BADINPUT. */
static int load_all(const struct validate_args *a, struct scenario_run *runs)
{
    for (int i = 0; i < a->n_scenarios; i++) {
        iosage_error err;
        if (iosage_validate_scenario_load(a->scenarios[i], &runs[i].s, &err) !=
            IOSAGE_OK) {
            cli_print_error(&err);
            return CLI_BADINPUT;
        }
    }
    return CLI_OK;
}

static int exit_status(const struct scenario_run *runs, int n)
{
    int rc = CLI_OK;
    for (int i = 0; i < n; i++) {
        if (runs[i].st != IOSAGE_OK)
            return CLI_INTERNAL;
        enum iosage_validate_verdict v = runs[i].r.verdict;
        if (v != IOSAGE_VALIDATE_V_MEASURED &&
            v != IOSAGE_VALIDATE_V_HEALTHY_OK)
            rc = CLI_FOUND;
    }
    return rc;
}

int cmd_validate(int argc, char **argv)
{
    struct validate_args a;
    memset(&a, 0, sizeof a);
    int done, rc = parse_args(argc, argv, &a, &done);
    if (rc == CLI_OK && !done)
        rc = cli_refuse_clash("validate", "--json", a.json, 0,
                              (const char *const *)a.scenarios,
                              (size_t)a.n_scenarios);
    static char exe[4096], bench[4200], tracer[4200];
    if (rc == CLI_OK && !done)
        rc = find_tools(&a, exe, bench, tracer, sizeof exe);
    /* --pfs: every run on the emulated file system; the emulator is
     * preloaded after the tracer in traced runs and alone in the others */
    static char pfs_lib[PATH_MAX], mount[PATH_MAX], preload[2 * PATH_MAX + 2];
    if (rc == CLI_OK && !done && a.pfs) {
        rc = cli_pfs_setup("validate", a.pfs, pfs_lib, sizeof pfs_lib, mount,
                           sizeof mount);
        snprintf(preload, sizeof preload, "%s:%s", a.o.tracer, pfs_lib);
        a.o.tracer = preload;
        a.o.preload = pfs_lib;
    }
    struct scenario_run *runs = NULL;
    if (rc == CLI_OK && !done) {
        runs = calloc((size_t)a.n_scenarios, sizeof *runs);
        rc = runs ? load_all(&a, runs) : CLI_INTERNAL;
    }
    if (rc == CLI_OK && !done) {
        if (!a.quiet)
            a.o.progress = progress_line;
        for (int i = 0; i < a.n_scenarios; i++) {
            run_one(&a, &runs[i]);
            if (a.format == OUT_TEXT)
                print_text(stdout, &runs[i]);
        }
        if (a.json)
            rc = write_json(a.json, runs, a.n_scenarios, &a);
        if (a.format == OUT_JSON)
            print_json(stdout, runs, a.n_scenarios, &a);
        else if (a.format == OUT_MARKDOWN)
            print_markdown(stdout, runs, a.n_scenarios);
        int st = exit_status(runs, a.n_scenarios);
        rc = rc == CLI_OK ? st : rc;
    }
    for (int i = 0; runs && i < a.n_scenarios; i++) {
        iosage_validate_result_free(&runs[i].r);
        iosage_validate_scenario_free(runs[i].s);
    }
    free(runs);
    free(a.scenarios);
    if (mount[0])
        cli_pfs_cleanup(mount);
    return rc;
}
