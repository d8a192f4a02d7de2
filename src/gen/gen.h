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
 * run; finished runs are skipped when gen runs again (resumable).
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

struct gen_options {
    const char *out_dir;    /* DIR: logs/ and manifest.tsv go here */
    const char *bench_dir;  /* where the kernels are */
    const char *tracer;     /* libiosage-trace-mpi.so */
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
