/*
 * cmake/tools/model_bin.c - a build step of cmake/embed_model.cmake: the
 * embedded copy of an XGBoost model in a form XGBoost loads fast.
 *
 *   model_bin IN OUT
 *
 * iosage keeps its bundles in JSON (readable, and what bundle.json's
 * hashes are of); the build embeds beside each model file IN.json a binary
 * form, which the loader uses instead (src/model/bundle.c,
 * savings_model.c). XGBoost 1.6 loads the default bundle's gate model from
 * its JSON in about 30 ms and from its own older binary format in 0.3.
 * OUT gets that binary form when it gives back exactly the model the JSON
 * gives (the check of src/model/xgb_form.c, which `iosage train` makes
 * too). Otherwise (a later XGBoost without the format, or one that drops
 * something from it) OUT gets the UBJSON form (about 8 ms), with a line on
 * stderr. OUT is left empty when XGBoost does not load IN as a model
 * (bundle.json, cards.json, ...), which the loader reads as "no binary
 * form".
 *
 * The loader takes a binary form as given and does not hash the JSON it
 * came from (that cost a millisecond at every start of detect, analyze and
 * batch): the check is made here, once. When the bundle.json beside IN
 * lists IN among its models, IN's FNV-1a 64 hash must be that entry's
 * file_hash, or the build stops: a model file changed without its
 * bundle.json (or the reverse) would otherwise be embedded unnoticed.
 * Exit 1 on a file that cannot be read or written or a hash that differs,
 * 0 otherwise.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "internal.h" /* src/model: ios_xgb_load_n(), ios_xgb_binary_form(),
                          ios_fnv1a64() */
#include "ios_file.h"  /* src/common: ios_read_file() */

/* 0 when the bundle.json beside path lists no hash for it or lists this
 * one; 1 (printed) when it lists another. */
static int check_hash(const char *path, const unsigned char *data, size_t len)
{
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    char bundle[4096];
    int dir_len = slash ? (int)(slash - path) : 1;
    if (snprintf(bundle, sizeof bundle, "%.*s/bundle.json", dir_len,
                 slash ? path : ".") >= (int)sizeof bundle)
        return 0;
    json_t *b = json_load_file(bundle, 0, NULL);
    const json_t *models = json_object_get(b, "models");
    size_t i;
    const json_t *e;
    int bad = 0;
    json_array_foreach(models, i, e) {
        const char *file = json_string_value(json_object_get(e, "file"));
        const char *want = json_string_value(json_object_get(e, "file_hash"));
        if (!file || !want || strcmp(file, name) != 0)
            continue;
        char have[32];
        snprintf(have, sizeof have, "fnv1a64:%016" PRIx64, ios_fnv1a64(data, len));
        if (strcmp(have, want) != 0) {
            fprintf(stderr, "model_bin: %s: hash %s, but %s lists %s: the "
                            "bundle's files do not belong together\n",
                    path, have, bundle, want);
            bad = 1;
        }
    }
    json_decref(b);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fputs("usage: model_bin IN OUT\n", stderr);
        return 2;
    }
    size_t len = 0;
    uint8_t *in = NULL;
    if (ios_read_file(argv[1], 1, &in, &len, NULL) != IOSAGE_OK) {
        fprintf(stderr, "model_bin: %s: cannot read\n", argv[1]);
        return 1;
    }
    if (check_hash(argv[1], in, len) != 0) {
        free(in);
        remove(argv[2]);
        return 1;
    }
    /* not a model: an empty file */
    const char *form = NULL;
    size_t form_len = 0;
    unsigned char *bin = NULL;
    BoosterHandle b = NULL;
    if (ios_xgb_load_n(in, len, 0, &b, NULL) != IOSAGE_OK) /* any inputs */
        b = NULL;
    if (b && (bin = ios_xgb_binary_form(b, &form_len)) != NULL) {
        form = (const char *)bin;
    } else if (b) {
        fprintf(stderr, "model_bin: %s: XGBoost's binary format does not give "
                        "the same model back; embedding UBJSON\n", argv[1]);
        bst_ulong ubj_len = 0;
        if (ios_xgb()->XGBoosterSaveModelToBuffer(b, "{\"format\": \"ubj\"}",
                                                  &ubj_len, &form) != 0)
            form = NULL;
        form_len = (size_t)ubj_len;
    }
    if (!form)
        form_len = 0;
    FILE *out = fopen(argv[2], "wb");
    int bad = !out || (form_len > 0 && fwrite(form, 1, form_len, out) != form_len);
    if (out && fclose(out) != 0)
        bad = 1;
    if (bad) {
        fprintf(stderr, "model_bin: %s: cannot write\n", argv[2]);
        remove(argv[2]);
    }
    if (b)
        ios_xgb()->XGBoosterFree(b);
    free(bin);
    free(in);
    return bad;
}
