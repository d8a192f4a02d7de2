/*
 * src/batch_mpi/main.c - iosage-mpi: `iosage batch` across the ranks of an
 * MPI job (mpirun or srun). The steps are listed in mpi_batch.h; the output
 * is byte-identical to `iosage batch` on the same PATHs.
 *
 * Every rank ends with the same exit status (rank 0's), as `iosage batch`
 * would give: 0, 2 usage, 3 some logs unreadable, 4 internal error.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "mpi_batch.h"
#include "model/embedded.h"
#include "iosage/savings.h"

#define MAX_EMBEDDED_FILES 64

enum { EXIT_OK = 0, EXIT_USAGE = 2, EXIT_BADINPUT = 3, EXIT_INTERNAL = 4 };

/* The bundle of --model DIR, else the embedded one; NULL (printed) when it
 * cannot be loaded. */
static iosage_model *open_model(const char *dir, int rank)
{
    iosage_model *m = NULL;
    iosage_savings_model *savings = NULL;
    iosage_error err;
    iosage_status st;
    if (dir) {
        st = iosage_model_load(dir, &m, &err);
        if (st == IOSAGE_OK)
            st = iosage_savings_model_load(dir, &savings, &err);
    } else {
        struct iosage_model_file files[MAX_EMBEDDED_FILES];
        size_t n = ios_embedded_model(files, MAX_EMBEDDED_FILES);
        if (n == 0 || n > MAX_EMBEDDED_FILES) {
            if (rank == 0)
                fputs("iosage-mpi: no usable model bundle built in: pass "
                      "--model DIR\n", stderr);
            return NULL;
        }
        st = iosage_model_load_mem(files, n, "embedded model bundle", &m,
                                   &err);
        if (st == IOSAGE_OK)
            st = iosage_savings_model_load_static(files, n,
                                                  "embedded model bundle",
                                                  &savings, &err);
    }
    /* the best change and its saving in every row (docs/savings.md) */
    if (st == IOSAGE_OK)
        iosage_model_attach_savings(m, savings);
    if (st == IOSAGE_OK)
        st = iosage_model_set_threads(m, 1, &err);
    if (st != IOSAGE_OK) {
        char line[800];
        if (rank == 0)
            fprintf(stderr, "iosage-mpi: %s\n",
                    iosage_error_line(&err, line, sizeof line));
        iosage_model_free(m);
        return NULL;
    }
    return m;
}

/* 1 when ok holds on every rank. */
static int all(int ok)
{
    int every;
    MPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return every;
}

/* Options: EXIT_OK to run, -1 after --help, else an exit status. */
static int parse(int argc, char **argv, int rank, struct ios_batch_opts *o)
{
    char msg[300];
    int r = ios_batch_parse_opts(argc, argv, 1, o, msg, sizeof msg);
    if (r == IOS_BATCH_HELP) {
        if (rank == 0)
            ios_batch_print_help(stdout, 1);
        return -1;
    }
    if (r == IOS_BATCH_RUN && o->threads != 1) {
        snprintf(msg, sizeof msg, "batch: iosage-mpi runs one thread per "
                 "rank: start more ranks instead of -j");
        r = IOS_BATCH_BAD;
    }
    if (r == IOS_BATCH_BAD) {
        if (rank == 0)
            fprintf(stderr, "iosage-mpi: %s (try 'iosage-mpi --help')\n",
                    msg);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* What each rank spent its time on (seconds), for --profile: the least
 * and the most over the ranks of each phase (two MPI_Reduce). */
enum { PH_LIST, PH_WORK, PH_BUSY, PH_PART, PH_WAIT, PHASES };

/* Where the wall time went: what only rank 0 does (listing and sizing the
 * inputs, merging the parts) against what every rank does (its logs, its
 * part file, waiting for the slowest rank). */
static void print_phases(const double *lo, const double *hi, int n_ranks,
                         double merge)
{
    fprintf(stderr, "profile: rank 0 alone: listing and sharing the inputs %.3f s, "
            "merging the parts %.3f s\n", hi[PH_LIST], merge);
    fprintf(stderr, "profile: each of the %d ranks (least-most): logs "
            "%.3f-%.3f s (in the stages %.3f-%.3f), part file %.3f-%.3f s, "
            "waiting for the others %.3f-%.3f s\n", n_ranks, lo[PH_WORK],
            hi[PH_WORK], lo[PH_BUSY], hi[PH_BUSY], lo[PH_PART], hi[PH_PART],
            lo[PH_WAIT], hi[PH_WAIT]);
}

/* Rank 0: merge the parts into the output, print the summary and profile.
 * Returns the exit status. */
static int finish(const struct ios_batch_opts *o, const char *dir,
                  int n_ranks, const struct mpi_rows *own,
                  const struct iosage_batch_times *times,
                  double start, size_t n_logs, const double *lo,
                  const double *hi)
{
    struct ios_batch_out w;
    if (ios_batch_out_open(&w, o) != 0) {
        mpi_remove_parts(dir, n_ranks);
        return EXIT_INTERNAL;
    }
    double merge_start = ios_batch_now();
    int ok = mpi_merge_parts(dir, n_ranks, own, mpi_rows_whole(o), &w) == 0;
    if (ios_batch_out_close(&w, ok) != 0 || !ok)
        return EXIT_INTERNAL;
    if (o->profile) {
        double end = ios_batch_now();
        ios_batch_print_profile(times, end - start, n_logs, n_ranks);
        print_phases(lo, hi, n_ranks, end - merge_start);
    }
    if (w.errors)
        fprintf(stderr, "iosage-mpi: %zu of %zu logs could not be read "
                "(status \"error\" rows)\n", w.errors, w.rows);
    return w.errors ? EXIT_BADINPUT : EXIT_OK;
}

/* Steps 2 to 5 once the options and model are ready. */
static int run(const struct ios_batch_opts *o, const iosage_model *m,
               int rank, int n_ranks)
{
    double start = ios_batch_now();
    iosage_batch_list list = {0};
    int shared = mpi_share_list(o, &list, rank);
    double listed = ios_batch_now();
    if (shared != 0) {
        iosage_batch_list_free(&list);
        return shared == -2 ? EXIT_USAGE : EXIT_INTERNAL;
    }
    char dir[4096];
    int rc = EXIT_INTERNAL;
    if (mpi_parts_dir(o, rank, n_ranks, dir, sizeof dir) == 0) {
        struct mpi_rows rows = {0};
        struct iosage_batch_times times, sum;
        memset(&times, 0, sizeof times);
        double mine[PHASES], t0 = ios_batch_now();
        int ok = mpi_work(m, &list, rank, o, &rows, &times) == 0;
        double t1 = ios_batch_now();
        mpi_sort_rows(&rows);
        if (rank != 0) { /* rank 0 merges its rows from memory */
            ok = ok && mpi_write_part(dir, rank, &rows) == 0;
            mpi_rows_free(&rows);
        }
        double t2 = ios_batch_now();
        ok = all(ok);
        mine[PH_LIST] = listed - start;
        mine[PH_WORK] = t1 - t0;
        mine[PH_BUSY] = times.read + times.decode + times.features +
                        times.predict;
        mine[PH_PART] = t2 - t1;
        mine[PH_WAIT] = ios_batch_now() - t2;
        double t[5] = {times.read, times.decode, times.features,
                       times.predict, (double)times.logs}, s[5];
        MPI_Reduce(t, s, 5, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        sum = (struct iosage_batch_times){s[0], s[1], s[2], s[3],
                                          (size_t)s[4]};
        double lo[PHASES], hi[PHASES];
        MPI_Reduce(mine, lo, PHASES, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
        MPI_Reduce(mine, hi, PHASES, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0 && ok)
            rc = finish(o, dir, n_ranks, &rows, &sum, start, list.n, lo,
                        hi);
        else if (rank == 0)
            mpi_remove_parts(dir, n_ranks);
        mpi_rows_free(&rows);
    }
    iosage_batch_list_free(&list);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n_ranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n_ranks);
    struct ios_batch_opts o;
    int rc = parse(argc, argv, rank, &o);
    /* no output over an input: before the model or any log is read */
    if (rc == EXIT_OK && rank == 0 &&
        ios_batch_refuse_clash("iosage-mpi", &o, NULL) != 0)
        rc = EXIT_USAGE;
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc == EXIT_OK) {
        ios_batch_one_openmp_thread();
        ios_batch_reuse_freed_memory();
        iosage_model *m = open_model(o.model_dir, rank);
        rc = all(m != NULL) ? run(&o, m, rank, n_ranks) : EXIT_BADINPUT;
        iosage_model_free(m);
    }
    if (rc < 0)
        rc = EXIT_OK; /* --help */
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    /* stdout checked at exit (rank 0 writes the rows and the summary) */
    int e = ios_close_stdout();
    if (e != 0) {
        fprintf(stderr, "iosage-mpi: standard output: cannot write: %s\n",
                strerror(e));
        rc = EXIT_INTERNAL;
    }
    MPI_Finalize();
    return rc;
}
