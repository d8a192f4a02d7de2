/*
 * src/savings/table.c - DATASET/savings.tsv: one row per measured change
 * of one run, appended as a campaign finishes each configuration (so a
 * stopped campaign resumes where it was), read back for the savings labels
 * and the savings models.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ios_common.h"
#include "ios_file.h"
#include "ios_text.h"
#include "iosage/savings.h"

#define MAX_TABLE_BYTES (64 << 20)
#define NCOLS 15

static const char *const HEADER =
    "run_id\tconfig_id\tpattern\tchange_id\tsystem\tpairs\t"
    "io_base_s\tio_changed_s\tio_saving\tio_ratio_lo\tio_ratio_hi\t"
    "wall_base_s\twall_changed_s\twall_saving\tpays\n";

double iosage_savings_of_ratio(double r)
{
    return r > 0 ? 1.0 - 1.0 / r : NAN;
}

static int copy_word(char *dst, size_t size, const char *src)
{
    if (!src[0] || strlen(src) >= size)
        return -1;
    memcpy(dst, src, strlen(src) + 1);
    return 0;
}

static int number(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return end != s && *end == '\0' && errno == 0 ? 0 : -1;
}

/* One data line into r; -1 when it does not parse. */
static int parse_row(char *line, struct iosage_savings_row *r)
{
    char *c[NCOLS];
    memset(r, 0, sizeof *r);
    if (ios_split_tabs(line, c, NCOLS) < 15)
        return -1;
    double pairs, pays;
    if (copy_word(r->run_id, sizeof r->run_id, c[0]) ||
        copy_word(r->config, sizeof r->config, c[1]) ||
        copy_word(r->pattern, sizeof r->pattern, c[2]) ||
        copy_word(r->change_id, sizeof r->change_id, c[3]) ||
        copy_word(r->system, sizeof r->system, c[4]) ||
        number(c[5], &pairs) || number(c[6], &r->io_base_s) ||
        number(c[7], &r->io_changed_s) || number(c[8], &r->io_saving) ||
        number(c[9], &r->io_lo) || number(c[10], &r->io_hi) ||
        number(c[11], &r->wall_base_s) || number(c[12], &r->wall_changed_s) ||
        number(c[13], &r->wall_saving) || number(c[14], &pays))
        return -1;
    r->pairs = (int)pairs;
    r->pays = pays != 0;
    return 0;
}

iosage_status iosage_savings_table_load(const char *path,
                                        struct iosage_savings_table *out,
                                        iosage_error *err)
{
    memset(out, 0, sizeof *out);
    if (access(path, F_OK) != 0 && errno == ENOENT)
        return IOSAGE_OK;
    uint8_t *text = NULL;
    size_t len = 0, cap = 0;
    iosage_status st = ios_read_file(path, 1, &text, &len, err);
    if (st != IOSAGE_OK)
        return st;
    if (len > MAX_TABLE_BYTES) {
        free(text);
        return ios_fail(err, IOSAGE_E_CORRUPT, path, NULL, -1,
                        "larger than %d bytes", MAX_TABLE_BYTES);
    }
    char *next = (char *)text;
    int lineno = 0;
    while (next && *next && st == IOSAGE_OK) {
        char *line = next;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (++lineno == 1 || line[0] == '\0')
            continue; /* the header */
        if (out->n == cap) {
            cap = cap ? 2 * cap : 256;
            void *v = realloc(out->rows, cap * sizeof *out->rows);
            if (!v) {
                st = ios_fail(err, IOSAGE_E_NOMEM, path, NULL, -1,
                              "out of memory");
                break;
            }
            out->rows = v;
        }
        if (parse_row(line, &out->rows[out->n]) != 0)
            st = ios_fail(err, IOSAGE_E_CORRUPT, path, NULL, -1,
                          "line %d: not a savings row (docs/savings.md)",
                          lineno);
        else
            out->n++;
    }
    free(text);
    if (st != IOSAGE_OK)
        iosage_savings_table_free(out);
    return st;
}

void iosage_savings_table_free(struct iosage_savings_table *t)
{
    if (!t)
        return;
    free(t->rows);
    t->rows = NULL;
    t->n = 0;
}

int iosage_savings_table_has(const struct iosage_savings_table *t,
                             const char *config)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->rows[i].config, config) == 0)
            return 1;
    return 0;
}

iosage_status iosage_savings_table_append(const char *path,
                                          const struct iosage_savings_row *rows,
                                          size_t n, iosage_error *err)
{
    FILE *f = fopen(path, "a");
    if (!f)
        return ios_fail(err, IOSAGE_E_IO, path, NULL, -1, "cannot open: %s",
                        strerror(errno));
    if (ftell(f) == 0)
        fputs(HEADER, f);
    for (size_t i = 0; i < n; i++) {
        const struct iosage_savings_row *r = &rows[i];
        fprintf(f, "%s\t%s\t%s\t%s\t%s\t%d\t%.6f\t%.6f\t%.4f\t%.4f\t%.4f\t"
                   "%.4f\t%.4f\t%.4f\t%d\n",
                r->run_id, r->config, r->pattern, r->change_id, r->system,
                r->pairs, r->io_base_s, r->io_changed_s, r->io_saving,
                r->io_lo, r->io_hi, r->wall_base_s, r->wall_changed_s,
                r->wall_saving, r->pays);
    }
    int bad = fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0;
    int e = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad)
        return ios_fail(err, IOSAGE_E_IO, path, NULL, -1, "cannot write: %s",
                        strerror(e));
    return IOSAGE_OK;
}
