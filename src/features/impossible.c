/*
 * src/features/impossible.c - records no Darshan runtime writes, which
 * every pass over a log's records leaves out (file_table.c, file_layers.c).
 */
#include "ios_features.h"

/*
 * A record no Darshan runtime writes:
 *   - record id 0 (no name hashes to it in practice);
 *   - a rank below -1 or from 10^8 on (a rank is -1 for a shared file's
 *     reduced record, else below nprocs);
 *   - an integer counter below -2^40 or above 2^56. The integer counters
 *     are counts, sizes, offsets, ranks and flags, with -1 for "not
 *     recorded"; Darshan 3.1 summed those -1s when it reduced a shared
 *     file's records (POSIX_MMAPS = -4 on 4 ranks in two public logs), so
 *     small negatives occur, but none near -2^40; 2^56 bytes is 64 PiB in
 *     one file from one rank (features.c already counted larger values as
 *     garbage and capped them there).
 * A log written by a runtime whose record layout differs from the format's
 * reads as such records once the layout shifts: seven of the public io500
 * logs hold records read as id 0, with POSIX_OPENS near -3 * 10^18, or with
 * ranks and counts near 4.6 * 10^18 (the bits of small doubles), and their
 * other counters are as wrong (a record of no bytes with 56 s of read
 * time). Every pass over the records leaves them out; the file table counts
 * them. *counter gets the first counter out of bounds, or -1.
 */
#define COUNTER_MIN (-((int64_t)1 << 40))
#define COUNTER_MAX ((int64_t)1 << 56)
#define RANK_MAX 100000000

int ios_record_impossible(const iosage_record *r, int *counter)
{
    if (counter)
        *counter = -1;
    for (int k = 0; k < r->n_counters && r->counters; k++)
        if (r->counters[k] < COUNTER_MIN || r->counters[k] > COUNTER_MAX) {
            if (counter)
                *counter = k;
            return 1;
        }
    return r->id == 0 || r->rank < -1 || r->rank >= RANK_MAX;
}
