/*
 * cmake/tools/model_ubj.c - a build step of cmake/embed_model.cmake: the
 * embedded copy of an XGBoost model in Universal Binary JSON.
 *
 *   model_ubj IN OUT
 *
 * XGBoost (1.6 and later) loads the same model from UBJSON about four times
 * as fast as from its JSON text: the numbers need no parsing. iosage keeps
 * its bundles in JSON (readable, and what bundle.json's hashes are of); the
 * build embeds beside each model file IN.json its UBJSON form, which the
 * loader uses after checking the JSON's hash (src/model/bundle.c,
 * savings_model.c). OUT gets the UBJSON of IN when XGBoost loads IN as a
 * model, and is left empty otherwise (bundle.json, cards.json, ...), which
 * the loader reads as "no binary form". Exit 1 on a file that cannot be
 * read or written, 0 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>

#include <xgboost/c_api.h>

static unsigned char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 20, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        unsigned char *b = realloc(buf, cap * 2);
        if (!b) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = b;
        cap *= 2;
    }
    if (ferror(f)) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fputs("usage: model_ubj IN OUT\n", stderr);
        return 2;
    }
    size_t len = 0;
    unsigned char *in = read_all(argv[1], &len);
    if (!in) {
        fprintf(stderr, "model_ubj: %s: cannot read\n", argv[1]);
        return 1;
    }
    const char *ubj = NULL;
    bst_ulong ubj_len = 0;
    BoosterHandle b = NULL;
    if (XGBoosterCreate(NULL, 0, &b) != 0 ||
        XGBoosterLoadModelFromBuffer(b, in, (bst_ulong)len) != 0 ||
        XGBoosterSaveModelToBuffer(b, "{\"format\": \"ubj\"}", &ubj_len, &ubj) != 0) {
        ubj = NULL; /* not a model: an empty file */
        ubj_len = 0;
    }
    FILE *out = fopen(argv[2], "wb");
    int bad = !out || (ubj_len > 0 && fwrite(ubj, 1, ubj_len, out) != ubj_len);
    if (out && fclose(out) != 0)
        bad = 1;
    if (bad) {
        fprintf(stderr, "model_ubj: %s: cannot write\n", argv[2]);
        remove(argv[2]);
    }
    if (b)
        XGBoosterFree(b);
    free(in);
    return bad;
}
