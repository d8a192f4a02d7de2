/* src/cli/cmd_validate.c - `iosage validate` (placeholder until its issue lands). */
#include <stdio.h>

#include "cli/cli.h"

int cmd_validate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("iosage: validate: not built yet\n", stderr);
    return CLI_INTERNAL;
}
