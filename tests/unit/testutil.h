/* tests/unit/testutil.h - small helpers shared by the unit tests. */
#ifndef IOSAGE_TESTUTIL_H
#define IOSAGE_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "iosage/darshan.h"

/* Directory of the shared real logs, or NULL when it is absent (tests that
 * need it then skip with a message). */
const char *tu_shared_logs(void);

/* Read a whole file into a malloc'd buffer; NULL on failure. */
uint8_t *tu_read_file(const char *path, size_t *len);

/* List the *.darshan files of dir (sorted, malloc'd paths, NULL-terminated
 * array; free with tu_free_list). */
char **tu_list_logs(const char *dir);
void tu_free_list(char **list);

/* A fresh temporary directory under $TMPDIR or /tmp (malloc'd path). */
char *tu_mkdtemp(void);

/* A record of module in the newest layout, counters all zero, id = hash of
 * name. Never NULL (aborts the test on no memory). Free it with
 * tu_rec_add, or tu_rec_free. */
iosage_record *tu_rec_new(int module, const char *name, int64_t rank);
void tu_rec_free(iosage_record *r);

/* Add name (unless NULL) and a copy of r to log, then free r. */
iosage_status tu_rec_add(iosage_log *log, iosage_record *r, const char *name);

#endif
