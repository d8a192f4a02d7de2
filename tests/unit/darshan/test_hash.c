/*
 * tests/unit/test_hash.c - the record-id hash against every test vector of
 * the format spec (section 17), plus the lengths around the 24-byte block
 * boundary that the vectors do not reach.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "iosage/darshan.h"

static uint64_t hash_str(const char *s)
{
    return iosage_darshan_hash(s, strlen(s));
}

static void test_spec_vectors(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        uint64_t id;
    } v[] = {
        {"", 10211412111675192767ULL},
        {"<STDIN>", 14734109647742566553ULL},
        {"<STDOUT>", 15920181672442173319ULL},
        {"<STDERR>", 7238257241479193519ULL},
        {"heatmap:POSIX", 16592106915301738621ULL},
        {"heatmap:STDIO", 3989511027826779520ULL},
        {"heatmap:DFS", 1597927878319380788ULL},
        {"heatmap:DAOS", 4131494093108637317ULL},
        {"darshan-bgq-record", 17224881367579287459ULL},
        {"/gpfs/mira-fs0/projects/SSSPPg/snyder/tmp/mpi-io-test.tmp.dat",
         9063791019878933741ULL},
        {"heatmap:MPIIO", 3668870418325792824ULL},
        {"APMPI", 2250748219237254214ULL},
        {"darshan-apmpi-header", 7713204788897956166ULL},
        {"total-mdhim-obj-stats", 5828525108966349513ULL},
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        uint64_t got = hash_str(v[i].name);
        if (got != v[i].id)
            fail_msg("hash(\"%s\") = %llu, expected %llu", v[i].name,
                     (unsigned long long)got, (unsigned long long)v[i].id);
    }
}

/* The hash reads only name[0..len): bytes after it must not matter, and
 * every tail length 0..23 after a full block gives a distinct value. */
static void test_lengths(void **state)
{
    (void)state;
    char a[64], b[64];
    memset(a, 'x', sizeof a);
    memset(b, 'y', sizeof b);
    uint64_t seen[49];
    for (size_t len = 0; len <= 48; len++) {
        memcpy(b, a, len);
        assert_int_equal(iosage_darshan_hash(a, len),
                         iosage_darshan_hash(b, len));
        seen[len] = iosage_darshan_hash(a, len);
        for (size_t k = 0; k < len; k++)
            assert_true(seen[k] != seen[len]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_vectors),
        cmocka_unit_test(test_lengths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
