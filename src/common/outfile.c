/*
 * outfile.c - output files written whole or not at all (a temporary file
 * beside the output, renamed into place), and stdout checked at exit
 * (ios_outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ios_outfile.h"

/* Open a new temporary file beside o->path into o->tmp and o->f. Its mode
 * is the output's when that exists, else 0666 less the umask (mkstemp
 * creates 0600). 0 or an errno value. */
static int open_temp(struct ios_outfile *o, const struct stat *old)
{
    size_t len = strlen(o->path) + sizeof ".tmp.XXXXXX";
    if (!(o->tmp = malloc(len)))
        return ENOMEM;
    snprintf(o->tmp, len, "%s.tmp.XXXXXX", o->path);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;
        free(o->tmp);
        o->tmp = NULL;
        return e;
    }
    mode_t mode;
    if (old) {
        mode = old->st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(fd, mode) == 0 && (o->f = fdopen(fd, "w")) != NULL)
        return 0;
    int e = errno;
    close(fd);
    unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
    return e;
}

/* See ios_outfile.h. */
int ios_outfile_open(struct ios_outfile *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    struct stat st;
    if (stat(path, &st) != 0)
        return errno == ENOENT ? open_temp(o, NULL) : errno;
    if (S_ISDIR(st.st_mode))
        return EISDIR;
    if (S_ISREG(st.st_mode))
        return open_temp(o, &st);
    /* a device, a FIFO, a terminal: written in place */
    o->f = fopen(path, "w");
    return o->f ? 0 : errno;
}

/* See ios_outfile.h. */
int ios_outfile_commit(struct ios_outfile *o)
{
    int e = 0;
    if (fflush(o->f) != 0)
        e = errno;
    else if (ferror(o->f))
        e = EIO;
    if (fclose(o->f) != 0 && e == 0)
        e = errno;
    o->f = NULL;
    if (o->tmp) {
        if (e == 0 && rename(o->tmp, o->path) != 0)
            e = errno;
        if (e != 0)
            unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
    }
    return e;
}

/* See ios_outfile.h. */
void ios_outfile_abort(struct ios_outfile *o)
{
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    if (o->tmp) {
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
    }
}

/* See ios_outfile.h. */
int ios_outfile_write(const char *path, const void *data, size_t len)
{
    struct ios_outfile o;
    int e = ios_outfile_open(&o, path);
    if (e != 0)
        return e;
    if (len > 0 && fwrite(data, 1, len, o.f) != len) {
        e = errno ? errno : EIO;
        ios_outfile_abort(&o);
        return e;
    }
    return ios_outfile_commit(&o);
}

/* The reason of the first failed write to stdout that a caller noticed
 * (ios_stdout_failed), for ios_close_stdout when glibc has already dropped
 * the data it could not write and only the error flag is left. */
static int stdout_errno;

/* See ios_outfile.h. */
void ios_stdout_failed(int e)
{
    if (stdout_errno == 0)
        stdout_errno = e ? e : EIO;
}

/* See ios_outfile.h. */
int ios_close_stdout(void)
{
    errno = 0;
    int e = 0;
    if (fflush(stdout) != 0)
        e = stdout_errno ? stdout_errno : errno ? errno : EIO;
    else if (ferror(stdout) || stdout_errno)
        e = stdout_errno ? stdout_errno : EIO;
    if (fclose(stdout) != 0 && e == 0 && errno != EBADF)
        e = errno ? errno : EIO;
    return e;
}
