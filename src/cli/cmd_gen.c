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
          "                  [--pfs-random PROFILE,... [--native-share PCT]]\n"
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
          "  --pfs-random PROFILE,...\n"
          "                     every run draws its own system from its seed:\n"
          "                     native, or one of these profiles with targets,\n"
          "                     bandwidth, latencies, striping and cache drawn\n"
          "                     from wide ranges (logs/<run>.pfs, the manifest's\n"
          "                     system column; docs/dataset.md)\n"
          "  --native-share PCT runs of --pfs-random that run natively, without\n"
          "                     the emulator (default 20)\n"
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
    const char *pfs_random; /* --pfs-random PROFILE,..., or NULL */
    int native_share;   /* --native-share PCT */
    struct gen_options o;
};

enum {
    OPT_OUTPUT = 1, OPT_JOBS, OPT_TIMEOUT, OPT_BENCH_DIR, OPT_TRACER, OPT_PFS,
    OPT_QUIET, OPT_PFS_RANDOM, OPT_NATIVE_SHARE
};

static const struct ios_option gen_options[] = {
    {"--output", "-o", 1, OPT_OUTPUT},
    {"--jobs", "-j", 1, OPT_JOBS},
    {"--timeout", NULL, 1, OPT_TIMEOUT},
    {"--bench-dir", NULL, 1, OPT_BENCH_DIR},
    {"--tracer", NULL, 1, OPT_TRACER},
    {"--pfs", NULL, 1, OPT_PFS},
    {"--quiet", "-q", 0, OPT_QUIET},
    {"--pfs-random", NULL, 1, OPT_PFS_RANDOM},
    {"--native-share", NULL, 1, OPT_NATIVE_SHARE},
    {0}};

/* One option into a; CLI_OK or a usage error. */
static int set_option(struct gen_args *a, int id, const char *opt,
                      const char *val)
{
    switch (id) {
    case OPT_OUTPUT: a->o.out_dir = val; break;
    case OPT_JOBS: a->o.jobs = (int)int_arg(val); break;
    case OPT_TIMEOUT: a->o.timeout_s = (int)int_arg(val); break;
    case OPT_BENCH_DIR: a->o.bench_dir = val; break;
    case OPT_TRACER: a->o.tracer = val; break;
    case OPT_PFS: a->pfs = val; break;
    case OPT_QUIET: a->o.quiet = 1; break;
    case OPT_PFS_RANDOM: a->pfs_random = val; break;
    case OPT_NATIVE_SHARE: {
        char *end;
        errno = 0;
        long pct = strtol(val, &end, 10);
        if (errno || end == val || *end || pct < 0 || pct > 100)
            return cli_usage_error("gen", "gen: --native-share takes a "
                                   "percentage 0-100, got '%s'", val);
        a->native_share = (int)pct;
        break;
    }
    }
    if (a->o.jobs < 0 || a->o.timeout_s < 0)
        return cli_usage_error("gen", "gen: %s takes a positive number, got "
                               "'%s'", strncmp(opt, "-j", 2) == 0 ? "-j" : opt,
                               val);
    return CLI_OK;
}

static int parse_gen_args(int argc, char **argv, struct gen_args *a, int *done)
{
    *done = 0;
    a->o.jobs = 1;
    a->o.timeout_s = 300;
    a->native_share = -1; /* not given: 20 */
    struct cli_args it = cli_args("gen", argc, argv, gen_options, gen_help);
    int id, rc = CLI_OK;
    while (rc == CLI_OK && (id = cli_args_next(&it)) != CLI_ARG_END) {
        if (id == CLI_ARG_STOP)
            return cli_args_stop(&it, done);
        if (id > 0)
            rc = set_option(a, id, it.arg, it.value);
        else if (a->sweep)
            return cli_usage_error("gen", "gen: takes one SWEEP, got '%s' too",
                                   it.value);
        else
            a->sweep = it.value;
    }
    if (rc != CLI_OK)
        return rc;
    if (!a->sweep)
        return cli_usage_error("gen", "gen: no SWEEP given");
    if (!a->o.out_dir)
        return cli_usage_error("gen", "gen: no output directory (-o DIR)");
    if (a->pfs && a->pfs_random)
        return cli_usage_error("gen", "gen: --pfs and --pfs-random exclude "
                               "each other");
    if (a->native_share >= 0 && !a->pfs_random)
        return cli_usage_error("gen", "gen: --native-share needs --pfs-random");
    if (a->native_share < 0)
        a->native_share = 20; /* not given: 20% of the runs are native */
    return CLI_OK;
}

/* --pfs-random LIST: resolve every profile of the comma list and load
 * them as the base systems into *out. */
static int load_systems(const char *list, int native_share,
                        struct gen_systems **out)
{
    char copy[2048], paths[GEN_MAX_BASE_PROFILES][PATH_MAX];
    const char *ptrs[GEN_MAX_BASE_PROFILES];
    int n = 0;
    snprintf(copy, sizeof copy, "%s", list);
    char *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (n == GEN_MAX_BASE_PROFILES)
            return cli_usage_error("gen", "gen: --pfs-random takes at most %d "
                                   "profiles", GEN_MAX_BASE_PROFILES);
        if (cli_pfs_profile_path("gen", t, paths[n], sizeof paths[n]) != CLI_OK)
            return CLI_BADINPUT;
        ptrs[n] = paths[n];
        n++;
    }
    if (n == 0)
        return cli_usage_error("gen", "gen: --pfs-random needs a profile");
    iosage_error err;
    if (gen_systems_load(ptrs, n, native_share, out, &err) != IOSAGE_OK) {
        cli_print_error(&err);
        return CLI_BADINPUT;
    }
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
    struct gen_systems *systems = NULL;
    if (a.pfs_random) {
        rc = load_systems(a.pfs_random, a.native_share, &systems);
        if (rc != CLI_OK)
            return rc;
        a.o.systems = systems;
        a.o.native_preload = a.o.tracer;
        /* the mount and the emulator's settings; each run then points
         * the emulator at its own drawn profile */
        a.pfs = a.pfs_random;
        char first[PATH_MAX];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(a.pfs_random, ","),
                 a.pfs_random);
        rc = cli_pfs_setup("gen", first, pfs_lib, sizeof pfs_lib, mount,
                           sizeof mount);
    } else if (a.pfs) {
        a.o.system = a.pfs;
        rc = cli_pfs_setup("gen", a.pfs, pfs_lib, sizeof pfs_lib, mount,
                           sizeof mount);
    }
    if (rc != CLI_OK) {
        gen_systems_free(systems);
        return rc;
    }
    if (a.pfs) {
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
        gen_systems_free(systems);
        return cli_exit_for(st);
    }
    struct gen_summary sum;
    st = gen_run(s, &a.o, &sum, &err);
    gen_sweep_free(s);
    gen_systems_free(systems);
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
