/*
 * modules.c - facts about module ids (3.41 numbering) and the codec table.
 *
 * One row per id 0..17: the name darshan-parser prints, and for modules we
 * decode the newest record version plus the decode/encode functions of its
 * mod_*.c file. NULL (0) has a name but no codec; ids 18..63 are unknown to
 * every release.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *const MODULE_NAMES[IOSAGE_MOD_KNOWN] = {
    "NULL",   "POSIX",     "MPI-IO",    "H5F",   "H5D",     "PNETCDF_FILE",
    "PNETCDF_VAR", "BG/Q", "LUSTRE",    "STDIO", "DXT_POSIX", "DXT_MPIIO",
    "MDHIM",  "APXC",      "APMPI",     "HEATMAP", "DFS",   "DAOS"};

static const ios_module_codec CODECS[] = {
    {IOSAGE_MOD_POSIX, 4, ios_posix_decode, ios_posix_encode},
    {IOSAGE_MOD_MPIIO, 3, ios_mpiio_decode, ios_mpiio_encode},
    {IOSAGE_MOD_H5F, 3, ios_h5f_decode, ios_h5f_encode},
    {IOSAGE_MOD_H5D, 2, ios_h5d_decode, ios_h5d_encode},
    {IOSAGE_MOD_PNETCDF_FILE, 3, ios_pnetcdf_file_decode,
     ios_pnetcdf_file_encode},
    {IOSAGE_MOD_PNETCDF_VAR, 1, ios_pnetcdf_var_decode, ios_pnetcdf_var_encode},
    {IOSAGE_MOD_BGQ, 2, ios_bgq_decode, ios_bgq_encode},
    {IOSAGE_MOD_LUSTRE, 2, ios_lustre_decode, ios_lustre_encode},
    {IOSAGE_MOD_STDIO, 2, ios_stdio_decode, ios_stdio_encode},
    {IOSAGE_MOD_DXT_POSIX, 1, ios_dxt_decode, ios_dxt_encode},
    {IOSAGE_MOD_DXT_MPIIO, 2, ios_dxt_decode, ios_dxt_encode},
    {IOSAGE_MOD_MDHIM, 1, ios_mdhim_decode, ios_mdhim_encode},
    {IOSAGE_MOD_APXC, 1, ios_apxc_decode, ios_apxc_encode},
    {IOSAGE_MOD_APMPI, 1, ios_apmpi_decode, ios_apmpi_encode},
    {IOSAGE_MOD_HEATMAP, 1, ios_heatmap_decode, ios_heatmap_encode},
    {IOSAGE_MOD_DFS, 1, ios_dfs_decode, ios_dfs_encode},
    {IOSAGE_MOD_DAOS, 1, ios_daos_decode, ios_daos_encode},
};

/* Codec for module id, or NULL when there is none. */
const ios_module_codec *ios_module_codec_get(int id)
{
    for (size_t i = 0; i < sizeof CODECS / sizeof *CODECS; i++)
        if (CODECS[i].id == id)
            return &CODECS[i];
    return NULL;
}

/* Name as darshan-parser prints it; "<UNKNOWN>" outside 0..17. */
const char *iosage_module_name(int module)
{
    if (module < 0 || module >= IOSAGE_MOD_KNOWN)
        return "<UNKNOWN>";
    return MODULE_NAMES[module];
}

/* Newest record version we read and write, 0 when the module has no codec. */
uint32_t iosage_module_max_version(int module)
{
    const ios_module_codec *c = ios_module_codec_get(module);
    return c ? c->max_version : 0;
}

/* --- deep copy ----------------------------------------------------------- */

/*
 * Arena copy of n elements of size elem at src; NULL with *st = IOSAGE_OK
 * when n is 0. n < 0, a NULL source for n > 0 and size overflow set
 * IOSAGE_E_USAGE (the record is inconsistent); no memory IOSAGE_E_NOMEM.
 */
static void *dup_array(const void *src, int64_t n, size_t elem,
                       ios_arena *arena, iosage_status *st)
{
    *st = IOSAGE_OK;
    if (n == 0)
        return NULL;
    if (n < 0 || !src || (uint64_t)n > SIZE_MAX / elem) {
        *st = IOSAGE_E_USAGE;
        return NULL;
    }
    void *p = ios_arena_alloc(arena, (size_t)n * elem);
    if (!p) {
        *st = IOSAGE_E_NOMEM;
        return NULL;
    }
    memcpy(p, src, (size_t)n * elem);
    return p;
}

/* LUSTRE: components (with pool names) and OST ids. */
static iosage_status copy_lustre(iosage_record *dst, const iosage_record *src,
                                 ios_arena *arena)
{
    int64_t nc = src->x.lustre.num_comps;
    iosage_status st = IOSAGE_OK;
    dst->x.lustre.comps = NULL;
    if (nc >= 1) {
        struct iosage_lustre_comp *c = dup_array(src->x.lustre.comps, nc,
                                                 sizeof *c, arena, &st);
        if (st != IOSAGE_OK)
            return st;
        for (int64_t i = 0; i < nc; i++) {
            const char *pool = c[i].pool_name;
            c[i].pool_name = ios_arena_strdup(arena, pool ? pool : "");
            if (!c[i].pool_name)
                return IOSAGE_E_NOMEM;
        }
        dst->x.lustre.comps = c;
    }
    dst->x.lustre.ost_ids = dup_array(src->x.lustre.ost_ids,
                                      src->x.lustre.num_stripes,
                                      sizeof(int64_t), arena, &st);
    return st;
}

/* A string of a record's union (NULL stays NULL). */
static iosage_status dup_string(const char **dst, const char *src,
                                ios_arena *arena)
{
    *dst = src ? ios_arena_strdup(arena, src) : NULL;
    return src && !*dst ? IOSAGE_E_NOMEM : IOSAGE_OK;
}

/* DXT: the host name, write segments then read segments. */
static iosage_status copy_dxt(iosage_record *dst, const iosage_record *src,
                              ios_arena *arena)
{
    int64_t w = src->x.dxt.write_count, r = src->x.dxt.read_count;
    iosage_status st;
    if (w < 0 || r < 0 || w > INT64_MAX - r)
        return IOSAGE_E_USAGE;
    if (dup_string(&dst->x.dxt.hostname, src->x.dxt.hostname, arena) != IOSAGE_OK)
        return IOSAGE_E_NOMEM;
    dst->x.dxt.segs = dup_array(src->x.dxt.segs, w + r,
                                sizeof(struct iosage_dxt_segment), arena, &st);
    return st;
}

/* HEATMAP: nbins write bins and nbins read bins. */
static iosage_status copy_heatmap(iosage_record *dst, const iosage_record *src,
                                  ios_arena *arena)
{
    int64_t n = src->x.heatmap.nbins;
    iosage_status st;
    dst->x.heatmap.write_bins = dup_array(src->x.heatmap.write_bins, n,
                                          sizeof(int64_t), arena, &st);
    if (st != IOSAGE_OK)
        return st;
    dst->x.heatmap.read_bins = dup_array(src->x.heatmap.read_bins, n,
                                         sizeof(int64_t), arena, &st);
    return st;
}

/* MDHIM: the server histogram. */
static iosage_status copy_mdhim(iosage_record *dst, const iosage_record *src,
                                ios_arena *arena)
{
    iosage_status st;
    dst->x.mdhim.server_hist = dup_array(src->x.mdhim.server_hist,
                                         src->x.mdhim.n_servers,
                                         sizeof(int64_t), arena, &st);
    return st;
}

/*
 * Deep copy of src into dst with every array and string in arena: the
 * counter arrays and the pointers of the union member that rec->module
 * uses. Returns IOSAGE_OK, IOSAGE_E_NOMEM, or IOSAGE_E_USAGE when a count
 * is negative or a pointer is NULL for a non-zero count.
 */
iosage_status ios_record_copy(iosage_record *dst, const iosage_record *src,
                              ios_arena *arena)
{
    iosage_status st;
    *dst = *src;
    dst->counters = dup_array(src->counters, src->n_counters, sizeof(int64_t),
                              arena, &st);
    if (st != IOSAGE_OK)
        return st;
    dst->fcounters = dup_array(src->fcounters, src->n_fcounters,
                               sizeof(double), arena, &st);
    if (st != IOSAGE_OK)
        return st;
    switch (src->module) {
    case IOSAGE_MOD_LUSTRE:
        return copy_lustre(dst, src, arena);
    case IOSAGE_MOD_DXT_POSIX:
    case IOSAGE_MOD_DXT_MPIIO:
        return copy_dxt(dst, src, arena);
    case IOSAGE_MOD_HEATMAP:
        return copy_heatmap(dst, src, arena);
    case IOSAGE_MOD_MDHIM:
        return copy_mdhim(dst, src, arena);
    case IOSAGE_MOD_APMPI:
        return dup_string(&dst->x.apmpi.node_name, src->x.apmpi.node_name, arena);
    default:
        return IOSAGE_OK; /* the union holds values only */
    }
}
