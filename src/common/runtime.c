/*
 * runtime.c - the job's run time, the one copy of the formula (spec: the
 * job record of 3.41 keeps nanoseconds; older records whole seconds, and
 * darshan-parser counts the last second as well).
 */
#include <stdint.h>

#include "ios_runtime.h"

double ios_job_run_time(const struct iosage_header *h,
                        const struct iosage_job *j)
{
    if (h->ver_major > 3 || (h->ver_major == 3 && h->ver_minor >= 41)) {
        double start = (double)j->start_time_sec +
                       (double)j->start_time_nsec / 1e9;
        double end = (double)j->end_time_sec + (double)j->end_time_nsec / 1e9;
        return end - start;
    }
    return (double)(int64_t)((uint64_t)j->end_time_sec -
                             (uint64_t)j->start_time_sec + 1);
}
