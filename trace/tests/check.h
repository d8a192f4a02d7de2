/*
 * check.h - helpers the tracer tests use to assert counters in a log read
 * back with the iosage reader. Failures are counted and printed (one line
 * each, with the file, module, rank and counter); chk_done() turns the count
 * into the exit status.
 */
#ifndef IOSAGE_TRACE_CHECK_H
#define IOSAGE_TRACE_CHECK_H

#include <stdint.h>

#include "iosage/counters.h"
#include "iosage/darshan.h"

/* Load the log at path (exits 2 when it cannot be read: nothing to check). */
iosage_log *chk_load(const char *path);

/* The one record of module for name and rank; NULL (a failure) when there
 * is none or more than one. */
const iosage_record *chk_rec(const iosage_log *log, int module,
                             const char *name, int64_t rank);

/* Records of module whose name starts with prefix. */
int chk_count(const iosage_log *log, int module, const char *prefix);

/* Records of module for name, any rank. */
int chk_count_name(const iosage_log *log, int module, const char *name);

/* counters[idx] == want / fcounters[idx] > 0 etc.; what names the counter. */
void chk_i(const iosage_record *r, int idx, const char *what, int64_t want);
void chk_f_pos(const iosage_record *r, int idx, const char *what);
void chk_f_eq(const iosage_record *r, int idx, const char *what, double want);
void chk_f_le(const iosage_record *r, int a, const char *wa, int b,
              const char *wb);
void chk_true(int ok, const char *what);

/* 0 when no check failed, else 1 (prints a summary). */
int chk_done(const char *test);

/* Table helper: the counter's index and its name as text. */
#define CI(r, name, want) chk_i((r), IOSAGE_##name, #name, (want))
#define CF_POS(r, name) chk_f_pos((r), IOSAGE_##name, #name)
#define CF_EQ(r, name, want) chk_f_eq((r), IOSAGE_##name, #name, (want))
#define CF_LE(r, a, b) chk_f_le((r), IOSAGE_##a, #a, IOSAGE_##b, #b)

#endif
