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

#include "ios_args.h"
#include "iosage/error.h"
#include "iosage/advise.h"
#include "iosage/analyze.h"
#include "iosage/model.h"
#include "iosage/report.h"

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

/* The whole decimal number s when it lies in [min, max], else -1. */
long cli_int_arg(const char *s, long min, long max);

/* --- arguments (args.c) ---------------------------------------------------
 * A command's options: a table of struct ios_option (src/common/ios_args.h)
 * ended by {0}. The walker prints the help and the usage errors. */
struct cli_args {
    const char *cmd;                  /* "analyze": for the messages */
    void (*help)(void);               /* prints the command's --help */
    struct ios_args walk;
    const char *arg;                  /* the last argument as given */
    const char *name;                 /* for an option: its table name
                                         ("--output" for "-o", "-oX") */
    const char *value;                /* its value, or the operand */
    int rc;                           /* after CLI_ARG_STOP: the exit code */
    int helped;                       /* after CLI_ARG_STOP: help printed */
};

/* What cli_args_next found besides an option's id (> 0). */
enum {
    CLI_ARG_END = 0,      /* no argument left */
    CLI_ARG_OPERAND = -1, /* it.value is a LOG, DIR, ... */
    CLI_ARG_STOP = -2     /* help printed (exit 0) or a usage error printed
                             (exit 2): return cli_args_stop() */
};

/* A walker over argv[1..argc) of command cmd with its options (a table
 * ended by {0}, or NULL) and its help. */
struct cli_args cli_args(const char *cmd, int argc, char **argv,
                         const struct ios_option *options, void (*help)(void));

/* The next argument: an option's id with its value in it->value (NULL when
 * it takes none), CLI_ARG_OPERAND with the operand in it->value,
 * CLI_ARG_STOP or CLI_ARG_END. it->arg is the argument as given. */
int cli_args_next(struct cli_args *it);

/* After CLI_ARG_STOP: *done (when done is not NULL) = 1 when the help was
 * printed; returns the exit code (CLI_OK after help, CLI_USAGE). */
int cli_args_stop(const struct cli_args *it, int *done);

/* Before a command that predicts with one XGBoost thread loads XGBoost:
 * OMP_NUM_THREADS=1 unless the user set it. The OpenMP runtime otherwise
 * makes a team sized to the cores whose extra threads spin between the
 * short parallel regions of a prediction: `iosage analyze` of one log took
 * 131 ms of CPU for 26 with it (perf stat). cli_open_bundle (analyze, the
 * archive's reports) calls it; batch has its own (frontend.h). */
void cli_one_openmp_thread(void);

/* The model bundle of dir (--model), or the embedded one when dir is NULL,
 * with XGBoost using `threads` threads. Prints the reason and returns an
 * exit code (CLI_BADINPUT, CLI_INTERNAL) on failure; *m is then NULL. */
int cli_open_model(const char *dir, int threads, iosage_model **m);

/* The pattern cards of the bundle: DIR/cards.json, or the embedded
 * cards.json when model_dir is NULL. Missing cards are not an error (*cards
 * stays NULL: the report says so); a damaged file is printed and its exit
 * code returned. */
int cli_open_cards(const char *model_dir, iosage_cards **cards);

/* Load the savings models of the bundle (--model DIR, else the embedded
 * one) and attach them to m; none is no error. CLI_OK or the exit code
 * after printing the error. */
int cli_open_savings(const char *model_dir, iosage_model *m);

/* Everything a report needs from a bundle (--model DIR, else the embedded
 * one): the models with their savings models attached, and the cards. */
struct cli_bundle {
    iosage_model *model;
    iosage_cards *cards; /* NULL when the bundle has none */
};

/* Open b (zeroed first). CLI_OK, or the exit code after printing the
 * error; b is then empty. */
int cli_open_bundle(const char *model_dir, struct cli_bundle *b);
void cli_bundle_free(struct cli_bundle *b);

/* The options of iosage_analyze for a whole report with b: the document
 * stage, DXT traces not read, cards and expected savings. */
struct iosage_analyze_options cli_report_options(const struct cli_bundle *b);


/* Write len bytes to path through a temporary file and a rename, so that a
 * failure leaves no partial file (src/common/ios_outfile.h). Prints the
 * reason; CLI_OK or CLI_INTERNAL. */
int cli_write_file_atomic(const char *path, const char *data, size_t len);

/* Render doc as format (src/report) and write it to output, or to stdout
 * when output is NULL. color: 1 always, 0 never, -1 the text view on a
 * terminal without NO_COLOR. CLI_OK, or the exit code after one line. */
int cli_write_report(const json_t *doc, enum iosage_report_format format,
                     int color, const char *output);

/* Print "iosage: PATH: cannot write: <strerror(e)>"; returns CLI_INTERNAL
 * (exit 4: an output could not be written). */
int cli_output_error(const char *path, int e);

/* No output over an input: when out (given as option opt, e.g. "-o") is
 * one of inputs[0..n) (NULL entries skipped), or, with out_is_dir, an
 * output directory holding one of them, print one line and return
 * CLI_USAGE; CLI_OK otherwise (and when out is NULL). Called before any
 * input is read. */
int cli_refuse_clash(const char *cmd, const char *opt, const char *out,
                     int out_is_dir, const char *const *inputs, size_t n);

/* Flush stdout: CLI_OK, or CLI_INTERNAL after a failed write, its reason
 * kept for the one line that cli_close_stdout prints at exit. */
int cli_stdout_check(void);

/* At exit: flush and close stdout; on a write error print one line and
 * return CLI_INTERNAL, else rc. */
int cli_close_stdout(int rc);

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
int cmd_savings(int argc, char **argv);

/* --runs, --warmup, --timeout of validate and savings into o: 1 taken, -1
 * a bad number (nothing printed), 0 not one of them. */
struct iosage_validate_options;
int cli_validate_run_option(struct iosage_validate_options *o,
                            const char *opt, const char *val);
int cmd_train(int argc, char **argv);
int cmd_label(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_pfs(int argc, char **argv);

/* --pfs PROFILE (gen, validate): read the profile (a file, or the name of
 * one in profiles/), find libiosage-pfs.so beside iosage (into lib), make
 * the emulated mount on tmpfs (into mount), and set this process's
 * environment so that the ranks of every mpirun it starts run on it
 * (src/cli/pfs_env.c). The caller preloads lib. Returns CLI_OK, or an
 * exit code after one line on stderr naming cmd. */
int cli_pfs_setup(const char *cmd, const char *profile, char *lib,
                  size_t libsize, char *mount, size_t mountsize);

/* The file of --pfs PROFILE (a file, or the name of one in profiles/) into
 * path. Returns CLI_OK, or CLI_BADINPUT after one line on stderr. */
int cli_pfs_profile_path(const char *cmd, const char *profile, char *path,
                         size_t size);

/* Remove the emulated mount and what is left on it. */
void cli_pfs_cleanup(const char *mount);

#endif
