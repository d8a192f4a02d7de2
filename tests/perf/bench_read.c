/*
 * tests/perf/bench_read.c - time loading logs into memory.
 *
 *   bench_read [-r ROUNDS] LOG...
 *
 * Loads every LOG ROUNDS times (default 5) with iosage_log_load and prints
 * the best round's wall time, logs/s and compressed MB/s, plus the number of
 * logs that failed to load. Used by scripts/bench.sh (make bench).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "iosage/darshan.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    int rounds = 5, first = 1;
    if (argc > 2 && strcmp(argv[1], "-r") == 0) {
        rounds = (int)strtol(argv[2], NULL, 10);
        first = 3;
    }
    if (first >= argc || rounds < 1) {
        fprintf(stderr, "usage: %s [-r ROUNDS] LOG...\n", argv[0]);
        return 2;
    }
    double best = 1e30, bytes = 0;
    int failed = 0, n = argc - first;
    for (int i = first; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0)
            bytes += (double)st.st_size;
    }
    for (int round = 0; round < rounds; round++) {
        double t0 = now();
        failed = 0;
        for (int i = first; i < argc; i++) {
            iosage_error err;
            iosage_log *log = NULL;
            if (iosage_log_load(argv[i], 0, &log, &err) != IOSAGE_OK)
                failed++;
            iosage_log_free(log);
        }
        double t = now() - t0;
        if (t < best)
            best = t;
    }
    printf("read: %d logs (%d unreadable), %.1f MB: best of %d rounds %.3f s, "
           "%.0f logs/s, %.0f MB/s\n",
           n, failed, bytes / 1e6, rounds, best, n / best, bytes / 1e6 / best);
    return 0;
}
