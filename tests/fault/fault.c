/*
 * tests/fault/fault.c - libiosage-fault.so, a fault-injecting shim for the
 * anomaly tests of issue 17 (point 5), in the spirit of SQLite's OOM and
 * I/O error tests. Preload it into a command:
 *
 *   LD_PRELOAD=libiosage-fault.so IOSAGE_FAULT_MALLOC=N iosage ...
 *       the Nth allocation (malloc, calloc, realloc) fails with ENOMEM
 *   LD_PRELOAD=libiosage-fault.so IOSAGE_FAULT_WRITE=N IOSAGE_FAULT_ERRNO=EIO ...
 *       the Nth write to an output (stdout, a file opened for writing)
 *       fails with ENOSPC (the default) or EIO
 *   IOSAGE_FAULT_REPORT=FILE
 *       at exit, "allocs A writes W" (the counts seen) is written to FILE:
 *       a run without a fault tells the sweep how many N to try
 *   IOSAGE_FAULT_TRACE=FILE
 *       one line per counted allocation: the object and the offset of its
 *       call site (runs that share a prefix fail the same allocations)
 *
 * Only the one call fails (later calls succeed), as a transient ENOMEM or
 * a full disk would. With the ASan build, set
 * ASAN_OPTIONS=verify_asan_link_order=0: the shim then comes before the
 * sanitizer's allocator and passes every call on to it (RTLD_NEXT).
 *
 * Which allocations count: those made by iosage's own code and by the C
 * libraries it calls (libc, jansson, zlib, bzip2, libdeflate, SQLite).
 * Allocations made from XGBoost's C++ runtime (libxgboost, libdmlc,
 * libstdc++, libgomp), the dynamic loader and the sanitizer runtimes are
 * passed through uncounted: a failing operator new throws std::bad_alloc
 * through XGBoost's C API, which is XGBoost's own matter; iosage's handling
 * of a failing XGBoost call is covered by the failures of the allocations
 * around it. So is the allocation glibc makes to register the destructor
 * of a C++ thread_local object (__cxa_thread_atexit_impl, for XGBoost's
 * threads): glibc aborts, by design, when it fails ("Fatal glibc error:
 * failed to register TLS destructor"), and the one pthread_getattr_np
 * makes when the ASan runtime starts a thread (the runtime's CHECK fails
 * then). The caller is found with dladdr on the return address.
 *
 * Which writes count: write(), pwrite() and pwrite64() on any descriptor
 * but stderr's (SQLite writes its database with pwrite), and the writes of
 * stdout and of every stream opened for writing with fopen() or fdopen():
 * glibc's stdio calls its internal write, which no preloaded library can
 * replace, so those streams are given to the program as fopencookie()
 * streams whose write function is the shim's.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* --- the real functions ---------------------------------------------------- */

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off64_t);
static FILE *(*real_fopen)(const char *, const char *);
static FILE *(*real_fdopen)(int, const char *);

/* Thread-local flags, in the initial-exec TLS model: the dynamic model
 * calls __tls_get_addr, which is not ready when the sanitizer runtime's
 * start-up already allocates. */
#define THREAD_FLAG static __thread __attribute__((tls_model("initial-exec"))) int
/* 1 while the real functions are being looked up: dlsym may allocate, and
 * those calls get NULL (dlsym copes) instead of recursing. */
THREAD_FLAG resolving;
/* 1 inside the shim's own bookkeeping (dladdr): nothing is counted. */
THREAD_FLAG inside;

static long fail_alloc_at, fail_write_at; /* 0: never */
static int write_errno = ENOSPC;
static atomic_long n_allocs, n_writes;
static const char *report_path;

/* Look up the real functions once. */
static void resolve(void)
{
    if (real_malloc || resolving)
        return;
    resolving = 1;
    real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    real_pwrite = (ssize_t (*)(int, const void *, size_t, off_t))
        dlsym(RTLD_NEXT, "pwrite");
    real_pwrite64 = (ssize_t (*)(int, const void *, size_t, off64_t))
        dlsym(RTLD_NEXT, "pwrite64");
    real_fopen = (FILE * (*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
    real_fdopen = (FILE * (*)(int, const char *))dlsym(RTLD_NEXT, "fdopen");
    real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    resolving = 0;
}

/* --- which allocations count ----------------------------------------------- */

/* Return addresses already looked up: (address << 1 | excluded), direct
 * mapped by address. Call sites repeat, so dladdr runs about once each. */
#define SEEN_SLOTS 4096
static _Atomic unsigned long long seen[SEEN_SLOTS];

static int lookup_caller(const void *ret);

/* 1 when the code at address ret belongs to an object whose allocations are
 * passed through (see the top of the file). */
static int excluded_caller(const void *ret)
{
    unsigned long long a = (unsigned long long)(uintptr_t)ret;
    size_t slot = (size_t)((a ^ (a >> 12)) % SEEN_SLOTS);
    unsigned long long e = atomic_load_explicit(&seen[slot], memory_order_relaxed);
    if (e != 0 && e >> 1 == a)
        return (int)(e & 1);
    int x = lookup_caller(ret);
    atomic_store_explicit(&seen[slot], a << 1 | (unsigned)x, memory_order_relaxed);
    return x;
}

/* excluded_caller without the cache: dladdr. */
static int lookup_caller(const void *ret)
{
    static const char *const skip[] = {"libxgboost", "libdmlc", "libstdc++",
                                       "libgomp", "ld-linux", "libasan",
                                       "libubsan", "liblsan", "libtsan"};
    Dl_info info;
    inside = 1;
    int found = dladdr(ret, &info);
    inside = 0;
    if (!found || !info.dli_fname)
        return 0;
    for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
        if (strstr(info.dli_fname, skip[i]))
            return 1;
    /* glibc aborts, by design, when it cannot register the destructor of
     * a C++ thread_local object (XGBoost's), and the ASan runtime when
     * pthread_getattr_np fails in a thread it starts: neither is an
     * iosage matter */
    return info.dli_sname &&
           (strcmp(info.dli_sname, "__cxa_thread_atexit_impl") == 0 ||
            strcmp(info.dli_sname, "pthread_getattr_np") == 0);
}

/* IOSAGE_FAULT_TRACE: a descriptor that gets one line per counted
 * allocation, "<object> +<offset of the call site>", or -1. */
static int trace_fd = -1;

static void trace_caller(const void *ret)
{
    Dl_info info;
    inside = 1;
    int found = dladdr(ret, &info);
    inside = 0;
    char line[300];
    const char *obj = found && info.dli_fname ? info.dli_fname : "?";
    const char *base = strrchr(obj, '/');
    int n = snprintf(line, sizeof line, "%s +%#lx\n", base ? base + 1 : obj,
                     found ? (unsigned long)((const char *)ret -
                                             (const char *)info.dli_fbase)
                           : 0UL);
    if (n > 0 && real_write(trace_fd, line, (size_t)n) != n)
        trace_fd = -1;
}

/* 1 when this allocation, made from ret, is the one to fail. */
static int alloc_fails(const void *ret)
{
    if (inside || resolving || excluded_caller(ret))
        return 0;
    long n = atomic_fetch_add(&n_allocs, 1) + 1;
    if (trace_fd >= 0)
        trace_caller(ret);
    return n == fail_alloc_at;
}

void *malloc(size_t size)
{
    resolve();
    if (!real_malloc)
        return NULL;
    if (alloc_fails(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return real_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    resolve();
    if (!real_calloc)
        return NULL;
    if (alloc_fails(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return real_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
    resolve();
    if (!real_realloc)
        return NULL;
    if (size > 0 && alloc_fails(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return real_realloc(p, size);
}

/* --- which writes count ---------------------------------------------------- */

/* 1 when this write (to fd) is the one to fail; errno is then set. */
static int write_fails(int fd)
{
    if (fd == STDERR_FILENO)
        return 0;
    long n = atomic_fetch_add(&n_writes, 1) + 1;
    if (n != fail_write_at)
        return 0;
    errno = write_errno;
    return 1;
}

ssize_t write(int fd, const void *buf, size_t n)
{
    resolve();
    return write_fails(fd) ? -1 : real_write(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    resolve();
    return write_fails(fd) ? -1 : real_pwrite(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
    resolve();
    return write_fails(fd) ? -1 : real_pwrite64(fd, buf, n, off);
}

/* A stream for writing: its descriptor, written through the shim's write. */
struct cookie {
    int fd;
};

/* stdout's cookie: not allocated, as the program may never close stdout */
static struct cookie stdout_cookie = {STDOUT_FILENO};

static ssize_t cookie_write(void *c, const char *buf, size_t n)
{
    struct cookie *k = c;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(k->fd, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return done > 0 ? (ssize_t)done : -1;
        done += (size_t)w;
    }
    return (ssize_t)n;
}

static int cookie_close(void *c)
{
    struct cookie *k = c;
    int rc = k->fd > STDERR_FILENO ? close(k->fd) : 0;
    if (k != &stdout_cookie)
        free(k);
    return rc;
}

/* A cookie stream over fd for mode, or NULL (errno set). */
static FILE *cookie_stream(int fd, const char *mode)
{
    struct cookie *k = fd == STDOUT_FILENO ? &stdout_cookie
                                           : real_malloc(sizeof *k);
    if (!k) {
        errno = ENOMEM;
        return NULL;
    }
    k->fd = fd;
    cookie_io_functions_t io = {.read = NULL, .write = cookie_write,
                                .seek = NULL, .close = cookie_close};
    FILE *f = fopencookie(k, mode, io);
    if (!f && k != &stdout_cookie)
        free(k);
    return f;
}

/* 1 for a mode that only writes ("w", "a", "wb", ...). */
static int write_only(const char *mode)
{
    return (mode[0] == 'w' || mode[0] == 'a') && !strchr(mode, '+');
}

FILE *fdopen(int fd, const char *mode)
{
    resolve();
    if (!write_only(mode))
        return real_fdopen(fd, mode);
    return cookie_stream(fd, mode);
}

FILE *fopen(const char *path, const char *mode)
{
    resolve();
    if (!write_only(mode))
        return real_fopen(path, mode);
    int flags = O_WRONLY | O_CREAT | O_CLOEXEC |
                (mode[0] == 'a' ? O_APPEND : O_TRUNC);
    int fd = open(path, flags, 0666);
    if (fd < 0)
        return NULL;
    FILE *f = cookie_stream(fd, mode);
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

/* --- set up and report ----------------------------------------------------- */

static void report(void)
{
    if (!report_path)
        return;
    char line[96];
    int n = snprintf(line, sizeof line, "allocs %ld writes %ld\n",
                     (long)atomic_load(&n_allocs), (long)atomic_load(&n_writes));
    int fd = open(report_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
        if (real_write(fd, line, (size_t)n) != n)
            n = -1;
        close(fd);
    }
}

__attribute__((constructor)) static void fault_init(void)
{
    resolve();
    const char *s = getenv("IOSAGE_FAULT_MALLOC");
    fail_alloc_at = s ? strtol(s, NULL, 10) : 0;
    s = getenv("IOSAGE_FAULT_WRITE");
    fail_write_at = s ? strtol(s, NULL, 10) : 0;
    s = getenv("IOSAGE_FAULT_ERRNO");
    if (s && strcmp(s, "EIO") == 0)
        write_errno = EIO;
    report_path = getenv("IOSAGE_FAULT_REPORT");
    s = getenv("IOSAGE_FAULT_TRACE");
    if (s)
        trace_fd = open(s, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    /* stdout through the shim's write (see the top of the file) */
    FILE *out = cookie_stream(STDOUT_FILENO, "w");
    if (out) {
        if (isatty(STDOUT_FILENO))
            setvbuf(out, NULL, _IOLBF, 0);
        stdout = out;
    }
    /* only allocations after start-up count: the program's own */
    atomic_store(&n_allocs, 0);
    atomic_store(&n_writes, 0);
    atexit(report);
}
