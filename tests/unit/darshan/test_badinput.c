/*
 * tests/unit/test_badinput.c - damaged logs end in a clear error or in
 * correct data: never a crash, a leak (ASan) or a hang.
 *
 * Inputs: the demo log written by our own writer, plus a few real logs from
 * ../shared when present (a 3.41 log with many modules, big-endian 3.10 and
 * 3.00 logs, a DXT log). Each is cut at many lengths and has bytes flipped;
 * every mutant is loaded in both read modes, dumped to /dev/null, and (when
 * it loads) written again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#include <cmocka.h>

#include "example_log.h"
#include "iosage/darshan.h"
#include "iosage/dump.h"
#include "testutil.h"

static FILE *devnull;
static size_t n_ok, n_err;

/* Load buf both ways; check the outcome is either success or an error with
 * a code and a message. Exercise dump and the writer on what loads. */
static void try_input(const uint8_t *buf, size_t len)
{
    for (int flags = 0; flags <= IOSAGE_READ_COMPAT; flags++) {
        iosage_error err;
        iosage_log *log = NULL;
        iosage_status st = iosage_log_load_mem(buf, len, "mutant.darshan",
                                               flags, &log, &err);
        if (st != IOSAGE_OK) {
            assert_null(log);
            assert_int_equal(err.code, st);
            assert_true(err.msg[0] != '\0');
            assert_non_null(strstr(err.path, "mutant"));
            n_err++;
            continue;
        }
        n_ok++;
        uint8_t *out = NULL;
        size_t out_len = 0;
        if (iosage_log_write_mem(log, &out, &out_len, &err) == IOSAGE_OK)
            free(out);
        iosage_log_free(log);

        iosage_reader *r = NULL;
        if (iosage_reader_open_mem(buf, len, "mutant.darshan", IOSAGE_READ_COMPAT,
                                   &r, &err) == IOSAGE_OK) {
            struct iosage_dump_result res;
            memset(&res, 0, sizeof res);
            if (flags == 0)
                iosage_dump_parser(r, IOSAGE_DUMP_ALL, devnull, devnull, &res,
                                   &err);
            else
                iosage_dump_dxt(r, IOSAGE_DUMP_SHOW_INCOMPLETE, devnull,
                                devnull, &res, &err);
            iosage_reader_close(r);
        }
    }
}

/* Cut at every length through the header and job region (the first
 * 1,600 bytes), then at about 400 lengths spread over the rest. */
static void truncations(const uint8_t *buf, size_t len)
{
    size_t stride = len / 400 > 7 ? len / 400 : 7;
    for (size_t cut = 0; cut < len; cut += (cut < 1600 ? 1 : stride))
        try_input(buf, cut);
}

/* Flip bytes at a stride across the file with a few patterns. */
static void flips(const uint8_t *buf, size_t len)
{
    static const uint8_t patterns[] = {0xff, 0x01, 0x80, 0x7f};
    uint8_t *copy = malloc(len);
    assert_non_null(copy);
    size_t stride = len / 300 > 3 ? len / 300 : 3;
    for (size_t i = 0; i < len; i += (i < 1400 ? 1 : stride)) {
        for (size_t p = 0; p < sizeof patterns; p++) {
            memcpy(copy, buf, len);
            copy[i] ^= patterns[p];
            try_input(copy, len);
        }
    }
    free(copy);
}

static void test_own_log(void **state)
{
    (void)state;
    iosage_error err;
    iosage_log *log = example_build_log(&err);
    assert_non_null(log);
    uint8_t *buf = NULL;
    size_t len = 0;
    assert_int_equal(iosage_log_write_mem(log, &buf, &len, &err), IOSAGE_OK);
    iosage_log_free(log);
    n_ok = n_err = 0;
    truncations(buf, len);
    flips(buf, len);
    /* The whole log loads, and a cut inside the header is always an error. */
    assert_true(n_ok > 0 && n_err > 0);
    free(buf);
}

static void test_shared_logs(void **state)
{
    (void)state;
    const char *dir = tu_shared_logs();
    if (!dir) {
        print_message("skipped: ../shared/darshan-logs not present\n");
        skip();
    }
    static const char *names[] = {
        "mpi-io-test-x86_64-3.4.7.darshan",
        "mpi-io-test-ppc64-3.1.0.darshan",
        "mpi-io-test-ppc64-3.0.1.darshan",
        "sample-dxt-simple.darshan",
        "sample-goodost.darshan",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t len;
        uint8_t *buf = tu_read_file(path, &len);
        if (!buf)
            continue;
        truncations(buf, len);
        flips(buf, len);
        free(buf);
    }
}

/* Count entries of dir other than . and .. */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, ".."))
            n++;
    if (d)
        closedir(d);
    return n;
}

/* A write that fails leaves no file behind. */
static void test_write_failure_leaves_nothing(void **state)
{
    (void)state;
    iosage_error err;
    iosage_log *log = example_build_log(&err);
    assert_non_null(log);
    char *dir = tu_mkdtemp();
    assert_non_null(dir);
    char path[1024];

    /* target is an existing directory: rename fails after the data is out */
    snprintf(path, sizeof path, "%s/isdir", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    assert_int_not_equal(iosage_log_write(log, path, &err), IOSAGE_OK);
    assert_int_equal(err.code, IOSAGE_E_IO);
    assert_non_null(strstr(err.path, "isdir"));
    assert_int_equal(count_entries(dir), 1);

    /* directory does not exist */
    snprintf(path, sizeof path, "%s/missing/out.darshan", dir);
    assert_int_not_equal(iosage_log_write(log, path, &err), IOSAGE_OK);
    assert_int_equal(count_entries(dir), 1);

    /* and a good write produces exactly one file that reads back */
    snprintf(path, sizeof path, "%s/ok.darshan", dir);
    assert_int_equal(iosage_log_write(log, path, &err), IOSAGE_OK);
    assert_int_equal(count_entries(dir), 2);
    iosage_log *back = NULL;
    assert_int_equal(iosage_log_load(path, 0, &back, &err), IOSAGE_OK);
    assert_int_equal(back->job.nprocs, 4);
    assert_int_equal(back->modules[IOSAGE_MOD_POSIX].n_records, 1);
    iosage_log_free(back);

    unlink(path);
    snprintf(path, sizeof path, "%s/isdir", dir);
    rmdir(path);
    rmdir(dir);
    free(dir);
    iosage_log_free(log);
}

/* Not a Darshan log, a missing file, an empty file: one clear error each. */
static void test_not_a_log(void **state)
{
    (void)state;
    iosage_error err;
    iosage_log *log = NULL;
    const char text[] = "this is not a darshan log, just some text......";
    assert_int_equal(iosage_log_load_mem(text, sizeof text, "notes.txt", 0,
                                         &log, &err),
                     IOSAGE_E_NOT_DARSHAN);
    assert_null(log);
    assert_int_equal(iosage_log_load("/nonexistent/dir/x.darshan", 0, &log,
                                     &err),
                     IOSAGE_E_IO);
    assert_int_not_equal(err.sys_errno, 0);
    assert_int_not_equal(iosage_log_load_mem("", 0, "empty.darshan", 0, &log,
                                             &err),
                         IOSAGE_OK);
    char line[800];
    iosage_error_line(&err, line, sizeof line);
    assert_non_null(strstr(line, "empty.darshan"));
}

int main(void)
{
    devnull = fopen("/dev/null", "w");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_not_a_log),
        cmocka_unit_test(test_write_failure_leaves_nothing),
        cmocka_unit_test(test_own_log),
        cmocka_unit_test(test_shared_logs),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    fclose(devnull);
    return rc;
}
