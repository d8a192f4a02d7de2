/* tests/unit/testutil.c - see testutil.h */
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "iosage/counters.h"

const char *tu_shared_logs(void)
{
    const char *env = getenv("IOSAGE_SHARED_LOGS");
    const char *dir = env && *env ? env : IOSAGE_SHARED_LOGS;
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return NULL;
    return dir;
}

uint8_t *tu_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return NULL;
    }
    long n = ftell(f);
    rewind(f);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf)
        *len = (size_t)n;
    return buf;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **tu_list_logs(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    size_t n = 0, cap = 16;
    char **list = malloc(cap * sizeof *list);
    struct dirent *e;
    while (list && (e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l < 8 || strcmp(e->d_name + l - 8, ".darshan") != 0)
            continue;
        if (n + 2 > cap) {
            cap *= 2;
            char **grown = realloc(list, cap * sizeof *list);
            if (!grown)
                break;
            list = grown;
        }
        size_t need = strlen(dir) + l + 2;
        list[n] = malloc(need);
        snprintf(list[n], need, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (!list)
        return NULL;
    list[n] = NULL;
    qsort(list, n, sizeof *list, cmp_str);
    return list;
}

void tu_free_list(char **list)
{
    if (!list)
        return;
    for (char **p = list; *p; p++)
        free(*p);
    free(list);
}

char *tu_mkdtemp(void)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    size_t need = strlen(base) + 32;
    char *path = malloc(need);
    snprintf(path, need, "%s/iosage-test-XXXXXX", base);
    if (!mkdtemp(path)) {
        free(path);
        return NULL;
    }
    return path;
}

iosage_record *tu_rec_new(int module, const char *name, int64_t rank)
{
    iosage_record *r = calloc(1, sizeof *r);
    if (!r)
        abort();
    r->module = module;
    r->id = iosage_darshan_hash(name, strlen(name));
    r->rank = rank;
    r->n_counters = iosage_counter_count(module);
    r->n_fcounters = iosage_fcounter_count(module);
    r->counters = calloc((size_t)r->n_counters + 1, sizeof *r->counters);
    r->fcounters = calloc((size_t)r->n_fcounters + 1, sizeof *r->fcounters);
    if (!r->counters || !r->fcounters)
        abort();
    return r;
}

void tu_rec_free(iosage_record *r)
{
    if (!r)
        return;
    free(r->counters);
    free(r->fcounters);
    free(r);
}

iosage_status tu_rec_add(iosage_log *log, iosage_record *r, const char *name)
{
    iosage_status st = IOSAGE_OK;
    if (name)
        st = iosage_log_add_name(log, r->id, name, NULL);
    if (st == IOSAGE_OK)
        st = iosage_log_add_record(log, r, NULL);
    tu_rec_free(r);
    return st;
}
