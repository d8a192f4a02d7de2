/*
 * heatmap.c - the HEATMAP module (format spec 9.11): per process and per
 * interface (POSIX, MPI-IO, STDIO), the bytes read and written in each time
 * bin since the job started.
 *
 * As the Darshan runtime does by default: 200 bins of 0.1 s to start with;
 * when a call ends past the last bin the width doubles and pairs of bins
 * merge, so any run fits. A call's bytes are spread over the bins its
 * interval covers, in proportion to the time it spent in each (a call
 * within one bin puts everything there). At the write, every process's
 * heatmaps are brought to the widest width of the job and cut after the
 * bin holding the job's end.
 *
 * Booking happens inside the bookkeeping of book.c, with g_lock held.
 */
#include <math.h>
#include <string.h>

#include "trace.h"

static struct trc_heat heat[TRC_HEAT_LAYERS];

/* Double the width of h: bin i takes bins 2i and 2i+1. */
static void widen(struct trc_heat *h)
{
    for (int i = 0; i < TRC_HEAT_BINS; i++) {
        int64_t w = 0, r = 0;
        if (2 * i < TRC_HEAT_BINS) {
            w = h->w[2 * i] + h->w[2 * i + 1];
            r = h->r[2 * i] + h->r[2 * i + 1];
        }
        h->w[i] = w;
        h->r[i] = r;
    }
    h->width *= 2;
}

/* See trace.h. */
void trc_heat_add(int layer, int op, int64_t bytes, double t0, double t1)
{
    struct trc_heat *h = &heat[layer];
    if (!h->used) {
        h->used = 1;
        h->width = TRC_HEAT_WIDTH;
    }
    double a = t0 - g_origin, b = t1 - g_origin;
    if (a < 0)
        a = 0;
    if (b < a)
        b = a;
    while (b >= h->width * TRC_HEAT_BINS)
        widen(h);
    int64_t *bins = op == TRC_OP_READ ? h->r : h->w;
    int first = (int)(a / h->width), last = (int)(b / h->width);
    if (last >= TRC_HEAT_BINS) /* b is just below the limit: rounding */
        last = TRC_HEAT_BINS - 1;
    if (first > last)
        first = last;
    if (first == last || bytes <= 0) {
        bins[first] += bytes;
        return;
    }
    /* Share by time; the running total keeps the sum exact. */
    int64_t given = 0;
    for (int i = first; i <= last; i++) {
        double until = i == last ? b : (i + 1) * h->width;
        int64_t upto = i == last ? bytes
                                 : (int64_t)llround((double)bytes *
                                                    (until - a) / (b - a));
        bins[i] += upto - given;
        given = upto;
    }
}

/* See trace.h. */
void trc_heat_reset(void)
{
    memset(heat, 0, sizeof heat);
}

/* See trace.h. */
void trc_heat_rebase(void)
{
    for (int l = 0; l < TRC_HEAT_LAYERS; l++) {
        struct trc_heat *h = &heat[l];
        for (int i = 1; i < TRC_HEAT_BINS; i++) {
            h->w[0] += h->w[i];
            h->r[0] += h->r[i];
            h->w[i] = h->r[i] = 0;
        }
    }
}

/* See trace.h. */
const struct trc_heat *trc_heat_of(int layer)
{
    return &heat[layer];
}

/* See trace.h. */
void trc_heat_widen_to(struct trc_heat *h, double width)
{
    while (h->used && h->width < width * 0.999)
        widen(h);
}
