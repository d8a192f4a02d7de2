/*
 * tests/archive/mkarchive.c - a synthetic Darshan archive for the archive
 * tests and `make bench`: N logs in Darshan's layout OUT/YEAR/MONTH/DAY/,
 * each one of the SRC logs read and written again by the project's writer
 * with its own job id, user, executable and start date, so that the
 * archive's queries have many applications, users and weeks to group.
 *
 *   mkarchive OUT N WEEKS HOSTILE SRC...
 *
 * Job i: job id 100000 + i; start within the WEEKS weeks before
 * 2026-12-01 00:00 UTC (the run time of its source kept); one of 30
 * applications and 60 users, both skewed (a few large ones); the same
 * numbers every run (a fixed generator). The first HOSTILE jobs get an
 * executable made of HTML and script text (and a terminal's title and
 * clear sequences), to show that the dashboard escapes what it takes from
 * a log.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "iosage/darshan.h"

#define END_TIME 1796083200LL /* 2026-12-01 00:00:00 UTC */
#define N_USERS 60

static const char *const apps[] = {
    "wrf.exe", "vasp_std", "lmp_mpi", "gmx_mpi", "cp2k.psmp", "nek5000",
    "hacc_io", "e3sm.exe", "pw.x", "namd2", "cesm.exe", "openfoam",
    "amrex3d", "nwchem", "milc_su3", "qmcpack", "chroma", "gene", "xgc1",
    "s3d", "enzo", "flash4", "athena", "pflotran", "warpx", "nyx",
    "cosmoflow", "deepcam", "resnet_train", "h5bench_write"};
#define N_APPS (sizeof apps / sizeof apps[0])

/* xorshift64*: the same sequence every run. */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

/* A uniform number in [0, 1). */
static double unit(uint64_t *s)
{
    return (double)(rnd(s) >> 11) / 9007199254740992.0;
}

/* mkdir -p for the three date levels under out. */
static int make_dirs(const char *out, int y, int m, int d, char *dir,
                     size_t size)
{
    snprintf(dir, size, "%s/%d", out, y);
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return -1;
    snprintf(dir, size, "%s/%d/%d", out, y, m);
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return -1;
    snprintf(dir, size, "%s/%d/%d/%d", out, y, m, d);
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

/* Write log i (a copy of src with new job facts) into the archive. */
static int write_one(const char *out, iosage_log *src, long i, int weeks,
                     int hostile, uint64_t *s)
{
    struct iosage_job job = src->job;
    int64_t run = job.end_time_sec - job.start_time_sec;
    size_t app = (size_t)(N_APPS * unit(s) * unit(s));
    int64_t uid = 1000 + (int64_t)(N_USERS * unit(s) * unit(s));
    int64_t start = END_TIME - 1 - (int64_t)(unit(s) * weeks * 7 * 86400.0);
    char exe[600];
    if (hostile)
        snprintf(exe, sizeof exe, "<iframe>\"'&amp;%s\033]0;pwned\007\033[2J "
                 "<script>document.body."
                 "appendChild(document.createElement('pwned-marker'))"
                 "</script> <img src=x onerror=alert(1)>", apps[app]);
    else
        snprintf(exe, sizeof exe, "/apps/%s/bin/%s -i input.%ld", apps[app],
                 apps[app], i % 7);
    job.exe = exe;
    job.jobid = 100000 + i;
    job.uid = uid;
    job.start_time_sec = start;
    job.end_time_sec = start + (run > 0 ? run : 1);
    /* a command line reads back only when a mount line follows it */
    char fs[] = "ext4", point[] = "/";
    struct iosage_mount root = {.point = point, .fs_type = fs};
    if (job.n_mounts == 0) {
        job.n_mounts = 1;
        job.mounts = &root;
    }
    iosage_error err;
    if (iosage_log_set_job(src, &job, &err) != IOSAGE_OK)
        return -1;
    time_t t = (time_t)start;
    struct tm tm;
    gmtime_r(&t, &tm);
    char dir[4096], path[4600];
    if (make_dirs(out, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, dir,
                  sizeof dir) != 0) {
        fprintf(stderr, "mkarchive: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    const char *name = hostile ? "<iframe>\"'&amp;" : apps[app];
    snprintf(path, sizeof path, "%s/user%ld_%s_id%ld_%d-%d-%ld.darshan", dir,
             (long)uid, name, (long)job.jobid, tm.tm_mon + 1, tm.tm_mday,
             (long)(start % 86400));
    if (iosage_log_write(src, path, &err) != IOSAGE_OK) {
        char line[800];
        fprintf(stderr, "mkarchive: %s\n", iosage_error_line(&err, line,
                                                             sizeof line));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fputs("usage: mkarchive OUT N WEEKS HOSTILE SRC...\n", stderr);
        return 2;
    }
    const char *out = argv[1];
    long n = strtol(argv[2], NULL, 10);
    int weeks = (int)strtol(argv[3], NULL, 10);
    long hostile = strtol(argv[4], NULL, 10);
    int n_src = argc - 5;
    if (n < 1 || weeks < 1 || mkdir(out, 0755) != 0) {
        fprintf(stderr, "mkarchive: bad N or WEEKS, or %s exists\n", out);
        return 2;
    }
    uint64_t s = 0x9e3779b97f4a7c15ULL;
    for (long i = 0; i < n; i++) {
        const char *src_path = argv[5 + i % n_src];
        iosage_log *src = NULL;
        iosage_error err;
        if (iosage_log_load(src_path, 0, &src, &err) != IOSAGE_OK) {
            char line[800];
            fprintf(stderr, "mkarchive: %s\n",
                    iosage_error_line(&err, line, sizeof line));
            return 3;
        }
        int rc = write_one(out, src, i, weeks, i < hostile, &s);
        iosage_log_free(src);
        if (rc != 0)
            return 3;
    }
    return 0;
}
