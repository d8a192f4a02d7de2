/*
 * src/patterns/p_interface_choice.c - shared-file I/O without collective
 * MPI-IO.
 *
 * Criterion (LABELING.md; the rule below is src/label/criteria.c): shared data files (data moved by at least two ranks)
 * of which at least 90% of the data operations are POSIX or independent
 * MPI-IO, with small requests (average under 1 MiB) or requests that are not
 * contiguous per rank, carry together at least 10% of the job's I/O time.
 * Large disjoint contiguous blocks per rank do not count.
 */
#include <stdio.h>

#include "ios_patterns.h"

static const char *const key_features[] = {
    "file_indep_shared_time_share", "mpiio_coll_op_share", "mpiio_op_share",
    "file_shared_time_share", "job_small_op_share", "posix_consec_write_share",
    "mpiio_coll_write_share", NULL};

/* The criterion of LABELING.md, as the labeler (src/label) applies it,
 * without the healthy gate: one implementation of the criteria. */
static void rule(const iosage_log *log, const iosage_file_table *t,
                 struct iosage_rule_verdict *v)
{
    (void)t;
    ios_label_rule(log, IOSAGE_LABEL_INTERFACE_CHOICE, v);
}

static void one_line(const iosage_file_table *t, const struct iosage_file_row *r,
                     struct iosage_evidence *ev)
{
    double ops = (double)r->reads + (double)r->writes;
    double bytes = (double)r->bytes_read + (double)r->bytes_written;
    const struct iosage_file_row *px =
        r->module == IOSAGE_MOD_MPIIO ? (r->peer >= 0 ? &t->rows[r->peer] : NULL) : r;
    char lab[200], how[64], c[32], avg[32], p[16];
    if (r->module == IOSAGE_MOD_MPIIO)
        snprintf(how, sizeof how, "MPI-IO %.0f%% independent",
                 100.0 * ios_share((double)r->indep_ops, ops));
    else
        snprintf(how, sizeof how, "%s only", iosage_module_name(r->module));
    ios_ev_add(ev, "%s: %s, %s ops, average %s%s, %s of I/O time",
               ios_file_label(lab, sizeof lab, r), how,
               ios_fmt_count(c, sizeof c, ops),
               ios_fmt_bytes(avg, sizeof avg, ios_ratio(bytes, ops)),
               px && ios_row_noncontig(px) ? ", not contiguous per rank" : "",
               ios_fmt_pct(p, sizeof p,
                           ios_material_share(t, r->file_time, ios_d2i(ops))));
}

static void evidence(const iosage_log *log, const iosage_file_table *t,
                     struct iosage_evidence *ev)
{
    (void)log;
    struct ios_scan s;
    ios_scan_indep_shared(t, &s);
    for (int k = 0; k < 3 && s.top[k] >= 0; k++)
        one_line(t, &t->rows[s.top[k]], ev);
}

const struct iosage_pattern ios_pattern_interface_choice = {
    .id = "interface_choice",
    .name = "Shared file without collective I/O",
    .behaviour = "Ranks access a shared file through POSIX or independent "
                 "MPI-IO calls with small or scattered requests, so the file "
                 "system sees many small, interleaved requests.",
    .change = "Use collective MPI-IO calls (MPI_File_write_all, "
              "MPI_File_read_all) and collective buffering hints, so a few "
              "aggregators issue large contiguous requests.",
    .not_applicable = "The ranks already write large disjoint contiguous "
                      "blocks, where independent I/O performs as well (and "
                      "funnelling them through a few aggregators is slower).",
    .key_features = key_features,
    .evidence = evidence,
    .rule = rule,
};
