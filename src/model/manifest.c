/*
 * src/model/manifest.c - DATASET/manifest.tsv as a table of text cells
 * (iosage/model.h): the one reader of the file `iosage gen` writes, used
 * by the dataset loader (features and labels), the savings models (which
 * configurations are labeled healthy) and the savings campaign (each
 * configuration's first run, its seed and its file system).
 *
 * The file is read whole; every cell points into that text. Columns are
 * found by their header names, so added columns break no reader.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "ios_file.h"
#include "ios_text.h"
#include "iosage/model.h"

#define MAX_LINE (1 << 20) /* bytes of one manifest line */
#define MAX_COLS 64

void iosage_manifest_free(iosage_manifest *m)
{
    if (!m)
        return;
    free(m->text);
    free(m->names);
    free(m->cells);
    free(m->n_cells);
    free(m->lineno);
    free(m);
}

/* Count the lines of text (the last may lack its newline). */
static size_t count_lines(const char *text)
{
    size_t n = 0;
    for (const char *p = text; *p; n++) {
        const char *nl = strchr(p, '\n');
        if (!nl)
            return n + 1;
        p = nl + 1;
    }
    return n;
}

/* Cut the next line off *next (NUL-terminated, without "\r\n"); NULL at
 * the end. */
static char *next_line(char **next, size_t *len)
{
    char *line = *next;
    if (!line || !*line)
        return NULL;
    char *nl = strchr(line, '\n');
    *len = nl ? (size_t)(nl - line) : strlen(line);
    *next = nl ? nl + 1 : NULL;
    if (nl)
        *nl = '\0';
    line[strcspn(line, "\r")] = '\0';
    return line;
}

static iosage_status allocate(iosage_manifest *m, size_t lines,
                              const char *path, iosage_error *err)
{
    m->names = calloc(MAX_COLS, sizeof *m->names);
    m->cells = calloc((lines ? lines : 1) * MAX_COLS, sizeof *m->cells);
    m->n_cells = calloc(lines ? lines : 1, sizeof *m->n_cells);
    m->lineno = calloc(lines ? lines : 1, sizeof *m->lineno);
    if (!m->names || !m->cells || !m->n_cells || !m->lineno)
        return ios_fail(err, IOSAGE_E_NOMEM, path, "", -1, "no memory");
    return IOSAGE_OK;
}

static iosage_status parse(iosage_manifest *m, const char *path,
                           iosage_error *err)
{
    char *next = m->text, *line;
    size_t len = 0, lineno = 0;
    while ((line = next_line(&next, &len)) != NULL) {
        lineno++;
        if (len > MAX_LINE)
            return ios_fail(err, IOSAGE_E_LIMIT, path, "", -1,
                            "line %zu: longer than %d bytes", lineno,
                            MAX_LINE);
        if (lineno == 1) {
            m->n_cols = ios_split_tabs(line, m->names, MAX_COLS);
            continue;
        }
        if (line[strspn(line, " \t")] == '\0')
            continue; /* blank lines hold no run */
        char **cells = m->cells + m->n_rows * MAX_COLS;
        m->n_cells[m->n_rows] = ios_split_tabs(line, cells, MAX_COLS);
        m->lineno[m->n_rows] = lineno;
        m->n_rows++;
    }
    if (lineno == 0)
        return ios_fail(err, IOSAGE_E_CORRUPT, path, "", -1, "empty manifest");
    return IOSAGE_OK;
}

iosage_status iosage_manifest_load(const char *dir, iosage_manifest **out,
                                   iosage_error *err)
{
    char path[4096];
    *out = NULL;
    if (!dir || snprintf(path, sizeof path, "%s/manifest.tsv", dir) >=
                    (int)sizeof path)
        return ios_fail(err, IOSAGE_E_USAGE, dir, "", -1, "bad dataset path");
    iosage_manifest *m = calloc(1, sizeof *m);
    if (!m)
        return ios_fail(err, IOSAGE_E_NOMEM, path, "", -1, "no memory");
    uint8_t *text = NULL;
    size_t len = 0;
    iosage_status st = ios_read_file(path, 1, &text, &len, err);
    m->text = (char *)text;
    if (st == IOSAGE_OK)
        st = allocate(m, count_lines(m->text), path, err);
    if (st == IOSAGE_OK)
        st = parse(m, path, err);
    if (st != IOSAGE_OK) {
        iosage_manifest_free(m);
        return st;
    }
    snprintf(m->path, sizeof m->path, "%s", path);
    *out = m;
    return IOSAGE_OK;
}

int iosage_manifest_column(const iosage_manifest *m, const char *name)
{
    for (int i = 0; m && i < m->n_cols; i++)
        if (strcmp(m->names[i], name) == 0)
            return i;
    return -1;
}

const char *iosage_manifest_cell(const iosage_manifest *m, size_t row, int col)
{
    if (!m || row >= m->n_rows || col < 0 || col >= m->n_cells[row])
        return NULL;
    return m->cells[row * MAX_COLS + (size_t)col];
}
