/*
 * src/darshan/mod_fixed.h - helpers shared by the codecs of the modules whose
 * records are a base record followed by counter arrays (mod_posix.c,
 * mod_mpiio.c, mod_stdio.c, mod_hdf5.c, mod_pnetcdf.c, mod_bgq.c,
 * mod_mdhim.c, mod_daos.c).
 *
 * A decoder uses them in this order:
 *   1. ios_fixed_size_or_fail() (or its own size rule) picks the stored
 *      record size for ctx->version, failing with IOSAGE_E_UNSUPPORTED for a
 *      version it does not know;
 *   2. ios_cur_left() < size -> IOS_DECODE_SHORT, nothing consumed;
 *   3. for a record of the newest version, ios_fixed_in_place() may point
 *      rec at the stored arrays (and then the record is done); otherwise
 *      ios_fixed_alloc() gives rec the arrays of the newest layout;
 *   4. ios_fixed_base() and ios_fixed_load_*() read the stored fields,
 *      then the codec moves them into the newest order;
 *   5. c->pos += size.
 * An encoder calls ios_fixed_check(), writes with ios_fixed_put_*() and
 * finishes with ios_fixed_done().
 */
#ifndef IOS_DARSHAN_MOD_FIXED_H
#define IOS_DARSHAN_MOD_FIXED_H

#include "internal.h"

/* Bytes of the base record every module record starts with: uint64 id,
 * int64 rank. */
#define IOS_BASE_SIZE 16

/* Size of the stored record for ctx->version, from sizes[0..n_versions)
 * (sizes[0] is version 1). On an unknown version (0 or > n_versions) fills
 * err with IOSAGE_E_UNSUPPORTED and returns 0. */
size_t ios_fixed_size_or_fail(const ios_cursor *c, const ios_mod_ctx *ctx,
                              const size_t *sizes, uint32_t n_versions,
                              const char *where, iosage_error *err);

/* Give rec zeroed int64[n_int] and double[n_dbl] arrays from arena and set
 * n_counters/n_fcounters. Returns IOSAGE_OK or IOSAGE_E_NOMEM (err filled
 * with the position c->pos). */
int ios_fixed_alloc(iosage_record *rec, int n_int, int n_dbl,
                    ios_arena *arena, const ios_cursor *c,
                    const ios_mod_ctx *ctx, const char *where,
                    iosage_error *err);

/* A record of size bytes at the cursor, of the newest layout in the host's
 * byte order: point rec's arrays at the int64[n_int] and double[n_dbl]
 * that follow its base record instead of copying them, when
 * ctx->data_is_ours allows it and they are 8-byte aligned. 1 when done
 * (cursor moved past the record, ctx->data_used set), else 0: then
 * ios_fixed_alloc and the loads as usual. The counters of a large log are
 * most of its memory; copying them doubled it (and the page faults). */
int ios_fixed_in_place(ios_cursor *c, size_t size, int n_int, int n_dbl,
                       ios_mod_ctx *ctx, iosage_record *rec);

/* Read id and rank at p (the record's first byte). */
void ios_fixed_base(const uint8_t *p, int swap, iosage_record *rec);

/* Read n consecutive 8-byte values at p into dst, swapping if asked. */
void ios_fixed_load_i64s(const uint8_t *p, int swap, int64_t *dst, int n);
void ios_fixed_load_f64s(const uint8_t *p, int swap, double *dst, int n);

/* Set dst[0..n) to v. */
void ios_fixed_fill_i64(int64_t *dst, int n, int64_t v);
void ios_fixed_fill_f64(double *dst, int n, double v);

/* Move a 15-double timer array of the older POSIX / MPI-IO layout (open,
 * read start, write start, read end, write end, close, then 9 timers) into
 * the 17-double newer order: open -> OPEN_START, close -> CLOSE_END,
 * CLOSE_START and OPEN_END (indices 3, 4) = -1. dst must hold 17. */
void ios_fixed_times15_to_17(const double *src, double *dst);

/* Encoding: check that rec has the newest layout (n_counters == n_int,
 * n_fcounters == n_dbl, arrays present when non-empty); IOSAGE_E_USAGE with
 * err filled otherwise. */
iosage_status ios_fixed_check(const iosage_record *rec, int n_int, int n_dbl,
                              const char *where, iosage_error *err);

/* Append id and rank; then the arrays (little-endian). */
void ios_fixed_put_base(ios_buf *out, const iosage_record *rec);
void ios_fixed_put_i64s(ios_buf *out, const int64_t *v, int n);
void ios_fixed_put_f64s(ios_buf *out, const double *v, int n);

/* IOSAGE_OK, or IOSAGE_E_NOMEM when an append to out failed. */
iosage_status ios_fixed_done(const ios_buf *out, const char *where,
                             iosage_error *err);

#endif
