/*
 * src/cli/cmd_pfs.c - `iosage pfs`: striping on the emulated parallel file
 * system (pfs/, docs/pfs.md), set the way users set it on Lustre.
 *
 *   iosage pfs setstripe [-c N] [-S SIZE] [-i INDEX] PATH
 *   iosage pfs getstripe PATH
 *   iosage pfs script JOBSCRIPT     apply its `lfs setstripe` lines
 *
 * A layout is the extended attribute user.iosage.stripe, "COUNT SIZE" on a
 * directory (the default of the files created in it) and "COUNT SIZE
 * FIRST" on a file (FIRST -1: the emulator picks the first target). The
 * emulator (pfs/src/pfs_emu.c) reads the same attribute; as on Lustre, a
 * file's layout is fixed once it has one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cli/cli.h"

#define LAYOUT_ATTR "user.iosage.stripe"

static void pfs_help(void)
{
    fputs("Usage: iosage pfs setstripe [-c COUNT] [-S SIZE] [-i INDEX] PATH\n"
          "       iosage pfs getstripe PATH\n"
          "       iosage pfs script JOBSCRIPT\n"
          "\n"
          "Striping on the emulated parallel file system (docs/pfs.md), as\n"
          "`lfs setstripe` sets it on Lustre. On a directory: the default of\n"
          "the files created in it later. On a path that does not exist: an\n"
          "empty file with that layout. A file that has a layout keeps it.\n"
          "\n"
          "  -c, --stripe-count N   targets per file; -1 every target (default 1)\n"
          "  -S, --stripe-size SIZE bytes per stripe, a multiple of 64k (default 1m)\n"
          "  -i, --stripe-index N   the first target (files only; default: chosen)\n"
          "\n"
          "`script` applies every `lfs setstripe` line of a job script, with\n"
          "$VAR and ${VAR} taken from the environment.\n"
          "\n"
          "Exit status: 0 ok; 2 usage error; 3 a path could not be set or read.\n",
          stdout);
}

/* Parse a size with k/m/g suffix. 0 ok, -1 bad. */
static int parse_size(const char *s, unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno || *s == '-')
        return -1;
    unsigned long long mul = 1;
    if (*end == 'k' || *end == 'K')
        mul = 1ull << 10;
    else if (*end == 'm' || *end == 'M')
        mul = 1ull << 20;
    else if (*end == 'g' || *end == 'G')
        mul = 1ull << 30;
    if (mul > 1)
        end++;
    if (*end || v > (1ull << 42) / mul)
        return -1;
    *out = v * mul;
    return 0;
}

/* A layout request as the options give it. */
struct stripe_req {
    int count;                  /* -1 every target, else 1..1024 */
    unsigned long long size;
    int index;                  /* -1: chosen by the emulator */
};

/* Read the options of one setstripe into r; returns the index of PATH in
 * argv, or -1 after a usage error (message in err). */
static int parse_setstripe(int argc, char **argv, struct stripe_req *r,
                           char *err, size_t errsize)
{
    *r = (struct stripe_req){1, 1u << 20, -1};
    int i = 0;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end;
        if (!v) {
            snprintf(err, errsize, "%s needs a value", o);
            return -1;
        }
        i++;
        if (!strcmp(o, "-c") || !strcmp(o, "--stripe-count")) {
            long c = strtol(v, &end, 10);
            if (*end || end == v || c == 0 || c < -1 || c > 1024) {
                snprintf(err, errsize, "bad stripe count '%s' (-1 or 1..1024)", v);
                return -1;
            }
            r->count = (int)c;
        } else if (!strcmp(o, "-S") || !strcmp(o, "--stripe-size")) {
            if (parse_size(v, &r->size) < 0 || r->size < 65536 ||
                r->size % 65536) {
                snprintf(err, errsize, "bad stripe size '%s' (a multiple of 64k)", v);
                return -1;
            }
        } else if (!strcmp(o, "-i") || !strcmp(o, "--stripe-index")) {
            long x = strtol(v, &end, 10);
            if (*end || end == v || x < -1 || x > 65535) {
                snprintf(err, errsize, "bad stripe index '%s'", v);
                return -1;
            }
            r->index = (int)x;
        } else {
            snprintf(err, errsize, "unknown setstripe option '%s'", o);
            return -1;
        }
    }
    if (i != argc - 1) {
        snprintf(err, errsize, "setstripe takes one PATH");
        return -1;
    }
    return i;
}

/* Set the layout r on path. CLI_OK, or CLI_BADINPUT after one line. */
static int apply(const struct stripe_req *r, const char *path)
{
    char val[96];
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        int n = snprintf(val, sizeof val, "%d %llu", r->count, r->size);
        if (setxattr(path, LAYOUT_ATTR, val, (size_t)n, 0) < 0) {
            fprintf(stderr, "iosage: %s: cannot set the directory layout: %s\n",
                    path, strerror(errno));
            return CLI_BADINPUT;
        }
        return CLI_OK;
    }
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    if (fd < 0) {
        fprintf(stderr, "iosage: %s: %s\n", path, strerror(errno));
        return CLI_BADINPUT;
    }
    int n = snprintf(val, sizeof val, "%d %llu %d", r->count, r->size, r->index);
    int rc = CLI_OK;
    if (fsetxattr(fd, LAYOUT_ATTR, val, (size_t)n, XATTR_CREATE) < 0) {
        if (errno == EEXIST)
            fprintf(stderr, "iosage: %s: has a layout already (a file's layout "
                    "cannot change; copy it to a new file)\n", path);
        else
            fprintf(stderr, "iosage: %s: cannot set the layout: %s\n", path,
                    strerror(errno));
        rc = CLI_BADINPUT;
    }
    close(fd);
    return rc;
}

/* `iosage pfs getstripe PATH`. */
static int getstripe(const char *path)
{
    char val[96];
    ssize_t n = getxattr(path, LAYOUT_ATTR, val, sizeof val - 1);
    if (n < 0) {
        if (errno == ENODATA) {
            printf("%s: no layout of its own (its directory's default or the "
                   "profile's applies)\n", path);
            return CLI_OK;
        }
        fprintf(stderr, "iosage: %s: %s\n", path, strerror(errno));
        return CLI_BADINPUT;
    }
    val[n] = '\0';
    int count = 0, first = -1;
    unsigned long long size = 0;
    int k = sscanf(val, "%d %llu %d", &count, &size, &first);
    if (k < 2) {
        fprintf(stderr, "iosage: %s: unreadable layout '%s'\n", path, val);
        return CLI_BADINPUT;
    }
    printf("%s: stripe_count=%d stripe_size=%llu", path, count, size);
    if (k == 3)
        printf(" stripe_index=%d", first);
    putchar('\n');
    return CLI_OK;
}

/* Expand $VAR and ${VAR} of in into out (size PATH_MAX). */
static void expand_vars(const char *in, char *out, size_t size)
{
    size_t n = 0;
    while (*in && n + 1 < size) {
        if (*in != '$') {
            out[n++] = *in++;
            continue;
        }
        in++;
        int brace = *in == '{';
        if (brace)
            in++;
        char name[128];
        size_t k = 0;
        while ((*in == '_' || (*in >= 'A' && *in <= 'Z') ||
                (*in >= 'a' && *in <= 'z') || (*in >= '0' && *in <= '9')) &&
               k + 1 < sizeof name)
            name[k++] = *in++;
        name[k] = '\0';
        if (brace && *in == '}')
            in++;
        const char *v = getenv(name);
        for (; v && *v && n + 1 < size; v++)
            out[n++] = *v;
    }
    out[n] = '\0';
}

/* `iosage pfs script FILE`: every `lfs setstripe` line. */
static int script(const char *file)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        fprintf(stderr, "iosage: %s: %s\n", file, strerror(errno));
        return CLI_BADINPUT;
    }
    char line[4096];
    int lineno = 0, rc = CLI_OK, applied = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *p = strstr(line, "lfs setstripe");
        char *hash = strchr(line, '#');
        if (!p || (hash && hash < p))
            continue;
        char *comment = strstr(p, " #");
        if (comment)
            *comment = '\0';
        char expanded[PATH_MAX];
        expand_vars(p + strlen("lfs setstripe"), expanded, sizeof expanded);
        char *argv[32];
        int argc = 0;
        for (char *tok = strtok_r(expanded, " \t\r\n;&|", &p);
             tok && argc < 32; tok = strtok_r(NULL, " \t\r\n;&|", &p))
            argv[argc++] = tok;
        struct stripe_req r;
        char err[256];
        int at = parse_setstripe(argc, argv, &r, err, sizeof err);
        if (at < 0) {
            fprintf(stderr, "iosage: %s: line %d: %s\n", file, lineno, err);
            rc = CLI_BADINPUT;
            continue;
        }
        int one = apply(&r, argv[at]);
        if (one != CLI_OK)
            rc = one;
        else
            applied++;
    }
    fclose(f);
    printf("%s: %d lfs setstripe line%s applied\n", file, applied,
           applied == 1 ? "" : "s");
    return rc;
}

/* See cli.h. */
int cmd_pfs(int argc, char **argv)
{
    if (argc < 2 || cli_is_help(argv[1])) {
        if (argc < 2)
            return cli_usage_error("pfs", "pfs needs a subcommand: setstripe, "
                                   "getstripe or script");
        pfs_help();
        return CLI_OK;
    }
    const char *sub = argv[1];
    if (argc >= 3 && cli_is_help(argv[2])) {
        pfs_help();
        return CLI_OK;
    }
    if (!strcmp(sub, "setstripe")) {
        struct stripe_req r;
        char err[256];
        int at = parse_setstripe(argc - 2, argv + 2, &r, err, sizeof err);
        if (at < 0)
            return cli_usage_error("pfs", "%s", err);
        return apply(&r, argv[2 + at]);
    }
    if (!strcmp(sub, "getstripe")) {
        if (argc != 3)
            return cli_usage_error("pfs", "getstripe takes one PATH");
        return getstripe(argv[2]);
    }
    if (!strcmp(sub, "script")) {
        if (argc != 3)
            return cli_usage_error("pfs", "script takes one JOBSCRIPT");
        return script(argv[2]);
    }
    return cli_usage_error("pfs", "unknown pfs subcommand '%s'", sub);
}
