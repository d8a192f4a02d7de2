/*
 * src/cli/cmd_gen.c - `iosage gen SWEEP -o DIR [-j N]`: run a benchmark
 * sweep under the tracer and write labeled logs plus DIR/manifest.tsv.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "gen/gen.h"

static void gen_help(void)
{
    fputs("Usage: iosage gen SWEEP -o DIR [-j N] [--timeout SECONDS]\n"
          "                  [--bench-dir DIR] [--tracer LIB] [--pfs PROFILE] [-q]\n"
          "\n"
          "Run every configuration of SWEEP (one per line: CONFIG_ID KERNEL\n"
          "RANKS REPEATS LABELS GROUP FLAGS...) under mpirun with the iosage\n"
          "tracer, and write DIR/logs/<run>.darshan and DIR/manifest.tsv.\n"
          "Runs already listed as ok in the manifest are skipped, so an\n"
          "interrupted sweep resumes; a failed run is recorded, not fatal.\n"
          "\n"
          "  -o, --output DIR   where logs and the manifest go (required)\n"
          "  -j, --jobs N       runs at once (default 1)\n"
          "  --timeout SECONDS  kill a run after this long (default 300)\n"
          "  --bench-dir DIR    the kernels (default: bench/ beside iosage)\n"
          "  --tracer LIB       the MPI tracer library (default:\n"
          "                     trace/libiosage-trace-mpi.so beside iosage)\n"
          "  --pfs PROFILE      run on the emulated parallel file system of\n"
          "                     PROFILE (a file, or a name in profiles/, e.g.\n"
          "                     lustre-hdd-small; docs/pfs.md)\n"
          "  -q, --quiet        no progress bar, no per-run failure lines\n"
          "  -h, --help         show this help\n"
          "\n"
          "Exit status: 0 every run succeeded, 1 some runs failed, 2 usage\n"
          "error, 3 the sweep file could not be read.\n",
          stdout);
}

/* Directory of the running iosage binary into buf. */
static int self_dir(char *buf, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    return 0;
}

static long int_arg(const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return errno || end == s || *end || v < 1 || v > 100000 ? -1 : v;
}

struct gen_args {
    const char *sweep;
    const char *pfs;    /* --pfs PROFILE, or NULL */
    struct gen_options o;
};

static int parse_gen_args(int argc, char **argv, struct gen_args *a, int *done)
{
    *done = 0;
    a->o.jobs = 1;
    a->o.timeout_s = 300;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_is_help(s)) {
            gen_help();
            *done = 1;
            return CLI_OK;
        } else if (strncmp(s, "-j", 2) == 0 && s[2]) { /* -j2, as make */
            a->o.jobs = (int)int_arg(s + 2);
            if (a->o.jobs < 0)
                return cli_usage_error("gen", "gen: -j takes a positive "
                                       "number, got '%s'", s + 2);
        } else if (strcmp(s, "-q") == 0 || strcmp(s, "--quiet") == 0) {
            a->o.quiet = 1;
        } else if (strcmp(s, "-o") == 0 || strcmp(s, "--output") == 0 ||
                   strcmp(s, "-j") == 0 || strcmp(s, "--jobs") == 0 ||
                   strcmp(s, "--timeout") == 0 ||
                   strcmp(s, "--bench-dir") == 0 ||
                   strcmp(s, "--tracer") == 0 || strcmp(s, "--pfs") == 0) {
            if (!val)
                return cli_usage_error("gen", "gen: %s needs a value", s);
            i++;
            if (s[1] == 'o' || strcmp(s, "--output") == 0)
                a->o.out_dir = val;
            else if (s[1] == 'j' || strcmp(s, "--jobs") == 0)
                a->o.jobs = (int)int_arg(val);
            else if (strcmp(s, "--timeout") == 0)
                a->o.timeout_s = (int)int_arg(val);
            else if (strcmp(s, "--bench-dir") == 0)
                a->o.bench_dir = val;
            else if (strcmp(s, "--pfs") == 0)
                a->pfs = val;
            else
                a->o.tracer = val;
            if (a->o.jobs < 0 || a->o.timeout_s < 0)
                return cli_usage_error("gen", "gen: %s takes a positive number, "
                                       "got '%s'", s, val);
        } else if (s[0] == '-' && s[1]) {
            return cli_usage_error("gen", "gen: unknown option '%s'", s);
        } else if (a->sweep) {
            return cli_usage_error("gen", "gen: takes one SWEEP, got '%s' too", s);
        } else {
            a->sweep = s;
        }
    }
    if (!a->sweep)
        return cli_usage_error("gen", "gen: no SWEEP given");
    if (!a->o.out_dir)
        return cli_usage_error("gen", "gen: no output directory (-o DIR)");
    return CLI_OK;
}

/* Fill bench_dir and tracer defaults from the binary's directory and check
 * they exist. */
static int locate_tools(struct gen_options *o, char *bench, char *tracer,
                        size_t size)
{
    char self[PATH_MAX - 64];
    if (self_dir(self, sizeof self) == 0) {
        if (!o->bench_dir) {
            snprintf(bench, size, "%s/bench", self);
            o->bench_dir = bench;
        }
        if (!o->tracer) {
            snprintf(tracer, size, "%s/trace/libiosage-trace-mpi.so", self);
            o->tracer = tracer;
        }
    }
    if (!o->bench_dir || access(o->bench_dir, X_OK) != 0) {
        fprintf(stderr, "iosage: gen: kernels not found in %s (build them, or "
                "give --bench-dir)\n", o->bench_dir ? o->bench_dir : "?");
        return CLI_BADINPUT;
    }
    if (!o->tracer || access(o->tracer, R_OK) != 0) {
        fprintf(stderr, "iosage: gen: tracer %s not found (build it, or give "
                "--tracer)\n", o->tracer ? o->tracer : "?");
        return CLI_BADINPUT;
    }
    return CLI_OK;
}

int cmd_gen(int argc, char **argv)
{
    struct gen_args a;
    memset(&a, 0, sizeof a);
    int done, rc = parse_gen_args(argc, argv, &a, &done);
    if (rc != CLI_OK || done)
        return rc;
    /* the logs and the manifest must not land over the sweep */
    rc = cli_refuse_clash("gen", "-o", a.o.out_dir, 1, &a.sweep, 1);
    if (rc != CLI_OK)
        return rc;
    char bench[PATH_MAX], tracer[PATH_MAX];
    rc = locate_tools(&a.o, bench, tracer, sizeof bench);
    if (rc != CLI_OK)
        return rc;
    /* --pfs: the emulator preloaded after the tracer (its timers see the
     * emulated costs) */
    static char pfs_lib[PATH_MAX], mount[PATH_MAX], preload[2 * PATH_MAX + 2];
    if (a.pfs) {
        rc = cli_pfs_setup("gen", a.pfs, pfs_lib, sizeof pfs_lib, mount,
                           sizeof mount);
        if (rc != CLI_OK)
            return rc;
        snprintf(preload, sizeof preload, "%s:%s", a.o.tracer, pfs_lib);
        a.o.tracer = preload;
    }
    a.o.progress = !a.o.quiet && isatty(2);

    iosage_error err;
    struct gen_sweep *s = NULL;
    iosage_status st = gen_sweep_load(a.sweep, &s, &err);
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        if (a.pfs)
            cli_pfs_cleanup(mount);
        return cli_exit_for(st);
    }
    struct gen_summary sum;
    st = gen_run(s, &a.o, &sum, &err);
    gen_sweep_free(s);
    if (a.pfs)
        cli_pfs_cleanup(mount);
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    if (!a.o.quiet)
        fprintf(stderr, "gen: %d runs: %d ok, %d failed, %d already done "
                "(%.1f s)\n", sum.total, sum.ok, sum.failed, sum.skipped,
                sum.seconds);
    return sum.failed ? CLI_FOUND : CLI_OK;
}
