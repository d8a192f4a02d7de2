/*
 * tests/fuzz/fuzz_reply.c - libFuzzer target: any text an LLM replies is
 * validated without a crash or a leak, and either replaces the advice with
 * valid changes or leaves the document exactly as it was.
 *
 * One report document is built once, at the first call, the way `iosage
 * analyze` builds it (iosage_analyze): a project log, the default model
 * bundle and its cards. Each input is then applied, as a reply, to a copy
 * of that document. iosage_llm_json_span is run on the same text.
 *
 * Built two ways, like fuzz_reader.c: with clang -fsanitize=fuzzer (make fuzz
 * FUZZ_TARGET=reply) and with replay.c (ctest fuzz_replay_reply).
 * IOSAGE_SOURCE_DIR (a compile definition) locates the log and the model.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "iosage/advise.h"
#include "iosage/analyze.h"
#include "iosage/darshan.h"
#include "iosage/llm.h"
#include "iosage/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define LOG_PATH IOSAGE_SOURCE_DIR "/data/bench-runs/logs/agic_posix_4-r0.darshan"
#define MODEL_DIR IOSAGE_SOURCE_DIR "/models/default"

static void die(const char *what, const iosage_error *err)
{
    char line[900];
    fprintf(stderr, "fuzz_reply: %s: %s\n", what,
            iosage_error_line(err, line, sizeof line));
    exit(1);
}

/* The report document of the project log, made by iosage_analyze as
 * `iosage analyze` makes it (without savings models). Everything but the
 * document is released before returning. */
static json_t *build_document(void)
{
    iosage_error err;
    iosage_model *model = NULL;
    iosage_cards *cards = NULL;
    if (iosage_model_load(MODEL_DIR, &model, &err) != IOSAGE_OK ||
        iosage_cards_load(MODEL_DIR "/cards.json", &cards, &err) != IOSAGE_OK)
        die("model", &err);
    struct iosage_analyze_options o = {
        .model = model, .stage = IOSAGE_ANALYZE_DOCUMENT,
        .read_flags = IOSAGE_READ_NO_TRACES, .cards = cards};
    iosage_analysis *a = NULL;
    if (iosage_analyze(LOG_PATH, &o, &a, &err) != IOSAGE_OK)
        die("analyze", &err);
    json_t *doc = json_incref(a->doc);
    iosage_analysis_free(a);
    iosage_cards_free(cards);
    iosage_model_free(model);
    return doc;
}

/* The span, when found, lies in the text and holds a JSON object. */
static void check_span(const char *text, size_t text_len)
{
    size_t off = 0, len = 0;
    if (!iosage_llm_json_span(text, &off, &len))
        return;
    if (off > text_len || len < 2 || len > text_len - off ||
        text[off] != '{' || text[off + len - 1] != '}')
        abort();
    json_t *obj = json_loadb(text + off, len, 0, NULL);
    if (!json_is_object(obj))
        abort();
    json_decref(obj);
}

/* After a successful apply the advice comes from the LLM and holds at least
 * one change; after a failure the document is unchanged. */
static void check_apply(const json_t *orig, const json_t *doc, iosage_status st)
{
    if (st != IOSAGE_OK) {
        if (!json_equal(orig, doc))
            abort();
        return;
    }
    const json_t *advice = json_object_get(doc, "advice");
    const json_t *changes = json_object_get(advice, "changes");
    const char *source = json_string_value(json_object_get(advice, "source"));
    if (!source || strcmp(source, "llm") != 0 || json_array_size(changes) < 1)
        abort();
}

/* The reply is applied to doc, a copy of orig kept from one input to the
 * next: a reply that fails must leave it equal to orig (checked), and only
 * after one that succeeds is it copied again. A deep copy per input spent
 * most of the target's time in the allocator. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static json_t *orig, *doc;
    if (!orig)
        orig = build_document(); /* kept for the whole run */
    if (!doc && !(doc = json_deep_copy(orig)))
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    size_t text_len = strlen(text); /* a NUL in the input ends the reply */

    check_span(text, text_len);
    iosage_error err;
    iosage_status st = iosage_advise_apply_reply(doc, text, "fuzz", "fuzz-model",
                                                 &err);
    check_apply(orig, doc, st);
    if (st == IOSAGE_OK) {
        json_decref(doc);
        doc = NULL; /* copied again at the next input */
    }
    free(text);
    return 0;
}
