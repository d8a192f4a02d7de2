/*
 * src/common/ios_args.h - the one walker over a command line's arguments,
 * for `iosage` (its subcommands, src/cli/args.c) and `iosage-mpi` (which
 * shares `iosage batch`'s options, src/batch_cli/options.c).
 *
 * The rules every command follows: -h/--help anywhere before "--" asks
 * for help; "--" ends the options; "-" alone is an operand (stdin); an
 * option of the table that takes a value takes the next argument,
 * whatever it looks like, or the rest of the argument after a short alias
 * ("-j2", as make); anything else that starts with '-' is an unknown
 * option. Nothing is printed: a bad argument leaves its message in ->msg.
 */
#ifndef IOS_ARGS_H
#define IOS_ARGS_H

/* A command's options: a table ended by {0}, each entry with its name
 * ("--output"), an optional alias ("-o"), whether it takes a value, and
 * the id (> 0) that ios_args_next returns for it. */
struct ios_option {
    const char *name;
    const char *alias;
    int takes_value;
    int id;
};

struct ios_args {
    int argc;
    char **argv;
    int i;                            /* the next argument */
    int operands_only;                /* "--" was seen */
    const struct ios_option *options;
    const char *arg;                  /* the last argument as given */
    const char *name;                 /* for an option: its table name
                                         ("--output" for "-o", "-oX") */
    const char *value;                /* its value, or the operand */
    char msg[320];                    /* after IOS_ARG_BAD: what is wrong,
                                         e.g. "--output needs a value" */
};

/* What ios_args_next found besides an option's id (> 0). */
enum {
    IOS_ARG_END = 0,      /* no argument left */
    IOS_ARG_OPERAND = -1, /* ->value is a LOG, DIR, ... */
    IOS_ARG_HELP = -2,    /* -h or --help */
    IOS_ARG_BAD = -3      /* an unknown option or a missing value (->msg) */
};

/* A walker over argv[1..argc) with options (a table ended by {0}, or
 * NULL). */
void ios_args_init(struct ios_args *it, int argc, char **argv,
                   const struct ios_option *options);

/* The next argument: an option's id with its value in it->value (NULL when
 * it takes none), IOS_ARG_OPERAND with the operand in it->value,
 * IOS_ARG_HELP, IOS_ARG_BAD or IOS_ARG_END. */
int ios_args_next(struct ios_args *it);

#endif
