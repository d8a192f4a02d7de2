/*
 * src/cli/main.c - the `iosage` command: global options and dispatch to one
 * cmd_<name>() per subcommand. main() only dispatches.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "iosage/version.h"


struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    {"analyze", cmd_analyze, "patterns, evidence and ranked changes for one log"},
    {"archive", cmd_archive, "query the archive database of batch --db; the dashboard"},
    {"batch", cmd_batch, "detect patterns in many logs (threads or MPI): JSONL/CSV"},
    {"detect", cmd_detect, "which I/O bottleneck patterns each log has (JSON lines)"},
    {"dump", cmd_dump, "print a log as darshan-parser does (--all, --dxt, ...)"},
    {"eval", cmd_eval, "score a model bundle on a dataset split (F1, Hamming loss)"},
    {"gen", cmd_gen, "run a benchmark sweep under the tracer: labeled logs"},
    {"pfs", cmd_pfs, "striping on the emulated parallel file system (docs/pfs.md)"},
    {"savings", cmd_savings, "measure what each change saves on a dataset's runs"},
    {"train", cmd_train, "train the gate and pattern models: a model bundle"},
    {"label", cmd_label, "apply the LABELING.md criteria: one TSV line per log"},
    {"rules", cmd_rules, "the Drishti-like threshold baseline: one JSON line per log"},
    {"validate", cmd_validate, "measure a recommended change in paired benchmark runs"},
};

static void print_help(FILE *out)
{
    fprintf(out,
            "Usage: iosage COMMAND [OPTIONS] ARGS...\n"
            "\n"
            "iosage reads Darshan I/O logs of HPC jobs, finds I/O bottleneck\n"
            "patterns and says what to change.\n"
            "\n"
            "Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out,
            "\n"
            "Options:\n"
            "  -h, --help     show this help (or 'iosage COMMAND --help')\n"
            "  -V, --version  show the version\n"
            "\n"
            "Exit status: 0 ok, 1 problems found (with --fail-on), 2 usage error,\n"
            "3 an input could not be read, 4 internal error.\n");
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fputs("iosage: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (cmd)
        fprintf(stderr, " (try 'iosage %s --help')\n", cmd);
    else
        fputs(" (try 'iosage --help')\n", stderr);
    return CLI_USAGE;
}

void cli_print_error(const iosage_error *err)
{
    char line[800];
    fprintf(stderr, "iosage: %s\n", iosage_error_line(err, line, sizeof line));
}

int cli_exit_for(iosage_status st)
{
    switch (st) {
    case IOSAGE_OK:
        return CLI_OK;
    case IOSAGE_E_NOMEM:
    case IOSAGE_E_INTERNAL:
        return CLI_INTERNAL;
    case IOSAGE_E_USAGE:
        return CLI_USAGE;
    default:
        return CLI_BADINPUT;
    }
}

int cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error(NULL, "no command given");
    const char *name = argv[1];
    if (cli_is_help(name)) {
        print_help(stdout);
        return cli_close_stdout(CLI_OK);
    }
    if (strcmp(name, "-V") == 0 || strcmp(name, "--version") == 0) {
        printf("iosage %s\n", iosage_version());
        return cli_close_stdout(CLI_OK);
    }
    /* every command's stdout is checked once here, at exit */
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(name, commands[i].name) == 0)
            return cli_close_stdout(commands[i].run(argc - 1, argv + 1));
    if (name[0] == '-')
        return cli_usage_error(NULL, "unknown option '%s'", name);
    return cli_usage_error(NULL, "unknown command '%s'", name);
}
