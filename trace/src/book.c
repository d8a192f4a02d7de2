/*
 * book.c - what each intercepted call adds to a record, following the
 * counter semantics of the format spec, section 10.
 *
 * Every function here takes g_lock (which also marks the thread busy, so
 * calls made while booking pass through untraced), saves errno on entry and
 * restores it on exit. Calls on descriptors, streams or handles the tracer
 * does not know are ignored. Only successful calls are booked; the wrappers
 * check the result before calling in.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iosage/counters.h"
#include "trace.h"

/* --- shared helpers -------------------------------------------------------- */

/* Book the interval [t0, t1] into *acc, counting time that overlaps an
 * interval already booked on the same timer of r only once (threads). */
void trc_add_time(struct trc_rec *r, int timer, double t0, double t1,
                     double *acc)
{
    double from = t0 > r->busy_end[timer] ? t0 : r->busy_end[timer];
    if (t1 > from)
        *acc += t1 - from;
    if (t1 > r->busy_end[timer])
        r->busy_end[timer] = t1;
}

/* Start timestamp: the earliest start; end timestamp: the latest end. */
void trc_stamp(double *start, double *end, double t0, double t1)
{
    if (*start == 0.0 || t0 < *start)
        *start = t0;
    if (t1 > *end)
        *end = t1;
}

/* Histogram bin 0..9 of an access size (spec 10.4, inclusive bounds). */
int trc_size_bin(int64_t n)
{
    static const int64_t upper[9] = {100,      1024,      10240,
                                     102400,   1048576,   4194304,
                                     10485760, 104857600, 1073741824};
    for (int i = 0; i < 9; i++)
        if (n <= upper[i])
            return i;
    return 9;
}

/* Count one occurrence of val among the candidates; 0 is never counted and
 * a new value is dropped once TRC_CANDIDATES values are tracked. */
static void count_value(struct trc_vc *v, int *n, int64_t val)
{
    if (val == 0)
        return;
    for (int i = 0; i < *n; i++) {
        if (v[i].val == val) {
            v[i].count++;
            return;
        }
    }
    if (*n < TRC_CANDIDATES) {
        v[*n].val = val;
        v[*n].count = 1;
        (*n)++;
    }
}

/* See trace.h. A new tuple is dropped once TRC_CANDIDATES are tracked. */
void trc_count_tuple(struct trc_rec *r, const int64_t *v)
{
    for (int i = 0; i < r->n_tuples; i++) {
        if (memcmp(r->tuples[i].v, v, sizeof r->tuples[i].v) == 0) {
            r->tuples[i].count++;
            return;
        }
    }
    if (r->n_tuples < TRC_CANDIDATES) {
        memcpy(r->tuples[r->n_tuples].v, v, sizeof r->tuples[0].v);
        r->tuples[r->n_tuples++].count = 1;
    }
}

/* Read/write switch: the kind of data call changed since the last one. */
int trc_rw_switch(struct trc_rec *r, int op)
{
    int sw = r->last_op != TRC_OP_NONE && r->last_op != op;
    r->last_op = op;
    return sw;
}

/* Record of fd, or NULL. Lock held. */
static struct trc_rec *fd_rec(int fd, struct trc_fd **slot)
{
    struct trc_fd *s = trc_fd_slot(fd, 0);
    struct trc_rec *r = s ? atomic_load_explicit(&s->rec, memory_order_relaxed)
                          : NULL;
    if (slot)
        *slot = s;
    return r;
}

/* --- POSIX ----------------------------------------------------------------- */

/* Position a freshly opened descriptor starts at: 0, or the file size for
 * O_APPEND (writes land at the end). */
static int64_t start_offset(int fd, int flags)
{
    struct stat st;
    if ((flags & O_APPEND) && fstat(fd, &st) == 0)
        return (int64_t)st.st_size;
    return 0;
}

/* Attach fd to r at offset; the slot's chunk is allocated on first use. */
static int attach_fd(int fd, struct trc_rec *r, int64_t offset)
{
    struct trc_fd *s = trc_fd_slot(fd, 1);
    if (!s)
        return -1;
    s->offset = offset;
    atomic_store_explicit(&s->rec, r, memory_order_relaxed);
    return 0;
}

/* 1 when fd is a regular file. Directories, devices, FIFOs and sockets get
 * no record, as with the runtime. Asked once per file, at its first open. */
static int regular_fd(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

static void posix_meta(struct trc_rec *r, double t0, double t1)
{
    trc_add_time(r, TRC_T_META, t0, t1, &r->f[IOSAGE_POSIX_F_META_TIME]);
}

/* See trace.h. mode is the permission argument (0 without O_CREAT). */
void trc_posix_open(int fd, int dirfd, const char *path, int flags, int mode,
                    double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    char clean[TRC_PATH_MAX];
    struct trc_rec *r = NULL;
    if (trc_clean_path(dirfd, path, clean) == 0 && !trc_excluded(clean) &&
        (trc_rec_find(TRC_POSIX, clean) || regular_fd(fd)))
        r = trc_rec_get(TRC_POSIX, clean);
    if (r && attach_fd(fd, r, start_offset(fd, flags)) == 0) {
        r->c[IOSAGE_POSIX_OPENS]++;
        if (mode != 0) /* as the runtime: an open without O_CREAT keeps it */
            r->c[IOSAGE_POSIX_MODE] = mode;
        trc_stamp(&r->f[IOSAGE_POSIX_F_OPEN_START_TIMESTAMP],
              &r->f[IOSAGE_POSIX_F_OPEN_END_TIMESTAMP], t0, t1);
        posix_meta(r, t0, t1);
        trc_lustre_open(r, fd);
    }
    trc_unlock(old);
    errno = saved;
}

/* See trace.h. A dup'd descriptor counts as an open (spec 10.1). */
void trc_posix_dup(int oldfd, int newfd, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_fd *s;
    struct trc_rec *r = fd_rec(oldfd, &s);
    if (r && oldfd != newfd && attach_fd(newfd, r, s->offset) == 0) {
        r->c[IOSAGE_POSIX_OPENS]++;
        r->c[IOSAGE_POSIX_DUPS]++;
        posix_meta(r, t0, t1);
    } else if (!r && oldfd != newfd) {
        struct trc_fd *ns = trc_fd_slot(newfd, 0);
        if (ns) /* dup2 over a traced descriptor closes it */
            atomic_store_explicit(&ns->rec, NULL, memory_order_relaxed);
    }
    trc_unlock(old);
    errno = saved;
}

/* Sequential / consecutive / stride bookkeeping of one access (spec 10.3). */
static void posix_pattern(struct trc_rec *r, int is_read, int64_t off,
                          int64_t len)
{
    int64_t *c = r->c;
    int64_t *last = is_read ? &r->last_read_end : &r->last_write_end;
    if (off > *last) {
        c[is_read ? IOSAGE_POSIX_SEQ_READS : IOSAGE_POSIX_SEQ_WRITES]++;
        if (off == *last + 1)
            c[is_read ? IOSAGE_POSIX_CONSEC_READS
                      : IOSAGE_POSIX_CONSEC_WRITES]++;
        /* No stride before the first access of the kind (the last byte is
         * still 0), as the runtime counts it. */
        if (*last != 0)
            count_value(r->stride, &r->n_stride, off - *last - 1);
    }
    *last = off + len - 1;
    int64_t *max = &c[is_read ? IOSAGE_POSIX_MAX_BYTE_READ
                              : IOSAGE_POSIX_MAX_BYTE_WRITTEN];
    if (off + len - 1 > *max)
        *max = off + len - 1;
}

/* Everything one successful read or write of len bytes at off adds. */
static void posix_access(struct trc_rec *r, int op, int64_t off, int64_t len,
                         const void *buf, double t0, double t1)
{
    int64_t *c = r->c;
    double *f = r->f;
    int rd = op == TRC_OP_READ;
    c[rd ? IOSAGE_POSIX_READS : IOSAGE_POSIX_WRITES]++;
    c[rd ? IOSAGE_POSIX_BYTES_READ : IOSAGE_POSIX_BYTES_WRITTEN] += len;
    c[(rd ? IOSAGE_POSIX_SIZE_READ_0_100 : IOSAGE_POSIX_SIZE_WRITE_0_100) +
      trc_size_bin(len)]++;
    posix_pattern(r, rd, off, len);
    if (trc_rw_switch(r, op))
        c[IOSAGE_POSIX_RW_SWITCHES]++;
    count_value(r->access, &r->n_access, len);
    if ((uintptr_t)buf % (uintptr_t)c[IOSAGE_POSIX_MEM_ALIGNMENT] != 0)
        c[IOSAGE_POSIX_MEM_NOT_ALIGNED]++;
    int64_t fa = c[IOSAGE_POSIX_FILE_ALIGNMENT];
    if (fa > 0 && off % fa != 0)
        c[IOSAGE_POSIX_FILE_NOT_ALIGNED]++;
    double dt = t1 - t0;
    int fmax = rd ? IOSAGE_POSIX_F_MAX_READ_TIME : IOSAGE_POSIX_F_MAX_WRITE_TIME;
    if (dt > f[fmax]) {
        f[fmax] = dt;
        c[rd ? IOSAGE_POSIX_MAX_READ_TIME_SIZE
             : IOSAGE_POSIX_MAX_WRITE_TIME_SIZE] = len;
    }
    trc_add_time(r, rd ? TRC_T_READ : TRC_T_WRITE, t0, t1,
             &f[rd ? IOSAGE_POSIX_F_READ_TIME : IOSAGE_POSIX_F_WRITE_TIME]);
    trc_heat_add(TRC_POSIX, op, len, t0, t1);
    if (rd)
        trc_stamp(&f[IOSAGE_POSIX_F_READ_START_TIMESTAMP],
              &f[IOSAGE_POSIX_F_READ_END_TIMESTAMP], t0, t1);
    else
        trc_stamp(&f[IOSAGE_POSIX_F_WRITE_START_TIMESTAMP],
              &f[IOSAGE_POSIX_F_WRITE_END_TIMESTAMP], t0, t1);
}

/* See trace.h. offset < 0: the access is at the descriptor's position, which
 * then moves by ret. */
void trc_posix_io(int fd, int op, int64_t offset, ssize_t ret,
                  const void *buf, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_fd *s;
    struct trc_rec *r = fd_rec(fd, &s);
    if (r && ret >= 0) {
        if (offset < 0) {
            offset = s->offset;
            s->offset += ret;
        }
        posix_access(r, op, offset, (int64_t)ret, buf, t0, t1);
    }
    trc_unlock(old);
    errno = saved;
}

/* See trace.h. */
void trc_posix_seek(int fd, int64_t pos, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_fd *s;
    struct trc_rec *r = fd_rec(fd, &s);
    if (r) {
        s->offset = pos;
        r->c[IOSAGE_POSIX_SEEKS]++;
        posix_meta(r, t0, t1);
    }
    trc_unlock(old);
    errno = saved;
}

/* See trace.h. Sync time is write time (spec 10.6). */
void trc_posix_sync(int fd, int data_only, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_rec *r = fd_rec(fd, NULL);
    if (r) {
        r->c[data_only ? IOSAGE_POSIX_FDSYNCS : IOSAGE_POSIX_FSYNCS]++;
        trc_add_time(r, TRC_T_WRITE, t0, t1, &r->f[IOSAGE_POSIX_F_WRITE_TIME]);
    }
    trc_unlock(old);
    errno = saved;
}

/* See trace.h. */
void trc_posix_close(int fd, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_fd *s;
    struct trc_rec *r = fd_rec(fd, &s);
    if (r) {
        atomic_store_explicit(&s->rec, NULL, memory_order_relaxed);
        trc_stamp(&r->f[IOSAGE_POSIX_F_CLOSE_START_TIMESTAMP],
              &r->f[IOSAGE_POSIX_F_CLOSE_END_TIMESTAMP], t0, t1);
        posix_meta(r, t0, t1);
    }
    trc_unlock(old);
    errno = saved;
}

/* See trace.h. */
void trc_posix_fstat(int fd, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_rec *r = fd_rec(fd, NULL);
    if (r) {
        r->c[IOSAGE_POSIX_STATS]++;
        posix_meta(r, t0, t1);
    }
    trc_unlock(old);
    errno = saved;
}

/* Record of a path for stat/unlink/rename; created only when create. */
static struct trc_rec *path_rec(int dirfd, const char *path, int create)
{
    char clean[TRC_PATH_MAX];
    if (trc_clean_path(dirfd, path, clean) != 0 || trc_excluded(clean))
        return NULL;
    return create ? trc_rec_get(TRC_POSIX, clean)
                  : trc_rec_find(TRC_POSIX, clean);
}

/* See trace.h. A stat of a path creates its record, as Darshan does. */
void trc_posix_stat(int dirfd, const char *path, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_rec *r = path_rec(dirfd, path, 1);
    if (r) {
        r->c[IOSAGE_POSIX_STATS]++;
        posix_meta(r, t0, t1);
    }
    trc_unlock(old);
    errno = saved;
}

/* See trace.h. */
void trc_posix_mmap(int fd, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    /* POSIX_MMAPS stays -1, "not counted", as the runtime leaves it by
     * default (its mmap counting is off unless configured). */
    (void)fd;
    (void)t0;
    (void)t1;
    trc_unlock(old);
    errno = saved;
}

/* See trace.h. There is no unlink counter: only meta time of a known file. */
void trc_posix_unlink(int dirfd, const char *path, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_rec *r = path_rec(dirfd, path, 0);
    if (r)
        posix_meta(r, t0, t1);
    trc_unlock(old);
    errno = saved;
}

/* See trace.h. Only renames of files the tracer knows are booked: the source
 * counts a RENAME_SOURCE, the target (created if needed) a RENAME_TARGET and
 * remembers the source's id. */
void trc_posix_rename(int olddirfd, const char *oldpath, int newdirfd,
                      const char *newpath, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_rec *src = path_rec(olddirfd, oldpath, 0);
    struct trc_rec *dst = src ? path_rec(newdirfd, newpath, 1) : NULL;
    if (src) {
        src->c[IOSAGE_POSIX_RENAME_SOURCES]++;
        posix_meta(src, t0, t1);
    }
    if (dst) {
        dst->c[IOSAGE_POSIX_RENAME_TARGETS]++;
        dst->c[IOSAGE_POSIX_RENAMED_FROM] = (int64_t)src->id;
        if (dst != src)
            posix_meta(dst, t0, t1);
    }
    trc_unlock(old);
    errno = saved;
}

/* --- POSIX asynchronous I/O ------------------------------------------------ */

struct aio_pending {
    const void *cb;      /* the caller's struct aiocb */
    int fd, op;
    int64_t offset;
    const void *buf;
    double t0;           /* submission */
};

static struct aio_pending aio_pend[TRC_AIO_PENDING];
static int aio_n; /* used entries, packed at the front */

/* See trace.h. */
void trc_posix_aio_submit(const void *cb, int fd, int op, int64_t offset,
                          const void *buf, double t0)
{
    int saved = errno;
    int old = trc_lock();
    if (fd_rec(fd, NULL) && aio_n < TRC_AIO_PENDING)
        aio_pend[aio_n++] = (struct aio_pending){cb, fd, op, offset, buf, t0};
    trc_unlock(old);
    errno = saved;
}

/* See trace.h. */
void trc_posix_aio_done(const void *cb, ssize_t ret, double t1)
{
    int saved = errno;
    int old = trc_lock();
    for (int i = 0; i < aio_n; i++) {
        if (aio_pend[i].cb != cb)
            continue;
        struct aio_pending p = aio_pend[i];
        aio_pend[i] = aio_pend[--aio_n];
        struct trc_rec *r = fd_rec(p.fd, NULL);
        if (r && ret >= 0)
            posix_access(r, p.op, p.offset, (int64_t)ret, p.buf, p.t0, t1);
        break;
    }
    trc_unlock(old);
    errno = saved;
}

/* --- STDIO ----------------------------------------------------------------- */

/* Name of a standard stream, or NULL. */
static const char *std_name(FILE *fp)
{
    if (fp == stdin)
        return "<STDIN>";
    if (fp == stdout)
        return "<STDOUT>";
    if (fp == stderr)
        return "<STDERR>";
    return NULL;
}

/* The map entry of fp; standard streams get theirs on first use. */
static struct trc_ref *stream_ref(FILE *fp)
{
    struct trc_ref *ref = trc_map_find(TRC_STDIO, fp);
    const char *name;
    if (ref || !(name = std_name(fp)))
        return ref;
    struct trc_rec *r = trc_rec_get(TRC_STDIO, name);
    if (!r || !(ref = trc_map_add(TRC_STDIO, fp)))
        return NULL;
    /* The runtime counts the stream as opened once, by the program's
     * start-up. */
    r->c[IOSAGE_STDIO_OPENS] = 1;
    ref->rec = r;
    ref->offset = 0;
    return ref;
}

/* Path behind a descriptor for fdopen: the traced record's name, else the
 * /proc/self/fd link. 0 or -1. */
static int fd_path(int fd, char *out)
{
    struct trc_rec *r = fd_rec(fd, NULL);
    if (r) {
        snprintf(out, TRC_PATH_MAX, "%s", r->name);
        return 0;
    }
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, out, TRC_PATH_MAX - 1);
    if (n <= 0 || out[0] != '/')
        return -1; /* pipes, sockets, anonymous files */
    out[n] = '\0';
    return 0;
}

/* See trace.h. path NULL: fdopen of fd. mode is the fopen mode string. */
void trc_stdio_open(FILE *fp, const char *path, int fd, const char *mode,
                    double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    char clean[TRC_PATH_MAX], raw[TRC_PATH_MAX];
    int ok = path ? trc_clean_path(AT_FDCWD, path, clean) == 0
                  : fd_path(fd, raw) == 0 &&
                        trc_clean_path(AT_FDCWD, raw, clean) == 0;
    /* The runtime's STDIO module, once started in a process, always holds
     * a <STDOUT> record opened once: the first file stream brings it. */
    if (ok && !trc_excluded(clean) && !trc_rec_first(TRC_STDIO)) {
        struct trc_rec *out = trc_rec_get(TRC_STDIO, "<STDOUT>");
        if (out)
            out->c[IOSAGE_STDIO_OPENS] = 1;
    }
    struct trc_rec *r = ok && !trc_excluded(clean)
                            ? trc_rec_get(TRC_STDIO, clean) : NULL;
    struct trc_ref *ref = r ? trc_map_add(TRC_STDIO, fp) : NULL;
    if (ref) {
        ref->rec = r;
        ref->offset = mode && mode[0] == 'a' ? start_offset(fd, O_APPEND) : 0;
        r->c[IOSAGE_STDIO_OPENS]++;
        if (!path)
            r->c[IOSAGE_STDIO_FDOPENS]++;
        trc_stamp(&r->f[IOSAGE_STDIO_F_OPEN_START_TIMESTAMP],
              &r->f[IOSAGE_STDIO_F_OPEN_END_TIMESTAMP], t0, t1);
        trc_add_time(r, TRC_T_META, t0, t1, &r->f[IOSAGE_STDIO_F_META_TIME]);
    }
    trc_unlock(old);
    errno = saved;
}

/* See trace.h. bytes moved by one successful data call. */
void trc_stdio_io(FILE *fp, int op, int64_t bytes, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_ref *ref = stream_ref(fp);
    if (ref) {
        struct trc_rec *r = ref->rec;
        int rd = op == TRC_OP_READ;
        int64_t *max = &r->c[rd ? IOSAGE_STDIO_MAX_BYTE_READ
                                : IOSAGE_STDIO_MAX_BYTE_WRITTEN];
        r->c[rd ? IOSAGE_STDIO_READS : IOSAGE_STDIO_WRITES]++;
        r->c[rd ? IOSAGE_STDIO_BYTES_READ : IOSAGE_STDIO_BYTES_WRITTEN] += bytes;
        if (bytes > 0 && ref->offset + bytes - 1 > *max)
            *max = ref->offset + bytes - 1;
        ref->offset += bytes;
        trc_add_time(r, rd ? TRC_T_READ : TRC_T_WRITE, t0, t1,
                 &r->f[rd ? IOSAGE_STDIO_F_READ_TIME : IOSAGE_STDIO_F_WRITE_TIME]);
        trc_heat_add(TRC_STDIO, op, bytes, t0, t1);
        if (rd)
            trc_stamp(&r->f[IOSAGE_STDIO_F_READ_START_TIMESTAMP],
                  &r->f[IOSAGE_STDIO_F_READ_END_TIMESTAMP], t0, t1);
        else
            trc_stamp(&r->f[IOSAGE_STDIO_F_WRITE_START_TIMESTAMP],
                  &r->f[IOSAGE_STDIO_F_WRITE_END_TIMESTAMP], t0, t1);
    }
    trc_unlock(old);
    errno = saved;
}

/* See trace.h. pos: the stream position after the seek (-1 if unknown). */
void trc_stdio_seek(FILE *fp, int64_t pos, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_ref *ref = stream_ref(fp);
    if (ref) {
        if (pos >= 0)
            ref->offset = pos;
        ref->rec->c[IOSAGE_STDIO_SEEKS]++;
        trc_add_time(ref->rec, TRC_T_META, t0, t1,
                 &ref->rec->f[IOSAGE_STDIO_F_META_TIME]);
    }
    trc_unlock(old);
    errno = saved;
}

/* See trace.h. fflush time is write time (spec 10.6). */
void trc_stdio_flush(FILE *fp, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_ref *ref = stream_ref(fp);
    if (ref) {
        ref->rec->c[IOSAGE_STDIO_FLUSHES]++;
        trc_add_time(ref->rec, TRC_T_WRITE, t0, t1,
                 &ref->rec->f[IOSAGE_STDIO_F_WRITE_TIME]);
    }
    trc_unlock(old);
    errno = saved;
}

/* See trace.h. fd: the stream's descriptor before it was closed, whose
 * POSIX slot (set by fileno) must not outlive the stream. */
void trc_stdio_close(FILE *fp, int fd, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_ref *ref = trc_map_find(TRC_STDIO, fp);
    if (ref) {
        struct trc_rec *r = ref->rec;
        trc_stamp(&r->f[IOSAGE_STDIO_F_CLOSE_START_TIMESTAMP],
              &r->f[IOSAGE_STDIO_F_CLOSE_END_TIMESTAMP], t0, t1);
        trc_add_time(r, TRC_T_META, t0, t1, &r->f[IOSAGE_STDIO_F_META_TIME]);
        trc_map_del(TRC_STDIO, fp);
    }
    struct trc_fd *s = trc_fd_slot(fd, 0);
    if (s)
        atomic_store_explicit(&s->rec, NULL, memory_order_relaxed);
    trc_unlock(old);
    errno = saved;
}

/* See trace.h. The descriptor behind a traced stream becomes a POSIX
 * descriptor of the same file (FILENOS, which OPENS includes). */
void trc_stdio_fileno(FILE *fp, int fd)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_ref *ref = trc_map_find(TRC_STDIO, fp);
    struct trc_rec *r = ref && ref->rec->name[0] == '/'
                            ? trc_rec_get(TRC_POSIX, ref->rec->name) : NULL;
    if (r && attach_fd(fd, r, ref->offset) == 0) {
        r->c[IOSAGE_POSIX_OPENS]++;
        r->c[IOSAGE_POSIX_FILENOS]++;
    }
    trc_unlock(old);
    errno = saved;
}

/* --- MPI-IO ---------------------------------------------------------------- */

static void mpiio_meta(struct trc_rec *r, double t0, double t1)
{
    trc_add_time(r, TRC_T_META, t0, t1, &r->f[IOSAGE_MPIIO_F_META_TIME]);
}

/* Skip a ROMIO-style "fstype:" prefix ("ufs:/path", "lustre:/path"). */
static const char *strip_fs_prefix(const char *path)
{
    const char *colon = strchr(path, ':');
    if (colon && colon - path >= 2 && memchr(path, '/', (size_t)(colon - path))
        == NULL)
        return colon + 1;
    return path;
}

/* See trace.h. */
void trc_mpiio_open(const void *fh, const char *path, int amode,
                    int comm_size, int has_info, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    char clean[TRC_PATH_MAX];
    struct trc_rec *r = NULL;
    if (trc_clean_path(AT_FDCWD, strip_fs_prefix(path), clean) == 0 &&
        !trc_excluded(clean))
        r = trc_rec_get(TRC_MPIIO, clean);
    struct trc_ref *ref = r ? trc_map_add(TRC_MPIIO, fh) : NULL;
    if (ref) {
        ref->rec = r;
        r->c[comm_size > 1 ? IOSAGE_MPIIO_COLL_OPENS
                           : IOSAGE_MPIIO_INDEP_OPENS]++;
        r->c[IOSAGE_MPIIO_MODE] = amode;
        r->c[IOSAGE_MPIIO_HINTS] += has_info ? 1 : 0;
        trc_stamp(&r->f[IOSAGE_MPIIO_F_OPEN_START_TIMESTAMP],
              &r->f[IOSAGE_MPIIO_F_OPEN_END_TIMESTAMP], t0, t1);
        mpiio_meta(r, t0, t1);
    }
    trc_unlock(old);
    errno = saved;
}

/* Counter index of a data call of kind (enum trc_mpi_kind). */
static int mpiio_kind_counter(int rd, int kind)
{
    static const int idx[2][4] = {
        {IOSAGE_MPIIO_INDEP_WRITES, IOSAGE_MPIIO_COLL_WRITES,
         IOSAGE_MPIIO_SPLIT_WRITES, IOSAGE_MPIIO_NB_WRITES},
        {IOSAGE_MPIIO_INDEP_READS, IOSAGE_MPIIO_COLL_READS,
         IOSAGE_MPIIO_SPLIT_READS, IOSAGE_MPIIO_NB_READS}};
    return idx[rd][kind];
}

/* See trace.h. bytes: count x datatype size of the request. */
void trc_mpiio_io(const void *fh, int op, int kind, int64_t bytes, double t0,
                  double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_ref *ref = trc_map_find(TRC_MPIIO, fh);
    if (ref) {
        struct trc_rec *r = ref->rec;
        int64_t *c = r->c;
        double *f = r->f;
        int rd = op == TRC_OP_READ;
        c[mpiio_kind_counter(rd, kind)]++;
        c[rd ? IOSAGE_MPIIO_BYTES_READ : IOSAGE_MPIIO_BYTES_WRITTEN] += bytes;
        c[(rd ? IOSAGE_MPIIO_SIZE_READ_AGG_0_100
              : IOSAGE_MPIIO_SIZE_WRITE_AGG_0_100) + trc_size_bin(bytes)]++;
        if (trc_rw_switch(r, op))
            c[IOSAGE_MPIIO_RW_SWITCHES]++;
        count_value(r->access, &r->n_access, bytes);
        int fmax = rd ? IOSAGE_MPIIO_F_MAX_READ_TIME
                      : IOSAGE_MPIIO_F_MAX_WRITE_TIME;
        if (t1 - t0 > f[fmax]) {
            f[fmax] = t1 - t0;
            c[rd ? IOSAGE_MPIIO_MAX_READ_TIME_SIZE
                 : IOSAGE_MPIIO_MAX_WRITE_TIME_SIZE] = bytes;
        }
        trc_add_time(r, rd ? TRC_T_READ : TRC_T_WRITE, t0, t1,
                 &f[rd ? IOSAGE_MPIIO_F_READ_TIME : IOSAGE_MPIIO_F_WRITE_TIME]);
        trc_heat_add(TRC_MPIIO, op, bytes, t0, t1);
        if (rd)
            trc_stamp(&f[IOSAGE_MPIIO_F_READ_START_TIMESTAMP],
                  &f[IOSAGE_MPIIO_F_READ_END_TIMESTAMP], t0, t1);
        else
            trc_stamp(&f[IOSAGE_MPIIO_F_WRITE_START_TIMESTAMP],
                  &f[IOSAGE_MPIIO_F_WRITE_END_TIMESTAMP], t0, t1);
    }
    trc_unlock(old);
    errno = saved;
}

/* See trace.h. Sync time is write time (spec 10.6). */
void trc_mpiio_sync(const void *fh, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_ref *ref = trc_map_find(TRC_MPIIO, fh);
    if (ref) {
        ref->rec->c[IOSAGE_MPIIO_SYNCS]++;
        trc_add_time(ref->rec, TRC_T_WRITE, t0, t1,
                 &ref->rec->f[IOSAGE_MPIIO_F_WRITE_TIME]);
    }
    trc_unlock(old);
    errno = saved;
}

/* See trace.h. */
void trc_mpiio_view(const void *fh, int has_info, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_ref *ref = trc_map_find(TRC_MPIIO, fh);
    if (ref) {
        ref->rec->c[IOSAGE_MPIIO_VIEWS]++;
        ref->rec->c[IOSAGE_MPIIO_HINTS] += has_info ? 1 : 0;
        mpiio_meta(ref->rec, t0, t1);
    }
    trc_unlock(old);
    errno = saved;
}

/* See trace.h. */
void trc_mpiio_close(const void *fh, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_ref *ref = trc_map_find(TRC_MPIIO, fh);
    if (ref) {
        struct trc_rec *r = ref->rec;
        trc_stamp(&r->f[IOSAGE_MPIIO_F_CLOSE_START_TIMESTAMP],
              &r->f[IOSAGE_MPIIO_F_CLOSE_END_TIMESTAMP], t0, t1);
        mpiio_meta(r, t0, t1);
        trc_map_del(TRC_MPIIO, fh);
    }
    trc_unlock(old);
    errno = saved;
}

/* See trace.h. */
void trc_mpiio_time(const void *fh, int op, double t0, double t1)
{
    int saved = errno;
    int old = trc_lock();
    struct trc_ref *ref = trc_map_find(TRC_MPIIO, fh);
    if (ref) {
        int rd = op == TRC_OP_READ;
        trc_add_time(ref->rec, rd ? TRC_T_READ : TRC_T_WRITE, t0, t1,
                 &ref->rec->f[rd ? IOSAGE_MPIIO_F_READ_TIME
                                 : IOSAGE_MPIIO_F_WRITE_TIME]);
    }
    trc_unlock(old);
    errno = saved;
}
