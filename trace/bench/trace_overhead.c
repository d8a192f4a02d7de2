/*
 * trace_overhead.c - time N 4 KiB writes to one file, to measure what the
 * tracer adds per call. Run it twice, with and without LD_PRELOAD (see
 * overhead.sh).
 *
 *   iosage-trace-overhead [-n COUNT] [-f FILE] [-s]
 *
 * Default: 1000000 pwrite() calls of 4096 bytes cycling over the first 4 MiB
 * of FILE (default /tmp/iosage-trace-overhead.<pid>), so the page cache holds
 * the file and the time is the system call plus whatever wraps it. -s uses
 * sequential write() instead (the file grows to COUNT x 4 KiB).
 * Prints one line: "<count> calls <total s> s <ns> ns/call". The file is
 * removed at the end.
 *
 * -p (paired): the same calls, alternating blocks of 1000 (in alternating
 * order) through pwrite()
 * (the tracer's wrapper when it is preloaded) and through libc's pwrite
 * found with dlopen/dlsym (never traced). Both halves
 * see the same machine noise, so the difference is the wrapper's cost:
 *   "paired <count> wrapped <ns> ns/call direct <ns> ns/call overhead <ns>"
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define XFER 4096
#define RING 1024 /* 4 MiB */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void usage(void)
{
    fprintf(stderr, "usage: iosage-trace-overhead [-n COUNT] [-f FILE] [-s|-p]\n");
}

typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);

/* n pwrite calls through fn starting at call number first; seconds. */
static double timed_block(pwrite_fn fn, int fd, const char *buf, long first,
                          long n)
{
    double t0 = now();
    for (long i = first; i < first + n; i++)
        if (fn(fd, buf, XFER, (off_t)(i % RING) * XFER) != XFER)
            return -1.0;
    return now() - t0;
}

/* The -p measurement; 0 or 1 on a failed write. */
static int paired(int fd, const char *buf, long count)
{
    /* libc's own pwrite: RTLD_NEXT from the program would find the
     * preloaded tracer first, so ask libc by name. */
    void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
    pwrite_fn direct = libc ? (pwrite_fn)dlsym(libc, "pwrite") : NULL;
    const long block = 1000;
    double wrapped = 0, plain = 0;
    if (!direct) {
        fprintf(stderr, "iosage-trace-overhead: cannot find libc's pwrite\n");
        return 1;
    }
    for (long done = 0; done < count; done += block) {
        int wrapped_first = (done / block) % 2 == 0; /* cancel order bias */
        double b = wrapped_first ? 0 : timed_block(direct, fd, buf, done, block);
        double a = timed_block(pwrite, fd, buf, done, block);
        if (wrapped_first)
            b = timed_block(direct, fd, buf, done, block);
        if (a < 0 || b < 0)
            return 1;
        wrapped += a;
        plain += b;
    }
    long n = (count + block - 1) / block * block;
    printf("paired %ld wrapped %.1f ns/call direct %.1f ns/call overhead %.1f\n",
           n, wrapped * 1e9 / (double)n, plain * 1e9 / (double)n,
           (wrapped - plain) * 1e9 / (double)n);
    return 0;
}

int main(int argc, char **argv)
{
    long count = 1000000;
    int seq = 0, pair = 0, opt;
    char path[4096];
    snprintf(path, sizeof path, "/tmp/iosage-trace-overhead.%d", (int)getpid());
    while ((opt = getopt(argc, argv, "n:f:sph")) != -1) {
        if (opt == 'n') {
            char *end;
            count = strtol(optarg, &end, 10);
            if (*end || count <= 0) {
                usage();
                return 2;
            }
        } else if (opt == 'f') {
            snprintf(path, sizeof path, "%s", optarg);
        } else if (opt == 's') {
            seq = 1;
        } else if (opt == 'p') {
            pair = 1;
        } else {
            usage();
            return opt == 'h' ? 0 : 2;
        }
    }
    static char buf[XFER] __attribute__((aligned(4096)));
    memset(buf, 'x', sizeof buf);
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    if (fd < 0) {
        perror(path);
        return 1;
    }
    for (long i = 0; i < RING; i++) /* warm the page cache */
        if (pwrite(fd, buf, XFER, (off_t)i * XFER) != XFER)
            return 1;
    if (pair) {
        int rc = paired(fd, buf, count);
        close(fd);
        unlink(path);
        return rc;
    }
    double t0 = now();
    for (long i = 0; i < count; i++) {
        ssize_t n = seq ? write(fd, buf, XFER)
                        : pwrite(fd, buf, XFER, (off_t)(i % RING) * XFER);
        if (n != XFER) {
            perror("write");
            return 1;
        }
    }
    double dt = now() - t0;
    close(fd);
    unlink(path);
    printf("%ld calls %.3f s %.1f ns/call\n", count, dt, dt * 1e9 / (double)count);
    return 0;
}
