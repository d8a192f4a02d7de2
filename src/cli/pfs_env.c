/*
 * src/cli/pfs_env.c - `--pfs PROFILE` of `iosage gen` and `iosage
 * validate`: run the kernels on the emulated parallel file system
 * (pfs/, docs/pfs.md).
 *
 * The profile is read here first, so a bad one fails once with one line
 * instead of in every rank. Then this process's environment is set so
 * that every mpirun it starts passes the emulator's settings to the ranks
 * (as OMPI_IOSAGE_PFS_*: mpirun forwards every OMPI_* variable), with
 * TMPDIR on the emulated mount (the kernels write under $TMPDIR), Open
 * MPI in yield mode (many ranks on two
 * cores sleep most of the time) and one MPI-IO aggregator per node, as
 * ROMIO's cb_nodes default (every rank here shares one node). The caller
 * adds the library to what it preloads.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "pfs_model.h"

/* Directory of the running iosage binary into buf. */
static int exe_dir(char *buf, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    return 0;
}

/* The first of the candidates that exists into out. */
static int first_existing(char *out, size_t size, const char *dir,
                          const char *const *rel, const char *name)
{
    for (int i = 0; rel[i]; i++) {
        if (snprintf(out, size, rel[i], dir, name) < (int)size &&
            access(out, R_OK) == 0)
            return 0;
    }
    return -1;
}

/* See cli.h. */
int cli_pfs_profile_path(const char *cmd, const char *profile, char *path,
                         size_t size)
{
    char dir[PATH_MAX - 128];
    int have_dir = exe_dir(dir, sizeof dir) == 0;
    /* PROFILE: a file, or the name of a shipped profile */
    static const char *const prof_rel[] = {"%s/../profiles/%s.pfs",
                                           "%s/../share/iosage/profiles/%s.pfs",
                                           NULL};
    if (access(profile, R_OK) == 0)
        snprintf(path, size, "%s", profile);
    else if (strchr(profile, '/') || !have_dir ||
             first_existing(path, size, dir, prof_rel, profile) < 0) {
        fprintf(stderr, "iosage: %s: --pfs %s: no such profile (a file, or "
                "a name in profiles/)\n", cmd, profile);
        return CLI_BADINPUT;
    }
    return CLI_OK;
}

/* See cli.h. */
int cli_pfs_setup(const char *cmd, const char *profile, char *lib,
                  size_t libsize, char *mount, size_t mountsize)
{
    char dir[PATH_MAX - 128], path[PATH_MAX];
    int have_dir = exe_dir(dir, sizeof dir) == 0;
    if (cli_pfs_profile_path(cmd, profile, path, sizeof path) != CLI_OK)
        return CLI_BADINPUT;
    struct pfs_profile p;
    char err[256];
    if (pfs_profile_load(&p, path, err, sizeof err) < 0) {
        fprintf(stderr, "iosage: %s: %s: %s\n", cmd, path, err);
        return CLI_BADINPUT;
    }
    char abs[PATH_MAX];
    if (!realpath(path, abs)) {
        fprintf(stderr, "iosage: %s: %s: %s\n", cmd, path, strerror(errno));
        return CLI_BADINPUT;
    }
    static const char *const lib_rel[] = {"%s/pfs/%s", "%s/../lib/%s",
                                          "%s/../lib/x86_64-linux-gnu/%s",
                                          NULL};
    if (!have_dir || first_existing(lib, libsize, dir, lib_rel,
                                    "libiosage-pfs.so") < 0) {
        fprintf(stderr, "iosage: %s: libiosage-pfs.so not found beside "
                "iosage (build it)\n", cmd);
        return CLI_BADINPUT;
    }
    /* the data: a fresh directory on tmpfs; the mount: a symbolic link
     * to it under $TMPDIR, so the paths the tracer records are not under
     * /dev (which it leaves out, as Darshan does) */
    const char *backing = getenv("IOSAGE_PFS_BACKING");
    if (!backing || !*backing)
        backing = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    char data[PATH_MAX];
    snprintf(data, sizeof data, "%s/iosage-pfs-data.XXXXXX", backing);
    if (snprintf(mount, mountsize, "%s/iosage-pfs.XXXXXX", tmp) >=
            (int)mountsize - 16 ||
        !mkdtemp(data) || !mkdtemp(mount)) {
        fprintf(stderr, "iosage: %s: cannot make the emulated mount under "
                "%s and %s: %s\n", cmd, backing, tmp, strerror(errno));
        return CLI_BADINPUT;
    }
    strncat(mount, "/mnt", mountsize - strlen(mount) - 1);
    if (symlink(data, mount) < 0) {
        fprintf(stderr, "iosage: %s: cannot link %s to %s: %s\n", cmd, mount,
                data, strerror(errno));
        return CLI_BADINPUT;
    }
    setenv("OMPI_IOSAGE_PFS_PROFILE", abs, 1);
    setenv("OMPI_IOSAGE_PFS_MOUNT", mount, 1);
    setenv("OMPI_IOSAGE_PFS_TMPDIR", "1", 1);
    /* settings the user gave as IOSAGE_PFS_* go along too */
    const char *extra[] = {"DILATION", "STATS", "SLEEP_US"};
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        char key[64], okey[80];
        snprintf(key, sizeof key, "IOSAGE_PFS_%s", extra[i]);
        snprintf(okey, sizeof okey, "OMPI_IOSAGE_PFS_%s", extra[i]);
        if (getenv(key))
            setenv(okey, getenv(key), 1);
    }
    setenv("OMPI_MCA_mpi_yield_when_idle", "1", 1);
    setenv("OMPI_MCA_io_ompio_num_aggregators", "1", 1);
    return CLI_OK;
}

/* See cli.h. Removes the data directory the mount links to, and the
 * directory holding the link. */
void cli_pfs_cleanup(const char *mount)
{
    if (!mount || !*mount)
        return;
    char data[PATH_MAX], holder[PATH_MAX];
    if (!realpath(mount, data))
        data[0] = '\0';
    snprintf(holder, sizeof holder, "%s", mount);
    char *slash = strrchr(holder, '/');
    if (slash)
        *slash = '\0';
    char *argv[] = {"rm", "-rf", "--", holder, data[0] ? data : holder, NULL};
    pid_t pid = fork();
    if (pid == 0) {
        execvp("rm", argv);
        _exit(127);
    }
    if (pid > 0) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
}
