/*
 * book_bench.c - the tracer's own cost per traced write, without the system
 * call: what a pwrite wrapper adds on top of the real pwrite (two clock
 * reads, the activity and descriptor checks, the lock and the bookkeeping
 * of one 4 KiB write). Linked with the tracer's objects, so this program is
 * traced itself; it writes no log.
 *
 *   iosage-trace-book-bench [-n COUNT]
 *
 * Prints "book <count> <ns> ns/call".
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace.h"

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    long count = 10000000;
    if (argc == 3 && strcmp(argv[1], "-n") == 0)
        count = strtol(argv[2], NULL, 10);
    if (count <= 0) {
        fprintf(stderr, "usage: iosage-trace-book-bench [-n COUNT]\n");
        return 2;
    }
    char path[64];
    snprintf(path, sizeof path, "/tmp/iosage-book-bench.%d", (int)getpid());
    static char buf[4096] __attribute__((aligned(4096)));
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600);
    if (fd < 0 || !trc_active() || !trc_fd_traced(fd)) {
        fprintf(stderr, "book_bench: the descriptor is not traced\n");
        return 1;
    }
    double t0 = wall();
    for (long i = 0; i < count; i++) {
        if (!trc_active() || !trc_fd_traced(fd))
            return 1;
        double a = trc_now();
        double b = trc_now();
        trc_posix_io(fd, TRC_OP_WRITE, (int64_t)(i % 1024) * 4096, 4096, buf,
                     a, b);
    }
    double dt = wall() - t0;
    close(fd);
    unlink(path);
    printf("book %ld %.1f ns/call\n", count, dt * 1e9 / (double)count);
    g_written = 1; /* nothing to keep: skip the log at exit */
    return 0;
}
