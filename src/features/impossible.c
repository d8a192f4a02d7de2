/*
 * src/features/impossible.c - records no Darshan runtime writes, which
 * every pass over a log's records leaves out (file_table.c, file_layers.c).
 *
 * A log written by a runtime whose record layout differs from the format's
 * reads as such records once the layout shifts: seven of the public io500
 * logs hold records read as id 0, with POSIX_OPENS near -3 * 10^18, or with
 * ranks and counts near 4.6 * 10^18 (the bits of small doubles), and their
 * other counters are as wrong (a record of no bytes with 56 s of read
 * time). What gives them away:
 *   - the key: record id 0 (no name hashes to it in practice), or a rank
 *     below -1 or from 10^8 on (a rank is -1 for a shared file's reduced
 *     record, else below nprocs);
 *   - in a module where some record's key gives it away, a record with an
 *     integer counter below -2^40 or from 2^56 on: the integer counters
 *     are counts, sizes, offsets, ranks and flags, with -1 for "not
 *     recorded"; Darshan 3.1 summed those -1s when it reduced a shared
 *     file's records (POSIX_MMAPS = -4 on 4 ranks in two public logs), so
 *     small negatives occur, but none near -2^40; 2^56 bytes is 64 PiB in
 *     one file from one rank. In the io500 logs this finds 2,703 records
 *     where the keys alone find 2,423.
 * The counters are read only in a module whose keys gave it away: reading
 * every record's counters once more cost a batch of data/bench-runs 1.5-2.8%
 * (the counters are not in cache by then), and a module of sound keys with
 * a wild counter is a damaged log, not a shifted layout (features.c caps
 * such values).
 */
#include "ios_features.h"

#define RANK_MAX 100000000
#define COUNTER_MIN (-((int64_t)1 << 40)) /* the lowest possible */
#define COUNTER_END ((int64_t)1 << 56)    /* the first impossible */

int ios_record_bad_key(const iosage_record *r)
{
    return r->id == 0 || r->rank < -1 || r->rank >= RANK_MAX;
}

int ios_record_bad_counter(const iosage_record *r)
{
    for (int k = 0; k < r->n_counters && r->counters; k++)
        if (r->counters[k] < COUNTER_MIN || r->counters[k] >= COUNTER_END)
            return k;
    return -1;
}
