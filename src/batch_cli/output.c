/*
 * src/batch_cli/output.c - where the rows of a batch go (stdout, or -o OUT
 * written atomically), the --summary and --profile text, and the progress
 * bar.
 *
 * -o OUT: rows go to OUT.tmp.XXXXXX in OUT's directory, renamed to OUT only
 * when the whole batch succeeded; on any failure the temporary file is
 * removed, so OUT is either the complete output or untouched.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "frontend.h"

double ios_batch_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Open a temporary file beside w->final into w->f and w->tmp. */
static int open_temp(struct ios_batch_out *w)
{
    size_t len = strlen(w->final) + sizeof ".tmp.XXXXXX";
    w->tmp = malloc(len);
    if (!w->tmp) {
        fprintf(stderr, "iosage: %s: out of memory\n", w->final);
        return -1;
    }
    snprintf(w->tmp, len, "%s.tmp.XXXXXX", w->final);
    int fd = mkstemp(w->tmp);
    if (fd < 0) {
        fprintf(stderr, "iosage: %s: cannot create: %s\n", w->final,
                strerror(errno));
        free(w->tmp);
        w->tmp = NULL;
        return -1;
    }
    mode_t mask = umask(0); /* mkstemp gives 0600: use the umask instead */
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || !(w->f = fdopen(fd, "w"))) {
        fprintf(stderr, "iosage: %s: cannot create: %s\n", w->final,
                strerror(errno));
        close(fd);
        unlink(w->tmp);
        free(w->tmp);
        w->tmp = NULL;
        return -1;
    }
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
        if (open_temp(w) != 0) {
            iosage_batch_summary_free(w->summary);
            w->summary = NULL;
            return -1;
        }
    } else if (!o->summary && !o->db) {
        w->f = stdout;
    }
    if (o->db && ios_batch_archive_open(w, o) != 0) {
        ios_batch_out_close(w, 0);
        return -1;
    }
    if (w->f && iosage_batch_write_header(w->f, w->format) != 0) {
        fprintf(stderr, "iosage: %s: write failed\n",
                w->final ? w->final : "stdout");
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
    if (w->f && iosage_batch_write_row(w->f, w->format, row) != 0) {
        fprintf(stderr, "iosage: %s: write failed: %s\n",
                w->final ? w->final : "stdout", strerror(errno));
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

/* Flush and close the temporary file and move it to w->final. */
static int commit(struct ios_batch_out *w)
{
    int bad = fflush(w->f) != 0 || ferror(w->f) || fsync(fileno(w->f)) != 0;
    int e = errno;
    bad |= fclose(w->f) != 0;
    w->f = NULL;
    if (!bad && rename(w->tmp, w->final) == 0)
        return 0;
    if (!bad)
        e = errno;
    fprintf(stderr, "iosage: %s: cannot write: %s\n", w->final, strerror(e));
    unlink(w->tmp);
    return -1;
}

int ios_batch_out_close(struct ios_batch_out *w, int ok)
{
    int rc = 0;
    if (w->archive && ios_batch_archive_close(w) != 0)
        rc = -1;
    if (w->tmp) {
        if (ok) {
            rc = commit(w);
        } else {
            fclose(w->f);
            unlink(w->tmp);
        }
        free(w->tmp);
        w->tmp = NULL;
    } else if (w->f && fflush(w->f) != 0) {
        fprintf(stderr, "iosage: stdout: write failed: %s\n", strerror(errno));
        rc = -1;
    }
    w->f = NULL;
    if (ok && rc == 0 && w->summary) {
        iosage_batch_summary_print(w->summary, stdout);
        if (fflush(stdout) != 0) {
            fprintf(stderr, "iosage: stdout: write failed: %s\n",
                    strerror(errno));
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
