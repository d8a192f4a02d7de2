/*
 * src/cli/cmd_validate.c - `iosage validate SCENARIO...`: for each scenario
 * run the baseline under the tracer, analyze its log, apply the top change
 * (or every change) and measure it in alternating paired runs; print the
 * speedups as text, JSON or a Markdown table (docs/validation.md).
 *
 * The work is done by the library (include/iosage/validate.h), the views
 * by src/report (validate_tables.c); this file parses the command line,
 * makes the work directories and writes the output.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ios_outfile.h"
#include "iosage/report.h"
#include "iosage/validate.h"

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

/* Options that take a value. 0 ok, else a usage error was printed. */
/* See cli.h. */
int cli_validate_run_option(struct iosage_validate_options *o,
                            const char *opt, const char *val)
{
    long v;
    if (strcmp(opt, "--runs") == 0)
        o->runs = (int)(v = cli_int_arg(val, 1, IOSAGE_VALIDATE_MAX_RUNS));
    else if (strcmp(opt, "--warmup") == 0)
        o->warmup = (int)(v = cli_int_arg(val, 0, 100));
    else if (strcmp(opt, "--timeout") == 0)
        o->timeout_s = (int)(v = cli_int_arg(val, 1, 86400));
    else
        return 0;
    return v < 0 ? -1 : 1;
}

static int take_value(struct validate_args *a, const char *opt,
                      const char *val)
{
    long v = 0;
    int timing = cli_validate_run_option(&a->o, opt, val);
    if (timing != 0) {
        v = timing;
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

enum { OPT_VALUE = 1, OPT_ALL_CHANGES, OPT_QUIET };

static const struct ios_option validate_options[] = {
    {"--runs", NULL, 1, OPT_VALUE},      {"--warmup", NULL, 1, OPT_VALUE},
    {"--timeout", NULL, 1, OPT_VALUE},   {"--llm", NULL, 1, OPT_VALUE},
    {"--format", NULL, 1, OPT_VALUE},    {"--work", NULL, 1, OPT_VALUE},
    {"--json", NULL, 1, OPT_VALUE},      {"--bench-dir", NULL, 1, OPT_VALUE},
    {"--tracer", NULL, 1, OPT_VALUE},    {"--pfs", NULL, 1, OPT_VALUE},
    {"--all-changes", NULL, 0, OPT_ALL_CHANGES},
    {"--quiet", "-q", 0, OPT_QUIET},
    {0}};

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
    struct cli_args it =
        cli_args("validate", argc, argv, validate_options, validate_help);
    int id;
    while ((id = cli_args_next(&it)) != CLI_ARG_END) {
        if (id == CLI_ARG_STOP)
            return cli_args_stop(&it, done);
        if (id == OPT_ALL_CHANGES)
            a->o.all_changes = 1;
        else if (id == OPT_QUIET)
            a->quiet = 1;
        else if (id == OPT_VALUE && take_value(a, it.name, it.value) != 0)
            return CLI_USAGE;
        else if (id == CLI_ARG_OPERAND)
            a->scenarios[a->n_scenarios++] = (char *)it.value; /* argv's */
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

/* The JSON document into path (a temporary file renamed: no partial
 * file). */
static int write_json(const char *path, const struct iosage_validate_run *runs,
                      int n, const struct validate_args *a)
{
    struct ios_outfile f;
    int e = ios_outfile_open(&f, path);
    if (e == 0) {
        iosage_report_validate_json(f.f, runs, n, &a->o);
        e = ios_outfile_commit(&f);
    }
    return e == 0 ? CLI_OK : cli_output_error(path, e);
}

/* --- Running ------------------------------------------------------------- */

/* Run one loaded scenario into sr. */
static void run_one(const struct validate_args *a, struct iosage_validate_run *sr)
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
static int load_all(const struct validate_args *a, struct iosage_validate_run *runs)
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

static int exit_status(const struct iosage_validate_run *runs, int n)
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
    struct iosage_validate_run *runs = NULL;
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
                iosage_report_validate_text(stdout, &runs[i]);
        }
        if (a.json)
            rc = write_json(a.json, runs, a.n_scenarios, &a);
        if (a.format == OUT_JSON)
            iosage_report_validate_json(stdout, runs, a.n_scenarios, &a.o);
        else if (a.format == OUT_MARKDOWN)
            iosage_report_validate_markdown(stdout, runs, a.n_scenarios);
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
