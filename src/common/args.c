/*
 * src/common/args.c - the argument walker (ios_args.h).
 */
#include <stdio.h>
#include <string.h>

#include "ios_args.h"

void ios_args_init(struct ios_args *it, int argc, char **argv,
                   const struct ios_option *options)
{
    memset(it, 0, sizeof *it);
    it->argc = argc;
    it->argv = argv;
    it->i = 1;
    it->options = options;
}

static int is_help(const char *s)
{
    return strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0;
}

/* Index of arg in the option table, or -1. */
static int find_option(const struct ios_option *options, const char *arg)
{
    for (int k = 0; options && (options[k].name || options[k].alias); k++)
        if ((options[k].name && strcmp(arg, options[k].name) == 0) ||
            (options[k].alias && strcmp(arg, options[k].alias) == 0))
            return k;
    return -1;
}

/* "-j2": index of the option whose two-character alias ("-j") starts arg
 * and that takes a value, or -1. */
static int find_attached(const struct ios_option *options, const char *arg)
{
    if (arg[0] != '-' || arg[1] == '-' || arg[1] == '\0' || arg[2] == '\0')
        return -1;
    for (int k = 0; options && (options[k].name || options[k].alias); k++)
        if (options[k].takes_value && options[k].alias &&
            strlen(options[k].alias) == 2 &&
            strncmp(arg, options[k].alias, 2) == 0)
            return k;
    return -1;
}

static const char *name_of(const struct ios_option *o)
{
    return o->name ? o->name : o->alias;
}

int ios_args_next(struct ios_args *it)
{
    it->value = NULL;
    it->name = NULL;
    if (it->i >= it->argc)
        return IOS_ARG_END;
    const char *s = it->argv[it->i++];
    it->arg = s;
    if (!it->operands_only && is_help(s))
        return IOS_ARG_HELP;
    if (!it->operands_only && strcmp(s, "--") == 0) {
        it->operands_only = 1;
        return ios_args_next(it);
    }
    int k = it->operands_only ? -1 : find_option(it->options, s);
    if (k < 0 && !it->operands_only &&
        (k = find_attached(it->options, s)) >= 0) {
        it->value = s + 2; /* "-j2": the value of -j */
        it->name = name_of(&it->options[k]);
        return it->options[k].id;
    }
    if (k >= 0) {
        it->name = name_of(&it->options[k]);
        if (it->options[k].takes_value) {
            if (it->i >= it->argc) {
                snprintf(it->msg, sizeof it->msg, "%.300s needs a value", s);
                return IOS_ARG_BAD;
            }
            it->value = it->argv[it->i++];
        }
        return it->options[k].id;
    }
    if (!it->operands_only && s[0] == '-' && s[1] != '\0') {
        snprintf(it->msg, sizeof it->msg, "unknown option '%.290s'", s);
        return IOS_ARG_BAD;
    }
    it->value = s;
    return IOS_ARG_OPERAND;
}
