/*
 * src/model/threshold.c - the decision threshold of one model: the one that
 * maximizes F1 on the validation split, ties to the higher threshold.
 *
 * With the distinct validation scores v_1 < ... < v_m, "score >= t" gives
 * the same predictions for every t in (v_{j-1}, v_j] (v_0 = 0): candidate j
 * predicts the rows scoring v_j or more. F1 = 2 tp / (2 tp + fp + fn) is
 * compared as exact integer fractions, so equal F1 values tie exactly, and a
 * tie goes to the larger j (fewer positives, the higher threshold). The
 * threshold returned is a short decimal near the middle of the winning
 * interval: the validation predictions do not depend on where in the
 * interval it lies, and the middle leaves unseen scores the most room.
 */
#include <math.h>
#include <stdlib.h>

#include "internal.h"
#include "ios_math.h"

struct scored {
    float score;
    uint8_t truth;
};

static int by_score(const void *a, const void *b)
{
    float x = ((const struct scored *)a)->score;
    float y = ((const struct scored *)b)->score;
    return x < y ? -1 : x > y ? 1 : 0;
}

/* 1 when tp1/fp1/fn1 has a strictly higher F1 than the other, comparing
 * 2tp/(2tp+fp+fn) as fractions (both denominators are positive here). */
static int f1_better(int64_t tp1, int64_t fp1, int64_t fn1, int64_t tp2,
                     int64_t fp2, int64_t fn2)
{
    int64_t d1 = 2 * tp1 + fp1 + fn1, d2 = 2 * tp2 + fp2 + fn2;
    return tp1 * d2 > tp2 * d1;
}

/* A short decimal t with lo < t <= hi, within a quarter of the interval
 * of its middle (the middle itself when no short decimal is). */
static double short_decimal(double lo, double hi)
{
    double mid = lo + (hi - lo) / 2;
    double scale = 1;
    for (int d = 1; d <= 15; d++) {
        scale *= 10;
        double t = ios_libm()->round(mid * scale) / scale;
        if (t > lo && t <= hi && fabs(t - mid) <= (hi - lo) / 4)
            return t;
    }
    return mid;
}

double ios_threshold_pick(const float *scores, const uint8_t *truth, size_t n,
                          double *f1, int *source)
{
    int64_t pos = 0;
    for (size_t i = 0; i < n; i++)
        pos += truth[i] != 0;
    *source = IOS_THR_DEFAULT;
    *f1 = NAN;
    struct scored *s = pos ? malloc(n * sizeof *s) : NULL;
    if (!s)
        return 0.5;
    for (size_t i = 0; i < n; i++) {
        s[i].score = scores[i];
        s[i].truth = truth[i] != 0;
    }
    qsort(s, n, sizeof *s, by_score);
    /* walk the candidates from "all positive" upwards: at s[i], the rows
     * i.. are predicted positive */
    int64_t tp = pos, fp = (int64_t)n - pos, fn = 0;
    int64_t btp = -1, bfp = 0, bfn = 0;
    double lo_best = 0, hi_best = 0, prev = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        double v = s[i].score;
        if (btp < 0 || !f1_better(btp, bfp, bfn, tp, fp, fn)) {
            btp = tp, bfp = fp, bfn = fn; /* ties: the later, higher one */
            lo_best = prev, hi_best = v;
        }
        for (; j < n && s[j].score == s[i].score; j++) {
            if (s[j].truth)
                tp--, fn++;
            else
                fp--;
        }
        prev = v;
        i = j;
    }
    free(s);
    *source = IOS_THR_VALIDATION;
    *f1 = 2.0 * (double)btp / (double)(2 * btp + bfp + bfn);
    if (hi_best <= lo_best) /* a zero score can only be met by t = 0 */
        return hi_best;
    return short_decimal(lo_best, hi_best);
}

double iosage_threshold_best_f1(const float *scores, const uint8_t *truth,
                                size_t n, double *f1)
{
    double f;
    int source;
    double t = ios_threshold_pick(scores, truth, n, &f, &source);
    if (f1)
        *f1 = f;
    return t;
}
