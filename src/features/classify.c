/*
 * src/features/classify.c - which files are data files (LABELING.md): not
 * the standard streams, and not system files (/proc, /sys, /dev, /etc,
 * shared libraries, Python and Java runtimes, caches, MPI session files).
 * Named pipes cannot be told from a path and count as data files.
 */
#include <string.h>

#include "ios_features.h"

static int has_prefix(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static int has_suffix(const char *s, size_t n, const char *suf)
{
    size_t k = strlen(suf);
    return n >= k && memcmp(s + n - k, suf, k) == 0;
}

/* "libx.so", "libx.so.1", "libx.so.1.2.3". */
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
    "/usr/share/", "/usr/bin/", "/usr/include/", "/usr/local/lib",
    "/bin/", "/sbin/", "/var/cache/", "/var/lib/", "/run/", "/tmp/ompi.",
    NULL};

static const char *const system_parts[] = {
    "/site-packages/", "/dist-packages/", "/lib/python", "/__pycache__/",
    "/.cache/", "/.nv/ComputeCache/", "/jre/", "/jvm/", "/lib-dynload/",
    NULL};

static const char *const system_suffixes[] = {
    ".py", ".pyc", ".pyo", ".pth", ".jar", ".class", "/pyvenv.cfg", NULL};

unsigned ios_classify_path(const char *path)
{
    if (!path || !*path)
        return 0;
    if (!strcmp(path, "<STDIN>") || !strcmp(path, "<STDOUT>") ||
        !strcmp(path, "<STDERR>"))
        return IOSAGE_FILE_STREAM;
    size_t n = strlen(path);
    for (int i = 0; system_prefixes[i]; i++)
        if (has_prefix(path, system_prefixes[i]))
            return IOSAGE_FILE_SYSTEM;
    for (int i = 0; system_parts[i]; i++)
        if (strstr(path, system_parts[i]))
            return IOSAGE_FILE_SYSTEM;
    for (int i = 0; system_suffixes[i]; i++)
        if (has_suffix(path, n, system_suffixes[i]))
            return IOSAGE_FILE_SYSTEM;
    if (is_shared_library(path, n))
        return IOSAGE_FILE_SYSTEM;
    return 0;
}
