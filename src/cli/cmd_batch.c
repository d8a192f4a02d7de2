/* src/cli/cmd_batch.c - `iosage batch` (placeholder until its issue lands). */
#include <stdio.h>

#include "cli/cli.h"

int cmd_batch(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("iosage: batch: not built yet\n", stderr);
    return CLI_INTERNAL;
}
