/*
 * src/advise/cards.c - one card per pattern: quartiles of the pattern's key
 * features among train runs with and without it, the change and when it does
 * not apply; saved as cards.json in the model bundle.
 *
 * Quartiles use linear interpolation between order statistics: for sorted
 * values v[0 .. n) and p in {0.25, 0.5, 0.75}, h = (n - 1) p and the value is
 * v[floor h] + (h - floor h) (v[floor h + 1] - v[floor h]).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ios_json.h"
#include "iosage/model.h"

#define CARDS_SCHEMA "iosage-cards"
#define MAX_CARDS_FILE (16u << 20)

struct iosage_cards {
    long runs;
    int n;
    struct iosage_card card[IOSAGE_MAX_PATTERNS];
};

/* --- Quartiles ---------------------------------------------------------------- */

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return a < b ? -1 : (a > b);
}

static double quantile(const double *v, size_t n, double p)
{
    if (n == 0)
        return 0.0;
    double h = (double)(n - 1) * p;
    size_t lo = (size_t)floor(h);
    if (lo + 1 >= n)
        return v[n - 1];
    return v[lo] + (h - (double)lo) * (v[lo + 1] - v[lo]);
}

/* Quartiles of v[0 .. n) (sorted in place). */
static struct iosage_quartiles quartiles(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return (struct iosage_quartiles){quantile(v, n, 0.25),
                                     quantile(v, n, 0.5),
                                     quantile(v, n, 0.75)};
}

/* --- Building ------------------------------------------------------------------ */

static void card_texts(struct iosage_card *c, const struct iosage_pattern *p)
{
    snprintf(c->pattern, sizeof c->pattern, "%s", p->id);
    snprintf(c->change, sizeof c->change, "%s", p->change);
    snprintf(c->not_applicable, sizeof c->not_applicable, "%s",
             p->not_applicable);
}

/* Fill card k from the rows of ds selected by use[]; with/without are
 * scratch arrays of ds->n_rows values. */
static void build_card(const iosage_dataset *ds, const uint8_t *use, int k,
                       double *with, double *without, struct iosage_card *c)
{
    const struct iosage_pattern *p = iosage_pattern_get(k);
    card_texts(c, p);
    for (int f = 0; p->key_features[f] && c->n_features < IOSAGE_CARD_MAX_FEATURES;
         f++) {
        int idx = iosage_feature_index(p->key_features[f]);
        if (idx < 0)
            continue;
        size_t nw = 0, no = 0;
        for (size_t i = 0; i < ds->n_rows; i++) {
            if (!use[i])
                continue;
            double v = ds->x[i * IOSAGE_NUM_FEATURES + (size_t)idx];
            if (ds->labels[i] & (1u << k))
                with[nw++] = v;
            else
                without[no++] = v;
        }
        struct iosage_card_feature *cf = &c->features[c->n_features++];
        snprintf(cf->name, sizeof cf->name, "%s", p->key_features[f]);
        cf->index = idx;
        cf->with = quartiles(with, nw);
        cf->without = quartiles(without, no);
        c->runs_with = (long)nw;
        c->runs_without = (long)no;
    }
}

iosage_status iosage_cards_build(const iosage_dataset *ds, iosage_cards **out,
                                 iosage_error *err)
{
    *out = NULL;
    if (!ds || ds->n_rows == 0)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "cards", -1,
                        "no dataset rows to build cards from");
    iosage_cards *c = calloc(1, sizeof *c);
    uint8_t *use = malloc(ds->n_rows);
    double *with = malloc(ds->n_rows * sizeof *with);
    double *without = malloc(ds->n_rows * sizeof *without);
    if (!c || !use || !with || !without) {
        free(c), free(use), free(with), free(without);
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "cards", -1,
                        "no memory for cards of %zu runs", ds->n_rows);
    }
    size_t n_train = 0;
    for (size_t i = 0; i < ds->n_rows; i++)
        n_train += ds->split[i] == IOSAGE_SPLIT_TRAIN;
    for (size_t i = 0; i < ds->n_rows; i++)
        use[i] = n_train == 0 || ds->split[i] == IOSAGE_SPLIT_TRAIN;
    c->runs = (long)(n_train ? n_train : ds->n_rows);
    c->n = iosage_pattern_count();
    for (int k = 0; k < c->n; k++)
        build_card(ds, use, k, with, without, &c->card[k]);
    free(use), free(with), free(without);
    *out = c;
    return IOSAGE_OK;
}

void iosage_cards_free(iosage_cards *c)
{
    free(c);
}

const struct iosage_card *iosage_cards_get(const iosage_cards *c,
                                           const char *pattern)
{
    for (int k = 0; c && pattern && k < c->n; k++)
        if (strcmp(c->card[k].pattern, pattern) == 0)
            return &c->card[k];
    return NULL;
}

long iosage_cards_runs(const iosage_cards *c)
{
    return c ? c->runs : 0;
}

/* --- JSON ---------------------------------------------------------------------- */

static json_t *quart_json(const struct iosage_quartiles *q)
{
    return json_pack("{s:f,s:f,s:f}", "q1", q->q1, "median", q->median,
                     "q3", q->q3);
}

static json_t *card_json(const struct iosage_card *c)
{
    json_t *feats = json_array();
    for (int f = 0; feats && f < c->n_features; f++) {
        const struct iosage_card_feature *cf = &c->features[f];
        if (json_array_append_new(feats, json_pack("{s:s,s:o,s:o}", "name",
                                  cf->name, "with", quart_json(&cf->with),
                                  "without", quart_json(&cf->without))) != 0) {
            json_decref(feats);
            return NULL;
        }
    }
    if (!feats)
        return NULL;
    return json_pack("{s:s,s:i,s:i,s:s,s:s,s:o}", "pattern", c->pattern,
                     "runs_with", (json_int_t)c->runs_with, "runs_without",
                     (json_int_t)c->runs_without, "change", c->change,
                     "not_applicable", c->not_applicable, "features", feats);
}

json_t *iosage_cards_to_json(const iosage_cards *c)
{
    json_t *cards = json_array();
    for (int k = 0; cards && k < c->n; k++)
        if (json_array_append_new(cards, card_json(&c->card[k])) != 0) {
            json_decref(cards);
            return NULL;
        }
    if (!cards)
        return NULL;
    return json_pack("{s:s,s:i,s:i,s:i,s:o}", "schema", CARDS_SCHEMA,
                     "version", IOSAGE_CARDS_VERSION, "feature_schema",
                     IOSAGE_FEATURE_SCHEMA_VERSION, "runs", (json_int_t)c->runs,
                     "cards", cards);
}

iosage_status iosage_cards_save(const iosage_cards *c, const char *path,
                                iosage_error *err)
{
    json_t *doc = iosage_cards_to_json(c);
    char *text = doc ? ios_json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
                                  JSON_REAL_PRECISION(7)) : NULL;
    json_decref(doc);
    if (!text)
        return ios_fail(err, IOSAGE_E_NOMEM, path, NULL, -1,
                        "no memory for the cards");
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        free(text);
        return ios_fail(err, IOSAGE_E_USAGE, path, NULL, -1, "path too long");
    }
    FILE *f = fopen(tmp, "w");
    int bad = !f || fputs(text, f) < 0 || fputc('\n', f) == EOF;
    int e = errno;
    bad |= f && fclose(f) != 0;
    free(text);
    if (bad || rename(tmp, path) != 0) {
        e = e ? e : errno;
        remove(tmp);
        errno = e; /* ios_fail keeps it in err->sys_errno */
        return ios_fail(err, IOSAGE_E_IO, path, NULL, -1, "cannot write: %s",
                        strerror(e));
    }
    return IOSAGE_OK;
}

/* --- Loading ------------------------------------------------------------------- */

static int quart_from(const json_t *o, struct iosage_quartiles *q)
{
    json_t *a = json_object_get(o, "q1"), *b = json_object_get(o, "median"),
           *c = json_object_get(o, "q3");
    if (!json_is_number(a) || !json_is_number(b) || !json_is_number(c))
        return -1;
    *q = (struct iosage_quartiles){json_number_value(a), json_number_value(b),
                                   json_number_value(c)};
    return 0;
}

static int card_from(const json_t *o, struct iosage_card *c)
{
    const char *pat = json_string_value(json_object_get(o, "pattern"));
    const char *chg = json_string_value(json_object_get(o, "change"));
    const char *na = json_string_value(json_object_get(o, "not_applicable"));
    json_t *feats = json_object_get(o, "features");
    if (!pat || !chg || !na || !json_is_array(feats))
        return -1;
    snprintf(c->pattern, sizeof c->pattern, "%s", pat);
    snprintf(c->change, sizeof c->change, "%s", chg);
    snprintf(c->not_applicable, sizeof c->not_applicable, "%s", na);
    c->runs_with = (long)json_integer_value(json_object_get(o, "runs_with"));
    c->runs_without = (long)json_integer_value(json_object_get(o, "runs_without"));
    size_t i;
    json_t *f;
    json_array_foreach(feats, i, f) {
        if (c->n_features >= IOSAGE_CARD_MAX_FEATURES)
            break;
        struct iosage_card_feature *cf = &c->features[c->n_features];
        const char *name = json_string_value(json_object_get(f, "name"));
        if (!name || quart_from(json_object_get(f, "with"), &cf->with) ||
            quart_from(json_object_get(f, "without"), &cf->without))
            return -1;
        snprintf(cf->name, sizeof cf->name, "%s", name);
        cf->index = iosage_feature_index(name);
        c->n_features++;
    }
    return 0;
}

static iosage_status cards_from_json(const json_t *doc, const char *label,
                                     iosage_cards *c, iosage_error *err)
{
    const char *schema = json_string_value(json_object_get(doc, "schema"));
    json_t *ver = json_object_get(doc, "version");
    json_t *cards = json_object_get(doc, "cards");
    if (!schema || strcmp(schema, CARDS_SCHEMA) != 0 || !json_is_array(cards))
        return ios_fail(err, IOSAGE_E_CORRUPT, label, NULL, -1,
                        "not an iosage cards file (schema \"%s\")",
                        CARDS_SCHEMA);
    if (json_integer_value(ver) != IOSAGE_CARDS_VERSION)
        return ios_fail(err, IOSAGE_E_VERSION, label, NULL, -1,
                        "cards version %lld, this iosage reads %d",
                        (long long)json_integer_value(ver),
                        IOSAGE_CARDS_VERSION);
    c->runs = (long)json_integer_value(json_object_get(doc, "runs"));
    size_t i;
    json_t *o;
    json_array_foreach(cards, i, o) {
        struct iosage_card card;
        memset(&card, 0, sizeof card);
        if (card_from(o, &card) != 0)
            return ios_fail(err, IOSAGE_E_CORRUPT, label, NULL, -1,
                            "card %zu is malformed", i + 1);
        if (iosage_pattern_index(card.pattern) < 0 || c->n >= IOSAGE_MAX_PATTERNS)
            continue; /* a pattern this library does not know */
        c->card[c->n++] = card;
    }
    return IOSAGE_OK;
}

iosage_status iosage_cards_load_mem(const void *buf, size_t len,
                                    const char *label, iosage_cards **out,
                                    iosage_error *err)
{
    *out = NULL;
    json_error_t jerr;
    json_t *doc = ios_json_loadb(buf, len, 0, &jerr);
    if (!doc && (json_error_code(&jerr) == json_error_out_of_memory ||
                 jerr.text[0] == '\0' || strcmp(jerr.text, "out of memory") == 0)) /* jansson could not allocate */
        return ios_fail(err, IOSAGE_E_NOMEM, label, NULL, -1,
                        "out of memory reading the JSON");
    if (!doc)
        return ios_fail(err, IOSAGE_E_CORRUPT, label, NULL, -1,
                        "bad JSON at line %d: %s", jerr.line, jerr.text);
    iosage_cards *c = calloc(1, sizeof *c);
    iosage_status st = c ? cards_from_json(doc, label, c, err)
                         : ios_fail(err, IOSAGE_E_NOMEM, label, NULL, -1,
                                    "no memory for cards");
    json_decref(doc);
    if (st != IOSAGE_OK) {
        free(c);
        return st;
    }
    *out = c;
    return IOSAGE_OK;
}

iosage_status iosage_cards_load(const char *path, iosage_cards **out,
                                iosage_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) /* ios_fail keeps errno in err->sys_errno */
        return ios_fail(err, IOSAGE_E_IO, path, NULL, -1, "cannot open: %s",
                        strerror(errno));
    char *buf = malloc(MAX_CARDS_FILE);
    size_t n = buf ? fread(buf, 1, MAX_CARDS_FILE, f) : 0;
    int bad = ferror(f);
    fclose(f);
    iosage_status st;
    if (!buf)
        st = ios_fail(err, IOSAGE_E_NOMEM, path, NULL, -1, "no memory");
    else if (bad)
        st = ios_fail(err, IOSAGE_E_IO, path, NULL, -1, "read error");
    else if (n == MAX_CARDS_FILE)
        st = ios_fail(err, IOSAGE_E_LIMIT, path, NULL, -1,
                      "cards file larger than %u bytes", MAX_CARDS_FILE);
    else
        st = iosage_cards_load_mem(buf, n, path, out, err);
    free(buf);
    return st;
}
