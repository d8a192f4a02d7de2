/*
 * idmap.c - 64-bit id -> array index, open addressing (see ios_idmap.h).
 */
#include <stdlib.h>

#include "ios_bigmem.h"
#include "ios_idmap.h"

uint64_t ios_idmap_hash(uint64_t id)
{
    id ^= id >> 33;
    id *= UINT64_C(0xff51afd7ed558ccd);
    id ^= id >> 33;
    return id;
}

/* The slot of id: where it is, or the empty slot where it would go. */
static size_t slot_of(const ios_idmap *m, uint64_t id)
{
    size_t h = (size_t)ios_idmap_hash(id) & (m->cap - 1);
    while (m->vals[h] && m->keys[h] != id)
        h = (h + 1) & (m->cap - 1);
    return h;
}

int ios_idmap_get(const ios_idmap *m, uint64_t id, size_t *index)
{
    if (m->cap == 0)
        return 0;
    size_t h = slot_of(m, id);
    if (!m->vals[h])
        return 0;
    *index = m->vals[h] - 1;
    return 1;
}

/* Double the slots (at least 64) and place every entry again. */
static int grow(ios_idmap *m)
{
    ios_idmap g = {0};
    g.cap = m->cap ? m->cap * 2 : 64;
    g.keys = ios_big_malloc(g.cap * sizeof *g.keys);
    g.vals = ios_big_calloc(g.cap, sizeof *g.vals);
    if (!g.keys || !g.vals) {
        ios_idmap_free(&g);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->vals[i])
            continue;
        size_t h = slot_of(&g, m->keys[i]);
        g.keys[h] = m->keys[i];
        g.vals[h] = m->vals[i];
    }
    g.n = m->n;
    ios_idmap_free(m);
    *m = g;
    return 0;
}

int ios_idmap_put(ios_idmap *m, uint64_t id, size_t index)
{
    if ((m->n + 1) * 2 > m->cap && grow(m) != 0)
        return -1;
    size_t h = slot_of(m, id);
    if (!m->vals[h])
        m->n++;
    m->keys[h] = id;
    m->vals[h] = index + 1;
    return 0;
}

void ios_idmap_free(ios_idmap *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->n = m->cap = 0;
}
