/*
 * src/cli/cmd_dump.c - `iosage dump`: a log as darshan-parser (or, with
 * --dxt, darshan-dxt-parser) prints it, with the same flags.
 *
 * Unlike darshan-parser, a log that cannot be read completely never exits 0:
 * what could be read is printed, then one line on stderr says what could not
 * be read, and the exit status is 3. A log read completely whose content is
 * doubtful (not a whole number of records, ranks outside the job) prints as
 * stored, with one warning line on stderr, and exits 0.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ios_outfile.h"
#include "iosage/darshan.h"
#include "iosage/dump.h"

static void dump_help(void)
{
    fputs("Usage: iosage dump [--all|--base|--total|--file|--perf|--dxt]\n"
          "                   [--show-incomplete] LOG\n"
          "\n"
          "Print LOG in the text format of darshan-parser 3.5.0 (or of\n"
          "darshan-dxt-parser with --dxt), line for line.\n"
          "\n"
          "  --base             counters of every record (the default)\n"
          "  --total            aggregate counters per module (total_*)\n"
          "  --file             file counts per module\n"
          "  --perf             performance estimates per module\n"
          "  --all              all of the above plus --show-incomplete\n"
          "  --dxt              DXT trace segments instead of counters\n"
          "  --show-incomplete  print modules flagged incomplete (partial)\n"
          "  -h, --help         show this help\n"
          "\n"
          "Times are printed in the local time zone (set TZ=UTC to compare).\n"
          "Exit status: 0 the whole log was read; 2 usage error; 3 the log or\n"
          "part of it could not be read (what was read is printed).\n",
          stdout);
}

struct dump_opts {
    int flags;   /* enum iosage_dump_flags */
    int dxt;     /* darshan-dxt-parser output */
    const char *path;
};

/* The options; the id of a mode is its flag plus one, --dxt is DXT_ID. */
#define DXT_ID 0x10000
static const struct ios_option dump_options[] = {
    {"--base", NULL, 0, IOSAGE_DUMP_BASE + 1},
    {"--total", NULL, 0, IOSAGE_DUMP_TOTAL + 1},
    {"--file", NULL, 0, IOSAGE_DUMP_FILE + 1},
    {"--perf", NULL, 0, IOSAGE_DUMP_PERF + 1},
    {"--all", NULL, 0, IOSAGE_DUMP_ALL + 1},
    {"--show-incomplete", NULL, 0, IOSAGE_DUMP_SHOW_INCOMPLETE + 1},
    {"--dxt", NULL, 0, DXT_ID},
    {0}};

/* Parse argv into o; returns CLI_OK, or the exit code to return now. */
static int parse_dump_args(int argc, char **argv, struct dump_opts *o,
                           int *done)
{
    *done = 0;
    struct cli_args it =
        cli_args("dump", argc, argv, dump_options, dump_help);
    int id;
    while ((id = cli_args_next(&it)) != CLI_ARG_END) {
        if (id == CLI_ARG_STOP)
            return cli_args_stop(&it, done);
        if (id == DXT_ID) {
            o->dxt = 1;
        } else if (id > 0) {
            o->flags |= id - 1;
        } else if (o->path) {
            return cli_usage_error("dump", "dump: takes one LOG, got '%s' too",
                                   it.value);
        } else {
            o->path = it.value;
        }
    }
    if (!o->path)
        return cli_usage_error("dump", "dump: no LOG given");
    /* Like darshan-parser: without a mode flag, print the base counters. */
    if ((o->flags & ~IOSAGE_DUMP_SHOW_INCOMPLETE) == 0)
        o->flags |= IOSAGE_DUMP_BASE;
    return CLI_OK;
}

int cmd_dump(int argc, char **argv)
{
    struct dump_opts o = {0, 0, NULL};
    int done;
    int rc = parse_dump_args(argc, argv, &o, &done);
    if (rc != CLI_OK || done)
        return rc;

    iosage_error err;
    iosage_reader *r = NULL;
    iosage_status st = iosage_reader_open(o.path, IOSAGE_READ_COMPAT, &r, &err);
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    /* The dump formats into its own 256 KiB buffer and hands it over in
     * whole chunks: a stdio buffer behind it would only copy every byte
     * once more (7% of the instructions of a large dump). */
    setvbuf(stdout, NULL, _IONBF, 0);
    /* on a terminal, a name from the log cannot retitle or clear it */
    if (isatty(STDOUT_FILENO))
        o.flags |= IOSAGE_DUMP_ESCAPE;
    struct iosage_dump_result res;
    memset(&res, 0, sizeof res);
    if (o.dxt)
        st = iosage_dump_dxt(r, o.flags, stdout, stderr, &res, &err);
    else
        st = iosage_dump_parser(r, o.flags, stdout, stderr, &res, &err);
    iosage_reader_close(r);
    if (res.write_errno) { /* the one line comes from the check at exit */
        ios_stdout_failed(res.write_errno);
        return CLI_INTERNAL;
    }
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    if (res.doubtful_modules && !res.module_errors && !res.partial_stop)
        fprintf(stderr, "iosage: %s: warning: %s\n", o.path, res.first_doubt);
    if (res.module_errors || res.partial_stop) {
        fprintf(stderr, "iosage: %s: %s\n", o.path,
                res.first_problem[0] ? res.first_problem
                                     : "part of the log could not be read");
        return CLI_BADINPUT;
    }
    return CLI_OK;
}
