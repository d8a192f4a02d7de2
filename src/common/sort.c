/*
 * sort.c - a stable least-significant-digit radix sort of (key, index)
 * pairs (ios_sort.h).
 *
 * Eight passes of one key byte each, from the lowest byte up (on 65,536
 * pairs or more, six passes of 11 bits: a log of 10^6 files sorts ids
 * several times, 2 to 4% of its analysis). One read of the keys counts all
 * the digits' values first; a pass whose digit is the same in every key
 * (the high bytes of small numbers, a field that does not vary) moves
 * nothing and is skipped. Each pass scatters the pairs into a second array
 * of the same size, in the order of its digit, keeping the order of the
 * previous pass among equal digits: that is what makes the sort stable.
 * Short inputs are sorted by insertion instead: 256 counters a byte cost
 * more than they save on a few dozen pairs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ios_bigmem.h"
#include "ios_sort.h"

#define SHORT 48 /* up to this many pairs: insertion sort */
#define WIDE_FROM 65536 /* from this many pairs on: digits of 11 bits */

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

/* The passes with digits of bits bits (8 or 11), over p and other (n
 * pairs each); count holds a digit's counters for each digit, zeroed.
 * Returns the array the pairs ended in. Inlined into one copy for each
 * width, where bits is a constant: the counting loop runs for every key. */
__attribute__((always_inline)) static inline struct ios_sort_pair *
radix_passes(struct ios_sort_pair *p, struct ios_sort_pair *other, size_t n,
             size_t *count, const int bits)
{
    const int digits = (64 + bits - 1) / bits;
    const size_t buckets = (size_t)1 << bits;
    const uint64_t mask = buckets - 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = p[i].key;
        for (int d = 0; d < digits; d++)
            count[(size_t)d * buckets + ((k >> (bits * d)) & mask)]++;
    }
    struct ios_sort_pair *from = p, *to = other;
    for (int d = 0; d < digits; d++) {
        size_t *c = count + (size_t)d * buckets;
        const int shift = bits * d;
        if (c[(from[0].key >> shift) & mask] == n)
            continue; /* every key has this digit */
        /* counts -> where each digit value's first pair goes */
        size_t at = 0;
        for (size_t v = 0; v < buckets; v++) {
            size_t k = c[v];
            c[v] = at;
            at += k;
        }
        for (size_t i = 0; i < n; i++)
            to[c[(from[i].key >> shift) & mask]++] = from[i];
        struct ios_sort_pair *t = from;
        from = to;
        to = t;
    }
    return from;
}

int ios_sort_pairs(struct ios_sort_pair *p, size_t n)
{
    if (n <= SHORT) {
        insertion_sort(p, n);
        return 0;
    }
    if (n > SIZE_MAX / sizeof *p)
        return -1;
    /* digits of 8 bits; of 11 from WIDE_FROM pairs on (six passes instead
     * of eight over keys that vary in every byte, such as record ids; the
     * 2,048 counters of a digit still fit in the cache) */
    int wide = n >= WIDE_FROM;
    size_t *count = wide ? calloc(6 * 2048, sizeof *count)
                         : calloc(8 * 256, sizeof *count);
    struct ios_sort_pair *other = ios_big_malloc(n * sizeof *other);
    if (!count || !other) {
        free(count);
        free(other);
        return -1;
    }
    struct ios_sort_pair *from = wide ? radix_passes(p, other, n, count, 11)
                                      : radix_passes(p, other, n, count, 8);
    if (from != p)
        memcpy(p, from, n * sizeof *p);
    free(count);
    free(other);
    return 0;
}

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

/* --- the median -------------------------------------------------------- */

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return a < b ? -1 : (a > b);
}

/* See ios_sort.h. Hoare's selection
 * ("find", as Wirth writes it) puts the middle value at n / 2 with nothing
 * larger before it, so for an even n the other middle value is the largest
 * of those before. A selection a log made to defeat the middle pivot
 * (many more rounds than a halving each would take) is finished by
 * sorting what is left. */
double ios_median(double *v, size_t n)
{
    ptrdiff_t k = (ptrdiff_t)(n / 2), lo = 0, hi = (ptrdiff_t)n - 1;
    int rounds = 0;
    while (lo < hi) {
        if (++rounds > 64) {
            qsort(v + lo, (size_t)(hi - lo + 1), sizeof *v, cmp_double);
            break;
        }
        double pivot = v[lo + (hi - lo) / 2];
        ptrdiff_t i = lo, j = hi;
        do {
            while (v[i] < pivot)
                i++;
            while (pivot < v[j])
                j--;
            if (i <= j) {
                double held = v[i];
                v[i] = v[j];
                v[j] = held;
                i++;
                j--;
            }
        } while (i <= j);
        if (j < k)
            lo = i;
        if (k < i)
            hi = j;
    }
    if (n % 2)
        return v[k];
    double below = v[0];
    for (ptrdiff_t i = 1; i < k; i++)
        below = v[i] > below ? v[i] : below;
    return (below + v[k]) / 2.0;
}
