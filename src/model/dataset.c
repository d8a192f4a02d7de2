/*
 * src/model/dataset.c - labeled feature matrices: made, freed and hashed
 * here; read from a dataset directory by iosage_dataset_load
 * (src/analyze/dataset_load.c, which runs each log through iosage_analyze).
 *
 * A dataset directory holds manifest.tsv, one header line then one line per
 * run, tab-separated, with (among others) the columns run_id, labels
 * ("healthy" or comma-separated pattern ids), log (a path relative to the
 * directory), split (train, validation, test, ood) and status ("ok" or
 * "failed: ..."), and optionally kernel (the benchmark kernel, kept for the
 * leave-one-kernel-out table). Columns are found by their header names, so
 * added columns do not break reading. Only rows whose status is "ok" are
 * read.
 *
 * The labels of generated runs (a manifest with a config_id column, as
 * `iosage gen` writes) are their configuration's: what the kernel flags
 * were meant to cause. A run whose slowest rank spends under 5% of the run
 * in I/O (LABELING.md's healthy gate, IOSAGE_LABEL_GATE) is healthy by that
 * definition whatever its configuration, and detection rule 0 can never
 * report a pattern in it; on drawn file systems fast enough, a
 * configuration's I/O shrinks under the gate (36 of the 747 runs of
 * data/hpc-runs, e.g. pe_e3sm_8 on 8 ranks: 1.9% of the run). Such runs
 * are read as healthy (counted in n_gated). Hand-made labels (no config_id
 * column, e.g. the real logs' LABELS.tsv) are read as they are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "internal.h"

#define NF IOSAGE_NUM_FEATURES

static const char *const split_names[IOSAGE_SPLIT_COUNT] = {
    "train", "validation", "test", "ood"};

const char *iosage_split_name(int split)
{
    return split >= 0 && split < IOSAGE_SPLIT_COUNT ? split_names[split]
                                                    : NULL;
}

int iosage_split_index(const char *name)
{
    for (int i = 0; name && i < IOSAGE_SPLIT_COUNT; i++)
        if (strcmp(name, split_names[i]) == 0)
            return i;
    return -1;
}

/* --- Datasets made by hand ----------------------------------------------- */

iosage_status iosage_dataset_create(size_t n_rows, iosage_dataset **out,
                                    iosage_error *err)
{
    iosage_dataset *ds = calloc(1, sizeof *ds);
    size_t n = n_rows ? n_rows : 1;
    *out = NULL;
    if (ds && n_rows <= SIZE_MAX / (NF * sizeof(float))) {
        ds->x = calloc(n * NF, sizeof *ds->x);
        ds->labels = calloc(n, sizeof *ds->labels);
        ds->split = calloc(n, sizeof *ds->split);
    }
    if (!ds || !ds->x || !ds->labels || !ds->split) {
        iosage_dataset_free(ds);
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "dataset", -1,
                        "no memory for %zu rows", n_rows);
    }
    ds->n_rows = n_rows;
    *out = ds;
    return IOSAGE_OK;
}

void iosage_dataset_free(iosage_dataset *ds)
{
    if (!ds)
        return;
    for (size_t i = 0; i < ds->n_rows; i++) {
        if (ds->run_ids)
            free(ds->run_ids[i]);
        if (ds->logs)
            free(ds->logs[i]);
        if (ds->kernels)
            free(ds->kernels[i]);
    }
    free(ds->run_ids);
    free(ds->logs);
    free(ds->kernels);
    free(ds->x);
    free(ds->labels);
    free(ds->split);
    free(ds);
}

/* --- The hash ------------------------------------------------------------ */

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= FNV_PRIME;
    }
    return h;
}

static uint64_t fnv_u32(uint64_t h, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8),
                          (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
    return fnv(h, b, 4);
}

uint64_t ios_fnv1a64(const void *data, size_t len)
{
    return fnv(FNV_OFFSET, data, len);
}

uint64_t iosage_dataset_hash(const iosage_dataset *ds)
{
    uint64_t h = fnv_u32(FNV_OFFSET, NF);
    for (size_t i = 0; i < ds->n_rows; i++) {
        if (ds->run_ids && ds->run_ids[i])
            h = fnv(h, ds->run_ids[i], strlen(ds->run_ids[i]) + 1);
        h = fnv_u32(h, ds->labels[i]);
        h = fnv(h, &ds->split[i], 1);
        for (int f = 0; f < NF; f++) {
            uint32_t bits;
            memcpy(&bits, &ds->x[i * NF + f], 4);
            h = fnv_u32(h, bits);
        }
    }
    return h;
}
