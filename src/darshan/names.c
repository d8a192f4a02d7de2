/*
 * names.c - the name-record region (format spec 7.1) and the id -> name
 * table built from it.
 *
 *   3.00:  uint64 id, uint32 length, length bytes (no terminator)
 *   3.10+: uint64 id, NUL-terminated bytes
 *
 * The table keeps entries in first-seen order (what iosage_log.names shows)
 * and an index from id to entry over them (ios_idmap: open addressing, the
 * id and the entry side by side in a slot). Merge rule: the first entry
 * for an id wins, except that from 3.10 on a non-empty name replaces an
 * earlier empty one, keeping the earlier position.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Find an entry; NULL when absent. */
struct iosage_name *ios_names_find(const ios_names *t, uint64_t id)
{
    size_t e;
    return ios_idmap_get(&t->index, id, &e) ? &t->v[e] : NULL;
}

/* Room for more entries in v and the index, n of them in all. 0, or -1 on
 * no memory or overflow. */
static int reserve(ios_names *t, size_t n)
{
    if (n >= UINT32_MAX - 1)
        return -1;
    if (n > t->cap) {
        struct iosage_name *v = realloc(t->v, n * sizeof *v);
        if (!v)
            return -1;
        t->v = v;
        t->cap = n;
    }
    return ios_idmap_reserve(&t->index, n);
}

/* An arena copy of name[0..len) with a terminator, or NULL. */
static char *copy_name(const char *name, size_t len, ios_arena *arena)
{
    char *s = ios_arena_alloc(arena, len + 1);
    if (s)
        memcpy(s, name, len);
    return s;
}

/* See internal.h. */
iosage_status ios_names_put(ios_names *t, uint64_t id, const char *name,
                            size_t len, int replace_empty, ios_arena *arena)
{
    struct iosage_name *old = ios_names_find(t, id);
    if (old) {
        if (replace_empty && old->name[0] == '\0' && len > 0 && name[0] != '\0') {
            char *s = copy_name(name, len, arena);
            if (!s)
                return IOSAGE_E_NOMEM;
            old->name = s;
        }
        return IOSAGE_OK;
    }
    if (t->n == t->cap && reserve(t, t->cap ? t->cap * 2 : 64) != 0)
        return IOSAGE_E_NOMEM;
    char *s = copy_name(name, len, arena);
    if (!s || ios_idmap_put(&t->index, id, t->n) != 0)
        return IOSAGE_E_NOMEM;
    t->v[t->n].id = id;
    t->v[t->n].name = s;
    t->n++;
    return IOSAGE_OK;
}

/* Where each entry of a name region starts, and where the last one ends. */
struct entries {
    size_t *at; /* n + 1 offsets */
    size_t n, cap;
};

static int entries_push(struct entries *e, size_t pos)
{
    if (e->n + 1 >= e->cap) {
        size_t cap = e->cap ? 2 * e->cap : 1024;
        size_t *at = realloc(e->at, cap * sizeof *at);
        if (!at)
            return -1;
        e->at = at;
        e->cap = cap;
    }
    e->at[e->n++] = pos;
    return 0;
}

/* Check every entry of the region and note where each starts (e->at[n]
 * is the region's length). IOSAGE_OK, or the first entry's error. */
static iosage_status find_entries(const uint8_t *data, size_t len, int v300,
                                  int swap, struct entries *e,
                                  const char *path, iosage_error *err)
{
    size_t pos = 0, head = v300 ? 12 : 8;
    while (pos < len) {
        size_t left = len - pos;
        if (left < head)
            return ios_fail(err, IOSAGE_E_CORRUPT, path,
                            "name region", (int64_t)pos,
                            "entry at offset %zu is cut off after %zu bytes "
                            "(region is %zu bytes)", pos, left, len);
        if (entries_push(e, pos) != 0)
            return ios_fail(err, IOSAGE_E_NOMEM, path, "name region", -1,
                            "out of memory building the name table");
        if (v300) {
            uint32_t stored = ios_load_u32(data + pos + 8, swap);
            if (stored > left - head)
                return ios_fail(err, IOSAGE_E_CORRUPT, path, "name region",
                                (int64_t)pos,
                                "entry at offset %zu has a %u-byte name but "
                                "only %zu bytes remain (region is %zu bytes)",
                                pos, stored, left - head, len);
            pos += head + stored;
        } else {
            const char *end = memchr(data + pos + head, '\0', left - head);
            if (!end)
                return ios_fail(err, IOSAGE_E_CORRUPT, path, "name region",
                                (int64_t)pos,
                                "entry at offset %zu has no terminator (region "
                                "is %zu bytes)", pos, len);
            pos = (size_t)(end - (const char *)data) + 1;
        }
    }
    if (e->n > 0)
        e->at[e->n] = len; /* entries_push kept room for it */
    return IOSAGE_OK;
}

/* Entries asked for ahead of their turn: on a log of 10^6 names the index
 * is some 30 MB, and each new name is a cache miss in it. */
#define PREFETCH_AHEAD 16

/*
 * See internal.h. data is the whole decompressed region. The entries are
 * found and checked first, so that the table and its index are sized once
 * (growing them by doubling moved every entry about log2(n) times), and
 * each entry's slot in the index is asked for a few entries ahead.
 */
iosage_status ios_names_decode(ios_names *t, const uint8_t *data, size_t len,
                               int v300, int swap, ios_arena *arena,
                               const char *path, iosage_error *err)
{
    struct entries e = {0};
    iosage_status st = find_entries(data, len, v300, swap, &e, path, err);
    if (st == IOSAGE_OK && e.n > 0 && reserve(t, t->n + e.n) != 0)
        st = ios_fail(err, IOSAGE_E_NOMEM, path, "name region", -1,
                      "out of memory building the name table");
    size_t head = v300 ? 12 : 8;
    for (size_t k = 0; st == IOSAGE_OK && k < e.n; k++) {
        if (k + PREFETCH_AHEAD < e.n)
            ios_idmap_prefetch(&t->index,
                               ios_load_u64(data + e.at[k + PREFETCH_AHEAD], swap));
        size_t pos = e.at[k];
        size_t nlen = e.at[k + 1] - pos - head - (v300 ? 0 : 1);
        if (ios_names_put(t, ios_load_u64(data + pos, swap),
                          (const char *)data + pos + head, nlen, !v300,
                          arena) != IOSAGE_OK)
            st = ios_fail(err, IOSAGE_E_NOMEM, path, "name region", -1,
                          "out of memory building the name table");
    }
    free(e.at);
    return st;
}

/* Free the arrays (names themselves belong to their arena). */
void ios_names_free(ios_names *t)
{
    free(t->v);
    ios_idmap_free(&t->index);
    memset(t, 0, sizeof *t);
}
