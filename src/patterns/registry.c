/*
 * src/patterns/registry.c - lookups over the registered patterns
 * (pattern_list.c holds the list).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ios_patterns.h"
#include "ios_math.h"

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

/* Does the row have no I/O time (T = 0: the three time shares are 0)? */
static int no_io_time(const float *x)
{
    static const char *const shares[] = {"job_read_time_share",
                                         "job_write_time_share",
                                         "job_meta_time_share"};
    for (int i = 0; i < 3; i++) {
        int f = iosage_feature_index(shares[i]);
        if (f < 0 || x[f] > 0.0f)
            return 0;
    }
    return 1;
}

int iosage_pattern_floor_met(const struct iosage_pattern *p, const float *x,
                             char *why, size_t size)
{
    size_t used = 0;
    if (why && size)
        why[0] = '\0';
    if (!p || !p->floors || !p->floors[0].feature || !x)
        return 1;
    int untimed = no_io_time(x);
    for (int i = 0; p->floors[i].feature; i++) {
        const struct iosage_pattern_floor *fl = &p->floors[i];
        int f = iosage_feature_index(fl->feature);
        int a = fl->also ? iosage_feature_index(fl->also) : -1;
        int main_met = f < 0 || (fl->time_share && untimed) || (double)x[f] >= fl->min;
        /* a floor whose feature is not in the schema cannot be measured:
         * reached, as above */
        int also_met = f < 0 || a < 0 || (double)x[a] >= fl->also_min;
        if (main_met && also_met) {
            if (why && size)
                why[0] = '\0';
            return 1;
        }
        if (why && used < size && !main_met)
            used += (size_t)snprintf(why + used, size - used, "%s%s %.3g < %g",
                                     i ? ", " : "", fl->feature, (double)x[f],
                                     fl->min);
        else if (why && used < size && fl->also_count)
            used += (size_t)snprintf(why + used, size - used,
                                     "%s%s %.3g but %.0f %s < %.0f",
                                     i ? ", " : "", fl->feature, (double)x[f],
                                     ios_libm()->pow(10.0, (double)x[a]) - 1.0,
                                     fl->also_count,
                                     ios_libm()->pow(10.0, fl->also_min) - 1.0);
        else if (why && used < size)
            used += (size_t)snprintf(why + used, size - used,
                                     "%s%s %.3g but %s %.3g < %g", i ? ", " : "",
                                     fl->feature, (double)x[f], fl->also,
                                     (double)x[a], fl->also_min);
    }
    return 0;
}
