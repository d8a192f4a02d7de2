/*
 * ios_bigmem.h - allocations of megabytes, backed by huge pages where the
 * kernel offers them (bigmem.c).
 *
 * A log of 10^5 records decodes to some 70 MB; faulting that in 4 KiB
 * pages was a third of the CPU time of `iosage batch` on it (the kernel's
 * page-fault path and page clearing, perf, 2026-12-05). Linux backs memory
 * that madvise(MADV_HUGEPAGE) marked with 2 MiB pages when transparent
 * huge pages are "always" or "madvise" (the usual settings): 512 times
 * fewer faults. These functions behave exactly as malloc, calloc and
 * realloc (free the result with free()); a request under IOS_BIGMEM_MIN
 * bytes, or a system without the advice, gets plain malloc memory.
 */
#ifndef IOS_COMMON_BIGMEM_H
#define IOS_COMMON_BIGMEM_H

#include <stddef.h>

/* Requests from this size on are advised (4 MiB: two huge pages). */
#define IOS_BIGMEM_MIN ((size_t)4 << 20)

void *ios_big_malloc(size_t size);
void *ios_big_calloc(size_t n, size_t size); /* NULL on overflow too */
void *ios_big_realloc(void *p, size_t size);

#endif
