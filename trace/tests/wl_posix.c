/*
 * wl_posix.c - a program with known POSIX and stdio I/O, run under the
 * tracer by the tests; chk_posix.c states the counters it must produce.
 *
 *   wl_posix DIR
 *
 * Every file goes in DIR (made absolute and physical with realpath first, so
 * the names the tracer records are predictable). The program also checks
 * that the tracer leaves results and errno alone; it exits 1 when they
 * differ from what the C library alone would give.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define XFER 4096
#define NOPS 100

static char dir[PATH_MAX];
static int failures;

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "wl_posix: %s (errno %d)\n", what, errno);
        failures++;
    }
}

static void path_of(char *out, const char *name)
{
    int n = snprintf(out, PATH_MAX, "%s/%s", dir, name);
    if (n < 0 || n >= PATH_MAX) {
        fprintf(stderr, "wl_posix: path too long\n");
        exit(2);
    }
}

/* 100 writes of 4 KiB, fsync, seek back, 100 reads, fstat, close, stat. */
static void sequential_file(void)
{
    static char buf[XFER] __attribute__((aligned(4096)));
    char path[PATH_MAX];
    struct stat st;
    path_of(path, "data.bin");
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
    expect(fd >= 0, "open data.bin");
    for (int i = 0; i < NOPS; i++) {
        memset(buf, 'a' + i % 26, sizeof buf);
        expect(write(fd, buf, XFER) == XFER, "write data.bin");
    }
    expect(fsync(fd) == 0, "fsync");
    expect(lseek(fd, 0, SEEK_SET) == 0, "lseek");
    for (int i = 0; i < NOPS; i++) {
        expect(read(fd, buf, XFER) == XFER, "read data.bin");
        expect(buf[0] == 'a' + i % 26 && buf[XFER - 1] == buf[0],
               "data read back differs");
    }
    expect(fstat(fd, &st) == 0 && st.st_size == NOPS * XFER, "fstat");
    expect(close(fd) == 0, "close data.bin");
    expect(stat(path, &st) == 0, "stat data.bin");
    /* a directory opened and stat'ed: no record (regular files only) */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    expect(dfd >= 0, "open the data directory");
    expect(dfd < 0 || close(dfd) == 0, "close the data directory");
    expect(stat(dir, &st) == 0, "stat the data directory");
}

/* Strided small writes from an unaligned buffer, a writev, strided preads,
 * a dup, an mmap and an fdatasync. */
static void strided_file(void)
{
    static char buf[1024] __attribute__((aligned(64)));
    char path[PATH_MAX];
    path_of(path, "strided.bin");
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600);
    expect(fd >= 0, "open strided.bin");
    for (int k = 0; k < 10; k++)
        expect(pwrite(fd, buf + 1, 100, (off_t)k * 200) == 100, "pwrite");
    struct iovec iov[2] = {{buf, 50}, {buf + 64, 50}};
    expect(writev(fd, iov, 2) == 100, "writev");
    for (int k = 0; k < 3; k++)
        expect(pread(fd, buf, 300, (off_t)k * 600) == 300, "pread");
    int fd2 = dup(fd);
    expect(fd2 >= 0, "dup");
    void *m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
    expect(m != MAP_FAILED, "mmap");
    if (m != MAP_FAILED)
        munmap(m, 4096);
    expect(fdatasync(fd) == 0, "fdatasync");
    expect(close(fd2) == 0 && close(fd) == 0, "close strided.bin");
}

/* A file written then renamed; a relative path with "..". */
static void rename_and_relative(void)
{
    char from[PATH_MAX], to[PATH_MAX], sub[PATH_MAX];
    path_of(from, "renamed.tmp");
    path_of(to, "renamed.dat");
    int fd = open(from, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    expect(fd >= 0 && write(fd, "0123456789", 10) == 10, "write renamed.tmp");
    expect(close(fd) == 0, "close renamed.tmp");
    expect(rename(from, to) == 0, "rename");
    path_of(sub, "sub");
    mkdir(sub, 0755);
    expect(chdir(dir) == 0, "chdir");
    fd = open("sub/../rel.dat", O_CREAT | O_TRUNC | O_WRONLY, 0644);
    expect(fd >= 0 && write(fd, "x", 1) == 1, "write rel.dat");
    expect(close(fd) == 0, "close rel.dat");
}

/* Files the tracer must ignore, and errno passed through unchanged. */
static void excluded_and_errno(void)
{
    char buf[256];
    int fd = open("/proc/self/stat", O_RDONLY);
    expect(fd >= 0 && read(fd, buf, sizeof buf) > 0, "read /proc/self/stat");
    close(fd);
    fd = open("/dev/null", O_WRONLY);
    expect(fd >= 0 && write(fd, buf, 10) == 10, "write /dev/null");
    close(fd);
    errno = 0;
    expect(open("/nonexistent-iosage/x", O_RDONLY) == -1 && errno == ENOENT,
           "errno of a failed open");
    errno = 0;
    expect(read(-1, buf, 1) == -1 && errno == EBADF, "errno of a bad read");
    errno = 0;
    expect(fopen("/nonexistent-iosage/y", "r") == NULL && errno == ENOENT,
           "errno of a failed fopen");
}

/* stdio: formatted writes, line reads, a seek, a whole read, append mode,
 * fdopen and fscanf. */
static void stdio_files(void)
{
    char path[PATH_MAX], line[64];
    static char buf[4096];
    path_of(path, "text.txt");
    FILE *fp = fopen(path, "w");
    expect(fp != NULL, "fopen text.txt w");
    for (int i = 0; i < 50; i++)
        expect(fprintf(fp, "line %04d\n", i) == 10, "fprintf");
    expect(fflush(fp) == 0 && fclose(fp) == 0, "fclose text.txt");
    fp = fopen(path, "r");
    int lines = 0;
    while (fgets(line, sizeof line, fp))
        lines++;
    expect(lines == 50, "fgets count");
    expect(fseek(fp, 0, SEEK_SET) == 0, "fseek");
    expect(fread(buf, 1, sizeof buf, fp) == 500, "fread");
    fclose(fp);
    fp = fopen(path, "a");
    expect(fp && fputs("tail\n", fp) >= 0, "fputs");
    fclose(fp);

    path_of(path, "fdfile.txt");
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    fp = fdopen(fd, "w");
    expect(fp != NULL, "fdopen");
    for (int i = 0; i < 3; i++)
        expect(fwrite(buf, 1, 20, fp) == 20, "fwrite");
    fclose(fp);

    int a = 0, b = 0, c = 0;
    path_of(path, "numbers.txt");
    fp = fopen(path, "w");
    fprintf(fp, "%d %d %d\n", 12, 34, 56);
    fclose(fp);
    fp = fopen(path, "r");
    expect(fscanf(fp, "%d %d %d", &a, &b, &c) == 3 && a + b + c == 102,
           "fscanf");
    fclose(fp);
}

/* Four threads, each writing its own file: 1000 writes of 512 bytes. */
static void *thread_body(void *arg)
{
    char path[PATH_MAX], name[32], buf[512];
    memset(buf, 't', sizeof buf);
    snprintf(name, sizeof name, "thr%d.bin", (int)(intptr_t)arg);
    path_of(path, name);
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    for (int i = 0; i < 1000; i++)
        if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf)
            return (void *)1;
    close(fd);
    return NULL;
}

static void threads(void)
{
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, thread_body, (void *)(intptr_t)i);
    for (int i = 0; i < 4; i++) {
        void *rc;
        pthread_join(t[i], &rc);
        expect(rc == NULL, "thread writes");
    }
}

int main(int argc, char **argv)
{
    if (argc != 2 || !realpath(argv[1], dir)) {
        fprintf(stderr, "usage: wl_posix EXISTING_DIR\n");
        return 2;
    }
    sequential_file();
    strided_file();
    rename_and_relative();
    excluded_and_errno();
    stdio_files();
    threads();
    printf("wl_posix: done %d\n", failures);
    fprintf(stderr, "wl_posix: stderr %d\n", 2);
    return failures ? 1 : 0;
}
