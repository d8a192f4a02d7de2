/*
 * chk_posix.c - the counters wl_posix must produce under the tracer.
 *
 *   chk_posix LOG DIR
 *
 * Every expected value follows from wl_posix.c and the format spec section
 * 10; the comments give the arithmetic.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static char dir[PATH_MAX];

static const char *in_dir(const char *name)
{
    static char buf[4][PATH_MAX];
    static int next;
    char *out = buf[next++ % 4];
    int n = snprintf(out, PATH_MAX, "%s/%s", dir, name);
    if (n < 0 || n >= PATH_MAX) {
        fprintf(stderr, "check: path too long\n");
        exit(2);
    }
    return out;
}

/* data.bin: 100 x 4 KiB writes from offset 0, fsync, lseek(0), 100 x 4 KiB
 * reads, fstat, close, stat. */
static void check_sequential(const iosage_log *log)
{
    const iosage_record *r =
        chk_rec(log, IOSAGE_MOD_POSIX, in_dir("data.bin"), 0);
    CI(r, POSIX_OPENS, 1);
    CI(r, POSIX_FILENOS, 0);
    CI(r, POSIX_DUPS, 0);
    CI(r, POSIX_WRITES, 100);
    CI(r, POSIX_READS, 100);
    CI(r, POSIX_SEEKS, 1);
    /* fstat and stat reach glibc's own symbols, which the runtime does not
     * see (trace/README.md); MMAPS is never counted, as by the runtime */
    CI(r, POSIX_STATS, 0);
    CI(r, POSIX_MMAPS, -1);
    CI(r, POSIX_FSYNCS, 1);
    CI(r, POSIX_FDSYNCS, 0);
    CI(r, POSIX_MODE, 0644);
    CI(r, POSIX_BYTES_WRITTEN, 409600);
    CI(r, POSIX_BYTES_READ, 409600);
    CI(r, POSIX_MAX_BYTE_WRITTEN, 409599);
    CI(r, POSIX_MAX_BYTE_READ, 409599);
    /* the first access of each kind is at offset 0: neither consecutive nor
     * sequential; the 99 others follow on directly */
    CI(r, POSIX_CONSEC_WRITES, 99);
    CI(r, POSIX_SEQ_WRITES, 99);
    CI(r, POSIX_CONSEC_READS, 99);
    CI(r, POSIX_SEQ_READS, 99);
    CI(r, POSIX_RW_SWITCHES, 1);
    CI(r, POSIX_MEM_ALIGNMENT, 8);
    CI(r, POSIX_MEM_NOT_ALIGNED, 0);
    CI(r, POSIX_FILE_ALIGNMENT, 4096);
    CI(r, POSIX_FILE_NOT_ALIGNED, 0);
    CI(r, POSIX_SIZE_WRITE_1K_10K, 100);
    CI(r, POSIX_SIZE_READ_1K_10K, 100);
    CI(r, POSIX_SIZE_WRITE_0_100, 0);
    CI(r, POSIX_SIZE_READ_100_1K, 0);
    CI(r, POSIX_SIZE_WRITE_10K_100K, 0);
    CI(r, POSIX_MAX_WRITE_TIME_SIZE, 4096);
    CI(r, POSIX_MAX_READ_TIME_SIZE, 4096);
    CI(r, POSIX_ACCESS1_ACCESS, 4096);
    CI(r, POSIX_ACCESS1_COUNT, 200);
    CI(r, POSIX_ACCESS2_ACCESS, 0);
    CI(r, POSIX_ACCESS2_COUNT, 0);
    CI(r, POSIX_STRIDE1_STRIDE, 0);
    CI(r, POSIX_STRIDE1_COUNT, 0);
    CI(r, POSIX_FASTEST_RANK, 0);
    CI(r, POSIX_SLOWEST_RANK_BYTES, 0);
    CF_POS(r, POSIX_F_OPEN_START_TIMESTAMP);
    CF_POS(r, POSIX_F_WRITE_TIME);
    CF_POS(r, POSIX_F_READ_TIME);
    CF_POS(r, POSIX_F_META_TIME);
    CF_POS(r, POSIX_F_MAX_WRITE_TIME);
    CF_POS(r, POSIX_F_MAX_READ_TIME);
    CF_LE(r, POSIX_F_OPEN_START_TIMESTAMP, POSIX_F_OPEN_END_TIMESTAMP);
    CF_LE(r, POSIX_F_OPEN_END_TIMESTAMP, POSIX_F_WRITE_START_TIMESTAMP);
    CF_LE(r, POSIX_F_WRITE_START_TIMESTAMP, POSIX_F_WRITE_END_TIMESTAMP);
    CF_LE(r, POSIX_F_WRITE_END_TIMESTAMP, POSIX_F_READ_START_TIMESTAMP);
    CF_LE(r, POSIX_F_READ_START_TIMESTAMP, POSIX_F_READ_END_TIMESTAMP);
    CF_LE(r, POSIX_F_READ_END_TIMESTAMP, POSIX_F_CLOSE_START_TIMESTAMP);
    CF_LE(r, POSIX_F_CLOSE_START_TIMESTAMP, POSIX_F_CLOSE_END_TIMESTAMP);
    CF_LE(r, POSIX_F_MAX_WRITE_TIME, POSIX_F_WRITE_TIME);
    CF_EQ(r, POSIX_F_VARIANCE_RANK_TIME, 0.0);
}

/* strided.bin: pwrite 10 x 100 B at k*200 from buf+1; writev 2 x 50 B at
 * the descriptor's position 0; pread 3 x 300 B at 0, 600, 1200; dup; mmap;
 * fdatasync. */
static void check_strided(const iosage_log *log)
{
    const iosage_record *r =
        chk_rec(log, IOSAGE_MOD_POSIX, in_dir("strided.bin"), 0);
    CI(r, POSIX_OPENS, 2); /* open + dup */
    CI(r, POSIX_DUPS, 1);
    CI(r, POSIX_MODE, 0600);
    CI(r, POSIX_WRITES, 11);
    CI(r, POSIX_READS, 3);
    CI(r, POSIX_BYTES_WRITTEN, 1100);
    CI(r, POSIX_BYTES_READ, 900);
    CI(r, POSIX_MAX_BYTE_WRITTEN, 1899);
    CI(r, POSIX_MAX_BYTE_READ, 1499);
    /* writes 1..9 start 100 bytes after the last one ended; the writev at 0
     * goes backwards; reads 2 and 3 skip 300 bytes */
    CI(r, POSIX_SEQ_WRITES, 9);
    CI(r, POSIX_CONSEC_WRITES, 0);
    CI(r, POSIX_SEQ_READS, 2);
    CI(r, POSIX_CONSEC_READS, 0);
    CI(r, POSIX_RW_SWITCHES, 1);
    CI(r, POSIX_SIZE_WRITE_0_100, 11);
    CI(r, POSIX_SIZE_READ_100_1K, 3);
    CI(r, POSIX_MEM_NOT_ALIGNED, 10);  /* the pwrites from buf + 1 */
    CI(r, POSIX_FILE_NOT_ALIGNED, 11); /* 9 pwrites + 2 preads off 4 KiB */
    CI(r, POSIX_STRIDE1_STRIDE, 100);
    CI(r, POSIX_STRIDE1_COUNT, 9);
    CI(r, POSIX_STRIDE2_STRIDE, 300);
    CI(r, POSIX_STRIDE2_COUNT, 2);
    CI(r, POSIX_STRIDE3_COUNT, 0);
    CI(r, POSIX_ACCESS1_ACCESS, 100);
    CI(r, POSIX_ACCESS1_COUNT, 11);
    CI(r, POSIX_ACCESS2_ACCESS, 300);
    CI(r, POSIX_ACCESS2_COUNT, 3);
    CI(r, POSIX_ACCESS3_COUNT, 0);
    CI(r, POSIX_MMAPS, -1);
    CI(r, POSIX_FDSYNCS, 1);
    CI(r, POSIX_FSYNCS, 0);
}

/* renamed.tmp -> renamed.dat; sub/../rel.dat opened relative to DIR. */
static void check_rename_relative(const iosage_log *log)
{
    const char *from = in_dir("renamed.tmp");
    const iosage_record *src = chk_rec(log, IOSAGE_MOD_POSIX, from, 0);
    const iosage_record *dst =
        chk_rec(log, IOSAGE_MOD_POSIX, in_dir("renamed.dat"), 0);
    CI(src, POSIX_OPENS, 1);
    CI(src, POSIX_WRITES, 1);
    CI(src, POSIX_BYTES_WRITTEN, 10);
    CI(src, POSIX_RENAME_SOURCES, 1);
    CI(src, POSIX_RENAME_TARGETS, 0);
    CI(dst, POSIX_OPENS, 0);
    CI(dst, POSIX_RENAME_TARGETS, 1);
    CI(dst, POSIX_RENAMED_FROM,
       (int64_t)iosage_darshan_hash(from, strlen(from)));
    const iosage_record *rel =
        chk_rec(log, IOSAGE_MOD_POSIX, in_dir("rel.dat"), 0);
    CI(rel, POSIX_OPENS, 1);
    CI(rel, POSIX_BYTES_WRITTEN, 1);
    if (rel)
        chk_true(rel->id == iosage_darshan_hash(in_dir("rel.dat"),
                                                strlen(in_dir("rel.dat"))),
                 "record id is the hash of the cleaned path");
}

/* text.txt: 50 fprintf of 10 B, fflush; 50 fgets + fread of 500 B after an
 * fseek; append "tail\n". fdfile.txt: fdopen + 3 fwrite of 20 B.
 * numbers.txt: one fprintf of 9 B, one fscanf consuming 8 B. */
static void check_stdio(const iosage_log *log)
{
    const iosage_record *t =
        chk_rec(log, IOSAGE_MOD_STDIO, in_dir("text.txt"), 0);
    CI(t, STDIO_OPENS, 3);
    CI(t, STDIO_FDOPENS, 0);
    CI(t, STDIO_WRITES, 51);
    CI(t, STDIO_BYTES_WRITTEN, 505);
    CI(t, STDIO_MAX_BYTE_WRITTEN, 504); /* append starts at 500 */
    CI(t, STDIO_READS, 51);
    CI(t, STDIO_BYTES_READ, 1000);
    CI(t, STDIO_MAX_BYTE_READ, 499);
    CI(t, STDIO_SEEKS, 1);
    CI(t, STDIO_FLUSHES, 1);
    CF_POS(t, STDIO_F_WRITE_TIME);
    CF_POS(t, STDIO_F_META_TIME);
    CF_LE(t, STDIO_F_OPEN_START_TIMESTAMP, STDIO_F_WRITE_START_TIMESTAMP);
    CF_LE(t, STDIO_F_WRITE_START_TIMESTAMP, STDIO_F_READ_START_TIMESTAMP);
    CF_LE(t, STDIO_F_READ_END_TIMESTAMP, STDIO_F_CLOSE_END_TIMESTAMP);
    const iosage_record *f =
        chk_rec(log, IOSAGE_MOD_STDIO, in_dir("fdfile.txt"), 0);
    CI(f, STDIO_OPENS, 1);
    CI(f, STDIO_FDOPENS, 1);
    CI(f, STDIO_WRITES, 3);
    CI(f, STDIO_BYTES_WRITTEN, 60);
    CI(f, STDIO_MAX_BYTE_WRITTEN, 59);
    const iosage_record *fp =
        chk_rec(log, IOSAGE_MOD_POSIX, in_dir("fdfile.txt"), 0);
    CI(fp, POSIX_OPENS, 1);
    CI(fp, POSIX_WRITES, 0); /* stdio's own write(2) is not a POSIX call */
    const iosage_record *n =
        chk_rec(log, IOSAGE_MOD_STDIO, in_dir("numbers.txt"), 0);
    CI(n, STDIO_OPENS, 2);
    CI(n, STDIO_WRITES, 1);
    CI(n, STDIO_BYTES_WRITTEN, 9);
    CI(n, STDIO_READS, 1);
    CI(n, STDIO_BYTES_READ, 8);
    const iosage_record *o = chk_rec(log, IOSAGE_MOD_STDIO, "<STDOUT>", 0);
    CI(o, STDIO_WRITES, 1);
    CI(o, STDIO_BYTES_WRITTEN, 17); /* "wl_posix: done 0\n" */
    const iosage_record *e = chk_rec(log, IOSAGE_MOD_STDIO, "<STDERR>", 0);
    CI(e, STDIO_WRITES, 1);
    CI(e, STDIO_BYTES_WRITTEN, 19); /* "wl_posix: stderr 2\n" */
    chk_true(chk_count_name(log, IOSAGE_MOD_POSIX, in_dir("text.txt")) == 0,
             "no POSIX record for a file used only through stdio");
}

static void check_threads(const iosage_log *log)
{
    for (int i = 0; i < 4; i++) {
        char name[32];
        snprintf(name, sizeof name, "thr%d.bin", i);
        const iosage_record *r = chk_rec(log, IOSAGE_MOD_POSIX, in_dir(name), 0);
        CI(r, POSIX_WRITES, 1000);
        CI(r, POSIX_BYTES_WRITTEN, 512000);
        CI(r, POSIX_CONSEC_WRITES, 999);
        CI(r, POSIX_SIZE_WRITE_100_1K, 1000);
        CI(r, POSIX_MAX_BYTE_WRITTEN, 511999);
    }
}

/* Counts over the whole log, and the job record. */
static void check_totals(const iosage_log *log)
{
    char prefix[PATH_MAX + 1];
    snprintf(prefix, sizeof prefix, "%s/", dir);
    /* data strided renamed.tmp renamed.dat rel fdfile thr0..3 */
    chk_true(chk_count(log, IOSAGE_MOD_POSIX, prefix) == 10, "10 POSIX files");
    chk_true(chk_count(log, IOSAGE_MOD_STDIO, prefix) == 3, "3 STDIO files");
    chk_true(chk_count(log, IOSAGE_MOD_POSIX, "/proc/") == 0 &&
                 chk_count(log, IOSAGE_MOD_POSIX, "/dev/") == 0,
             "/proc and /dev are not traced");
    chk_true(chk_count_name(log, IOSAGE_MOD_POSIX, dir) == 0,
             "no record of the directory opened and stat'ed");
    chk_true(log->modules[IOSAGE_MOD_MPIIO].n_records == 0, "no MPI-IO records");
    /* one POSIX and one STDIO heatmap for this process */
    chk_true(log->modules[IOSAGE_MOD_HEATMAP].n_records == 2,
             "two HEATMAP records");
    /* the POSIX heatmap's bins add up to the bytes of the POSIX records */
    int64_t posix_w = 0, posix_r = 0;
    for (size_t i = 0; i < log->modules[IOSAGE_MOD_POSIX].n_records; i++) {
        const iosage_record *p = &log->modules[IOSAGE_MOD_POSIX].records[i];
        posix_w += p->counters[IOSAGE_POSIX_BYTES_WRITTEN];
        posix_r += p->counters[IOSAGE_POSIX_BYTES_READ];
    }
    for (size_t i = 0; i < log->modules[IOSAGE_MOD_HEATMAP].n_records; i++) {
        const iosage_record *h = &log->modules[IOSAGE_MOD_HEATMAP].records[i];
        int64_t w = 0, rd = 0;
        chk_true(h->rank == 0 && h->x.heatmap.bin_width >= 0.1 &&
                     h->x.heatmap.nbins >= 1,
                 "heatmap rank 0, width >= 0.1 s, bins");
        for (int64_t b = 0; b < h->x.heatmap.nbins; b++) {
            w += h->x.heatmap.write_bins[b];
            rd += h->x.heatmap.read_bins[b];
        }
        if (h->id == iosage_darshan_hash("heatmap:POSIX", 13))
            chk_true(w == posix_w && rd == posix_r,
                     "POSIX heatmap bytes = POSIX records' bytes");
    }
    const struct iosage_job *j = &log->job;
    chk_true(j->nprocs == 1, "nprocs 1");
    chk_true(j->uid == (int64_t)getuid(), "uid");
    chk_true(j->jobid > 0, "jobid set");
    chk_true(strncmp(j->metadata, "lib_ver=iosage-trace ", 21) == 0,
             "metadata lib_ver");
    chk_true(j->exe && strstr(j->exe, "wl_posix ") != NULL, "exe is the command line");
    chk_true(j->n_mounts > 0, "mount table present");
    chk_true(j->start_time_sec > 1600000000 &&
                 (j->end_time_sec > j->start_time_sec ||
                  (j->end_time_sec == j->start_time_sec &&
                   j->end_time_nsec >= j->start_time_nsec)),
             "start <= end");
    chk_true(strcmp(log->header.version, "3.41") == 0, "format 3.41");
}

/* chk_posix --limit LOG N: the run had IOSAGE_TRACE_MAX_RECORDS=N, so each
 * module holds at most N records and POSIX (which needed more) is marked
 * partial. */
static int check_limit(const char *path, const char *n_text)
{
    char *end;
    long n = strtol(n_text, &end, 10);
    iosage_log *log = chk_load(path);
    chk_true(*end == '\0' && n > 0, "limit argument");
    for (int k = 0; k < IOSAGE_MAX_MODULES; k++)
        chk_true(log->modules[k].n_records <= (size_t)n, "records within the limit");
    chk_true(log->modules[IOSAGE_MOD_POSIX].n_records == (size_t)n,
             "POSIX filled up to the limit");
    chk_true((log->header.partial_flags >> IOSAGE_MOD_POSIX) & 1,
             "POSIX marked partial");
    iosage_log_free(log);
    return chk_done("chk_posix --limit");
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--limit") == 0)
        return check_limit(argv[2], argv[3]);
    if (argc != 3 || !realpath(argv[2], dir)) {
        fprintf(stderr, "usage: chk_posix LOG DIR | chk_posix --limit LOG N\n");
        return 2;
    }
    iosage_log *log = chk_load(argv[1]);
    check_sequential(log);
    check_strided(log);
    check_rename_relative(log);
    check_stdio(log);
    check_threads(log);
    check_totals(log);
    iosage_log_free(log);
    return chk_done("chk_posix");
}
