/*
 * src/batch_cli/archive.c - `--db FILE` of `iosage batch` and `iosage-mpi`:
 * the batch list cut down to the logs the archive needs analysed, and every
 * finished row stored in the archive (iosage/archive.h) beside the usual
 * output. iosage-mpi selects on rank 0 before the list is shared, and rank
 * 0 stores the merged rows: the archive has one writer.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "ios_common.h"
#include "model/embedded.h"

#define MAX_EMBEDDED_FILES 64

/* Print err as one line. */
static void print_error(const iosage_error *err)
{
    char line[800];
    fprintf(stderr, "iosage: %s\n", iosage_error_line(err, line, sizeof line));
}

/* Hash name and bytes of one file into *h. */
static void hash_file(uint64_t *h, const char *name, const void *data,
                      size_t size)
{
    *h = iosage_archive_hash(*h, name, strlen(name) + 1);
    *h = iosage_archive_hash(*h, data, size);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* The regular files of dir, sorted by name, into *h. */
static int hash_dir(uint64_t *h, const char *dir)
{
    struct dirent **names = NULL;
    int n = scandir(dir, &names, NULL, by_name);
    if (n < 0) {
        fprintf(stderr, "iosage: %s: cannot read the model bundle\n", dir);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        char path[4096];
        uint8_t *buf = NULL;
        size_t len = 0;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        if (names[i]->d_name[0] != '.' &&
            ios_read_file(path, 1, &buf, &len, NULL) == IOSAGE_OK)
            hash_file(h, names[i]->d_name, buf, len);
        free(buf);
        free(names[i]);
    }
    free(names);
    return 0;
}

int ios_batch_bundle_hash(const char *dir, char hex[17])
{
    uint64_t h = IOSAGE_ARCHIVE_HASH_SEED;
    if (dir) {
        if (hash_dir(&h, dir) != 0)
            return -1;
    } else {
        struct iosage_model_file files[MAX_EMBEDDED_FILES];
        size_t n = ios_embedded_model(files, MAX_EMBEDDED_FILES);
        for (size_t i = 0; i < n && i < MAX_EMBEDDED_FILES; i++)
            hash_file(&h, files[i].name, files[i].data, files[i].size);
    }
    snprintf(hex, 17, "%016llx", (unsigned long long)h);
    return 0;
}

int ios_batch_archive_select(const struct ios_batch_opts *o,
                             iosage_batch_list *list)
{
    char bundle[17];
    if (ios_batch_bundle_hash(o->model_dir, bundle) != 0)
        return -1;
    iosage_error err;
    iosage_archive *a = NULL;
    iosage_batch_list todo = {0};
    struct iosage_archive_counts c;
    iosage_status st = iosage_archive_open(o->db, IOSAGE_ARCHIVE_WRITE, &a,
                                           &err);
    if (st == IOSAGE_OK)
        st = iosage_archive_select(a, list, bundle, o->reanalyze, &todo, &c,
                                   &err);
    iosage_archive_close(a);
    if (st != IOSAGE_OK) {
        print_error(&err);
        iosage_batch_list_free(&todo);
        return -1;
    }
    iosage_batch_list_free(list);
    *list = todo;
    if (!o->quiet)
        fprintf(stderr, "iosage: %s: %zu logs listed: %zu new, %zu changed, "
                "%zu to analyse again (--reanalyze), %zu unchanged, %zu "
                "touched (same content)\n", o->db, c.listed, c.fresh,
                c.changed, c.reanalyze, c.unchanged, c.touched);
    return 0;
}

int ios_batch_archive_open(struct ios_batch_out *w,
                           const struct ios_batch_opts *o)
{
    iosage_error err;
    if (ios_batch_bundle_hash(o->model_dir, w->bundle) != 0)
        return -1;
    if (iosage_archive_open(o->db, IOSAGE_ARCHIVE_WRITE, &w->archive, &err) !=
        IOSAGE_OK) {
        print_error(&err);
        return -1;
    }
    return 0;
}

int ios_batch_archive_row(struct ios_batch_out *w,
                          const struct iosage_batch_row *row)
{
    iosage_error err;
    if (iosage_archive_add(w->archive, row, w->bundle, &err) != IOSAGE_OK) {
        print_error(&err);
        return -1;
    }
    return 0;
}

int ios_batch_archive_close(struct ios_batch_out *w)
{
    iosage_error err;
    int rc = 0;
    if (iosage_archive_commit(w->archive, &err) != IOSAGE_OK) {
        print_error(&err);
        rc = -1;
    }
    iosage_archive_close(w->archive);
    w->archive = NULL;
    return rc;
}
