/*
 * src/advise/changes.c - the change ids of docs/report.md, one row per
 * (pattern, change id), with the text offline advice starts from, the
 * expected effect and when not to apply the change.
 */
#include <string.h>

#include "internal.h"

static const struct adv_change changes[] = {
    {"access_granularity", "larger_requests",
     "Make requests of at least 1 MiB: raise the transfer size, or buffer "
     "small writes in memory and write them in large blocks.",
     "Fewer requests for the same bytes: the per-request cost, which sets "
     "the I/O time now, shrinks roughly with the request count.",
     "The small requests carry only a negligible share of the I/O time, or "
     "memory cannot hold a larger buffer."},
    {"access_granularity", "collective_buffering",
     "Use collective MPI-IO (MPI_File_write_all / MPI_File_read_all) so that "
     "aggregator ranks merge the small requests, with collective buffering "
     "on (romio_cb_write=enable, romio_cb_read=enable).",
     "The file system sees a few large requests from the aggregators instead "
     "of many small ones from every rank.",
     "The ranks cannot call the I/O collectively (they write at different "
     "times), or the small requests carry a negligible share of the I/O time."},
    {"metadata_intensity", "fewer_files",
     "Write fewer, larger files: put small outputs into one shared file (or "
     "an HDF5/ADIOS2 container) instead of one file each.",
     "Fewer creates, opens, stats and closes: the metadata time falls with "
     "the number of files.",
     "The files are required outputs in this form, e.g. per-step files read "
     "by other tools."},
    {"metadata_intensity", "batch_metadata",
     "Open each file once and keep it open, stat it once: no open/stat/close "
     "around every read or write.",
     "Metadata operations drop to a few per file, so metadata no longer "
     "dominates the I/O time.",
     "The files must be closed between accesses, e.g. other programs read "
     "them while the job runs."},
    {"parallelism_efficiency", "balance_io",
     "Spread the I/O evenly over the ranks, or aggregate it with collective "
     "I/O, instead of letting one rank (or a few) move most of the data.",
     "The slowest rank's I/O time falls toward the mean rank's, and the other "
     "ranks stop waiting for it.",
     "One rank owns the data by design (configuration, logging output), or "
     "the imbalance costs a negligible share of the run."},
    {"access_pattern", "sequential_access",
     "Sort the offsets and access each file in order (or in large contiguous "
     "blocks) instead of jumping around.",
     "Sequential access lets read-ahead and write-behind work, and larger "
     "contiguous requests replace scattered ones.",
     "The data layout fixes the order (e.g. the reader needs random samples)."},
    {"access_pattern", "data_sieving",
     "Let MPI-IO sieve noncontiguous accesses (romio_ds_read=enable, "
     "romio_ds_write=enable) or use collective reads.",
     "ROMIO reads one large extent and picks the pieces out in memory "
     "instead of issuing many small, scattered requests.",
     "The pieces are sparse in a large extent: sieving would read far more "
     "data than needed."},
    {"interface_choice", "collective_io",
     "Use collective calls (MPI_File_write_all / MPI_File_read_all, or the "
     "I/O library's collective mode) with collective buffering hints "
     "(romio_cb_write=enable, romio_cb_read=enable).",
     "Aggregator ranks write large contiguous pieces of the shared file "
     "instead of every rank sending small independent requests.",
     "The ranks write large disjoint contiguous blocks, where independent I/O "
     "does as well, and the aggregators (one a node by default) would carry "
     "every rank's data through their own links: slower."},
    {"file_strategy", "shared_file",
     "Write one shared file with collective MPI-IO, or use HDF5/ADIOS2 "
     "aggregation, instead of a file per process.",
     "The number of files no longer grows with the number of ranks: fewer "
     "creates and opens, and larger requests.",
     "Downstream tools need one file per process, or the shared file would "
     "sit on fewer storage targets than the separate files (Lustre's default "
     "stripe count is 1): stripe it wide first, or it is slower."},
    {"throughput_utilization", "drop_syncs",
     "Remove the fsync/fdatasync after each write; sync once at the end (or "
     "at checkpoints).",
     "Writes go to the page cache and the storage at full speed instead of "
     "waiting for each one to reach the disk.",
     "Durability after each write is a requirement."},
    {"throughput_utilization", "stripe_wide",
     "Stripe the large shared file over more OSTs (lfs setstripe -c on its "
     "directory before it is created).",
     "The file's bandwidth grows with the number of OSTs it is striped over.",
     "The file is small, or few ranks write it."},
    {"throughput_utilization", "read_once",
     "Read the data once and keep it in memory (or cache it), instead of "
     "reading the same bytes again.",
     "The repeated reads, and their share of the I/O time, disappear.",
     "The data does not fit in memory, or it changes between the reads."},
};

#define N_CHANGES (sizeof changes / sizeof changes[0])

/* Root causes first: a change of an earlier pattern also fixes the later
 * ones of the same files (collective I/O merges the small requests of a
 * shared file; dropping syncs fixes small synced writes). */
static const char *const order[] = {
    "throughput_utilization", "interface_choice", "file_strategy",
    "access_granularity", "access_pattern", "metadata_intensity",
    "parallelism_efficiency"};

const struct adv_change *adv_change_find(const char *pattern, const char *id)
{
    for (size_t i = 0; pattern && id && i < N_CHANGES; i++)
        if (strcmp(changes[i].pattern, pattern) == 0 &&
            strcmp(changes[i].id, id) == 0)
            return &changes[i];
    return NULL;
}

int adv_pattern_order(const char *pattern)
{
    int n = (int)(sizeof order / sizeof order[0]);
    for (int i = 0; pattern && i < n; i++)
        if (strcmp(order[i], pattern) == 0)
            return i;
    return n;
}

int iosage_advise_change_ids(const char *pattern, const char **ids, int cap)
{
    int n = 0;
    for (size_t i = 0; pattern && i < N_CHANGES; i++)
        if (strcmp(changes[i].pattern, pattern) == 0) {
            if (n < cap)
                ids[n] = changes[i].id;
            n++;
        }
    return n < cap ? n : cap;
}

int iosage_advise_change_known(const char *pattern, const char *change_id)
{
    return adv_change_find(pattern, change_id) != NULL;
}
