/*
 * src/gen/gen.h - `iosage gen`: run a sweep of benchmark configurations
 * under the tracer and write labeled Darshan logs plus a manifest.
 *
 * A sweep is a text file, one configuration a line:
 *
 *   # comment
 *   CONFIG_ID  KERNEL  RANKS  REPEATS  LABELS  GROUP  FLAGS...
 *
 *   CONFIG_ID  unique name ([A-Za-z0-9_.-])
 *   KERNEL     a program in the bench directory (ior_like, mdtest_like, ...)
 *   RANKS      MPI ranks, 1..1024
 *   REPEATS    runs of this configuration, 1..1000
 *   LABELS     comma-separated pattern ids, or "healthy"
 *   GROUP      "train" (runs are split train/validation/test by run id) or
 *              "ood" (every run is in the out-of-distribution split)
 *   FLAGS      the kernel's flags, passed as they are (no quoting)
 *
 * Run r of configuration C is "C-rR" with seed = hash(run id); the kernel
 * gets "--seed N" appended. The manifest (DIR/manifest.tsv) has one row per
 * run; finished runs are skipped when gen runs again (resumable). Its
 * last column, "system", says what the run ran on: "native", a --pfs
 * profile's name, or a drawn system (see gen_system_draw); manifests
 * written before that column existed are still read and resumed.
 *
 * Ownership: gen_sweep_load returns a sweep owned by the caller
 * (gen_sweep_free accepts NULL). Nothing here prints except gen_run's
 * progress bar and per-run failure lines on stderr.
 */
#ifndef IOSAGE_GEN_H
#define IOSAGE_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "iosage/error.h"

#define GEN_MAX_FLAGS 64

struct gen_config {
    char id[96];
    char kernel[64];
    int ranks;
    int repeats;
    char labels[256]; /* as written: "healthy" or "a,b" */
    int ood;          /* GROUP == ood */
    int n_flags;
    char *flags[GEN_MAX_FLAGS]; /* point into line */
    char *line;       /* owned copy of the flags part */
    int lineno;
};

struct gen_sweep {
    size_t n;
    struct gen_config *configs;
};

/* Parse a sweep file. On error *out is NULL and err names the file, the
 * line and what is wrong. */
iosage_status gen_sweep_load(const char *path, struct gen_sweep **out,
                             iosage_error *err);
void gen_sweep_free(struct gen_sweep *s);

/* The split of a run: "ood" for ood configurations, else "train",
 * "validation" or "test" (70/15/15) from a hash of the run id. */
const char *gen_split(const struct gen_config *c, const char *run_id);

/* Seed of a run: a positive 31-bit hash of the run id. */
long gen_seed(const char *run_id);

/* --- Randomized systems (system.c) ------------------------------------------
 *
 * With `--pfs-random PROFILES` every run draws its file system from its
 * seed: native (no emulator) with probability native_pct %, else one of the
 * base profiles with its targets, bandwidth, RPC and metadata latency,
 * default striping and client cache drawn from wide ranges (system.c says
 * which). The drawn profile is written beside the run's log as
 * logs/<run>.pfs and summed up in the manifest's "system" column. */
#define GEN_MAX_BASE_PROFILES 8

struct gen_systems; /* opaque: the base profiles */
struct pfs_profile; /* pfs/src/pfs_model.h */

/* Read the base profiles (files). On error *out is NULL and err names the
 * file. Free with gen_systems_free (accepts NULL). */
iosage_status gen_systems_load(const char *const *paths, int n, int native_pct,
                               struct gen_systems **out, iosage_error *err);
void gen_systems_free(struct gen_systems *s);

/* Draw the system of the run with this seed into *p: returns 0 for a
 * native run (p untouched), 1 for an emulated one. */
int gen_system_draw(const struct gen_systems *s, long seed,
                    struct pfs_profile *p);

/* Write p as a complete profile file at path (through a temporary file). */
iosage_status gen_system_write(const struct pfs_profile *p, const char *run_id,
                               const char *path, iosage_error *err);

/* One-line summary of p for the manifest's system column. */
void gen_system_summary(const struct pfs_profile *p, char *out, size_t size);

struct gen_options {
    const char *out_dir;    /* DIR: logs/ and manifest.tsv go here */
    const char *bench_dir;  /* where the kernels are */
    const char *tracer;     /* what to preload: libiosage-trace-mpi.so, or
                               "tracer:emulator" with --pfs / --pfs-random */
    const char *system;     /* manifest system column when not randomized:
                               "native" (NULL) or the --pfs profile's name */
    const struct gen_systems *systems; /* --pfs-random, else NULL */
    const char *native_preload; /* --pfs-random: the tracer alone */
    int jobs;               /* runs at once */
    int timeout_s;          /* per run; killed after */
    int progress;           /* draw a progress bar on stderr */
    int quiet;
};

struct gen_summary {
    int total, skipped, ok, failed;
    double seconds;
};

/* Run every run of the sweep that the manifest does not list as done. */
iosage_status gen_run(const struct gen_sweep *s, const struct gen_options *o,
                      struct gen_summary *sum, iosage_error *err);

#endif
