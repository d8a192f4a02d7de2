/*
 * src/cli/archive_report.c - the report page of one archived job: the same
 * steps and the same HTML view as `iosage analyze LOG --format html`
 * (offline advice, no config files, no LLM), with the model bundle and the
 * cards loaded once for all pages: one iosage_analyze call a page.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/archive_cli.h"
#include "cli/cli.h"
#include "iosage/advise.h"
#include "iosage/analyze.h"
#include "iosage/darshan.h"
#include "iosage/model.h"
#include "iosage/report.h"

struct archive_reporter {
    struct cli_bundle bundle;
};

archive_reporter *archive_reporter_open(const char *model_dir)
{
    archive_reporter *r = calloc(1, sizeof *r);
    if (!r) {
        fputs("iosage: archive: out of memory\n", stderr);
        return NULL;
    }
    /* the same bundle, cards and savings models as `iosage analyze`, so a
     * job's page is what analyze writes for its log */
    if (cli_open_bundle(model_dir, &r->bundle) != CLI_OK) {
        free(r);
        return NULL;
    }
    return r;
}

void archive_reporter_free(archive_reporter *r)
{
    if (!r)
        return;
    cli_bundle_free(&r->bundle);
    free(r);
}

/* The report document of the log at path (the caller decrefs), or NULL
 * with err: iosage_analyze with the bundle and cards loaded once. */
static json_t *build(archive_reporter *r, const char *path, iosage_error *err)
{
    struct iosage_analyze_options o = cli_report_options(&r->bundle);
    iosage_analysis *a = NULL;
    if (iosage_analyze(path, &o, &a, err) != IOSAGE_OK)
        return NULL;
    json_t *doc = json_incref(a->doc);
    iosage_analysis_free(a);
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
