/*
 * render.c - report_render FORMAT DOC.json OUT [--color] [--bad-utf8]
 *
 * Test helper: render a report document with the library into OUT (for the
 * Chromium check and for looking at the views by hand). --bad-utf8 adds
 * invalid UTF-8 strings first (hostile_bytes.c). Exit 0 ok, 1 on error
 * with one line on stderr, 2 on usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostile_bytes.h"
#include "iosage/report.h"

int main(int argc, char **argv)
{
    enum iosage_report_format f;
    if (argc < 4 || iosage_report_format_parse(argv[1], &f) != 0) {
        fputs("usage: report_render text|md|html|json DOC.json OUT [--color] [--bad-utf8]\n", stderr);
        return 2;
    }
    struct iosage_report_options opt = {0};
    int bad = 0;
    for (int i = 4; i < argc; i++) {
        opt.color |= strcmp(argv[i], "--color") == 0;
        bad |= strcmp(argv[i], "--bad-utf8") == 0;
    }
    json_error_t jerr;
    json_t *doc = json_load_file(argv[2], 0, &jerr);
    if (!doc) {
        fprintf(stderr, "report_render: %s: line %d: %s\n", argv[2], jerr.line, jerr.text);
        return 1;
    }
    if (bad)
        hostile_add_bad_utf8(doc);
    char *out = NULL, line[600];
    size_t len = 0;
    iosage_error err;
    iosage_status st = iosage_report_render(doc, f, &opt, &out, &len, &err);
    json_decref(doc);
    if (st != IOSAGE_OK) {
        fprintf(stderr, "report_render: %s\n", iosage_error_line(&err, line, sizeof line));
        return 1;
    }
    FILE *fp = strcmp(argv[3], "-") == 0 ? stdout : fopen(argv[3], "wb");
    int ok = fp && fwrite(out, 1, len, fp) == len;
    if (fp && fp != stdout)
        ok = fclose(fp) == 0 && ok;
    free(out);
    if (!ok) {
        fprintf(stderr, "report_render: cannot write %s\n", argv[3]);
        return 1;
    }
    return 0;
}
