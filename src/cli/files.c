/*
 * src/cli/files.c - output files of the commands, written whole or not at
 * all (a temporary file renamed into place).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* See cli.h. */
int cli_write_file_atomic(const char *path, const char *data, size_t len)
{
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >=
        (int)sizeof tmp) {
        fprintf(stderr, "iosage: %s: path too long\n", path);
        return CLI_USAGE;
    }
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        fprintf(stderr, "iosage: %s: cannot write: %s\n", path, strerror(errno));
        return CLI_BADINPUT;
    }
    int ok = fwrite(data, 1, len, f) == len;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        fprintf(stderr, "iosage: %s: cannot write: %s\n", path, strerror(e));
        return CLI_BADINPUT;
    }
    return CLI_OK;
}
