/*
 * tests/unit/common/test_outfile.c - src/common/outpath.c and outfile.c
 * (issue 17, points 1 and 2): which output paths name an input, and
 * output files written whole or not at all.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ios_outfile.h"
#include "ios_outpath.h"
#include "testutil.h"

/* dir/name into buf. */
static const char *at(char *buf, size_t size, const char *dir,
                      const char *name)
{
    snprintf(buf, size, "%s/%s", dir, name);
    return buf;
}

/* Write text to path. */
static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* The same file: one path, other spellings, a symbolic and a hard link;
 * not the same: another file, a file and a missing one; two missing ones
 * that normalise alike. */
static void test_same_file(void **state)
{
    (void)state;
    char *d = tu_mkdtemp();
    char a[512], b[512], s[512], h[512], x[512], y[512];
    put(at(a, sizeof a, d, "a.darshan"), "log");
    put(at(b, sizeof b, d, "b.darshan"), "log");
    assert_int_equal(symlink(a, at(s, sizeof s, d, "s.darshan")), 0);
    assert_int_equal(link(a, at(h, sizeof h, d, "h.darshan")), 0);
    assert_true(ios_same_file(a, a));
    snprintf(x, sizeof x, "%s/./sub/..//a.darshan", d);
    assert_true(ios_same_file(x, a) == 0); /* sub does not exist */
    snprintf(x, sizeof x, "%s//./a.darshan", d);
    assert_true(ios_same_file(x, a));
    assert_true(ios_same_file(s, a));
    assert_true(ios_same_file(a, h));
    assert_false(ios_same_file(a, b));
    snprintf(x, sizeof x, "%s/new.txt", d);
    assert_false(ios_same_file(x, a));
    snprintf(y, sizeof y, "%s/./new.txt", d);
    assert_true(ios_same_file(x, y));
    snprintf(y, sizeof y, "%s/other.txt", d);
    assert_false(ios_same_file(x, y));
    /* relative and absolute spellings of a missing file */
    char cwd[512];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(d), 0);
    assert_true(ios_same_file("new.txt", x));
    assert_true(ios_same_file("a.darshan", a));
    assert_int_equal(chdir(cwd), 0);
    const char *inputs[3] = {b, NULL, s};
    assert_int_equal(ios_output_clash(a, 0, inputs, 3), 2);
    assert_int_equal(ios_output_clash(x, 0, inputs, 3), -1);
    /* a directory output holds an input at any depth, and is no prefix
     * match: DIR/ab is not inside DIR/a */
    assert_int_equal(ios_output_clash(d, 1, inputs, 3), 0);
    assert_true(ios_path_within(a, d));
    assert_true(ios_path_within(d, d));
    snprintf(x, sizeof x, "%s/a", d);
    assert_false(ios_path_within(a, x));
    assert_false(ios_path_within("/", d));
    assert_true(ios_path_within(d, "/"));
    unlink(a), unlink(b), unlink(s), unlink(h);
    rmdir(d);
    free(d);
}

/* 1 when dir holds no file whose name contains ".tmp.". */
static int no_temp(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -a '%s' | grep '\\.tmp\\.')\"",
             dir);
    return system(cmd) == 0;
}

/* A new file, a replaced file (its mode kept), an aborted write (the old
 * file untouched, no temporary file), /dev/null written in place, a
 * directory refused, and /dev/full reported with ENOSPC. */
static void test_outfile(void **state)
{
    (void)state;
    char *d = tu_mkdtemp();
    char p[512], buf[64];
    at(p, sizeof p, d, "out.txt");
    assert_int_equal(ios_outfile_write(p, "one\n", 4), 0);
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "one\n");
    assert_int_equal(chmod(p, 0640), 0);
    assert_int_equal(ios_outfile_write(p, "two\n", 4), 0);
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);
    struct ios_outfile o;
    assert_int_equal(ios_outfile_open(&o, p), 0);
    assert_non_null(o.tmp);
    fputs("partial", o.f);
    ios_outfile_abort(&o);
    f = fopen(p, "r");
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "two\n");
    assert_true(no_temp(d));
    assert_int_equal(ios_outfile_open(&o, "/dev/null"), 0);
    assert_null(o.tmp);
    assert_int_equal(ios_outfile_commit(&o), 0);
    assert_int_equal(ios_outfile_write(d, "x", 1), EISDIR);
    if (access("/dev/full", W_OK) == 0)
        assert_int_equal(ios_outfile_write("/dev/full", "x", 1), ENOSPC);
    at(p, sizeof p, d, "no/such/dir.txt");
    assert_int_equal(ios_outfile_write(p, "x", 1), ENOENT);
    assert_true(no_temp(d));
    at(p, sizeof p, d, "out.txt");
    unlink(p);
    rmdir(d);
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_file),
        cmocka_unit_test(test_outfile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
