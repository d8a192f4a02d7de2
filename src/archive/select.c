/*
 * src/archive/select.c - which logs of a batch list need analysing.
 *
 * A log is known by its absolute path. Its stored identity is the size,
 * the mtime (ns) and the content hash at the time it was analysed:
 *
 *   not stored                       analyse (fresh)
 *   same size and mtime              skip (unchanged), unless reanalyze is
 *                                    asked and another bundle analysed it
 *                                    (error rows are not re-analysed for a
 *                                    bundle: reading does not depend on it)
 *   other size or mtime, same hash   update size and mtime, skip (touched)
 *   other size or mtime, other hash  analyse (changed)
 *
 * So an unchanged tree costs one stat and one indexed lookup per log, and a
 * log that failed is retried only when it changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "ios_common.h"

/* Size and mtime (ns) of path; size -1 and mtime 0 when stat fails. */
static void file_identity(const char *path, int64_t *size, int64_t *mtime_ns)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        *size = -1;
        *mtime_ns = 0;
        return;
    }
    *size = (int64_t)sb.st_size;
    *mtime_ns = (int64_t)sb.st_mtim.tv_sec * 1000000000LL + sb.st_mtim.tv_nsec;
}

/* The content hash of path as 16 hex digits into hex[17]; "" when the file
 * cannot be read. */
static void file_hash(const char *path, char hex[17])
{
    uint8_t *buf = NULL;
    size_t len = 0;
    hex[0] = '\0';
    if (ios_read_file(path, 1, &buf, &len, NULL) != IOSAGE_OK)
        return;
    uint64_t h = iosage_archive_hash(IOSAGE_ARCHIVE_HASH_SEED, buf, len);
    free(buf);
    snprintf(hex, 17, "%016llx", (unsigned long long)h);
}

/* The statements select uses, prepared once. */
static iosage_status prepare(iosage_archive *a, iosage_error *err)
{
    if (!a->find &&
        ios_sqlite()->prepare_v2(a->db, "SELECT size, mtime_ns, hash, bundle, "
                           "status FROM logs WHERE path = ?1", -1, &a->find,
                           NULL) != SQLITE_OK)
        return ios_archive_fail(a, IOSAGE_E_IO, "prepare", err);
    if (!a->touch &&
        ios_sqlite()->prepare_v2(a->db, "UPDATE logs SET size = ?2, mtime_ns = ?3 "
                           "WHERE path = ?1", -1, &a->touch, NULL) != SQLITE_OK)
        return ios_archive_fail(a, IOSAGE_E_IO, "prepare", err);
    return IOSAGE_OK;
}

/* What to do with one log. */
enum verdict { FRESH, CHANGED, TOUCHED, REANALYZE, UNCHANGED };

/* Compare the log at path (resolved: key) with its stored row. */
static enum verdict judge(iosage_archive *a, const char *path,
                          const char *key, const char *bundle, int reanalyze)
{
    int64_t size, mtime;
    file_identity(path, &size, &mtime);
    ios_sqlite()->reset(a->find);
    ios_sqlite()->bind_text(a->find, 1, key, -1, SQLITE_TRANSIENT);
    if (ios_sqlite()->step(a->find) != SQLITE_ROW)
        return FRESH;
    const char *hash = (const char *)ios_sqlite()->column_text(a->find, 2);
    const char *old_bundle = (const char *)ios_sqlite()->column_text(a->find, 3);
    const char *status = (const char *)ios_sqlite()->column_text(a->find, 4);
    int other_bundle = reanalyze && strcmp(status, "error") != 0 &&
                       strcmp(old_bundle, bundle) != 0;
    if (ios_sqlite()->column_int64(a->find, 0) == size &&
        ios_sqlite()->column_int64(a->find, 1) == mtime)
        return other_bundle ? REANALYZE : UNCHANGED;
    char now[17];
    file_hash(path, now);
    if (!now[0] || strcmp(now, hash) != 0)
        return CHANGED;
    if (other_bundle)
        return REANALYZE;
    ios_sqlite()->reset(a->touch);
    ios_sqlite()->bind_text(a->touch, 1, key, -1, SQLITE_TRANSIENT);
    ios_sqlite()->bind_int64(a->touch, 2, size);
    ios_sqlite()->bind_int64(a->touch, 3, mtime);
    return ios_sqlite()->step(a->touch) == SQLITE_DONE ? TOUCHED : CHANGED;
}

iosage_status iosage_archive_select(iosage_archive *a,
                                    const iosage_batch_list *in,
                                    const char *bundle, int reanalyze,
                                    iosage_batch_list *todo,
                                    struct iosage_archive_counts *counts,
                                    iosage_error *err)
{
    struct iosage_archive_counts c;
    memset(&c, 0, sizeof c);
    iosage_status st = prepare(a, err);
    for (size_t i = 0; st == IOSAGE_OK && i < in->n; i++) {
        const struct iosage_batch_item *it = &in->items[i];
        enum verdict v = FRESH;
        if (!it->error) { /* a listing error is recorded each run */
            char key[4096];
            ios_archive_canonical(a, it->path, key, sizeof key);
            v = judge(a, it->path, key, bundle, reanalyze);
        }
        c.listed++;
        c.fresh += v == FRESH;
        c.changed += v == CHANGED;
        c.touched += v == TOUCHED;
        c.reanalyze += v == REANALYZE;
        c.unchanged += v == UNCHANGED;
        if (v == FRESH || v == CHANGED || v == REANALYZE)
            st = iosage_batch_list_push(todo, it->path, it->size, it->error,
                                        err);
    }
    if (a->find)
        ios_sqlite()->reset(a->find);
    if (counts)
        *counts = c;
    return st;
}
