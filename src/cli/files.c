/*
 * src/cli/files.c - output files of the commands: written whole or not at
 * all (src/common/outfile.c), never over one of the command's inputs
 * (src/common/outpath.c), and stdout checked at exit.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ios_outfile.h"
#include "ios_outpath.h"

/* See cli.h. */
int cli_output_error(const char *path, int e)
{
    fprintf(stderr, "iosage: %s: cannot write: %s\n", path, strerror(e));
    return CLI_INTERNAL;
}

/* See cli.h. */
int cli_write_file_atomic(const char *path, const char *data, size_t len)
{
    int e = ios_outfile_write(path, data, len);
    return e == 0 ? CLI_OK : cli_output_error(path, e);
}

/* See cli.h. */
int cli_refuse_clash(const char *cmd, const char *opt, const char *out,
                     int out_is_dir, const char *const *inputs, size_t n)
{
    if (!out)
        return CLI_OK;
    long i = ios_output_clash(out, out_is_dir, inputs, n);
    if (i < 0)
        return CLI_OK;
    if (out_is_dir)
        fprintf(stderr, "iosage: %s: %s %s holds the input %s: refusing to "
                "write into it\n", cmd, opt, out, inputs[i]);
    else
        fprintf(stderr, "iosage: %s: %s %s is the input %s: refusing to "
                "write over it\n", cmd, opt, out, inputs[i]);
    return CLI_USAGE;
}

/* See cli.h. */
int cli_stdout_check(void)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return CLI_OK;
    ios_stdout_failed(errno);
    return CLI_INTERNAL;
}

/* See cli.h. */
int cli_close_stdout(int rc)
{
    int e = ios_close_stdout();
    if (e == 0)
        return rc;
    fprintf(stderr, "iosage: standard output: cannot write: %s\n",
            strerror(e));
    return CLI_INTERNAL;
}
