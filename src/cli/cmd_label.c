/*
 * src/cli/cmd_label.c - `iosage label LOG...`: the LABELING.md criteria
 * applied to each log, one TSV line per log:
 *
 *   file  access_granularity ... throughput_utilization  healthy  evidence
 *
 * A log that cannot be read gives one line on stderr and no output line;
 * the others are still labeled, and the exit status is then 3.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ios_text.h"
#include "iosage/darshan.h"
#include "iosage/label.h"
#include "iosage/patterns.h"

static void label_help(void)
{
    fputs("Usage: iosage label [--header] [--verbose] LOG...\n"
          "\n"
          "Label each LOG with the criteria of LABELING.md: for each of the\n"
          "seven bottleneck patterns 1 (present and material) or 0, then\n"
          "healthy (1 when no pattern is present; a job whose slowest rank\n"
          "spends under 5% of the run in I/O is healthy whatever its shape),\n"
          "then the evidence. One tab-separated line per log:\n"
          "\n"
          "  file access_granularity metadata_intensity parallelism_efficiency\n"
          "  access_pattern interface_choice file_strategy\n"
          "  throughput_utilization healthy evidence\n"
          "\n"
          "  --header      print the column names first\n"
          "  -v, --verbose evidence of every pattern, present or not\n"
          "  -h, --help    show this help\n"
          "\n"
          "Exit status: 0 every log was labeled; 2 usage error; 3 a log could\n"
          "not be read (the others are still labeled).\n",
          stdout);
}

static void print_header(void)
{
    fputs("file", stdout);
    for (int p = 0; p < iosage_pattern_count(); p++)
        printf("\t%s", iosage_label_pattern_id(p));
    fputs("\thealthy\tevidence\n", stdout);
}

/* The evidence column: the library's line, or with verbose every pattern's.
 * File names in it come from the log: their control characters (a tab or
 * a line feed would break the row, an escape sequence would act on the
 * terminal) are written as \xHH. */
static void print_evidence(const struct iosage_label_result *r, int verbose)
{
    static char line[4096];
    if (!verbose) {
        ios_fput_escaped(stdout, iosage_label_evidence_line(r, line, sizeof line), 0);
        return;
    }
    ios_fput_escaped(stdout, r->summary, 0);
    for (int p = 0; p < r->n_patterns; p++) {
        printf(" | %s=%d: ", iosage_label_pattern_id(p), r->present[p]);
        ios_fput_escaped(stdout, r->evidence[p], 0);
    }
}

/* Label one log; returns CLI_OK or the exit code of its failure. */
static int label_one(const char *path, int verbose)
{
    iosage_error err;
    iosage_log *log = NULL;
    /* the criteria read counters only: the trace and AutoPerf regions are
     * left unread (large DXT logs: most of the file) */
    iosage_status st = iosage_log_load(
        path, IOSAGE_READ_NO_TRACES | IOSAGE_READ_IO_ONLY, &log, &err);
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    struct iosage_label_result r;
    st = iosage_label_log(log, &r, &err);
    iosage_log_free(log);
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    ios_fput_escaped(stdout, path, 0);
    for (int p = 0; p < r.n_patterns; p++)
        printf("\t%d", r.present[p]);
    printf("\t%d\t", r.healthy);
    print_evidence(&r, verbose);
    fputc('\n', stdout);
    return CLI_OK;
}

static const struct ios_option label_options[] = {
    {"--header", NULL, 0, 1},
    {"--verbose", "-v", 0, 2},
    {0}};

int cmd_label(int argc, char **argv)
{
    int header = 0, verbose = 0, nlogs = 0;
    char **logs = argv + 1; /* collected in place, at the front */
    struct cli_args it =
        cli_args("label", argc, argv, label_options, label_help);
    int id;
    while ((id = cli_args_next(&it)) != CLI_ARG_END) {
        if (id == CLI_ARG_STOP)
            return cli_args_stop(&it, NULL);
        if (id == 1) {
            header = 1;
        } else if (id == 2) {
            verbose = 1;
        } else {
            logs[nlogs++] = (char *)it.value; /* one of argv's strings */
        }
    }
    if (nlogs == 0)
        return cli_usage_error("label", "label: no LOG given");
    if (header)
        print_header();
    int rc = CLI_OK;
    for (int i = 0; i < nlogs; i++) {
        int one = label_one(logs[i], verbose);
        if (one != CLI_OK && (rc == CLI_OK || one == CLI_INTERNAL))
            rc = one;
    }
    if (cli_stdout_check() != CLI_OK)
        return CLI_INTERNAL; /* the line comes from the exit check */
    return rc;
}
