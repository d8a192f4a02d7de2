/*
 * tests/unit/test_reader.c - the reader core: header, job, mount table,
 * names, module slots, and how damaged input is reported.
 *
 * Groups:
 *   - real logs against darshan-parser 3.5.0 output: every log of the shared
 *     set with an expected output has its preamble (version, compression,
 *     exe, uid, jobid, times, nprocs, run time, metadata, region sizes,
 *     module slots with versions, mount table) and the file-name column of
 *     every record line compared; logs the parser refused must fail to open
 *     with the matching status;
 *   - hand-checked values of a few logs (3.41 x86, 3.10 and 3.00 ppc64
 *     big-endian, 3.00 x86, partial flags after remapping, name lookups);
 *   - synthetic input: version and magic errors, slot remapping of old
 *     headers, region decompression (concatenated zlib and bzip2 streams,
 *     raw, truncated, damaged, capped), the job text rules, name region
 *     errors, truncated and damaged module regions, unknown modules and
 *     versions.
 * Tests that need the shared logs skip (exit 77) when they are absent.
 */
#include <bzlib.h>
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <cmocka.h>

#include "darshan/internal.h"
#include "iosage/darshan.h"
#include "testutil.h"

/* --- helpers ---------------------------------------------------------------- */

static int g_have_logs; /* 0 when the shared logs are absent */

/* Path of a shared log (static buffer). */
static const char *log_path(const char *name)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/%s", tu_shared_logs(), name);
    return buf;
}

/* Whole gzip'd file as a NUL-terminated malloc'd string, or NULL. */
static char *read_gz(const char *path)
{
    gzFile f = gzopen(path, "rb");
    if (!f)
        return NULL;
    size_t n = 0, cap = 1 << 16;
    char *s = malloc(cap);
    int r;
    while (s && (r = gzread(f, s + n, (unsigned)(cap - n - 1))) > 0) {
        n += (size_t)r;
        if (cap - n < 2) {
            char *g = realloc(s, cap * 2);
            if (!g) {
                free(s);
                s = NULL;
                break;
            }
            s = g;
            cap *= 2;
        }
    }
    gzclose(f);
    if (s)
        s[n] = '\0';
    return s;
}

/* Open a shared log with the streaming reader; fails the test on error. */
static iosage_reader *open_log(const char *name, int flags)
{
    iosage_reader *r = NULL;
    iosage_error e;
    char line[800];
    iosage_status st = iosage_reader_open(log_path(name), flags, &r, &e);
    if (st != IOSAGE_OK)
        fail_msg("%s", iosage_error_line(&e, line, sizeof line));
    return r;
}

/* The module with id from a streaming pass (copied, records dropped). */
static int find_module(iosage_reader *r, int id, iosage_module_data *out)
{
    const iosage_module_data *m;
    iosage_error e;
    while (iosage_reader_next_module(r, &m, &e) == IOSAGE_OK && m) {
        if (m->id == id) {
            *out = *m;
            out->records = NULL;
            return 1;
        }
    }
    return 0;
}

/* --- real logs against darshan-parser output ------------------------------- */

/* One comparison failure: report log and line, keep going. */
static int g_mismatch;
static void mismatch(const char *log, const char *what, const char *want,
                     const char *got)
{
    if (g_mismatch++ < 40)
        print_error("%s: %s: expected \"%s\", got \"%s\"\n", log, what, want,
                    got);
}

static void check_eq(const char *log, const char *what, const char *want,
                     const char *got)
{
    if (strcmp(want, got) != 0)
        mismatch(log, what, want, got);
}

/* Our metadata as the parser prints it: "# metadata: k = v" lines. */
static void metadata_lines(const char *meta, char *out, size_t size)
{
    char copy[1100];
    size_t n = 0;
    snprintf(copy, sizeof copy, "%s", meta);
    out[0] = '\0';
    for (char *tok = copy, *next; tok; tok = next) {
        next = strchr(tok, '\n');
        if (next)
            *next++ = '\0';
        char *eq = strchr(tok, '=');
        if (!*tok || !eq)
            continue;
        *eq = '\0';
        n += (size_t)snprintf(out + n, size - n, "# metadata: %s = %s\n", tok,
                              eq + 1);
    }
}

/* The preamble and region lines we expect, built from our reader. */
static void our_preamble(iosage_reader *r, char *out, size_t size)
{
    const struct iosage_header *h = iosage_reader_header(r);
    const struct iosage_job *j = iosage_reader_job(r);
    static const char *comp[] = {"ZLIB", "BZIP2", "NONE"};
    double run = h->ver_minor == 41
                     ? ((double)j->end_time_sec + (double)j->end_time_nsec / 1e9) -
                           ((double)j->start_time_sec +
                            (double)j->start_time_nsec / 1e9)
                     : (double)(j->end_time_sec - j->start_time_sec + 1);
    size_t n = (size_t)snprintf(
        out, size,
        "# darshan log version: %s\n# compression method: %s\n# exe: %s\n"
        "# uid: %" PRId64 "\n# jobid: %" PRId64 "\n# start_time: %" PRId64
        "\n# end_time: %" PRId64 "\n# nprocs: %" PRId64 "\n# run time: %.4f\n",
        h->version, h->compression <= 2 ? comp[h->compression] : "UNKNOWN",
        j->exe, j->uid, j->jobid, j->start_time_sec, j->end_time_sec,
        j->nprocs, run);
    metadata_lines(j->metadata, out + n, size - n);
    n += strlen(out + n);
    n += (size_t)snprintf(out + n, size - n,
                          "# job data: %" PRIu64 " bytes (compressed)\n"
                          "# record table: %" PRIu64 " bytes (compressed)\n",
                          h->job_len, h->names.len);
    for (int k = 0; k < IOSAGE_MAX_MODULES; k++) {
        const struct iosage_region *m = &h->modules[k];
        if (m->len == 0 && !((h->partial_flags >> k) & 1))
            continue;
        if (k < IOSAGE_MOD_KNOWN)
            n += (size_t)snprintf(out + n, size - n,
                                  "# %s module: %" PRIu64
                                  " bytes (compressed), ver=%u\n",
                                  iosage_module_name(k), m->len, m->version);
        else
            n += (size_t)snprintf(out + n, size - n,
                                  "# <UNKNOWN> module (id %d): %" PRIu64
                                  " bytes (compressed), ver=%u\n",
                                  k, m->len, m->version);
    }
    for (size_t i = 0; i < j->n_mounts; i++)
        n += (size_t)snprintf(out + n, size - n, "# mount entry:\t%s\t%s\n",
                              j->mounts[i].point, j->mounts[i].fs_type);
}

/* The same lines picked out of darshan-parser output. */
static void their_preamble(const char *text, char *out, size_t size)
{
    static const char *keep[] = {
        "# darshan log version: ", "# compression method: ", "# exe: ",
        "# uid: ", "# jobid: ", "# start_time: ", "# end_time: ",
        "# nprocs: ", "# run time: ", "# metadata: ", "# job data: ",
        "# record table: ", "# mount entry:"};
    size_t n = 0;
    out[0] = '\0';
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        int take = 0;
        for (size_t i = 0; i < sizeof keep / sizeof *keep; i++)
            take |= strncmp(p, keep[i], strlen(keep[i])) == 0;
        char one[512];
        snprintf(one, sizeof one, "%.*s", (int)(len < 511 ? len : 511), p);
        if (strncmp(one, "# ", 2) == 0 &&
            (strstr(one, " module: ") || strstr(one, " module (id ")) &&
            strstr(one, "bytes (compressed), ver="))
            take = 1;
        if (strncmp(p, "# description of columns", 24) == 0)
            break;
        if (take && n + len + 2 < size) {
            memcpy(out + n, p, len);
            out[n + len] = '\n';
            n += len + 1;
            out[n] = '\0';
        }
        p = e ? e + 1 : p + len;
    }
}

/* Split one data line into tab fields; returns the field count (max 8). */
static int split_tabs(char *line, char **f, int max)
{
    int n = 0;
    f[n++] = line;
    for (char *p = line; *p && n < max; p++)
        if (*p == '\t') {
            *p = '\0';
            f[n++] = p + 1;
        }
    return n;
}

/* Every record line's file-name column against our name table. */
static void check_record_names(const char *log, iosage_reader *r, char *text)
{
    static const char *mods[] = {"POSIX", "MPI-IO", "STDIO", "H5F", "H5D",
                                 "PNETCDF_FILE", "PNETCDF_VAR", "LUSTRE",
                                 "HEATMAP", "MDHIM", "DFS", "BG/Q"};
    for (char *p = text, *e; p && *p; p = e ? e + 1 : NULL) {
        e = strchr(p, '\n');
        if (e)
            *e = '\0';
        if (*p == '#')
            continue;
        char *f[8];
        if (split_tabs(p, f, 8) < 8)
            continue;
        int known = 0;
        for (size_t i = 0; i < sizeof mods / sizeof *mods; i++)
            known |= strcmp(f[0], mods[i]) == 0;
        if (!known)
            continue;
        uint64_t id = strtoull(f[2], NULL, 10);
        const char *ours = iosage_reader_name(r, id);
        if (!ours)
            ours = strcmp(f[0], "BG/Q") == 0 ? "darshan-bgq-record" : "(null)";
        check_eq(log, f[2], f[5], ours);
    }
}

/* Expected output for a log, or NULL. Prefers the full output. */
static char *expected_output(const char *name)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/expected/%s.parser.txt.gz",
             tu_shared_logs(), name);
    char *s = read_gz(path);
    if (!s) {
        snprintf(path, sizeof path,
                 "%s/expected/%s.parser.partial-stdout.txt.gz",
                 tu_shared_logs(), name);
        s = read_gz(path);
    }
    return s;
}

/* Logs the reference parser refused: we must fail to open them too. */
static void check_refused(const char *name, const char *base)
{
    char path[1200], line[800];
    snprintf(path, sizeof path, "%s/expected/%s.error.txt", tu_shared_logs(),
             base);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char msg[400] = "";
    size_t got = fread(msg, 1, sizeof msg - 1, f);
    msg[got] = '\0';
    fclose(f);
    iosage_reader *r = NULL;
    iosage_error e;
    iosage_status st = iosage_reader_open(name, 0, &r, &e);
    if (strstr(msg, "unable to parse log file format version")) {
        if (st != IOSAGE_E_VERSION && st != IOSAGE_E_NOT_DARSHAN)
            mismatch(base, "open status", "VERSION or NOT_DARSHAN",
                     iosage_strerror(st));
    } else if (strstr(msg, "unable to inflate")) {
        if (st != IOSAGE_E_DECOMPRESS)
            mismatch(base, "open status", "DECOMPRESS", iosage_strerror(st));
        else if (strcmp(e.where, "job region") != 0)
            mismatch(base, "error where", "job region",
                     iosage_error_line(&e, line, sizeof line));
    }
    iosage_reader_close(r);
}

static void test_against_parser(void **state)
{
    (void)state;
    if (!g_have_logs)
        skip();
    char **logs = tu_list_logs(tu_shared_logs());
    assert_non_null(logs);
    size_t bufsize = 1 << 20, checked = 0;
    char *ours = malloc(bufsize), *theirs = malloc(bufsize);
    assert_true(ours && theirs);
    g_mismatch = 0;
    for (char **p = logs; *p; p++) {
        const char *base = strrchr(*p, '/') + 1;
        char *text = expected_output(base);
        if (!text) {
            check_refused(*p, base);
            continue;
        }
        iosage_reader *r = NULL;
        iosage_error e;
        char line[800];
        if (iosage_reader_open(*p, 0, &r, &e) != IOSAGE_OK) {
            mismatch(base, "open", "success",
                     iosage_error_line(&e, line, sizeof line));
            free(text);
            continue;
        }
        our_preamble(r, ours, bufsize);
        their_preamble(text, theirs, bufsize);
        check_eq(base, "preamble", theirs, ours);
        check_record_names(base, r, text);
        iosage_reader_close(r);
        free(text);
        checked++;
    }
    /* the .darshan.gz files are not listed by tu_list_logs */
    check_refused(log_path("carns_mpi-io-test-x86_64-2.2.5_id5824_2-27-41403-"
                           "11500169623986228326_1.darshan.gz"),
                  "carns_mpi-io-test-x86_64-2.2.5_id5824_2-27-41403-"
                  "11500169623986228326_1.darshan.gz");
    print_message("compared %zu logs with darshan-parser output\n", checked);
    free(ours);
    free(theirs);
    tu_free_list(logs);
    assert_true(checked > 50);
    assert_int_equal(g_mismatch, 0);
}

/* --- hand-checked values ----------------------------------------------------- */

/* Format 3.41, little-endian. */
static void test_341_x86(void **state)
{
    (void)state;
    if (!g_have_logs)
        skip();
    iosage_reader *r = open_log("mpi-io-test-x86_64-3.4.7.darshan", 0);
    const struct iosage_header *h = iosage_reader_header(r);
    const struct iosage_job *j = iosage_reader_job(r);
    assert_string_equal(h->version, "3.41");
    assert_int_equal(h->header_size, 1328);
    assert_int_equal(h->big_endian, 0);
    assert_int_equal(h->compression, IOSAGE_COMP_ZLIB);
    assert_int_equal(h->job_len, 495);
    assert_int_equal(h->names.len, 265);
    assert_int_equal(h->modules[IOSAGE_MOD_POSIX].len, 161);
    assert_int_equal(h->modules[IOSAGE_MOD_POSIX].version, 4);
    assert_int_equal(h->modules[IOSAGE_MOD_LUSTRE].version, 2);
    assert_int_equal(h->modules[IOSAGE_MOD_HEATMAP].len, 275);
    assert_int_equal(h->partial_flags, 0);
    assert_int_equal(j->uid, 31074);
    assert_int_equal(j->jobid, 4708475);
    assert_int_equal(j->start_time_sec, 1746769033);
    assert_int_equal(j->end_time_sec, 1746769033);
    assert_int_equal(j->nprocs, 4);
    assert_true(j->start_time_nsec > 0 && j->start_time_nsec < 1000000000);
    assert_string_equal(j->metadata,
                        "lib_ver=3.4.7\nh=romio_no_indep_rw=true;cb_nodes=4\n");
    assert_non_null(strstr(j->exe, "/scratch/mpi-io-test -f "));
    assert_string_equal(j->mounts[0].point,
                        "/run/credentials/systemd-sysusers.service");
    assert_string_equal(j->mounts[0].fs_type, "ramfs");
    for (size_t i = 1; i < j->n_mounts; i++)
        assert_true(strlen(j->mounts[i - 1].point) >=
                    strlen(j->mounts[i].point));
    iosage_reader_close(r);
}

/* Format 3.10, big-endian (Blue Gene/Q): byte swapping, remapped slots. */
static void test_310_ppc64(void **state)
{
    (void)state;
    if (!g_have_logs)
        skip();
    iosage_reader *r = open_log("mpi-io-test-ppc64-3.1.0.darshan", 0);
    const struct iosage_header *h = iosage_reader_header(r);
    const struct iosage_job *j = iosage_reader_job(r);
    assert_string_equal(h->version, "3.10");
    assert_int_equal(h->header_size, 360);
    assert_int_equal(h->big_endian, 1);
    assert_int_equal(h->job_len, 185);
    assert_int_equal(h->names.len, 124);
    /* stored slots 1, 2, 5, 7 are POSIX, MPI-IO, BG/Q, STDIO */
    assert_int_equal(h->modules[IOSAGE_MOD_POSIX].len, 215);
    assert_int_equal(h->modules[IOSAGE_MOD_POSIX].version, 3);
    assert_int_equal(h->modules[IOSAGE_MOD_MPIIO].len, 176);
    assert_int_equal(h->modules[IOSAGE_MOD_BGQ].len, 55);
    assert_int_equal(h->modules[IOSAGE_MOD_BGQ].version, 2);
    assert_int_equal(h->modules[IOSAGE_MOD_STDIO].len, 78);
    assert_int_equal(h->modules[IOSAGE_MOD_STDIO].version, 1);
    for (int k = 0; k < IOSAGE_MAX_MODULES; k++)
        if (k != 1 && k != 2 && k != 7 && k != 9)
            assert_int_equal(h->modules[k].len, 0);
    assert_int_equal(j->uid, 31074);
    assert_int_equal(j->jobid, 929717);
    assert_int_equal(j->start_time_sec, 1475257056);
    assert_int_equal(j->end_time_sec, 1475257060);
    assert_int_equal(j->start_time_nsec, 0);
    assert_int_equal(j->nprocs, 4);
    assert_int_equal(j->n_mounts, 6);
    assert_string_equal(j->mounts[0].point, "/gpfs/mira-home");
    assert_string_equal(j->mounts[3].point, "/projects");
    assert_string_equal(j->mounts[3].fs_type, "nfs");
    assert_string_equal(j->mounts[5].point, "/");
    const char *file =
        "/gpfs/mira-fs0/projects/SSSPPg/snyder/tmp/mpi-io-test.tmp.dat";
    assert_string_equal(iosage_reader_name(r, 9063791019878933741ULL), file);
    assert_string_equal(iosage_reader_name(r, 15920181672442173319ULL),
                        "<STDOUT>");
    assert_null(iosage_reader_name(r, 17224881367579287459ULL)); /* BG/Q */
    assert_null(iosage_reader_name(r, 1));
    iosage_module_data m;
    assert_true(find_module(r, IOSAGE_MOD_STDIO, &m));
    assert_string_equal(m.name, "STDIO");
    assert_int_equal(m.version, 1);
    assert_int_equal(m.status, IOSAGE_OK);
    assert_int_equal(m.data_len, 480);
    iosage_reader_close(r);
}

/* Format 3.00 in both byte orders: 32-bit name lengths, two modules. */
static void test_300_logs(void **state)
{
    (void)state;
    if (!g_have_logs)
        skip();
    iosage_reader *r = open_log("mpi-io-test-x86_64-3.0.0.darshan", 0);
    const struct iosage_header *h = iosage_reader_header(r);
    assert_string_equal(h->version, "3.00");
    assert_int_equal(h->ver_minor, 0);
    assert_int_equal(h->big_endian, 0);
    assert_int_equal(h->job_len, 172);
    assert_int_equal(h->names.len, 44);
    assert_int_equal(h->modules[IOSAGE_MOD_POSIX].len, 147);
    assert_int_equal(h->modules[IOSAGE_MOD_POSIX].version, 1);
    assert_int_equal(h->modules[IOSAGE_MOD_MPIIO].len, 123);
    assert_int_equal(iosage_reader_job(r)->jobid, 2112);
    assert_string_equal(iosage_reader_name(r, 11344915649860608681ULL),
                        "/tmp/tmp/mpi-io-test.tmp.dat");
    assert_string_equal(iosage_reader_job(r)->mounts[0].fs_type,
                        "fuse.gvfsd-fuse");
    iosage_reader_close(r);

    r = open_log("mpi-io-test-ppc64-3.0.1.darshan", 0);
    h = iosage_reader_header(r);
    assert_int_equal(h->big_endian, 1);
    assert_int_equal(h->job_len, 182);
    assert_int_equal(h->names.len, 80);
    assert_int_equal(h->modules[IOSAGE_MOD_POSIX].len, 196);
    assert_int_equal(iosage_reader_job(r)->end_time_sec, 1463765860);
    assert_string_equal(
        iosage_reader_name(r, iosage_darshan_hash(
                                  "/gpfs/mira-fs0/projects/SSSPPg/snyder/tmp/"
                                  "mpi-io-test.tmp.dat", 61)),
        "/gpfs/mira-fs0/projects/SSSPPg/snyder/tmp/mpi-io-test.tmp.dat");
    iosage_reader_close(r);
}

/* Partial flags survive, and slots with only a partial bit are yielded. */
static void test_partial_flags(void **state)
{
    (void)state;
    if (!g_have_logs)
        skip();
    iosage_reader *r = open_log(
        "ior-easy_api_MPIIO_blockSize_1073741824_transferSize_1M_filePerProc_"
        "False_uniqueDir_True_.ini.darshan", 0);
    const iosage_module_data *m;
    iosage_error e;
    int seen[IOSAGE_MAX_MODULES] = {0};
    while (iosage_reader_next_module(r, &m, &e) == IOSAGE_OK && m) {
        seen[m->id] = 1 + m->partial;
        if (m->partial) {
            assert_int_equal(m->stored_len, 0);
            assert_int_equal(m->n_records, 0);
            assert_int_equal(m->status, IOSAGE_OK);
        }
    }
    assert_int_equal(seen[IOSAGE_MOD_POSIX], 1);
    assert_int_equal(seen[IOSAGE_MOD_MPIIO], 2);
    assert_int_equal(seen[IOSAGE_MOD_LUSTRE], 2);
    assert_int_equal(seen[IOSAGE_MOD_STDIO], 2);
    assert_int_equal(seen[IOSAGE_MOD_DXT_POSIX], 1);
    assert_int_equal(seen[IOSAGE_MOD_HEATMAP], 2);
    assert_int_equal(seen[IOSAGE_MOD_H5F], 0);
    iosage_reader_close(r);

    /* a 3.21 log: POSIX partial bit stays on slot 1 */
    r = open_log("imbalanced-io.darshan", 0);
    assert_int_equal(iosage_reader_header(r)->partial_flags,
                     UINT64_C(1) << IOSAGE_MOD_POSIX);
    iosage_reader_close(r);
}

/* APXC (the one public log with it) decodes: a header record, then
 * routers. */
static void test_apxc(void **state)
{
    (void)state;
    if (!g_have_logs)
        skip();
    iosage_reader *r = open_log("mpi-io-test.darshan", 0);
    const iosage_module_data *m;
    iosage_error e;
    int seen = 0;
    while (iosage_reader_next_module(r, &m, &e) == IOSAGE_OK && m) {
        if (m->id != IOSAGE_MOD_APXC)
            continue;
        seen = 1;
        assert_int_equal(m->skipped, 0);
        assert_int_equal(m->status, IOSAGE_OK);
        assert_string_equal(m->name, "APXC");
        assert_true(m->n_records >= 1);
        assert_int_equal(m->records[0].x.apxc.is_header, 1);
    }
    assert_true(seen);
    iosage_reader_close(r);
}

/* Whole-log load: names in first-seen order, lookups, modules kept. */
static void test_load(void **state)
{
    (void)state;
    if (!g_have_logs)
        skip();
    iosage_log *log = NULL;
    iosage_error e;
    assert_int_equal(iosage_log_load(log_path("mpi-io-test-ppc64-3.1.0.darshan"),
                                     0, &log, &e),
                     IOSAGE_OK);
    assert_non_null(strstr(log->path, "mpi-io-test-ppc64-3.1.0.darshan"));
    assert_true(log->n_names >= 3);
    for (size_t i = 0; i < log->n_names; i++)
        assert_ptr_equal(iosage_log_name(log, log->names[i].id),
                         log->names[i].name);
    assert_string_equal(iosage_log_name(log, 7238257241479193519ULL),
                        "<STDERR>");
    assert_int_equal(log->modules[IOSAGE_MOD_STDIO].id, IOSAGE_MOD_STDIO);
    assert_int_equal(log->modules[IOSAGE_MOD_STDIO].stored_len, 78);
    assert_int_equal(log->modules[IOSAGE_MOD_H5F].stored_len, 0);
    assert_int_equal(log->job.n_mounts, 6);
    iosage_log_free(log);
    iosage_log_free(NULL);
}

/* IOSAGE_READ_NO_TRACES leaves out DXT and heatmap records and nothing else. */
static void test_no_traces(void **state)
{
    (void)state;
    if (!g_have_logs)
        skip();
    iosage_log *all = NULL, *lean = NULL;
    iosage_error e;
    const char *path = log_path("sample-dxt-simple.darshan");
    assert_int_equal(iosage_log_load(path, 0, &all, &e), IOSAGE_OK);
    assert_int_equal(iosage_log_load(path, IOSAGE_READ_NO_TRACES, &lean, &e),
                     IOSAGE_OK);
    assert_true(all->modules[IOSAGE_MOD_DXT_POSIX].n_records > 0);
    for (int m = 0; m < IOSAGE_MAX_MODULES; m++) {
        size_t want = all->modules[m].n_records;
        if (m == IOSAGE_MOD_DXT_POSIX || m == IOSAGE_MOD_DXT_MPIIO ||
            m == IOSAGE_MOD_HEATMAP)
            want = 0;
        assert_int_equal(lean->modules[m].n_records, want);
    }
    const iosage_module_data *a = &all->modules[IOSAGE_MOD_POSIX];
    const iosage_module_data *b = &lean->modules[IOSAGE_MOD_POSIX];
    assert_true(a->n_records > 0);
    for (size_t i = 0; i < a->n_records; i++) {
        assert_int_equal(a->records[i].id, b->records[i].id);
        assert_int_equal(a->records[i].n_counters, b->records[i].n_counters);
        assert_memory_equal(a->records[i].counters, b->records[i].counters,
                            (size_t)a->records[i].n_counters *
                                sizeof *a->records[i].counters);
    }
    iosage_log_free(all);
    iosage_log_free(lean);
}

/* --- synthetic: header ---------------------------------------------------------- */

static void put64(uint8_t *p, uint64_t v, int be)
{
    if (be)
        v = __builtin_bswap64(v);
    memcpy(p, &v, 8);
}

static void put32(uint8_t *p, uint32_t v, int be)
{
    if (be)
        v = __builtin_bswap32(v);
    memcpy(p, &v, 4);
}

/* A 360-byte header of the given version with slots 1, 4 and 7 set. */
static void make_old_header(uint8_t *b, const char *ver, int be)
{
    memset(b, 0, 360);
    memcpy(b, ver, strlen(ver));
    put64(b + 8, 6567223, be);
    put32(b + 20, (1u << 4) | (1u << 7) | 1u, be); /* partial bits */
    put64(b + 24, 400, be);                        /* name map */
    put64(b + 32, 10, be);
    const int slots[] = {1, 4, 7};
    for (int i = 0; i < 3; i++) {
        put64(b + 40 + 16 * slots[i], 500 + (uint64_t)slots[i], be);
        put64(b + 48 + 16 * slots[i], 5, be);
        put32(b + 296 + 4 * slots[i], 10 + (uint32_t)slots[i], be);
    }
}

static void test_remap_310(void **state)
{
    (void)state;
    uint8_t b[1024];
    for (int be = 0; be < 2; be++) {
        struct iosage_header h;
        iosage_error e;
        make_old_header(b, "3.10", be);
        assert_int_equal(ios_header_decode(b, sizeof b, &h, "x", &e), IOSAGE_OK);
        assert_int_equal(h.big_endian, be);
        assert_int_equal(h.header_size, 360);
        assert_int_equal(h.job_len, 40); /* 400 - 360 */
        /* 3.10: slot 4 (PNETCDF) -> 5, slot 7 (STDIO) -> 9 */
        assert_int_equal(h.modules[1].off, 501);
        assert_int_equal(h.modules[1].version, 11);
        assert_int_equal(h.modules[4].len, 0);
        assert_int_equal(h.modules[5].off, 504);
        assert_int_equal(h.modules[5].version, 14);
        assert_int_equal(h.modules[6].len, 0);
        assert_int_equal(h.modules[9].off, 507);
        assert_int_equal(h.modules[9].version, 17);
        assert_int_equal(h.partial_flags, (1u << 0) | (1u << 5) | (1u << 9));
    }
    /* 3.21: only PNETCDF_VAR is inserted: 4 stays, 7 -> 8 */
    struct iosage_header h;
    make_old_header(b, "3.21", 0);
    assert_int_equal(ios_header_decode(b, sizeof b, &h, "x", NULL), IOSAGE_OK);
    assert_int_equal(h.modules[4].off, 504);
    assert_int_equal(h.modules[8].off, 507);
    assert_int_equal(h.partial_flags, (1u << 0) | (1u << 4) | (1u << 8));
}

/* Job length inference: no name map -> first module offset -> file end. */
static void test_job_len_inference(void **state)
{
    (void)state;
    uint8_t b[1024];
    struct iosage_header h;
    make_old_header(b, "3.21", 0);
    put64(b + 24, 0, 0); /* name map empty, offset 0 */
    put64(b + 32, 0, 0);
    assert_int_equal(ios_header_decode(b, sizeof b, &h, "x", NULL), IOSAGE_OK);
    assert_int_equal(h.job_len, 501 - 360);
    memset(b + 40, 0, 256);
    assert_int_equal(ios_header_decode(b, sizeof b, &h, "x", NULL), IOSAGE_OK);
    assert_int_equal(h.job_len, sizeof b - 360);
    /* a name map inside the header is corrupt */
    put64(b + 24, 100, 0);
    iosage_error e;
    assert_int_equal(ios_header_decode(b, sizeof b, &h, "x", &e),
                     IOSAGE_E_CORRUPT);
    /* a name region past the end of the file */
    put64(b + 24, 1000, 0);
    put64(b + 32, 100, 0);
    assert_int_equal(ios_header_decode(b, sizeof b, &h, "x", &e),
                     IOSAGE_E_TRUNCATED);
    assert_string_equal(e.where, "name region");
}

/* Open b[0..n) from memory; returns the status and fills e. */
static iosage_status open_bytes(const void *b, size_t n, iosage_error *e)
{
    iosage_reader *r = NULL;
    iosage_status st = iosage_reader_open_mem(b, n, "mem.darshan", 0, &r, e);
    if (st == IOSAGE_OK)
        assert_non_null(r);
    else
        assert_null(r);
    iosage_reader_close(r);
    return st;
}

static void test_version_errors(void **state)
{
    (void)state;
    uint8_t b[2048];
    iosage_error e;
    char line[800];

    make_old_header(b, "2.06", 0);
    assert_int_equal(open_bytes(b, sizeof b, &e), IOSAGE_E_VERSION);
    assert_non_null(strstr(e.msg, "\"2.06\""));
    assert_string_equal(e.path, "mem.darshan");
    assert_string_equal(e.where, "header");

    make_old_header(b, "3.30", 0);
    assert_int_equal(open_bytes(b, sizeof b, &e), IOSAGE_E_VERSION);
    assert_non_null(strstr(e.msg, "3.30"));

    memcpy(b, "hello wo", 8);
    assert_int_equal(open_bytes(b, sizeof b, &e), IOSAGE_E_NOT_DARSHAN);
    assert_non_null(strstr(iosage_error_line(&e, line, sizeof line),
                           "mem.darshan: header: no Darshan version"));

    make_old_header(b, "3.21", 0);
    put64(b + 8, 12345, 0);
    assert_int_equal(open_bytes(b, sizeof b, &e), IOSAGE_E_NOT_DARSHAN);
    assert_non_null(strstr(e.msg, "magic"));
    assert_int_equal(e.offset, 8);

    assert_int_equal(open_bytes(b, 5, &e), IOSAGE_E_NOT_DARSHAN);
    assert_int_equal(open_bytes(b, 0, &e), IOSAGE_E_NOT_DARSHAN);
    make_old_header(b, "3.41", 0);
    assert_int_equal(open_bytes(b, 500, &e), IOSAGE_E_TRUNCATED);
    assert_non_null(strstr(e.msg, "1328"));

    /* a gzip'd Darshan 2.x file */
    uint8_t inner[64] = "2.02";
    put64(inner + 8, 6567223, 0);
    uLongf zn = sizeof b;
    z_stream z;
    memset(&z, 0, sizeof z);
    assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
                                  Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = inner;
    z.avail_in = sizeof inner;
    z.next_out = b;
    z.avail_out = (uInt)zn;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    size_t gzlen = z.total_out;
    deflateEnd(&z);
    assert_int_equal(open_bytes(b, gzlen, &e), IOSAGE_E_VERSION);
    assert_non_null(strstr(e.msg, "gzip"));
    assert_non_null(strstr(e.msg, "2.02"));

    /* a file that is not there */
    iosage_reader *r = NULL;
    assert_int_equal(iosage_reader_open("/nonexistent/x.darshan", 0, &r, &e),
                     IOSAGE_E_IO);
    assert_int_equal(e.sys_errno, ENOENT);
    assert_int_equal(iosage_reader_open("/", 0, &r, &e), IOSAGE_E_IO);
    assert_int_equal(iosage_reader_open(NULL, 0, &r, &e), IOSAGE_E_USAGE);
}

/* --- synthetic: regions ------------------------------------------------------- */

/* n bytes of varied but compressible data. */
static uint8_t *sample(size_t n, unsigned seed)
{
    uint8_t *p = malloc(n);
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)((i * 7 + seed) % 251 + (i / 1000));
    return p;
}

/* zlib stream of src appended at dst; returns its size. */
static size_t zlib_into(uint8_t *dst, size_t cap, const uint8_t *src, size_t n)
{
    uLongf len = cap;
    assert_int_equal(compress2(dst, &len, src, n, 6), Z_OK);
    return len;
}

static size_t bzip_into(uint8_t *dst, size_t cap, const uint8_t *src, size_t n)
{
    unsigned len = (unsigned)cap;
    assert_int_equal(BZ2_bzBuffToBuffCompress((char *)dst, &len, (char *)src,
                                              (unsigned)n, 9, 0, 0),
                     BZ_OK);
    return len;
}

/* Two concatenated streams of n1 and n2 bytes decode to the
 * concatenation, and cutting the input short keeps a prefix and sets
 * truncated; the cap and a damaged second stream are reported. Returns
 * the compressed size of the two streams. */
static size_t check_concat_sized(int comp, size_t n1, size_t n2)
{
    size_t cap = 4 * (n1 + n2) + 1024;
    uint8_t *a = sample(n1, 1), *b = sample(n2, 2), *s = malloc(cap);
    size_t l1 = comp ? bzip_into(s, cap, a, n1) : zlib_into(s, cap, a, n1);
    size_t l2 = comp ? bzip_into(s + l1, cap - l1, b, n2)
                     : zlib_into(s + l1, cap - l1, b, n2);
    uint8_t *out;
    size_t out_len;
    int trunc;
    iosage_error e;
    assert_int_equal(ios_region_inflate(s, l1 + l2, comp, 1 << 30, &out,
                                        &out_len, &trunc, "p", "POSIX", 0, &e),
                     IOSAGE_OK);
    assert_int_equal(out_len, n1 + n2);
    assert_int_equal(trunc, 0);
    assert_memory_equal(out, a, n1);
    assert_memory_equal(out + n1, b, n2);
    free(out);

    /* cut inside the second stream */
    assert_int_equal(ios_region_inflate(s, l1 + l2 / 2, comp, 1 << 30, &out,
                                        &out_len, &trunc, "p", "POSIX", 0, &e),
                     IOSAGE_OK);
    assert_int_equal(trunc, 1);
    assert_true(out_len >= n1 && out_len < n1 + n2);
    assert_memory_equal(out, a, n1);
    free(out);

    /* cap: one byte less than the data */
    assert_int_equal(ios_region_inflate(s, l1 + l2, comp, n1 + n2 - 1, &out,
                                        &out_len, &trunc, "p", "POSIX", 0, &e),
                     IOSAGE_E_LIMIT);
    assert_null(out);
    /* exactly the data fits */
    assert_int_equal(ios_region_inflate(s, l1 + l2, comp, n1 + n2, &out,
                                        &out_len, &trunc, "p", "POSIX", 0, &e),
                     IOSAGE_OK);
    free(out);

    /* damage the second stream's header: data of the first is kept */
    s[l1] ^= 0xff;
    s[l1 + 1] ^= 0x5a;
    assert_int_equal(ios_region_inflate(s, l1 + l2, comp, 1 << 30, &out,
                                        &out_len, &trunc, "p", "POSIX", 1000,
                                        &e),
                     IOSAGE_E_DECOMPRESS);
    assert_int_equal(out_len, n1);
    assert_string_equal(e.where, "POSIX");
    assert_true(e.has_offset && e.offset >= 1000 + l1);
    assert_non_null(strstr(e.msg, "stream 2"));
    free(out);
    free(a);
    free(b);
    free(s);
    return l1 + l2;
}

/* The same for the codec comp, with streams of 100,000 and 54,321 bytes. */
static void check_concat(int comp)
{
    check_concat_sized(comp, 100000, 54321);
}

static void test_inflate_zlib(void **state)
{
    (void)state;
    check_concat(IOSAGE_COMP_ZLIB);
}

/* Streams that compress over 100:1 (zeros, as records often are) outgrow
 * the first output guess of the libdeflate path several times and must
 * still decode whole; a bad Adler-32 in the last stream is caught (by the
 * zlib path the fast path hands over to) with the first stream kept. */
static void test_inflate_zlib_high_ratio(void **state)
{
    (void)state;
    size_t n1 = 3000000, n2 = 1000000, cap = 100000;
    uint8_t *a = calloc(1, n1), *b = sample(n2, 3), *s = malloc(cap + 2000000);
    a[n1 - 1] = 7;
    size_t l1 = zlib_into(s, cap, a, n1);
    size_t l2 = zlib_into(s + l1, cap + 2000000 - l1, b, n2);
    assert_true(l1 * 100 < n1);
    uint8_t *out;
    size_t out_len;
    int trunc;
    iosage_error e;
    assert_int_equal(ios_region_inflate(s, l1 + l2, IOSAGE_COMP_ZLIB, 1 << 30,
                                        &out, &out_len, &trunc, "p", "POSIX",
                                        0, &e),
                     IOSAGE_OK);
    assert_int_equal(out_len, n1 + n2);
    assert_int_equal(trunc, 0);
    assert_memory_equal(out, a, n1);
    assert_memory_equal(out + n1, b, n2);
    free(out);

    s[l1 + l2 - 1] ^= 0x01; /* last byte of the second stream's checksum */
    assert_int_equal(ios_region_inflate(s, l1 + l2, IOSAGE_COMP_ZLIB, 1 << 30,
                                        &out, &out_len, &trunc, "p", "POSIX",
                                        0, &e),
                     IOSAGE_E_DECOMPRESS);
    assert_true(out_len >= n1);
    assert_memory_equal(out, a, n1);
    assert_non_null(strstr(e.msg, "stream 2"));
    assert_non_null(strstr(e.msg, "incorrect data check"));
    free(out);
    free(a);
    free(b);
    free(s);
}

/* A process decodes its first 16 KiB of small zlib regions with zlib and
 * the rest with libdeflate (region.c, fast_worth_it): small regions
 * checked 40 times over, across the switch, decode the same way on both
 * sides of it, damage and truncation included. */
static void test_inflate_small_regions_either_path(void **state)
{
    (void)state;
    ios_region_set_zlib_first(16384); /* as at the start of a process */
    size_t compressed = 0;
    for (int round = 0; round < 40; round++) {
        size_t n = check_concat_sized(IOSAGE_COMP_ZLIB, 3000, 2000);
        assert_true(n < 4096); /* a small region */
        compressed += 4 * n; /* four decodes of the whole region, and a cut one */
    }
    assert_true(compressed > 2 * 16384); /* well past the switch */
}

static void test_inflate_bzip2(void **state)
{
    (void)state;
    check_concat(IOSAGE_COMP_BZIP2);
}

static void test_inflate_raw_and_odd(void **state)
{
    (void)state;
    uint8_t src[10] = "abcdefghi", *out;
    size_t n;
    int trunc;
    iosage_error e;
    assert_int_equal(ios_region_inflate(src, 10, IOSAGE_COMP_NONE, 100, &out,
                                        &n, &trunc, "p", "w", 0, &e),
                     IOSAGE_OK);
    assert_int_equal(n, 10);
    assert_memory_equal(out, src, 10);
    free(out);
    assert_int_equal(ios_region_inflate(src, 10, IOSAGE_COMP_NONE, 9, &out, &n,
                                        &trunc, "p", "w", 0, &e),
                     IOSAGE_E_LIMIT);
    assert_int_equal(ios_region_inflate(src, 10, 7, 100, &out, &n, &trunc, "p",
                                        "w", 0, &e),
                     IOSAGE_E_UNSUPPORTED);
    assert_int_equal(ios_region_inflate(src, 0, IOSAGE_COMP_ZLIB, 100, &out,
                                        &n, &trunc, "p", "w", 0, &e),
                     IOSAGE_OK);
    assert_int_equal(n, 0);
    assert_int_equal(ios_region_inflate(src, 10, IOSAGE_COMP_ZLIB, 100, &out,
                                        &n, &trunc, "p", "w", 0, &e),
                     IOSAGE_E_DECOMPRESS);
    free(out);

    /* deflate -> inflate */
    uint8_t *data = sample(70000, 3);
    ios_buf b = {0};
    assert_int_equal(ios_region_deflate(data, 70000, &b, &e), IOSAGE_OK);
    assert_int_equal(ios_region_inflate(b.p, b.len, IOSAGE_COMP_ZLIB, 70000,
                                        &out, &n, &trunc, "p", "w", 0, &e),
                     IOSAGE_OK);
    assert_int_equal(n, 70000);
    assert_memory_equal(out, data, 70000);
    assert_int_equal(b.p[0], 0x78); /* RFC 1950 header */
    free(out);
    free(data);
    ios_buf_free(&b);
}

/* --- synthetic: job text and names ---------------------------------------------- */

/* Decode a 3.21 job region whose text part is text (plus NUL if nul). */
static iosage_status job_from_text(const char *text, int nul,
                                   struct iosage_job *job, ios_arena *a,
                                   iosage_error *e)
{
    static uint8_t d[4096];
    struct iosage_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.version, "3.21", 5);
    h.ver_major = 3;
    h.ver_minor = 21;
    memset(d, 0, sizeof d);
    put64(d, 1000, 0);
    put64(d + 8, 5, 0);
    put64(d + 16, 7, 0);
    put64(d + 24, 16, 0);
    put64(d + 32, 99, 0);
    memcpy(d + 40, "lib_ver=3.2.1\n", 14);
    size_t n = strlen(text);
    memcpy(d + 1064, text, n);
    size_t len = 1064 + n + (nul ? 1 : 0);
    if (len <= 1080)
        len = 1081; /* pad with NULs to the minimum */
    return ios_job_decode(d, len, &h, job, a, "p", e);
}

static void test_job_text_rules(void **state)
{
    (void)state;
    ios_arena *a = ios_arena_create();
    struct iosage_job j;
    iosage_error e;

    /* sorted by mount-point length, longest first, stable among equals */
    assert_int_equal(job_from_text("./app -x\nnfs\t/aa\next4\t/\nnfs\t/bb\n"
                                   "gpfs\t/longer\nxfs\t/cc", 1, &j, a, &e),
                     IOSAGE_OK);
    assert_string_equal(j.exe, "./app -x");
    assert_int_equal(j.uid, 1000);
    assert_int_equal(j.start_time_sec, 5);
    assert_int_equal(j.end_time_sec, 7);
    assert_int_equal(j.nprocs, 16);
    assert_int_equal(j.jobid, 99);
    assert_string_equal(j.metadata, "lib_ver=3.2.1\n");
    assert_int_equal(j.n_mounts, 5);
    const char *order[] = {"/longer", "/aa", "/bb", "/cc", "/"};
    for (int i = 0; i < 5; i++)
        assert_string_equal(j.mounts[i].point, order[i]);
    assert_string_equal(j.mounts[0].fs_type, "gpfs");

    /* no newline: the executable is empty; no NUL stored is fine */
    assert_int_equal(job_from_text("just-a-command", 0, &j, a, &e), IOSAGE_OK);
    assert_string_equal(j.exe, "");
    assert_int_equal(j.n_mounts, 0);

    /* a mount point with a blank is cut at the blank */
    assert_int_equal(job_from_text("a\nfuse\t/mnt/my disk", 1, &j, a, &e),
                     IOSAGE_OK);
    assert_string_equal(j.mounts[0].point, "/mnt/my");

    /* an entry's tokens run past its line, as with sscanf("%s %s"): the
     * first entry's mount point is the second entry's type */
    assert_int_equal(job_from_text("exe\nnfs\n/home\t/x", 1, &j, a, &e),
                     IOSAGE_OK);
    assert_string_equal(j.exe, "exe");
    assert_int_equal(j.n_mounts, 2);
    assert_string_equal(j.mounts[0].fs_type, "nfs");
    assert_string_equal(j.mounts[0].point, "/home");
    assert_string_equal(j.mounts[1].fs_type, "/home");
    assert_string_equal(j.mounts[1].point, "/x");

    /* a line without two tokens fails the mount table */
    assert_int_equal(job_from_text("a\next4\t/\nlonely", 1, &j, a, &e),
                     IOSAGE_E_CORRUPT);
    assert_string_equal(e.where, "job region");
    assert_non_null(strstr(e.msg, "mount entry 2"));
    assert_int_equal(job_from_text("a\n", 1, &j, a, &e), IOSAGE_E_CORRUPT);

    /* job data must be longer than 1080 bytes, whatever the version */
    uint8_t small[1080] = {0};
    struct iosage_header h;
    memset(&h, 0, sizeof h);
    h.ver_major = 3;
    h.ver_minor = 21;
    assert_int_equal(ios_job_decode(small, sizeof small, &h, &j, a, "p", &e),
                     IOSAGE_E_CORRUPT);
    assert_non_null(strstr(e.msg, "1080"));
    ios_arena_destroy(a);
}

static void test_names_region(void **state)
{
    (void)state;
    ios_arena *a = ios_arena_create();
    ios_names t = {0};
    iosage_error e;
    uint8_t d[256];
    size_t n = 0;
    /* 3.10+: id 1 "", id 2 "/b", id 1 "/a", id 2 "/c" -> 1:"/a" 2:"/b" */
    put64(d + n, 1, 0), n += 8, d[n++] = 0;
    put64(d + n, 2, 0), n += 8, memcpy(d + n, "/b", 3), n += 3;
    put64(d + n, 1, 0), n += 8, memcpy(d + n, "/a", 3), n += 3;
    put64(d + n, 2, 0), n += 8, memcpy(d + n, "/c", 3), n += 3;
    assert_int_equal(ios_names_decode(&t, d, n, 0, 0, a, "p", &e), IOSAGE_OK);
    assert_int_equal(t.n, 2);
    assert_int_equal(t.v[0].id, 1);
    assert_string_equal(t.v[0].name, "/a");
    assert_string_equal(ios_names_find(&t, 2)->name, "/b");
    assert_null(ios_names_find(&t, 3));

    /* an entry without terminator at the end is an error with its offset */
    memcpy(d + n, "\x05\0\0\0\0\0\0\0/unterminated", 21);
    ios_names_free(&t);
    assert_int_equal(ios_names_decode(&t, d, n + 21, 0, 0, a, "p", &e),
                     IOSAGE_E_CORRUPT);
    assert_string_equal(e.where, "name region");
    assert_true(e.has_offset);
    assert_int_equal(e.offset, n);
    char want[100];
    snprintf(want, sizeof want, "entry at offset %zu has no terminator", n);
    assert_non_null(strstr(e.msg, want));
    ios_names_free(&t);
    /* an id cut short */
    assert_int_equal(ios_names_decode(&t, d, 5, 0, 0, a, "p", &e),
                     IOSAGE_E_CORRUPT);
    ios_names_free(&t);

    /* 3.00, big-endian: id, u32 length, bytes; first entry wins */
    n = 0;
    put64(d + n, 7, 1), n += 8, put32(d + n, 0, 1), n += 4;
    put64(d + n, 7, 1), n += 8, put32(d + n, 3, 1), n += 4;
    memcpy(d + n, "/xy", 3), n += 3;
    put64(d + n, 8, 1), n += 8, put32(d + n, 2, 1), n += 4;
    memcpy(d + n, "/z", 2), n += 2;
    assert_int_equal(ios_names_decode(&t, d, n, 1, 1, a, "p", &e), IOSAGE_OK);
    assert_string_equal(ios_names_find(&t, 7)->name, "");
    assert_string_equal(ios_names_find(&t, 8)->name, "/z");
    ios_names_free(&t);
    /* a length past the region end */
    assert_int_equal(ios_names_decode(&t, d, n - 1, 1, 1, a, "p", &e),
                     IOSAGE_E_CORRUPT);
    assert_non_null(strstr(e.msg, "2-byte name"));
    ios_names_free(&t);

    /* the index survives growth */
    for (uint64_t i = 0; i < 5000; i++)
        assert_int_equal(ios_names_put(&t, i * 0x10000, "n", 1, 1, a),
                         IOSAGE_OK);
    for (uint64_t i = 0; i < 5000; i++)
        assert_non_null(ios_names_find(&t, i * 0x10000));
    assert_null(ios_names_find(&t, 1));
    ios_names_free(&t);
    ios_arena_destroy(a);
}

static void test_arena(void **state)
{
    (void)state;
    ios_arena *a = ios_arena_create();
    for (int round = 0; round < 3; round++) {
        for (size_t i = 1; i < 2000; i += 37) {
            uint8_t *p = ios_arena_alloc(a, i);
            assert_non_null(p);
            assert_int_equal((uintptr_t)p % 8, 0);
            for (size_t k = 0; k < i; k++)
                assert_int_equal(p[k], 0);
            memset(p, 0xab, i);
        }
        assert_non_null(ios_arena_alloc(a, 1 << 20));
        ios_arena_reset(a);
    }
    assert_string_equal(ios_arena_strdup(a, "abc"), "abc");
    assert_null(ios_arena_alloc(a, SIZE_MAX));
    ios_arena_destroy(a);
    ios_arena_destroy(NULL);
}

static void test_errors(void **state)
{
    (void)state;
    iosage_error e;
    char line[600];
    assert_int_equal(ios_fail(&e, IOSAGE_E_CORRUPT, "a.darshan", "POSIX", 42,
                              "bad %s\nthing", "x"),
                     IOSAGE_E_CORRUPT);
    assert_string_equal(iosage_error_line(&e, line, sizeof line),
                        "a.darshan: POSIX: bad x thing (at byte 42)");
    ios_fail(&e, IOSAGE_E_NOMEM, NULL, NULL, -1, "%s", "");
    assert_string_equal(iosage_error_line(&e, line, sizeof line),
                        "out of memory");
    assert_int_equal(ios_fail(NULL, IOSAGE_E_IO, NULL, NULL, -1, "x"),
                     IOSAGE_E_IO);
    int codes[] = {0, 10, 20, 21, 22, 23, 24, 25, 30, 32, 40, 50, 99};
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
        assert_non_null(iosage_strerror((iosage_status)codes[i]));
    assert_string_equal(iosage_strerror(IOSAGE_E_CORRUPT), "corrupt log");
    /* small buffers are cut, always terminated */
    ios_fail(&e, IOSAGE_E_CORRUPT, "a.darshan", "POSIX", 42, "long message");
    iosage_error_line(&e, line, 8);
    assert_int_equal(strlen(line), 7);
}

static void test_module_facts(void **state)
{
    (void)state;
    const char *names[] = {"NULL", "POSIX", "MPI-IO", "H5F", "H5D",
                           "PNETCDF_FILE", "PNETCDF_VAR", "BG/Q", "LUSTRE",
                           "STDIO", "DXT_POSIX", "DXT_MPIIO", "MDHIM", "APXC",
                           "APMPI", "HEATMAP", "DFS", "DAOS"};
    uint32_t maxv[] = {0, 4, 3, 3, 2, 3, 1, 2, 2, 2, 1, 2, 1, 1, 1, 1, 1, 1};
    for (int k = 0; k < 18; k++) {
        assert_string_equal(iosage_module_name(k), names[k]);
        assert_int_equal(iosage_module_max_version(k), maxv[k]);
        assert_true((ios_module_codec_get(k) != NULL) == (maxv[k] != 0));
    }
    assert_string_equal(iosage_module_name(18), "<UNKNOWN>");
    assert_string_equal(iosage_module_name(-1), "<UNKNOWN>");
    assert_int_equal(iosage_module_max_version(40), 0);
    assert_null(ios_module_codec_get(64));
}

/* --- synthetic: damaged module regions of real logs ------------------------- */

/* A private copy of a shared log. */
static uint8_t *copy_log(const char *name, size_t *len)
{
    uint8_t *b = tu_read_file(log_path(name), len);
    assert_non_null(b);
    return b;
}

/* The module id of the region that starts last in the file. */
static int last_module(const struct iosage_header *h)
{
    int best = -1;
    for (int k = 0; k < IOSAGE_MAX_MODULES; k++)
        if (h->modules[k].len > 0 &&
            (best < 0 || h->modules[k].off > h->modules[best].off))
            best = k;
    return best;
}

/* Module id of the log in buf, read with flags. */
static iosage_module_data module_of(const uint8_t *buf, size_t len, int id,
                                    int flags)
{
    iosage_reader *r;
    iosage_error e;
    iosage_module_data m;
    memset(&m, 0, sizeof m);
    assert_int_equal(iosage_reader_open_mem(buf, len, "cut", flags, &r, &e),
                     IOSAGE_OK);
    assert_true(find_module(r, id, &m));
    iosage_reader_close(r);
    return m;
}

/* A file cut inside its last region: TRUNCATED, leading records kept. */
static void test_truncated_file(void **state)
{
    (void)state;
    if (!g_have_logs)
        skip();
    size_t len;
    uint8_t *b = copy_log("example.darshan", &len);
    iosage_reader *r;
    iosage_error e;
    assert_int_equal(iosage_reader_open_mem(b, len, "full", 0, &r, &e),
                     IOSAGE_OK);
    int id = last_module(iosage_reader_header(r));
    struct iosage_region reg = iosage_reader_header(r)->modules[id];
    iosage_module_data full;
    assert_true(find_module(r, id, &full));
    iosage_reader_close(r);
    assert_int_equal(full.status, IOSAGE_OK);
    assert_true(full.n_records > 10);

    size_t cut = (size_t)(reg.off + reg.len / 2);
    iosage_module_data m = module_of(b, cut, id, 0);
    assert_int_equal(m.status, IOSAGE_E_TRUNCATED);
    assert_true(m.n_records > 0 && m.n_records < full.n_records);
    assert_non_null(strstr(m.err.msg, "past the end of the file"));
    assert_string_equal(m.err.where, m.name);
    m = module_of(b, cut, id, IOSAGE_READ_COMPAT);
    assert_int_equal(m.status, IOSAGE_E_TRUNCATED);
    assert_int_equal(m.n_records, 0);

    /* the map says fewer bytes than the stream has: ends mid-stream */
    struct iosage_header h;
    assert_int_equal(ios_header_decode(b, len, &h, "x", NULL), IOSAGE_OK);
    /* 3.10 header: slot 7 holds STDIO (id 9); length at 40 + 16*7 + 8 */
    assert_int_equal(id, IOSAGE_MOD_STDIO);
    put64(b + 40 + 16 * 7 + 8, reg.len / 2, 0);
    m = module_of(b, len, id, 0);
    assert_int_equal(m.status, IOSAGE_E_TRUNCATED);
    assert_non_null(strstr(m.err.msg, "middle of a compressed stream"));
    assert_true(m.n_records > 0 && m.n_records < full.n_records);
    put64(b + 40 + 16 * 7 + 8, reg.len, 0);

    /* damaged bytes in the middle: DECOMPRESS for this module only */
    b[reg.off + reg.len / 2] ^= 0x55;
    b[reg.off + reg.len / 2 + 1] ^= 0xaa;
    m = module_of(b, len, id, 0);
    assert_int_equal(m.status, IOSAGE_E_DECOMPRESS);
    assert_true(m.err.has_offset);
    iosage_module_data posix = module_of(b, len, IOSAGE_MOD_POSIX, 0);
    assert_int_equal(posix.status, IOSAGE_OK);
    free(b);
}

/* Unknown module ids and too-new versions are skipped with a notice. */
static void test_unknown_modules(void **state)
{
    (void)state;
    if (!g_have_logs)
        skip();
    size_t len;
    uint8_t *b = copy_log("mpi-io-test-x86_64-3.4.7.darshan", &len);
    struct iosage_header h;
    assert_int_equal(ios_header_decode(b, len, &h, "x", NULL), IOSAGE_OK);
    /* point slot 40 at the POSIX region; POSIX claims version 9 */
    put64(b + 48 + 16 * 40, h.modules[1].off, 0);
    put64(b + 48 + 16 * 40 + 8, h.modules[1].len, 0);
    put32(b + 1072 + 4 * 40, 1, 0);
    put32(b + 1072 + 4 * 1, 9, 0);
    iosage_module_data m = module_of(b, len, 40, 0);
    assert_int_equal(m.skipped, 1);
    assert_string_equal(m.name, "<UNKNOWN>");
    assert_string_equal(m.notice, "module id 40 is unknown");
    m = module_of(b, len, IOSAGE_MOD_POSIX, 0);
    assert_int_equal(m.skipped, 1);
    assert_non_null(strstr(m.notice, "version 9"));
    /* the NULL module (id 0) has no codec: skipped */
    put64(b + 48, h.modules[1].off, 0);
    put64(b + 56, h.modules[1].len, 0);
    put32(b + 1072, 1, 0);
    m = module_of(b, len, IOSAGE_MOD_NULL, 0);
    assert_int_equal(m.skipped, 1);
    assert_string_equal(m.notice, "no decoder for module NULL");
    /* version 0 with data */
    put32(b + 1072 + 4 * 1, 0, 0);
    m = module_of(b, len, IOSAGE_MOD_POSIX, 0);
    assert_int_equal(m.skipped, 1);
    /* a region past the end of the file (offset beyond it) */
    put32(b + 1072 + 4 * 1, 4, 0);
    put64(b + 48 + 16 * 1, len + 100, 0);
    m = module_of(b, len, IOSAGE_MOD_POSIX, 0);
    assert_int_equal(m.status, IOSAGE_E_TRUNCATED);
    assert_int_equal(m.n_records, 0);
    free(b);
}

/* Streaming: every module of every log, once, in ascending id. */
static void test_stream_all(void **state)
{
    (void)state;
    if (!g_have_logs)
        skip();
    char **logs = tu_list_logs(tu_shared_logs());
    size_t opened = 0, modules = 0, records = 0;
    for (char **p = logs; *p; p++) {
        iosage_reader *r;
        iosage_error e;
        if (iosage_reader_open(*p, 0, &r, &e) != IOSAGE_OK)
            continue;
        opened++;
        const iosage_module_data *m;
        int last = -1;
        while (iosage_reader_next_module(r, &m, &e) == IOSAGE_OK && m) {
            assert_true(m->id > last);
            last = m->id;
            modules++;
            records += m->n_records;
            for (size_t i = 0; i < m->n_records; i++)
                assert_int_equal(m->records[i].module, m->id);
        }
        assert_null(m);
        /* after the end, more calls keep returning NULL */
        assert_int_equal(iosage_reader_next_module(r, &m, &e), IOSAGE_OK);
        assert_null(m);
        iosage_reader_close(r);
    }
    print_message("streamed %zu logs, %zu modules, %zu records\n", opened,
                  modules, records);
    tu_free_list(logs);
}

static int setup(void **state)
{
    (void)state;
    g_have_logs = tu_shared_logs() != NULL;
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_no_traces),
        cmocka_unit_test(test_arena),
        cmocka_unit_test(test_module_facts),
        cmocka_unit_test(test_remap_310),
        cmocka_unit_test(test_job_len_inference),
        cmocka_unit_test(test_version_errors),
        cmocka_unit_test(test_inflate_zlib),
        cmocka_unit_test(test_inflate_zlib_high_ratio),
        cmocka_unit_test(test_inflate_small_regions_either_path),
        cmocka_unit_test(test_inflate_bzip2),
        cmocka_unit_test(test_inflate_raw_and_odd),
        cmocka_unit_test(test_job_text_rules),
        cmocka_unit_test(test_names_region),
        cmocka_unit_test(test_against_parser),
        cmocka_unit_test(test_341_x86),
        cmocka_unit_test(test_310_ppc64),
        cmocka_unit_test(test_300_logs),
        cmocka_unit_test(test_partial_flags),
        cmocka_unit_test(test_apxc),
        cmocka_unit_test(test_load),
        cmocka_unit_test(test_truncated_file),
        cmocka_unit_test(test_unknown_modules),
        cmocka_unit_test(test_stream_all),
    };
    int failed = cmocka_run_group_tests(tests, setup, NULL);
    if (failed == 0 && !tu_shared_logs()) {
        fprintf(stderr, "test_reader: shared logs not found; real-log tests "
                        "skipped\n");
        return 77;
    }
    return failed;
}
