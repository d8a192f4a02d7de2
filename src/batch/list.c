/*
 * src/batch/list.c - the input list of a batch: PATH arguments expanded into
 * logs in output order (iosage/batch.h states the rules), and the
 * processing schedule (largest log first).
 *
 * Every item owns its path and error strings; the list owns its items.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ios_common.h"
#include "iosage/batch.h"

#define SNIFF_BYTES 4096

/* A malloc'd copy of s, or NULL. */
static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

iosage_status iosage_batch_list_push(iosage_batch_list *list, const char *path,
                                     int64_t size, const char *error,
                                     iosage_error *err)
{
    if (list->n == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 256;
        struct iosage_batch_item *v = realloc(list->items, cap * sizeof *v);
        if (!v)
            return ios_fail(err, IOSAGE_E_NOMEM, path, "batch", -1,
                            "out of memory listing logs");
        list->items = v;
        list->cap = cap;
    }
    struct iosage_batch_item *it = &list->items[list->n];
    it->path = dup_text(path);
    it->error = error ? dup_text(error) : NULL;
    it->size = size;
    it->identified = 0;
    it->dev = it->ino = 0;
    if (!it->path || (error && !it->error)) {
        free(it->path);
        free(it->error);
        return ios_fail(err, IOSAGE_E_NOMEM, path, "batch", -1,
                        "out of memory listing logs");
    }
    list->n++;
    return IOSAGE_OK;
}

void iosage_batch_list_free(iosage_batch_list *list)
{
    if (!list)
        return;
    for (size_t i = 0; i < list->n; i++) {
        free(list->items[i].path);
        free(list->items[i].error);
    }
    free(list->items);
    memset(list, 0, sizeof *list);
}

/* Push path as a log whose stat is st: its size, device and inode. */
static iosage_status push_stat(iosage_batch_list *list, const char *path,
                               const struct stat *st, iosage_error *err)
{
    iosage_status s = iosage_batch_list_push(list, path, (int64_t)st->st_size,
                                             NULL, err);
    if (s == IOSAGE_OK) {
        struct iosage_batch_item *it = &list->items[list->n - 1];
        it->identified = 1;
        it->dev = (uint64_t)st->st_dev;
        it->ino = (uint64_t)st->st_ino;
    }
    return s;
}

/* Push path as a log (size -1 when it cannot be stat'ed). */
static iosage_status push_log(iosage_batch_list *list, const char *path,
                              iosage_error *err)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return push_stat(list, path, &st, err);
    return iosage_batch_list_push(list, path, -1, NULL, err);
}

/* Push path as an item that could not be listed: "<what>: <strerror>". */
static iosage_status push_failed(iosage_batch_list *list, const char *path,
                                 const char *what, int e, iosage_error *err)
{
    char msg[300];
    snprintf(msg, sizeof msg, "%s: %s", what, strerror(e));
    return iosage_batch_list_push(list, path, -1, msg, err);
}

/* 1 when name is the name of a Darshan log (see batch.h). */
static int is_log_name(const char *name)
{
    static const char *const suffixes[] = {".darshan", ".darshan_partial",
                                           ".darshan.gz"};
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        size_t k = strlen(suffixes[i]);
        if (n > k && strcmp(name + n - k, suffixes[i]) == 0)
            return 1;
    }
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in directory dir (without "." and "..", and without the plain
 * files that are not logs when readdir says which those are), sorted; *n
 * of them.
 * Returns a malloc'd array of malloc'd names, or NULL with errno set
 * (an empty directory gives a non-NULL array and *n = 0). */
static char **read_dir_sorted(const char *dir, size_t *n)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    size_t cap = 16;
    char **names = malloc(cap * sizeof *names);
    struct dirent *e = NULL;
    while (names && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
#ifdef DT_REG
        /* a plain file that is not a log is skipped without the stat()
         * add_dir_entry would spend on it: half the entries of a run
         * directory with a sidecar beside each log */
        if (e->d_type == DT_REG && !is_log_name(e->d_name))
            continue;
#endif
        if (*n == cap) {
            char **v = realloc(names, cap * 2 * sizeof *v);
            if (!v)
                break;
            names = v;
            cap *= 2;
        }
        if (!(names[*n] = dup_text(e->d_name)))
            break;
        (*n)++;
    }
    int failed = e != NULL || !names; /* stopped early: out of memory */
    closedir(d);
    if (failed) {
        for (size_t i = 0; names && i < *n; i++)
            free(names[i]);
        free(names);
        errno = ENOMEM;
        return NULL;
    }
    qsort(names, *n, sizeof *names, compare_names);
    return names;
}

static iosage_status add_dir(iosage_batch_list *list, const char *dir,
                             int depth, iosage_error *err);

/* One entry of a directory: a subdirectory (recursed into) or a log. */
static iosage_status add_dir_entry(iosage_batch_list *list, const char *path,
                                   const char *name, int depth,
                                   iosage_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return is_log_name(name) ? push_log(list, path, err) : IOSAGE_OK;
    if (S_ISDIR(st.st_mode))
        return add_dir(list, path, depth + 1, err);
    if (S_ISREG(st.st_mode) && is_log_name(name))
        return push_stat(list, path, &st, err);
    return IOSAGE_OK;
}

/* Every log below dir, entries sorted by name. Links to directories are
 * followed to a depth of 64 (a loop ends there). */
static iosage_status add_dir(iosage_batch_list *list, const char *dir,
                             int depth, iosage_error *err)
{
    if (depth > 64)
        return push_failed(list, dir, "directories nested too deep", ELOOP,
                           err);
    size_t n;
    char **names = read_dir_sorted(dir, &n);
    if (!names)
        return errno == ENOMEM
                   ? ios_fail(err, IOSAGE_E_NOMEM, dir, "batch", -1,
                              "out of memory listing the directory")
                   : push_failed(list, dir, "cannot read directory", errno,
                                 err);
    iosage_status st = IOSAGE_OK;
    size_t dlen = strlen(dir);
    int slash = dlen > 0 && dir[dlen - 1] == '/';
    for (size_t i = 0; i < n; i++) {
        size_t len = dlen + 1 + strlen(names[i]) + 1;
        char *path = st == IOSAGE_OK ? malloc(len) : NULL;
        if (path) {
            snprintf(path, len, "%s%s%s", dir, slash ? "" : "/", names[i]);
            st = add_dir_entry(list, path, names[i], depth, err);
        } else if (st == IOSAGE_OK) {
            st = ios_fail(err, IOSAGE_E_NOMEM, dir, "batch", -1,
                          "out of memory listing the directory");
        }
        free(path);
        free(names[i]);
    }
    free(names);
    return st;
}

/* Strip a trailing newline, carriage return and surrounding blanks in
 * place; returns the start of the text. */
static char *trim_line(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' ||
                     s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Every non-empty line of in, as a log. */
static iosage_status add_lines(iosage_batch_list *list, FILE *in,
                               iosage_error *err)
{
    char *line = NULL;
    size_t cap = 0;
    iosage_status st = IOSAGE_OK;
    while (st == IOSAGE_OK && getline(&line, &cap, in) >= 0) {
        char *path = trim_line(line);
        if (*path)
            st = push_log(list, path, err);
    }
    free(line);
    return st;
}

/* 1 when the regular file at path looks like a list of logs: text (no NUL
 * in its first SNIFF_BYTES) whose first non-empty line names an existing
 * file or directory. */
static int is_list_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char buf[SNIFF_BYTES + 1];
    size_t n = fread(buf, 1, SNIFF_BYTES, f);
    fclose(f);
    if (n == 0 || memchr(buf, '\0', n))
        return 0;
    buf[n] = '\0';
    char *line = buf;
    while (*line) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        char *p = trim_line(line);
        if (*p) {
            struct stat st;
            return stat(p, &st) == 0;
        }
        if (!end)
            break;
        line = end + 1;
    }
    return 0;
}

/* See batch.h. */
iosage_status iosage_batch_list_add(iosage_batch_list *list, const char *arg,
                                    FILE *in, iosage_error *err)
{
    if (strcmp(arg, "-") == 0)
        return add_lines(list, in, err);
    struct stat st;
    if (stat(arg, &st) != 0)
        return push_log(list, arg, err); /* its row says why */
    if (S_ISDIR(st.st_mode))
        return add_dir(list, arg, 0, err);
    if (!S_ISREG(st.st_mode) || !is_list_file(arg))
        return push_stat(list, arg, &st, err);
    FILE *f = fopen(arg, "r");
    if (!f)
        return push_failed(list, arg, "cannot read the list", errno, err);
    iosage_status s = add_lines(list, f, err);
    int bad = ferror(f);
    fclose(f);
    if (s == IOSAGE_OK && bad)
        s = push_failed(list, arg, "cannot read the list", EIO, err);
    return s;
}

/* The list being sorted by iosage_batch_schedule (qsort has no context). */
static _Thread_local const iosage_batch_list *sort_list;

static int by_size_desc(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int64_t si = sort_list->items[i].size, sj = sort_list->items[j].size;
    if (si != sj)
        return si > sj ? -1 : 1;
    return i < j ? -1 : i > j;
}

size_t *iosage_batch_schedule(const iosage_batch_list *list, size_t first,
                              size_t count)
{
    size_t *order = malloc((count ? count : 1) * sizeof *order);
    if (!order)
        return NULL;
    for (size_t i = 0; i < count; i++)
        order[i] = first + i;
    sort_list = list;
    qsort(order, count, sizeof *order, by_size_desc);
    sort_list = NULL;
    return order;
}

int64_t *iosage_batch_tail_bytes(const iosage_batch_list *list,
                                 const size_t *order, size_t count)
{
    int64_t *tail = malloc((count + 1) * sizeof *tail);
    if (!tail)
        return NULL;
    tail[count] = 0;
    for (size_t k = count; k-- > 0;) {
        int64_t size = list->items[order[k]].size;
        tail[k] = tail[k + 1] + (size > 0 ? size : 0);
    }
    return tail;
}

int64_t iosage_batch_group_bytes(int64_t tail, int workers)
{
    int64_t share = tail / (2 * (int64_t)(workers > 0 ? workers : 1));
    if (share > IOSAGE_BATCH_GROUP_BYTES)
        share = IOSAGE_BATCH_GROUP_BYTES;
    return share > 0 ? share : 1;
}
