/*
 * pnetcdf_vara.c - the typed PnetCDF subarray calls, ncmpi_put_vara_<type>
 * and ncmpi_get_vara_<type>, independent and collective (_all), for every
 * element type PnetCDF has. Each is the same: look up the real call, pass
 * through when not tracing, else time it and book it (pnetcdf.c) with the
 * element size of its buffer type. Only in libiosage-trace-mpi.so, built
 * with pnetcdf.c.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <pnetcdf.h>
#include <stdint.h>

#include "trace.h"

/* One vara read or write of a traced variable (pnetcdf.c). elem: bytes per
 * element of the caller's buffer (0: the variable's own type size);
 * collective: an _all call; t0: when the call started; ret: its result. */
TRC_HIDDEN void trc_pnc_vara_done(int ncid, int varid, int op, int collective,
                                  const MPI_Offset *count, int64_t elem,
                                  double t0, int ret);


int ncmpi_put_vara_text(int ncid, int varid, const MPI_Offset *start,
                        const MPI_Offset *count, const char *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const char *) =
        trc_real(&real, "ncmpi_put_vara_text");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 0, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_put_vara_text_all(int ncid, int varid, const MPI_Offset *start,
                            const MPI_Offset *count, const char *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const char *) =
        trc_real(&real, "ncmpi_put_vara_text_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 1, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_get_vara_text(int ncid, int varid, const MPI_Offset *start,
                        const MPI_Offset *count, char *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, char *) =
        trc_real(&real, "ncmpi_get_vara_text");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 0, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_get_vara_text_all(int ncid, int varid, const MPI_Offset *start,
                            const MPI_Offset *count, char *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, char *) =
        trc_real(&real, "ncmpi_get_vara_text_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 1, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_put_vara_schar(int ncid, int varid, const MPI_Offset *start,
                         const MPI_Offset *count, const signed char *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const signed char *) =
        trc_real(&real, "ncmpi_put_vara_schar");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 0, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_put_vara_schar_all(int ncid, int varid, const MPI_Offset *start,
                             const MPI_Offset *count, const signed char *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const signed char *) =
        trc_real(&real, "ncmpi_put_vara_schar_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 1, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_get_vara_schar(int ncid, int varid, const MPI_Offset *start,
                         const MPI_Offset *count, signed char *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, signed char *) =
        trc_real(&real, "ncmpi_get_vara_schar");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 0, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_get_vara_schar_all(int ncid, int varid, const MPI_Offset *start,
                             const MPI_Offset *count, signed char *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, signed char *) =
        trc_real(&real, "ncmpi_get_vara_schar_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 1, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_put_vara_uchar(int ncid, int varid, const MPI_Offset *start,
                         const MPI_Offset *count, const unsigned char *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const unsigned char *) =
        trc_real(&real, "ncmpi_put_vara_uchar");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 0, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_put_vara_uchar_all(int ncid, int varid, const MPI_Offset *start,
                             const MPI_Offset *count, const unsigned char *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const unsigned char *) =
        trc_real(&real, "ncmpi_put_vara_uchar_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 1, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_get_vara_uchar(int ncid, int varid, const MPI_Offset *start,
                         const MPI_Offset *count, unsigned char *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, unsigned char *) =
        trc_real(&real, "ncmpi_get_vara_uchar");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 0, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_get_vara_uchar_all(int ncid, int varid, const MPI_Offset *start,
                             const MPI_Offset *count, unsigned char *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, unsigned char *) =
        trc_real(&real, "ncmpi_get_vara_uchar_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 1, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_put_vara_short(int ncid, int varid, const MPI_Offset *start,
                         const MPI_Offset *count, const short *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const short *) =
        trc_real(&real, "ncmpi_put_vara_short");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 0, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_put_vara_short_all(int ncid, int varid, const MPI_Offset *start,
                             const MPI_Offset *count, const short *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const short *) =
        trc_real(&real, "ncmpi_put_vara_short_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 1, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_get_vara_short(int ncid, int varid, const MPI_Offset *start,
                         const MPI_Offset *count, short *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, short *) =
        trc_real(&real, "ncmpi_get_vara_short");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 0, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_get_vara_short_all(int ncid, int varid, const MPI_Offset *start,
                             const MPI_Offset *count, short *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, short *) =
        trc_real(&real, "ncmpi_get_vara_short_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 1, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_put_vara_ushort(int ncid, int varid, const MPI_Offset *start,
                          const MPI_Offset *count, const unsigned short *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const unsigned short *) =
        trc_real(&real, "ncmpi_put_vara_ushort");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 0, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_put_vara_ushort_all(int ncid, int varid, const MPI_Offset *start,
                              const MPI_Offset *count, const unsigned short *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const unsigned short *) =
        trc_real(&real, "ncmpi_put_vara_ushort_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 1, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_get_vara_ushort(int ncid, int varid, const MPI_Offset *start,
                          const MPI_Offset *count, unsigned short *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, unsigned short *) =
        trc_real(&real, "ncmpi_get_vara_ushort");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 0, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_get_vara_ushort_all(int ncid, int varid, const MPI_Offset *start,
                              const MPI_Offset *count, unsigned short *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, unsigned short *) =
        trc_real(&real, "ncmpi_get_vara_ushort_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 1, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_put_vara_int(int ncid, int varid, const MPI_Offset *start,
                       const MPI_Offset *count, const int *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const int *) =
        trc_real(&real, "ncmpi_put_vara_int");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 0, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_put_vara_int_all(int ncid, int varid, const MPI_Offset *start,
                           const MPI_Offset *count, const int *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const int *) =
        trc_real(&real, "ncmpi_put_vara_int_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 1, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_get_vara_int(int ncid, int varid, const MPI_Offset *start,
                       const MPI_Offset *count, int *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, int *) =
        trc_real(&real, "ncmpi_get_vara_int");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 0, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_get_vara_int_all(int ncid, int varid, const MPI_Offset *start,
                           const MPI_Offset *count, int *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, int *) =
        trc_real(&real, "ncmpi_get_vara_int_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 1, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_put_vara_uint(int ncid, int varid, const MPI_Offset *start,
                        const MPI_Offset *count, const unsigned int *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const unsigned int *) =
        trc_real(&real, "ncmpi_put_vara_uint");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 0, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_put_vara_uint_all(int ncid, int varid, const MPI_Offset *start,
                            const MPI_Offset *count, const unsigned int *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const unsigned int *) =
        trc_real(&real, "ncmpi_put_vara_uint_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 1, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_get_vara_uint(int ncid, int varid, const MPI_Offset *start,
                        const MPI_Offset *count, unsigned int *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, unsigned int *) =
        trc_real(&real, "ncmpi_get_vara_uint");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 0, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_get_vara_uint_all(int ncid, int varid, const MPI_Offset *start,
                            const MPI_Offset *count, unsigned int *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, unsigned int *) =
        trc_real(&real, "ncmpi_get_vara_uint_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 1, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_put_vara_long(int ncid, int varid, const MPI_Offset *start,
                        const MPI_Offset *count, const long *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const long *) =
        trc_real(&real, "ncmpi_put_vara_long");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 0, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_put_vara_long_all(int ncid, int varid, const MPI_Offset *start,
                            const MPI_Offset *count, const long *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const long *) =
        trc_real(&real, "ncmpi_put_vara_long_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 1, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_get_vara_long(int ncid, int varid, const MPI_Offset *start,
                        const MPI_Offset *count, long *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, long *) =
        trc_real(&real, "ncmpi_get_vara_long");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 0, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_get_vara_long_all(int ncid, int varid, const MPI_Offset *start,
                            const MPI_Offset *count, long *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, long *) =
        trc_real(&real, "ncmpi_get_vara_long_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 1, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_put_vara_float(int ncid, int varid, const MPI_Offset *start,
                         const MPI_Offset *count, const float *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const float *) =
        trc_real(&real, "ncmpi_put_vara_float");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 0, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_put_vara_float_all(int ncid, int varid, const MPI_Offset *start,
                             const MPI_Offset *count, const float *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const float *) =
        trc_real(&real, "ncmpi_put_vara_float_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 1, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_get_vara_float(int ncid, int varid, const MPI_Offset *start,
                         const MPI_Offset *count, float *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, float *) =
        trc_real(&real, "ncmpi_get_vara_float");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 0, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_get_vara_float_all(int ncid, int varid, const MPI_Offset *start,
                             const MPI_Offset *count, float *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, float *) =
        trc_real(&real, "ncmpi_get_vara_float_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 1, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_put_vara_double(int ncid, int varid, const MPI_Offset *start,
                          const MPI_Offset *count, const double *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const double *) =
        trc_real(&real, "ncmpi_put_vara_double");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 0, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_put_vara_double_all(int ncid, int varid, const MPI_Offset *start,
                              const MPI_Offset *count, const double *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const double *) =
        trc_real(&real, "ncmpi_put_vara_double_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 1, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_get_vara_double(int ncid, int varid, const MPI_Offset *start,
                          const MPI_Offset *count, double *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, double *) =
        trc_real(&real, "ncmpi_get_vara_double");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 0, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_get_vara_double_all(int ncid, int varid, const MPI_Offset *start,
                              const MPI_Offset *count, double *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, double *) =
        trc_real(&real, "ncmpi_get_vara_double_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 1, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_put_vara_longlong(int ncid, int varid, const MPI_Offset *start,
                            const MPI_Offset *count, const long long *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const long long *) =
        trc_real(&real, "ncmpi_put_vara_longlong");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 0, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_put_vara_longlong_all(int ncid, int varid, const MPI_Offset *start,
                                const MPI_Offset *count, const long long *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const long long *) =
        trc_real(&real, "ncmpi_put_vara_longlong_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 1, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_get_vara_longlong(int ncid, int varid, const MPI_Offset *start,
                            const MPI_Offset *count, long long *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, long long *) =
        trc_real(&real, "ncmpi_get_vara_longlong");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 0, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_get_vara_longlong_all(int ncid, int varid, const MPI_Offset *start,
                                const MPI_Offset *count, long long *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, long long *) =
        trc_real(&real, "ncmpi_get_vara_longlong_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 1, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_put_vara_ulonglong(int ncid, int varid, const MPI_Offset *start,
                             const MPI_Offset *count, const unsigned long long *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const unsigned long long *) =
        trc_real(&real, "ncmpi_put_vara_ulonglong");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 0, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_put_vara_ulonglong_all(int ncid, int varid, const MPI_Offset *start,
                                 const MPI_Offset *count, const unsigned long long *op)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, const unsigned long long *) =
        trc_real(&real, "ncmpi_put_vara_ulonglong_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, op);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, op);
    trc_pnc_vara_done(ncid, varid, TRC_OP_WRITE, 1, count,
              (int64_t)sizeof *op, t0, ret);
    return ret;
}

int ncmpi_get_vara_ulonglong(int ncid, int varid, const MPI_Offset *start,
                             const MPI_Offset *count, unsigned long long *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, unsigned long long *) =
        trc_real(&real, "ncmpi_get_vara_ulonglong");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 0, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}

int ncmpi_get_vara_ulonglong_all(int ncid, int varid, const MPI_Offset *start,
                                 const MPI_Offset *count, unsigned long long *ip)
{
    static void *_Atomic real;
    int (*fn)(int, int, const MPI_Offset *, const MPI_Offset *, unsigned long long *) =
        trc_real(&real, "ncmpi_get_vara_ulonglong_all");
    if (!fn)
        return NC_EINTERNAL;
    if (!trc_active())
        return fn(ncid, varid, start, count, ip);
    double t0 = trc_now();
    int ret = fn(ncid, varid, start, count, ip);
    trc_pnc_vara_done(ncid, varid, TRC_OP_READ, 1, count,
              (int64_t)sizeof *ip, t0, ret);
    return ret;
}
