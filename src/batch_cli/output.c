/*
 * src/batch_cli/output.c - where the rows of a batch go (stdout, or -o OUT
 * written atomically), the --summary and --profile text, and the progress
 * bar.
 *
 * -o OUT: rows go to OUT.tmp.XXXXXX in OUT's directory, renamed to OUT only
 * when the whole batch succeeded; on any failure the temporary file is
 * removed, so OUT is either the complete output or untouched
 * (src/common/outfile.c). A failed write to stdout is left to the check
 * at exit, which prints its one line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "frontend.h"
#include "ios_outfile.h"
#include "ios_outpath.h"

double ios_batch_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The one line of a failed write to the output: -o OUT names it; a failed
 * write to stdout is only recorded, for the check at exit. */
static void write_failed(const struct ios_batch_out *w, int e)
{
    if (w->final)
        fprintf(stderr, "iosage: %s: cannot write: %s\n", w->final,
                strerror(e ? e : EIO));
    else
        ios_stdout_failed(e);
}

/* The one line of an output (opt: "-o" or "--db") that is the input in;
 * returns -1. */
static int say_clash(const char *prog, const char *opt, const char *out,
                     const char *in)
{
    fprintf(stderr, "%s: batch: %s %s is the input %s: refusing to write "
            "over it\n", prog, opt, out, in);
    return -1;
}

/* One output (opt: "-o" or "--db") against inputs[0..n): one line and -1
 * when it is one of them. */
static int refuse(const char *prog, const char *opt, const char *out,
                  const char *const *inputs, size_t n)
{
    long i = out ? ios_output_clash(out, 0, inputs, n) : -1;
    return i < 0 ? 0 : say_clash(prog, opt, out, inputs[i]);
}

/* One output (opt: "-o" or "--db", NULL when not given) against the
 * listed logs, as refuse() would judge each, but with out stat'ed once
 * and each log identified by the device and inode its listing found: a
 * batch of 10^5 logs is not 2 * 10^5 stat calls longer. A log the listing
 * could not stat is judged by ios_same_file (its path). */
static int refuse_listed(const char *prog, const char *opt, const char *out,
                         const iosage_batch_list *list)
{
    if (!out)
        return 0;
    struct stat so;
    int out_exists = stat(out, &so) == 0;
    for (size_t i = 0; i < list->n; i++) {
        const struct iosage_batch_item *it = &list->items[i];
        int same;
        if (it->identified) /* it existed: out is it only when out exists */
            same = out_exists && (uint64_t)so.st_dev == it->dev &&
                   (uint64_t)so.st_ino == it->ino;
        else
            same = ios_same_file(out, it->path);
        if (same)
            return say_clash(prog, opt, out, it->path);
    }
    return 0;
}

int ios_batch_refuse_clash(const char *prog, const struct ios_batch_opts *o,
                           const iosage_batch_list *list)
{
    if (!o->out && !o->db)
        return 0;
    const char *const *paths = (const char *const *)o->paths;
    size_t n = (size_t)o->n_paths;
    if (!list) {
        /* -o and --db: not the same file, and neither a PATH operand (a
         * log, or a list file) */
        const char *db[1] = {o->db};
        if (refuse(prog, "-o", o->out, db, 1) != 0 ||
            refuse(prog, "-o", o->out, paths, n) != 0 ||
            refuse(prog, "--db", o->db, paths, n) != 0)
            return -1;
        return 0;
    }
    if (refuse_listed(prog, "-o", o->out, list) != 0 ||
        refuse_listed(prog, "--db", o->db, list) != 0)
        return -1;
    return 0;
}

int ios_batch_out_open(struct ios_batch_out *w, const struct ios_batch_opts *o)
{
    memset(w, 0, sizeof *w);
    w->format = o->format;
    w->final = o->out;
    if (o->summary && !(w->summary = iosage_batch_summary_new())) {
        fputs("iosage: batch: out of memory\n", stderr);
        return -1;
    }
    if (o->out) {
        int e = ios_outfile_open(&w->file, o->out);
        if (e != 0) {
            write_failed(w, e);
            iosage_batch_summary_free(w->summary);
            w->summary = NULL;
            return -1;
        }
        w->f = w->file.f;
    } else if (!o->summary && !o->db) {
        w->f = stdout;
    }
    if (o->db && ios_batch_archive_open(w, o) != 0) {
        ios_batch_out_close(w, 0);
        return -1;
    }
    errno = 0;
    if (w->f && iosage_batch_write_header(w->f, w->format) != 0) {
        write_failed(w, errno);
        ios_batch_out_close(w, 0);
        return -1;
    }
    return 0;
}

int ios_batch_out_row(struct ios_batch_out *w,
                      const struct iosage_batch_row *row)
{
    w->rows++;
    w->errors += row->status == IOSAGE_BATCH_ERROR;
    errno = 0;
    int bad = 0;
    if (w->f && row->text) /* rendered in w->format by a worker */
        bad = fwrite(row->text, 1, row->text_len, w->f) != row->text_len;
    else if (w->f)
        bad = iosage_batch_write_row(w->f, w->format, row) != 0;
    if (bad) {
        write_failed(w, errno);
        return -1;
    }
    if (w->summary && iosage_batch_summary_add(w->summary, row) != 0) {
        fputs("iosage: batch: out of memory for the summary\n", stderr);
        return -1;
    }
    if (w->archive && ios_batch_archive_row(w, row) != 0)
        return -1;
    return 0;
}

int ios_batch_out_close(struct ios_batch_out *w, int ok)
{
    int rc = 0;
    if (w->archive && ios_batch_archive_close(w) != 0)
        rc = -1;
    if (w->file.f) {
        int e = 0;
        if (ok)
            e = ios_outfile_commit(&w->file);
        else
            ios_outfile_abort(&w->file);
        if (e != 0) {
            write_failed(w, e);
            rc = -1;
        }
    } else if (w->f && fflush(w->f) != 0) {
        write_failed(w, errno);
        rc = -1;
    }
    w->f = NULL;
    if (ok && rc == 0 && w->summary) {
        iosage_batch_summary_print(w->summary, stdout);
        if (fflush(stdout) != 0) {
            ios_stdout_failed(errno);
            rc = -1;
        }
    }
    iosage_batch_summary_free(w->summary);
    w->summary = NULL;
    return rc;
}

void ios_batch_print_profile(const struct iosage_batch_times *t, double wall,
                             size_t n_logs, int n_workers)
{
    double busy = t->read + t->decode + t->features + t->predict;
    double per = t->logs ? 1e3 / (double)t->logs : 0;
    fprintf(stderr, "profile: %zu logs in %.3f s wall with %d worker%s: "
            "%.0f logs/s\n", n_logs, wall, n_workers, n_workers == 1 ? "" : "s",
            wall > 0 ? (double)n_logs / wall : 0);
    fprintf(stderr, "profile: per log (ms, summed over workers): read %.3f, "
            "decode (decompress + records) %.3f, features %.3f, predict %.3f\n",
            t->read * per, t->decode * per, t->features * per,
            t->predict * per);
    if (busy > 0)
        fprintf(stderr, "profile: shares: read %.0f%%, decode %.0f%%, "
                "features %.0f%%, predict %.0f%%\n", 100 * t->read / busy,
                100 * t->decode / busy, 100 * t->features / busy,
                100 * t->predict / busy);
}

void ios_batch_progress_draw(void *ctx, size_t done, size_t errors,
                             size_t total)
{
    struct ios_batch_progress *p = ctx;
    double t = ios_batch_now() - p->start;
    double rate = t > 0 ? (double)done / t : 0;
    long eta = rate > 0 ? (long)((double)(total - done) / rate + 0.5) : 0;
    char bar[21];
    size_t fill = total ? done * 20 / total : 20;
    for (size_t i = 0; i < 20; i++)
        bar[i] = i < fill ? '#' : '-';
    bar[20] = '\0';
    fprintf(stderr, "\r[%s] %zu/%zu logs  %.0f logs/s  %zu error%s  "
            "ETA %ld:%02ld ", bar, done, total, rate, errors,
            errors == 1 ? "" : "s", eta / 60, eta % 60);
    p->shown = 1;
}

void ios_batch_progress_end(struct ios_batch_progress *p)
{
    if (p->shown)
        fputs("\r\033[K", stderr);
    p->shown = 0;
}
