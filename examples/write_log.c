/*
 * examples/write_log.c - write the demo job's log (example_log.c) to a file.
 *
 *   iosage-example-writer OUT.darshan
 */
#include <stdio.h>

#include "example_log.h"

int main(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: %s OUT.darshan\n", argv[0]);
        return 2;
    }
    iosage_error err;
    iosage_log *log = example_build_log(&err);
    iosage_status st = log ? iosage_log_write(log, argv[1], &err) : err.code;
    iosage_log_free(log);
    if (st != IOSAGE_OK) {
        char line[800];
        fprintf(stderr, "%s: %s\n", argv[0],
                iosage_error_line(&err, line, sizeof line));
        return 3;
    }
    return 0;
}
