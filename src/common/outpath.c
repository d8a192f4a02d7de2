/*
 * outpath.c - is an output path one of the command's inputs? Device and
 * inode when both files exist, the normalised absolute path otherwise
 * (ios_outpath.h).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ios_outpath.h"

/* Fold "." and ".." components and repeated slashes of the absolute path
 * p in place: "/a/./b//../c" becomes "/a/c". */
static void fold_components(char *p)
{
    size_t o = 0;
    for (size_t i = 0; p[i];) {
        while (p[i] == '/')
            i++;
        size_t n = strcspn(p + i, "/");
        if (n == 0)
            break;
        if (n == 1 && p[i] == '.') {
            /* "." names the same directory */
        } else if (n == 2 && p[i] == '.' && p[i + 1] == '.') {
            while (o > 0 && p[--o] != '/')
                ;
        } else {
            p[o++] = '/';
            memmove(p + o, p + i, n);
            o += n;
        }
        i += n;
    }
    if (o == 0)
        p[o++] = '/';
    p[o] = '\0';
}

/* The absolute, normalised form of path into buf (PATH_MAX bytes): the
 * path with symbolic links resolved when it exists; else its resolved
 * directory and its last component; else the path made absolute with the
 * working directory and folded. 0, or -1 when it does not fit. */
static int normalise(const char *path, char *buf)
{
    if (realpath(path, buf))
        return 0;
    char joined[2 * PATH_MAX];
    size_t used = 0;
    if (path[0] != '/') {
        if (!getcwd(joined, PATH_MAX))
            return -1;
        used = strlen(joined);
        joined[used++] = '/';
    }
    size_t n = strlen(path);
    if (used + n + 1 > sizeof joined)
        return -1;
    memcpy(joined + used, path, n + 1);
    fold_components(joined);
    /* the directory may exist (and hold symbolic links) when the file
     * does not */
    char *slash = strrchr(joined, '/');
    char dir[PATH_MAX];
    if (slash && slash != joined) {
        *slash = '\0';
        if (realpath(joined, dir) && strlen(dir) + strlen(slash + 1) + 2 <=
                                         PATH_MAX) {
            size_t d = strlen(dir), f = strlen(slash + 1);
            memcpy(buf, dir, d);
            buf[d] = '/';
            memcpy(buf + d + 1, slash + 1, f + 1);
            return 0;
        }
        *slash = '/';
    }
    size_t j = strlen(joined);
    if (j + 1 > PATH_MAX)
        return -1;
    memcpy(buf, joined, j + 1);
    return 0;
}

/* See ios_outpath.h. */
int ios_same_file(const char *out, const char *in)
{
    struct stat so, si;
    int out_exists = stat(out, &so) == 0, in_exists = stat(in, &si) == 0;
    if (out_exists && in_exists)
        return so.st_dev == si.st_dev && so.st_ino == si.st_ino;
    if (out_exists != in_exists)
        return 0;
    char a[PATH_MAX], b[PATH_MAX];
    if (normalise(out, a) != 0 || normalise(in, b) != 0)
        return strcmp(out, in) == 0;
    return strcmp(a, b) == 0;
}

/* See ios_outpath.h. */
int ios_path_within(const char *path, const char *dir)
{
    char p[PATH_MAX], d[PATH_MAX];
    if (normalise(path, p) != 0 || normalise(dir, d) != 0)
        return 0;
    size_t n = strlen(d);
    if (n == 1) /* the root holds everything */
        return 1;
    return strncmp(p, d, n) == 0 && (p[n] == '/' || p[n] == '\0');
}

/* See ios_outpath.h. */
long ios_output_clash(const char *out, int out_is_dir,
                      const char *const *inputs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!inputs[i])
            continue;
        if (out_is_dir ? ios_path_within(inputs[i], out)
                       : ios_same_file(out, inputs[i]))
            return (long)i;
    }
    return -1;
}
