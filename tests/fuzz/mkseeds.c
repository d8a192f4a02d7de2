/*
 * tests/fuzz/mkseeds.c - make fuzz seeds with our own writer.
 *
 *   fuzz_mkseeds OUTDIR [LOG...]
 *
 * Writes OUTDIR/demo.darshan (the demo job) and, for each LOG that loads,
 * OUTDIR/<basename> as read and written again by iosage: the same content
 * in a log that the project itself wrote.
 */
#include <stdio.h>
#include <string.h>

#include "example_log.h"
#include "iosage/darshan.h"

static int write_seed(const iosage_log *log, const char *dir, const char *name)
{
    char path[4096];
    iosage_error err;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (iosage_log_write(log, path, &err) != IOSAGE_OK) {
        char line[800];
        fprintf(stderr, "mkseeds: %s\n", iosage_error_line(&err, line, sizeof line));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s OUTDIR [LOG...]\n", argv[0]);
        return 2;
    }
    iosage_error err;
    int rc = 0, n = 0;
    iosage_log *demo = example_build_log(&err);
    if (!demo || write_seed(demo, argv[1], "demo.darshan") != 0)
        rc = 1;
    else
        n++;
    iosage_log_free(demo);
    for (int i = 2; i < argc; i++) {
        iosage_log *log = NULL;
        if (iosage_log_load(argv[i], 0, &log, &err) != IOSAGE_OK)
            continue;
        const char *base = strrchr(argv[i], '/');
        if (write_seed(log, argv[1], base ? base + 1 : argv[i]) == 0)
            n++;
        iosage_log_free(log);
    }
    printf("mkseeds: wrote %d seeds\n", n);
    return rc;
}
