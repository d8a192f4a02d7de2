/* src/cli/cmd_analyze.c - `iosage analyze` (placeholder until its issue lands). */
#include <stdio.h>

#include "cli/cli.h"

int cmd_analyze(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("iosage: analyze: not built yet\n", stderr);
    return CLI_INTERNAL;
}
