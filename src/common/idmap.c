/*
 * idmap.c - 64-bit id -> array index, open addressing (see ios_idmap.h).
 *
 * A slot holds its id and its index side by side, so that a lookup in a
 * map far larger than the caches costs one cache miss, not two (the ids
 * and the indexes were two arrays; on a log of 10^5 files the lookups of
 * the per-file layers were a tenth of the features' time).
 */
#include <stdlib.h>

#include "ios_bigmem.h"
#include "ios_idmap.h"

/* The slot of id: where it is, or the empty slot where it would go. */
static size_t slot_of(const ios_idmap *m, uint64_t id)
{
    size_t h = (size_t)ios_idmap_hash(id) & (m->cap - 1);
    while (m->slots[h].val && m->slots[h].key != id)
        h = (h + 1) & (m->cap - 1);
    return h;
}

int ios_idmap_get(const ios_idmap *m, uint64_t id, size_t *index)
{
    if (m->cap == 0)
        return 0;
    size_t h = slot_of(m, id);
    if (!m->slots[h].val)
        return 0;
    *index = m->slots[h].val - 1;
    return 1;
}

/* Move to cap slots (a power of two, more than twice the entries) and
 * place every entry again. */
static int rehash(ios_idmap *m, size_t cap)
{
    ios_idmap g = {0};
    g.cap = cap;
    g.slots = ios_big_calloc(g.cap, sizeof *g.slots);
    if (!g.slots)
        return -1;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].val)
            continue;
        g.slots[slot_of(&g, m->slots[i].key)] = m->slots[i];
    }
    g.n = m->n;
    ios_idmap_free(m);
    *m = g;
    return 0;
}

int ios_idmap_reserve(ios_idmap *m, size_t n)
{
    size_t cap = m->cap ? m->cap : 64;
    while (cap / 2 < n) {
        if (cap > SIZE_MAX / 4 / sizeof *m->slots)
            return -1;
        cap *= 2;
    }
    return cap == m->cap ? 0 : rehash(m, cap);
}

int ios_idmap_put(ios_idmap *m, uint64_t id, size_t index)
{
    if ((m->n + 1) * 2 > m->cap && rehash(m, m->cap ? m->cap * 2 : 64) != 0)
        return -1;
    size_t h = slot_of(m, id);
    if (!m->slots[h].val)
        m->n++;
    m->slots[h].key = id;
    m->slots[h].val = index + 1;
    return 0;
}

int ios_idmap_add(ios_idmap *m, uint64_t id, size_t index, size_t *found)
{
    if ((m->n + 1) * 2 > m->cap && rehash(m, m->cap ? m->cap * 2 : 64) != 0)
        return -1;
    size_t h = slot_of(m, id);
    if (m->slots[h].val) {
        *found = m->slots[h].val - 1;
        return 1;
    }
    m->n++;
    m->slots[h].key = id;
    m->slots[h].val = index + 1;
    *found = index;
    return 0;
}

void ios_idmap_free(ios_idmap *m)
{
    free(m->slots);
    m->slots = NULL;
    m->n = m->cap = 0;
}
