/*
 * posix.c - wrappers of the POSIX I/O calls glibc 2.36 exports.
 *
 * Every wrapper has the same shape (STYLE 18): find the real function; if
 * tracing is off, the thread is inside the tracer, or the descriptor is not
 * traced, call it and return its result; otherwise time it, book the call if
 * it succeeded, put errno back as the real call left it, and return the
 * result unchanged. No wrapper hides a return in a macro.
 *
 * When the real symbol cannot be found (only possible re-entrantly while
 * dlsym itself runs) the core calls fall back to the raw system call; the
 * others fail with ENOSYS.
 */
#define _GNU_SOURCE
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "trace.h"

/* Not declared by glibc 2.33+ headers but still exported for old binaries. */
int __xstat(int ver, const char *path, struct stat *buf);
int __xstat64(int ver, const char *path, struct stat64 *buf);
int __lxstat(int ver, const char *path, struct stat *buf);
int __lxstat64(int ver, const char *path, struct stat64 *buf);
int __fxstat(int ver, int fd, struct stat *buf);
int __fxstat64(int ver, int fd, struct stat64 *buf);
int __fxstatat(int ver, int dirfd, const char *path, struct stat *buf,
               int flags);
int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *buf,
                 int flags);
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
ssize_t __pread_chk(int fd, void *buf, size_t n, off_t off, size_t buflen);
ssize_t __pread64_chk(int fd, void *buf, size_t n, off64_t off,
                      size_t buflen);

/* --- opens ----------------------------------------------------------------- */

typedef int (*openat_fn)(int, const char *, int, ...);
typedef int (*open_fn)(const char *, int, ...);
typedef int (*open2_fn)(const char *, int);
typedef int (*openat2_fn)(int, const char *, int);

static void *_Atomic real_open, *_Atomic real_open64, *_Atomic real_openat,
    *_Atomic real_openat64, *_Atomic real_creat, *_Atomic real_creat64,
    *_Atomic real_open_2, *_Atomic real_open64_2, *_Atomic real_openat_2,
    *_Atomic real_openat64_2;

/* 1 when an open with these flags takes a mode argument. */
static int takes_mode(int flags)
{
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
}

/* The common body of every open: dirfd/path/flags/mode as openat sees
 * them. fn is the real function called through call_open(). */
static int open_common(void *fn, int style, int dirfd, const char *path,
                       int flags, mode_t mode);

enum { ST_OPEN, ST_OPENAT, ST_OPEN2, ST_OPENAT2, ST_CREAT };

/* Call the real open-like function fn of the given style. */
static int call_open(void *fn, int style, int dirfd, const char *path,
                     int flags, mode_t mode)
{
    if (!fn)
        return (int)syscall(SYS_openat, dirfd, path, flags, mode);
    switch (style) {
    case ST_OPEN:
        return ((open_fn)fn)(path, flags, mode);
    case ST_OPENAT:
        return ((openat_fn)fn)(dirfd, path, flags, mode);
    case ST_OPEN2:
        return ((open2_fn)fn)(path, flags);
    case ST_OPENAT2:
        return ((openat2_fn)fn)(dirfd, path, flags);
    default:
        return ((int (*)(const char *, mode_t))fn)(path, mode);
    }
}

static int open_common(void *fn, int style, int dirfd, const char *path,
                       int flags, mode_t mode)
{
    if (!trc_active())
        return call_open(fn, style, dirfd, path, flags, mode);
    double t0 = trc_now();
    int ret = call_open(fn, style, dirfd, path, flags, mode);
    int err = errno;
    double t1 = trc_now();
    if (ret >= 0)
        trc_posix_open(ret, dirfd, path, flags,
                       takes_mode(flags) ? (int)mode : 0, t0, t1);
    errno = err;
    return ret;
}

int open(const char *path, int flags, ...)
{
    mode_t mode = 0;
    if (takes_mode(flags)) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    return open_common(trc_real(&real_open, "open"), ST_OPEN, AT_FDCWD, path,
                       flags, mode);
}

int open64(const char *path, int flags, ...)
{
    mode_t mode = 0;
    if (takes_mode(flags)) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    return open_common(trc_real(&real_open64, "open64"), ST_OPEN, AT_FDCWD,
                       path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
    mode_t mode = 0;
    if (takes_mode(flags)) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    return open_common(trc_real(&real_openat, "openat"), ST_OPENAT, dirfd,
                       path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
    mode_t mode = 0;
    if (takes_mode(flags)) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    return open_common(trc_real(&real_openat64, "openat64"), ST_OPENAT, dirfd,
                       path, flags, mode);
}

int __open_2(const char *path, int flags)
{
    return open_common(trc_real(&real_open_2, "__open_2"), ST_OPEN2, AT_FDCWD,
                       path, flags, 0);
}

int __open64_2(const char *path, int flags)
{
    return open_common(trc_real(&real_open64_2, "__open64_2"), ST_OPEN2,
                       AT_FDCWD, path, flags, 0);
}

int __openat_2(int dirfd, const char *path, int flags)
{
    return open_common(trc_real(&real_openat_2, "__openat_2"), ST_OPENAT2,
                       dirfd, path, flags, 0);
}

int __openat64_2(int dirfd, const char *path, int flags)
{
    return open_common(trc_real(&real_openat64_2, "__openat64_2"), ST_OPENAT2,
                       dirfd, path, flags, 0);
}

int creat(const char *path, mode_t mode)
{
    return open_common(trc_real(&real_creat, "creat"), ST_CREAT, AT_FDCWD,
                       path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

int creat64(const char *path, mode_t mode)
{
    return open_common(trc_real(&real_creat64, "creat64"), ST_CREAT, AT_FDCWD,
                       path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

/* --- close and dup ----------------------------------------------------------- */

static void *_Atomic real_close, *_Atomic real_dup, *_Atomic real_dup2,
    *_Atomic real_dup3;

int close(int fd)
{
    int (*fn)(int) = trc_real(&real_close, "close");
    if (!trc_active() || !trc_fd_traced(fd))
        return fn ? fn(fd) : (int)syscall(SYS_close, fd);
    double t0 = trc_now();
    int ret = fn ? fn(fd) : (int)syscall(SYS_close, fd);
    int err = errno;
    double t1 = trc_now();
    if (ret == 0 || err == EINTR) /* EINTR: Linux closed it anyway */
        trc_posix_close(fd, t0, t1);
    errno = err;
    return ret;
}

int dup(int fd)
{
    int (*fn)(int) = trc_real(&real_dup, "dup");
    if (!fn) {
        errno = ENOSYS;
        return -1;
    }
    if (!trc_active() || !trc_fd_traced(fd))
        return fn(fd);
    double t0 = trc_now();
    int ret = fn(fd);
    int err = errno;
    double t1 = trc_now();
    if (ret >= 0)
        trc_posix_dup(fd, ret, t0, t1);
    errno = err;
    return ret;
}

/* dup2/dup3 also matter when only newfd is traced: it gets closed. */
int dup2(int oldfd, int newfd)
{
    int (*fn)(int, int) = trc_real(&real_dup2, "dup2");
    if (!fn) {
        errno = ENOSYS;
        return -1;
    }
    if (!trc_active() || (!trc_fd_traced(oldfd) && !trc_fd_traced(newfd)))
        return fn(oldfd, newfd);
    double t0 = trc_now();
    int ret = fn(oldfd, newfd);
    int err = errno;
    double t1 = trc_now();
    if (ret >= 0)
        trc_posix_dup(oldfd, ret, t0, t1);
    errno = err;
    return ret;
}

int dup3(int oldfd, int newfd, int flags)
{
    int (*fn)(int, int, int) = trc_real(&real_dup3, "dup3");
    if (!fn) {
        errno = ENOSYS;
        return -1;
    }
    if (!trc_active() || (!trc_fd_traced(oldfd) && !trc_fd_traced(newfd)))
        return fn(oldfd, newfd, flags);
    double t0 = trc_now();
    int ret = fn(oldfd, newfd, flags);
    int err = errno;
    double t1 = trc_now();
    if (ret >= 0)
        trc_posix_dup(oldfd, ret, t0, t1);
    errno = err;
    return ret;
}

/* --- read and write ---------------------------------------------------------- */

static void *_Atomic real_read, *_Atomic real_write, *_Atomic real_pread,
    *_Atomic real_pread64, *_Atomic real_pwrite, *_Atomic real_pwrite64,
    *_Atomic real_read_chk, *_Atomic real_pread_chk, *_Atomic real_pread64_chk;

ssize_t read(int fd, void *buf, size_t n)
{
    ssize_t (*fn)(int, void *, size_t) = trc_real(&real_read, "read");
    if (!fn)
        return (ssize_t)syscall(SYS_read, fd, buf, n);
    if (!trc_active() || !trc_fd_traced(fd))
        return fn(fd, buf, n);
    double t0 = trc_now();
    ssize_t ret = fn(fd, buf, n);
    int err = errno;
    double t1 = trc_now();
    trc_posix_io(fd, TRC_OP_READ, -1, ret, buf, t0, t1);
    errno = err;
    return ret;
}

ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
    ssize_t (*fn)(int, void *, size_t, size_t) =
        trc_real(&real_read_chk, "__read_chk");
    if (!fn)
        return (ssize_t)syscall(SYS_read, fd, buf, n);
    if (!trc_active() || !trc_fd_traced(fd))
        return fn(fd, buf, n, buflen);
    double t0 = trc_now();
    ssize_t ret = fn(fd, buf, n, buflen);
    int err = errno;
    double t1 = trc_now();
    trc_posix_io(fd, TRC_OP_READ, -1, ret, buf, t0, t1);
    errno = err;
    return ret;
}

ssize_t write(int fd, const void *buf, size_t n)
{
    ssize_t (*fn)(int, const void *, size_t) = trc_real(&real_write, "write");
    if (!fn)
        return (ssize_t)syscall(SYS_write, fd, buf, n);
    if (!trc_active() || !trc_fd_traced(fd))
        return fn(fd, buf, n);
    double t0 = trc_now();
    ssize_t ret = fn(fd, buf, n);
    int err = errno;
    double t1 = trc_now();
    trc_posix_io(fd, TRC_OP_WRITE, -1, ret, buf, t0, t1);
    errno = err;
    return ret;
}

/* pread/pread64 and pwrite/pwrite64 share these bodies (off_t is 64-bit). */
static ssize_t pread_common(void *fn, int fd, void *buf, size_t n, off_t off)
{
    ssize_t (*f)(int, void *, size_t, off_t) = fn;
    if (!f)
        return (ssize_t)syscall(SYS_pread64, fd, buf, n, off);
    if (!trc_active() || !trc_fd_traced(fd))
        return f(fd, buf, n, off);
    double t0 = trc_now();
    ssize_t ret = f(fd, buf, n, off);
    int err = errno;
    double t1 = trc_now();
    trc_posix_io(fd, TRC_OP_READ, (int64_t)off, ret, buf, t0, t1);
    errno = err;
    return ret;
}

static ssize_t pwrite_common(void *fn, int fd, const void *buf, size_t n,
                             off_t off)
{
    ssize_t (*f)(int, const void *, size_t, off_t) = fn;
    if (!f)
        return (ssize_t)syscall(SYS_pwrite64, fd, buf, n, off);
    if (!trc_active() || !trc_fd_traced(fd))
        return f(fd, buf, n, off);
    double t0 = trc_now();
    ssize_t ret = f(fd, buf, n, off);
    int err = errno;
    double t1 = trc_now();
    trc_posix_io(fd, TRC_OP_WRITE, (int64_t)off, ret, buf, t0, t1);
    errno = err;
    return ret;
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
    return pread_common(trc_real(&real_pread, "pread"), fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off64_t off)
{
    return pread_common(trc_real(&real_pread64, "pread64"), fd, buf, n, off);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    return pwrite_common(trc_real(&real_pwrite, "pwrite"), fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
    return pwrite_common(trc_real(&real_pwrite64, "pwrite64"), fd, buf, n,
                         off);
}

/* The fortified preads: the real __pread_chk checks buflen itself. */
static ssize_t pread_chk_common(void *fn, int fd, void *buf, size_t n,
                                off_t off, size_t buflen)
{
    ssize_t (*f)(int, void *, size_t, off_t, size_t) = fn;
    if (!f)
        return (ssize_t)syscall(SYS_pread64, fd, buf, n, off);
    if (!trc_active() || !trc_fd_traced(fd))
        return f(fd, buf, n, off, buflen);
    double t0 = trc_now();
    ssize_t ret = f(fd, buf, n, off, buflen);
    int err = errno;
    double t1 = trc_now();
    trc_posix_io(fd, TRC_OP_READ, (int64_t)off, ret, buf, t0, t1);
    errno = err;
    return ret;
}

ssize_t __pread_chk(int fd, void *buf, size_t n, off_t off, size_t buflen)
{
    return pread_chk_common(trc_real(&real_pread_chk, "__pread_chk"), fd, buf,
                            n, off, buflen);
}

ssize_t __pread64_chk(int fd, void *buf, size_t n, off64_t off, size_t buflen)
{
    return pread_chk_common(trc_real(&real_pread64_chk, "__pread64_chk"), fd,
                            buf, n, off, buflen);
}

/* --- vectored I/O -------------------------------------------------------------- */

static void *_Atomic real_readv, *_Atomic real_writev, *_Atomic real_preadv,
    *_Atomic real_preadv64, *_Atomic real_pwritev, *_Atomic real_pwritev64,
    *_Atomic real_preadv2, *_Atomic real_preadv64v2, *_Atomic real_pwritev2,
    *_Atomic real_pwritev64v2;

/* The buffer tested for memory alignment: the first segment's. */
static const void *first_base(const struct iovec *iov, int cnt)
{
    return cnt > 0 && iov ? iov[0].iov_base : NULL;
}

enum { V_PLAIN, V_POS, V_POS2 };

/* One body for readv/writev (style V_PLAIN), preadv/pwritev (V_POS) and
 * preadv2/pwritev2 (V_POS2; offset -1 means the current position). */
static ssize_t vec_common(void *fn, int style, int op, int fd,
                          const struct iovec *iov, int cnt, off_t off,
                          int flags)
{
    if (!fn) {
        errno = ENOSYS;
        return -1;
    }
    ssize_t ret;
    int traced = trc_active() && trc_fd_traced(fd);
    double t0 = traced ? trc_now() : 0.0;
    if (style == V_PLAIN)
        ret = ((ssize_t(*)(int, const struct iovec *, int))fn)(fd, iov, cnt);
    else if (style == V_POS)
        ret = ((ssize_t(*)(int, const struct iovec *, int, off_t))fn)(
            fd, iov, cnt, off);
    else
        ret = ((ssize_t(*)(int, const struct iovec *, int, off_t, int))fn)(
            fd, iov, cnt, off, flags);
    if (!traced)
        return ret;
    int err = errno;
    double t1 = trc_now();
    int64_t at = style == V_PLAIN || off < 0 ? -1 : (int64_t)off;
    trc_posix_io(fd, op, at, ret, first_base(iov, cnt), t0, t1);
    errno = err;
    return ret;
}

ssize_t readv(int fd, const struct iovec *iov, int cnt)
{
    return vec_common(trc_real(&real_readv, "readv"), V_PLAIN, TRC_OP_READ,
                      fd, iov, cnt, 0, 0);
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
    return vec_common(trc_real(&real_writev, "writev"), V_PLAIN, TRC_OP_WRITE,
                      fd, iov, cnt, 0, 0);
}

ssize_t preadv(int fd, const struct iovec *iov, int cnt, off_t off)
{
    return vec_common(trc_real(&real_preadv, "preadv"), V_POS, TRC_OP_READ,
                      fd, iov, cnt, off, 0);
}

ssize_t preadv64(int fd, const struct iovec *iov, int cnt, off64_t off)
{
    return vec_common(trc_real(&real_preadv64, "preadv64"), V_POS,
                      TRC_OP_READ, fd, iov, cnt, off, 0);
}

ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off)
{
    return vec_common(trc_real(&real_pwritev, "pwritev"), V_POS, TRC_OP_WRITE,
                      fd, iov, cnt, off, 0);
}

ssize_t pwritev64(int fd, const struct iovec *iov, int cnt, off64_t off)
{
    return vec_common(trc_real(&real_pwritev64, "pwritev64"), V_POS,
                      TRC_OP_WRITE, fd, iov, cnt, off, 0);
}

ssize_t preadv2(int fd, const struct iovec *iov, int cnt, off_t off,
                int flags)
{
    return vec_common(trc_real(&real_preadv2, "preadv2"), V_POS2, TRC_OP_READ,
                      fd, iov, cnt, off, flags);
}

ssize_t preadv64v2(int fd, const struct iovec *iov, int cnt, off64_t off,
                   int flags)
{
    return vec_common(trc_real(&real_preadv64v2, "preadv64v2"), V_POS2,
                      TRC_OP_READ, fd, iov, cnt, off, flags);
}

ssize_t pwritev2(int fd, const struct iovec *iov, int cnt, off_t off,
                 int flags)
{
    return vec_common(trc_real(&real_pwritev2, "pwritev2"), V_POS2,
                      TRC_OP_WRITE, fd, iov, cnt, off, flags);
}

ssize_t pwritev64v2(int fd, const struct iovec *iov, int cnt, off64_t off,
                    int flags)
{
    return vec_common(trc_real(&real_pwritev64v2, "pwritev64v2"), V_POS2,
                      TRC_OP_WRITE, fd, iov, cnt, off, flags);
}

/* --- seek and sync ------------------------------------------------------------- */

static void *_Atomic real_lseek, *_Atomic real_lseek64, *_Atomic real_fsync,
    *_Atomic real_fdatasync;

static off_t lseek_common(void *fn, int fd, off_t off, int whence)
{
    off_t (*f)(int, off_t, int) = fn;
    if (!f)
        return (off_t)syscall(SYS_lseek, fd, off, whence);
    if (!trc_active() || !trc_fd_traced(fd))
        return f(fd, off, whence);
    double t0 = trc_now();
    off_t ret = f(fd, off, whence);
    int err = errno;
    double t1 = trc_now();
    if (ret >= 0)
        trc_posix_seek(fd, (int64_t)ret, t0, t1);
    errno = err;
    return ret;
}

off_t lseek(int fd, off_t off, int whence)
{
    return lseek_common(trc_real(&real_lseek, "lseek"), fd, off, whence);
}

off64_t lseek64(int fd, off64_t off, int whence)
{
    return lseek_common(trc_real(&real_lseek64, "lseek64"), fd, off, whence);
}

static int sync_common(void *fn, int fd, int data_only)
{
    int (*f)(int) = fn;
    if (!f)
        return (int)syscall(data_only ? SYS_fdatasync : SYS_fsync, fd);
    if (!trc_active() || !trc_fd_traced(fd))
        return f(fd);
    double t0 = trc_now();
    int ret = f(fd);
    int err = errno;
    double t1 = trc_now();
    if (ret == 0)
        trc_posix_sync(fd, data_only, t0, t1);
    errno = err;
    return ret;
}

int fsync(int fd)
{
    return sync_common(trc_real(&real_fsync, "fsync"), fd, 0);
}

int fdatasync(int fd)
{
    return sync_common(trc_real(&real_fdatasync, "fdatasync"), fd, 1);
}

/* --- the stat family ------------------------------------------------------------- */

static void *_Atomic real_stat, *_Atomic real_stat64, *_Atomic real_lstat,
    *_Atomic real_lstat64, *_Atomic real_fstat, *_Atomic real_fstat64,
    *_Atomic real_fstatat, *_Atomic real_fstatat64, *_Atomic real_xstat,
    *_Atomic real_xstat64, *_Atomic real_lxstat, *_Atomic real_lxstat64,
    *_Atomic real_fxstat, *_Atomic real_fxstat64, *_Atomic real_fxstatat,
    *_Atomic real_fxstatat64, *_Atomic real_statx;

/* Styles of stat-like calls; each maps to a path stat or a descriptor stat. */
enum { S_PATH, S_FD, S_AT, S_XPATH, S_XFD, S_XAT, S_STATX };

struct stat_args {
    int ver, dirfd, flags;
    const char *path;
    unsigned int mask;
    void *buf;
};

static int call_stat(void *fn, int style, const struct stat_args *a)
{
    switch (style) {
    case S_PATH:
        return ((int (*)(const char *, void *))fn)(a->path, a->buf);
    case S_FD:
        return ((int (*)(int, void *))fn)(a->dirfd, a->buf);
    case S_AT:
        return ((int (*)(int, const char *, void *, int))fn)(
            a->dirfd, a->path, a->buf, a->flags);
    case S_XPATH:
        return ((int (*)(int, const char *, void *))fn)(a->ver, a->path,
                                                         a->buf);
    case S_XFD:
        return ((int (*)(int, int, void *))fn)(a->ver, a->dirfd, a->buf);
    case S_XAT:
        return ((int (*)(int, int, const char *, void *, int))fn)(
            a->ver, a->dirfd, a->path, a->buf, a->flags);
    default:
        return ((int (*)(int, const char *, int, unsigned int, void *))fn)(
            a->dirfd, a->path, a->flags, a->mask, a->buf);
    }
}

/* Book a successful stat: on a descriptor (S_FD, S_XFD, or an *at call
 * with an empty path and AT_EMPTY_PATH) or on a path. */
static void book_stat(int style, const struct stat_args *a, double t0,
                      double t1)
{
    int on_fd = style == S_FD || style == S_XFD ||
                ((style == S_AT || style == S_XAT || style == S_STATX) &&
                 (a->flags & AT_EMPTY_PATH) && a->path && !a->path[0]);
    if (on_fd)
        trc_posix_fstat(a->dirfd, t0, t1);
    else
        trc_posix_stat(a->dirfd, a->path, t0, t1);
}

/*
 * Which stat calls are booked: only the old glibc entry points __xstat,
 * __lxstat and __fxstat (and their 64 forms), which are the ones the Darshan
 * runtime (3.5.0) wraps. Since glibc 2.33 a program's stat(), lstat(),
 * fstat(), fstatat() and statx() call the exported functions directly and
 * the runtime never sees them, so its logs carry POSIX_STATS 0 and no
 * record for a file that was only stat'ed; counting them here would give
 * the models a counter the logs they are used on never have. They are
 * still wrapped (and pass straight through) so that the list of wrapped
 * symbols stays stable. Only regular files are booked: the runtime keeps
 * no records of directories.
 */
static int stat_counted(int style)
{
    return style == S_XPATH || style == S_XFD;
}

static int stat_common(void *fn, int style, const struct stat_args *a)
{
    if (!fn) {
        errno = ENOSYS;
        return -1;
    }
    int fd_style = style == S_FD || style == S_XFD;
    if (!trc_active() || !stat_counted(style) ||
        (fd_style && !trc_fd_traced(a->dirfd)))
        return call_stat(fn, style, a);
    double t0 = trc_now();
    int ret = call_stat(fn, style, a);
    int err = errno;
    double t1 = trc_now();
    if (ret == 0 && S_ISREG(((const struct stat *)a->buf)->st_mode))
        book_stat(style, a, t0, t1);
    errno = err;
    return ret;
}

int stat(const char *path, struct stat *buf)
{
    struct stat_args a = {0, AT_FDCWD, 0, path, 0, buf};
    return stat_common(trc_real(&real_stat, "stat"), S_PATH, &a);
}

int stat64(const char *path, struct stat64 *buf)
{
    struct stat_args a = {0, AT_FDCWD, 0, path, 0, buf};
    return stat_common(trc_real(&real_stat64, "stat64"), S_PATH, &a);
}

int lstat(const char *path, struct stat *buf)
{
    struct stat_args a = {0, AT_FDCWD, 0, path, 0, buf};
    return stat_common(trc_real(&real_lstat, "lstat"), S_PATH, &a);
}

int lstat64(const char *path, struct stat64 *buf)
{
    struct stat_args a = {0, AT_FDCWD, 0, path, 0, buf};
    return stat_common(trc_real(&real_lstat64, "lstat64"), S_PATH, &a);
}

int fstat(int fd, struct stat *buf)
{
    struct stat_args a = {0, fd, 0, NULL, 0, buf};
    return stat_common(trc_real(&real_fstat, "fstat"), S_FD, &a);
}

int fstat64(int fd, struct stat64 *buf)
{
    struct stat_args a = {0, fd, 0, NULL, 0, buf};
    return stat_common(trc_real(&real_fstat64, "fstat64"), S_FD, &a);
}

int fstatat(int dirfd, const char *path, struct stat *buf, int flags)
{
    struct stat_args a = {0, dirfd, flags, path, 0, buf};
    return stat_common(trc_real(&real_fstatat, "fstatat"), S_AT, &a);
}

int fstatat64(int dirfd, const char *path, struct stat64 *buf, int flags)
{
    struct stat_args a = {0, dirfd, flags, path, 0, buf};
    return stat_common(trc_real(&real_fstatat64, "fstatat64"), S_AT, &a);
}

int __xstat(int ver, const char *path, struct stat *buf)
{
    struct stat_args a = {ver, AT_FDCWD, 0, path, 0, buf};
    return stat_common(trc_real(&real_xstat, "__xstat"), S_XPATH, &a);
}

int __xstat64(int ver, const char *path, struct stat64 *buf)
{
    struct stat_args a = {ver, AT_FDCWD, 0, path, 0, buf};
    return stat_common(trc_real(&real_xstat64, "__xstat64"), S_XPATH, &a);
}

int __lxstat(int ver, const char *path, struct stat *buf)
{
    struct stat_args a = {ver, AT_FDCWD, 0, path, 0, buf};
    return stat_common(trc_real(&real_lxstat, "__lxstat"), S_XPATH, &a);
}

int __lxstat64(int ver, const char *path, struct stat64 *buf)
{
    struct stat_args a = {ver, AT_FDCWD, 0, path, 0, buf};
    return stat_common(trc_real(&real_lxstat64, "__lxstat64"), S_XPATH, &a);
}

int __fxstat(int ver, int fd, struct stat *buf)
{
    struct stat_args a = {ver, fd, 0, NULL, 0, buf};
    return stat_common(trc_real(&real_fxstat, "__fxstat"), S_XFD, &a);
}

int __fxstat64(int ver, int fd, struct stat64 *buf)
{
    struct stat_args a = {ver, fd, 0, NULL, 0, buf};
    return stat_common(trc_real(&real_fxstat64, "__fxstat64"), S_XFD, &a);
}

int __fxstatat(int ver, int dirfd, const char *path, struct stat *buf,
               int flags)
{
    struct stat_args a = {ver, dirfd, flags, path, 0, buf};
    return stat_common(trc_real(&real_fxstatat, "__fxstatat"), S_XAT, &a);
}

int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *buf,
                 int flags)
{
    struct stat_args a = {ver, dirfd, flags, path, 0, buf};
    return stat_common(trc_real(&real_fxstatat64, "__fxstatat64"), S_XAT, &a);
}

int statx(int dirfd, const char *path, int flags, unsigned int mask,
          struct statx *buf)
{
    struct stat_args a = {0, dirfd, flags, path, mask, buf};
    return stat_common(trc_real(&real_statx, "statx"), S_STATX, &a);
}

/* --- mmap ------------------------------------------------------------------------ */

static void *_Atomic real_mmap, *_Atomic real_mmap64;

static void *mmap_common(void *fn, void *addr, size_t len, int prot,
                         int flags, int fd, off_t off)
{
    void *(*f)(void *, size_t, int, int, int, off_t) = fn;
    if (!f) {
        errno = ENOSYS;
        return MAP_FAILED;
    }
    if (!trc_active() || (flags & MAP_ANONYMOUS) || !trc_fd_traced(fd))
        return f(addr, len, prot, flags, fd, off);
    double t0 = trc_now();
    void *ret = f(addr, len, prot, flags, fd, off);
    int err = errno;
    double t1 = trc_now();
    if (ret != MAP_FAILED)
        trc_posix_mmap(fd, t0, t1);
    errno = err;
    return ret;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    return mmap_common(trc_real(&real_mmap, "mmap"), addr, len, prot, flags,
                       fd, off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd,
             off64_t off)
{
    return mmap_common(trc_real(&real_mmap64, "mmap64"), addr, len, prot,
                       flags, fd, off);
}

/* --- unlink and rename ----------------------------------------------------------- */

static void *_Atomic real_unlink, *_Atomic real_unlinkat, *_Atomic real_rename,
    *_Atomic real_renameat, *_Atomic real_renameat2;

int unlink(const char *path)
{
    int (*fn)(const char *) = trc_real(&real_unlink, "unlink");
    if (!fn)
        return (int)syscall(SYS_unlinkat, AT_FDCWD, path, 0);
    if (!trc_active())
        return fn(path);
    double t0 = trc_now();
    int ret = fn(path);
    int err = errno;
    double t1 = trc_now();
    if (ret == 0)
        trc_posix_unlink(AT_FDCWD, path, t0, t1);
    errno = err;
    return ret;
}

int unlinkat(int dirfd, const char *path, int flags)
{
    int (*fn)(int, const char *, int) = trc_real(&real_unlinkat, "unlinkat");
    if (!fn)
        return (int)syscall(SYS_unlinkat, dirfd, path, flags);
    if (!trc_active())
        return fn(dirfd, path, flags);
    double t0 = trc_now();
    int ret = fn(dirfd, path, flags);
    int err = errno;
    double t1 = trc_now();
    if (ret == 0)
        trc_posix_unlink(dirfd, path, t0, t1);
    errno = err;
    return ret;
}

/* rename, renameat and renameat2 as renameat2 sees them. */
static int rename_common(void *fn, int style, int odir, const char *op,
                         int ndir, const char *np, unsigned int flags)
{
    if (!fn) {
        errno = ENOSYS;
        return -1;
    }
    int traced = trc_active();
    double t0 = traced ? trc_now() : 0.0;
    int ret;
    if (style == 0)
        ret = ((int (*)(const char *, const char *))fn)(op, np);
    else if (style == 1)
        ret = ((int (*)(int, const char *, int, const char *))fn)(odir, op,
                                                                  ndir, np);
    else
        ret = ((int (*)(int, const char *, int, const char *, unsigned int))
                   fn)(odir, op, ndir, np, flags);
    if (!traced)
        return ret;
    int err = errno;
    double t1 = trc_now();
    if (ret == 0)
        trc_posix_rename(odir, op, ndir, np, t0, t1);
    errno = err;
    return ret;
}

int rename(const char *oldpath, const char *newpath)
{
    return rename_common(trc_real(&real_rename, "rename"), 0, AT_FDCWD,
                         oldpath, AT_FDCWD, newpath, 0);
}

int renameat(int olddirfd, const char *oldpath, int newdirfd,
             const char *newpath)
{
    return rename_common(trc_real(&real_renameat, "renameat"), 1, olddirfd,
                         oldpath, newdirfd, newpath, 0);
}

int renameat2(int olddirfd, const char *oldpath, int newdirfd,
              const char *newpath, unsigned int flags)
{
    return rename_common(trc_real(&real_renameat2, "renameat2"), 2, olddirfd,
                         oldpath, newdirfd, newpath, flags);
}

/* --- asynchronous I/O ---------------------------------------------------------- */

static void *_Atomic real_aio_read, *_Atomic real_aio_read64,
    *_Atomic real_aio_write, *_Atomic real_aio_write64,
    *_Atomic real_aio_return, *_Atomic real_aio_return64,
    *_Atomic real_lio_listio, *_Atomic real_lio_listio64;

/* aio_read/aio_write and their 64 forms (same struct on 64-bit hosts). */
static int aio_submit_common(void *fn, int op, struct aiocb *cb)
{
    int (*f)(struct aiocb *) = fn;
    if (!f) {
        errno = ENOSYS;
        return -1;
    }
    if (!trc_active() || !cb || !trc_fd_traced(cb->aio_fildes))
        return f(cb);
    double t0 = trc_now();
    int ret = f(cb);
    int err = errno;
    if (ret == 0)
        trc_posix_aio_submit(cb, cb->aio_fildes, op, (int64_t)cb->aio_offset,
                             (const void *)cb->aio_buf, t0);
    errno = err;
    return ret;
}

int aio_read(struct aiocb *cb)
{
    return aio_submit_common(trc_real(&real_aio_read, "aio_read"),
                             TRC_OP_READ, cb);
}

int aio_read64(struct aiocb64 *cb)
{
    return aio_submit_common(trc_real(&real_aio_read64, "aio_read64"),
                             TRC_OP_READ, (struct aiocb *)cb);
}

int aio_write(struct aiocb *cb)
{
    return aio_submit_common(trc_real(&real_aio_write, "aio_write"),
                             TRC_OP_WRITE, cb);
}

int aio_write64(struct aiocb64 *cb)
{
    return aio_submit_common(trc_real(&real_aio_write64, "aio_write64"),
                             TRC_OP_WRITE, (struct aiocb *)cb);
}

static ssize_t aio_return_common(void *fn, struct aiocb *cb)
{
    ssize_t (*f)(struct aiocb *) = fn;
    if (!f) {
        errno = ENOSYS;
        return -1;
    }
    if (!trc_active())
        return f(cb);
    ssize_t ret = f(cb);
    int err = errno;
    trc_posix_aio_done(cb, ret, trc_now());
    errno = err;
    return ret;
}

ssize_t aio_return(struct aiocb *cb)
{
    return aio_return_common(trc_real(&real_aio_return, "aio_return"), cb);
}

ssize_t aio_return64(struct aiocb64 *cb)
{
    return aio_return_common(trc_real(&real_aio_return64, "aio_return64"),
                             (struct aiocb *)cb);
}

static int lio_common(void *fn, int mode, struct aiocb *const list[], int n,
                      struct sigevent *sev)
{
    int (*f)(int, struct aiocb *const[], int, struct sigevent *) = fn;
    if (!f) {
        errno = ENOSYS;
        return -1;
    }
    if (!trc_active())
        return f(mode, list, n, sev);
    double t0 = trc_now();
    int ret = f(mode, list, n, sev);
    int err = errno;
    for (int i = 0; ret == 0 && i < n; i++) {
        struct aiocb *cb = list[i];
        if (cb && (cb->aio_lio_opcode == LIO_READ ||
                   cb->aio_lio_opcode == LIO_WRITE))
            trc_posix_aio_submit(cb, cb->aio_fildes,
                                 cb->aio_lio_opcode == LIO_READ ? TRC_OP_READ
                                                                : TRC_OP_WRITE,
                                 (int64_t)cb->aio_offset,
                                 (const void *)cb->aio_buf, t0);
    }
    errno = err;
    return ret;
}

int lio_listio(int mode, struct aiocb *const list[], int n,
               struct sigevent *sev)
{
    return lio_common(trc_real(&real_lio_listio, "lio_listio"), mode, list, n,
                      sev);
}

int lio_listio64(int mode, struct aiocb64 *const list[], int n,
                 struct sigevent *sev)
{
    return lio_common(trc_real(&real_lio_listio64, "lio_listio64"), mode,
                      (struct aiocb *const *)list, n, sev);
}
