/*
 * ios_sort.h - a stable sort by 64-bit keys, for the large sorts of the
 * feature tables (sort.c).
 *
 * qsort compares through a function pointer and, in glibc, merges with
 * generic copies: sorting a log's 10^4 records by file id took about 900
 * instructions a record, and the sorts of one log's features were a fifth
 * of its analysis (callgrind, 2026-12-06). A radix sort looks at each key
 * byte once a pass, with no comparison at all.
 *
 * Use: fill p[i].key with the key of element i and p[i].at with i, sort,
 * then move the elements in the order of p[].at. Keys of several fields
 * are sorted least significant field first: the sort is stable, so a later
 * pass keeps the order of the earlier ones among its equal keys.
 */
#ifndef IOS_COMMON_SORT_H
#define IOS_COMMON_SORT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct ios_sort_pair {
    uint64_t key;
    size_t at; /* the element's index, carried along */
};

/* Sort p[0..n) by key, ascending; pairs of equal keys keep their order.
 * Returns 0, or -1 when out of memory (p is then unchanged). */
int ios_sort_pairs(struct ios_sort_pair *p, size_t n);

/* The n elements of size bytes at base, in the order of p[0..n).at (what
 * ios_sort_pairs left): a new array (the caller frees it and the old one),
 * or NULL when out of memory. */
void *ios_sort_gather(const void *base, size_t n, size_t size,
                      const struct ios_sort_pair *p);

/* The median of v[0..n) (n > 0; no NaN): the middle value, or the mean of
 * the two middle ones. v is reordered. A selection, not a sort: linear
 * time, where sorting 10^6 file sizes for their median took a quarter of
 * the criteria's time on a log of 10^6 files. */
double ios_median(double *v, size_t n);

/* Keys that sort as the values do: int64 (ascending) and a double that is
 * finite and not negative (ascending; 0.0 and -0.0 alike). */
static inline uint64_t ios_sort_key_i64(int64_t v)
{
    return (uint64_t)v ^ ((uint64_t)1 << 63);
}

static inline uint64_t ios_sort_key_nonneg_double(double v)
{
    double d = v > 0.0 ? v : 0.0;
    uint64_t u;
    memcpy(&u, &d, sizeof u); /* IEEE 754: non-negative doubles order as their bits */
    return u;
}

#endif
