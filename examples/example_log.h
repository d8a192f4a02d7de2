/* examples/example_log.h - build the demo job's log in memory. */
#ifndef IOSAGE_EXAMPLE_LOG_H
#define IOSAGE_EXAMPLE_LOG_H

#include "iosage/darshan.h"

/* A new log (caller frees with iosage_log_free), or NULL with err filled. */
iosage_log *example_build_log(iosage_error *err);

#endif
