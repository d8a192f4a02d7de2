/*
 * src/cli/cmd_savings.c - `iosage savings SWEEP CHANGES DATASET`: measure
 * what each change saves on the runs of a generated dataset (issue 16,
 * docs/savings.md).
 *
 * For every configuration of SWEEP that CHANGES has lines for, in sweep
 * order: the configuration's first ok run of DATASET/manifest.tsv (or its
 * K-th, --run K) gives the file system (its drawn profile,
 * logs/<run>.pfs, or native) and the seed; the baseline and every changed configuration run alternately
 * (A B C A B C ..., iosage/validate.h with `listed`) on that system with
 * that seed, and one row per change goes to DATASET/savings.tsv as soon as
 * the configuration is done. Runs the table already has are skipped, so
 * a stopped campaign resumes; --shard K/N takes every N-th
 * configuration, so that N campaigns can share the work.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ios_text.h"
#include "gen/gen.h"
#include "iosage/darshan.h"
#include "iosage/label.h"
#include "iosage/model.h"
#include "iosage/patterns.h"
#include "iosage/report.h"
#include "iosage/savings.h"
#include "iosage/validate.h"

struct savings_args {
    const char *sweep, *changes, *dataset;
    const char *only;        /* --only ID,ID,..., or NULL */
    int shard_k, shard_n;    /* --shard K/N (1-based), or 1/1 */
    int run_k;               /* --run K: each configuration's K-th ok run */
    struct iosage_validate_options o;
    int quiet;
};

static void savings_help(void)
{
    fputs(
        "Usage: iosage savings measure [OPTIONS] SWEEP CHANGES DATASET\n"
        "       iosage savings labels DATASET\n"
        "       iosage savings train DATASET MODEL_DIR\n"
        "       iosage savings eval [--by-kernel] [--rows] [--model DIR] DATASET\n"
        "\n"
        "measure: what each change saves. For every configuration of SWEEP\n"
        "with lines in CHANGES (bench/sweeps/hpc.changes), on the file system\n"
        "and with the seed of its first run in DATASET (made by `iosage gen`):\n"
        "the baseline and each changed configuration run alternately, and\n"
        "one row per change is appended to DATASET/savings.tsv: medians of\n"
        "the I/O time (the kernel's timed phases) and of the run time (wall\n"
        "time of mpirun), saving = 1 - 1/(median pair ratio), the ratio's\n"
        "interval, and 'pays' (saves >= 10% of the I/O time, interval above\n"
        "1). Runs already in the table are skipped (resume).\n"
        "\n"
        "  --run K            on each configuration's K-th ok run (its drawn\n"
        "                     system and seed; default 1): more systems per\n"
        "                     configuration; one without a K-th run is skipped\n"
        "  --runs N           pairs (default 5)\n"
        "  --warmup N         untimed rounds first (default 0)\n"
        "  --only ID,...      these configurations only\n"
        "  --shard K/N        every N-th configuration from the K-th (1-based):\n"
        "                     N campaigns share the work\n"
        "  --timeout SECONDS  per run (default 300)\n"
        "  --bench-dir DIR    the kernels (default: bench/ beside iosage)\n"
        "  -q, --quiet        no progress lines on stderr\n"
        "  -h, --help         show this help\n"
        "\n"
        "labels: the savings labels (a change that pays) against the\n"
        "configuration labels and `iosage label` on the same run, per\n"
        "pattern, and every disagreement.\n"
        "train: one regression per change id (DATASET's features to its\n"
        "measured savings) into MODEL_DIR beside the classifiers\n"
        "(savings.json, savings-<change_id>.json); `iosage analyze` then\n"
        "shows the expected saving of every proposed change.\n"
        "eval: the savings models' figures on configurations left out of\n"
        "training (5 folds by configuration; --by-kernel: one kernel\n"
        "family left out at a time), and on the healthy runs that the\n"
        "classifiers (--model DIR, default the built-in bundle) never saw,\n"
        "the savings `iosage analyze` would show. --rows prints instead one\n"
        "tab-separated line per scored row: run_id, kernel, change_id,\n"
        "row (measured, or healthy: a healthy configuration's run, saving\n"
        "0), the measured and the out-of-fold predicted saving and the\n"
        "cap (fractions of the I/O time).\n"
        "\n"
        "Exit status: 0 done, 2 usage error, 3 an input could not be read,\n"
        "4 some configuration failed to run (the others are in the table;\n"
        "run again to retry it).\n",
        stdout);
}

enum { OPT_VALUE = 1, OPT_QUIET };

static const struct ios_option savings_options[] = {
    {"--runs", NULL, 1, OPT_VALUE},      {"--warmup", NULL, 1, OPT_VALUE},
    {"--only", NULL, 1, OPT_VALUE},      {"--shard", NULL, 1, OPT_VALUE},
    {"--timeout", NULL, 1, OPT_VALUE},   {"--bench-dir", NULL, 1, OPT_VALUE},
    {"--run", NULL, 1, OPT_VALUE},
    {"--quiet", "-q", 0, OPT_QUIET},
    {0}};

static int take_value(struct savings_args *a, const char *opt, const char *val)
{
    long v = 0;
    int timing = cli_validate_run_option(&a->o, opt, val);
    if (timing != 0) {
        v = timing;
    } else if (strcmp(opt, "--only") == 0) {
        a->only = val;
    } else if (strcmp(opt, "--bench-dir") == 0) {
        a->o.bench_dir = val;
    } else if (strcmp(opt, "--run") == 0) {
        char *end = NULL;
        long k = strtol(val, &end, 10);
        if (!*val || *end || k < 1 || k > 1000)
            return cli_usage_error("savings", "savings: --run takes K from 1 "
                                   "to 1000, got '%s'", val);
        a->run_k = (int)k;
    } else { /* --shard K/N */
        int k, n, used = 0;
        if (sscanf(val, "%d/%d%n", &k, &n, &used) != 2 || val[used] ||
            n < 1 || k < 1 || k > n)
            return cli_usage_error("savings", "savings: --shard takes K/N "
                                   "with 1 <= K <= N, got '%s'", val);
        a->shard_k = k;
        a->shard_n = n;
    }
    if (v < 0)
        return cli_usage_error("savings", "savings: %s: bad number '%s'",
                               opt, val);
    return 0;
}

static int parse_args(int argc, char **argv, struct savings_args *a, int *done)
{
    *done = 0;
    a->o.runs = 5;
    a->o.timeout_s = 300;
    a->o.listed = 1;
    a->shard_k = a->shard_n = 1;
    a->run_k = 1;
    const char *ops[3];
    int n_ops = 0;
    struct cli_args it =
        cli_args("savings", argc, argv, savings_options, savings_help);
    int id;
    while ((id = cli_args_next(&it)) != CLI_ARG_END) {
        if (id == CLI_ARG_STOP)
            return cli_args_stop(&it, done);
        if (id == OPT_QUIET)
            a->quiet = 1;
        else if (id == OPT_VALUE && take_value(a, it.name, it.value) != 0)
            return CLI_USAGE;
        else if (id == CLI_ARG_OPERAND) {
            if (n_ops == 3)
                return cli_usage_error("savings", "savings: more than "
                                       "SWEEP CHANGES DATASET given");
            ops[n_ops++] = it.value;
        }
    }
    if (n_ops != 3)
        return cli_usage_error("savings", "savings: needs SWEEP CHANGES "
                               "DATASET");
    a->sweep = ops[0];
    a->changes = ops[1];
    a->dataset = ops[2];
    return CLI_OK;
}

/* --- The dataset's runs -------------------------------------------------- */

/* The ok runs of manifest.tsv, each with its place among its
 * configuration's ok runs (1 for the first). */
struct ok_run {
    char config[96];
    char run_id[128];
    long seed;
    int native;
    int ordinal;
};

struct ok_runs {
    size_t n;
    struct ok_run *v;
};

/* The k-th ok run of config, or NULL. */
static const struct ok_run *run_of(const struct ok_runs *f,
                                   const char *config, int k)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->v[i].ordinal == k && strcmp(f->v[i].config, config) == 0)
            return &f->v[i];
    return NULL;
}

/* How many ok runs of config are listed so far. */
static int ok_count(const struct ok_runs *f, const char *config)
{
    int n = 0;
    for (size_t i = 0; i < f->n; i++)
        n += strcmp(f->v[i].config, config) == 0;
    return n;
}

/* 1 when the table has a row of run_id. */
static int table_has_run(const struct iosage_savings_table *t,
                         const char *run_id)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->rows[i].run_id, run_id) == 0)
            return 1;
    return 0;
}

/* Every ok run of DATASET/manifest.tsv: its run id, configuration, seed
 * and whether its system was native. */
static int read_ok_runs(const char *dataset, struct ok_runs *out)
{
    iosage_error err;
    iosage_manifest *m = NULL;
    if (iosage_manifest_load(dataset, &m, &err) != IOSAGE_OK) {
        cli_print_error(&err);
        return CLI_BADINPUT;
    }
    static const char *const names[5] = {"run_id", "config_id", "seed",
                                         "status", "system"};
    int ci[5];
    for (int i = 0; i < 5; i++)
        ci[i] = iosage_manifest_column(m, names[i]);
    if (ci[0] < 0 || ci[1] < 0 || ci[2] < 0 || ci[3] < 0 || ci[4] < 0) {
        fprintf(stderr, "iosage: savings: %s: not a manifest of `iosage gen` "
                "(run_id, config_id, seed, status, system)\n", m->path);
        iosage_manifest_free(m);
        return CLI_BADINPUT;
    }
    int rc = CLI_OK;
    size_t cap = 0;
    for (size_t r = 0; r < m->n_rows && rc == CLI_OK; r++) {
        const char *cell[5];
        int short_line = 0;
        for (int i = 0; i < 5; i++)
            short_line |= (cell[i] = iosage_manifest_cell(m, r, ci[i])) == NULL;
        if (short_line || strcmp(cell[3], "ok") != 0)
            continue;
        if (out->n == cap) {
            cap = cap ? 2 * cap : 256;
            void *v = realloc(out->v, cap * sizeof *out->v);
            if (!v) {
                rc = CLI_INTERNAL;
                break;
            }
            out->v = v;
        }
        int ordinal = ok_count(out, cell[1]) + 1;
        struct ok_run *f = &out->v[out->n++];
        f->ordinal = ordinal;
        snprintf(f->config, sizeof f->config, "%s", cell[1]);
        snprintf(f->run_id, sizeof f->run_id, "%s", cell[0]);
        f->seed = strtol(cell[2], NULL, 10);
        f->native = strcmp(cell[4], "native") == 0;
    }
    iosage_manifest_free(m);
    return rc;
}

/* --- One configuration --------------------------------------------------- */

/* The scenario text of configuration c with its change lines, every run
 * with the run's seed. */
static int scenario_text(const struct gen_config *c, long seed,
                         const struct iosage_savings_changes *ch, char *buf,
                         size_t size)
{
    size_t used = 0;
    int n = snprintf(buf, size, "name %s\nkernel %s\nranks %d\npatterns %s\n"
                     "baseline", c->id, c->kernel, c->ranks, c->labels);
    used = n > 0 ? (size_t)n : size;
    for (int i = 0; i < c->n_flags && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, " %s", c->flags[i]);
    if (used < size)
        used += (size_t)snprintf(buf + used, size - used, " --seed %ld\n",
                                 seed);
    for (size_t i = 0; i < ch->n && used < size; i++) {
        const struct iosage_savings_change *x = &ch->v[i];
        if (strcmp(x->config, c->id) != 0)
            continue;
        used += (size_t)snprintf(buf + used, size - used,
                                 "change %s %s%s%s %s --seed %ld\n",
                                 x->pattern, x->change_id,
                                 x->kernel[0] ? " kernel=" : "", x->kernel,
                                 x->flags, seed);
    }
    return used < size ? 0 : -1;
}

static void progress_line(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "savings: %s\n", line);
}

/* Remove the files of the work directory, then the directory. */
static void remove_dir(const char *dir)
{
    static const char *const names[] = {"run.out", "baseline.out", NULL};
    char path[PATH_MAX + 32];
    for (int i = 0; names[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

/* The rows of one measured configuration into rows (at most max). */
static size_t rows_of(const struct iosage_validate_result *r,
                      const struct gen_config *c, const struct ok_run *fr,
                      struct iosage_savings_row *rows, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_results && n < max; i++) {
        const struct iosage_validate_change_result *x = &r->results[i];
        if (x->outcome != IOSAGE_VALIDATE_MEASURED)
            continue;
        struct iosage_savings_row *w = &rows[n++];
        memset(w, 0, sizeof *w);
        snprintf(w->run_id, sizeof w->run_id, "%s", fr->run_id);
        snprintf(w->config, sizeof w->config, "%s", c->id);
        snprintf(w->pattern, sizeof w->pattern, "%s", x->proposal.pattern);
        snprintf(w->change_id, sizeof w->change_id, "%s",
                 x->proposal.change_id);
        snprintf(w->system, sizeof w->system, "%s",
                 fr->native ? "native" : "emulated");
        w->pairs = (int)x->runs;
        w->io_base_s = x->kernel.median_without;
        w->io_changed_s = x->kernel.median_with;
        w->io_saving = iosage_savings_of_ratio(x->kernel.stats.median);
        w->io_lo = x->kernel.stats.lo;
        w->io_hi = x->kernel.stats.hi;
        w->wall_base_s = x->wall.median_without;
        w->wall_changed_s = x->wall.median_with;
        w->wall_saving = iosage_savings_of_ratio(x->wall.stats.median);
        w->pays = w->io_saving >= IOSAGE_SAVINGS_PAYS && w->io_lo > 1.0;
    }
    return n;
}

/* Measure configuration c; append its rows. 0 ok, -1 failed (said). */
static int measure_config(const struct savings_args *a,
                          const struct gen_config *c,
                          const struct ok_run *fr,
                          const struct iosage_savings_changes *ch,
                          const char *pfs_lib, const char *table)
{
    static char text[64 << 10];
    if (scenario_text(c, fr->seed, ch, text, sizeof text) != 0) {
        fprintf(stderr, "iosage: savings: %s: scenario too long\n", c->id);
        return -1;
    }
    iosage_error err;
    struct iosage_validate_scenario *s = NULL;
    if (iosage_validate_scenario_parse(text, a->changes, &s, &err) !=
        IOSAGE_OK) {
        cli_print_error(&err);
        return -1;
    }
    struct iosage_validate_options o = a->o;
    char profile[PATH_MAX], rel[PATH_MAX], dir[PATH_MAX];
    o.preload = NULL;
    if (!fr->native) {
        snprintf(rel, sizeof rel, "%s/logs/%s.pfs", a->dataset, fr->run_id);
        if (!realpath(rel, profile)) {
            fprintf(stderr, "iosage: savings: %s: %s\n", rel,
                    strerror(errno));
            iosage_validate_scenario_free(s);
            return -1;
        }
        setenv("OMPI_IOSAGE_PFS_PROFILE", profile, 1);
        o.preload = pfs_lib;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/iosage-savings-XXXXXX",
             tmp && tmp[0] ? tmp : "/tmp");
    int rc = -1;
    if (!mkdtemp(dir)) {
        fprintf(stderr, "iosage: savings: cannot make %s: %s\n", dir,
                strerror(errno));
    } else {
        o.work_dir = dir;
        struct iosage_validate_result r;
        if (iosage_validate_run(s, &o, &r, &err) != IOSAGE_OK) {
            char line[800];
            iosage_error_line(&err, line, sizeof line);
            fprintf(stderr, "iosage: savings: %s: %s (kept %s)\n", c->id,
                    line, dir);
        } else {
            struct iosage_savings_row rows[IOSAGE_VALIDATE_MAX_CHANGES];
            size_t n = rows_of(&r, c, fr, rows, IOSAGE_VALIDATE_MAX_CHANGES);
            if (iosage_savings_table_append(table, rows, n, &err) ==
                IOSAGE_OK) {
                rc = 0;
                for (size_t i = 0; i < n && !a->quiet; i++)
                    fprintf(stderr, "savings: %s %s: I/O %.1f%% (ratio "
                            "%.2f-%.2f), run %.1f%%%s\n", c->id,
                            rows[i].change_id, 100 * rows[i].io_saving,
                            rows[i].io_lo, rows[i].io_hi,
                            100 * rows[i].wall_saving,
                            rows[i].pays ? ", pays" : "");
            } else {
                cli_print_error(&err);
            }
            iosage_validate_result_free(&r);
            remove_dir(dir);
        }
    }
    iosage_validate_scenario_free(s);
    return rc;
}

/* 1 when id is in the comma list (or there is no list). */
static int in_list(const char *list, const char *id)
{
    if (!list)
        return 1;
    size_t n = strlen(id);
    for (const char *p = list; *p;) {
        size_t w = strcspn(p, ",");
        if (w == n && strncmp(p, id, n) == 0)
            return 1;
        p += w + (p[w] == ',');
    }
    return 0;
}

static int has_changes(const struct iosage_savings_changes *ch,
                       const char *config)
{
    for (size_t i = 0; i < ch->n; i++)
        if (strcmp(ch->v[i].config, config) == 0)
            return 1;
    return 0;
}

/* Where the kernels and the emulator are; sets up the emulated mount. */
static int find_tools(struct savings_args *a, const struct ok_runs *fr,
                      char *pfs_lib, size_t libsize, char *mount,
                      size_t mountsize)
{
    static char exe[PATH_MAX], bench[PATH_MAX + 16];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        fputs("iosage: savings: cannot find the iosage binary\n", stderr);
        return CLI_INTERNAL;
    }
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    snprintf(bench, sizeof bench, "%s/bench", exe);
    if (!a->o.bench_dir)
        a->o.bench_dir = bench;
    a->o.tracer = "none"; /* listed runs are not traced */
    a->o.analyzer = "none";
    /* the emulator, set up once with the first emulated run's profile */
    for (size_t i = 0; i < fr->n; i++) {
        if (fr->v[i].native)
            continue;
        char rel[PATH_MAX + 160];
        snprintf(rel, sizeof rel, "%s/logs/%s.pfs", a->dataset,
                 fr->v[i].run_id);
        return cli_pfs_setup("savings", rel, pfs_lib, libsize, mount,
                             mountsize);
    }
    return CLI_OK;
}

static int savings_measure(int argc, char **argv)
{
    struct savings_args a;
    memset(&a, 0, sizeof a);
    int done, rc = parse_args(argc, argv, &a, &done);
    if (rc != CLI_OK || done)
        return rc;
    iosage_error err;
    struct gen_sweep *sweep = NULL;
    struct iosage_savings_changes ch = {0};
    struct iosage_savings_table table = {0};
    struct ok_runs fr = {0};
    static char table_path[PATH_MAX], pfs_lib[PATH_MAX], mount[PATH_MAX];
    snprintf(table_path, sizeof table_path, "%s/savings.tsv", a.dataset);
    if (gen_sweep_load(a.sweep, &sweep, &err) != IOSAGE_OK ||
        iosage_savings_changes_load(a.changes, &ch, &err) != IOSAGE_OK ||
        iosage_savings_table_load(table_path, &table, &err) != IOSAGE_OK) {
        cli_print_error(&err);
        rc = CLI_BADINPUT;
    }
    if (rc == CLI_OK)
        rc = read_ok_runs(a.dataset, &fr);
    if (rc == CLI_OK)
        rc = find_tools(&a, &fr, pfs_lib, sizeof pfs_lib, mount, sizeof mount);
    if (rc == CLI_OK && !a.quiet)
        a.o.progress = progress_line;
    int failed = 0, measured = 0, skipped = 0, k = 0;
    for (size_t i = 0; rc == CLI_OK && i < sweep->n; i++) {
        const struct gen_config *c = &sweep->configs[i];
        if (!has_changes(&ch, c->id) || !in_list(a.only, c->id))
            continue;
        if (k++ % a.shard_n != a.shard_k - 1)
            continue;
        const struct ok_run *run = run_of(&fr, c->id, a.run_k);
        if (!run && a.run_k > 1) {
            if (!a.quiet)
                fprintf(stderr, "savings: %s: no ok run %d in %s, skipped\n",
                        c->id, a.run_k, a.dataset);
            continue;
        }
        if (!run) {
            fprintf(stderr, "iosage: savings: %s: no ok run in %s\n", c->id,
                    a.dataset);
            failed++;
            continue;
        }
        if (table_has_run(&table, run->run_id)) {
            skipped++;
            continue;
        }
        if (measure_config(&a, c, run, &ch, pfs_lib, table_path) == 0)
            measured++;
        else
            failed++;
    }
    if (rc == CLI_OK && !a.quiet)
        fprintf(stderr, "savings: %d configuration(s) measured, %d already "
                "in %s, %d failed\n", measured, skipped, table_path, failed);
    if (rc == CLI_OK && failed)
        rc = CLI_INTERNAL;
    if (mount[0])
        cli_pfs_cleanup(mount);
    free(fr.v);
    iosage_savings_table_free(&table);
    iosage_savings_changes_free(&ch);
    gen_sweep_free(sweep);
    return rc;
}

/* --- labels: savings labels against the configuration and the labeler ---- */

/* DATASET/savings.tsv into t; an error (exit 3, printed) when it cannot be
 * read or holds no measured change. */
static int load_measured(const char *dataset, struct iosage_savings_table *t)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/savings.tsv", dataset);
    iosage_error err;
    if (iosage_savings_table_load(path, t, &err) != IOSAGE_OK) {
        cli_print_error(&err);
        return CLI_BADINPUT;
    }
    if (t->n == 0) {
        fprintf(stderr, "iosage: savings: %s: no measured changes (run "
                "`iosage savings measure` first)\n", path);
        iosage_savings_table_free(t);
        return CLI_BADINPUT;
    }
    return CLI_OK;
}


static int savings_labels(const char *dataset)
{
    struct iosage_savings_table t;
    int rc = load_measured(dataset, &t);
    if (rc != CLI_OK)
        return rc;
    iosage_error err;
    struct iosage_savings_agreement a;
    if (iosage_savings_agreement(dataset, &t, &a, &err) != IOSAGE_OK) {
        cli_print_error(&err);
        iosage_savings_table_free(&t);
        return CLI_INTERNAL;
    }
    if (a.unread > 0) {
        char line[800];
        fprintf(stderr, "iosage: savings: %d run log(s) could not be labeled "
                "(\"unread\" below), the first: %s\n", a.unread,
                iosage_error_line(&a.first_error, line, sizeof line));
    }
    iosage_report_savings_labels(stdout, &t, &a);
    iosage_savings_agreement_free(&a);
    iosage_savings_table_free(&t);
    return cli_stdout_check();
}

/* --- train and eval ------------------------------------------------------ */

/* DATASET's runs with their features (iosage_dataset_load). */
static int load_runs(const char *dataset, iosage_dataset **ds)
{
    struct iosage_savings_table t; /* read first: the runs take a while */
    int rc = load_measured(dataset, &t);
    if (rc != CLI_OK)
        return rc;
    iosage_savings_table_free(&t);
    iosage_error err;
    if (iosage_dataset_load(dataset, NULL, NULL, ds, &err) != IOSAGE_OK) {
        cli_print_error(&err);
        return CLI_BADINPUT;
    }
    return CLI_OK;
}

static int savings_train(const char *dataset, const char *model_dir)
{
    iosage_dataset *ds = NULL;
    int rc = load_runs(dataset, &ds);
    if (rc != CLI_OK)
        return rc;
    iosage_error err;
    iosage_savings_model *m = NULL;
    if (iosage_savings_train(dataset, ds, &m, &err) != IOSAGE_OK ||
        iosage_savings_model_save(m, model_dir, &err) != IOSAGE_OK) {
        cli_print_error(&err);
        iosage_savings_model_free(m);
        iosage_dataset_free(ds);
        return CLI_BADINPUT;
    }
    iosage_dataset_free(ds);
    iosage_savings_model_free(m);
    iosage_savings_model *back = NULL;
    if (iosage_savings_model_load(model_dir, &back, &err) != IOSAGE_OK) {
        cli_print_error(&err);
        return CLI_INTERNAL;
    }
    fprintf(stderr, "savings: models written to %s/savings.json\n", model_dir);
    iosage_savings_model_free(back);
    return CLI_OK;
}

/* eval --rows: one TSV line a scored row. */
static void print_row(void *ctx, const struct iosage_savings_eval_row *r)
{
    (void)ctx;
    printf("%s\t%s\t%s\t%s\t%.6f\t%.6f\t%.6f\n", r->run_id, r->kernel,
           r->change_id, r->healthy ? "healthy" : "measured", r->measured,
           r->predicted, r->cap);
}

static int savings_eval(const char *dataset, int by_kernel,
                        const char *model_dir, int rows)
{
    iosage_model *detector = NULL;
    iosage_dataset *ds = NULL;
    int rc = cli_open_model(model_dir, 1, &detector);
    if (rc == CLI_OK)
        rc = load_runs(dataset, &ds);
    iosage_error err;
    struct iosage_savings_eval e;
    if (rc == CLI_OK && rows)
        printf("run_id\tkernel\tchange_id\trow\tmeasured\tpredicted\tcap\n");
    if (rc == CLI_OK &&
        iosage_savings_evaluate_rows(dataset, ds, by_kernel, detector,
                                     rows ? print_row : NULL, NULL, &e,
                                     &err) != IOSAGE_OK) {
        cli_print_error(&err);
        rc = CLI_BADINPUT;
    }
    iosage_dataset_free(ds);
    iosage_model_free(detector);
    if (rc != CLI_OK)
        return rc;
    if (!rows)
        iosage_report_savings_eval(stdout, &e, by_kernel);
    return cli_stdout_check();
}

/* labels, train, eval: their operands and options. */
struct verb_args {
    const char *ops[2];
    int by_kernel;          /* eval --by-kernel */
    int rows;               /* eval --rows */
    const char *model_dir;  /* eval --model DIR */
};

/* n_want operands into v->ops; eval's options anywhere. CLI_OK, or the
 * exit code after help or a usage error. */
static int parse_verb(int argc, char **argv, const char *usage, int n_want,
                      int eval, struct verb_args *v, int *done)
{
    static const struct ios_option eval_options[] = {
        {"--by-kernel", NULL, 0, 1}, {"--model", NULL, 1, 2},
        {"--rows", NULL, 0, 3}, {0}};
    struct cli_args it = cli_args("savings", argc, argv,
                                  eval ? eval_options : NULL, savings_help);
    int id, n = 0;
    *done = 0;
    while ((id = cli_args_next(&it)) != CLI_ARG_END) {
        if (id == CLI_ARG_STOP)
            return cli_args_stop(&it, done);
        if (id == 1)
            v->by_kernel = 1;
        else if (id == 2)
            v->model_dir = it.value;
        else if (id == 3)
            v->rows = 1;
        else if (n == n_want)
            return cli_usage_error("savings", "savings: expected '%s', got "
                                   "one operand more: '%s'", usage, it.value);
        else
            v->ops[n++] = it.value;
    }
    if (n != n_want)
        return cli_usage_error("savings", "savings: expected '%s'", usage);
    return CLI_OK;
}

int cmd_savings(int argc, char **argv)
{
    const char *verb = argc > 1 ? argv[1] : "";
    if (strcmp(verb, "measure") == 0)
        return savings_measure(argc - 1, argv + 1);
    if (cli_is_help(verb)) {
        savings_help();
        return CLI_OK;
    }
    struct verb_args v = {{NULL, NULL}, 0, 0, NULL};
    int done = 0, rc;
    if (strcmp(verb, "labels") == 0) {
        rc = parse_verb(argc - 1, argv + 1, "labels DATASET", 1, 0, &v, &done);
        return rc != CLI_OK || done ? rc : savings_labels(v.ops[0]);
    }
    if (strcmp(verb, "train") == 0) {
        rc = parse_verb(argc - 1, argv + 1, "train DATASET MODEL_DIR", 2, 0,
                        &v, &done);
        return rc != CLI_OK || done ? rc : savings_train(v.ops[0], v.ops[1]);
    }
    if (strcmp(verb, "eval") == 0) {
        rc = parse_verb(argc - 1, argv + 1,
                        "eval [--by-kernel] [--rows] [--model DIR] DATASET",
                        1, 1, &v, &done);
        return rc != CLI_OK || done ? rc
                                    : savings_eval(v.ops[0], v.by_kernel,
                                                   v.model_dir, v.rows);
    }
    return cli_usage_error("savings", "savings: expected 'measure SWEEP "
                           "CHANGES DATASET', 'labels DATASET', 'train "
                           "DATASET MODEL_DIR' or 'eval [--by-kernel] "
                           "[--rows] [--model DIR] DATASET'");
}
