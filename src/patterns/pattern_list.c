/*
 * src/patterns/pattern_list.c - the registered patterns, in the order of the
 * design's table (and of LABELING.md). Adding a pattern: write
 * src/patterns/p_<id>.c defining `const struct iosage_pattern
 * ios_pattern_<id>`, then add it below. A criterion that walks the files
 * should also come in steps (`.steps`, ios_patterns.h), so that the
 * labeler walks them once for every pattern.
 *
 * This file holds only the list, so that a test build can link its own list
 * (tests/unit/patterns/toy/: the seven and a toy pattern) in its place.
 */
#include "ios_patterns.h"

extern const struct iosage_pattern ios_pattern_access_granularity;
extern const struct iosage_pattern ios_pattern_metadata_intensity;
extern const struct iosage_pattern ios_pattern_parallelism_efficiency;
extern const struct iosage_pattern ios_pattern_access_pattern;
extern const struct iosage_pattern ios_pattern_interface_choice;
extern const struct iosage_pattern ios_pattern_file_strategy;
extern const struct iosage_pattern ios_pattern_throughput_utilization;

const struct iosage_pattern *const ios_pattern_list[] = {
    &ios_pattern_access_granularity,
    &ios_pattern_metadata_intensity,
    &ios_pattern_parallelism_efficiency,
    &ios_pattern_access_pattern,
    &ios_pattern_interface_choice,
    &ios_pattern_file_strategy,
    &ios_pattern_throughput_utilization,
    NULL,
};
