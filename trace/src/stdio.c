/*
 * stdio.c - wrappers of the stdio calls that open, move data, seek, flush
 * and close streams (format spec 10.1 lists what the STDIO module counts).
 *
 * Same shape as posix.c: real function, pass through when not tracing, time,
 * book on success, restore errno, return the real result. Streams the
 * tracer does not know (and that are not stdin/stdout/stderr) are ignored
 * by the booking code. glibc's internal calls (fopen opening its descriptor,
 * fwrite flushing its buffer) do not go through these symbols, so a stdio
 * file does not also show up as POSIX I/O.
 *
 * The fortified variants (__fprintf_chk, __fread_chk ...) that programs
 * built with _FORTIFY_SOURCE call are wrapped too. Not wrapped: the
 * *_unlocked calls, and ftell/fgetpos, which the STDIO module does not
 * count.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "trace.h"

size_t __fread_chk(void *ptr, size_t ptrlen, size_t size, size_t n, FILE *fp);
char *__fgets_chk(char *s, size_t size, int n, FILE *fp);
int __fprintf_chk(FILE *fp, int flag, const char *fmt, ...);
int __printf_chk(int flag, const char *fmt, ...);
int __vfprintf_chk(FILE *fp, int flag, const char *fmt, va_list ap);
int __vprintf_chk(int flag, const char *fmt, va_list ap);
int __isoc99_fscanf(FILE *fp, const char *fmt, ...);
int __isoc99_vfscanf(FILE *fp, const char *fmt, va_list ap);
/* In strict C17 mode <stdio.h> renames fscanf/vfscanf to their __isoc99_
 * forms, so the plain GNU symbols are defined under their own asm names. */
int plain_fscanf(FILE *fp, const char *fmt, ...) __asm__("fscanf");
int plain_vfscanf(FILE *fp, const char *fmt, va_list ap) __asm__("vfscanf");

static void *_Atomic real_fileno, *_Atomic real_ftello;

/* The stream's descriptor without booking a fileno() call; -1 if unknown.
 * errno is preserved. */
static int stream_fd(FILE *fp)
{
    int (*fn)(FILE *) = trc_real(&real_fileno, "fileno");
    int saved = errno;
    int fd = fn && fp ? fn(fp) : -1;
    errno = saved;
    return fd;
}

/* The stream's position without booking; -1 if unknown (pipes). */
static int64_t stream_pos(FILE *fp)
{
    off_t (*fn)(FILE *) = trc_real(&real_ftello, "ftello");
    int saved = errno;
    int64_t pos = fn ? (int64_t)fn(fp) : -1;
    errno = saved;
    return pos;
}

/* --- open and close ---------------------------------------------------------- */

static void *_Atomic real_fopen, *_Atomic real_fopen64, *_Atomic real_fdopen,
    *_Atomic real_freopen, *_Atomic real_freopen64, *_Atomic real_fclose;

static FILE *fopen_common(void *fn, const char *path, const char *mode)
{
    FILE *(*f)(const char *, const char *) = fn;
    if (!f) {
        errno = ENOSYS;
        return NULL;
    }
    if (!trc_active())
        return f(path, mode);
    double t0 = trc_now();
    FILE *ret = f(path, mode);
    int err = errno;
    double t1 = trc_now();
    if (ret)
        trc_stdio_open(ret, path, stream_fd(ret), mode, t0, t1);
    errno = err;
    return ret;
}

FILE *fopen(const char *path, const char *mode)
{
    return fopen_common(trc_real(&real_fopen, "fopen"), path, mode);
}

FILE *fopen64(const char *path, const char *mode)
{
    return fopen_common(trc_real(&real_fopen64, "fopen64"), path, mode);
}

FILE *fdopen(int fd, const char *mode)
{
    FILE *(*f)(int, const char *) = trc_real(&real_fdopen, "fdopen");
    if (!f) {
        errno = ENOSYS;
        return NULL;
    }
    if (!trc_active())
        return f(fd, mode);
    double t0 = trc_now();
    FILE *ret = f(fd, mode);
    int err = errno;
    double t1 = trc_now();
    if (ret)
        trc_stdio_open(ret, NULL, fd, mode, t0, t1);
    errno = err;
    return ret;
}

/* freopen: the old stream is closed, the same FILE * opens a new file. */
static FILE *freopen_common(void *fn, const char *path, const char *mode,
                            FILE *fp)
{
    FILE *(*f)(const char *, const char *, FILE *) = fn;
    if (!f) {
        errno = ENOSYS;
        return NULL;
    }
    if (!trc_active() || !path)
        return f(path, mode, fp);
    int oldfd = stream_fd(fp);
    double t0 = trc_now();
    FILE *ret = f(path, mode, fp);
    int err = errno;
    double t1 = trc_now();
    trc_stdio_close(fp, oldfd, t0, t0);
    if (ret)
        trc_stdio_open(ret, path, stream_fd(ret), mode, t0, t1);
    errno = err;
    return ret;
}

FILE *freopen(const char *path, const char *mode, FILE *fp)
{
    return freopen_common(trc_real(&real_freopen, "freopen"), path, mode, fp);
}

FILE *freopen64(const char *path, const char *mode, FILE *fp)
{
    return freopen_common(trc_real(&real_freopen64, "freopen64"), path, mode,
                          fp);
}

int fclose(FILE *fp)
{
    int (*f)(FILE *) = trc_real(&real_fclose, "fclose");
    if (!f) {
        errno = ENOSYS;
        return EOF;
    }
    if (!trc_active())
        return f(fp);
    int fd = stream_fd(fp);
    double t0 = trc_now();
    int ret = f(fp);
    int err = errno;
    double t1 = trc_now();
    trc_stdio_close(fp, fd, t0, t1); /* the stream is gone even on error */
    errno = err;
    return ret;
}

/* --- data calls ---------------------------------------------------------------- */

static void *_Atomic real_fread, *_Atomic real_fread_chk, *_Atomic real_fwrite,
    *_Atomic real_fgets, *_Atomic real_fgets_chk, *_Atomic real_fputs,
    *_Atomic real_puts, *_Atomic real_fgetc, *_Atomic real_getc,
    *_Atomic real_fputc, *_Atomic real_putc, *_Atomic real_putchar,
    *_Atomic real_getw, *_Atomic real_putw;

/* Book a data call that moved bytes (when ok) and restore errno. */
static void book_io(FILE *fp, int op, int ok, int64_t bytes, double t0)
{
    int err = errno;
    double t1 = trc_now();
    if (ok)
        trc_stdio_io(fp, op, bytes, t0, t1);
    errno = err;
}

size_t fread(void *ptr, size_t size, size_t n, FILE *fp)
{
    size_t (*f)(void *, size_t, size_t, FILE *) = trc_real(&real_fread, "fread");
    if (!f) {
        errno = ENOSYS;
        return 0;
    }
    if (!trc_active())
        return f(ptr, size, n, fp);
    double t0 = trc_now();
    size_t ret = f(ptr, size, n, fp);
    book_io(fp, TRC_OP_READ, ret > 0, (int64_t)(ret * size), t0);
    return ret;
}

size_t __fread_chk(void *ptr, size_t ptrlen, size_t size, size_t n, FILE *fp)
{
    size_t (*f)(void *, size_t, size_t, size_t, FILE *) =
        trc_real(&real_fread_chk, "__fread_chk");
    if (!f) {
        errno = ENOSYS;
        return 0;
    }
    if (!trc_active())
        return f(ptr, ptrlen, size, n, fp);
    double t0 = trc_now();
    size_t ret = f(ptr, ptrlen, size, n, fp);
    book_io(fp, TRC_OP_READ, ret > 0, (int64_t)(ret * size), t0);
    return ret;
}

size_t fwrite(const void *ptr, size_t size, size_t n, FILE *fp)
{
    size_t (*f)(const void *, size_t, size_t, FILE *) =
        trc_real(&real_fwrite, "fwrite");
    if (!f) {
        errno = ENOSYS;
        return 0;
    }
    if (!trc_active())
        return f(ptr, size, n, fp);
    double t0 = trc_now();
    size_t ret = f(ptr, size, n, fp);
    book_io(fp, TRC_OP_WRITE, ret > 0, (int64_t)(ret * size), t0);
    return ret;
}

char *fgets(char *s, int n, FILE *fp)
{
    char *(*f)(char *, int, FILE *) = trc_real(&real_fgets, "fgets");
    if (!f) {
        errno = ENOSYS;
        return NULL;
    }
    if (!trc_active())
        return f(s, n, fp);
    double t0 = trc_now();
    char *ret = f(s, n, fp);
    book_io(fp, TRC_OP_READ, ret != NULL, ret ? (int64_t)strlen(ret) : 0, t0);
    return ret;
}

char *__fgets_chk(char *s, size_t size, int n, FILE *fp)
{
    char *(*f)(char *, size_t, int, FILE *) =
        trc_real(&real_fgets_chk, "__fgets_chk");
    if (!f) {
        errno = ENOSYS;
        return NULL;
    }
    if (!trc_active())
        return f(s, size, n, fp);
    double t0 = trc_now();
    char *ret = f(s, size, n, fp);
    book_io(fp, TRC_OP_READ, ret != NULL, ret ? (int64_t)strlen(ret) : 0, t0);
    return ret;
}

int fputs(const char *s, FILE *fp)
{
    int (*f)(const char *, FILE *) = trc_real(&real_fputs, "fputs");
    if (!f) {
        errno = ENOSYS;
        return EOF;
    }
    if (!trc_active())
        return f(s, fp);
    double t0 = trc_now();
    int ret = f(s, fp);
    book_io(fp, TRC_OP_WRITE, ret != EOF, (int64_t)strlen(s), t0);
    return ret;
}

/* Compilers turn printf("text\n") into puts("text"): count it like printf. */
int puts(const char *s)
{
    int (*f)(const char *) = trc_real(&real_puts, "puts");
    if (!f) {
        errno = ENOSYS;
        return EOF;
    }
    if (!trc_active())
        return f(s);
    double t0 = trc_now();
    int ret = f(s);
    book_io(stdout, TRC_OP_WRITE, ret != EOF, (int64_t)strlen(s) + 1, t0);
    return ret;
}

/* fgetc and getc share one body. */
static int getc_common(void *fn, FILE *fp)
{
    int (*f)(FILE *) = fn;
    if (!f) {
        errno = ENOSYS;
        return EOF;
    }
    if (!trc_active())
        return f(fp);
    double t0 = trc_now();
    int ret = f(fp);
    book_io(fp, TRC_OP_READ, ret != EOF, 1, t0);
    return ret;
}

int fgetc(FILE *fp)
{
    return getc_common(trc_real(&real_fgetc, "fgetc"), fp);
}

int getc(FILE *fp)
{
    return getc_common(trc_real(&real_getc, "getc"), fp);
}

/* fputc and putc share one body. */
static int putc_common(void *fn, int c, FILE *fp)
{
    int (*f)(int, FILE *) = fn;
    if (!f) {
        errno = ENOSYS;
        return EOF;
    }
    if (!trc_active())
        return f(c, fp);
    double t0 = trc_now();
    int ret = f(c, fp);
    book_io(fp, TRC_OP_WRITE, ret != EOF, 1, t0);
    return ret;
}

int fputc(int c, FILE *fp)
{
    return putc_common(trc_real(&real_fputc, "fputc"), c, fp);
}

int putc(int c, FILE *fp)
{
    return putc_common(trc_real(&real_putc, "putc"), c, fp);
}

int putchar(int c)
{
    int (*f)(int) = trc_real(&real_putchar, "putchar");
    if (!f) {
        errno = ENOSYS;
        return EOF;
    }
    if (!trc_active())
        return f(c);
    double t0 = trc_now();
    int ret = f(c);
    book_io(stdout, TRC_OP_WRITE, ret != EOF, 1, t0);
    return ret;
}

int getw(FILE *fp)
{
    int (*f)(FILE *) = trc_real(&real_getw, "getw");
    if (!f) {
        errno = ENOSYS;
        return EOF;
    }
    if (!trc_active())
        return f(fp);
    double t0 = trc_now();
    int ret = f(fp);
    int ok = ret != EOF || !(feof(fp) || ferror(fp));
    book_io(fp, TRC_OP_READ, ok, (int64_t)sizeof(int), t0);
    return ret;
}

int putw(int w, FILE *fp)
{
    int (*f)(int, FILE *) = trc_real(&real_putw, "putw");
    if (!f) {
        errno = ENOSYS;
        return EOF;
    }
    if (!trc_active())
        return f(w, fp);
    double t0 = trc_now();
    int ret = f(w, fp);
    book_io(fp, TRC_OP_WRITE, ret == 0, (int64_t)sizeof(int), t0);
    return ret;
}

/* --- formatted output -------------------------------------------------------- */

static void *_Atomic real_vfprintf, *_Atomic real_vfprintf_chk;

/* Every printf-like wrapper ends here: the real vfprintf (or its fortified
 * form when flag >= 0), timed and booked on fp. */
static int vfprintf_common(FILE *fp, int flag, const char *fmt, va_list ap)
{
    int ret;
    void *fn = flag >= 0 ? trc_real(&real_vfprintf_chk, "__vfprintf_chk")
                         : trc_real(&real_vfprintf, "vfprintf");
    if (!fn) {
        errno = ENOSYS;
        return -1;
    }
    int traced = trc_active();
    double t0 = traced ? trc_now() : 0.0;
    if (flag >= 0)
        ret = ((int (*)(FILE *, int, const char *, va_list))fn)(fp, flag, fmt,
                                                                ap);
    else
        ret = ((int (*)(FILE *, const char *, va_list))fn)(fp, fmt, ap);
    if (traced)
        book_io(fp, TRC_OP_WRITE, ret >= 0, ret, t0);
    return ret;
}

int vfprintf(FILE *fp, const char *fmt, va_list ap)
{
    return vfprintf_common(fp, -1, fmt, ap);
}

int __vfprintf_chk(FILE *fp, int flag, const char *fmt, va_list ap)
{
    return vfprintf_common(fp, flag < 0 ? 0 : flag, fmt, ap);
}

int vprintf(const char *fmt, va_list ap)
{
    return vfprintf_common(stdout, -1, fmt, ap);
}

int __vprintf_chk(int flag, const char *fmt, va_list ap)
{
    return vfprintf_common(stdout, flag < 0 ? 0 : flag, fmt, ap);
}

int fprintf(FILE *fp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int ret = vfprintf_common(fp, -1, fmt, ap);
    va_end(ap);
    return ret;
}

int __fprintf_chk(FILE *fp, int flag, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int ret = vfprintf_common(fp, flag < 0 ? 0 : flag, fmt, ap);
    va_end(ap);
    return ret;
}

int printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int ret = vfprintf_common(stdout, -1, fmt, ap);
    va_end(ap);
    return ret;
}

int __printf_chk(int flag, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int ret = vfprintf_common(stdout, flag < 0 ? 0 : flag, fmt, ap);
    va_end(ap);
    return ret;
}

/* --- formatted input ----------------------------------------------------------- */

static void *_Atomic real_vfscanf, *_Atomic real_isoc99_vfscanf;

/* Every scanf-like wrapper ends here. The bytes consumed are the change of
 * the stream position (0 on streams that cannot tell it). */
static int vfscanf_common(void *fn, FILE *fp, const char *fmt, va_list ap)
{
    int (*f)(FILE *, const char *, va_list) = fn;
    if (!f) {
        errno = ENOSYS;
        return EOF;
    }
    if (!trc_active())
        return f(fp, fmt, ap);
    int64_t before = stream_pos(fp);
    double t0 = trc_now();
    int ret = f(fp, fmt, ap);
    int64_t after = stream_pos(fp);
    int64_t bytes = before >= 0 && after > before ? after - before : 0;
    book_io(fp, TRC_OP_READ, ret != EOF, bytes, t0);
    return ret;
}

int plain_vfscanf(FILE *fp, const char *fmt, va_list ap)
{
    return vfscanf_common(trc_real(&real_vfscanf, "vfscanf"), fp, fmt, ap);
}

int __isoc99_vfscanf(FILE *fp, const char *fmt, va_list ap)
{
    return vfscanf_common(trc_real(&real_isoc99_vfscanf, "__isoc99_vfscanf"),
                          fp, fmt, ap);
}

int plain_fscanf(FILE *fp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int ret = vfscanf_common(trc_real(&real_vfscanf, "vfscanf"), fp, fmt, ap);
    va_end(ap);
    return ret;
}

int __isoc99_fscanf(FILE *fp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int ret = vfscanf_common(
        trc_real(&real_isoc99_vfscanf, "__isoc99_vfscanf"), fp, fmt, ap);
    va_end(ap);
    return ret;
}

/* --- seek, flush, fileno -------------------------------------------------------- */

static void *_Atomic real_fseek, *_Atomic real_fseeko, *_Atomic real_fseeko64,
    *_Atomic real_fsetpos, *_Atomic real_fsetpos64, *_Atomic real_rewind,
    *_Atomic real_fflush;

/* Book a seek that returned ret (0 = success) and restore errno. */
static void book_seek(FILE *fp, int ret, double t0)
{
    int err = errno;
    double t1 = trc_now();
    if (ret == 0)
        trc_stdio_seek(fp, stream_pos(fp), t0, t1);
    errno = err;
}

static int fseek_common(void *fn, FILE *fp, off_t off, int whence)
{
    int (*f)(FILE *, off_t, int) = fn;
    if (!f) {
        errno = ENOSYS;
        return -1;
    }
    if (!trc_active())
        return f(fp, off, whence);
    double t0 = trc_now();
    int ret = f(fp, off, whence);
    book_seek(fp, ret, t0);
    return ret;
}

int fseek(FILE *fp, long off, int whence)
{
    return fseek_common(trc_real(&real_fseek, "fseek"), fp, off, whence);
}

int fseeko(FILE *fp, off_t off, int whence)
{
    return fseek_common(trc_real(&real_fseeko, "fseeko"), fp, off, whence);
}

int fseeko64(FILE *fp, off64_t off, int whence)
{
    return fseek_common(trc_real(&real_fseeko64, "fseeko64"), fp, off, whence);
}

static int fsetpos_common(void *fn, FILE *fp, const void *pos)
{
    int (*f)(FILE *, const void *) = fn;
    if (!f) {
        errno = ENOSYS;
        return -1;
    }
    if (!trc_active())
        return f(fp, pos);
    double t0 = trc_now();
    int ret = f(fp, pos);
    book_seek(fp, ret, t0);
    return ret;
}

int fsetpos(FILE *fp, const fpos_t *pos)
{
    return fsetpos_common(trc_real(&real_fsetpos, "fsetpos"), fp, pos);
}

int fsetpos64(FILE *fp, const fpos64_t *pos)
{
    return fsetpos_common(trc_real(&real_fsetpos64, "fsetpos64"), fp, pos);
}

void rewind(FILE *fp)
{
    void (*f)(FILE *) = trc_real(&real_rewind, "rewind");
    if (!f)
        return;
    if (!trc_active()) {
        f(fp);
        return;
    }
    double t0 = trc_now();
    f(fp);
    book_seek(fp, 0, t0);
}

int fflush(FILE *fp)
{
    int (*f)(FILE *) = trc_real(&real_fflush, "fflush");
    if (!f) {
        errno = ENOSYS;
        return EOF;
    }
    if (!trc_active() || !fp) /* fflush(NULL): no one stream to book */
        return f(fp);
    double t0 = trc_now();
    int ret = f(fp);
    int err = errno;
    double t1 = trc_now();
    if (ret == 0)
        trc_stdio_flush(fp, t0, t1);
    errno = err;
    return ret;
}

int fileno(FILE *fp)
{
    int (*f)(FILE *) = trc_real(&real_fileno, "fileno");
    if (!f) {
        errno = ENOSYS;
        return -1;
    }
    int ret = f(fp);
    if (ret >= 0 && trc_active()) {
        int err = errno;
        trc_stdio_fileno(fp, ret);
        errno = err;
    }
    return ret;
}
