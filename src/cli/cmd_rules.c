/*
 * src/cli/cmd_rules.c - `iosage rules LOG...`: the Drishti-like threshold
 * baseline (iosage/rules.h) applied to each log, one JSON line per log.
 *
 * A log that cannot be read gives {"file":...,"error":...} on stdout and
 * one line on stderr; the others are still evaluated, and the exit status
 * is then 3.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "iosage/darshan.h"
#include "iosage/model.h"
#include "iosage/report.h"
#include "iosage/rules.h"

static void rules_help(void)
{
    fputs("Usage: iosage rules LOG...\n"
          "\n"
          "Apply the Drishti-like threshold baseline to each LOG (for\n"
          "comparison with the trained models; the LABELING.md criteria are\n"
          "'iosage label'). Thresholds, mapped onto the seven patterns:\n"
          "  access_granularity      requests < 1 MiB > 10% and > 1000 of reads\n"
          "                          or of writes\n"
          "  access_pattern          non-sequential POSIX ops > 20% and > 1000\n"
          "  metadata_intensity      slowest rank's metadata time > 30 s\n"
          "  parallelism_efficiency  rank byte imbalance > 15% (shared files, or\n"
          "                          rank-private bytes)\n"
          "  interface_choice        MPI-IO with > 1000 ops and no collective\n"
          "                          call, or shared files written with small\n"
          "                          requests without collective I/O\n"
          "  file_strategy           > 10 data files per rank and > 1000 files\n"
          "  throughput_utilization  syncs > 10% of writes and > 100, or a file\n"
          "                          read > 2x its extent\n"
          "No healthy gate. One JSON object per line:\n"
          "  {\"schema\":1,\"log\":...,\"healthy\":...,\"patterns\":[{\"id\":...,\n"
          "   \"detected\":...,\"value\":...,\"reason\":...},...]}\n"
          "A log that cannot be read gives {\"file\":...,\"error\":...}.\n"
          "\n"
          "  -h, --help    show this help\n"
          "\n"
          "Exit status: 0 every log was evaluated; 2 usage error; 3 a log could\n"
          "not be read (the others are still evaluated); 4 internal error.\n",
          stdout);
}

/* {"file":"...","error":"..."} on stdout, as `iosage detect` prints it. */
static void print_error_line(const char *path, const iosage_error *err)
{
    char msg[800];
    iosage_error_line(err, msg, sizeof msg);
    char *line = iosage_model_error_json(path, msg);
    if (line)
        printf("%s\n", line);
    free(line);
}

/* Evaluate one log; returns CLI_OK or the exit code of its failure. */
static int rules_one(const char *path)
{
    iosage_error err;
    iosage_log *log = NULL;
    /* counters only: the trace and AutoPerf regions are left unread */
    iosage_status st = iosage_log_load(
        path, IOSAGE_READ_NO_TRACES | IOSAGE_READ_IO_ONLY, &log, &err);
    if (st != IOSAGE_OK) {
        print_error_line(path, &err);
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    struct iosage_rule_result r;
    st = iosage_rules_eval(log, NULL, &r);
    iosage_log_free(log);
    char *js = st == IOSAGE_OK ? iosage_rules_to_json(&r, path) : NULL;
    if (!js) {
        fprintf(stderr, "iosage: rules: %s: %s\n", path,
                st == IOSAGE_OK ? "out of memory" : "evaluation failed");
        return cli_exit_for(st == IOSAGE_OK ? IOSAGE_E_NOMEM : st);
    }
    puts(js);
    free(js);
    return CLI_OK;
}

int cmd_rules(int argc, char **argv)
{
    int nlogs = 0;
    char **logs = argv + 1; /* collected in place, at the front */
    struct cli_args it =
        cli_args("rules", argc, argv, NULL, rules_help);
    int id;
    while ((id = cli_args_next(&it)) != CLI_ARG_END) {
        if (id == CLI_ARG_STOP)
            return cli_args_stop(&it, NULL);
        logs[nlogs++] = (char *)it.value; /* one of argv's strings */
    }
    if (nlogs == 0)
        return cli_usage_error("rules", "rules: no LOG given");
    int rc = CLI_OK;
    for (int i = 0; i < nlogs; i++) {
        int one = rules_one(logs[i]);
        if (one != CLI_OK && (rc == CLI_OK || one == CLI_INTERNAL))
            rc = one;
    }
    if (cli_stdout_check() != CLI_OK)
        return CLI_INTERNAL; /* the line comes from the exit check */
    return rc;
}
