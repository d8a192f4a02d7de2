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
 * bytes or over IOS_BIGMEM_MAX, or a system without the advice, gets plain
 * malloc memory.
 *
 * Why a ceiling: with the kernel's usual "defrag" setting ("madvise"), a
 * fault in advised memory waits while the kernel compacts memory when no
 * free 2 MiB page is at hand, and a block of hundreds of megabytes needs
 * hundreds of them at once. A log of 10^6 records asks for several such
 * blocks (its 671 MB region, the 1.9 GB first guess of its decompressed
 * size) and walks each once or twice: on this project's machine, with
 * every block advised, it took 3.1-3.7 s of system time against 0.7-0.9 s
 * with blocks over 256 MiB left to 4 KiB pages, for the same user time
 * (1.14-1.23 s; `batch -j 1`, alternating, 2026-12-06). Smaller blocks keep
 * the advice: a batch of 10^5-record logs frees and takes back the same
 * few huge pages log after log (10 logs: 1.34-1.51 s wall either way).
 */
#ifndef IOS_COMMON_BIGMEM_H
#define IOS_COMMON_BIGMEM_H

#include <stddef.h>

/* Requests from this size on are advised (4 MiB: two huge pages)... */
#define IOS_BIGMEM_MIN ((size_t)4 << 20)
/* ...up to this size (256 MiB: 128 huge pages). */
#define IOS_BIGMEM_MAX ((size_t)256 << 20)

void *ios_big_malloc(size_t size);
void *ios_big_calloc(size_t n, size_t size); /* NULL on overflow too */
void *ios_big_realloc(void *p, size_t size);

/* An array of *cap elements of size bytes at p, grown for one more: to
 * first elements when *cap is 0, else to twice *cap, with
 * ios_big_realloc. Returns the array and sets *cap, or returns NULL on no
 * memory or a size that overflows (p and *cap are then unchanged). The
 * growable arrays of records' parts and ranks, which had each written
 * this out. */
void *ios_big_grow(void *p, size_t *cap, size_t size, size_t first);

#endif
