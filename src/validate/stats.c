/*
 * src/validate/stats.c - the speedup of paired runs and its interval.
 *
 * n pairs give n ratios r_i = baseline_i / changed_i. The speedup is their
 * median. The interval is a pair of order statistics (r_(k), r_(n+1-k)):
 * whatever the distribution of the ratios (continuous), the true median m
 * lies below r_(k) only if at most k-1 ratios are below m, which has
 * probability P(Bin(n, 1/2) <= k-1); the same on the other side, so
 *
 *     coverage(n, k) = 1 - 2 P(Bin(n, 1/2) <= k-1).
 *
 * k is the largest value whose coverage is at least 0.90: for n = 11 that
 * is k = 3 (ratios 3 and 9, coverage 93.5%), as in the IOSage paper. For
 * n <= 4 no k reaches 0.90; the interval is then min..max (k = 1) and its
 * coverage is reported as it is (n = 3: 75%).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ios_common.h"
#include "iosage/validate.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* x sorted into out (n <= IOSAGE_VALIDATE_MAX_RUNS). */
static void sorted_copy(const double *x, size_t n, double *out)
{
    memcpy(out, x, n * sizeof *x);
    qsort(out, n, sizeof *out, cmp_double);
}

double iosage_validate_median(const double *x, size_t n)
{
    if (n == 0 || n > IOSAGE_VALIDATE_MAX_RUNS || !x)
        return NAN;
    double s[IOSAGE_VALIDATE_MAX_RUNS];
    sorted_copy(x, n, s);
    if (n % 2)
        return s[n / 2];
    return (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

/* P(Bin(n, 1/2) <= j), summed term by term from P(0) = 2^-n, each term
 * C(n, i) 2^-n = previous * (n - i + 1) / i. Exact enough for n <= 1000
 * (2^-1000 is a normal double). */
static double binom_half_cdf(size_t n, size_t j)
{
    double term = 1.0; /* 2^-n, halved n times: exact, and no libm */
    for (size_t i = 0; i < n; i++)
        term *= 0.5;
    double sum = term;
    for (size_t i = 1; i <= j && i <= n; i++) {
        term *= (double)(n - i + 1) / (double)i;
        sum += term;
    }
    return sum > 1.0 ? 1.0 : sum;
}

double iosage_validate_coverage(size_t n, size_t k)
{
    if (k == 0 || n > IOSAGE_VALIDATE_MAX_RUNS || k > n + 1 - k)
        return 0.0;
    double c = 1.0 - 2.0 * binom_half_cdf(n, k - 1);
    return c < 0.0 ? 0.0 : c;
}

size_t iosage_validate_interval_rank(size_t n, double level)
{
    size_t best = 0;
    /* coverage falls as k grows, so stop at the first k below the level */
    for (size_t k = 1; k <= n + 1 - k; k++) {
        if (iosage_validate_coverage(n, k) < level)
            break;
        best = k;
    }
    return best;
}

iosage_status iosage_validate_stats_of(const double *ratios, size_t n,
                                       struct iosage_validate_stats *out,
                                       iosage_error *err)
{
    memset(out, 0, sizeof *out);
    if (!ratios || n == 0 || n > IOSAGE_VALIDATE_MAX_RUNS)
        return ios_fail(err, IOSAGE_E_USAGE, NULL, NULL, -1,
                        "need 1 to %d ratios, got %zu",
                        IOSAGE_VALIDATE_MAX_RUNS, n);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(ratios[i]) || ratios[i] <= 0.0)
            return ios_fail(err, IOSAGE_E_USAGE, NULL, NULL, -1,
                            "ratio %zu is not a positive number (%g)", i + 1,
                            ratios[i]);
    double s[IOSAGE_VALIDATE_MAX_RUNS];
    sorted_copy(ratios, n, s);
    size_t k = iosage_validate_interval_rank(n, IOSAGE_VALIDATE_LEVEL);
    out->n = n;
    out->median = iosage_validate_median(s, n);
    out->reached = k > 0;
    if (k == 0)
        k = 1; /* min..max */
    out->k_lo = k;
    out->k_hi = n + 1 - k;
    out->lo = s[out->k_lo - 1];
    out->hi = s[out->k_hi - 1];
    out->coverage = iosage_validate_coverage(n, k);
    out->significant = out->lo > 1.0;
    return IOSAGE_OK;
}
