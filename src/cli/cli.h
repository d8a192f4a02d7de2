/*
 * src/cli/cli.h - what the `iosage` subcommands share: exit codes, the
 * one-line error helpers, and each command's entry point.
 *
 * Streams: data on stdout, diagnostics on stderr. --help prints to stdout
 * and exits 0; a usage error prints one line plus a hint to stderr and
 * exits 2.
 */
#ifndef IOSAGE_CLI_H
#define IOSAGE_CLI_H

#include <stddef.h>

#include "iosage/error.h"
#include "iosage/model.h"

enum cli_exit {
    CLI_OK = 0,       /* all inputs read */
    CLI_FOUND = 1,    /* analysis found problems (only with --fail-on) */
    CLI_USAGE = 2,    /* bad command line */
    CLI_BADINPUT = 3, /* an input could not be read (fully) */
    CLI_INTERNAL = 4  /* a bug or a system failure */
};

/* Print "iosage: <msg>" plus "Try 'iosage <cmd> --help'." to stderr and
 * return CLI_USAGE. cmd may be NULL. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Print "iosage: " + the error's one line to stderr. */
void cli_print_error(const iosage_error *err);

/* Exit code for a library status: CLI_BADINPUT for input problems,
 * CLI_INTERNAL for memory/internal ones. */
int cli_exit_for(iosage_status st);

/* True when arg is -h or --help. */
int cli_is_help(const char *arg);

/* The model bundle of dir (--model), or the embedded one when dir is NULL,
 * with XGBoost using `threads` threads. Prints the reason and returns an
 * exit code (CLI_BADINPUT, CLI_INTERNAL) on failure; *m is then NULL. */
int cli_open_model(const char *dir, int threads, iosage_model **m);

/* A file of the embedded bundle by name ("cards.json"), or NULL. */
const unsigned char *cli_embedded_file(const char *name, size_t *size);

int cmd_analyze(int argc, char **argv);
int cmd_archive(int argc, char **argv);
int cmd_batch(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_detect(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_train(int argc, char **argv);
int cmd_label(int argc, char **argv);
int cmd_rules(int argc, char **argv);

#endif
