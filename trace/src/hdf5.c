/*
 * hdf5.c - HDF5 wrappers: the H5F (files) and H5D (datasets) records of the
 * Darshan runtime's HDF5 module (format spec 9.4, 9.5, 10.9).
 *
 * Wrapped: H5Fcreate, H5Fopen, H5Fflush, H5Fclose, H5Dcreate2, H5Dopen2,
 * H5Dread, H5Dwrite, H5Dflush, H5Dclose. The tracer is not linked with
 * HDF5: the real functions, and the HDF5 calls that describe a file,
 * dataset or selection, are looked up when first needed (they exist only
 * in a program that uses HDF5, which is the only one that calls these).
 * The few HDF5 types and constants needed are declared below; their values
 * are those of HDF5 1.10 and later (hid_t is 64 bits since 1.10).
 *
 * The HDF5 call itself is traced like any other code: the MPI-IO and POSIX
 * calls HDF5 makes underneath get their own records. Only the describing
 * calls made here run with the thread marked busy.
 *
 * What is booked (as the runtime's logs of the project's kernels show):
 *   H5F  OPENS (create + open), FLUSHES, USE_MPIIO (the file access list
 *        uses the MPI-IO driver), open/close stamps, META_TIME (create,
 *        open, flush, close).
 *   H5D  record "<file path>:<name of loc><name>", the location's name and
 *        the dataset's name joined as the runtime joins them (a dataset
 *        "d.0" in group "/step.0" is "/step.0d.0"; in the file's root
 *        group "/d.0"); OPENS (create + open), READS, WRITES, FLUSHES,
 *        bytes (points selected in the file x size of the memory type),
 *        selection kind, size bins, the access tuple (bytes, count and
 *        stride of a regular hyperslab in the last five dimensions),
 *        dataspace rank and points, datatype size, chunk dimensions,
 *        USE_MPIIO_COLLECTIVE (a collective transfer list).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "iosage/counters.h"
#include "trace.h"

/* --- the HDF5 we need to know ----------------------------------------------- */

typedef int64_t hid_t;
typedef int herr_t;
typedef int htri_t;
typedef unsigned long long hsize_t;
typedef long long hssize_t;

#define H5_ALL ((hid_t)0)      /* H5S_ALL and H5P_DEFAULT */
#define H5_SEL_POINTS 1        /* H5S_sel_type */
#define H5_SEL_HYPERSLABS 2
#define H5_SEL_ALL 3
#define H5_CHUNKED 2           /* H5D_layout_t */
#define H5_MPIO_COLLECTIVE 1   /* H5FD_mpio_xfer_t */
#define H5_MAX_RANK 32         /* H5S_MAX_RANK */

/* Real entry points and describing calls, each looked up once. */
static void *_Atomic f_fcreate, *_Atomic f_fopen, *_Atomic f_fflush,
    *_Atomic f_fclose, *_Atomic f_dcreate2, *_Atomic f_dopen2,
    *_Atomic f_dread, *_Atomic f_dwrite, *_Atomic f_dflush, *_Atomic f_dclose;
static void *_Atomic f_get_driver, *_Atomic f_mpio_init, *_Atomic f_fget_name,
    *_Atomic f_iget_name, *_Atomic f_dget_space, *_Atomic f_dget_type,
    *_Atomic f_dget_plist, *_Atomic f_sclose, *_Atomic f_tclose,
    *_Atomic f_pclose, *_Atomic f_ndims, *_Atomic f_npoints,
    *_Atomic f_sel_type, *_Atomic f_sel_npoints, *_Atomic f_is_regular,
    *_Atomic f_get_regular, *_Atomic f_get_dims, *_Atomic f_tget_size,
    *_Atomic f_get_layout, *_Atomic f_get_chunk, *_Atomic f_get_dxpl_mpio;

/* --- describing calls (thread busy) ----------------------------------------- */

/* 1 when the file access list fapl uses the MPI-IO driver. */
static int uses_mpio(hid_t fapl)
{
    hid_t (*get_driver)(hid_t) = trc_real(&f_get_driver, "H5Pget_driver");
    hid_t (*mpio)(void) = trc_real(&f_mpio_init, "H5FD_mpio_init");
    if (fapl == H5_ALL || !get_driver || !mpio)
        return 0;
    hid_t d = get_driver(fapl);
    return d >= 0 && d == mpio();
}

/* The cleaned absolute path of the file holding obj, in out; 0 or -1. */
static int file_path(hid_t obj, char *out)
{
    ssize_t (*get_name)(hid_t, char *, size_t) =
        trc_real(&f_fget_name, "H5Fget_name");
    char raw[TRC_PATH_MAX];
    if (!get_name || get_name(obj, raw, sizeof raw) <= 0)
        return -1;
    return trc_clean_path(AT_FDCWD, raw, out);
}

/* What a dataset is: rank, points, datatype size, chunk dimensions. */
struct dset_desc {
    int64_t ndims, npoints, type_size;
    int64_t chunk[5]; /* D1..D5, 0 when not chunked */
};

/* Copy the last (up to) five of n values into out[5], right-aligned. */
static void last_five(const hsize_t *v, int n, int64_t *out)
{
    for (int i = 0; i < 5; i++)
        out[i] = 0;
    for (int i = 0; i < 5 && i < n; i++)
        out[4 - i] = (int64_t)v[n - 1 - i];
}

static void describe_dataset(hid_t dset, struct dset_desc *d)
{
    hid_t (*get_space)(hid_t) = trc_real(&f_dget_space, "H5Dget_space");
    hid_t (*get_type)(hid_t) = trc_real(&f_dget_type, "H5Dget_type");
    hid_t (*get_plist)(hid_t) =
        trc_real(&f_dget_plist, "H5Dget_create_plist");
    herr_t (*sclose)(hid_t) = trc_real(&f_sclose, "H5Sclose");
    herr_t (*tclose)(hid_t) = trc_real(&f_tclose, "H5Tclose");
    herr_t (*pclose)(hid_t) = trc_real(&f_pclose, "H5Pclose");
    int (*ndims)(hid_t) = trc_real(&f_ndims, "H5Sget_simple_extent_ndims");
    hssize_t (*npoints)(hid_t) =
        trc_real(&f_npoints, "H5Sget_simple_extent_npoints");
    size_t (*tsize)(hid_t) = trc_real(&f_tget_size, "H5Tget_size");
    int (*layout)(hid_t) = trc_real(&f_get_layout, "H5Pget_layout");
    int (*chunk)(hid_t, int, hsize_t *) =
        trc_real(&f_get_chunk, "H5Pget_chunk");
    memset(d, 0, sizeof *d);
    if (!get_space || !get_type || !get_plist || !sclose || !tclose ||
        !pclose || !ndims || !npoints || !tsize || !layout || !chunk)
        return;
    hid_t space = get_space(dset);
    if (space >= 0) {
        d->ndims = ndims(space);
        d->npoints = npoints(space);
        sclose(space);
    }
    hid_t type = get_type(dset);
    if (type >= 0) {
        d->type_size = (int64_t)tsize(type);
        tclose(type);
    }
    hid_t dcpl = get_plist(dset);
    if (dcpl >= 0) {
        hsize_t dims[H5_MAX_RANK];
        int n;
        if (layout(dcpl) == H5_CHUNKED &&
            (n = chunk(dcpl, H5_MAX_RANK, dims)) > 0)
            last_five(dims, n, d->chunk);
        pclose(dcpl);
    }
}

/* One read or write as the H5D record sees it. */
struct dset_access {
    int64_t bytes;
    int kind;        /* H5D_REGULAR_HYPERSLAB_SELECTS, ... counter index */
    int collective;  /* the transfer list asks for collective I/O */
    int64_t tuple[TRC_TUPLE_LEN];
};

static void describe_access(hid_t dset, hid_t mem_type, hid_t file_space,
                            hid_t dxpl, struct dset_access *a)
{
    hid_t (*get_space)(hid_t) = trc_real(&f_dget_space, "H5Dget_space");
    herr_t (*sclose)(hid_t) = trc_real(&f_sclose, "H5Sclose");
    int (*sel_type)(hid_t) = trc_real(&f_sel_type, "H5Sget_select_type");
    hssize_t (*sel_npoints)(hid_t) =
        trc_real(&f_sel_npoints, "H5Sget_select_npoints");
    htri_t (*is_regular)(hid_t) =
        trc_real(&f_is_regular, "H5Sis_regular_hyperslab");
    herr_t (*get_regular)(hid_t, hsize_t *, hsize_t *, hsize_t *,
                          hsize_t *) =
        trc_real(&f_get_regular, "H5Sget_regular_hyperslab");
    int (*ndims)(hid_t) = trc_real(&f_ndims, "H5Sget_simple_extent_ndims");
    int (*get_dims)(hid_t, hsize_t *, hsize_t *) =
        trc_real(&f_get_dims, "H5Sget_simple_extent_dims");
    size_t (*tsize)(hid_t) = trc_real(&f_tget_size, "H5Tget_size");
    herr_t (*dxpl_mpio)(hid_t, int *) =
        trc_real(&f_get_dxpl_mpio, "H5Pget_dxpl_mpio");
    memset(a, 0, sizeof *a);
    a->kind = IOSAGE_H5D_REGULAR_HYPERSLAB_SELECTS;
    int mode = 0;
    if (dxpl != H5_ALL && dxpl_mpio && dxpl_mpio(dxpl, &mode) >= 0)
        a->collective = mode == H5_MPIO_COLLECTIVE;
    if (!get_space || !sclose || !sel_type || !sel_npoints || !is_regular ||
        !get_regular || !ndims || !get_dims || !tsize)
        return;
    hid_t space = file_space == H5_ALL ? get_space(dset) : file_space;
    if (space < 0)
        return;
    hssize_t points = sel_npoints(space);
    a->bytes = points > 0 ? (int64_t)points * (int64_t)tsize(mem_type) : 0;
    a->tuple[0] = a->bytes;
    int n = ndims(space);
    int type = sel_type(space);
    if (n > 0 && n <= H5_MAX_RANK) {
        hsize_t start[H5_MAX_RANK], stride[H5_MAX_RANK], count[H5_MAX_RANK],
            block[H5_MAX_RANK];
        if (type == H5_SEL_POINTS) {
            a->kind = IOSAGE_H5D_POINT_SELECTS;
        } else if (type == H5_SEL_HYPERSLABS && is_regular(space) <= 0) {
            a->kind = IOSAGE_H5D_IRREGULAR_HYPERSLAB_SELECTS;
        } else if (type == H5_SEL_HYPERSLABS &&
                   get_regular(space, start, stride, count, block) >= 0) {
            last_five(count, n, &a->tuple[1]);
            last_five(stride, n, &a->tuple[6]);
        } else if (type == H5_SEL_ALL && get_dims(space, count, NULL) >= 0) {
            /* the whole dataspace: one block of its dimensions */
            for (int i = 0; i < n; i++)
                stride[i] = 1;
            last_five(count, n, &a->tuple[1]);
            last_five(stride, n, &a->tuple[6]);
        }
    }
    if (space != file_space)
        sclose(space);
}

/* --- booking (lock taken here) ---------------------------------------------- */

static const void *key_of(hid_t id)
{
    return (const void *)(uintptr_t)id;
}

static void h5f_opened(hid_t fid, const char *name, hid_t fapl, double t0,
                       double t1)
{
    int saved = errno;
    int old_busy = tl_busy;
    tl_busy = 1;
    int mpio = uses_mpio(fapl);
    char clean[TRC_PATH_MAX];
    int ok = trc_clean_path(AT_FDCWD, name, clean) == 0 && !trc_excluded(clean);
    tl_busy = old_busy;
    int old = trc_lock();
    struct trc_rec *r = ok ? trc_rec_get(TRC_H5F, clean) : NULL;
    struct trc_ref *ref = r ? trc_map_add(TRC_H5F, key_of(fid)) : NULL;
    if (ref) {
        ref->rec = r;
        r->c[IOSAGE_H5F_OPENS]++;
        if (mpio)
            r->c[IOSAGE_H5F_USE_MPIIO] = 1;
        trc_stamp(&r->f[IOSAGE_H5F_F_OPEN_START_TIMESTAMP],
                  &r->f[IOSAGE_H5F_F_OPEN_END_TIMESTAMP], t0, t1);
        trc_add_time(r, TRC_T_META, t0, t1, &r->f[IOSAGE_H5F_F_META_TIME]);
    }
    trc_unlock(old);
    errno = saved;
}

/* Flush (closing = 0) or close (1) of a traced file. */
static void h5f_done(hid_t fid, int closing, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_ref *ref = trc_map_find(TRC_H5F, key_of(fid));
    if (ref) {
        struct trc_rec *r = ref->rec;
        if (closing)
            trc_stamp(&r->f[IOSAGE_H5F_F_CLOSE_START_TIMESTAMP],
                      &r->f[IOSAGE_H5F_F_CLOSE_END_TIMESTAMP], t0, t1);
        else
            r->c[IOSAGE_H5F_FLUSHES]++;
        trc_add_time(r, TRC_T_META, t0, t1, &r->f[IOSAGE_H5F_F_META_TIME]);
        if (closing)
            trc_map_del(TRC_H5F, key_of(fid));
    }
    trc_unlock(old);
    errno = saved;
}

static void h5d_opened(hid_t dset, hid_t loc, const char *name, double t0,
                       double t1)
{
    int saved = errno;
    int old_busy = tl_busy;
    tl_busy = 1;
    ssize_t (*iget_name)(hid_t, char *, size_t) =
        trc_real(&f_iget_name, "H5Iget_name");
    char file[TRC_PATH_MAX], locname[TRC_PATH_MAX], full[2 * TRC_PATH_MAX];
    int ok = file_path(loc, file) == 0 && !trc_excluded(file) && iget_name &&
             iget_name(loc, locname, sizeof locname) > 0;
    struct dset_desc d;
    if (ok) {
        describe_dataset(dset, &d);
        ok = snprintf(full, sizeof full, "%s:%s%s", file, locname, name) <
             (int)sizeof full;
    }
    tl_busy = old_busy;
    int old = trc_lock();
    struct trc_rec *r = ok ? trc_rec_get(TRC_H5D, full) : NULL;
    struct trc_ref *ref = r ? trc_map_add(TRC_H5D, key_of(dset)) : NULL;
    if (ref) {
        ref->rec = r;
        r->c[IOSAGE_H5D_OPENS]++;
        r->c[IOSAGE_H5D_DATASPACE_NDIMS] = d.ndims;
        r->c[IOSAGE_H5D_DATASPACE_NPOINTS] = d.npoints;
        r->c[IOSAGE_H5D_DATATYPE_SIZE] = d.type_size;
        for (int i = 0; i < 5; i++)
            r->c[IOSAGE_H5D_CHUNK_SIZE_D1 + i] = d.chunk[i];
        trc_stamp(&r->f[IOSAGE_H5D_F_OPEN_START_TIMESTAMP],
                  &r->f[IOSAGE_H5D_F_OPEN_END_TIMESTAMP], t0, t1);
        trc_add_time(r, TRC_T_META, t0, t1, &r->f[IOSAGE_H5D_F_META_TIME]);
    }
    trc_unlock(old);
    errno = saved;
}

static void h5d_access(hid_t dset, int op, hid_t mem_type, hid_t file_space,
                       hid_t dxpl, double t0, double t1)
{
    int saved = errno;
    int old_busy = tl_busy;
    tl_busy = 1;
    struct dset_access a;
    describe_access(dset, mem_type, file_space, dxpl, &a);
    tl_busy = old_busy;
    int old = trc_lock();
    struct trc_ref *ref = trc_map_find(TRC_H5D, key_of(dset));
    if (ref) {
        struct trc_rec *r = ref->rec;
        int64_t *c = r->c;
        double *f = r->f;
        int rd = op == TRC_OP_READ;
        c[rd ? IOSAGE_H5D_READS : IOSAGE_H5D_WRITES]++;
        c[rd ? IOSAGE_H5D_BYTES_READ : IOSAGE_H5D_BYTES_WRITTEN] += a.bytes;
        c[a.kind]++;
        c[(rd ? IOSAGE_H5D_SIZE_READ_AGG_0_100
              : IOSAGE_H5D_SIZE_WRITE_AGG_0_100) + trc_size_bin(a.bytes)]++;
        if (trc_rw_switch(r, op))
            c[IOSAGE_H5D_RW_SWITCHES]++;
        if (a.collective)
            c[IOSAGE_H5D_USE_MPIIO_COLLECTIVE] = 1;
        if (a.bytes > 0)
            trc_count_tuple(r, a.tuple);
        int fmax = rd ? IOSAGE_H5D_F_MAX_READ_TIME : IOSAGE_H5D_F_MAX_WRITE_TIME;
        if (t1 - t0 > f[fmax]) {
            f[fmax] = t1 - t0;
            c[rd ? IOSAGE_H5D_MAX_READ_TIME_SIZE
                 : IOSAGE_H5D_MAX_WRITE_TIME_SIZE] = a.bytes;
        }
        trc_add_time(r, rd ? TRC_T_READ : TRC_T_WRITE, t0, t1,
                     &f[rd ? IOSAGE_H5D_F_READ_TIME : IOSAGE_H5D_F_WRITE_TIME]);
        if (rd)
            trc_stamp(&f[IOSAGE_H5D_F_READ_START_TIMESTAMP],
                      &f[IOSAGE_H5D_F_READ_END_TIMESTAMP], t0, t1);
        else
            trc_stamp(&f[IOSAGE_H5D_F_WRITE_START_TIMESTAMP],
                      &f[IOSAGE_H5D_F_WRITE_END_TIMESTAMP], t0, t1);
    }
    trc_unlock(old);
    errno = saved;
}

/* Flush (closing = 0) or close (1) of a traced dataset. */
static void h5d_done(hid_t dset, int closing, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_ref *ref = trc_map_find(TRC_H5D, key_of(dset));
    if (ref) {
        struct trc_rec *r = ref->rec;
        if (closing)
            trc_stamp(&r->f[IOSAGE_H5D_F_CLOSE_START_TIMESTAMP],
                      &r->f[IOSAGE_H5D_F_CLOSE_END_TIMESTAMP], t0, t1);
        else
            r->c[IOSAGE_H5D_FLUSHES]++;
        trc_add_time(r, TRC_T_META, t0, t1, &r->f[IOSAGE_H5D_F_META_TIME]);
        if (closing)
            trc_map_del(TRC_H5D, key_of(dset));
    }
    trc_unlock(old);
    errno = saved;
}

/* --- the wrappers ------------------------------------------------------------- */
/* Each: the real function (ENOSYS-like failure -1 if HDF5 is not there),
 * passed through when not tracing, else timed and booked on success. */

hid_t H5Fcreate(const char *name, unsigned flags, hid_t fcpl, hid_t fapl)
{
    hid_t (*fn)(const char *, unsigned, hid_t, hid_t) =
        trc_real(&f_fcreate, "H5Fcreate");
    if (!fn)
        return -1;
    if (!trc_active())
        return fn(name, flags, fcpl, fapl);
    double t0 = trc_now();
    hid_t ret = fn(name, flags, fcpl, fapl);
    double t1 = trc_now();
    if (ret >= 0)
        h5f_opened(ret, name, fapl, t0, t1);
    return ret;
}

hid_t H5Fopen(const char *name, unsigned flags, hid_t fapl)
{
    hid_t (*fn)(const char *, unsigned, hid_t) = trc_real(&f_fopen, "H5Fopen");
    if (!fn)
        return -1;
    if (!trc_active())
        return fn(name, flags, fapl);
    double t0 = trc_now();
    hid_t ret = fn(name, flags, fapl);
    double t1 = trc_now();
    if (ret >= 0)
        h5f_opened(ret, name, fapl, t0, t1);
    return ret;
}

herr_t H5Fflush(hid_t obj, int scope)
{
    herr_t (*fn)(hid_t, int) = trc_real(&f_fflush, "H5Fflush");
    if (!fn)
        return -1;
    if (!trc_active())
        return fn(obj, scope);
    double t0 = trc_now();
    herr_t ret = fn(obj, scope);
    double t1 = trc_now();
    if (ret >= 0)
        h5f_done(obj, 0, t0, t1);
    return ret;
}

herr_t H5Fclose(hid_t fid)
{
    herr_t (*fn)(hid_t) = trc_real(&f_fclose, "H5Fclose");
    if (!fn)
        return -1;
    if (!trc_active())
        return fn(fid);
    double t0 = trc_now();
    herr_t ret = fn(fid);
    double t1 = trc_now();
    if (ret >= 0)
        h5f_done(fid, 1, t0, t1);
    return ret;
}

hid_t H5Dcreate2(hid_t loc, const char *name, hid_t type, hid_t space,
                 hid_t lcpl, hid_t dcpl, hid_t dapl)
{
    hid_t (*fn)(hid_t, const char *, hid_t, hid_t, hid_t, hid_t, hid_t) =
        trc_real(&f_dcreate2, "H5Dcreate2");
    if (!fn)
        return -1;
    if (!trc_active())
        return fn(loc, name, type, space, lcpl, dcpl, dapl);
    double t0 = trc_now();
    hid_t ret = fn(loc, name, type, space, lcpl, dcpl, dapl);
    double t1 = trc_now();
    if (ret >= 0 && name)
        h5d_opened(ret, loc, name, t0, t1);
    return ret;
}

hid_t H5Dopen2(hid_t loc, const char *name, hid_t dapl)
{
    hid_t (*fn)(hid_t, const char *, hid_t) = trc_real(&f_dopen2, "H5Dopen2");
    if (!fn)
        return -1;
    if (!trc_active())
        return fn(loc, name, dapl);
    double t0 = trc_now();
    hid_t ret = fn(loc, name, dapl);
    double t1 = trc_now();
    if (ret >= 0 && name)
        h5d_opened(ret, loc, name, t0, t1);
    return ret;
}

herr_t H5Dread(hid_t dset, hid_t mem_type, hid_t mem_space, hid_t file_space,
               hid_t dxpl, void *buf)
{
    herr_t (*fn)(hid_t, hid_t, hid_t, hid_t, hid_t, void *) =
        trc_real(&f_dread, "H5Dread");
    if (!fn)
        return -1;
    if (!trc_active())
        return fn(dset, mem_type, mem_space, file_space, dxpl, buf);
    double t0 = trc_now();
    herr_t ret = fn(dset, mem_type, mem_space, file_space, dxpl, buf);
    double t1 = trc_now();
    if (ret >= 0)
        h5d_access(dset, TRC_OP_READ, mem_type, file_space, dxpl, t0, t1);
    return ret;
}

herr_t H5Dwrite(hid_t dset, hid_t mem_type, hid_t mem_space, hid_t file_space,
                hid_t dxpl, const void *buf)
{
    herr_t (*fn)(hid_t, hid_t, hid_t, hid_t, hid_t, const void *) =
        trc_real(&f_dwrite, "H5Dwrite");
    if (!fn)
        return -1;
    if (!trc_active())
        return fn(dset, mem_type, mem_space, file_space, dxpl, buf);
    double t0 = trc_now();
    herr_t ret = fn(dset, mem_type, mem_space, file_space, dxpl, buf);
    double t1 = trc_now();
    if (ret >= 0)
        h5d_access(dset, TRC_OP_WRITE, mem_type, file_space, dxpl, t0, t1);
    return ret;
}

herr_t H5Dflush(hid_t dset)
{
    herr_t (*fn)(hid_t) = trc_real(&f_dflush, "H5Dflush");
    if (!fn)
        return -1;
    if (!trc_active())
        return fn(dset);
    double t0 = trc_now();
    herr_t ret = fn(dset);
    double t1 = trc_now();
    if (ret >= 0)
        h5d_done(dset, 0, t0, t1);
    return ret;
}

herr_t H5Dclose(hid_t dset)
{
    herr_t (*fn)(hid_t) = trc_real(&f_dclose, "H5Dclose");
    if (!fn)
        return -1;
    if (!trc_active())
        return fn(dset);
    double t0 = trc_now();
    herr_t ret = fn(dset);
    double t1 = trc_now();
    if (ret >= 0)
        h5d_done(dset, 1, t0, t1);
    return ret;
}
