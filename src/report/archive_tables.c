/*
 * src/report/archive_tables.c - the answers of `iosage archive QUERY` (one
 * query table of the archive database, iosage_archive_query) as text, CSV
 * or JSON.
 *
 *   text  aligned columns, numbers to the right, NULL as "-"; every cell
 *         cleaned as the report views clean strings (rep_clean: control
 *         characters and bytes that are not UTF-8 as \xNN), so an
 *         application name or a path taken from a log cannot drive the
 *         terminal;
 *   csv   a header row, then one row per result row; text cells through
 *         ios_csv_text (formula prefixes neutralized, control characters as
 *         \xHH), numbers as they are;
 *   json  an array of objects, numbers as numbers, NULL as null, strings
 *         exact.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "internal.h"
#include "ios_csv.h"

/* Cell (r, c) of t; r = -1 is the header. */
static const char *cell(const iosage_archive_table *t, long r, int c)
{
    if (r < 0)
        return t->cols[c];
    return t->cells[(size_t)r * (size_t)t->ncol + (size_t)c];
}

/* --- csv -------------------------------------------------------------------- */

/* A cell of a numeric column as it is (a negative number stays a number);
 * a text cell without formula prefix or control character (ios_csv.h). */
static void csv_cell(FILE *out, const char *s, int numeric)
{
    if (numeric && s)
        fputs(s, out);
    else
        ios_csv_text(out, s);
}

static void print_csv(FILE *out, const iosage_archive_table *t)
{
    for (long r = -1; r < (long)t->nrow; r++) {
        for (int c = 0; c < t->ncol; c++) {
            if (c)
                fputc(',', out);
            csv_cell(out, cell(t, r, c), r >= 0 && t->numeric[c]);
        }
        fputc('\n', out);
    }
}

/* --- json ------------------------------------------------------------------- */

/* A cell as a JSON value: a number in a numeric column, else a string;
 * null for NULL. */
static json_t *json_cell(const char *s, int numeric)
{
    if (!s)
        return json_null();
    if (numeric) {
        char *end;
        long long i = strtoll(s, &end, 10);
        if (*end == '\0')
            return json_integer(i);
        double d = strtod(s, &end);
        if (*end == '\0')
            return json_real(d);
    }
    return json_string(s);
}

static void print_json(FILE *out, const iosage_archive_table *t)
{
    json_t *rows = json_array();
    for (size_t r = 0; rows && r < t->nrow; r++) {
        json_t *o = json_object();
        for (int c = 0; o && c < t->ncol; c++)
            json_object_set_new(o, t->cols[c],
                                json_cell(cell(t, (long)r, c), t->numeric[c]));
        json_array_append_new(rows, o);
    }
    if (rows)
        json_dumpf(rows, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                                  JSON_REAL_PRECISION(10));
    fputc('\n', out);
    json_decref(rows);
}

/* --- text ------------------------------------------------------------------- */

/* Every cell cleaned, the header first; NULL cells as "-". NULL when out of
 * memory. */
static rep_out *clean_cells(const iosage_archive_table *t)
{
    size_t n = (t->nrow + 1) * (size_t)t->ncol;
    rep_out *v = calloc(n ? n : 1, sizeof *v);
    if (!v)
        return NULL;
    int oom = 0;
    for (long r = -1; r < (long)t->nrow; r++)
        for (int c = 0; c < t->ncol; c++) {
            rep_out *o = &v[(size_t)(r + 1) * (size_t)t->ncol + (size_t)c];
            const char *s = cell(t, r, c);
            rep_clean(o, s ? s : "-");
            oom |= o->oom;
        }
    if (oom) {
        for (size_t i = 0; i < n; i++)
            rep_out_free(&v[i]);
        free(v);
        return NULL;
    }
    return v;
}

static void print_text(FILE *out, const iosage_archive_table *t)
{
    rep_out *v = clean_cells(t);
    size_t *w = calloc((size_t)t->ncol + 1, sizeof *w);
    if (!v || !w) {
        free(v);
        free(w);
        fputs("iosage: out of memory\n", stderr);
        return;
    }
    size_t n = (t->nrow + 1) * (size_t)t->ncol;
    for (size_t i = 0; i < n; i++)
        if (v[i].len > w[i % (size_t)t->ncol])
            w[i % (size_t)t->ncol] = v[i].len;
    for (size_t r = 0; r <= t->nrow; r++) {
        for (int c = 0; c < t->ncol; c++) {
            const char *s = v[r * (size_t)t->ncol + (size_t)c].p;
            if (!s) /* an empty cell */
                s = "";
            int last = c == t->ncol - 1;
            if (t->numeric[c])
                fprintf(out, "%*s%s", (int)w[c], s, last ? "" : "  ");
            else if (last)
                fputs(s, out);
            else
                fprintf(out, "%-*s  ", (int)w[c], s);
        }
        fputc('\n', out);
    }
    for (size_t i = 0; i < n; i++)
        rep_out_free(&v[i]);
    free(v);
    free(w);
}

void iosage_report_archive_table(FILE *out, const iosage_archive_table *t,
                                 enum iosage_table_format format)
{
    if (format == IOSAGE_TABLE_CSV)
        print_csv(out, t);
    else if (format == IOSAGE_TABLE_JSON)
        print_json(out, t);
    else
        print_text(out, t);
}
