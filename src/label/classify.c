/*
 * src/label/classify.c - data files versus streams and system files
 * (LABELING.md "Data files"): the standard streams, and files under /proc,
 * /sys, /dev, /etc, shared libraries, Python and Java runtimes and caches.
 * A named pipe cannot be told from its path: it counts as a data file.
 */
#include <string.h>

#include "label/internal.h"

static int has_prefix(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static int has_suffix(const char *s, size_t n, const char *suf)
{
    size_t k = strlen(suf);
    return n >= k && memcmp(s + n - k, suf, k) == 0;
}

/* "libx.so", "libx.so.1", "libx.so.1.2.3" */
static int is_shared_library(const char *s, size_t n)
{
    if (has_suffix(s, n, ".so"))
        return 1;
    const char *p = strstr(s, ".so.");
    if (!p)
        return 0;
    for (p += 4; *p; p++)
        if ((*p < '0' || *p > '9') && *p != '.')
            return 0;
    return 1;
}

static const char *const system_prefixes[] = {
    "/proc/", "/sys/", "/dev/", "/etc/", "/lib/", "/lib64/", "/usr/lib",
    "/usr/share/", "/usr/bin/", "/usr/include/", "/usr/local/lib", "/bin/",
    "/sbin/", "/var/cache/", "/var/lib/", "/run/", NULL};

static const char *const system_parts[] = {
    "/site-packages/", "/dist-packages/", "/lib/python", "/__pycache__/",
    "/.cache/", "/.nv/ComputeCache/", "/jre/", "/jvm/", "/lib-dynload/",
    "/ompi.", NULL};

static const char *const system_suffixes[] = {
    ".py", ".pyc", ".pyo", ".pth", ".jar", ".class", "/pyvenv.cfg", NULL};

int lb_classify_path(const char *path)
{
    if (!path || !*path)
        return LB_DATA;
    if (!strcmp(path, "<STDIN>") || !strcmp(path, "<STDOUT>") ||
        !strcmp(path, "<STDERR>"))
        return LB_STREAM;
    size_t n = strlen(path);
    for (int i = 0; system_prefixes[i]; i++)
        if (has_prefix(path, system_prefixes[i]))
            return LB_SYSTEM;
    for (int i = 0; system_parts[i]; i++)
        if (strstr(path, system_parts[i]))
            return LB_SYSTEM;
    for (int i = 0; system_suffixes[i]; i++)
        if (has_suffix(path, n, system_suffixes[i]))
            return LB_SYSTEM;
    return is_shared_library(path, n) ? LB_SYSTEM : LB_DATA;
}
