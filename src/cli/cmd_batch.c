/*
 * src/cli/cmd_batch.c - `iosage batch [-j N] [-o OUT] [--format jsonl|csv]
 * [--summary] PATH...`: detection over many logs on a pool of threads, one
 * row per log in input order (iosage/batch.h). The MPI version of the same
 * command is iosage-mpi (src/batch_mpi); both share src/batch_cli.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "batch_cli/frontend.h"
#include "cli.h"
#include "iosage/batch.h"

/* on_row of the pool: write the row; nonzero stops the batch. */
static int write_row(void *ctx, const struct iosage_batch_row *row)
{
    return ios_batch_out_row(ctx, row);
}

/* The input list of every PATH. */
static int build_list(const struct ios_batch_opts *o, iosage_batch_list *list)
{
    for (int i = 0; i < o->n_paths; i++) {
        iosage_error err;
        if (iosage_batch_list_add(list, o->paths[i], stdin, &err) !=
            IOSAGE_OK) {
            cli_print_error(&err);
            return CLI_INTERNAL;
        }
    }
    if (ios_batch_refuse_clash("iosage", o, list) != 0)
        return CLI_USAGE;
    /* --db: only the logs the archive needs (docs/archive.md); a failure
     * is the database's (not an archive, unreadable, newer schema) */
    if (o->db && ios_batch_archive_select(o, list) != 0)
        return CLI_BADINPUT;
    return CLI_OK;
}

/* Run the pool over list into the output of o; start: when listing began
 * (for --profile). */
static int run_batch(const struct ios_batch_opts *o, const iosage_model *m,
                     const iosage_batch_list *list, double start)
{
    struct ios_batch_out w;
    if (ios_batch_out_open(&w, o) != 0)
        return CLI_INTERNAL;
    struct ios_batch_progress bar = {.start = ios_batch_now()};
    struct iosage_batch_times times;
    memset(&times, 0, sizeof times);
    struct iosage_batch_run_params p = {
        .threads = o->threads, .on_row = write_row, .row_ctx = &w,
        .times = &times, .window = o->db ? 1024 : 0, /* --db: commit as we go */
        .render = w.f != NULL, .render_format = o->format};
    if (!o->quiet && isatty(STDERR_FILENO)) {
        p.on_progress = ios_batch_progress_draw;
        p.progress_ctx = &bar;
    }
    iosage_error err;
    iosage_status st = iosage_batch_run(m, list, &p, &err);
    ios_batch_progress_end(&bar);
    double wall = ios_batch_now() - start;
    if (st != IOSAGE_OK && st != IOSAGE_E_USAGE)
        cli_print_error(&err); /* E_USAGE: the writer already said why */
    if (ios_batch_out_close(&w, st == IOSAGE_OK) != 0 || st != IOSAGE_OK)
        return CLI_INTERNAL;
    if (o->profile)
        ios_batch_print_profile(&times, wall, list->n, o->threads);
    if (w.errors)
        fprintf(stderr, "iosage: batch: %zu of %zu logs could not be read "
                "(status \"error\" rows)\n", w.errors, w.rows);
    return w.errors ? CLI_BADINPUT : CLI_OK;
}

int cmd_batch(int argc, char **argv)
{
    struct ios_batch_opts o;
    char msg[300];
    switch (ios_batch_parse_opts(argc, argv, 0, &o, msg, sizeof msg)) {
    case IOS_BATCH_HELP:
        ios_batch_print_help(stdout, 0);
        return CLI_OK;
    case IOS_BATCH_BAD:
        return cli_usage_error("batch", "%s", msg);
    default:
        break;
    }
    if (ios_batch_refuse_clash("iosage", &o, NULL) != 0)
        return CLI_USAGE;
    iosage_model *m = NULL;
    ios_batch_one_openmp_thread();
    ios_batch_reuse_freed_memory();
    int rc = cli_open_model(o.model_dir, 1, &m);
    if (rc == CLI_OK)
        rc = cli_open_savings(o.model_dir, m);
    if (rc != CLI_OK) {
        iosage_model_free(m);
        return rc;
    }
    double start = ios_batch_now();
    iosage_batch_list list = {0};
    rc = build_list(&o, &list);
    if (rc == CLI_OK)
        rc = run_batch(&o, m, &list, start);
    iosage_batch_list_free(&list);
    iosage_model_free(m);
    return rc;
}
