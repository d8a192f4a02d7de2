/*
 * ios_runtime.h - the job's run time (runtime.c): one formula for the dump
 * header, the file table and the labeler.
 */
#ifndef IOS_COMMON_RUNTIME_H
#define IOS_COMMON_RUNTIME_H

#include "iosage/darshan.h"

/*
 * The run time in seconds as darshan-parser prints it: for 3.41 and newer
 * logs end - start with nanoseconds; for older ones end - start + 1 whole
 * seconds (computed with wrapping 64-bit arithmetic, so any stored values
 * give a defined result). Can be zero, negative or huge on a damaged job
 * record: callers that divide by it decide what to do then.
 */
double ios_job_run_time(const struct iosage_header *h,
                        const struct iosage_job *j);

#endif
