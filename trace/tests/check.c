/*
 * check.c - see check.h.
 */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, checks;
static const iosage_log *cur_log;

iosage_log *chk_load(const char *path)
{
    iosage_log *log = NULL;
    iosage_error err;
    memset(&err, 0, sizeof err);
    if (iosage_log_load(path, IOSAGE_READ_DEFAULT, &log, &err) != IOSAGE_OK) {
        char line[800];
        fprintf(stderr, "check: cannot read %s: %s\n", path,
                iosage_error_line(&err, line, sizeof line));
        exit(2);
    }
    for (int k = 0; k < IOSAGE_MAX_MODULES; k++)
        if (log->modules[k].status != IOSAGE_OK) {
            fprintf(stderr, "check: module %d of %s did not decode\n", k, path);
            failures++;
        }
    cur_log = log;
    return log;
}

/* "POSIX /path rank 0" for messages. */
static const char *describe(const iosage_record *r)
{
    static char buf[600];
    const char *name = cur_log ? iosage_log_name(cur_log, r->id) : NULL;
    snprintf(buf, sizeof buf, "%s %s rank %lld", iosage_module_name(r->module),
             name ? name : "?", (long long)r->rank);
    return buf;
}

const iosage_record *chk_rec(const iosage_log *log, int module,
                             const char *name, int64_t rank)
{
    const iosage_module_data *m = &log->modules[module];
    const iosage_record *found = NULL;
    int n = 0;
    for (size_t i = 0; i < m->n_records; i++) {
        const char *nm = iosage_log_name(log, m->records[i].id);
        if (nm && strcmp(nm, name) == 0 && m->records[i].rank == rank) {
            found = &m->records[i];
            n++;
        }
    }
    checks++;
    if (n != 1) {
        fprintf(stderr, "FAIL: %d %s records for %s rank %lld (want 1)\n", n,
                iosage_module_name(module), name, (long long)rank);
        failures++;
        return NULL;
    }
    return found;
}

int chk_count(const iosage_log *log, int module, const char *prefix)
{
    const iosage_module_data *m = &log->modules[module];
    int n = 0;
    for (size_t i = 0; i < m->n_records; i++) {
        const char *nm = iosage_log_name(log, m->records[i].id);
        if (nm && strncmp(nm, prefix, strlen(prefix)) == 0)
            n++;
    }
    return n;
}

int chk_count_name(const iosage_log *log, int module, const char *name)
{
    const iosage_module_data *m = &log->modules[module];
    int n = 0;
    for (size_t i = 0; i < m->n_records; i++) {
        const char *nm = iosage_log_name(log, m->records[i].id);
        if (nm && strcmp(nm, name) == 0)
            n++;
    }
    return n;
}

void chk_i(const iosage_record *r, int idx, const char *what, int64_t want)
{
    if (!r)
        return;
    checks++;
    if (idx >= r->n_counters || r->counters[idx] != want) {
        fprintf(stderr, "FAIL: %s: %s = %lld, want %lld\n", describe(r), what,
                idx < r->n_counters ? (long long)r->counters[idx] : -999LL,
                (long long)want);
        failures++;
    }
}

void chk_f_pos(const iosage_record *r, int idx, const char *what)
{
    if (!r)
        return;
    checks++;
    if (idx >= r->n_fcounters || !(r->fcounters[idx] > 0.0)) {
        fprintf(stderr, "FAIL: %s: %s = %f, want > 0\n", describe(r), what,
                idx < r->n_fcounters ? r->fcounters[idx] : -999.0);
        failures++;
    }
}

void chk_f_eq(const iosage_record *r, int idx, const char *what, double want)
{
    if (!r)
        return;
    checks++;
    if (idx >= r->n_fcounters || r->fcounters[idx] != want) {
        fprintf(stderr, "FAIL: %s: %s = %f, want %f\n", describe(r), what,
                idx < r->n_fcounters ? r->fcounters[idx] : -999.0, want);
        failures++;
    }
}

void chk_f_le(const iosage_record *r, int a, const char *wa, int b,
              const char *wb)
{
    if (!r)
        return;
    checks++;
    if (r->fcounters[a] > r->fcounters[b]) {
        fprintf(stderr, "FAIL: %s: %s (%f) > %s (%f)\n", describe(r), wa,
                r->fcounters[a], wb, r->fcounters[b]);
        failures++;
    }
}

void chk_true(int ok, const char *what)
{
    checks++;
    if (!ok) {
        fprintf(stderr, "FAIL: %s\n", what);
        failures++;
    }
}

int chk_done(const char *test)
{
    printf("%s: %d checks, %d failed\n", test, checks, failures);
    return failures ? 1 : 0;
}
