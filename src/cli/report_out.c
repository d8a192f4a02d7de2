/*
 * src/cli/report_out.c - one report document written as one view: the
 * colour decision of the text view, the rendering (src/report) and the
 * write, to -o FILE (whole or not at all) or to stdout (checked).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "ios_outfile.h"

/* Colour only the text view on a terminal, unless asked either way
 * (color 1 or 0) or NO_COLOR is set. */
static int want_color(int color, enum iosage_report_format format,
                      const char *output)
{
    if (color >= 0)
        return color;
    if (output || format != IOSAGE_REPORT_TEXT)
        return 0;
    const char *nc = getenv("NO_COLOR");
    return isatty(STDOUT_FILENO) && !(nc && nc[0]);
}

/* See cli.h. */
int cli_write_report(const json_t *doc, enum iosage_report_format format,
                     int color, const char *output)
{
    struct iosage_report_options o = {.color = want_color(color, format,
                                                          output)};
    iosage_error err;
    char *out = NULL;
    size_t len = 0;
    iosage_status st = iosage_report_render(doc, format, &o, &out, &len, &err);
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    int rc = CLI_OK;
    if (output) {
        rc = cli_write_file_atomic(output, out, len);
    } else if (fwrite(out, 1, len, stdout) != len || fflush(stdout) != 0) {
        ios_stdout_failed(errno); /* the line comes from the exit check */
        rc = CLI_INTERNAL;
    }
    free(out);
    return rc;
}
