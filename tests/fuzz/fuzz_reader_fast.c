/*
 * tests/fuzz/fuzz_reader_fast.c - libFuzzer target: the reader alone, one
 * way (issue 17 point 7). Any bytes given to iosage_log_load_mem end in an
 * error or in a log, which is freed; nothing is written, dumped or
 * computed, so that each input costs only the decoding and the fuzzer can
 * run ten times as many inputs as fuzz_reader.c (which also writes, dumps
 * twice and computes features). Inputs are capped at 64 KiB by
 * scripts/fuzz-volume.sh (-max_len), as for fuzz_reader.
 */
#include <stdint.h>

#include "iosage/darshan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    iosage_error err;
    iosage_log *log = NULL;
    if (iosage_log_load_mem(data, size, "fuzz", IOSAGE_READ_DEFAULT, &log,
                            &err) == IOSAGE_OK)
        iosage_log_free(log);
    return 0;
}
