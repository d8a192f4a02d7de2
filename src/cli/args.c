/*
 * src/cli/args.c - the argument walker of the subcommands: the common one
 * (src/common/ios_args.h, whose rules every command follows) with the help
 * printed and the two usage errors worded the same for every command:
 *
 *   iosage: <cmd>: <option> needs a value
 *   iosage: <cmd>: unknown option '<arg>'
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct cli_args cli_args(const char *cmd, int argc, char **argv,
                         const struct ios_option *options, void (*help)(void))
{
    struct cli_args it;
    memset(&it, 0, sizeof it);
    it.cmd = cmd;
    it.help = help;
    ios_args_init(&it.walk, argc, argv, options);
    return it;
}

int cli_args_stop(const struct cli_args *it, int *done)
{
    if (done)
        *done = it->helped;
    return it->rc;
}

int cli_args_next(struct cli_args *it)
{
    int id = ios_args_next(&it->walk);
    it->arg = it->walk.arg;
    it->name = it->walk.name;
    it->value = it->walk.value;
    if (id == IOS_ARG_HELP) {
        it->help();
        it->helped = 1;
        it->rc = CLI_OK;
        return CLI_ARG_STOP;
    }
    if (id == IOS_ARG_BAD) {
        it->rc = cli_usage_error(it->cmd, "%s: %s", it->cmd, it->walk.msg);
        return CLI_ARG_STOP;
    }
    return id;
}

/* See cli.h. */
long cli_int_arg(const char *s, long min, long max)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return errno || end == s || *end || v < min || v > max ? -1 : v;
}
