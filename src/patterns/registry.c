/*
 * src/patterns/registry.c - the list of registered patterns, in the order
 * of the design's table. Adding a pattern: write src/patterns/p_<id>.c
 * defining `const struct iosage_pattern ios_pattern_<id>`, then add one
 * X(<id>) line below.
 */
#include <string.h>

#include "ios_patterns.h"

#define IOS_PATTERN_LIST(X)                                                    \
    X(access_granularity)                                                      \
    X(metadata_intensity)                                                      \
    X(parallelism_efficiency)                                                  \
    X(access_pattern)                                                          \
    X(interface_choice)                                                        \
    X(file_strategy)                                                           \
    X(throughput_utilization)

#define DECLARE(id) extern const struct iosage_pattern ios_pattern_##id;
#define ADDRESS(id) &ios_pattern_##id,

IOS_PATTERN_LIST(DECLARE)

static const struct iosage_pattern *const registry[] = {
    IOS_PATTERN_LIST(ADDRESS)};

#define N_PATTERNS ((int)(sizeof registry / sizeof registry[0]))
_Static_assert(sizeof registry / sizeof registry[0] <= IOSAGE_MAX_PATTERNS,
               "raise IOSAGE_MAX_PATTERNS");

int iosage_pattern_count(void)
{
    return N_PATTERNS;
}

const struct iosage_pattern *iosage_pattern_get(int i)
{
    return i >= 0 && i < N_PATTERNS ? registry[i] : NULL;
}

int iosage_pattern_index(const char *id)
{
    if (!id)
        return -1;
    for (int i = 0; i < N_PATTERNS; i++)
        if (strcmp(registry[i]->id, id) == 0)
            return i;
    return -1;
}

const struct iosage_pattern *iosage_pattern_find(const char *id)
{
    return iosage_pattern_get(iosage_pattern_index(id));
}
