/*
 * src/validate/scenario.c - read a scenario file of bench/scenarios (format
 * in include/iosage/validate.h).
 *
 * The whole text is copied once into s->text and cut in place: every flag
 * is a pointer into it, so the scenario is one allocation plus its text.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "iosage/label.h"
#include "iosage/patterns.h"
#include "iosage/validate.h"

#define SCENARIO_MAX_BYTES (64 * 1024)

_Static_assert(IOSAGE_VALIDATE_NPATTERNS == IOSAGE_LABEL_NPATTERNS,
               "validate keeps one slot per labeler pattern");

/* The change ids of docs/report.md: each pattern's, in the registry. */
int iosage_validate_known_change(const char *pattern, const char *change_id)
{
    return iosage_pattern_change_find(iosage_pattern_find(pattern), change_id) != NULL;
}

static int known_pattern(const char *id)
{
    for (int i = 0; i < IOSAGE_VALIDATE_NPATTERNS; i++)
        if (strcmp(iosage_label_pattern_id(i), id) == 0)
            return 1;
    return 0;
}

/* 1 when s is a non-empty name of [A-Za-z0-9_.-] shorter than size. */
static int valid_name(const char *s, size_t size)
{
    size_t n = strlen(s);
    if (n == 0 || n >= size)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("_.-", s[i]))
            return 0;
    return 1;
}

/* Cut line into blank-separated words (in place). Returns the word count,
 * or -1 when there are more than max. */
static int split_words(char *line, char **words, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (!*p)
            return n;
        if (n == max)
            return -1;
        words[n++] = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r')
            p++;
        if (*p)
            *p++ = '\0';
    }
}

struct parse_state {
    struct iosage_validate_scenario *s;
    const char *path;
    int lineno;
    iosage_error *err;
    int seen_name, seen_kernel, seen_ranks, seen_patterns, seen_baseline;
};

static iosage_status bad(struct parse_state *ps, const char *what,
                         const char *arg)
{
    return ios_fail(ps->err, IOSAGE_E_CORRUPT, NULL, NULL, -1, "%s:%d: %s%s%s",
                    ps->path, ps->lineno, what, arg ? " " : "",
                    arg ? arg : "");
}

static iosage_status take_flags(struct parse_state *ps, char **words, int n,
                                struct iosage_validate_flags *f)
{
    if (n > IOSAGE_VALIDATE_MAX_ARGS)
        return bad(ps, "too many flags (at most 64)", NULL);
    f->n = n;
    for (int i = 0; i < n; i++)
        f->v[i] = words[i];
    return IOSAGE_OK;
}

/* "patterns a,b" or "patterns healthy". */
static iosage_status take_patterns(struct parse_state *ps, char *list)
{
    struct iosage_validate_scenario *s = ps->s;
    if (strcmp(list, "healthy") == 0) {
        s->healthy = 1;
        return IOSAGE_OK;
    }
    for (char *p = list; p && *p;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (!known_pattern(p))
            return bad(ps, "unknown pattern", p);
        if (s->n_patterns == IOSAGE_VALIDATE_NPATTERNS)
            return bad(ps, "a pattern is listed twice:", p);
        for (int i = 0; i < s->n_patterns; i++)
            if (strcmp(s->patterns[i], p) == 0)
                return bad(ps, "a pattern is listed twice:", p);
        snprintf(s->patterns[s->n_patterns++], sizeof s->patterns[0], "%s", p);
        p = comma ? comma + 1 : NULL;
    }
    if (s->n_patterns == 0)
        return bad(ps, "patterns needs pattern ids or 'healthy'", NULL);
    return IOSAGE_OK;
}

static iosage_status take_change(struct parse_state *ps, char **w, int n)
{
    struct iosage_validate_scenario *s = ps->s;
    if (n < 3)
        return bad(ps, "change needs PATTERN CHANGE_ID (and flags)", NULL);
    if (!iosage_validate_known_change(w[1], w[2])) {
        char pair[120];
        snprintf(pair, sizeof pair, "%s %s (docs/report.md)", w[1], w[2]);
        return bad(ps, "unknown change id", pair);
    }
    if (iosage_validate_scenario_find(s, w[1], w[2]))
        return bad(ps, "change listed twice:", w[2]);
    if (s->n_changes == IOSAGE_VALIDATE_MAX_CHANGES)
        return bad(ps, "too many changes (at most 16)", NULL);
    struct iosage_validate_change *c = &s->changes[s->n_changes];
    snprintf(c->pattern, sizeof c->pattern, "%s", w[1]);
    snprintf(c->change_id, sizeof c->change_id, "%s", w[2]);
    c->lineno = ps->lineno;
    int first = 3; /* the first flag */
    if (n > 3 && strncmp(w[3], "kernel=", 7) == 0) {
        if (!valid_name(w[3] + 7, sizeof c->kernel))
            return bad(ps, "kernel= must name a plain program:", w[3]);
        snprintf(c->kernel, sizeof c->kernel, "%s", w[3] + 7);
        first = 4;
    }
    iosage_status st = take_flags(ps, w + first, n - first, &c->flags);
    if (st == IOSAGE_OK)
        s->n_changes++;
    return st;
}

/* A directive that takes exactly one value: name, kernel, ranks, patterns. */
static iosage_status take_single(struct parse_state *ps, char **w, int n)
{
    struct iosage_validate_scenario *s = ps->s;
    if (n != 2)
        return bad(ps, w[0], "takes exactly one value");
    if (strcmp(w[0], "name") == 0) {
        if (!valid_name(w[1], sizeof s->name))
            return bad(ps, "name must be [A-Za-z0-9_.-]:", w[1]);
        snprintf(s->name, sizeof s->name, "%s", w[1]);
        ps->seen_name++;
    } else if (strcmp(w[0], "kernel") == 0) {
        if (!valid_name(w[1], sizeof s->kernel))
            return bad(ps, "kernel must be a plain program name:", w[1]);
        snprintf(s->kernel, sizeof s->kernel, "%s", w[1]);
        ps->seen_kernel++;
    } else if (strcmp(w[0], "ranks") == 0) {
        char *end;
        errno = 0;
        long r = strtol(w[1], &end, 10);
        if (errno || *end || r < 1 || r > 1024)
            return bad(ps, "ranks must be 1..1024, got", w[1]);
        s->ranks = (int)r;
        ps->seen_ranks++;
    } else {
        ps->seen_patterns++;
        return take_patterns(ps, w[1]);
    }
    return IOSAGE_OK;
}

/* One line (already cut out of the text). */
static iosage_status parse_line(struct parse_state *ps, char *line)
{
    char *w[IOSAGE_VALIDATE_MAX_ARGS + 4];
    int n = split_words(line, w, IOSAGE_VALIDATE_MAX_ARGS + 4);
    if (n < 0)
        return bad(ps, "too many words", NULL);
    if (n == 0 || w[0][0] == '#')
        return IOSAGE_OK;
    if (strcmp(w[0], "change") == 0)
        return take_change(ps, w, n);
    if (strcmp(w[0], "baseline") == 0) {
        ps->seen_baseline++;
        return take_flags(ps, w + 1, n - 1, &ps->s->baseline);
    }
    if (strcmp(w[0], "name") == 0 || strcmp(w[0], "kernel") == 0 ||
        strcmp(w[0], "ranks") == 0 || strcmp(w[0], "patterns") == 0)
        return take_single(ps, w, n);
    return bad(ps, "unknown directive", w[0]);
}

/* Every required directive once. */
static iosage_status check_complete(struct parse_state *ps)
{
    const char *names[] = {"name", "kernel", "ranks", "patterns", "baseline"};
    int seen[] = {ps->seen_name, ps->seen_kernel, ps->seen_ranks,
                  ps->seen_patterns, ps->seen_baseline};
    for (int i = 0; i < 5; i++) {
        if (seen[i] == 1)
            continue;
        return ios_fail(ps->err, IOSAGE_E_CORRUPT, NULL, NULL, -1,
                        "%s: '%s' %s", ps->path, names[i],
                        seen[i] ? "given more than once" : "is missing");
    }
    return IOSAGE_OK;
}

iosage_status iosage_validate_scenario_parse(
    const char *text, const char *path, struct iosage_validate_scenario **out,
    iosage_error *err)
{
    *out = NULL;
    struct iosage_validate_scenario *s = calloc(1, sizeof *s);
    if (!s || !(s->text = strdup(text))) {
        free(s);
        return ios_fail(err, IOSAGE_E_NOMEM, path, NULL, -1, "out of memory");
    }
    snprintf(s->path, sizeof s->path, "%s", path);
    struct parse_state ps = {s, path, 0, err, 0, 0, 0, 0, 0};
    iosage_status st = IOSAGE_OK;
    for (char *p = s->text; p && st == IOSAGE_OK;) {
        char *eol = strchr(p, '\n');
        if (eol)
            *eol = '\0';
        ps.lineno++;
        st = parse_line(&ps, p);
        p = eol ? eol + 1 : NULL;
    }
    if (st == IOSAGE_OK)
        st = check_complete(&ps);
    for (size_t i = 0; st == IOSAGE_OK && i < s->n_changes; i++)
        if (!s->changes[i].kernel[0])
            snprintf(s->changes[i].kernel, sizeof s->changes[i].kernel, "%s",
                     s->kernel);
    if (st != IOSAGE_OK) {
        iosage_validate_scenario_free(s);
        return st;
    }
    *out = s;
    return IOSAGE_OK;
}

iosage_status iosage_validate_scenario_load(
    const char *path, struct iosage_validate_scenario **out, iosage_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return ios_fail(err, IOSAGE_E_IO, path, NULL, -1, "cannot open: %s",
                        strerror(errno));
    char *buf = malloc(SCENARIO_MAX_BYTES + 1);
    size_t n = buf ? fread(buf, 1, SCENARIO_MAX_BYTES + 1, f) : 0;
    int failed = ferror(f);
    fclose(f);
    if (!buf)
        return ios_fail(err, IOSAGE_E_NOMEM, path, NULL, -1, "out of memory");
    iosage_status st;
    if (failed)
        st = ios_fail(err, IOSAGE_E_IO, path, NULL, -1, "cannot read");
    else if (n > SCENARIO_MAX_BYTES)
        st = ios_fail(err, IOSAGE_E_LIMIT, path, NULL, -1,
                      "larger than %d bytes", SCENARIO_MAX_BYTES);
    else if (memchr(buf, '\0', n))
        st = ios_fail(err, IOSAGE_E_CORRUPT, path, NULL, -1,
                      "not a text file (NUL byte)");
    else {
        buf[n] = '\0';
        st = iosage_validate_scenario_parse(buf, path, out, err);
    }
    free(buf);
    return st;
}

void iosage_validate_scenario_free(struct iosage_validate_scenario *s)
{
    if (!s)
        return;
    free(s->text);
    free(s);
}

const struct iosage_validate_change *iosage_validate_scenario_find(
    const struct iosage_validate_scenario *s, const char *pattern,
    const char *change_id)
{
    for (size_t i = 0; i < s->n_changes; i++)
        if (strcmp(s->changes[i].pattern, pattern) == 0 &&
            strcmp(s->changes[i].change_id, change_id) == 0)
            return &s->changes[i];
    return NULL;
}
