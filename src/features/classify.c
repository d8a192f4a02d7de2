/*
 * src/features/classify.c - which files are data files (LABELING.md): not
 * the standard streams, and not system files (/proc, /sys, /dev, /etc,
 * shared libraries, Python and Java runtimes, caches, MPI session files).
 * Named pipes cannot be told from a path and count as data files.
 */
#include <string.h>

#include "ios_features.h"

/* A prefix, part or suffix and its length. */
struct affix {
    const char *s;
    size_t n;
};
#define AFFIX(lit) {lit, sizeof lit - 1}

/* s (length n) starts with a; a's second byte is compared first (every
 * prefix starts with '/'), so most prefixes cost two loads. */
static int has_prefix(const char *s, size_t n, const struct affix *a)
{
    return n >= a->n && s[1] == a->s[1] && memcmp(s, a->s, a->n) == 0;
}

static int has_suffix(const char *s, size_t n, const struct affix *a)
{
    return n >= a->n && memcmp(s + n - a->n, a->s, a->n) == 0;
}

/* "libx.so", "libx.so.1", "libx.so.1.2.3". */
static int is_shared_library(const char *s, size_t n)
{
    static const struct affix so = AFFIX(".so");
    if (has_suffix(s, n, &so))
        return 1;
    const char *p = strstr(s, ".so.");
    if (!p)
        return 0;
    for (p += 4; *p; p++)
        if ((*p < '0' || *p > '9') && *p != '.')
            return 0;
    return 1;
}

static const struct affix system_prefixes[] = {
    AFFIX("/proc/"), AFFIX("/sys/"), AFFIX("/dev/"), AFFIX("/etc/"),
    AFFIX("/lib/"), AFFIX("/lib64/"), AFFIX("/usr/lib"), AFFIX("/usr/share/"),
    AFFIX("/usr/bin/"), AFFIX("/usr/include/"), AFFIX("/usr/local/lib"),
    AFFIX("/bin/"), AFFIX("/sbin/"), AFFIX("/var/cache/"), AFFIX("/var/lib/"),
    AFFIX("/run/"), AFFIX("/tmp/ompi.")};

/* Each begins with '/' (has_system_part relies on it). */
static const struct affix system_parts[] = {
    AFFIX("/site-packages/"), AFFIX("/dist-packages/"), AFFIX("/lib/python"),
    AFFIX("/__pycache__/"), AFFIX("/.cache/"), AFFIX("/.nv/ComputeCache/"),
    AFFIX("/jre/"), AFFIX("/jvm/"), AFFIX("/lib-dynload/")};

static const struct affix system_suffixes[] = {
    AFFIX(".py"), AFFIX(".pyc"), AFFIX(".pyo"), AFFIX(".pth"), AFFIX(".jar"),
    AFFIX(".class"), AFFIX("/pyvenv.cfg")};

#define COUNT(a) (sizeof (a) / sizeof *(a))

/* 1 when one of system_parts occurs anywhere in s (length n). They all
 * begin with '/', so they are tried only where s has a slash: one pass over
 * the path instead of a strstr a part. */
static int has_system_part(const char *s, size_t n)
{
    for (const char *p = memchr(s, '/', n); p;
         p = memchr(p + 1, '/', (size_t)(s + n - p - 1))) {
        size_t left = (size_t)(s + n - p);
        for (size_t i = 0; i < COUNT(system_parts); i++) {
            const struct affix *a = &system_parts[i];
            if (left >= a->n && p[1] == a->s[1] && memcmp(p, a->s, a->n) == 0)
                return 1;
        }
    }
    return 0;
}

unsigned ios_classify_path(const char *path)
{
    if (!path || !*path)
        return 0;
    if (!strcmp(path, "<STDIN>") || !strcmp(path, "<STDOUT>") ||
        !strcmp(path, "<STDERR>"))
        return IOSAGE_FILE_STREAM;
    size_t n = strlen(path);
    if (path[0] == '/')
        for (size_t i = 0; i < COUNT(system_prefixes); i++)
            if (has_prefix(path, n, &system_prefixes[i]))
                return IOSAGE_FILE_SYSTEM;
    if (has_system_part(path, n))
        return IOSAGE_FILE_SYSTEM;
    for (size_t i = 0; i < COUNT(system_suffixes); i++)
        if (has_suffix(path, n, &system_suffixes[i]))
            return IOSAGE_FILE_SYSTEM;
    if (is_shared_library(path, n))
        return IOSAGE_FILE_SYSTEM;
    return 0;
}
