/*
 * src/cli/model_open.c - the model bundle a command uses: the directory of
 * --model, else the bundle built into the binary (models/default at build
 * time, see cmake/embed_model.cmake).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "iosage/savings.h"
#include "model/embedded.h"

#define MAX_EMBEDDED_FILES 64

/* The embedded bundle's files, or 0 (with the reason printed). */
static size_t embedded_files(struct iosage_model_file *files)
{
    size_t n = ios_embedded_model(files, MAX_EMBEDDED_FILES);
    if (n == 0) {
        fputs("iosage: no model bundle: train one with `iosage train`, or "
              "pass --model DIR\n", stderr);
        return 0;
    }
    if (n > MAX_EMBEDDED_FILES) {
        fprintf(stderr, "iosage: the embedded model bundle has %zu files, "
                "more than the %d iosage reads\n", n, MAX_EMBEDDED_FILES);
        return 0;
    }
    return n;
}

int cli_open_model(const char *dir, int threads, iosage_model **m)
{
    iosage_error err;
    iosage_status st;
    *m = NULL;
    if (dir) {
        st = iosage_model_load(dir, m, &err);
    } else {
        struct iosage_model_file files[MAX_EMBEDDED_FILES];
        size_t n = embedded_files(files);
        if (n == 0)
            return CLI_BADINPUT;
        st = iosage_model_load_mem(files, n, "embedded model bundle", m, &err);
    }
    if (st == IOSAGE_OK)
        st = iosage_model_set_threads(*m, threads, &err);
    if (st != IOSAGE_OK) {
        iosage_model_free(*m);
        *m = NULL;
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    return CLI_OK;
}

const unsigned char *cli_embedded_file(const char *name, size_t *size)
{
    struct iosage_model_file files[MAX_EMBEDDED_FILES];
    size_t n = ios_embedded_model(files, MAX_EMBEDDED_FILES);
    if (n > MAX_EMBEDDED_FILES)
        n = MAX_EMBEDDED_FILES;
    for (size_t i = 0; i < n; i++) {
        const char *a = files[i].name, *b = name;
        while (*a && *a == *b)
            a++, b++;
        if (*a == *b) {
            *size = files[i].size;
            return files[i].data;
        }
    }
    *size = 0;
    return NULL;
}

/* See cli.h. */
int cli_open_cards(const char *model_dir, iosage_cards **cards)
{
    iosage_error err;
    iosage_status st = IOSAGE_OK;
    if (model_dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/cards.json", model_dir);
        if (access(path, F_OK) == 0)
            st = iosage_cards_load(path, cards, &err);
    } else {
        size_t size;
        const unsigned char *data = cli_embedded_file("cards.json", &size);
        if (data)
            st = iosage_cards_load_mem(data, size, "embedded cards.json",
                                       cards, &err);
    }
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    return CLI_OK;
}


/* See cli.h. */
int cli_open_savings(const char *model_dir, iosage_model *m)
{
    iosage_error err;
    iosage_status st;
    iosage_savings_model *s = NULL;
    if (model_dir) {
        st = iosage_savings_model_load(model_dir, &s, &err);
    } else {
        struct iosage_model_file files[MAX_EMBEDDED_FILES];
        size_t n = ios_embedded_model(files, MAX_EMBEDDED_FILES);
        /* the embedded bytes are static: each change's model is loaded
         * when a report first asks for it */
        st = iosage_savings_model_load_static(
            files, n < MAX_EMBEDDED_FILES ? n : MAX_EMBEDDED_FILES,
            "embedded model bundle", &s, &err);
    }
    if (st != IOSAGE_OK) {
        cli_print_error(&err);
        return cli_exit_for(st);
    }
    iosage_model_attach_savings(m, s);
    return CLI_OK;
}

/* See cli.h. */
void cli_one_openmp_thread(void)
{
    setenv("OMP_NUM_THREADS", "1", 0);
}

int cli_open_bundle(const char *model_dir, struct cli_bundle *b)
{
    memset(b, 0, sizeof *b);
    cli_one_openmp_thread();
    int rc = cli_open_model(model_dir, 1, &b->model);
    if (rc == CLI_OK)
        rc = cli_open_cards(model_dir, &b->cards);
    if (rc == CLI_OK)
        rc = cli_open_savings(model_dir, b->model);
    if (rc != CLI_OK)
        cli_bundle_free(b);
    return rc;
}

void cli_bundle_free(struct cli_bundle *b)
{
    iosage_cards_free(b->cards);
    iosage_model_free(b->model);
    memset(b, 0, sizeof *b);
}

struct iosage_analyze_options cli_report_options(const struct cli_bundle *b)
{
    struct iosage_analyze_options o = {
        .model = b->model, .stage = IOSAGE_ANALYZE_DOCUMENT,
        .read_flags = IOSAGE_READ_NO_TRACES, .cards = b->cards,
        .savings = iosage_model_savings(b->model)};
    return o;
}
