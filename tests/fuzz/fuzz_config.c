/*
 * tests/fuzz/fuzz_config.c - libFuzzer target: any bytes given as a --config
 * file are classified and their settings extracted without a crash, a leak
 * or a read out of bounds; what comes back respects the documented bounds.
 *
 * The first input byte chooses the file name (the name helps classify the
 * file), the rest is the file's content. Every third byte value also picks a
 * small read limit, so that the truncation at a line end is exercised.
 *
 * Built two ways, like fuzz_reader.c: with clang -fsanitize=fuzzer (make fuzz
 * FUZZ_TARGET=config) and with replay.c (ctest fuzz_replay_config).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iosage/advise.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = {
    "job.sh", "romio-hints", "namelist.input", "adios2.xml",
    "openpmd.json", "notes.txt", "darshan.conf", "run/submit.pbs"};
#define N_NAMES (sizeof names / sizeof names[0])

/* Check what the parser promises about its result; abort (a crash the
 * fuzzer reports) when a promise is broken. */
static void check(const struct iosage_config *c, size_t len, size_t max)
{
    if (!c->text || c->text[c->text_len] != '\0' ||
        strlen(c->text) != c->text_len)
        abort();
    if (c->bytes != len || c->text_len > max ||
        c->n_settings > IOSAGE_CONFIG_MAX_SETTINGS)
        abort();
    if (!iosage_config_kind_name(c->kind))
        abort();
    for (size_t i = 0; i < c->n_settings; i++) {
        const struct iosage_config_setting *s = &c->settings[i];
        if (!memchr(s->key, '\0', sizeof s->key) ||
            !memchr(s->value, '\0', sizeof s->value) || s->line < 1)
            abort();
        if (iosage_config_find(c, s->key) == NULL)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *path = names[data[0] % N_NAMES];
    size_t max = (data[0] / N_NAMES) % 3 == 2 ? 64 : 0;
    struct iosage_config *c = NULL;
    iosage_error err;
    if (iosage_config_parse(path, data + 1, size - 1, max, &c, &err) ==
        IOSAGE_OK) {
        check(c, size - 1, max ? max : IOSAGE_CONFIG_MAX_BYTES);
        iosage_config_free(c);
    } else if (c != NULL) {
        abort(); /* failing calls leave *out NULL */
    }
    return 0;
}
