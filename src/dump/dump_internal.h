/*
 * src/dump/dump_internal.h - what the parts of `iosage dump` share.
 *
 * Layers, top down:
 *   dump_parser.c  iosage_dump_parser: module sections, counter lines
 *   dump_dxt.c     iosage_dump_dxt: trace segments, Lustre OST columns
 *   dump_accum.c   --total / --file / --perf accumulators (spec section 13)
 *   dump_common.c  preamble, name/mount columns, partial-data blocks
 *   dump_text.c    fixed text blocks of the reference tools
 *   dump_out.c     output buffer, integer and "%f" formatting
 *
 * Everything is formatted into one large buffer owned by an ios_out and
 * written with fwrite when it fills up; no printf per counter line.
 */
#ifndef IOS_DUMP_INTERNAL_H
#define IOS_DUMP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "iosage/darshan.h"
#include "iosage/dump.h"

/* --- Output buffer (dump_out.c) ------------------------------------------ */

#define IOS_OUT_CAP ((size_t)256 * 1024)

typedef struct ios_out {
    char *buf;  /* IOS_OUT_CAP bytes */
    size_t len; /* bytes waiting in buf */
    FILE *f;
    int err;    /* the errno of the first failed write (0: none); later
                   output is dropped */
    int escape; /* IOSAGE_DUMP_ESCAPE: terminal-safe output (dump_out.c) */
} ios_out;

/* Returns 0, or -1 when the buffer cannot be allocated. */
int ios_out_init(ios_out *o, FILE *f);
/* Write what is buffered (with escape, the first bytes of a UTF-8
 * sequence cut by the end of the buffer wait for the next flush); returns 0
 * or -1 (o->err set). */
int ios_out_flush(ios_out *o);
/* Write everything buffered, a cut sequence too. */
void ios_out_flush_all(ios_out *o);
/* Flush and release the buffer; returns 0 or -1 if any write failed. */
int ios_out_finish(ios_out *o);

/* Append n bytes (any size). */
void ios_out_mem(ios_out *o, const void *p, size_t n);

static inline void ios_out_str(ios_out *o, const char *s)
{
    ios_out_mem(o, s, strlen(s));
}

/* Room for at least n more bytes in o->buf (n <= IOS_OUT_CAP); returns the
 * write position. The caller advances o->len itself. */
static inline char *ios_out_reserve(ios_out *o, size_t n)
{
    if (IOS_OUT_CAP - o->len < n)
        ios_out_flush(o);
    if (IOS_OUT_CAP - o->len < n)
        ios_out_flush_all(o);
    return o->buf + o->len;
}

/* Number formatting into p (no terminator); each returns the bytes written.
 * IOS_NUM_MAX bounds every result of the fixed-precision functions for
 * finite values below 1e300; larger ones go through snprintf with a big
 * enough scratch (see ios_fmt_double). */
#define IOS_NUM_MAX 32
size_t ios_fmt_u64(char *p, uint64_t v);
size_t ios_fmt_i64(char *p, int64_t v);
/* C "%.<prec>f" (prec 0..9), exactly as glibc prints it. p must hold
 * IOS_DBL_MAX bytes. */
#define IOS_DBL_MAX 330
size_t ios_fmt_double(char *p, double v, int prec);

void ios_out_u64(ios_out *o, uint64_t v);
void ios_out_i64(ios_out *o, int64_t v);
void ios_out_double(ios_out *o, double v, int prec);
/* Right-aligned in a field of width w (like "%<w>lld", "%<w>.<p>f"). */
void ios_out_i64_w(ios_out *o, int64_t v, int w);
void ios_out_double_w(ios_out *o, double v, int prec, int w);

/* --- Fixed text (dump_text.c) ---------------------------------------------- */

extern const char ios_txt_columns[];     /* "\n# description of columns:..." */
extern const char ios_txt_file_counts[]; /* --file block header */
extern const char ios_txt_v320_warning[];

/* Description block of module (starting with a blank line), for the module's
 * stored record version, into o. Nothing for modules without one. */
void ios_txt_description(ios_out *o, int module, uint32_t version);

/* Partial-data blocks. show: 1 = *WARNING* (stdout, --show-incomplete),
 * 0 = *ERROR* (diag). dxt selects darshan-dxt-parser's wording. */
void ios_txt_partial(ios_out *o, const char *modname, int show, int dxt);

/* --- Shared pieces (dump_common.c) ----------------------------------------- */

/* Preamble of both tools (spec 12.1 items 1-12). */
void ios_dump_preamble(ios_out *o, const iosage_reader *r);

/* Banner "\n# ***...\n# <NAME> module data\n# ***...\n" with `stars` '*'. */
void ios_dump_banner(ios_out *o, const char *modname, int stars);

/* Id -> mount lookup with a cache. */
typedef struct ios_mounts ios_mounts;
ios_mounts *ios_mounts_create(const struct iosage_job *job);
void ios_mounts_free(ios_mounts *m);
/* Mount entry index whose point is a string prefix of name (first in the
 * sorted table), or -1. id is the cache key (the name's record id). */
long ios_mounts_match(ios_mounts *m, uint64_t id, const char *name);

/* Write the 36 characters of "<pool uuid>:<cont uuid>" parts: one UUID as
 * lowercase 8-4-4-4-12 text. p must hold 36 bytes. */
void ios_fmt_uuid(char *p, const uint8_t u[16]);

/* Set res->first_problem once. */
int ios_dump_partial(ios_out *o, FILE *diag, struct iosage_dump_result *res,
                     const iosage_module_data *md, int show, int dxt);
void ios_dump_failed(FILE *diag, struct iosage_dump_result *res,
                     const iosage_module_data *md);
void ios_dump_check_module(const iosage_module_data *md, int64_t nprocs,
                           struct iosage_dump_result *res);
void ios_dump_problem(struct iosage_dump_result *res, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* --- Accumulators (dump_accum.c) ------------------------------------------ */

typedef struct ios_accum ios_accum;

/* 1 for the modules darshan-parser summarises (POSIX, MPI-IO, STDIO, DFS,
 * DAOS). */
int ios_accum_supported(int module);
/* A new accumulator for module, or NULL on no memory. nprocs is the job's
 * process count (negative or absurd values select the reference tool's
 * fallback, spec 13.2 last paragraph). */
ios_accum *ios_accum_create(int module, int64_t nprocs);
/* Feed one record; returns 0 or -1 on no memory. */
int ios_accum_add(ios_accum *a, const iosage_record *rec);
/* Print the blocks selected by flags (IOSAGE_DUMP_TOTAL/FILE/PERF). */
void ios_accum_print(ios_accum *a, ios_out *o, int flags, uint32_t version);
void ios_accum_free(ios_accum *a);

#endif
