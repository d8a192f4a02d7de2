/*
 * ios_idmap.h - a map from 64-bit ids (record ids, ranks) to indexes into
 * an array the caller owns (idmap.c). Open addressing with linear probing;
 * it grows to keep at most half of its slots used.
 *
 * Start from {0}; ios_idmap_free releases the slots. The map owns only its
 * slots: the array the indexes point into belongs to the caller.
 */
#ifndef IOS_COMMON_IDMAP_H
#define IOS_COMMON_IDMAP_H

#include <stddef.h>
#include <stdint.h>

struct ios_idmap_slot {
    uint64_t key;
    size_t val;     /* index + 1; 0 marks an empty slot */
};

typedef struct ios_idmap {
    struct ios_idmap_slot *slots;
    size_t n, cap;  /* cap: 0 or a power of two */
} ios_idmap;

/* The slot hash of an id (a 64-bit finaliser: ids that differ in any bit
 * land far apart). */
static inline uint64_t ios_idmap_hash(uint64_t id)
{
    id ^= id >> 33;
    id *= UINT64_C(0xff51afd7ed558ccd);
    id ^= id >> 33;
    return id;
}

/* Ask the memory for the slot where a lookup of id starts, so that the
 * lookup a few ids later finds it in the cache (a hint: nothing is read).
 * always_inline: GCC judges a function whose only effect is a prefetch
 * "pure" and drops calls to it before it inlines them. */
__attribute__((always_inline)) static inline void
ios_idmap_prefetch(const ios_idmap *m, uint64_t id)
{
    if (m->cap)
        __builtin_prefetch(&m->slots[ios_idmap_hash(id) & (m->cap - 1)]);
}

/* 1 and *index when id is in the map, else 0. */
int ios_idmap_get(const ios_idmap *m, uint64_t id, size_t *index);

/* Map id to index (replacing an earlier index of id). 0, or -1 when out of
 * memory (the map is unchanged then). */
int ios_idmap_put(ios_idmap *m, uint64_t id, size_t index);

/* The index of id: the one it has (returns 1), or index, which id gets
 * when it is not in the map yet (returns 0). -1 when out of memory (the map
 * is unchanged then). One probe where get + put take two. */
int ios_idmap_add(ios_idmap *m, uint64_t id, size_t index, size_t *found);

/* Make room for n entries in all without growing again. 0, or -1 when out
 * of memory (the map is unchanged then). */
int ios_idmap_reserve(ios_idmap *m, size_t n);

void ios_idmap_free(ios_idmap *m);

#endif
