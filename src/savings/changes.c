/*
 * src/savings/changes.c - the changes file (bench/sweeps/hpc.changes): one
 * line per configuration and change, the kernel flags with the change
 * applied. Format in include/iosage/savings.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "ios_file.h"
#include "iosage/savings.h"
#include "iosage/validate.h"

#define MAX_CHANGES_BYTES (4 << 20)

/* The next blank-separated word of *p into out (at most size-1 bytes);
 * 0 when there is none, -1 when it is too long. */
static int next_word(char **p, char *out, size_t size)
{
    char *s = *p + strspn(*p, " \t");
    size_t n = strcspn(s, " \t");
    if (n == 0)
        return 0;
    if (n >= size)
        return -1;
    memcpy(out, s, n);
    out[n] = '\0';
    *p = s + n;
    return 1;
}

/* One non-comment line into c. */
static iosage_status parse_line(char *line, const char *path, int lineno,
                                struct iosage_savings_change *c,
                                iosage_error *err)
{
    char *p = line;
    memset(c, 0, sizeof *c);
    c->lineno = lineno;
    if (next_word(&p, c->config, sizeof c->config) != 1 ||
        next_word(&p, c->pattern, sizeof c->pattern) != 1 ||
        next_word(&p, c->change_id, sizeof c->change_id) != 1)
        return ios_fail(err, IOSAGE_E_CORRUPT, path, NULL, -1,
                        "line %d: expected CONFIG_ID PATTERN CHANGE_ID "
                        "[kernel=KERNEL] FLAGS...", lineno);
    if (!iosage_validate_known_change(c->pattern, c->change_id))
        return ios_fail(err, IOSAGE_E_CORRUPT, path, NULL, -1,
                        "line %d: '%s %s' is not a change id of "
                        "docs/report.md", lineno, c->pattern, c->change_id);
    char *rest = p + strspn(p, " \t");
    if (strncmp(rest, "kernel=", 7) == 0) {
        char word[80];
        if (next_word(&rest, word, sizeof word) != 1 || word[7] == '\0' ||
            strlen(word + 7) >= sizeof c->kernel)
            return ios_fail(err, IOSAGE_E_CORRUPT, path, NULL, -1,
                            "line %d: bad kernel=", lineno);
        snprintf(c->kernel, sizeof c->kernel, "%s", word + 7);
        rest += strspn(rest, " \t");
    }
    size_t n = strlen(rest);
    while (n > 0 && (rest[n - 1] == ' ' || rest[n - 1] == '\t'))
        rest[--n] = '\0';
    if (n >= sizeof c->flags)
        return ios_fail(err, IOSAGE_E_CORRUPT, path, NULL, -1,
                        "line %d: flags longer than %zu bytes", lineno,
                        sizeof c->flags - 1);
    memcpy(c->flags, rest, n + 1);
    return IOSAGE_OK;
}

iosage_status iosage_savings_changes_load(const char *path,
                                          struct iosage_savings_changes *out,
                                          iosage_error *err)
{
    memset(out, 0, sizeof *out);
    uint8_t *text = NULL;
    size_t len = 0;
    iosage_status st = ios_read_file(path, 1, &text, &len, err);
    if (st != IOSAGE_OK)
        return st;
    if (len > MAX_CHANGES_BYTES) {
        free(text);
        return ios_fail(err, IOSAGE_E_CORRUPT, path, NULL, -1,
                        "larger than %d bytes", MAX_CHANGES_BYTES);
    }
    size_t cap = 0;
    int lineno = 0;
    char *next = (char *)text;
    while (next && st == IOSAGE_OK) {
        char *line = next;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        line[strcspn(line, "\r")] = '\0';
        char *s = line + strspn(line, " \t");
        if (*s == '\0' || *s == '#')
            continue;
        if (out->n == cap) {
            cap = cap ? 2 * cap : 64;
            void *v = realloc(out->v, cap * sizeof *out->v);
            if (!v) {
                st = ios_fail(err, IOSAGE_E_NOMEM, path, NULL, -1,
                              "out of memory");
                break;
            }
            out->v = v;
        }
        st = parse_line(s, path, lineno, &out->v[out->n], err);
        if (st == IOSAGE_OK)
            out->n++;
    }
    free(text);
    if (st != IOSAGE_OK)
        iosage_savings_changes_free(out);
    return st;
}

void iosage_savings_changes_free(struct iosage_savings_changes *c)
{
    if (!c)
        return;
    free(c->v);
    c->v = NULL;
    c->n = 0;
}
