/*
 * src/batch/summary.c - what a facility wants from a batch at a glance:
 * how many logs have each pattern, which jobs lose the most I/O time to it,
 * and the same per executable.
 *
 * I/O time lost to a pattern (iosage/batch.h): the job's I/O time summed
 * over ranks when the pattern is detected. "criteria only": logs where the
 * written criteria find the pattern and the models do not report it (the
 * row's criteria_only), the ones to check by hand. The top list keeps the
 * SUMMARY_TOP largest per pattern, ties to the earlier input. Executables
 * are keyed by the base name of the first word of the log's command line.
 * Everything depends only on the rows, never on their arrival order, except
 * ties, which are broken by input index: the summary is the same for any
 * thread or rank count.
 */
#include <math.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

#include "iosage/batch.h"

#define SUMMARY_TOP 10
#define SUMMARY_EXES 20
#define EXE_KEY_MAX 128

struct top_job {
    double lost;      /* seconds */
    size_t index;     /* input order, for ties */
    int64_t job_id, uid, nprocs;
    char exe[EXE_KEY_MAX];
    char *file;       /* malloc'd */
};

struct exe_stat {
    char key[EXE_KEY_MAX];
    size_t logs;
    double io_time, share_sum;
    size_t detected[IOSAGE_MAX_PATTERNS];
};

struct iosage_batch_summary {
    size_t logs, ok, partial, errors, healthy;
    size_t detected[IOSAGE_MAX_PATTERNS];
    size_t criteria_only[IOSAGE_MAX_PATTERNS];
    double lost[IOSAGE_MAX_PATTERNS];
    struct top_job top[IOSAGE_MAX_PATTERNS][SUMMARY_TOP];
    int n_top[IOSAGE_MAX_PATTERNS];
    void *exes;       /* tsearch tree of the entries of all[] */
    struct exe_stat **all; /* every entry (owned), in first-seen order */
    size_t n_exes, cap_exes;
};

iosage_batch_summary *iosage_batch_summary_new(void)
{
    return calloc(1, sizeof(iosage_batch_summary));
}

/* The executable key of a command line: the base name of its first word,
 * or "(unknown)". */
static void exe_key(const char *exe, char *key)
{
    const char *start = exe ? exe : "";
    while (*start == ' ')
        start++;
    size_t n = strcspn(start, " \t");
    const char *base = start;
    for (size_t i = 0; i < n; i++)
        if (start[i] == '/')
            base = start + i + 1;
    n -= (size_t)(base - start);
    if (n == 0) {
        snprintf(key, EXE_KEY_MAX, "(unknown)");
        return;
    }
    if (n >= EXE_KEY_MAX)
        n = EXE_KEY_MAX - 1;
    memcpy(key, base, n);
    key[n] = '\0';
}

static int compare_exe(const void *a, const void *b)
{
    return strcmp(((const struct exe_stat *)a)->key,
                  ((const struct exe_stat *)b)->key);
}

/* 1 when job a ranks before job b (more time lost, then earlier input). */
static int ranks_before(const struct top_job *a, const struct top_job *b)
{
    if (a->lost != b->lost)
        return a->lost > b->lost;
    return a->index < b->index;
}

/* Keep row in pattern k's top list when it ranks there. -1 on no memory. */
static int add_top(iosage_batch_summary *s, int k,
                   const struct iosage_batch_row *row, const char *key)
{
    struct top_job j = {.lost = row->io_time, .index = row->index,
                        .job_id = row->job_id, .uid = row->uid,
                        .nprocs = row->nprocs};
    snprintf(j.exe, sizeof j.exe, "%s", key);
    struct top_job *v = s->top[k];
    int n = s->n_top[k];
    int at = n;
    while (at > 0 && ranks_before(&j, &v[at - 1]))
        at--;
    if (at >= SUMMARY_TOP)
        return 0;
    j.file = malloc(strlen(row->file) + 1);
    if (!j.file)
        return -1;
    memcpy(j.file, row->file, strlen(row->file) + 1);
    if (n == SUMMARY_TOP)
        free(v[--n].file);
    memmove(&v[at + 1], &v[at], (size_t)(n - at) * sizeof *v);
    v[at] = j;
    s->n_top[k] = n + 1;
    return 0;
}

/* The per-executable entry of key, created when missing; NULL on no memory. */
static struct exe_stat *exe_entry(iosage_batch_summary *s, const char *key)
{
    struct exe_stat probe;
    snprintf(probe.key, sizeof probe.key, "%s", key);
    struct exe_stat **found = tfind(&probe, &s->exes, compare_exe);
    if (found)
        return *found;
    if (s->n_exes == s->cap_exes) {
        size_t cap = s->cap_exes ? s->cap_exes * 2 : 64;
        struct exe_stat **v = realloc(s->all, cap * sizeof *v);
        if (!v)
            return NULL;
        s->all = v;
        s->cap_exes = cap;
    }
    struct exe_stat *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    memcpy(e->key, probe.key, sizeof e->key);
    if (!tsearch(e, &s->exes, compare_exe)) {
        free(e);
        return NULL;
    }
    s->all[s->n_exes++] = e;
    return e;
}

int iosage_batch_summary_add(iosage_batch_summary *s,
                             const struct iosage_batch_row *row)
{
    s->logs++;
    if (row->status == IOSAGE_BATCH_ERROR) {
        s->errors++;
        return 0;
    }
    if (row->status == IOSAGE_BATCH_PARTIAL)
        s->partial++;
    else
        s->ok++;
    s->healthy += row->healthy != 0;
    char key[EXE_KEY_MAX];
    exe_key(row->exe, key);
    struct exe_stat *e = exe_entry(s, key);
    if (!e)
        return -1;
    e->logs++;
    e->io_time += isfinite(row->io_time) ? row->io_time : 0;
    e->share_sum += isfinite(row->io_time_share) ? row->io_time_share : 0;
    for (int k = 0; k < row->n_patterns; k++) {
        s->criteria_only[k] += row->criteria_only[k] != 0;
        if (!row->detected[k])
            continue;
        s->detected[k]++;
        s->lost[k] += isfinite(row->io_time) ? row->io_time : 0;
        e->detected[k]++;
        if (add_top(s, k, row, key) != 0)
            return -1;
    }
    return 0;
}

/* --- printing ------------------------------------------------------------- */

static int by_io_time(const void *a, const void *b)
{
    const struct exe_stat *x = *(struct exe_stat *const *)a;
    const struct exe_stat *y = *(struct exe_stat *const *)b;
    if (x->io_time != y->io_time)
        return x->io_time > y->io_time ? -1 : 1;
    return strcmp(x->key, y->key);
}

static void print_patterns(const iosage_batch_summary *s, FILE *out)
{
    size_t read = s->ok + s->partial;
    fprintf(out, "logs: %zu (%zu read completely, %zu partly, %zu not read)\n",
            s->logs, s->ok, s->partial, s->errors);
    fprintf(out, "healthy: %zu of %zu logs read\n\n", s->healthy, read);
    fprintf(out, "%-26s %8s %18s %14s\n", "pattern", "logs",
            "I/O time lost (s)", "criteria only");
    for (int k = 0; k < iosage_pattern_count(); k++)
        fprintf(out, "%-26s %8zu %18.1f %14zu\n", iosage_pattern_get(k)->id,
                s->detected[k], s->lost[k], s->criteria_only[k]);
}

static void print_top(const iosage_batch_summary *s, FILE *out)
{
    fprintf(out, "\ntop jobs by I/O time lost to each pattern (I/O time "
                 "summed over ranks, counted when the pattern is detected)\n");
    for (int k = 0; k < iosage_pattern_count(); k++) {
        if (s->n_top[k] == 0)
            continue;
        fprintf(out, "%s\n", iosage_pattern_get(k)->id);
        for (int i = 0; i < s->n_top[k]; i++) {
            const struct top_job *j = &s->top[k][i];
            fprintf(out, "  %2d. %12.1f s  job %lld  uid %lld  nprocs %lld  "
                    "%s  %s\n", i + 1, j->lost, (long long)j->job_id,
                    (long long)j->uid, (long long)j->nprocs, j->exe, j->file);
        }
    }
}

static void print_exes(const iosage_batch_summary *s, FILE *out)
{
    if (s->n_exes == 0)
        return;
    struct exe_stat **v = malloc(s->n_exes * sizeof *v);
    if (!v)
        return;
    memcpy(v, s->all, s->n_exes * sizeof *v);
    qsort(v, s->n_exes, sizeof *v, by_io_time);
    size_t shown = s->n_exes < SUMMARY_EXES ? s->n_exes : SUMMARY_EXES;
    fprintf(out, "\nper executable (%zu of %zu, by I/O time)\n", shown,
            s->n_exes);
    fprintf(out, "%-32s %6s %14s %10s  %s\n", "exe", "logs", "I/O time (s)",
            "mean share", "patterns (logs)");
    for (size_t i = 0; i < shown; i++) {
        const struct exe_stat *e = v[i];
        fprintf(out, "%-32s %6zu %14.1f %10.4f ", e->key, e->logs, e->io_time,
                e->share_sum / (double)e->logs);
        int any = 0;
        for (int k = 0; k < iosage_pattern_count(); k++)
            if (e->detected[k])
                fprintf(out, "%s%s %zu", any++ ? ", " : " ",
                        iosage_pattern_get(k)->id, e->detected[k]);
        fputs(any ? "\n" : " -\n", out);
    }
    free(v);
}

void iosage_batch_summary_print(const iosage_batch_summary *s, FILE *out)
{
    print_patterns(s, out);
    print_top(s, out);
    print_exes(s, out);
}

void iosage_batch_summary_free(iosage_batch_summary *s)
{
    if (!s)
        return;
    for (int k = 0; k < IOSAGE_MAX_PATTERNS; k++)
        for (int i = 0; i < s->n_top[k]; i++)
            free(s->top[k][i].file);
    for (size_t i = 0; i < s->n_exes; i++) {
        tdelete(s->all[i], &s->exes, compare_exe);
        free(s->all[i]);
    }
    free(s->all);
    free(s);
}
