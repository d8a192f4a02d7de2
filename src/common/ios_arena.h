/*
 * ios_arena.h - many small allocations freed together (arena.c).
 */
#ifndef IOS_COMMON_ARENA_H
#define IOS_COMMON_ARENA_H

#include <stddef.h>

typedef struct ios_arena ios_arena;
ios_arena *ios_arena_create(void);
/* Zeroed, 8-byte aligned memory valid until ios_arena_reset/destroy. NULL on
 * no memory. */
void *ios_arena_alloc(ios_arena *a, size_t size);
/* As ios_arena_alloc, but not zeroed: the caller writes every byte. */
void *ios_arena_alloc_filled(ios_arena *a, size_t size);
char *ios_arena_strdup(ios_arena *a, const char *s);
/* Hand p (malloc'd) to the arena: freed at the next reset or at destroy.
 * 0, or -1 on no memory (p is then freed at once). */
int ios_arena_adopt(ios_arena *a, void *p);
void ios_arena_reset(ios_arena *a); /* frees all but keeps the first block */
void ios_arena_destroy(ios_arena *a); /* accepts NULL */

#endif
