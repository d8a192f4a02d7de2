/*
 * names.c - the name-record region (format spec 7.1) and the id -> name
 * table built from it.
 *
 *   3.00:  uint64 id, uint32 length, length bytes (no terminator)
 *   3.10+: uint64 id, NUL-terminated bytes
 *
 * The table keeps entries in first-seen order (what iosage_log.names shows)
 * and an open-addressing index over them (linear probing, load <= 1/2,
 * slots hold entry index + 1 so 0 means empty). Merge rule: the first entry
 * for an id wins, except that from 3.10 on a non-empty name replaces an
 * earlier empty one, keeping the earlier position.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Mix the id: most ids are hashes already, but not all (spec 7.3). */
static size_t slot_of(uint64_t id, size_t nslots)
{
    id ^= id >> 33;
    id *= 0xff51afd7ed558ccdULL;
    id ^= id >> 33;
    return (size_t)id & (nslots - 1);
}

/* Find an entry; NULL when absent. */
struct iosage_name *ios_names_find(const ios_names *t, uint64_t id)
{
    if (t->nslots == 0)
        return NULL;
    for (size_t s = slot_of(id, t->nslots);; s = (s + 1) & (t->nslots - 1)) {
        uint32_t e = t->slots[s];
        if (e == 0)
            return NULL;
        if (t->v[e - 1].id == id)
            return &t->v[e - 1];
    }
}

/* Rebuild the index with nslots slots (a power of two > 2 * n). */
static int rehash(ios_names *t, size_t nslots)
{
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < t->n; i++) {
        size_t s = slot_of(t->v[i].id, nslots);
        while (slots[s] != 0)
            s = (s + 1) & (nslots - 1);
        slots[s] = (uint32_t)(i + 1);
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    return 0;
}

/* Room for one more entry in v and the index; -1 on no memory/overflow. */
static int make_room(ios_names *t)
{
    if (t->n >= UINT32_MAX - 1)
        return -1;
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        struct iosage_name *v = realloc(t->v, cap * sizeof *v);
        if (!v)
            return -1;
        t->v = v;
        t->cap = cap;
    }
    if (2 * (t->n + 1) > t->nslots)
        return rehash(t, t->nslots ? t->nslots * 2 : 128);
    return 0;
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
    struct iosage_name *e = ios_names_find(t, id);
    if (e) {
        if (replace_empty && e->name[0] == '\0' && len > 0 && name[0] != '\0') {
            char *s = copy_name(name, len, arena);
            if (!s)
                return IOSAGE_E_NOMEM;
            e->name = s;
        }
        return IOSAGE_OK;
    }
    if (make_room(t) != 0)
        return IOSAGE_E_NOMEM;
    char *s = copy_name(name, len, arena);
    if (!s)
        return IOSAGE_E_NOMEM;
    t->v[t->n].id = id;
    t->v[t->n].name = s;
    t->n++;
    size_t slot = slot_of(id, t->nslots);
    while (t->slots[slot] != 0)
        slot = (slot + 1) & (t->nslots - 1);
    t->slots[slot] = (uint32_t)t->n;
    return IOSAGE_OK;
}

/* See internal.h. data is the whole decompressed region. */
iosage_status ios_names_decode(ios_names *t, const uint8_t *data, size_t len,
                               int v300, int swap, ios_arena *arena,
                               const char *path, iosage_error *err)
{
    size_t pos = 0;
    while (pos < len) {
        size_t left = len - pos;
        size_t head = v300 ? 12 : 8;
        if (left < head)
            return ios_fail(err, IOSAGE_E_CORRUPT, path,
                            "name region", (int64_t)pos,
                            "entry at offset %zu is cut off after %zu bytes "
                            "(region is %zu bytes)", pos, left, len);
        uint64_t id = ios_load_u64(data + pos, swap);
        const char *name = (const char *)data + pos + head;
        size_t nlen;
        if (v300) {
            uint32_t stored = ios_load_u32(data + pos + 8, swap);
            if (stored > left - head)
                return ios_fail(err, IOSAGE_E_CORRUPT, path, "name region",
                                (int64_t)pos,
                                "entry at offset %zu has a %u-byte name but "
                                "only %zu bytes remain (region is %zu bytes)",
                                pos, stored, left - head, len);
            nlen = stored;
            pos += head + nlen;
        } else {
            const char *end = memchr(name, '\0', left - head);
            if (!end)
                return ios_fail(err, IOSAGE_E_CORRUPT, path, "name region",
                                (int64_t)pos,
                                "entry at offset %zu has no terminator (region "
                                "is %zu bytes)", pos, len);
            nlen = (size_t)(end - name);
            pos += head + nlen + 1;
        }
        if (ios_names_put(t, id, name, nlen, !v300, arena) != IOSAGE_OK)
            return ios_fail(err, IOSAGE_E_NOMEM, path, "name region", -1,
                            "out of memory building the name table");
    }
    return IOSAGE_OK;
}

/* Free the arrays (names themselves belong to their arena). */
void ios_names_free(ios_names *t)
{
    free(t->v);
    free(t->slots);
    memset(t, 0, sizeof *t);
}
