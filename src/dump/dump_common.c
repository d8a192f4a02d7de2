/*
 * src/dump/dump_common.c - what darshan-parser and darshan-dxt-parser output
 * share: the preamble (spec 12.1), module banners, the mount-point column
 * (spec 12.3) and small helpers.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dump_internal.h"
#include "ios_runtime.h"

/* --- Preamble --------------------------------------------------------------- */

static const char *compression_name(int c)
{
    switch (c) {
    case IOSAGE_COMP_ZLIB: return "ZLIB";
    case IOSAGE_COMP_BZIP2: return "BZIP2";
    case IOSAGE_COMP_NONE: return "NONE";
    default: return "UNKNOWN";
    }
}

/* The text C ctime() gives for t in the local time zone, with its newline.
 * When the time cannot be converted, ctime() returns NULL and the reference
 * tool's printf shows "(null)" (without a newline). */
static void out_ctime(ios_out *o, int64_t t64)
{
    static const char days[7][4] = {"Sun", "Mon", "Tue", "Wed",
                                    "Thu", "Fri", "Sat"};
    static const char months[12][4] = {"Jan", "Feb", "Mar", "Apr",
                                       "May", "Jun", "Jul", "Aug",
                                       "Sep", "Oct", "Nov", "Dec"};
    time_t t = (time_t)t64;
    struct tm tm;
    if ((int64_t)t != t64 || !localtime_r(&t, &tm) || tm.tm_wday < 0 ||
        tm.tm_wday > 6 || tm.tm_mon < 0 || tm.tm_mon > 11) {
        ios_out_str(o, "(null)");
        return;
    }
    /* what snprintf("%.3s %.3s%3d %.2d:%.2d:%.2d %lld\n") prints, put
     * together by hand (snprintf was a tenth of a dump's own
     * instructions on a small log): the fields localtime_r gives are in
     * range; the year is any number */
    char buf[64];
    char *p = buf;
    memcpy(p, days[tm.tm_wday], 3);
    p[3] = ' ';
    memcpy(p + 4, months[tm.tm_mon], 3);
    p += 7;
    *p++ = ' ';
    *p++ = tm.tm_mday >= 10 ? (char)('0' + tm.tm_mday / 10) : ' ';
    *p++ = (char)('0' + tm.tm_mday % 10);
    *p++ = ' ';
    const int hms[3] = {tm.tm_hour, tm.tm_min, tm.tm_sec};
    for (int k = 0; k < 3; k++) {
        *p++ = (char)('0' + hms[k] / 10);
        *p++ = (char)('0' + hms[k] % 10);
        *p++ = k < 2 ? ':' : ' ';
    }
    p += ios_fmt_i64(p, (int64_t)tm.tm_year + 1900);
    *p++ = '\n';
    ios_out_mem(o, buf, (size_t)(p - buf));
}

/* "# mount entry:\t<point>\t<type>\n", copied into the buffer in one go
 * (a job has dozens of mounts; the strings come from the job data, 4 KiB
 * at most, so the line always fits in the buffer). */
static void out_mount(ios_out *o, const struct iosage_mount *m)
{
    static const char head[] = "# mount entry:\t";
    size_t hl = sizeof head - 1, pl = strlen(m->point), tl = strlen(m->fs_type);
    if (hl + pl + tl + 2 > IOS_OUT_CAP) { /* not from a log; still printed */
        ios_out_str(o, head);
        ios_out_str(o, m->point);
        ios_out_mem(o, "\t", 1);
        ios_out_str(o, m->fs_type);
        ios_out_mem(o, "\n", 1);
        return;
    }
    char *p = ios_out_reserve(o, hl + pl + tl + 2);
    memcpy(p, head, hl);
    memcpy(p + hl, m->point, pl);
    p[hl + pl] = '\t';
    memcpy(p + hl + pl + 1, m->fs_type, tl);
    p[hl + pl + 1 + tl] = '\n';
    o->len += hl + pl + tl + 2;
}

static void out_kv_i64(ios_out *o, const char *key, int64_t v)
{
    ios_out_str(o, key);
    ios_out_i64(o, v);
    ios_out_mem(o, "\n", 1);
}

/* "# metadata: key = value" for every non-empty line holding '='. */
static void out_metadata(ios_out *o, const char *md)
{
    const char *p = md;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        const char *eq = memchr(p, '=', n);
        if (n > 0 && eq) {
            ios_out_str(o, "# metadata: ");
            ios_out_mem(o, p, (size_t)(eq - p));
            ios_out_str(o, " = ");
            ios_out_mem(o, eq + 1, n - (size_t)(eq - p) - 1);
            ios_out_mem(o, "\n", 1);
        }
        p += n;
        if (*p == '\n')
            p++;
    }
}

static void out_run_time(ios_out *o, const struct iosage_header *h,
                         const struct iosage_job *j)
{
    double rt = ios_job_run_time(h, j);
    ios_out_str(o, "# run time: ");
    ios_out_double(o, rt, 4);
    ios_out_mem(o, "\n", 1);
}

static void out_regions(ios_out *o, const struct iosage_header *h)
{
    ios_out_str(o, "\n# log file regions\n"
                   "# -------------------------------------------------------"
                   "\n# header: 1328 bytes (uncompressed)\n# job data: ");
    ios_out_u64(o, h->job_len);
    ios_out_str(o, " bytes (compressed)\n# record table: ");
    ios_out_u64(o, h->names.len);
    ios_out_str(o, " bytes (compressed)\n");
    for (int k = 0; k < IOSAGE_MAX_MODULES; k++) {
        const struct iosage_region *m = &h->modules[k];
        if (m->len == 0 && !((h->partial_flags >> k) & 1))
            continue;
        ios_out_str(o, "# ");
        ios_out_str(o, iosage_module_name(k));
        if (k >= IOSAGE_MOD_KNOWN) {
            ios_out_str(o, " module (id ");
            ios_out_i64(o, k);
            ios_out_str(o, "): ");
        } else {
            ios_out_str(o, " module: ");
        }
        ios_out_u64(o, m->len);
        ios_out_str(o, " bytes (compressed), ver=");
        ios_out_u64(o, m->version);
        ios_out_mem(o, "\n", 1);
    }
}

void ios_dump_preamble(ios_out *o, const iosage_reader *r)
{
    const struct iosage_header *h = iosage_reader_header(r);
    const struct iosage_job *j = iosage_reader_job(r);

    tzset(); /* the *_asci lines use the local time zone, like ctime() */
    if (strcmp(h->version, "3.20") == 0)
        ios_out_str(o, ios_txt_v320_warning);
    ios_out_str(o, "# darshan log version: ");
    ios_out_str(o, h->version);
    ios_out_str(o, "\n# compression method: ");
    ios_out_str(o, compression_name(h->compression));
    ios_out_str(o, "\n# exe: ");
    ios_out_str(o, j->exe ? j->exe : "");
    ios_out_mem(o, "\n", 1);
    out_kv_i64(o, "# uid: ", j->uid);
    out_kv_i64(o, "# jobid: ", j->jobid);
    out_kv_i64(o, "# start_time: ", j->start_time_sec);
    ios_out_str(o, "# start_time_asci: ");
    out_ctime(o, j->start_time_sec);
    out_kv_i64(o, "# end_time: ", j->end_time_sec);
    ios_out_str(o, "# end_time_asci: ");
    out_ctime(o, j->end_time_sec);
    out_kv_i64(o, "# nprocs: ", j->nprocs);
    out_run_time(o, h, j);
    out_metadata(o, j->metadata);
    out_regions(o, h);

    ios_out_str(o, "\n# mounted file systems (mount point and fs type)\n"
                   "# -------------------------------------------------------"
                   "\n");
    for (size_t i = 0; i < j->n_mounts; i++)
        out_mount(o, &j->mounts[i]);
}

void ios_dump_banner(ios_out *o, const char *modname, int stars)
{
    char line[80];
    int n = stars < 70 ? stars : 70;
    line[0] = '#';
    line[1] = ' ';
    memset(line + 2, '*', (size_t)n);
    line[2 + n] = '\n';
    ios_out_mem(o, "\n", 1);
    ios_out_mem(o, line, (size_t)n + 3);
    ios_out_str(o, "# ");
    ios_out_str(o, modname);
    ios_out_str(o, " module data\n");
    ios_out_mem(o, line, (size_t)n + 3);
}

/* --- Mount points ----------------------------------------------------------- */

#define MOUNT_CACHE 4096 /* direct-mapped id -> mount index cache */

struct mount_cache_slot {
    uint64_t id;
    long idx;
    int used;
};

struct ios_mounts {
    size_t n;
    const char **point;
    size_t *len;
    /* MOUNT_CACHE slots, made by the first lookup: a log without records
     * (and a short dump) does not clear 96 KiB for nothing. NULL when that
     * allocation failed: every lookup then scans. */
    struct mount_cache_slot *cache;
    int cache_tried;
};

ios_mounts *ios_mounts_create(const struct iosage_job *job)
{
    ios_mounts *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->n = job->n_mounts;
    if (m->n) {
        m->point = calloc(m->n, sizeof *m->point);
        m->len = calloc(m->n, sizeof *m->len);
        if (!m->point || !m->len) {
            ios_mounts_free(m);
            return NULL;
        }
        for (size_t i = 0; i < m->n; i++) {
            m->point[i] = job->mounts[i].point ? job->mounts[i].point : "";
            m->len[i] = strlen(m->point[i]);
        }
    }
    return m;
}

void ios_mounts_free(ios_mounts *m)
{
    if (!m)
        return;
    free(m->point);
    free(m->len);
    free(m->cache);
    free(m);
}

static long mount_scan(const ios_mounts *m, const char *name)
{
    for (size_t i = 0; i < m->n; i++) {
        size_t l = m->len[i];
        if (l == 0 || (name[0] == m->point[i][0] &&
                       strncmp(name, m->point[i], l) == 0))
            return (long)i;
    }
    return -1;
}

long ios_mounts_match(ios_mounts *m, uint64_t id, const char *name)
{
    if (!name)
        return -1;
    if (!m->cache_tried) {
        m->cache_tried = 1;
        m->cache = calloc(MOUNT_CACHE, sizeof *m->cache);
    }
    if (!m->cache)
        return mount_scan(m, name);
    struct mount_cache_slot *s =
        &m->cache[(id ^ (id >> 29) ^ (id >> 47)) % MOUNT_CACHE];
    if (s->used && s->id == id)
        return s->idx;
    long idx = mount_scan(m, name);
    s->id = id;
    s->idx = idx;
    s->used = 1;
    return idx;
}

void ios_fmt_uuid(char *p, const uint8_t u[16])
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            p[n++] = '-';
        p[n++] = hex[u[i] >> 4];
        p[n++] = hex[u[i] & 15];
    }
}

void ios_dump_problem(struct iosage_dump_result *res, const char *fmt, ...)
{
    if (!res || res->first_problem[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->first_problem, sizeof res->first_problem, fmt, ap);
    va_end(ap);
}

/* Partial module (spec 12.2): with show, the warning block on o and go on
 * (returns 0); without, the error block on diag and stop (returns 1). dxt
 * selects darshan-dxt-parser's wording. */
int ios_dump_partial(ios_out *o, FILE *diag, struct iosage_dump_result *res,
                     const iosage_module_data *md, int show, int dxt)
{
    if (show) {
        ios_txt_partial(o, md->name, 1, dxt);
        res->partial_modules++;
        return 0;
    }
    ios_out_flush(o);
    if (diag) {
        ios_out d;
        if (ios_out_init(&d, diag) == 0) {
            ios_txt_partial(&d, md->name, 0, dxt);
            ios_out_finish(&d);
        }
    }
    res->partial_stop = 1;
    ios_dump_problem(res,
                     "the %s module is flagged incomplete (the runtime ran "
                     "out of memory); output stops there, --show-incomplete "
                     "prints what it holds",
                     md->name);
    return 1;
}

/* A module whose records could not all be read: the reference tool's stderr
 * line, and the problem recorded in res. */
void ios_dump_failed(FILE *diag, struct iosage_dump_result *res,
                     const iosage_module_data *md)
{
    if (diag)
        fprintf(diag, "Error: failed to parse %s module record.\n", md->name);
    res->module_errors++;
    if (md->err.has_offset)
        ios_dump_problem(res,
                         "%s module: %s (at byte %llu of its decompressed "
                         "data)",
                         md->name, md->err.msg,
                         (unsigned long long)md->err.offset);
    else
        ios_dump_problem(res, "%s module: %s", md->name, md->err.msg);
}

/* Note in res what makes module md doubtful although it was read: bytes
 * after the last whole record, or records whose rank is outside the job. */
void ios_dump_check_module(const iosage_module_data *md, int64_t nprocs,
                           struct iosage_dump_result *res)
{
    size_t bad_rank = 0;
    int64_t example = 0;
    for (size_t i = 0; nprocs > 0 && i < md->n_records; i++) {
        int64_t rank = md->records[i].rank;
        if (rank < -1 || rank >= nprocs) {
            if (!bad_rank)
                example = rank;
            bad_rank++;
        }
    }
    if (!md->trailing_bytes && !bad_rank)
        return;
    res->doubtful_modules++;
    if (res->first_doubt[0])
        return;
    if (md->trailing_bytes)
        snprintf(res->first_doubt, sizeof res->first_doubt,
                 "%s module: %llu bytes after the last whole record (a "
                 "modified or pre-release Darshan runtime?); values may be "
                 "wrong",
                 md->name, (unsigned long long)md->trailing_bytes);
    else
        snprintf(res->first_doubt, sizeof res->first_doubt,
                 "%s module: %zu records name a rank outside the job (e.g. "
                 "%lld, nprocs %lld); their values may be wrong",
                 md->name, bad_rank, (long long)example, (long long)nprocs);
}
