/*
 * ios_outfile.h - output files written whole or not at all, and checked
 * writes (outfile.c).
 *
 * An output that is a regular file, or does not exist yet, is written to a
 * temporary file beside it (OUT.tmp.XXXXXX, in the same directory) and
 * renamed over OUT only when every write, the flush and the close
 * succeeded: on any failure the temporary file is removed and OUT is left
 * as it was. An output that exists and is not a regular file (/dev/null,
 * /dev/full, a FIFO, a terminal) is written in place: renaming over it
 * would replace the device node. Every function returns 0 or an errno
 * value for strerror; none prints.
 */
#ifndef IOS_COMMON_OUTFILE_H
#define IOS_COMMON_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

struct ios_outfile {
    FILE *f;          /* where to write (owned until commit or abort) */
    char *tmp;        /* the temporary file (malloc'd), or NULL when the
                         output is written in place */
    const char *path; /* the output as given (the caller's string) */
};

/* Open path for writing into *o. 0, or an errno value (nothing is left
 * behind then). */
int ios_outfile_open(struct ios_outfile *o, const char *path);

/* Flush and close o->f and rename the temporary file into place. 0, or
 * the errno of the first failure (the temporary file is then removed and
 * the output untouched). *o is released either way. */
int ios_outfile_commit(struct ios_outfile *o);

/* Give up: close o->f and remove the temporary file. */
void ios_outfile_abort(struct ios_outfile *o);

/* Write len bytes of data to path as above. 0 or an errno value. */
int ios_outfile_write(const char *path, const void *data, size_t len);

/* Flush and close stdout, as coreutils' close_stdout does at exit: 0, or
 * the errno of a write that failed then or earlier (the one recorded with
 * ios_stdout_failed, else EIO when only the stream's error flag is left).
 * The commands call it once, at exit, and print the one line there. */
int ios_close_stdout(void);

/* Record e (an errno value) as the reason a write to stdout failed, for
 * ios_close_stdout: code that notices a failed write to stdout stops and
 * leaves the message to the exit check, so that it is printed once. */
void ios_stdout_failed(int e);

#endif
