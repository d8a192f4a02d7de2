/*
 * pfs_profile.c - read a file system profile (profiles/NAME.pfs).
 *
 * A profile is text: one `key = value` per line, `#` starts a comment,
 * blank lines are ignored. Sizes take k/m/g suffixes (binary). Every key
 * is optional; a missing key keeps its default (pfs_profile_defaults).
 * Unknown keys and bad values are errors: a typo must not silently
 * leave a default in place.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pfs_model.h"

static const char *const md_names[PFS_MD_NOPS] = {
    "create", "open", "close", "stat", "unlink", "mkdir", "rmdir", "rename",
};

/* See pfs_model.h. */
const char *pfs_md_name(enum pfs_md_op op)
{
    return (op >= 0 && op < PFS_MD_NOPS) ? md_names[op] : "?";
}

/* See pfs_model.h. The defaults are the small HDD profile's figures
 * (profiles/lustre-hdd-small.pfs says where they come from). */
void pfs_profile_defaults(struct pfs_profile *p)
{
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "default");
    p->mds_count = 1;
    for (int i = 0; i < PFS_MD_NOPS; i++)
        p->md_us[i] = 100;
    p->net_latency_us = 50;
    p->client_mibs = 5000;
    p->ost_count = 12;
    p->ost_write_mibs = 500;
    p->ost_read_mibs = 500;
    p->ost_write_rpc_us = 1000;
    p->ost_read_rpc_us = 1000;
    p->ost_commit_us = 5000;
    p->rpc_size = 4u << 20;
    p->rpcs_in_flight = 8;
    p->lock_revoke_us = 200;
    p->dirty_max = 32u << 20;
    p->cache_size = 1u << 30;
    p->readahead_max = 64u << 20;
    p->stripe_count = 1;
    p->stripe_size = 1u << 20;
}

/* Parse a size ("4m", "1048576") into *out. 0 ok, -1 bad. */
static int parse_size(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno || *s == '-')
        return -1;
    uint64_t mul = 1;
    switch (*end) {
    case 'k': case 'K': mul = 1ull << 10; end++; break;
    case 'm': case 'M': mul = 1ull << 20; end++; break;
    case 'g': case 'G': mul = 1ull << 30; end++; break;
    default: break;
    }
    if (*end != '\0' || (mul > 1 && v > UINT64_MAX / mul))
        return -1;
    *out = (uint64_t)v * mul;
    return 0;
}

/* Parse a non-negative number into *out. 0 ok, -1 bad. */
static int parse_num(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno || !(v >= 0) || v > 1e12)
        return -1;
    *out = v;
    return 0;
}

/* Parse an integer in [lo, hi] into *out. 0 ok, -1 bad. */
static int parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

/* Set key to value in p. Returns 0, -1 for a bad value, -2 for an
 * unknown key. */
static int set_key(struct pfs_profile *p, const char *key, const char *val)
{
    if (strcmp(key, "name") == 0) {
        if (strlen(val) >= sizeof p->name)
            return -1;
        snprintf(p->name, sizeof p->name, "%s", val);
        return 0;
    }
    if (strncmp(key, "mds.", 4) == 0) {
        if (strcmp(key + 4, "count") == 0)
            return parse_int(val, 1, PFS_MAX_MDS, &p->mds_count);
        for (int i = 0; i < PFS_MD_NOPS; i++) {
            char name[32];
            snprintf(name, sizeof name, "%s_us", md_names[i]);
            if (strcmp(key + 4, name) == 0)
                return parse_num(val, &p->md_us[i]);
        }
        return -2;
    }
    struct { const char *key; double *num; } nums[] = {
        {"net.latency_us", &p->net_latency_us},
        {"client.mibs", &p->client_mibs},
        {"ost.write_mibs", &p->ost_write_mibs},
        {"ost.read_mibs", &p->ost_read_mibs},
        {"ost.write_rpc_us", &p->ost_write_rpc_us},
        {"ost.read_rpc_us", &p->ost_read_rpc_us},
        {"ost.write_seek_us", &p->ost_write_seek_us},
        {"ost.read_seek_us", &p->ost_read_seek_us},
        {"ost.commit_us", &p->ost_commit_us},
        {"lock.revoke_us", &p->lock_revoke_us},
    };
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        if (strcmp(key, nums[i].key) == 0)
            return parse_num(val, nums[i].num);
    struct { const char *key; uint64_t *size; } sizes[] = {
        {"rpc.size", &p->rpc_size},
        {"client.dirty_max", &p->dirty_max},
        {"client.cache", &p->cache_size},
        {"client.readahead_max", &p->readahead_max},
        {"stripe.size", &p->stripe_size},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(key, sizes[i].key) == 0)
            return parse_size(val, sizes[i].size);
    if (strcmp(key, "ost.count") == 0)
        return parse_int(val, 1, PFS_MAX_OST, &p->ost_count);
    if (strcmp(key, "rpc.in_flight") == 0)
        return parse_int(val, 1, PFS_RING / 2, &p->rpcs_in_flight);
    if (strcmp(key, "stripe.count") == 0)
        return parse_int(val, -1, PFS_MAX_STRIPES, &p->stripe_count);
    return -2;
}

/* Strip leading and trailing blanks in place; returns the start. */
static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

/* Checks that hold between keys, after the whole text was read. */
static int check_profile(const struct pfs_profile *p, char *err,
                         size_t errsize)
{
    const char *bad = NULL;
    if (p->ost_write_mibs <= 0 || p->ost_read_mibs <= 0 || p->client_mibs <= 0)
        bad = "bandwidths must be above 0";
    else if (p->rpc_size < 4096 || p->rpc_size > (64u << 20))
        bad = "rpc.size must be between 4k and 64m";
    else if (p->stripe_size < 65536 || p->stripe_size % 65536)
        bad = "stripe.size must be a multiple of 64k";
    else if (p->stripe_count == 0 || p->stripe_count > p->ost_count)
        bad = "stripe.count must be -1 or 1..ost.count";
    else if (p->dirty_max < p->rpc_size)
        bad = "client.dirty_max must be at least rpc.size";
    if (!bad)
        return 0;
    snprintf(err, errsize, "%s", bad);
    return -1;
}

/* See pfs_model.h. */
int pfs_profile_parse(struct pfs_profile *p, const char *text, char *err,
                      size_t errsize)
{
    pfs_profile_defaults(p);
    int lineno = 0;
    const char *s = text;
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        char line[512];
        lineno++;
        if (n >= sizeof line) {
            snprintf(err, errsize, "line %d: longer than %zu characters",
                     lineno, sizeof line - 1);
            return -1;
        }
        memcpy(line, s, n);
        line[n] = '\0';
        s += n + (nl ? 1 : 0);
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *body = trim(line);
        if (*body == '\0')
            continue;
        char *eq = strchr(body, '=');
        if (!eq) {
            snprintf(err, errsize, "line %d: expected `key = value`", lineno);
            return -1;
        }
        *eq = '\0';
        char *key = trim(body), *val = trim(eq + 1);
        int rc = set_key(p, key, val);
        if (rc == -2) {
            snprintf(err, errsize, "line %d: unknown key '%s'", lineno, key);
            return -1;
        }
        if (rc < 0) {
            snprintf(err, errsize, "line %d: bad value '%s' for %s", lineno,
                     val, key);
            return -1;
        }
    }
    return check_profile(p, err, errsize);
}

/* See pfs_model.h. The file is read with the raw open/read so that the
 * preload library can call this from inside its own wrappers. */
int pfs_profile_load(struct pfs_profile *p, const char *path, char *err,
                     size_t errsize)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errsize, "cannot open: %s", strerror(errno));
        return -1;
    }
    char text[16384];
    size_t n = 0;
    for (;;) {
        ssize_t r = read(fd, text + n, sizeof text - 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
        if (n == sizeof text - 1)
            break;
    }
    close(fd);
    if (n == sizeof text - 1) {
        snprintf(err, errsize, "larger than %zu bytes", sizeof text - 2);
        return -1;
    }
    text[n] = '\0';
    if (memchr(text, '\0', n)) {
        snprintf(err, errsize, "not a text file");
        return -1;
    }
    return pfs_profile_parse(p, text, err, errsize);
}
