/*
 * iosage/dump.h - darshan-parser and darshan-dxt-parser compatible text.
 *
 * The output equals what darshan-util 3.5.0 prints for the same log, line for
 * line, so that existing scripts keep working. The reader passed in must have
 * been opened with IOSAGE_READ_COMPAT (reference defects reproduced) and not
 * yet advanced with iosage_reader_next_module(). Output is formatted into a
 * large buffer and written to out with fwrite; diagnostics that
 * darshan-parser prints on stderr (warnings about unknown modules, partial
 * data) go to diag (may be NULL to drop them).
 */
#ifndef IOSAGE_DUMP_H
#define IOSAGE_DUMP_H

#include <stdio.h>

#include "iosage/darshan.h"

#ifdef __cplusplus
extern "C" {
#endif

enum iosage_dump_flags {
    IOSAGE_DUMP_BASE = 1,            /* per-record counter lines */
    IOSAGE_DUMP_TOTAL = 2,           /* total_<COUNTER> aggregate lines */
    IOSAGE_DUMP_FILE = 4,            /* file counts block */
    IOSAGE_DUMP_PERF = 8,            /* performance block */
    IOSAGE_DUMP_SHOW_INCOMPLETE = 16,/* print partial modules with a warning */
    IOSAGE_DUMP_ALL = 31,
    /* Escape what a terminal would act on, for output to a terminal (as
     * `ls` does): control characters but tab and newline (ESC, BEL, ...),
     * DEL, the C1 controls U+0080..U+009F and bytes that are not UTF-8
     * print as \xHH (a backslash as \\). Not part of IOSAGE_DUMP_ALL:
     * without it the text is darshan-parser's, byte for byte. */
    IOSAGE_DUMP_ESCAPE = 32
};

/* What a dump met besides the printed data. */
struct iosage_dump_result {
    int module_errors;     /* modules whose records could not all be read */
    int partial_stop;      /* stopped at a partial module (no SHOW_INCOMPLETE) */
    int partial_modules;   /* partial modules printed with a warning */
    int skipped_modules;   /* unknown ids / no handler */
    char first_problem[300]; /* one line describing the first problem, "" */
    /* Read completely, but doubtful: a region that is not a whole number of
     * records, records naming a rank outside 0..nprocs-1 (logs of modified
     * or pre-release runtimes). The values are printed as stored. */
    int doubtful_modules;
    char first_doubt[300];   /* one line describing the first doubt, "" */
    /* The errno of the first write to out that failed (0: all written);
     * the rest of the output was dropped and the call returned
     * IOSAGE_E_IO. */
    int write_errno;
};

/* darshan-parser text. Returns IOSAGE_OK when the log was read to its end
 * (check res for module problems), or an error from the reader (I/O, memory)
 * with err filled. */
IOSAGE_API iosage_status iosage_dump_parser(iosage_reader *r, int flags,
                                            FILE *out, FILE *diag,
                                            struct iosage_dump_result *res,
                                            iosage_error *err);

/* darshan-dxt-parser text (flags: only IOSAGE_DUMP_SHOW_INCOMPLETE counts). */
IOSAGE_API iosage_status iosage_dump_dxt(iosage_reader *r, int flags,
                                         FILE *out, FILE *diag,
                                         struct iosage_dump_result *res,
                                         iosage_error *err);

#ifdef __cplusplus
}
#endif
#endif
