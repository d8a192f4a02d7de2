/*
 * src/advise/changes.c - the change ids of docs/report.md, looked up in the
 * pattern registry: each pattern's changes live in its p_<id>.c.
 */
#include <string.h>

#include "internal.h"

const struct iosage_pattern_change *adv_change_find(const char *pattern,
                                                    const char *id)
{
    return iosage_pattern_change_find(iosage_pattern_find(pattern), id);
}

int iosage_advise_change_ids(const char *pattern, const char **ids, int cap)
{
    const struct iosage_pattern *p = iosage_pattern_find(pattern);
    int n = 0;
    for (int i = 0; p && p->changes && p->changes[i].id; i++) {
        if (n < cap)
            ids[n] = p->changes[i].id;
        n++;
    }
    return n < cap ? n : cap;
}

int iosage_advise_change_known(const char *pattern, const char *change_id)
{
    return adv_change_find(pattern, change_id) != NULL;
}
