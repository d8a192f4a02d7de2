/*
 * src/patterns/registry.c - lookups over the registered patterns
 * (pattern_list.c holds the list).
 */
#include <string.h>

#include "ios_patterns.h"

/* pattern_list.c: the patterns, ended by NULL. */
extern const struct iosage_pattern *const ios_pattern_list[];

int iosage_pattern_count(void)
{
    int n = 0;
    while (ios_pattern_list[n] && n < IOSAGE_MAX_PATTERNS)
        n++;
    return n;
}

const struct iosage_pattern *iosage_pattern_get(int i)
{
    return i >= 0 && i < iosage_pattern_count() ? ios_pattern_list[i] : NULL;
}

int iosage_pattern_index(const char *id)
{
    if (!id)
        return -1;
    for (int i = 0; i < iosage_pattern_count(); i++)
        if (strcmp(ios_pattern_list[i]->id, id) == 0)
            return i;
    return -1;
}

const struct iosage_pattern *iosage_pattern_find(const char *id)
{
    return iosage_pattern_get(iosage_pattern_index(id));
}

const struct iosage_pattern_change *iosage_pattern_change_find(
    const struct iosage_pattern *p, const char *change_id)
{
    for (int i = 0; p && change_id && p->changes && p->changes[i].id; i++)
        if (strcmp(p->changes[i].id, change_id) == 0)
            return &p->changes[i];
    return NULL;
}
