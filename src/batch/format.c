/*
 * src/batch/format.c - a batch row as CSV, as a JSON line, and as the exact
 * JSON line the MPI front end passes between ranks (and reads back).
 *
 * Columns, in this order (CSV header names; JSON keys are the same, with the
 * patterns in one "patterns" object):
 *   file, status (ok|partial|error), error, job_id, uid, exe, nprocs,
 *   run_time, io_time, io_time_share, bytes_read, bytes_written, healthy,
 *   gate_score, <pattern>_score and <pattern>_detected for every registered
 *   pattern, top_pattern, top_evidence, best_change, best_saving,
 *   best_saving_seconds (the change of a detected pattern with the largest
 *   predicted saving; empty or null without a savings model),
 *   criteria_only (the patterns the written criteria find and the models
 *   do not report: ids joined with ';' in CSV, an array in JSON).
 * An error row has only file, status and error; the other CSV cells are
 * empty and the JSON object leaves them out. Reals print with 6 significant
 * digits ("%.6g", jansson's precision 6); a non-finite real is an empty cell
 * or null.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "ios_json.h"
#include "ios_csv.h"
#include "iosage/batch.h"

#define JSON_PUBLIC (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6))
#define JSON_EXACT (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))

static const char *const status_names[] = {"ok", "partial", "error"};

/* --- CSV ------------------------------------------------------------------ */

/* One text cell: no formula prefix, no control character, quoted when it
 * holds a comma or a quote (src/common/csv.c, docs/batch.md). */
static void csv_text(FILE *out, const char *s)
{
    ios_csv_text(out, s);
}

static void csv_real(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.6g", v);
}

int iosage_batch_write_header(FILE *out, int format)
{
    if (format != IOSAGE_BATCH_CSV)
        return 0;
    fputs("file,status,error,job_id,uid,exe,nprocs,run_time,io_time,"
          "io_time_share,bytes_read,bytes_written,healthy,gate_score",
          out);
    for (int k = 0; k < iosage_pattern_count(); k++) {
        const char *id = iosage_pattern_get(k)->id;
        fprintf(out, ",%s_score,%s_detected", id, id);
    }
    fputs(",top_pattern,top_evidence,best_change,best_saving,"
          "best_saving_seconds,criteria_only\n", out);
    return ferror(out) ? -1 : 0;
}

/* The criteria_only cell: pattern ids joined with ';' (no quoting needed). */
static void csv_criteria(FILE *out, const struct iosage_batch_row *r)
{
    int n = 0;
    for (int k = 0; k < r->n_patterns; k++)
        if (r->criteria_only[k])
            fprintf(out, "%s%s", n++ ? ";" : "", iosage_pattern_get(k)->id);
}

static int write_csv(FILE *out, const struct iosage_batch_row *r)
{
    csv_text(out, r->file);
    fprintf(out, ",%s,", status_names[r->status]);
    csv_text(out, r->error);
    if (r->status == IOSAGE_BATCH_ERROR) {
        for (int k = 0; k < 11 + 2 * iosage_pattern_count() + 6; k++)
            putc(',', out);
        putc('\n', out);
        return ferror(out) ? -1 : 0;
    }
    fprintf(out, ",%lld,%lld,", (long long)r->job_id, (long long)r->uid);
    csv_text(out, r->exe);
    fprintf(out, ",%lld,", (long long)r->nprocs);
    csv_real(out, r->run_time);
    putc(',', out);
    csv_real(out, r->io_time);
    putc(',', out);
    csv_real(out, r->io_time_share);
    fprintf(out, ",%lld,%lld,%d,", (long long)r->bytes_read,
            (long long)r->bytes_written, r->healthy);
    csv_real(out, r->gate_score);
    for (int k = 0; k < r->n_patterns; k++) {
        putc(',', out);
        csv_real(out, r->score[k]);
        fprintf(out, ",%d", r->detected[k]);
    }
    putc(',', out);
    if (r->top_pattern >= 0)
        fputs(iosage_pattern_get(r->top_pattern)->id, out);
    putc(',', out);
    csv_text(out, r->evidence);
    fprintf(out, ",%s,", r->best_change);
    csv_real(out, r->best_saving);
    putc(',', out);
    csv_real(out, r->best_saving_s);
    putc(',', out);
    csv_criteria(out, r);
    putc('\n', out);
    return ferror(out) ? -1 : 0;
}

/* --- JSON ----------------------------------------------------------------- */

static int put(json_t *o, const char *key, json_t *v)
{
    return v ? json_object_set_new(o, key, v) : -1;
}

static json_t *real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* A JSON string, or null for NULL (row strings are valid UTF-8). */
static json_t *text(const char *s)
{
    return s ? json_string(s) : json_null();
}

static int put_patterns(json_t *o, const struct iosage_batch_row *r)
{
    json_t *pats = json_object();
    if (put(o, "patterns", pats) != 0)
        return -1;
    int bad = 0;
    for (int k = 0; k < r->n_patterns; k++) {
        json_t *p = json_object();
        bad |= put(pats, iosage_pattern_get(k)->id, p);
        if (!p)
            break;
        bad |= put(p, "score", real(r->score[k]));
        bad |= put(p, "detected", json_boolean(r->detected[k]));
        if (r->detected[k])
            bad |= put(p, "saving", real(r->saving[k]));
    }
    return bad ? -1 : 0;
}

/* The row as a JSON object; with_index adds "index" (the exact form). */
static json_t *row_json(const struct iosage_batch_row *r, int with_index)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    int bad = 0;
    if (with_index)
        bad |= put(o, "index", json_integer((json_int_t)r->index));
    bad |= put(o, "file", text(r->file));
    bad |= put(o, "status", json_string(status_names[r->status]));
    bad |= put(o, "error", text(r->error));
    if (r->status != IOSAGE_BATCH_ERROR) {
        bad |= put(o, "job_id", json_integer(r->job_id));
        bad |= put(o, "uid", json_integer(r->uid));
        bad |= put(o, "exe", text(r->exe));
        bad |= put(o, "nprocs", json_integer(r->nprocs));
        bad |= put(o, "run_time", real(r->run_time));
        bad |= put(o, "io_time", real(r->io_time));
        bad |= put(o, "io_time_share", real(r->io_time_share));
        bad |= put(o, "bytes_read", json_integer(r->bytes_read));
        bad |= put(o, "bytes_written", json_integer(r->bytes_written));
        bad |= put(o, "healthy", json_boolean(r->healthy));
        bad |= put(o, "gate_score", real(r->gate_score));
        bad |= put_patterns(o, r);
        bad |= put(o, "top_pattern",
                   r->top_pattern >= 0
                       ? json_string(iosage_pattern_get(r->top_pattern)->id)
                       : json_null());
        bad |= put(o, "top_evidence", text(r->evidence));
        bad |= put(o, "best_change",
                   r->best_change[0] ? json_string(r->best_change)
                                     : json_null());
        bad |= put(o, "best_saving", real(r->best_saving));
        bad |= put(o, "best_saving_seconds", real(r->best_saving_s));
        json_t *only = json_array();
        for (int k = 0; only && k < r->n_patterns; k++)
            if (r->criteria_only[k])
                bad |= json_array_append_new(
                           only, json_string(iosage_pattern_get(k)->id)) != 0;
        bad |= put(o, "criteria_only", only);
    }
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

int iosage_batch_write_row(FILE *out, int format,
                           const struct iosage_batch_row *row)
{
    if (format == IOSAGE_BATCH_CSV)
        return write_csv(out, row);
    json_t *o = row_json(row, 0);
    char *s = o ? ios_json_dumps(o, JSON_PUBLIC) : NULL;
    json_decref(o);
    if (!s)
        return -1;
    fputs(s, out);
    putc('\n', out);
    free(s);
    return ferror(out) ? -1 : 0;
}

int iosage_batch_row_render(struct iosage_batch_row *row, int format)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return -1;
    int bad = iosage_batch_write_row(f, format, row) != 0;
    bad |= fclose(f) != 0;
    if (bad) {
        free(text);
        return -1;
    }
    free(row->text);
    row->text = text;
    row->text_len = len;
    return 0;
}

char *iosage_batch_row_serialize(const struct iosage_batch_row *row)
{
    json_t *o = row_json(row, 1);
    char *s = o ? ios_json_dumps(o, JSON_EXACT) : NULL;
    json_decref(o);
    return s;
}

/* --- reading the exact form back ------------------------------------------- */

/* A malloc'd copy of string member key of o, NULL when null or absent.
 * Sets *bad when it is neither a string nor null, or out of memory. */
static char *get_text(const json_t *o, const char *key, int *bad)
{
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return NULL;
    if (!json_is_string(v)) {
        *bad = 1;
        return NULL;
    }
    char *s = ios_utf8_fix(json_string_value(v));
    if (!s)
        *bad = 1;
    return s;
}

static int64_t get_int(const json_t *o, const char *key, int *bad)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_integer(v)) {
        *bad = 1;
        return 0;
    }
    return (int64_t)json_integer_value(v);
}

static double get_real(const json_t *o, const char *key, int *bad)
{
    const json_t *v = json_object_get(o, key);
    if (json_is_null(v))
        return NAN;
    if (!json_is_number(v)) {
        *bad = 1;
        return 0;
    }
    return json_number_value(v);
}

static int get_bool(const json_t *o, const char *key, int *bad)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_boolean(v)) {
        *bad = 1;
        return 0;
    }
    return json_is_true(v);
}

/* The fields of an ok or partial row. */
static void parse_fields(const json_t *o, struct iosage_batch_row *r, int *bad)
{
    r->job_id = get_int(o, "job_id", bad);
    r->uid = get_int(o, "uid", bad);
    r->exe = get_text(o, "exe", bad);
    r->nprocs = get_int(o, "nprocs", bad);
    r->run_time = get_real(o, "run_time", bad);
    r->io_time = get_real(o, "io_time", bad);
    r->io_time_share = get_real(o, "io_time_share", bad);
    r->bytes_read = get_int(o, "bytes_read", bad);
    r->bytes_written = get_int(o, "bytes_written", bad);
    r->healthy = get_bool(o, "healthy", bad);
    r->gate_score = get_real(o, "gate_score", bad);
    const json_t *pats = json_object_get(o, "patterns");
    r->n_patterns = iosage_pattern_count();
    for (int k = 0; k < r->n_patterns && !*bad; k++) {
        const json_t *p = json_object_get(pats, iosage_pattern_get(k)->id);
        r->score[k] = get_real(p, "score", bad);
        r->detected[k] = get_bool(p, "detected", bad);
        r->saving[k] = r->detected[k] ? get_real(p, "saving", bad) : NAN;
    }
    const json_t *top = json_object_get(o, "top_pattern");
    r->top_pattern = json_is_string(top)
                         ? iosage_pattern_index(json_string_value(top))
                         : -1;
    if (json_is_string(top) && r->top_pattern < 0)
        *bad = 1;
    r->evidence = get_text(o, "top_evidence", bad);
    char *best = get_text(o, "best_change", bad);
    snprintf(r->best_change, sizeof r->best_change, "%s", best ? best : "");
    free(best);
    r->best_saving = get_real(o, "best_saving", bad);
    r->best_saving_s = get_real(o, "best_saving_seconds", bad);
    const json_t *only = json_object_get(o, "criteria_only");
    size_t i;
    const json_t *id;
    if (!json_is_array(only))
        *bad = 1;
    json_array_foreach(only, i, id) {
        int k = iosage_pattern_index(json_string_value(id));
        if (k < 0 || k >= r->n_patterns)
            *bad = 1;
        else
            r->criteria_only[k] = 1;
    }
}

iosage_status iosage_batch_row_parse(const char *text,
                                     struct iosage_batch_row *row,
                                     iosage_error *err)
{
    iosage_batch_row_clear(row);
    json_error_t jerr;
    json_t *o = json_loads(text, 0, &jerr);
    if (!o)
        return ios_fail(err, IOSAGE_E_CORRUPT, NULL, "batch row", -1,
                        "not JSON: %s", jerr.text);
    int bad = !json_is_object(o);
    row->index = (size_t)get_int(o, "index", &bad);
    row->file = get_text(o, "file", &bad);
    row->error = get_text(o, "error", &bad);
    const char *st = json_string_value(json_object_get(o, "status"));
    row->status = -1;
    for (int i = 0; st && i < 3; i++)
        if (strcmp(st, status_names[i]) == 0)
            row->status = i;
    bad |= row->status < 0 || !row->file;
    if (!bad && row->status != IOSAGE_BATCH_ERROR)
        parse_fields(o, row, &bad);
    json_decref(o);
    if (bad) {
        iosage_batch_row_clear(row);
        return ios_fail(err, IOSAGE_E_CORRUPT, NULL, "batch row", -1,
                        "a field is missing or of the wrong type");
    }
    return IOSAGE_OK;
}
