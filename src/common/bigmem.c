/*
 * bigmem.c - malloc, calloc and realloc that ask for huge pages for large
 * blocks (see ios_bigmem.h for why).
 *
 * The advice must come before the pages are first touched, so calloc is
 * malloc + advice + memset here (glibc's calloc clears recycled memory
 * itself, touching every page before we could advise it). Only the whole
 * 2 MiB-aligned stretches inside the block are advised: the advice applies
 * to whole pages, and memory outside the block belongs to someone else.
 * madvise's failure is ignored: the memory is as good without the advice.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ios_bigmem.h"

#define HUGE_PAGE ((uintptr_t)2 << 20)

static void advise(void *p, size_t size)
{
#ifdef MADV_HUGEPAGE
    if (!p || size < IOS_BIGMEM_MIN || size > IOS_BIGMEM_MAX)
        return;
    uintptr_t start = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t end = ((uintptr_t)p + size) & ~(HUGE_PAGE - 1);
    if (end > start)
        (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)p;
    (void)size;
#endif
}

void *ios_big_malloc(size_t size)
{
    void *p = malloc(size);
    advise(p, size);
    return p;
}

void *ios_big_calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    size_t total = n * size;
    if (total < IOS_BIGMEM_MIN)
        return calloc(n, size);
    void *p = malloc(total);
    if (p) {
        advise(p, total);
        memset(p, 0, total);
    }
    return p;
}

void *ios_big_realloc(void *p, size_t size)
{
    void *q = realloc(p, size);
    advise(q, size);
    return q;
}

void *ios_big_grow(void *p, size_t *cap, size_t size, size_t first)
{
    if (*cap > SIZE_MAX / 2 / size)
        return NULL;
    size_t n = *cap ? 2 * *cap : first;
    if (n > SIZE_MAX / size)
        return NULL;
    void *q = ios_big_realloc(p, n * size);
    if (q)
        *cap = n;
    return q;
}
