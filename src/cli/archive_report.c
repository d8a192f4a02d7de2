/*
 * src/cli/archive_report.c - the report page of one archived job: the same
 * steps and the same HTML view as `iosage analyze LOG --format html`
 * (offline advice, no config files, no LLM), with the model bundle and the
 * cards loaded once for all pages.
 *
 * When the per-log pipeline becomes one library call (issue 11), this file
 * shrinks to that call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/archive_cli.h"
#include "cli/cli.h"
#include "iosage/advise.h"
#include "iosage/darshan.h"
#include "iosage/features.h"
#include "iosage/model.h"
#include "iosage/report.h"

struct archive_reporter {
    iosage_model *model;
    iosage_cards *cards; /* NULL when the bundle has none */
};

archive_reporter *archive_reporter_open(const char *model_dir)
{
    archive_reporter *r = calloc(1, sizeof *r);
    if (!r) {
        fputs("iosage: archive: out of memory\n", stderr);
        return NULL;
    }
    if (cli_open_model(model_dir, 1, &r->model) != CLI_OK) {
        free(r);
        return NULL;
    }
    iosage_error err;
    iosage_status st = IOSAGE_OK;
    if (model_dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/cards.json", model_dir);
        if (access(path, F_OK) == 0)
            st = iosage_cards_load(path, &r->cards, &err);
    } else {
        size_t size;
        const unsigned char *data = cli_embedded_file("cards.json", &size);
        if (data)
            st = iosage_cards_load_mem(data, size, "embedded cards.json",
                                       &r->cards, &err);
    }
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        archive_reporter_free(r);
        return NULL;
    }
    return r;
}

void archive_reporter_free(archive_reporter *r)
{
    if (!r)
        return;
    iosage_model_free(r->model);
    iosage_cards_free(r->cards);
    free(r);
}

/* The report document of the log at path, or NULL with err. */
static json_t *build(archive_reporter *r, const char *path, iosage_error *err)
{
    iosage_log *log = NULL;
    iosage_file_table *t = NULL;
    float x[IOSAGE_NUM_FEATURES];
    struct iosage_detection det;
    json_t *doc = NULL;
    iosage_status st = iosage_log_load(path, IOSAGE_READ_NO_TRACES, &log, err);
    if (st == IOSAGE_OK)
        st = iosage_file_table_build(log, &t, err);
    if (st == IOSAGE_OK)
        st = iosage_features_from_table(log, t, x, err);
    if (st == IOSAGE_OK)
        st = iosage_model_detect(r->model, x, 1, &det, err);
    if (st == IOSAGE_OK) {
        struct iosage_advise_input in = {
            .path = path, .log = log, .table = t, .features = x,
            .model = r->model, .det = &det, .cards = r->cards};
        doc = iosage_report_build(&in, err);
    }
    iosage_file_table_free(t);
    iosage_log_free(log);
    return doc;
}

char *archive_report_html(archive_reporter *r, const char *path, size_t *len,
                          char *why, size_t why_size)
{
    iosage_error err;
    memset(&err, 0, sizeof err);
    char *out = NULL;
    json_t *doc = build(r, path, &err);
    struct iosage_report_options o = {.color = 0};
    if (!doc || iosage_report_render(doc, IOSAGE_REPORT_HTML, &o, &out, len,
                                     &err) != IOSAGE_OK) {
        iosage_error_line(&err, why, why_size);
        free(out);
        out = NULL;
    }
    json_decref(doc);
    return out;
}
