/*
 * pnetcdf.c - PnetCDF wrappers: the PNETCDF_FILE and PNETCDF_VAR records of
 * the Darshan runtime's PnetCDF module (format spec 9.6, 9.7, 10.9). Only
 * in libiosage-trace-mpi.so, and only when pnetcdf.h was found at build
 * time (the prototypes come from it); the library is not linked with
 * PnetCDF: the real functions are looked up when first called.
 *
 * Wrapped: ncmpi_create, ncmpi_open, ncmpi_redef, ncmpi_sync, ncmpi_close,
 * ncmpi_def_var and ncmpi_inq_varid (a variable "opens"), and the
 * contiguous-subarray data calls ncmpi_put_vara* / ncmpi_get_vara* of
 * every type, independent and collective (_all; the typed ones are in
 * pnetcdf_vara.c). The other access
 * families (var, var1, vars, varm, varn, the nonblocking iput/iget/bput)
 * are not wrapped yet: their calls reach the MPI-IO and POSIX records
 * only.
 *
 * What is booked (as the runtime's logs of the project's kernels show):
 *   PNETCDF_FILE  CREATES, OPENS, REDEFS, SYNCS, bytes read and written
 *                 by the library for this file (ncmpi_inq_get_size /
 *                 ncmpi_inq_put_size at close: data and header), open and
 *                 close stamps, META_TIME (create, open, redef, sync, close).
 *   PNETCDF_VAR   record "<file path>:<variable name>"; OPENS, INDEP_ or
 *                 COLL_ READS/WRITES, PUT_VARA / GET_VARA, bytes (product
 *                 of the counts x element size of the buffer), size bins,
 *                 the access tuple (bytes, counts in D1..D5 from the first
 *                 dimension, strides 0 for vara), NDIMS, NPOINTS (product
 *                 of the dimension lengths), DATATYPE_SIZE (the variable's
 *                 external type), IS_RECORD_VAR.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <pnetcdf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "iosage/counters.h"
#include "trace.h"

TRC_HIDDEN void trc_pnc_vara_done(int ncid, int varid, int op, int collective,
                                  const MPI_Offset *count, int64_t elem,
                                  double t0, int ret);

/* The calls that describe a file or variable, looked up once each. */
static void *_Atomic f_put_size, *_Atomic f_get_size, *_Atomic f_vartype,
    *_Atomic f_varndims, *_Atomic f_vardimid, *_Atomic f_dimlen,
    *_Atomic f_unlimdim;

/* Map key of a file (ncid) and of a variable (ncid, varid). */
static const void *file_key(int ncid)
{
    return (const void *)(uintptr_t)(uint32_t)ncid;
}

static const void *var_key(int ncid, int varid)
{
    return (const void *)(uintptr_t)(((uint64_t)(uint32_t)ncid << 32) |
                                     (uint32_t)varid);
}

/* Size in bytes of an external type (1 for unknown ones). */
static int64_t type_size(nc_type t)
{
    switch (t) {
    case NC_SHORT: case NC_USHORT: return 2;
    case NC_INT: case NC_UINT: case NC_FLOAT: return 4;
    case NC_DOUBLE: case NC_INT64: case NC_UINT64: return 8;
    default: return 1;
    }
}

/* --- files ------------------------------------------------------------------ */

static void file_opened(int ncid, const char *path, int created, double t0,
                        double t1)
{
    int saved = errno;
    int old = trc_lock();
    char clean[TRC_PATH_MAX];
    struct trc_rec *r = NULL;
    if (trc_clean_path(AT_FDCWD, path, clean) == 0 && !trc_excluded(clean))
        r = trc_rec_get(TRC_PNCF, clean);
    struct trc_ref *ref = r ? trc_map_add(TRC_PNCF, file_key(ncid)) : NULL;
    if (ref) {
        ref->rec = r;
        r->c[created ? IOSAGE_PNETCDF_FILE_CREATES
                     : IOSAGE_PNETCDF_FILE_OPENS]++;
        trc_stamp(&r->f[IOSAGE_PNETCDF_FILE_F_OPEN_START_TIMESTAMP],
                  &r->f[IOSAGE_PNETCDF_FILE_F_OPEN_END_TIMESTAMP], t0, t1);
        trc_add_time(r, TRC_T_META, t0, t1,
                     &r->f[IOSAGE_PNETCDF_FILE_F_META_TIME]);
    }
    trc_unlock(old);
    errno = saved;
}

/* A redef (which = REDEFS), sync (SYNCS) or close (-1) of a traced file;
 * read and written: the library's byte counts taken before the close. */
static void file_event(int ncid, int which, int64_t read, int64_t written,
                       double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_ref *ref = trc_map_find(TRC_PNCF, file_key(ncid));
    if (ref) {
        struct trc_rec *r = ref->rec;
        if (which >= 0) {
            r->c[which]++;
        } else {
            r->c[IOSAGE_PNETCDF_FILE_BYTES_READ] += read;
            r->c[IOSAGE_PNETCDF_FILE_BYTES_WRITTEN] += written;
            trc_stamp(&r->f[IOSAGE_PNETCDF_FILE_F_CLOSE_START_TIMESTAMP],
                      &r->f[IOSAGE_PNETCDF_FILE_F_CLOSE_END_TIMESTAMP], t0, t1);
        }
        trc_add_time(r, TRC_T_META, t0, t1,
                     &r->f[IOSAGE_PNETCDF_FILE_F_META_TIME]);
        if (which < 0)
            trc_map_del(TRC_PNCF, file_key(ncid));
    }
    trc_unlock(old);
    errno = saved;
}

int ncmpi_create(MPI_Comm comm, const char *path, int cmode, MPI_Info info,
                 int *ncidp)
{
    static void *_Atomic real;
    int (*fn)(MPI_Comm, const char *, int, MPI_Info, int *) =
        trc_real(&real, "ncmpi_create");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(comm, path, cmode, info, ncidp);
    double t0 = trc_now();
    int ret = fn(comm, path, cmode, info, ncidp);
    double t1 = trc_now();
    if (ret == NC_NOERR && path && ncidp)
        file_opened(*ncidp, path, 1, t0, t1);
    return ret;
}

int ncmpi_open(MPI_Comm comm, const char *path, int omode, MPI_Info info,
               int *ncidp)
{
    static void *_Atomic real;
    int (*fn)(MPI_Comm, const char *, int, MPI_Info, int *) =
        trc_real(&real, "ncmpi_open");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(comm, path, omode, info, ncidp);
    double t0 = trc_now();
    int ret = fn(comm, path, omode, info, ncidp);
    double t1 = trc_now();
    if (ret == NC_NOERR && path && ncidp)
        file_opened(*ncidp, path, 0, t0, t1);
    return ret;
}

int ncmpi_redef(int ncid)
{
    static void *_Atomic real;
    int (*fn)(int) = trc_real(&real, "ncmpi_redef");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid);
    double t0 = trc_now();
    int ret = fn(ncid);
    double t1 = trc_now();
    if (ret == NC_NOERR)
        file_event(ncid, IOSAGE_PNETCDF_FILE_REDEFS, 0, 0, t0, t1);
    return ret;
}

int ncmpi_sync(int ncid)
{
    static void *_Atomic real;
    int (*fn)(int) = trc_real(&real, "ncmpi_sync");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid);
    double t0 = trc_now();
    int ret = fn(ncid);
    double t1 = trc_now();
    if (ret == NC_NOERR)
        file_event(ncid, IOSAGE_PNETCDF_FILE_SYNCS, 0, 0, t0, t1);
    return ret;
}

int ncmpi_close(int ncid)
{
    static void *_Atomic real;
    int (*fn)(int) = trc_real(&real, "ncmpi_close");
    int (*put_size)(int, MPI_Offset *) =
        trc_real(&f_put_size, "ncmpi_inq_put_size");
    int (*get_size)(int, MPI_Offset *) =
        trc_real(&f_get_size, "ncmpi_inq_get_size");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid);
    MPI_Offset rd = 0, wr = 0;
    int old_busy = tl_busy;
    tl_busy = 1;
    if (!get_size || get_size(ncid, &rd) != NC_NOERR)
        rd = 0;
    if (!put_size || put_size(ncid, &wr) != NC_NOERR)
        wr = 0;
    tl_busy = old_busy;
    double t0 = trc_now();
    int ret = fn(ncid);
    double t1 = trc_now();
    if (ret == NC_NOERR)
        file_event(ncid, -1, (int64_t)rd, (int64_t)wr, t0, t1);
    return ret;
}

/* --- variables ------------------------------------------------------------------ */

/* Dimensions of a variable looked at (more: described as unknown). */
#define MAX_VAR_DIMS 64

/* What a variable is. */
struct var_desc {
    int64_t ndims, npoints, type_size, is_record;
};

static void describe_var(int ncid, int varid, struct var_desc *d)
{
    int (*vartype)(int, int, nc_type *) =
        trc_real(&f_vartype, "ncmpi_inq_vartype");
    int (*varndims)(int, int, int *) =
        trc_real(&f_varndims, "ncmpi_inq_varndims");
    int (*vardimid)(int, int, int *) =
        trc_real(&f_vardimid, "ncmpi_inq_vardimid");
    int (*dimlen)(int, int, MPI_Offset *) =
        trc_real(&f_dimlen, "ncmpi_inq_dimlen");
    int (*unlimdim)(int, int *) = trc_real(&f_unlimdim, "ncmpi_inq_unlimdim");
    nc_type t;
    int n = 0, dims[MAX_VAR_DIMS], unlim = -1;
    memset(d, 0, sizeof *d);
    if (!vartype || !varndims || !vardimid || !dimlen || !unlimdim)
        return;
    if (vartype(ncid, varid, &t) == NC_NOERR)
        d->type_size = type_size(t);
    if (varndims(ncid, varid, &n) != NC_NOERR || n < 0 ||
        n > MAX_VAR_DIMS || vardimid(ncid, varid, dims) != NC_NOERR)
        return;
    d->ndims = n;
    d->npoints = 1;
    for (int i = 0; i < n; i++) {
        MPI_Offset len = 0;
        if (dimlen(ncid, dims[i], &len) != NC_NOERR)
            len = 0;
        d->npoints *= (int64_t)len;
    }
    if (unlimdim(ncid, &unlim) == NC_NOERR && n > 0 && dims[0] == unlim)
        d->is_record = 1;
}

/* A variable defined or looked up: one more open of its record. */
static void var_opened(int ncid, int varid, const char *name, double t0,
                       double t1)
{
    int saved = errno;
    int old_busy = tl_busy;
    tl_busy = 1;
    struct var_desc d;
    describe_var(ncid, varid, &d);
    tl_busy = old_busy;
    int old = trc_lock();
    struct trc_ref *file = trc_map_find(TRC_PNCF, file_key(ncid));
    char full[TRC_PATH_MAX + 256];
    struct trc_rec *r = NULL;
    if (file && snprintf(full, sizeof full, "%s:%s", file->rec->name, name) <
                    (int)sizeof full)
        r = trc_rec_get(TRC_PNCV, full);
    struct trc_ref *ref = trc_map_find(TRC_PNCV, var_key(ncid, varid));
    if (r && !ref)
        ref = trc_map_add(TRC_PNCV, var_key(ncid, varid));
    if (r && ref) {
        ref->rec = r;
        r->c[IOSAGE_PNETCDF_VAR_OPENS]++;
        r->c[IOSAGE_PNETCDF_VAR_NDIMS] = d.ndims;
        r->c[IOSAGE_PNETCDF_VAR_NPOINTS] = d.npoints;
        r->c[IOSAGE_PNETCDF_VAR_DATATYPE_SIZE] = d.type_size;
        r->c[IOSAGE_PNETCDF_VAR_IS_RECORD_VAR] = d.is_record;
        trc_stamp(&r->f[IOSAGE_PNETCDF_VAR_F_OPEN_START_TIMESTAMP],
                  &r->f[IOSAGE_PNETCDF_VAR_F_OPEN_END_TIMESTAMP], t0, t1);
        trc_add_time(r, TRC_T_META, t0, t1,
                     &r->f[IOSAGE_PNETCDF_VAR_F_META_TIME]);
    }
    trc_unlock(old);
    errno = saved;
}

int ncmpi_def_var(int ncid, const char *name, nc_type xtype, int ndims,
                  const int *dimidsp, int *varidp)
{
    static void *_Atomic real;
    int (*fn)(int, const char *, nc_type, int, const int *, int *) =
        trc_real(&real, "ncmpi_def_var");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, name, xtype, ndims, dimidsp, varidp);
    double t0 = trc_now();
    int ret = fn(ncid, name, xtype, ndims, dimidsp, varidp);
    double t1 = trc_now();
    if (ret == NC_NOERR && name && varidp)
        var_opened(ncid, *varidp, name, t0, t1);
    return ret;
}

int ncmpi_inq_varid(int ncid, const char *name, int *varidp)
{
    static void *_Atomic real;
    int (*fn)(int, const char *, int *) = trc_real(&real, "ncmpi_inq_varid");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, name, varidp);
    double t0 = trc_now();
    int ret = fn(ncid, name, varidp);
    double t1 = trc_now();
    if (ret == NC_NOERR && name && varidp)
        var_opened(ncid, *varidp, name, t0, t1);
    return ret;
}

/* See pnetcdf_vara.c. */
void trc_pnc_vara_done(int ncid, int varid, int op, int collective,
                       const MPI_Offset *count, int64_t elem, double t0,
                       int ret)
{
    int saved = errno;
    double t1 = trc_now();
    if (ret != NC_NOERR) {
        errno = saved;
        return;
    }
    int old = trc_lock();
    struct trc_ref *ref = trc_map_find(TRC_PNCV, var_key(ncid, varid));
    if (ref) {
        struct trc_rec *r = ref->rec;
        int64_t *c = r->c;
        double *f = r->f;
        int rd = op == TRC_OP_READ;
        int64_t n = c[IOSAGE_PNETCDF_VAR_NDIMS], points = 1;
        int64_t tuple[TRC_TUPLE_LEN] = {0};
        for (int64_t i = 0; i < n && count; i++) {
            points *= (int64_t)count[i];
            if (i < 5)
                tuple[1 + i] = (int64_t)count[i];
        }
        int64_t bytes =
            points * (elem > 0 ? elem : c[IOSAGE_PNETCDF_VAR_DATATYPE_SIZE]);
        tuple[0] = bytes;
        c[rd ? (collective ? IOSAGE_PNETCDF_VAR_COLL_READS
                           : IOSAGE_PNETCDF_VAR_INDEP_READS)
             : (collective ? IOSAGE_PNETCDF_VAR_COLL_WRITES
                           : IOSAGE_PNETCDF_VAR_INDEP_WRITES)]++;
        c[rd ? IOSAGE_PNETCDF_VAR_GET_VARA : IOSAGE_PNETCDF_VAR_PUT_VARA]++;
        c[rd ? IOSAGE_PNETCDF_VAR_BYTES_READ
             : IOSAGE_PNETCDF_VAR_BYTES_WRITTEN] += bytes;
        c[(rd ? IOSAGE_PNETCDF_VAR_SIZE_READ_AGG_0_100
              : IOSAGE_PNETCDF_VAR_SIZE_WRITE_AGG_0_100) +
          trc_size_bin(bytes)]++;
        if (trc_rw_switch(r, op))
            c[IOSAGE_PNETCDF_VAR_RW_SWITCHES]++;
        if (bytes > 0)
            trc_count_tuple(r, tuple);
        int fmax = rd ? IOSAGE_PNETCDF_VAR_F_MAX_READ_TIME
                      : IOSAGE_PNETCDF_VAR_F_MAX_WRITE_TIME;
        if (t1 - t0 > f[fmax]) {
            f[fmax] = t1 - t0;
            c[rd ? IOSAGE_PNETCDF_VAR_MAX_READ_TIME_SIZE
                 : IOSAGE_PNETCDF_VAR_MAX_WRITE_TIME_SIZE] = bytes;
        }
        trc_add_time(r, rd ? TRC_T_READ : TRC_T_WRITE, t0, t1,
                     &f[rd ? IOSAGE_PNETCDF_VAR_F_READ_TIME
                           : IOSAGE_PNETCDF_VAR_F_WRITE_TIME]);
        if (rd)
            trc_stamp(&f[IOSAGE_PNETCDF_VAR_F_READ_START_TIMESTAMP],
                      &f[IOSAGE_PNETCDF_VAR_F_READ_END_TIMESTAMP], t0, t1);
        else
            trc_stamp(&f[IOSAGE_PNETCDF_VAR_F_WRITE_START_TIMESTAMP],
                      &f[IOSAGE_PNETCDF_VAR_F_WRITE_END_TIMESTAMP], t0, t1);
    }
    trc_unlock(old);
    errno = saved;
}

/* Bytes per element of a flexible-API buffer of type buftype (0 when
 * bufcount is -1: the buffer has the variable's own type). */
static int64_t flexible_elem(MPI_Offset bufcount, MPI_Datatype buftype)
{
    int size = 0;
    if (bufcount < 0 || buftype == MPI_DATATYPE_NULL ||
        PMPI_Type_size(buftype, &size) != MPI_SUCCESS)
        return 0;
    return size;
}

/* --- the data calls: flexible API ----------------------------------------------- */

int ncmpi_put_vara(int ncid, int varid, const MPI_Offset *start,
                   const MPI_Offset *count, const void *op,
                   MPI_Offset bufcount, MPI_Datatype buftype)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const void *,
              MPI_Offset, MPI_Datatype) = trc_real(&real, "ncmpi_put_vara");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op, bufcount, buftype);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op, bufcount, buftype);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 0, count,
              flexible_elem(bufcount, buftype), t0, ret);
    return ret;
}

int ncmpi_put_vara_all(int ncid, int varid, const MPI_Offset *start,
                       const MPI_Offset *count, const void *op,
                       MPI_Offset bufcount, MPI_Datatype buftype)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const void *,
              MPI_Offset, MPI_Datatype) = trc_real(&real, "ncmpi_put_vara_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op, bufcount, buftype);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op, bufcount, buftype);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 1, count,
              flexible_elem(bufcount, buftype), t0, ret);
    return ret;
}

int ncmpi_get_vara(int ncid, int varid, const MPI_Offset *start,
                   const MPI_Offset *count, void *ip, MPI_Offset bufcount,
                   MPI_Datatype buftype)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, void *,
              MPI_Offset, MPI_Datatype) = trc_real(&real, "ncmpi_get_vara");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip, bufcount, buftype);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip, bufcount, buftype);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 0, count,
              flexible_elem(bufcount, buftype), t0, ret);
    return ret;
}

int ncmpi_get_vara_all(int ncid, int varid, const MPI_Offset *start,
                       const MPI_Offset *count, void *ip, MPI_Offset bufcount,
                       MPI_Datatype buftype)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, void *,
              MPI_Offset, MPI_Datatype) = trc_real(&real, "ncmpi_get_vara_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip, bufcount, buftype);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip, bufcount, buftype);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 1, count,
              flexible_elem(bufcount, buftype), t0, ret);
    return ret;
}
