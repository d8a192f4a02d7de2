/*
 * src/gen/sweep.c - parse sweep files (format in gen.h), and the per-run
 * seed and split, which depend only on the run id so that they do not
 * change when a sweep is reordered or extended.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "gen.h"
#include "iosage/patterns.h"

/* Is s[0 .. n) the id of a registered pattern (iosage/patterns.h)? */
static int known_pattern(const char *s, size_t n)
{
    for (int i = 0; i < iosage_pattern_count(); i++) {
        const char *id = iosage_pattern_get(i)->id;
        if (strlen(id) == n && memcmp(id, s, n) == 0)
            return 1;
    }
    return 0;
}

/* 0 when labels is "healthy" or a comma list of known, distinct pattern ids;
 * else -1 with the offending label in bad. */
static int check_labels(const char *labels, char *bad, size_t bad_size)
{
    if (strcmp(labels, "healthy") == 0)
        return 0;
    const char *p = labels;
    while (*p) {
        size_t n = strcspn(p, ",");
        if (n == 0 || !known_pattern(p, n)) {
            snprintf(bad, bad_size, "%.*s", (int)n, p);
            return -1;
        }
        p += n;
        if (*p == ',')
            p++;
    }
    return 0;
}

static int valid_id(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
            return 0;
    return 1;
}

/* Parse an integer in [lo, hi]; -1 when it is not one. */
static long parse_int(const char *s, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    return v;
}

/* Split line (modified in place) into at most max whitespace tokens. */
static int tokenize(char *line, char **tok, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r\n", &save); t;
         t = strtok_r(NULL, " \t\r\n", &save)) {
        if (n == max)
            return -1;
        tok[n++] = t;
    }
    return n;
}

#define FIXED_FIELDS 6

/* Fill c from the tokens of one line. Returns 0 or -1 with msg set. */
static int parse_config(struct gen_config *c, char **tok, int n, char *msg,
                        size_t msg_size)
{
    char bad[128];
    if (n < FIXED_FIELDS) {
        snprintf(msg, msg_size, "expected CONFIG_ID KERNEL RANKS REPEATS "
                                "LABELS GROUP FLAGS..., got %d fields", n);
        return -1;
    }
    if (!valid_id(tok[0]) || strlen(tok[0]) >= sizeof c->id) {
        snprintf(msg, msg_size, "bad configuration id '%s'", tok[0]);
        return -1;
    }
    if (!valid_id(tok[1]) || strlen(tok[1]) >= sizeof c->kernel) {
        snprintf(msg, msg_size, "bad kernel name '%s'", tok[1]);
        return -1;
    }
    snprintf(c->id, sizeof c->id, "%s", tok[0]);
    snprintf(c->kernel, sizeof c->kernel, "%s", tok[1]);
    c->ranks = (int)parse_int(tok[2], 1, 1024);
    c->repeats = (int)parse_int(tok[3], 1, 1000);
    if (c->ranks < 0 || c->repeats < 0) {
        snprintf(msg, msg_size, "RANKS must be 1..1024 and REPEATS 1..1000");
        return -1;
    }
    if (strlen(tok[4]) >= sizeof c->labels ||
        check_labels(tok[4], bad, sizeof bad) != 0) {
        snprintf(msg, msg_size, "unknown label '%s' (pattern ids or healthy)",
                 bad);
        return -1;
    }
    snprintf(c->labels, sizeof c->labels, "%s", tok[4]);
    if (strcmp(tok[5], "train") != 0 && strcmp(tok[5], "ood") != 0) {
        snprintf(msg, msg_size, "GROUP must be train or ood, got '%s'", tok[5]);
        return -1;
    }
    c->ood = strcmp(tok[5], "ood") == 0;
    return 0;
}

/* Keep the flag tokens in one owned buffer. */
static int keep_flags(struct gen_config *c, char **tok, int n)
{
    size_t len = 0;
    for (int i = FIXED_FIELDS; i < n; i++)
        len += strlen(tok[i]) + 1;
    c->line = malloc(len + 1);
    if (!c->line)
        return -1;
    char *p = c->line;
    c->n_flags = 0;
    for (int i = FIXED_FIELDS; i < n; i++) {
        size_t l = strlen(tok[i]) + 1;
        memcpy(p, tok[i], l);
        c->flags[c->n_flags++] = p;
        p += l;
    }
    return 0;
}

static int duplicate_id(const struct gen_sweep *s, const char *id)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->configs[i].id, id) == 0)
            return 1;
    return 0;
}

/* Add the configuration on line text (already without comments). */
static iosage_status add_line(struct gen_sweep *s, size_t *cap, char *text,
                              int lineno, const char *path, iosage_error *err)
{
    char *tok[FIXED_FIELDS + GEN_MAX_FLAGS];
    int n = tokenize(text, tok, FIXED_FIELDS + GEN_MAX_FLAGS);
    if (n == 0)
        return IOSAGE_OK;
    if (n < 0)
        return ios_fail(err, IOSAGE_E_CORRUPT, path, NULL, -1,
                        "line %d: more than %d flags", lineno, GEN_MAX_FLAGS);
    if (s->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 64;
        struct gen_config *g = realloc(s->configs, nc * sizeof *g);
        if (!g)
            return ios_fail(err, IOSAGE_E_NOMEM, path, NULL, -1,
                            "out of memory");
        s->configs = g;
        *cap = nc;
    }
    struct gen_config *c = &s->configs[s->n];
    memset(c, 0, sizeof *c);
    char msg[200];
    if (parse_config(c, tok, n, msg, sizeof msg) != 0)
        return ios_fail(err, IOSAGE_E_CORRUPT, path, NULL, -1, "line %d: %s",
                        lineno, msg);
    if (duplicate_id(s, c->id))
        return ios_fail(err, IOSAGE_E_CORRUPT, path, NULL, -1,
                        "line %d: configuration id '%s' used twice", lineno,
                        c->id);
    if (keep_flags(c, tok, n) != 0)
        return ios_fail(err, IOSAGE_E_NOMEM, path, NULL, -1, "out of memory");
    c->lineno = lineno;
    s->n++;
    return IOSAGE_OK;
}

iosage_status gen_sweep_load(const char *path, struct gen_sweep **out,
                             iosage_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f) {
        iosage_status st = ios_fail(err, IOSAGE_E_IO, path, NULL, -1,
                                    "cannot open: %s", strerror(errno));
        if (err)
            err->sys_errno = errno;
        return st;
    }
    struct gen_sweep *s = calloc(1, sizeof *s);
    size_t cap = 0;
    char line[8192];
    int lineno = 0;
    iosage_status st = s ? IOSAGE_OK
                         : ios_fail(err, IOSAGE_E_NOMEM, path, NULL, -1,
                                    "out of memory");
    while (st == IOSAGE_OK && fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f))
            st = ios_fail(err, IOSAGE_E_LIMIT, path, NULL, -1,
                          "line %d: longer than %zu bytes", lineno,
                          sizeof line - 1);
        else {
            line[strcspn(line, "#")] = '\0';
            st = add_line(s, &cap, line, lineno, path, err);
        }
    }
    fclose(f);
    if (st == IOSAGE_OK && s->n == 0)
        st = ios_fail(err, IOSAGE_E_CORRUPT, path, NULL, -1,
                      "no configurations");
    if (st != IOSAGE_OK) {
        gen_sweep_free(s);
        return st;
    }
    *out = s;
    return IOSAGE_OK;
}

void gen_sweep_free(struct gen_sweep *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        free(s->configs[i].line);
    free(s->configs);
    free(s);
}

long gen_seed(const char *run_id)
{
    uint64_t h = iosage_darshan_hash(run_id, strlen(run_id));
    long seed = (long)(h & 0x7fffffff);
    return seed ? seed : 1;
}

const char *gen_split(const struct gen_config *c, const char *run_id)
{
    if (c->ood)
        return "ood";
    uint64_t h = iosage_darshan_hash(run_id, strlen(run_id)) >> 32;
    unsigned b = (unsigned)(h % 100);
    return b < 70 ? "train" : b < 85 ? "validation" : "test";
}
