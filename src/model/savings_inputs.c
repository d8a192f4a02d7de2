/*
 * savings_inputs.c - what a savings regression reads: the classifiers'
 * model features, then three inputs derived from them that say how fast
 * the file system served this job.
 *
 * A change's saving depends on the system as much as on the job: the same
 * configuration saves 98% on one drawn system and 35% on another
 * (docs/evaluation.md, "What the configuration can tell"). A Darshan log
 * does not name the system's parameters, but its times show what a request
 * cost there. The features hold that only as a quotient the trees cannot
 * form (bytes per rank, data operations per rank and bandwidth, each on a
 * log scale), so it is formed here:
 *
 *   data_op_us_log           log10(microseconds of I/O time per data
 *                            operation): T / data ops
 *   meta_op_us_log           log10(microseconds of metadata time per
 *                            metadata operation)
 *   io_seconds_per_rank_log  log10(T / n, seconds)
 *
 * with T the job's I/O time and n its ranks, recovered from the features
 * (lg(x) = log10(1 + x), so x = 10^lg - 1): T / n = (MiB per rank) /
 * (MiB/s of I/O time). An input that cannot be formed (no bytes, no
 * operations, no I/O time) is missing (NaN), which XGBoost routes on its
 * own. On the 5 folds of data/hpc-runs and four XGBoost seeds they raised
 * the mean Spearman of balance_io by 0.047 and of collective_io,
 * sequential_access, larger_requests and shared_file by 0.010-0.024; the
 * other three moved by less than 0.01 (docs/evaluation.md, session 25).
 */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "internal.h"
#include "ios_math.h"
#include "iosage/features.h"

const char *const ios_savings_derived[IOS_SAVINGS_DERIVED] = {
    "data_op_us_log", "meta_op_us_log", "io_seconds_per_rank_log"};

/* The features the inputs are formed from, looked up once by name. */
static struct {
    int bytes_per_rank, ops_per_rank, bandwidth, meta_ops_per_rank,
        meta_time_share;
} at;
static pthread_once_t at_once = PTHREAD_ONCE_INIT;

static void resolve(void)
{
    at.bytes_per_rank = iosage_feature_index("job_bytes_per_rank_log");
    at.ops_per_rank = iosage_feature_index("job_data_ops_per_rank_log");
    at.bandwidth = iosage_feature_index("job_bandwidth_log");
    at.meta_ops_per_rank = iosage_feature_index("meta_ops_per_rank_log");
    at.meta_time_share = iosage_feature_index("job_meta_time_share");
}

/* x where the feature holds lg(x); NaN when the schema lacks it. */
static double unlg(const float *x, int i)
{
    return i < 0 ? NAN : ios_libm()->pow(10.0, x[i]) - 1;
}

static float log10_or_nan(double v)
{
    return v > 0 && isfinite(v) ? (float)ios_libm()->log10(v) : NAN;
}

void ios_savings_inputs(const float *x, size_t n_inputs, float *out)
{
    memcpy(out, x, IOSAGE_NUM_MODEL_FEATURES * sizeof *out);
    if (n_inputs <= IOSAGE_NUM_MODEL_FEATURES)
        return;
    pthread_once(&at_once, resolve);
    double mib = unlg(x, at.bytes_per_rank);    /* MiB per rank */
    double ops = unlg(x, at.ops_per_rank);      /* data ops per rank */
    double rate = unlg(x, at.bandwidth);        /* MiB/s of I/O time */
    double meta = unlg(x, at.meta_ops_per_rank);
    double meta_share = at.meta_time_share < 0 ? NAN : x[at.meta_time_share];
    double t_rank = mib > 0 && rate > 0 ? mib / rate : NAN; /* T / n, s */
    float *d = out + IOSAGE_NUM_MODEL_FEATURES;
    d[0] = ops > 0 ? log10_or_nan(1e6 * t_rank / ops) : NAN;
    d[1] = meta > 0 ? log10_or_nan(1e6 * meta_share * t_rank / meta) : NAN;
    d[2] = log10_or_nan(t_rank);
}
