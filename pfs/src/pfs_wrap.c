/*
 * pfs_wrap.c - the POSIX calls of the emulated file system.
 *
 * Every wrapper has the same shape: find the real function; when the
 * emulator is off, the thread is inside it, or the call is not about a
 * file under the mount, call the real function and return. Otherwise
 * read the clock, make the real call (the data really goes to the mount's
 * backing directory), ask the model how long the call lasts from the time
 * it arrived, and settle the difference (pfs_emu.c sleeps). errno and the
 * result are the real call's.
 *
 * Calls of a file not opened through these wrappers (before the library
 * was loaded, or through stdio, whose internal calls cannot be caught)
 * are not emulated: docs/pfs.md lists what is and is not.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "pfs_emu.h"

int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __xstat(int ver, const char *path, struct stat *buf);
int __xstat64(int ver, const char *path, struct stat64 *buf);
int __lxstat(int ver, const char *path, struct stat *buf);
int __lxstat64(int ver, const char *path, struct stat64 *buf);
int __fxstat(int ver, int fd, struct stat *buf);
int __fxstat64(int ver, int fd, struct stat64 *buf);

/* --- helpers ------------------------------------------------------------------ */

/* A metadata operation that started at t0 and whose real call ended at t1. */
static void charge_md(enum pfs_md_op op, double t0, double t1)
{
    double v = pfs_vnow(t0);
    pfs_lock_model();
    double done = pfs_md(pfs_profile(), pfs_shared_state(), op, v);
    pfs_unlock_model();
    pfs_settle(t0, t1, done - v);
}

/* The emulator's own look-ups go straight to the kernel: through the
 * library calls they would reach a tracer preloaded before this library,
 * and show up in the log as the program's seeks and stats. */

/* The offset a read or write on fd starts at (the real file position, or
 * the end for O_APPEND). */
static uint64_t current_offset(int fd)
{
    off_t off;
    if (syscall(SYS_fcntl, fd, F_GETFL) & O_APPEND) {
        struct stat st;
        off = syscall(SYS_fstat, fd, &st) == 0 ? st.st_size : 0;
    } else {
        off = (off_t)syscall(SYS_lseek, fd, (off_t)0, SEEK_CUR);
    }
    return off < 0 ? 0 : (uint64_t)off;
}

/* The size of the file open on fd. */
static uint64_t file_size(int fd)
{
    struct stat st;
    return syscall(SYS_fstat, fd, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* A write of n bytes at off that started at t0 (real call ended at t1). */
static void charge_write(struct pfs_file *f, uint64_t off, ssize_t n,
                         double t0, double t1)
{
    if (n <= 0) {
        pfs_settle(t0, t1, 0);
        return;
    }
    double v = pfs_vnow(t0);
    pfs_lock_model();
    double done = pfs_write(pfs_profile(), pfs_shared_state(),
                            pfs_client_state(), f, off, (uint64_t)n, v);
    pfs_unlock_model();
    pfs_settle(t0, t1, done - v);
}

/* A read of n bytes (asked: want) at off of a file of size bytes. */
static void charge_read(struct pfs_file *f, uint64_t off, ssize_t n,
                        size_t want, uint64_t size, double t0, double t1)
{
    uint64_t len = n > 0 ? (uint64_t)n : (n == 0 ? want : 0);
    double v = pfs_vnow(t0);
    pfs_lock_model();
    double done = pfs_read(pfs_profile(), pfs_shared_state(),
                           pfs_client_state(), f, off, len, size, v);
    pfs_unlock_model();
    pfs_settle(t0, t1, done - v);
}

/* Bytes in an iovec array. */
static size_t iov_bytes(const struct iovec *iov, int n)
{
    size_t s = 0;
    for (int i = 0; i < n; i++)
        s += iov[i].iov_len;
    return s;
}

/* --- opens ------------------------------------------------------------------- */

typedef int (*open_fn)(const char *, int, ...);
typedef int (*openat_fn)(int, const char *, int, ...);
typedef int (*open2_fn)(const char *, int);

static void *_Atomic real_open, *_Atomic real_open64, *_Atomic real_openat,
    *_Atomic real_openat64, *_Atomic real_creat, *_Atomic real_creat64,
    *_Atomic real_open_2, *_Atomic real_open64_2;

enum { ST_OPEN, ST_OPENAT, ST_OPEN2, ST_CREAT };

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
    default:
        return ((int (*)(const char *, mode_t))fn)(path, mode);
    }
}

/* Every open: a create or an open on the metadata server, then the file's
 * state (its layout). */
static int open_common(void *fn, int style, int dirfd, const char *path,
                       int flags, mode_t mode)
{
    if (!pfs_active() || (dirfd != AT_FDCWD && path && path[0] != '/') ||
        !pfs_path_in_mount(path))
        return call_open(fn, style, dirfd, path, flags, mode);
    int existed = 1;
    if (flags & O_CREAT)
        existed = syscall(SYS_faccessat, dirfd, path, F_OK) == 0;
    double t0 = pfs_now();
    int fd = call_open(fn, style, dirfd, path, flags, mode);
    int err = errno;
    double t1 = pfs_now();
    int created = fd >= 0 && (flags & O_CREAT) && !existed;
    if (fd >= 0)
        pfs_fd_open(fd, path, created);
    charge_md(created ? PFS_MD_CREATE : PFS_MD_OPEN, t0, t1);
    errno = err;
    return fd;
}

static int takes_mode(int flags)
{
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
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
    return open_common(pfs_real(&real_open, "open"), ST_OPEN, AT_FDCWD, path,
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
    return open_common(pfs_real(&real_open64, "open64"), ST_OPEN, AT_FDCWD,
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
    return open_common(pfs_real(&real_openat, "openat"), ST_OPENAT, dirfd,
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
    return open_common(pfs_real(&real_openat64, "openat64"), ST_OPENAT, dirfd,
                       path, flags, mode);
}

int creat(const char *path, mode_t mode)
{
    return open_common(pfs_real(&real_creat, "creat"), ST_CREAT, AT_FDCWD,
                       path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

int creat64(const char *path, mode_t mode)
{
    return open_common(pfs_real(&real_creat64, "creat64"), ST_CREAT, AT_FDCWD,
                       path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

int __open_2(const char *path, int flags)
{
    return open_common(pfs_real(&real_open_2, "__open_2"), ST_OPEN2, AT_FDCWD,
                       path, flags, 0);
}

int __open64_2(const char *path, int flags)
{
    return open_common(pfs_real(&real_open64_2, "__open64_2"), ST_OPEN2,
                       AT_FDCWD, path, flags, 0);
}

/* --- close, fsync ------------------------------------------------------------ */

static void *_Atomic real_close, *_Atomic real_fsync, *_Atomic real_fdatasync;

int close(int fd)
{
    int (*fn)(int) = (int (*)(int))pfs_real(&real_close, "close");
    struct pfs_file *f = pfs_active() ? pfs_fd_get(fd) : NULL;
    if (!f)
        return fn ? fn(fd) : (int)syscall(SYS_close, fd);
    double t0 = pfs_now();
    int ret = fn ? fn(fd) : (int)syscall(SYS_close, fd);
    int err = errno;
    double t1 = pfs_now();
    double v = pfs_vnow(t0);
    pfs_lock_model();
    double done = pfs_close(pfs_profile(), pfs_shared_state(),
                            pfs_client_state(), f, v);
    pfs_unlock_model();
    pfs_fd_forget(fd);
    pfs_settle(t0, t1, done - v);
    errno = err;
    return ret;
}

/* fsync and fdatasync. */
static int sync_common(void *fn, int fd)
{
    int (*real)(int) = (int (*)(int))fn;
    struct pfs_file *f = pfs_active() ? pfs_fd_get(fd) : NULL;
    if (!f || !real)
        return real ? real(fd) : (errno = ENOSYS, -1);
    double t0 = pfs_now();
    int ret = real(fd);
    int err = errno;
    double t1 = pfs_now();
    double v = pfs_vnow(t0);
    pfs_lock_model();
    double done = pfs_fsync(pfs_profile(), pfs_shared_state(),
                            pfs_client_state(), f, v);
    pfs_unlock_model();
    pfs_settle(t0, t1, done - v);
    errno = err;
    return ret;
}

int fsync(int fd)
{
    return sync_common(pfs_real(&real_fsync, "fsync"), fd);
}

int fdatasync(int fd)
{
    return sync_common(pfs_real(&real_fdatasync, "fdatasync"), fd);
}

/* --- reads and writes --------------------------------------------------------- */

static void *_Atomic real_read, *_Atomic real_write, *_Atomic real_pread,
    *_Atomic real_pread64, *_Atomic real_pwrite, *_Atomic real_pwrite64,
    *_Atomic real_readv, *_Atomic real_writev, *_Atomic real_preadv,
    *_Atomic real_preadv64, *_Atomic real_pwritev, *_Atomic real_pwritev64;

typedef ssize_t (*rw_fn)(int, void *, size_t);
typedef ssize_t (*prw_fn)(int, void *, size_t, off_t);
typedef ssize_t (*rwv_fn)(int, const struct iovec *, int);
typedef ssize_t (*prwv_fn)(int, const struct iovec *, int, off_t);

/* The one body of every read and write. kind: 0 read/write (file
 * position), 1 pread/pwrite, 2 readv/writev, 3 preadv/pwritev. */
struct rw_call {
    void *fn;
    int kind, is_write, fd;
    void *buf;
    size_t len;
    const struct iovec *iov;
    int iovcnt;
    off_t off;
};

static ssize_t call_rw(const struct rw_call *c)
{
    if (!c->fn) {
        errno = ENOSYS;
        return -1;
    }
    switch (c->kind) {
    case 0:
        return ((rw_fn)c->fn)(c->fd, c->buf, c->len);
    case 1:
        return ((prw_fn)c->fn)(c->fd, c->buf, c->len, c->off);
    case 2:
        return ((rwv_fn)c->fn)(c->fd, c->iov, c->iovcnt);
    default:
        return ((prwv_fn)c->fn)(c->fd, c->iov, c->iovcnt, c->off);
    }
}

static ssize_t rw_common(const struct rw_call *c)
{
    struct pfs_file *f = pfs_active() ? pfs_fd_get(c->fd) : NULL;
    if (!f)
        return call_rw(c);
    uint64_t off = (c->kind & 1) ? (uint64_t)c->off : current_offset(c->fd);
    size_t want = c->kind >= 2 ? iov_bytes(c->iov, c->iovcnt) : c->len;
    double t0 = pfs_now();
    ssize_t n = call_rw(c);
    int err = errno;
    double t1 = pfs_now();
    if (c->is_write)
        charge_write(f, off, n, t0, t1);
    else
        charge_read(f, off, n, want, file_size(c->fd), t0, t1);
    errno = err;
    return n;
}

ssize_t read(int fd, void *buf, size_t n)
{
    struct rw_call c = {pfs_real(&real_read, "read"), 0, 0, fd, buf, n,
                        NULL, 0, 0};
    return rw_common(&c);
}

ssize_t write(int fd, const void *buf, size_t n)
{
    struct rw_call c = {pfs_real(&real_write, "write"), 0, 1, fd, (void *)buf,
                        n, NULL, 0, 0};
    return rw_common(&c);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
    struct rw_call c = {pfs_real(&real_pread, "pread"), 1, 0, fd, buf, n,
                        NULL, 0, off};
    return rw_common(&c);
}

ssize_t pread64(int fd, void *buf, size_t n, off64_t off)
{
    struct rw_call c = {pfs_real(&real_pread64, "pread64"), 1, 0, fd, buf, n,
                        NULL, 0, off};
    return rw_common(&c);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    struct rw_call c = {pfs_real(&real_pwrite, "pwrite"), 1, 1, fd,
                        (void *)buf, n, NULL, 0, off};
    return rw_common(&c);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
    struct rw_call c = {pfs_real(&real_pwrite64, "pwrite64"), 1, 1, fd,
                        (void *)buf, n, NULL, 0, off};
    return rw_common(&c);
}

ssize_t readv(int fd, const struct iovec *iov, int cnt)
{
    struct rw_call c = {pfs_real(&real_readv, "readv"), 2, 0, fd, NULL, 0,
                        iov, cnt, 0};
    return rw_common(&c);
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
    struct rw_call c = {pfs_real(&real_writev, "writev"), 2, 1, fd, NULL, 0,
                        iov, cnt, 0};
    return rw_common(&c);
}

ssize_t preadv(int fd, const struct iovec *iov, int cnt, off_t off)
{
    struct rw_call c = {pfs_real(&real_preadv, "preadv"), 3, 0, fd, NULL, 0,
                        iov, cnt, off};
    return rw_common(&c);
}

ssize_t preadv64(int fd, const struct iovec *iov, int cnt, off64_t off)
{
    struct rw_call c = {pfs_real(&real_preadv64, "preadv64"), 3, 0, fd, NULL,
                        0, iov, cnt, off};
    return rw_common(&c);
}

ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off)
{
    struct rw_call c = {pfs_real(&real_pwritev, "pwritev"), 3, 1, fd, NULL, 0,
                        iov, cnt, off};
    return rw_common(&c);
}

ssize_t pwritev64(int fd, const struct iovec *iov, int cnt, off64_t off)
{
    struct rw_call c = {pfs_real(&real_pwritev64, "pwritev64"), 3, 1, fd,
                        NULL, 0, iov, cnt, off};
    return rw_common(&c);
}

/* --- metadata by path ---------------------------------------------------------- */

static void *_Atomic real_stat, *_Atomic real_stat64, *_Atomic real_lstat,
    *_Atomic real_lstat64, *_Atomic real_fstat, *_Atomic real_fstat64,
    *_Atomic real_fstatat, *_Atomic real_fstatat64, *_Atomic real_xstat,
    *_Atomic real_xstat64, *_Atomic real_lxstat, *_Atomic real_lxstat64,
    *_Atomic real_fxstat, *_Atomic real_fxstat64, *_Atomic real_unlink,
    *_Atomic real_unlinkat, *_Atomic real_mkdir, *_Atomic real_rmdir,
    *_Atomic real_rename;

/* 1 when a call about (dirfd, path) or fd is emulated. */
static int md_path(int dirfd, const char *path)
{
    return pfs_active() && path && (dirfd == AT_FDCWD || path[0] == '/') &&
           pfs_path_in_mount(path);
}

static int md_fd(int fd)
{
    return pfs_active() && pfs_fd_get(fd) != NULL;
}

/* The end of an emulated metadata call that started at t0 and returned
 * r: charge `op`, keep the call's errno, return r. */
static int md_finish(enum pfs_md_op op, double t0, int r)
{
    int err = errno;
    charge_md(op, t0, pfs_now());
    errno = err;
    return r;
}

typedef int (*stat_fn)(const char *, struct stat *);
typedef int (*stat64_fn)(const char *, struct stat64 *);
typedef int (*fstat_fn)(int, struct stat *);
typedef int (*fstat64_fn)(int, struct stat64 *);
typedef int (*xstat_fn)(int, const char *, struct stat *);
typedef int (*xstat64_fn)(int, const char *, struct stat64 *);
typedef int (*fxstat_fn)(int, int, struct stat *);
typedef int (*fxstat64_fn)(int, int, struct stat64 *);

int stat(const char *path, struct stat *buf)
{
    stat_fn fn = (stat_fn)pfs_real(&real_stat, "stat");
    if (!md_path(AT_FDCWD, path))
        return fn(path, buf);
    double t0 = pfs_now();
    return md_finish(PFS_MD_STAT, t0, fn(path, buf));
}

int stat64(const char *path, struct stat64 *buf)
{
    stat64_fn fn = (stat64_fn)pfs_real(&real_stat64, "stat64");
    if (!md_path(AT_FDCWD, path))
        return fn(path, buf);
    double t0 = pfs_now();
    return md_finish(PFS_MD_STAT, t0, fn(path, buf));
}

int lstat(const char *path, struct stat *buf)
{
    stat_fn fn = (stat_fn)pfs_real(&real_lstat, "lstat");
    if (!md_path(AT_FDCWD, path))
        return fn(path, buf);
    double t0 = pfs_now();
    return md_finish(PFS_MD_STAT, t0, fn(path, buf));
}

int lstat64(const char *path, struct stat64 *buf)
{
    stat64_fn fn = (stat64_fn)pfs_real(&real_lstat64, "lstat64");
    if (!md_path(AT_FDCWD, path))
        return fn(path, buf);
    double t0 = pfs_now();
    return md_finish(PFS_MD_STAT, t0, fn(path, buf));
}

int fstat(int fd, struct stat *buf)
{
    fstat_fn fn = (fstat_fn)pfs_real(&real_fstat, "fstat");
    if (!md_fd(fd))
        return fn(fd, buf);
    double t0 = pfs_now();
    return md_finish(PFS_MD_STAT, t0, fn(fd, buf));
}

int fstat64(int fd, struct stat64 *buf)
{
    fstat64_fn fn = (fstat64_fn)pfs_real(&real_fstat64, "fstat64");
    if (!md_fd(fd))
        return fn(fd, buf);
    double t0 = pfs_now();
    return md_finish(PFS_MD_STAT, t0, fn(fd, buf));
}

int fstatat(int dirfd, const char *path, struct stat *buf, int flags)
{
    int (*fn)(int, const char *, struct stat *, int) =
        (int (*)(int, const char *, struct stat *, int))pfs_real(&real_fstatat,
                                                                 "fstatat");
    if (!md_path(dirfd, path))
        return fn(dirfd, path, buf, flags);
    double t0 = pfs_now();
    return md_finish(PFS_MD_STAT, t0, fn(dirfd, path, buf, flags));
}

int fstatat64(int dirfd, const char *path, struct stat64 *buf, int flags)
{
    int (*fn)(int, const char *, struct stat64 *, int) =
        (int (*)(int, const char *, struct stat64 *, int))pfs_real(
            &real_fstatat64, "fstatat64");
    if (!md_path(dirfd, path))
        return fn(dirfd, path, buf, flags);
    double t0 = pfs_now();
    return md_finish(PFS_MD_STAT, t0, fn(dirfd, path, buf, flags));
}

int __xstat(int ver, const char *path, struct stat *buf)
{
    xstat_fn fn = (xstat_fn)pfs_real(&real_xstat, "__xstat");
    if (!md_path(AT_FDCWD, path))
        return fn(ver, path, buf);
    double t0 = pfs_now();
    return md_finish(PFS_MD_STAT, t0, fn(ver, path, buf));
}

int __xstat64(int ver, const char *path, struct stat64 *buf)
{
    xstat64_fn fn = (xstat64_fn)pfs_real(&real_xstat64, "__xstat64");
    if (!md_path(AT_FDCWD, path))
        return fn(ver, path, buf);
    double t0 = pfs_now();
    return md_finish(PFS_MD_STAT, t0, fn(ver, path, buf));
}

int __lxstat(int ver, const char *path, struct stat *buf)
{
    xstat_fn fn = (xstat_fn)pfs_real(&real_lxstat, "__lxstat");
    if (!md_path(AT_FDCWD, path))
        return fn(ver, path, buf);
    double t0 = pfs_now();
    return md_finish(PFS_MD_STAT, t0, fn(ver, path, buf));
}

int __lxstat64(int ver, const char *path, struct stat64 *buf)
{
    xstat64_fn fn = (xstat64_fn)pfs_real(&real_lxstat64, "__lxstat64");
    if (!md_path(AT_FDCWD, path))
        return fn(ver, path, buf);
    double t0 = pfs_now();
    return md_finish(PFS_MD_STAT, t0, fn(ver, path, buf));
}

int __fxstat(int ver, int fd, struct stat *buf)
{
    fxstat_fn fn = (fxstat_fn)pfs_real(&real_fxstat, "__fxstat");
    if (!md_fd(fd))
        return fn(ver, fd, buf);
    double t0 = pfs_now();
    return md_finish(PFS_MD_STAT, t0, fn(ver, fd, buf));
}

int __fxstat64(int ver, int fd, struct stat64 *buf)
{
    fxstat64_fn fn = (fxstat64_fn)pfs_real(&real_fxstat64, "__fxstat64");
    if (!md_fd(fd))
        return fn(ver, fd, buf);
    double t0 = pfs_now();
    return md_finish(PFS_MD_STAT, t0, fn(ver, fd, buf));
}

int unlink(const char *path)
{
    int (*fn)(const char *) = (int (*)(const char *))pfs_real(&real_unlink,
                                                              "unlink");
    if (!md_path(AT_FDCWD, path))
        return fn(path);
    double t0 = pfs_now();
    return md_finish(PFS_MD_UNLINK, t0, fn(path));
}

int unlinkat(int dirfd, const char *path, int flags)
{
    int (*fn)(int, const char *, int) =
        (int (*)(int, const char *, int))pfs_real(&real_unlinkat, "unlinkat");
    if (!md_path(dirfd, path))
        return fn(dirfd, path, flags);
    double t0 = pfs_now();
    return md_finish((flags & AT_REMOVEDIR) ? PFS_MD_RMDIR : PFS_MD_UNLINK, t0, fn(dirfd, path, flags));
}

int mkdir(const char *path, mode_t mode)
{
    int (*fn)(const char *, mode_t) =
        (int (*)(const char *, mode_t))pfs_real(&real_mkdir, "mkdir");
    if (!md_path(AT_FDCWD, path))
        return fn(path, mode);
    double t0 = pfs_now();
    return md_finish(PFS_MD_MKDIR, t0, fn(path, mode));
}

int rmdir(const char *path)
{
    int (*fn)(const char *) = (int (*)(const char *))pfs_real(&real_rmdir,
                                                              "rmdir");
    if (!md_path(AT_FDCWD, path))
        return fn(path);
    double t0 = pfs_now();
    return md_finish(PFS_MD_RMDIR, t0, fn(path));
}

int rename(const char *from, const char *to)
{
    int (*fn)(const char *, const char *) =
        (int (*)(const char *, const char *))pfs_real(&real_rename, "rename");
    if (!md_path(AT_FDCWD, from))
        return fn(from, to);
    double t0 = pfs_now();
    return md_finish(PFS_MD_RENAME, t0, fn(from, to));
}
