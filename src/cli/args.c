/*
 * src/cli/args.c - the one argument walker of the subcommands.
 *
 * Each command lists its options in a table and asks for the next argument
 * until there is none. The walker knows the rules every command follows:
 * -h/--help anywhere before "--" asks for help; "--" ends the options; "-"
 * alone is an operand (stdin); an option of the table that takes a value
 * takes the next argument, whatever it looks like, or the rest of the
 * argument after a short alias ("-j2", as make); anything else that starts
 * with '-' is an unknown option. The two usage errors it finds are
 * worded the same for every command:
 *
 *   iosage: <cmd>: <option> needs a value
 *   iosage: <cmd>: unknown option '<arg>'
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct cli_args cli_args(const char *cmd, int argc, char **argv,
                         const struct cli_option *options, void (*help)(void))
{
    struct cli_args it;
    memset(&it, 0, sizeof it);
    it.cmd = cmd;
    it.argc = argc;
    it.argv = argv;
    it.i = 1;
    it.options = options;
    it.help = help;
    return it;
}

int cli_args_stop(const struct cli_args *it, int *done)
{
    if (done)
        *done = it->helped;
    return it->rc;
}

/* Stop the walk with exit code rc. */
static int stop(struct cli_args *it, int rc)
{
    it->rc = rc;
    return CLI_ARG_STOP;
}

/* Index of arg in the option table, or -1. */
static int find_option(const struct cli_option *options, const char *arg)
{
    for (int k = 0; options && (options[k].name || options[k].alias); k++)
        if ((options[k].name && strcmp(arg, options[k].name) == 0) ||
            (options[k].alias && strcmp(arg, options[k].alias) == 0))
            return k;
    return -1;
}

/* "-j2": index of the option whose two-character alias ("-j") starts arg
 * and that takes a value, or -1. */
static int find_attached(const struct cli_option *options, const char *arg)
{
    if (arg[0] != '-' || arg[1] == '-' || arg[1] == '\0' || arg[2] == '\0')
        return -1;
    for (int k = 0; options && (options[k].name || options[k].alias); k++)
        if (options[k].takes_value && options[k].alias &&
            strlen(options[k].alias) == 2 && strncmp(arg, options[k].alias, 2) == 0)
            return k;
    return -1;
}

int cli_args_next(struct cli_args *it)
{
    it->value = NULL;
    it->name = NULL;
    if (it->i >= it->argc)
        return CLI_ARG_END;
    const char *s = it->argv[it->i++];
    it->arg = s;
    if (!it->operands_only && cli_is_help(s)) {
        it->help();
        it->helped = 1;
        return stop(it, CLI_OK);
    }
    if (!it->operands_only && strcmp(s, "--") == 0) {
        it->operands_only = 1;
        return cli_args_next(it);
    }
    int k = it->operands_only ? -1 : find_option(it->options, s);
    if (k < 0 && !it->operands_only && (k = find_attached(it->options, s)) >= 0) {
        it->value = s + 2; /* "-j2": the value of -j */
        it->name = it->options[k].name ? it->options[k].name : it->options[k].alias;
        return it->options[k].id;
    }
    if (k >= 0) {
        it->name = it->options[k].name ? it->options[k].name : it->options[k].alias;
        if (it->options[k].takes_value) {
            if (it->i >= it->argc) {
                cli_usage_error(it->cmd, "%s: %s needs a value", it->cmd, s);
                return stop(it, CLI_USAGE);
            }
            it->value = it->argv[it->i++];
        }
        return it->options[k].id;
    }
    if (!it->operands_only && s[0] == '-' && s[1] != '\0') {
        cli_usage_error(it->cmd, "%s: unknown option '%s'", it->cmd, s);
        return stop(it, CLI_USAGE);
    }
    it->value = s;
    return CLI_ARG_OPERAND;
}

/* See cli.h. */
long cli_int_arg(const char *s, long min, long max)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return errno || end == s || *end || v < min || v > max ? -1 : v;
}
