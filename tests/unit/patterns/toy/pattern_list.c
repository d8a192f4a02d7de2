/*
 * tests/unit/patterns/toy/pattern_list.c - the test build's pattern list:
 * the seven of src/patterns/pattern_list.c and the toy pattern (p_toy.c).
 * Linked before the library archive, it takes the place of the library's
 * list; nothing else of the library changes.
 */
#include "ios_patterns.h"

extern const struct iosage_pattern ios_pattern_access_granularity;
extern const struct iosage_pattern ios_pattern_metadata_intensity;
extern const struct iosage_pattern ios_pattern_parallelism_efficiency;
extern const struct iosage_pattern ios_pattern_access_pattern;
extern const struct iosage_pattern ios_pattern_interface_choice;
extern const struct iosage_pattern ios_pattern_file_strategy;
extern const struct iosage_pattern ios_pattern_throughput_utilization;
extern const struct iosage_pattern ios_pattern_toy_large_writes;

const struct iosage_pattern *const ios_pattern_list[] = {
    &ios_pattern_access_granularity,
    &ios_pattern_metadata_intensity,
    &ios_pattern_parallelism_efficiency,
    &ios_pattern_access_pattern,
    &ios_pattern_interface_choice,
    &ios_pattern_file_strategy,
    &ios_pattern_throughput_utilization,
    &ios_pattern_toy_large_writes,
    NULL,
};
