/*
 * summary.c - the rows of the summary block, shared by every view.
 *
 * rep_summary_row(o, sum, i) appends the plain text of row i and returns
 * its label; the view escapes the text and lays the rows out its own way.
 */
#include <stdio.h>

#include <string.h>

#include "internal.h"

/* The strings of array a joined with ", " ("none" when empty). */
static void join(rep_out *o, const json_t *a)
{
    size_t i;
    const json_t *v;
    if (json_array_size(a) == 0)
        rep_puts(o, "none");
    json_array_foreach(a, i, v)
        rep_printf(o, "%s%s", i ? ", " : "", json_is_string(v) ? json_string_value(v) : "n/a");
}

static void row_io(rep_out *o, const json_t *sum)
{
    char a[48], b[48];
    rep_printf(o, "%s summed over ranks; the slowest rank spends %s of the run in I/O",
               rep_field_secs(a, sizeof a, sum, "io_time"),
               rep_field_pct(b, sizeof b, sum, "io_time_share"));
}

static void row_data(rep_out *o, const json_t *sum)
{
    char a[48], b[48], c[48], d[48], e[48];
    rep_printf(o, "%s read (%s), %s written (%s), metadata %s",
               rep_field_bytes(a, sizeof a, sum, "bytes_read"),
               rep_field_secs(b, sizeof b, sum, "read_time"),
               rep_field_bytes(c, sizeof c, sum, "bytes_written"),
               rep_field_secs(d, sizeof d, sum, "write_time"),
               rep_field_secs(e, sizeof e, sum, "meta_time"));
}

static void row_files(rep_out *o, const json_t *sum)
{
    char a[48], b[48];
    rep_printf(o, "%s (%s with data)", rep_field_count(a, sizeof a, sum, "files"),
               rep_field_count(b, sizeof b, sum, "data_files"));
}

static void row_fs(rep_out *o, const json_t *sum)
{
    const json_t *fs = rep_arr(sum, "file_systems");
    size_t i;
    const json_t *v;
    if (json_array_size(fs) == 0)
        rep_puts(o, "none recorded");
    json_array_foreach(fs, i, v) {
        const char *m = rep_str(v, "mount"), *t = rep_str(v, "type");
        rep_printf(o, "%s%s (%s)", i ? ", " : "", m ? m : "n/a", t ? t : "n/a");
    }
}

/* "lo-hi", or "lo" alone when both print the same */
static void range(rep_out *o, const char *lo, const char *hi)
{
    if (strcmp(lo, hi) == 0)
        rep_puts(o, lo);
    else
        rep_printf(o, "%s-%s", lo, hi);
}

static void row_lustre(rep_out *o, const json_t *lu)
{
    char a[32], b[32], c[32], d[32], e[32];
    double files = 0;
    rep_num(lu, "files", &files);
    rep_printf(o, "%s file%s, stripe count ",
               rep_field_count(a, sizeof a, lu, "files"), files == 1 ? "" : "s");
    range(o, rep_field_count(b, sizeof b, lu, "stripe_count_min"),
          rep_field_count(c, sizeof c, lu, "stripe_count_max"));
    rep_puts(o, ", stripe size ");
    range(o, rep_field_bytes(d, sizeof d, lu, "stripe_size_min"),
          rep_field_bytes(e, sizeof e, lu, "stripe_size_max"));
}

const char *rep_summary_row(rep_out *o, const json_t *sum, int i)
{
    switch (i) {
    case 0: row_io(o, sum); return "I/O time";
    case 1: row_data(o, sum); return "Data";
    case 2: row_files(o, sum); return "Files";
    case 3: join(o, rep_arr(sum, "modules")); return "Modules";
    case 4: row_fs(o, sum); return "File systems";
    case 5: join(o, rep_arr(sum, "mpiio_hints")); return "MPI-IO hints";
    case 6:
        if (!rep_obj(sum, "lustre"))
            return "";
        row_lustre(o, rep_obj(sum, "lustre"));
        return "Lustre";
    }
    return NULL;
}
