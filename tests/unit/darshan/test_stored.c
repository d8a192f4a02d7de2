/*
 * tests/unit/darshan/test_stored.c - reading a log file without the regions
 * the read flags leave out (src/darshan/stored.c) loads the same log as
 * reading it whole, on damaged logs too.
 *
 * Every input of the reader's fuzz corpus and regressions (tests/fuzz:
 * logs our writer made, then mutated by libFuzzer: impossible offsets,
 * overlapping and truncated regions, lying headers) is written to a file
 * and read twice, whole and region by region (with the size threshold at
 * 0, so that these small files take that path), then loaded with the flags
 * that batch uses. The two loads must agree: the load status and error,
 * every module's status, record count and POSIX records.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/ios_file.h"
#include "darshan/internal.h"
#include "iosage/darshan.h"
#include "testutil.h"

#define FLAGS (IOSAGE_READ_NO_TRACES | IOSAGE_READ_IO_ONLY)

/* Load path's bytes as read by one of the two ways; *st gets the status. */
static iosage_log *load_one(const char *path, int sparse, iosage_status *st,
                            iosage_error *e)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    *st = sparse ? ios_log_read_file_from(path, FLAGS, 0, &buf, &len, e)
                 : ios_read_file(path, 0, &buf, &len, e);
    if (*st != IOSAGE_OK)
        return NULL;
    iosage_log *log = NULL;
    *st = iosage_log_load_mem(buf, len, path, FLAGS, &log, e);
    free(buf);
    return log;
}

/* The two loads of path agree; returns 1 when the log loaded. */
static int check_same(const char *path)
{
    iosage_status sa, sb;
    iosage_error ea, eb;
    memset(&ea, 0, sizeof ea);
    memset(&eb, 0, sizeof eb);
    iosage_log *a = load_one(path, 1, &sa, &ea);
    iosage_log *b = load_one(path, 0, &sb, &eb);
    if (sa != sb || strcmp(ea.msg, eb.msg) != 0)
        fail_msg("%s: %d \"%s\" read region by region, %d \"%s\" whole", path,
                 (int)sa, ea.msg, (int)sb, eb.msg);
    int loaded = a != NULL;
    for (int m = 0; a && b && m < IOSAGE_MAX_MODULES; m++) {
        const iosage_module_data *x = &a->modules[m], *y = &b->modules[m];
        if (x->status != y->status || x->n_records != y->n_records)
            fail_msg("%s: module %d: status %d, %zu records region by region; "
                     "%d, %zu whole", path, m, (int)x->status, x->n_records,
                     (int)y->status, y->n_records);
        if (m != IOSAGE_MOD_POSIX)
            continue;
        for (size_t i = 0; i < x->n_records; i++) {
            const iosage_record *p = &x->records[i], *q = &y->records[i];
            assert_int_equal(p->id, q->id);
            assert_int_equal(p->rank, q->rank);
            assert_int_equal(p->n_counters, q->n_counters);
            assert_memory_equal(p->counters, q->counters,
                                (size_t)p->n_counters * sizeof *p->counters);
        }
    }
    iosage_log_free(a);
    iosage_log_free(b);
    return loaded;
}

/* Copy every file of dir whose name starts with prefix into tmp and check
 * it; returns how many were checked, *loaded how many loaded. */
static int check_dir(const char *dir, const char *prefix, const char *tmp,
                     int *loaded)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *ent;
    char src[2048], dst[2048];
    while ((ent = readdir(d)) != NULL) {
        if (ent->d_name[0] == '.' ||
            strncmp(ent->d_name, prefix, strlen(prefix)) != 0)
            continue;
        snprintf(src, sizeof src, "%s/%s", dir, ent->d_name);
        size_t len = 0;
        uint8_t *data = tu_read_file(src, &len);
        assert_non_null(data);
        snprintf(dst, sizeof dst, "%s/input.darshan", tmp);
        FILE *f = fopen(dst, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(data, 1, len, f), len);
        assert_int_equal(fclose(f), 0);
        free(data);
        *loaded += check_same(dst);
        n++;
        unlink(dst);
    }
    closedir(d);
    return n;
}

static void test_fuzz_corpus_reads_alike(void **state)
{
    (void)state;
    char *tmp = tu_mkdtemp();
    assert_non_null(tmp);
    int loaded = 0;
    int n = check_dir(IOSAGE_SOURCE_DIR "/tests/fuzz/corpus", "", tmp, &loaded);
    n += check_dir(IOSAGE_SOURCE_DIR "/tests/fuzz/regressions", "reader-", tmp,
                   &loaded);
    printf("%d inputs read both ways, %d of them loaded\n", n, loaded);
    assert_true(n >= 100);
    assert_true(loaded >= 10);
    rmdir(tmp);
    free(tmp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fuzz_corpus_reads_alike),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
