/*
 * src/cli/archive_pages.c - the report pages of the dashboard,
 * DIR/jobs/ID.html: one for every job the job table lists (or the first
 * --reports of them), each the HTML report of `iosage analyze --format
 * html` of the job's log.
 *
 * A report takes tens of milliseconds (read, features, models, advice,
 * view), so a table of thousands of jobs would take minutes every night.
 * Two things keep it cheap:
 *
 *   - Pages are kept between runs. DIR/jobs/pages.tsv lists, for each page
 *     written, the archive row id, a hash of the log's path, its size and
 *     mtime when the page was made, and the model bundle's hash. A page
 *     whose line still matches (same log, unchanged, same bundle) is not
 *     made again. A nightly run over an archive that grew by a day makes
 *     the pages of that day's jobs only.
 *   - The pages to make are shared among -j worker processes (default: the
 *     online CPUs); each loads the model bundle once. Workers mark the rows
 *     they wrote in a shared anonymous mapping, which the job table reads
 *     to decide which paths get a link.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batch_cli/frontend.h"
#include "cli/archive_cli.h"

/* What makes a kept page still right: one line of pages.tsv. */
struct page_key {
    long long id;
    uint64_t path_hash;
    long long size;
    long long mtime_ns;
    char bundle[17];
};

/* Row outcome in the shared mapping. */
enum { PAGE_NONE = 0, PAGE_KEPT, PAGE_WRITTEN, PAGE_NO_REPORT, PAGE_FAILED };

static int same_key(const struct page_key *a, const struct page_key *b)
{
    return a->id == b->id && a->path_hash == b->path_hash &&
           a->size == b->size && a->mtime_ns == b->mtime_ns &&
           strcmp(a->bundle, b->bundle) == 0;
}

/* The key of the log at path now; -1 when it cannot be stat'ed (it moved:
 * no page). */
static int key_now(long long id, const char *path, const char *bundle,
                   struct page_key *k)
{
    struct stat st;
    if (!path || stat(path, &st) != 0)
        return -1;
    k->id = id;
    k->path_hash = iosage_archive_hash(IOSAGE_ARCHIVE_HASH_SEED, path,
                                       strlen(path));
    k->size = (long long)st.st_size;
    k->mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL +
                  st.st_mtim.tv_nsec;
    snprintf(k->bundle, sizeof k->bundle, "%s", bundle);
    return 0;
}

/* --- pages.tsv ------------------------------------------------------------- */

/* The keys of jobs_dir/pages.tsv into *out (malloc'd, *n of them); an
 * absent or unreadable list is an empty one (every page is made again). */
static void load_keys(const char *jobs_dir, struct page_key **out, size_t *n)
{
    char path[4300], line[256];
    snprintf(path, sizeof path, "%s/pages.tsv", jobs_dir);
    *out = NULL;
    *n = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    size_t cap = 0;
    while (fgets(line, sizeof line, f)) {
        struct page_key k;
        unsigned long long ph;
        if (sscanf(line, "%lld\t%llx\t%lld\t%lld\t%16s", &k.id, &ph, &k.size,
                   &k.mtime_ns, k.bundle) != 5)
            continue; /* the header, or a damaged line: that page is remade */
        k.path_hash = ph;
        if (*n == cap) {
            size_t ncap = cap ? 2 * cap : 256;
            struct page_key *p = realloc(*out, ncap * sizeof *p);
            if (!p)
                break; /* fewer kept pages, not an error */
            *out = p;
            cap = ncap;
        }
        (*out)[(*n)++] = k;
    }
    fclose(f);
}

static int by_id(const void *a, const void *b)
{
    long long x = ((const struct page_key *)a)->id;
    long long y = ((const struct page_key *)b)->id;
    return (x > y) - (x < y);
}

/* The kept key of row id, or NULL. keys is sorted by id. */
static const struct page_key *find_key(const struct page_key *keys, size_t n,
                                       long long id)
{
    struct page_key k = {.id = id};
    if (n == 0)             /* bsearch(.., NULL, 0, ..) is undefined */
        return NULL;
    return bsearch(&k, keys, n, sizeof *keys, by_id);
}

/* Write the keys of the rows that have a page to jobs_dir/pages.tsv. */
static int save_keys(const char *jobs_dir, const struct page_key *keys,
                     const unsigned char *state, size_t n)
{
    ios_text t = {0};
    static const char head[] =
        "# id\tpath_hash\tsize\tmtime_ns\tbundle: the report pages of "
        "`iosage archive site`; a page whose line matches its log is kept\n";
    ios_text_put(&t, head, sizeof head - 1);
    for (size_t i = 0; i < n; i++)
        if (state[i] == PAGE_KEPT || state[i] == PAGE_WRITTEN)
            ios_text_printf(&t, "%lld\t%016" PRIx64 "\t%lld\t%lld\t%s\n",
                            keys[i].id, keys[i].path_hash, keys[i].size,
                            keys[i].mtime_ns, keys[i].bundle);
    int rc = site_write_page(jobs_dir, "pages.tsv", &t);
    ios_text_free(&t);
    return rc;
}

/* --- workers --------------------------------------------------------------- */

/* Make the pages of the rows todo[w], todo[w + nw], ... into state. */
static void make_pages(const struct archive_args *a,
                       const iosage_archive_table *jobs, const char *jobs_dir,
                       const size_t *todo, size_t ntodo, size_t w, size_t nw,
                       unsigned char *state)
{
    archive_reporter *r = NULL;
    for (size_t t = w; t < ntodo; t += nw) {
        size_t i = todo[t];
        if (!r && !(r = archive_reporter_open(a->model_dir))) {
            state[i] = PAGE_FAILED;
            return;
        }
        const char *path = iosage_archive_cell(jobs, i, "path");
        char why[800], name[64];
        size_t len = 0;
        char *html = archive_report_html(r, path, &len, why, sizeof why);
        if (!html) { /* the table still lists the job, with no link */
            fprintf(stderr, "iosage: archive: no report for %s\n", why);
            state[i] = PAGE_NO_REPORT;
            continue;
        }
        ios_text page = {.p = html, .len = len, .cap = len};
        snprintf(name, sizeof name, "%s.html", iosage_archive_cell(jobs, i, "id"));
        int rc = site_write_page(jobs_dir, name, &page);
        free(html);
        if (rc != 0) {
            state[i] = PAGE_FAILED;
            break;
        }
        state[i] = PAGE_WRITTEN;
    }
    archive_reporter_free(r);
}

/* Run make_pages in nw processes (in this one when nw is 1). Returns 0,
 * or -1 when a worker could not be started or did not finish. */
static int run_workers(const struct archive_args *a,
                       const iosage_archive_table *jobs, const char *jobs_dir,
                       const size_t *todo, size_t ntodo, size_t nw,
                       unsigned char *state)
{
    if (nw <= 1) {
        make_pages(a, jobs, jobs_dir, todo, ntodo, 0, 1, state);
        return 0;
    }
    fflush(NULL); /* no buffered output is written twice */
    pid_t *pids = calloc(nw, sizeof *pids);
    if (!pids)
        return -1;
    int rc = 0;
    size_t started = 0;
    for (; started < nw; started++) {
        pid_t p = fork();
        if (p == 0) {
            make_pages(a, jobs, jobs_dir, todo, ntodo, started, nw, state);
            fflush(stderr);
            _exit(0);
        }
        if (p < 0) {
            fprintf(stderr, "iosage: archive: cannot start a worker: %s\n",
                    strerror(errno));
            rc = -1;
            break;
        }
        pids[started] = p;
    }
    for (size_t k = 0; k < started; k++) {
        int status;
        if (waitpid(pids[k], &status, 0) < 0 || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0) {
            fprintf(stderr, "iosage: archive: a report worker failed\n");
            rc = -1;
        }
    }
    free(pids);
    return rc;
}

/* --- the pages ------------------------------------------------------------- */

long archive_write_reports(const struct archive_args *a,
                           const iosage_archive_table *jobs, char *has_report,
                           const char *jobs_dir)
{
    size_t n = jobs->nrow;
    if (a->reports >= 0 && (size_t)a->reports < n)
        n = (size_t)a->reports;
    if (n == 0)
        return 0;
    char bundle[17];
    if (ios_batch_bundle_hash(a->model_dir, bundle) != 0)
        return -1;

    struct page_key *kept = NULL, *keys = calloc(n, sizeof *keys);
    size_t nkept = 0, ntodo = 0;
    size_t *todo = calloc(n, sizeof *todo);
    unsigned char *state = mmap(NULL, n, PROT_READ | PROT_WRITE,
                                MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (state == MAP_FAILED)
        state = NULL;
    long pages = -1;
    if (!keys || !todo || !state) {
        fprintf(stderr, "iosage: archive: out of memory\n");
        goto done;
    }
    load_keys(jobs_dir, &kept, &nkept);
    if (nkept > 1)          /* qsort(NULL, 0, ...) is undefined */
        qsort(kept, nkept, sizeof *kept, by_id);

    /* Which pages are still right, which to make. */
    for (size_t i = 0; i < n; i++) {
        const char *id = iosage_archive_cell(jobs, i, "id");
        char name[4300];
        if (key_now(id ? atoll(id) : -1, iosage_archive_cell(jobs, i, "path"), bundle,
                    &keys[i]) != 0) {
            fprintf(stderr, "iosage: archive: no report for %s: the log is "
                    "gone\n", iosage_archive_cell(jobs, i, "path"));
            state[i] = PAGE_NO_REPORT;
            continue;
        }
        const struct page_key *k = find_key(kept, nkept, keys[i].id);
        snprintf(name, sizeof name, "%s/%s.html", jobs_dir, id);
        if (k && same_key(k, &keys[i]) && access(name, F_OK) == 0)
            state[i] = PAGE_KEPT;
        else
            todo[ntodo++] = i;
    }

    size_t nw = a->jobs > 0 ? (size_t)a->jobs : 1;
    if (nw > ntodo)
        nw = ntodo ? ntodo : 1;
    if (run_workers(a, jobs, jobs_dir, todo, ntodo, nw, state) != 0)
        goto done;
    pages = 0;
    size_t made = 0;
    for (size_t i = 0; i < n; i++) {
        if (state[i] == PAGE_FAILED || state[i] == PAGE_NONE) {
            pages = -1; /* a page could not be written, or a worker stopped */
            break;
        }
        if (state[i] == PAGE_KEPT || state[i] == PAGE_WRITTEN) {
            has_report[i] = 1;
            pages++;
            made += state[i] == PAGE_WRITTEN;
        }
    }
    if (pages >= 0 && save_keys(jobs_dir, keys, state, n) != 0)
        pages = -1;
    if (pages >= 0)
        fprintf(stderr, "iosage: archive: %zu report pages made, %ld kept "
                "from the last run\n", made, pages - (long)made);
done:
    if (state)
        munmap(state, n);
    free(todo);
    free(keys);
    free(kept);
    return pages;
}
