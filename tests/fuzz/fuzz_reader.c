/*
 * tests/fuzz/fuzz_reader.c - libFuzzer target: any bytes given to the reader
 * end in an error or in data; the data then survives dump, write, the
 * feature computation and the rules.
 *
 * Built two ways:
 *   - with clang -fsanitize=fuzzer (make fuzz): libFuzzer drives it;
 *   - with replay.c (ctest fuzz_replay): replays the saved corpus and every
 *     crash regression under ASan/UBSan, without libFuzzer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "iosage/darshan.h"
#include "iosage/dump.h"
#include "iosage/features.h"
#include "iosage/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink(void)
{
    static FILE *devnull;
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    return devnull;
}

static void load_and_write(const uint8_t *data, size_t size, int flags)
{
    iosage_error err;
    iosage_log *log = NULL;
    if (iosage_log_load_mem(data, size, "fuzz", flags, &log, &err) != IOSAGE_OK)
        return;
    uint8_t *out = NULL;
    size_t out_len = 0;
    if (iosage_log_write_mem(log, &out, &out_len, &err) == IOSAGE_OK)
        free(out);
    if (flags == IOSAGE_READ_DEFAULT) {
        float features[IOSAGE_NUM_FEATURES];
        struct iosage_rule_result rules;
        iosage_features_compute(log, features, &err);
        iosage_rules_eval(log, NULL, &rules);
    }
    iosage_log_free(log);
}

static void dump(const uint8_t *data, size_t size, int dxt)
{
    iosage_error err;
    iosage_reader *r = NULL;
    if (iosage_reader_open_mem(data, size, "fuzz", IOSAGE_READ_COMPAT, &r,
                               &err) != IOSAGE_OK)
        return;
    struct iosage_dump_result res;
    if (dxt)
        iosage_dump_dxt(r, IOSAGE_DUMP_SHOW_INCOMPLETE, sink(), sink(), &res,
                        &err);
    else
        iosage_dump_parser(r, IOSAGE_DUMP_ALL, sink(), sink(), &res, &err);
    iosage_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    load_and_write(data, size, IOSAGE_READ_DEFAULT);
    load_and_write(data, size, IOSAGE_READ_COMPAT);
    dump(data, size, 0);
    dump(data, size, 1);
    return 0;
}
