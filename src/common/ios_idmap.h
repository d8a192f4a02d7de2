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
uint64_t ios_idmap_hash(uint64_t id);

/* 1 and *index when id is in the map, else 0. */
int ios_idmap_get(const ios_idmap *m, uint64_t id, size_t *index);

/* Map id to index (replacing an earlier index of id). 0, or -1 when out of
 * memory (the map is unchanged then). */
int ios_idmap_put(ios_idmap *m, uint64_t id, size_t index);

/* Make room for n entries in all without growing again. 0, or -1 when out
 * of memory (the map is unchanged then). */
int ios_idmap_reserve(ios_idmap *m, size_t n);

void ios_idmap_free(ios_idmap *m);

#endif
