/*
 * job.c - the job region (format spec 6): a fixed job record, then one text
 * string "<exe>\n<type>\t<mount>\n<type>\t<mount>...", NUL-terminated or not.
 *
 *   formats 3.00-3.21: 1064-byte record (uid, start, end, nprocs, jobid,
 *                      char metadata[1024])
 *   format  3.41:      1080-byte record (start and end gain nanoseconds)
 *
 * Parsing follows the reference reader exactly: the decompressed data must be
 * longer than 1080 bytes whatever the version; the executable is the text
 * before the first newline ("" if there is none); every newline starts a
 * mount entry of two whitespace-delimited tokens (read like sscanf's "%s %s",
 * so a token may start after further whitespace); entries are sorted by
 * mount-point length, longest first, stably.
 */
#include <string.h>

#include "internal.h"

#define JOB_OLD 1064u
#define JOB_NEW 1080u
#define META_SIZE 1024u
#define TEXT_ROOM (IOS_JOB_DATA_MAX - JOB_NEW - 1) /* text bytes before NUL */

/* isspace() of the C locale: ' ' and '\t' '\n' '\v' '\f' '\r' (9 to 13),
 * as a table (the mount table is scanned a byte at a time at every start) */
static const unsigned char blank_byte[256] = {
    ['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1, [' '] = 1};

static int is_blank(char c)
{
    return blank_byte[(unsigned char)c];
}

/* --- decoding ------------------------------------------------------------ */

/* Fixed fields of either record layout into job; returns the record size. */
static size_t decode_record(const uint8_t *d, int v341, int swap,
                            struct iosage_job *job)
{
    job->uid = ios_load_i64(d, swap);
    if (v341) {
        job->start_time_sec = ios_load_i64(d + 8, swap);
        job->start_time_nsec = ios_load_i64(d + 16, swap);
        job->end_time_sec = ios_load_i64(d + 24, swap);
        job->end_time_nsec = ios_load_i64(d + 32, swap);
        job->nprocs = ios_load_i64(d + 40, swap);
        job->jobid = ios_load_i64(d + 48, swap);
    } else {
        job->start_time_sec = ios_load_i64(d + 8, swap);
        job->end_time_sec = ios_load_i64(d + 16, swap);
        job->nprocs = ios_load_i64(d + 24, swap);
        job->jobid = ios_load_i64(d + 32, swap);
    }
    size_t rec = v341 ? JOB_NEW : JOB_OLD;
    const char *meta = (const char *)d + rec - META_SIZE;
    size_t n = strnlen(meta, META_SIZE);
    memcpy(job->metadata, meta, n);
    job->metadata[n] = '\0';
    return rec;
}

/* The end of the token that starts at or after *pos in text[0..n) (leading
 * blanks skipped): *pos gets its start. Equal to *pos when there is none. */
static size_t token_end(const char *text, size_t n, size_t *pos)
{
    size_t i = *pos;
    while (i < n && is_blank(text[i]))
        i++;
    *pos = i;
    while (i < n && !is_blank(text[i]))
        i++;
    return i;
}

/* Stable sort of the mount table, longest mount point first; len[i] is the
 * length of m[i].point and moves with it. An insertion sort (a job has a
 * few dozen mounts) that finds each place by bisection and moves the
 * entries after it in one block: the mounts come in no particular order,
 * and moving them one by one cost a few thousand instructions a start. */
static void sort_mounts(struct iosage_mount *m, size_t *len, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        struct iosage_mount cur = m[i];
        size_t cur_len = len[i];
        size_t lo = 0, hi = i; /* the first of m[0..i) shorter than cur */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (len[mid] >= cur_len)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == i)
            continue;
        memmove(m + lo + 1, m + lo, (i - lo) * sizeof *m);
        memmove(len + lo + 1, len + lo, (i - lo) * sizeof *len);
        m[lo] = cur;
        len[lo] = cur_len;
    }
}

/*
 * Executable and mount table from text[0..n) (n stops at the first NUL).
 * base is the text's offset in the job data, for messages.
 *
 * The text is copied into the arena once and every string of the job points
 * into the copy, ended by a NUL written over the blank that ends it (a
 * start's job region holds dozens of mounts: one copy, not two small
 * allocations and copies an entry). The tokens are found in the original
 * text, so a NUL written in the copy never changes what a later entry
 * reads; an entry whose tokens run past its line shares them with the next
 * entry, which finds the same maximal run of non-blanks.
 */
static iosage_status decode_text(const char *text, size_t n, size_t base,
                                 struct iosage_job *job, ios_arena *arena,
                                 const char *path, iosage_error *err)
{
    const char *end = text + n;
    const char *nl = memchr(text, '\n', n);
    size_t count = 0;
    for (const char *p = nl; p; p = memchr(p + 1, '\n', (size_t)(end - p - 1)))
        count++;
    size_t slots = count ? count : 1;
    char *copy = ios_arena_alloc(arena, n + 1);
    job->mounts = ios_arena_alloc(arena, slots * sizeof *job->mounts);
    size_t *point_len = ios_arena_alloc(arena, slots * sizeof *point_len);
    if (!copy || !job->mounts || !point_len)
        return ios_fail(err, IOSAGE_E_NOMEM, path, "job region", -1,
                        "out of memory reading the mount table");
    memcpy(copy, text, n);
    copy[n] = '\0';
    job->exe = copy;
    if (nl)
        copy[nl - text] = '\0';
    else
        copy[0] = '\0';

    /* every newline starts an entry; its tokens may run past the next
     * newline, as with sscanf */
    size_t k = 0;
    for (const char *p = nl; p && k < count;
         p = memchr(p + 1, '\n', (size_t)(end - p - 1))) {
        size_t i = (size_t)(p - text);
        size_t type_at = i + 1;
        size_t type_end = token_end(text, n, &type_at);
        size_t point_at = type_end;
        size_t point_end = token_end(text, n, &point_at);
        if (type_end == type_at || point_end == point_at)
            return ios_fail(err, IOSAGE_E_CORRUPT, path, "job region", -1,
                            "mount entry %zu (line at byte %zu of the job "
                            "data) does not hold a file system type and a "
                            "mount point",
                            k + 1, base + i + 1);
        copy[type_end] = '\0';
        copy[point_end] = '\0';
        job->mounts[k].fs_type = copy + type_at;
        job->mounts[k].point = copy + point_at;
        point_len[k] = point_end - point_at;
        k++;
    }
    job->n_mounts = k;
    sort_mounts(job->mounts, point_len, k);
    return IOSAGE_OK;
}

/* See internal.h. data is the whole decompressed job region. */
iosage_status ios_job_decode(const uint8_t *data, size_t len,
                             const struct iosage_header *h,
                             struct iosage_job *job, ios_arena *arena,
                             const char *path, iosage_error *err)
{
    memset(job, 0, sizeof *job);
    if (len <= JOB_NEW)
        return ios_fail(err, IOSAGE_E_CORRUPT, path, "job region", -1,
                        "job data is %zu bytes after decompression; more than "
                        "%u expected", len, JOB_NEW);
    int v341 = h->ver_minor == 41;
    int swap = h->big_endian;
    size_t rec = decode_record(data, v341, swap, job);
    const char *text = (const char *)data + rec;
    size_t n = strnlen(text, len - rec);
    return decode_text(text, n, rec, job, arena, path, err);
}

/* --- copying and encoding ------------------------------------------------ */

/* 1 when s is a usable mount token: non-empty, no blanks. */
static int token_ok(const char *s)
{
    if (!s || !*s)
        return 0;
    for (; *s; s++)
        if (is_blank(*s))
            return 0;
    return 1;
}

/* See internal.h. */
iosage_status ios_job_copy(struct iosage_job *dst, const struct iosage_job *src,
                           ios_arena *arena, iosage_error *err)
{
    const char *exe = src->exe ? src->exe : "";
    if (strchr(exe, '\n'))
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "job", -1,
                        "the command line contains a newline");
    if (src->n_mounts && !src->mounts)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, "job", -1,
                        "n_mounts is %zu but mounts is NULL", src->n_mounts);
    for (size_t i = 0; i < src->n_mounts; i++)
        if (!token_ok(src->mounts[i].point) ||
            !token_ok(src->mounts[i].fs_type))
            return ios_fail(err, IOSAGE_E_USAGE, NULL, "job", -1,
                            "mount entry %zu: mount point and type must be "
                            "non-empty and without blanks", i + 1);
    struct iosage_job j = *src;
    j.metadata[META_SIZE] = '\0';
    j.exe = ios_arena_strdup(arena, exe);
    j.mounts = ios_arena_alloc(arena, (src->n_mounts ? src->n_mounts : 1) *
                                          sizeof *j.mounts);
    if (!j.exe || !j.mounts)
        goto nomem;
    for (size_t i = 0; i < src->n_mounts; i++) {
        j.mounts[i].point = ios_arena_strdup(arena, src->mounts[i].point);
        j.mounts[i].fs_type = ios_arena_strdup(arena, src->mounts[i].fs_type);
        if (!j.mounts[i].point || !j.mounts[i].fs_type)
            goto nomem;
    }
    *dst = j;
    return IOSAGE_OK;
nomem:
    return ios_fail(err, IOSAGE_E_NOMEM, NULL, "job", -1,
                    "out of memory copying the job");
}

/* The 1024-byte metadata field: NUL-terminated, ending with '\n' when
 * non-empty (spec 15). */
static void encode_metadata(const char *meta, ios_buf *out)
{
    char field[META_SIZE];
    memset(field, 0, sizeof field);
    size_t n = strnlen(meta, META_SIZE - 1);
    memcpy(field, meta, n);
    if (n > 0 && field[n - 1] != '\n') {
        if (n == META_SIZE - 1)
            n--;
        field[n] = '\n';
    }
    ios_buf_append(out, field, sizeof field);
}

/* The executable, at most room bytes; an over-long command line keeps its
 * head and ends in "<TRUNCATED>" as the runtime does. Newlines become
 * blanks. Returns the bytes written. */
static size_t encode_exe(const char *exe, size_t room, ios_buf *out)
{
    static const char mark[] = "<TRUNCATED>";
    size_t n = strlen(exe);
    size_t keep = n <= room ? n : room - (sizeof mark - 1);
    for (size_t i = 0; i < keep; i++) {
        char c = exe[i] == '\n' ? ' ' : exe[i];
        ios_buf_append(out, &c, 1);
    }
    if (keep < n) {
        ios_buf_append(out, mark, sizeof mark - 1);
        return room;
    }
    return n;
}

/* See internal.h. Mount lines go out in the job's order (readers re-sort
 * stably, so a sorted table reads back the same); entries that do not fit
 * in the 4096-byte job data are left out, as the runtime does. A command
 * line with no mount entry after it reads back as "" (format limit). */
iosage_status ios_job_encode(const struct iosage_job *job, ios_buf *out,
                             iosage_error *err)
{
    ios_buf_i64(out, job->uid);
    ios_buf_i64(out, job->start_time_sec);
    ios_buf_i64(out, job->start_time_nsec);
    ios_buf_i64(out, job->end_time_sec);
    ios_buf_i64(out, job->end_time_nsec);
    ios_buf_i64(out, job->nprocs);
    ios_buf_i64(out, job->jobid);
    encode_metadata(job->metadata, out);

    /* Keep room for the first mount line: without any newline a reader
     * would see an empty command line (spec 6.3). */
    size_t first = job->n_mounts ? 2 + strlen(job->mounts[0].fs_type) +
                                       strlen(job->mounts[0].point)
                                 : 0;
    size_t room = first < TEXT_ROOM / 2 ? TEXT_ROOM - first : TEXT_ROOM;
    size_t used = encode_exe(job->exe ? job->exe : "", room, out);
    for (size_t i = 0; i < job->n_mounts; i++) {
        const struct iosage_mount *m = &job->mounts[i];
        size_t need = 2 + strlen(m->fs_type) + strlen(m->point);
        if (need > TEXT_ROOM - used)
            break;
        ios_buf_append(out, "\n", 1);
        ios_buf_append(out, m->fs_type, strlen(m->fs_type));
        ios_buf_append(out, "\t", 1);
        ios_buf_append(out, m->point, strlen(m->point));
        used += need;
    }
    ios_buf_zeros(out, 1);
    if (out->oom)
        return ios_fail(err, IOSAGE_E_NOMEM, NULL, "job region", -1,
                        "out of memory encoding the job data");
    return IOSAGE_OK;
}
