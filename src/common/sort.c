/*
 * sort.c - a stable least-significant-digit radix sort of (key, index)
 * pairs (ios_sort.h).
 *
 * Eight passes of one key byte each, from the lowest byte up. One read of
 * the keys counts all eight bytes' values first; a pass whose byte is the
 * same in every key (the high bytes of small numbers, a field that does not
 * vary) moves nothing and is skipped. Each pass scatters the pairs into a
 * second array of the same size, in the order of its byte, keeping the
 * order of the previous pass among equal bytes: that is what makes the sort
 * stable. Short inputs are sorted by insertion instead: 256 counters a
 * byte cost more than they save on a few dozen pairs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ios_bigmem.h"
#include "ios_sort.h"

#define SHORT 48 /* up to this many pairs: insertion sort */

static void insertion_sort(struct ios_sort_pair *p, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        struct ios_sort_pair cur = p[i];
        size_t j = i;
        while (j > 0 && p[j - 1].key > cur.key) {
            p[j] = p[j - 1];
            j--;
        }
        p[j] = cur;
    }
}

int ios_sort_pairs(struct ios_sort_pair *p, size_t n)
{
    if (n <= SHORT) {
        insertion_sort(p, n);
        return 0;
    }
    if (n > SIZE_MAX / sizeof *p)
        return -1;
    size_t (*count)[256] = calloc(8, sizeof *count);
    struct ios_sort_pair *other = ios_big_malloc(n * sizeof *other);
    if (!count || !other) {
        free(count);
        free(other);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t k = p[i].key;
        for (int b = 0; b < 8; b++)
            count[b][(k >> (8 * b)) & 0xff]++;
    }
    struct ios_sort_pair *from = p, *to = other;
    for (int b = 0; b < 8; b++) {
        size_t *c = count[b];
        if (c[(from[0].key >> (8 * b)) & 0xff] == n)
            continue; /* every key has this byte */
        /* counts -> where each byte value's first pair goes */
        size_t at = 0;
        for (int v = 0; v < 256; v++) {
            size_t k = c[v];
            c[v] = at;
            at += k;
        }
        for (size_t i = 0; i < n; i++)
            to[c[(from[i].key >> (8 * b)) & 0xff]++] = from[i];
        struct ios_sort_pair *t = from;
        from = to;
        to = t;
    }
    if (from != p)
        memcpy(p, from, n * sizeof *p);
    free(count);
    free(other);
    return 0;
}

/* See ios_sort.h. */
void *ios_sort_gather(const void *base, size_t n, size_t size,
                      const struct ios_sort_pair *p)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    unsigned char *out = ios_big_malloc(n && size ? n * size : 1);
    if (!out)
        return NULL;
    const unsigned char *in = base;
    for (size_t i = 0; i < n; i++)
        memcpy(out + i * size, in + p[i].at * size, size);
    return out;
}
