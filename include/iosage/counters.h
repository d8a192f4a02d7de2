/*
 * iosage/counters.h - names and indices of every module's counters in the
 * newest record layout (what iosage_record.counters / .fcounters hold).
 *
 * Names are the full names darshan-parser prints, e.g. "POSIX_READS",
 * "POSIX_F_READ_TIME". Modules without counter arrays (LUSTRE, DXT, HEATMAP,
 * APXC) have 0 counters here.
 *
 * GENERATED PART below the API: index constants (IOSAGE_POSIX_READS, ...).
 */
#ifndef IOSAGE_COUNTERS_H
#define IOSAGE_COUNTERS_H

#include "iosage/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of int64 / double counters of module in the newest layout. */
IOSAGE_API int iosage_counter_count(int module);
IOSAGE_API int iosage_fcounter_count(int module);

/* Full name of counter i, or NULL when i is out of range. */
IOSAGE_API const char *iosage_counter_name(int module, int i);
IOSAGE_API const char *iosage_fcounter_name(int module, int i);

/* Index of a counter by full name, or -1. */
IOSAGE_API int iosage_counter_index(int module, const char *name);
IOSAGE_API int iosage_fcounter_index(int module, const char *name);

/* (index constants are added here by the generator) */

#ifdef __cplusplus
}
#endif
#endif
