/*
 * arena.c - a block allocator for the many small arrays and strings of one
 * module region or one log. Everything is freed together.
 *
 * Layout: a singly linked list of blocks. Small requests are carved from
 * the head block; one that does not fit starts a new head block. A large
 * request (over a quarter block) gets a block of its own, linked behind the
 * head, so alternating large and small requests waste nothing. Memory
 * handed out is zeroed and 8-byte aligned. Reset keeps the first block
 * created so a streaming reader does not call malloc for every module.
 *
 * Shared blocks are not zeroed when they are made: each small request is
 * zeroed as it is handed out, so a process that uses little of a block (a
 * small log) does not pay for clearing all of it, and reset has nothing to
 * clear. A large request's own block comes zeroed from calloc.
 *
 * Shared blocks double in size, from 64 KiB to 8 MiB: a small log takes
 * one or two, a log of 10^5 files a handful rather than a thousand.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ios_arena.h"
#include "ios_bigmem.h"

#define BLOCK_DEFAULT (64 * 1024)
/* Shared blocks double from BLOCK_DEFAULT up to this: a log of 10^5 files
 * takes tens of megabytes of small requests, and blocks of megabytes mean
 * few mallocs and memory backed by huge pages (ios_bigmem.h). */
#define BLOCK_MAX ((size_t)8 << 20)

typedef struct block {
    struct block *next; /* older block */
    size_t size;        /* usable bytes in data[] */
    size_t used;        /* bytes handed out */
    _Alignas(8) unsigned char data[];
} block;

/* A malloc'd buffer handed to the arena (ios_arena_adopt). */
typedef struct adopted {
    struct adopted *next;
    void *p;
} adopted;

struct ios_arena {
    block *head;     /* newest block, allocations come from here */
    block *first;    /* oldest block, kept by reset */
    adopted *owned;  /* buffers to free with the blocks (nodes in blocks) */
    size_t next_size; /* size of the next shared block */
};

/* A new empty block of at least size usable bytes, or NULL. zeroed: with
 * its data zeroed by calloc (for a large request, whose fresh pages come
 * zeroed from the kernel); otherwise not. */
static block *block_new(size_t size, int zeroed)
{
    if (size > SIZE_MAX - sizeof(block))
        return NULL;
    block *b = zeroed ? ios_big_calloc(1, sizeof(block) + size)
                      : ios_big_malloc(sizeof(block) + size);
    if (b) {
        b->next = NULL;
        b->size = size;
        b->used = 0;
    }
    return b;
}

/* A new empty arena, or NULL on no memory. Free with ios_arena_destroy(). */
ios_arena *ios_arena_create(void)
{
    ios_arena *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->first = a->head = block_new(BLOCK_DEFAULT, 0);
    if (!a->head) {
        free(a);
        return NULL;
    }
    a->next_size = 2 * BLOCK_DEFAULT;
    return a;
}

/* size bytes, 8-aligned, valid until reset/destroy, zeroed when zero is
 * set; NULL on no memory or overflow. */
static void *carve(ios_arena *a, size_t size, int zero)
{
    if (size > SIZE_MAX - 8)
        return NULL;
    size_t need = (size + 7) & ~(size_t)7;
    if (need == 0)
        need = 8;
    block *b = a->head;
    if (need > BLOCK_DEFAULT / 4) {
        /* A block of its own, linked behind the head so the head's free
         * space stays in use for the small requests that follow. */
        b = block_new(need, zero);
        if (!b)
            return NULL;
        b->next = a->head->next;
        a->head->next = b;
        b->used = need;
        return b->data;
    }
    if (b->size - b->used < need) {
        b = block_new(a->next_size, 0);
        if (!b)
            return NULL;
        b->next = a->head;
        a->head = b;
        if (a->next_size < BLOCK_MAX)
            a->next_size *= 2;
    }
    void *p = b->data + b->used;
    b->used += need;
    if (zero)
        memset(p, 0, need);
    return p;
}

/* size bytes, zeroed and 8-aligned, valid until reset/destroy; NULL on no
 * memory or overflow. A request of 0 bytes returns a valid unique pointer. */
void *ios_arena_alloc(ios_arena *a, size_t size)
{
    return carve(a, size, 1);
}

/* The same, not zeroed: for arrays the caller fills completely (DXT
 * segments, megabytes in a traced log, where clearing cost 5% of a dump). */
void *ios_arena_alloc_filled(ios_arena *a, size_t size)
{
    return carve(a, size, 0);
}

/* A copy of the NUL-terminated s in the arena, or NULL on no memory. */
char *ios_arena_strdup(ios_arena *a, const char *s)
{
    size_t n = strlen(s);
    char *p = ios_arena_alloc(a, n + 1);
    if (p)
        memcpy(p, s, n);
    return p;
}

/* Hand p (malloc'd) to the arena: it is freed at the next reset or at
 * destroy. 0, or -1 on no memory (p is then freed at once). */
int ios_arena_adopt(ios_arena *a, void *p)
{
    adopted *n = carve(a, sizeof *n, 0);
    if (!n) {
        free(p);
        return -1;
    }
    n->p = p;
    n->next = a->owned;
    a->owned = n;
    return 0;
}

/* Free the adopted buffers (their nodes live in the blocks). */
static void free_adopted(ios_arena *a)
{
    for (adopted *n = a->owned; n; n = n->next)
        free(n->p);
    a->owned = NULL;
}

/* Free every allocation. The first block stays for reuse. */
void ios_arena_reset(ios_arena *a)
{
    free_adopted(a);
    block *b = a->head;
    while (b) {
        block *next = b->next;
        if (b != a->first)
            free(b);
        b = next;
    }
    a->first->used = 0;
    a->first->next = NULL;
    a->head = a->first;
    a->next_size = 2 * BLOCK_DEFAULT;
}

/* Free the arena and everything allocated from it. Accepts NULL. */
void ios_arena_destroy(ios_arena *a)
{
    if (!a)
        return;
    free_adopted(a);
    block *b = a->head;
    while (b) {
        block *next = b->next;
        free(b);
        b = next;
    }
    free(a);
}
