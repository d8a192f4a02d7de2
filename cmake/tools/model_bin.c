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
 * its JSON in about 30 ms, from Universal Binary JSON in about 8 and from
 * its own older binary format (what XGBoosterSaveModelToBuffer writes for
 * "deprecated") in 0.3: that format stores the trees as arrays, not as
 * objects to parse. OUT gets that binary form when it gives back exactly
 * the model the JSON gives: the same trees (XGBoost's dump with
 * statistics, tree by tree) and bit for bit the same margins and SHAP
 * contributions on fixed rows with missing values, zeros, small and large
 * numbers. Otherwise (a later XGBoost without the format, or one that
 * drops something from it) OUT gets the UBJSON form, with a line on
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
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
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

/* FNV-1a 64 of data, as src/model/dataset.c computes it for bundle.json. */
static uint64_t fnv1a64(const unsigned char *data, size_t len)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < len; i++)
        h = (h ^ data[i]) * 1099511628211ULL;
    return h;
}

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
        snprintf(have, sizeof have, "fnv1a64:%016" PRIx64, fnv1a64(data, len));
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

/* A booster loaded from len bytes of data, or NULL. */
static BoosterHandle load(const void *data, size_t len)
{
    BoosterHandle b = NULL;
    if (XGBoosterCreate(NULL, 0, &b) != 0)
        return NULL;
    if (XGBoosterLoadModelFromBuffer(b, data, (bst_ulong)len) != 0) {
        XGBoosterFree(b);
        return NULL;
    }
    return b;
}

/* 1 when a and b dump the same trees, with their statistics. */
static int same_trees(BoosterHandle a, BoosterHandle b)
{
    bst_ulong na = 0, nb = 0;
    const char **da = NULL, **db = NULL;
    if (XGBoosterDumpModelEx(a, "", 1, "json", &na, &da) != 0)
        return 0;
    /* the dump's strings live until the booster's next call: keep a's */
    char **keep = calloc(na ? na : 1, sizeof *keep);
    int same = keep != NULL;
    for (bst_ulong i = 0; same && i < na; i++)
        same = (keep[i] = strdup(da[i])) != NULL;
    if (same && (XGBoosterDumpModelEx(b, "", 1, "json", &nb, &db) != 0 || nb != na))
        same = 0;
    for (bst_ulong i = 0; same && i < na; i++)
        same = strcmp(keep[i], db[i]) == 0;
    for (bst_ulong i = 0; keep && i < na; i++)
        free(keep[i]);
    free(keep);
    return same;
}

/* A copy of b's predictions on m as config how asks (malloc'd; *n
 * values), or NULL. */
static float *outputs(BoosterHandle b, DMatrixHandle m, const char *how,
                      size_t *n)
{
    const bst_ulong *shape = NULL;
    bst_ulong dim = 0;
    const float *out = NULL;
    if (XGBoosterPredictFromDMatrix(b, m, how, &shape, &dim, &out) != 0)
        return NULL;
    *n = 1;
    for (bst_ulong d = 0; d < dim; d++)
        *n *= shape[d];
    float *copy = malloc(sizeof *copy * (*n ? *n : 1));
    if (copy)
        memcpy(copy, out, sizeof *copy * *n);
    return copy;
}

/* 1 when a and b give bit for bit the same margins and SHAP contributions
 * on ROWS fixed rows of the model's features: a missing value, zeros,
 * values in [0, 1) and up to 10^6, negative ones. */
enum { ROWS = 64 };
static int same_outputs(BoosterHandle a, BoosterHandle b)
{
    bst_ulong nf = 0;
    if (XGBoosterGetNumFeature(a, &nf) != 0 || nf == 0)
        return 0;
    float *x = malloc(sizeof *x * ROWS * nf);
    if (!x)
        return 0;
    uint64_t s = 88172645463325252ULL;
    for (size_t i = 0; i < ROWS * nf; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        double u = (double)(s >> 11) / 9007199254740992.0;
        switch (s % 8) {
        case 0: x[i] = NAN; break;
        case 1: x[i] = 0.0f; break;
        case 2: x[i] = (float)(u * 1e6); break;
        case 3: x[i] = (float)(-u); break;
        default: x[i] = (float)u; break;
        }
    }
    DMatrixHandle m = NULL;
    int same = XGDMatrixCreateFromMat(x, ROWS, nf, NAN, &m) == 0;
    static const char *const how[] = {
        "{\"type\": 1, \"training\": false, \"iteration_begin\": 0, "
        "\"iteration_end\": 0, \"strict_shape\": false}",
        "{\"type\": 2, \"training\": false, \"iteration_begin\": 0, "
        "\"iteration_end\": 0, \"strict_shape\": false}"};
    for (int k = 0; same && k < 2; k++) {
        size_t na = 0, nb = 0;
        float *oa = outputs(a, m, how[k], &na), *ob = outputs(b, m, how[k], &nb);
        same = oa && ob && na == nb && memcmp(oa, ob, sizeof *oa * na) == 0;
        free(oa);
        free(ob);
    }
    if (m)
        XGDMatrixFree(m);
    free(x);
    return same;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fputs("usage: model_bin IN OUT\n", stderr);
        return 2;
    }
    size_t len = 0;
    unsigned char *in = read_all(argv[1], &len);
    if (!in) {
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
    bst_ulong form_len = 0;
    char *bin = NULL;
    BoosterHandle b = load(in, len), back = NULL;
    if (b && XGBoosterSaveModelToBuffer(b, "{\"format\": \"deprecated\"}",
                                        &form_len, &form) == 0 &&
        (bin = malloc(form_len ? form_len : 1)) != NULL) {
        memcpy(bin, form, form_len);
        back = load(bin, form_len);
    }
    if (back && same_trees(b, back) && same_outputs(b, back)) {
        form = bin;
    } else if (b) {
        fprintf(stderr, "model_bin: %s: XGBoost's binary format does not give "
                        "the same model back; embedding UBJSON\n", argv[1]);
        if (XGBoosterSaveModelToBuffer(b, "{\"format\": \"ubj\"}", &form_len,
                                       &form) != 0)
            form = NULL;
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
    if (back)
        XGBoosterFree(back);
    if (b)
        XGBoosterFree(b);
    free(bin);
    free(in);
    return bad;
}
