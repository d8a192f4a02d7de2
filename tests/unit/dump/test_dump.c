/*
 * tests/unit/test_dump.c - iosage_dump_parser / iosage_dump_dxt on logs
 * built in memory, for the rules the public logs do not all exercise, and
 * the number formatting behind them.
 *
 * Groups:
 *   - ios_fmt_double equals snprintf("%.<p>f") (edge cases, random bits);
 *     integers equal "%lld"/"%llu";
 *   - name and mount columns: string-prefix mount match, (null) names,
 *     DFS/DAOS columns, APMPI empty columns, unsigned POSIX_RENAMED_FROM;
 *   - LUSTRE pattern/flags text and OST ids, HEATMAP read bins first;
 *   - partial modules: stop with *ERROR* on diag without --show-incomplete,
 *     warning block and data with it; "# no module data available.";
 *   - --total across two files (fastest/slowest become -1, top-4 merge),
 *     --file and --perf numbers;
 *   - --dxt: Lustre components and per-segment OST columns.
 * The end-to-end comparison with darshan-parser is tests/conformance/run.sh.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dump/dump_internal.h"
#include "iosage/counters.h"
#include "iosage/darshan.h"
#include "iosage/dump.h"

/* --- number formatting --------------------------------------------------- */

static void check_double(double v, int prec)
{
    char mine[IOS_DBL_MAX + 1], ref[400];
    size_t n = ios_fmt_double(mine, v, prec);
    mine[n] = '\0';
    snprintf(ref, sizeof ref, "%.*f", prec, v);
    if (strcmp(mine, ref) != 0)
        fail_msg("%.17g with %d decimals: got %s, want %s", v, prec, mine,
                 ref);
}

static void test_fmt_double(void **state)
{
    (void)state;
    static const double edge[] = {
        0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 5e-7, 1.5e-6, 2.5e-6,
        -5e-7, 1e-7, -1e-7, 4.9e-324, 1e300, -1e300, 9.2e12, 9.3e18, 1e19,
        0.00005, 0.00015, 123456.5, 2199023259968.0, 18446744073709551616.0,
        1e15 + 0.5, 85.47495, 100397.600422, NAN, -NAN, INFINITY, -INFINITY,
    };
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
        for (int p = 0; p <= 9; p++)
            check_double(edge[i], p);
    uint64_t s = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 200000; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        double v;
        memcpy(&v, &s, sizeof v);
        if (isfinite(v) && fabs(v) > 1e30)
            v = fmod(v, 1e12);
        check_double(v, (int)(s % 10));
        /* values like the timers in real logs */
        double t = (double)(s % 1000000000) / 1e6;
        check_double(t, 6);
        check_double(t, 4);
        check_double(-t, 6);
    }
}

static void test_fmt_int(void **state)
{
    (void)state;
    static const int64_t v[] = {0, 1, -1, 9, 10, 99, 100, -100, INT64_MIN,
                                INT64_MAX, 1234567890123LL};
    char mine[IOS_NUM_MAX + 1], ref[64];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        mine[ios_fmt_i64(mine, v[i])] = '\0';
        snprintf(ref, sizeof ref, "%lld", (long long)v[i]);
        assert_string_equal(mine, ref);
        mine[ios_fmt_u64(mine, (uint64_t)v[i])] = '\0';
        snprintf(ref, sizeof ref, "%llu", (unsigned long long)v[i]);
        assert_string_equal(mine, ref);
    }
}

/* --- building logs --------------------------------------------------------- */

static iosage_log *new_log(int64_t nprocs)
{
    static struct iosage_mount mounts[] = {
        {"/home", "ext4"}, {"/", "rootfs"}, {"/scratch", "lustre"}};
    struct iosage_job job;
    iosage_error e;
    memset(&job, 0, sizeof job);
    job.uid = 42;
    job.start_time_sec = 1700000000;
    job.end_time_sec = 1700000100;
    job.nprocs = nprocs;
    job.jobid = 7;
    snprintf(job.metadata, sizeof job.metadata, "lib_ver=3.4.6\nh=a=b\n");
    job.exe = "./app arg";
    job.n_mounts = 3;
    job.mounts = mounts;
    iosage_log *log = iosage_log_create();
    assert_non_null(log);
    assert_int_equal(iosage_log_set_job(log, &job, &e), IOSAGE_OK);
    return log;
}

/* A record of module with zeroed counter arrays (caller fills and adds). */
struct rec_buf {
    iosage_record rec;
    int64_t c[512];
    double f[512];
};

static void rec_init(struct rec_buf *b, int module, uint64_t id, int64_t rank)
{
    memset(b, 0, sizeof *b);
    b->rec.module = module;
    b->rec.version = iosage_module_max_version(module);
    b->rec.id = id;
    b->rec.rank = rank;
    b->rec.n_counters = iosage_counter_count(module);
    b->rec.n_fcounters = iosage_fcounter_count(module);
    b->rec.counters = b->c;
    b->rec.fcounters = b->f;
}

static void set_c(struct rec_buf *b, const char *name, int64_t v)
{
    int i = iosage_counter_index(b->rec.module, name);
    assert_true(i >= 0);
    b->c[i] = v;
}

static void set_f(struct rec_buf *b, const char *name, double v)
{
    int i = iosage_fcounter_index(b->rec.module, name);
    assert_true(i >= 0);
    b->f[i] = v;
}

static void add(iosage_log *log, const struct rec_buf *b)
{
    iosage_error e;
    assert_int_equal(iosage_log_add_record(log, &b->rec, &e), IOSAGE_OK);
}

static void add_name(iosage_log *log, const char *name)
{
    iosage_error e;
    assert_int_equal(iosage_log_add_name(log, iosage_darshan_hash(name,
                                                                   strlen(name)),
                                         name, &e),
                     IOSAGE_OK);
}

static uint64_t id_of(const char *name)
{
    return iosage_darshan_hash(name, strlen(name));
}

/* The dump of log (written to memory and read back), as a string. */
struct dump_out {
    char *out, *diag;
    size_t out_len, diag_len;
    struct iosage_dump_result res;
    iosage_status st;
};

static void run_dump(iosage_log *log, int dxt, int flags, struct dump_out *d)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    iosage_error e;
    iosage_reader *r = NULL;
    memset(d, 0, sizeof *d);
    assert_int_equal(iosage_log_write_mem(log, &bytes, &len, &e), IOSAGE_OK);
    assert_int_equal(iosage_reader_open_mem(bytes, len, "mem.darshan",
                                            IOSAGE_READ_COMPAT, &r, &e),
                     IOSAGE_OK);
    FILE *out = open_memstream(&d->out, &d->out_len);
    FILE *diag = open_memstream(&d->diag, &d->diag_len);
    assert_non_null(out);
    assert_non_null(diag);
    d->st = dxt ? iosage_dump_dxt(r, flags, out, diag, &d->res, &e)
                : iosage_dump_parser(r, flags, out, diag, &d->res, &e);
    fclose(out);
    fclose(diag);
    iosage_reader_close(r);
    free(bytes);
}

static void dump_free(struct dump_out *d)
{
    free(d->out);
    free(d->diag);
}

static void has(const char *text, const char *line)
{
    if (!strstr(text, line))
        fail_msg("missing from the output: \"%s\"", line);
}

static void lacks(const char *text, const char *line)
{
    if (strstr(text, line))
        fail_msg("unexpected in the output: \"%s\"", line);
}

static void hasf(const char *text, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void hasf(const char *text, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    has(text, line);
}

/* --- columns --------------------------------------------------------------- */

static void test_columns(void **state)
{
    (void)state;
    iosage_log *log = new_log(4);
    struct rec_buf b;
    uint64_t hid = id_of("/homework/x");
    add_name(log, "/homework/x");
    rec_init(&b, IOSAGE_MOD_POSIX, hid, 0);
    set_c(&b, "POSIX_OPENS", 3);
    set_c(&b, "POSIX_RENAMED_FROM", -2);
    set_f(&b, "POSIX_F_READ_TIME", -0.0);
    add(log, &b);
    rec_init(&b, IOSAGE_MOD_POSIX, 12345, -1); /* no name */
    add(log, &b);
    rec_init(&b, IOSAGE_MOD_DFS, 99, -1);      /* zero UUIDs, no name */
    add(log, &b);
    rec_init(&b, IOSAGE_MOD_DAOS, 98, 1);
    for (int i = 0; i < 16; i++) {
        b.rec.x.daos.pool_uuid[i] = (uint8_t)(0x10 + i);
        b.rec.x.daos.cont_uuid[i] = (uint8_t)(0xa0 + i);
    }
    b.rec.x.daos.oid_hi = 5;
    b.rec.x.daos.oid_lo = 18446744073709551615ULL;
    add(log, &b);

    struct dump_out d;
    run_dump(log, 0, IOSAGE_DUMP_BASE, &d);
    assert_int_equal(d.st, IOSAGE_OK);
    has(d.out, "# exe: ./app arg\n# uid: 42\n# jobid: 7\n");
    has(d.out, "# metadata: lib_ver = 3.4.6\n# metadata: h = a=b\n");
    has(d.out, "# run time: 100.0000\n"); /* 3.41: end - start */
    /* "/home" is a string prefix of "/homework/x" (no path logic) */
    hasf(d.out, "POSIX\t0\t%llu\tPOSIX_OPENS\t3\t/homework/x\t/home\text4\n",
         (unsigned long long)hid);
    hasf(d.out, "\tPOSIX_RENAMED_FROM\t18446744073709551614\t/homework/x\t");
    hasf(d.out, "\tPOSIX_F_READ_TIME\t-0.000000\t/homework/x\t");
    has(d.out, "POSIX\t-1\t12345\tPOSIX_OPENS\t0\t(null)\tUNKNOWN\tUNKNOWN\n");
    has(d.out, "DFS\t-1\t99\tDFS_OPENS\t0\t(null)\tUNKNOWN\tN/A\n");
    has(d.out, "DAOS\t1\t98\tDAOS_OBJ_OPENS\t0\t5.18446744073709551615\t"
               "10111213-1415-1617-1819-1a1b1c1d1e1f:"
               "a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf\tN/A\n");
    lacks(d.out, "total_");
    assert_int_equal(d.res.module_errors, 0);
    dump_free(&d);
    iosage_log_free(log);
}

/* LUSTRE record for /scratch/f: [0, 4 MiB) on OST 7, [4 MiB, EOF) over
 * OSTs 8 and 9, 1 MiB stripes. */
static void add_lustre(iosage_log *log)
{
    static char pool_a[] = "poolA", pool_none[] = "";
    static struct iosage_lustre_comp comps[2];
    static int64_t osts[3] = {7, 8, 9};
    struct rec_buf b;
    comps[0] = (struct iosage_lustre_comp){1048576, 1, 0, 0x12, 0, 4194304,
                                           0, pool_a};
    comps[1] = (struct iosage_lustre_comp){1048576, 2, 4, -1, 4194304, -1,
                                           -1, pool_none};
    rec_init(&b, IOSAGE_MOD_LUSTRE, id_of("/scratch/f"), -1);
    b.rec.n_counters = b.rec.n_fcounters = 0;
    b.rec.counters = NULL;
    b.rec.fcounters = NULL;
    b.rec.x.lustre.num_comps = 2;
    b.rec.x.lustre.num_stripes = 3;
    b.rec.x.lustre.comps = comps;
    b.rec.x.lustre.ost_ids = osts;
    add(log, &b);
}

static void test_lustre_heatmap(void **state)
{
    (void)state;
    iosage_log *log = new_log(2);
    struct rec_buf b;
    add_name(log, "/scratch/f");
    add_name(log, "heatmap:POSIX");
    add_lustre(log);
    int64_t wbins[2] = {5, 6}, rbins[2] = {1, 2};
    rec_init(&b, IOSAGE_MOD_HEATMAP, id_of("heatmap:POSIX"), 0);
    b.rec.n_counters = b.rec.n_fcounters = 0;
    b.rec.x.heatmap.bin_width = 0.1;
    b.rec.x.heatmap.nbins = 2;
    b.rec.x.heatmap.write_bins = wbins;
    b.rec.x.heatmap.read_bins = rbins;
    add(log, &b);

    struct dump_out d;
    run_dump(log, 0, IOSAGE_DUMP_BASE, &d);
    assert_int_equal(d.st, IOSAGE_OK);
    const char *t = "\t/scratch/f\t/scratch\tlustre\n";
    hasf(d.out, "\tLUSTRE_NUM_COMPONENTS\t2%s", t);
    hasf(d.out, "\tLUSTRE_NUM_STRIPES\t3%s", t);
    hasf(d.out, "\tLUSTRE_COMP1_STRIPE_PATTERN\traid0%s", t);
    hasf(d.out, "\tLUSTRE_COMP1_FLAGS\tprefrd,init%s", t);
    hasf(d.out, "\tLUSTRE_COMP1_POOL_NAME\tpoolA%s", t);
    hasf(d.out, "\tLUSTRE_COMP1_OST_ID_0\t7%s", t);
    hasf(d.out, "\tLUSTRE_COMP2_STRIPE_PATTERN\traid0,overstriped%s", t);
    hasf(d.out, "\tLUSTRE_COMP2_FLAGS\tN/A%s", t);
    hasf(d.out, "\tLUSTRE_COMP2_EXT_END\t-1%s", t);
    hasf(d.out, "\tLUSTRE_COMP2_POOL_NAME\tN/A%s", t);
    hasf(d.out, "\tLUSTRE_COMP2_OST_ID_0\t8%s", t);
    hasf(d.out, "\tLUSTRE_COMP2_OST_ID_1\t9%s", t);
    /* read bins are printed first */
    hasf(d.out,
         "HEATMAP\t0\t%llu\tHEATMAP_F_BIN_WIDTH_SECONDS\t0.100000\t"
         "heatmap:POSIX\tUNKNOWN\tUNKNOWN\n"
         "HEATMAP\t0\t%llu\tHEATMAP_READ_BIN_0\t1\t",
         (unsigned long long)id_of("heatmap:POSIX"),
         (unsigned long long)id_of("heatmap:POSIX"));
    has(d.out, "\tHEATMAP_READ_BIN_1\t2\theatmap:POSIX\tUNKNOWN\tUNKNOWN\n"
               "HEATMAP\t0\t");
    has(d.out, "\tHEATMAP_WRITE_BIN_1\t6\theatmap:POSIX\tUNKNOWN\tUNKNOWN\n");
    dump_free(&d);
    iosage_log_free(log);
}

static void test_apmpi(void **state)
{
    (void)state;
    iosage_log *log = new_log(2);
    struct rec_buf b;
    uint64_t hid = id_of("darshan-apmpi-header"), pid = id_of("APMPI");
    rec_init(&b, IOSAGE_MOD_APMPI, hid, 0);
    b.rec.n_counters = b.rec.n_fcounters = 0;
    b.rec.x.apmpi.is_header = 1;
    b.rec.x.apmpi.magic = 0x41504D5049;
    b.rec.x.apmpi.sync_flag = 1;
    b.rec.x.apmpi.variance_total_mpitime = 1.5;
    b.rec.x.apmpi.variance_total_mpisynctime = 2.5;
    add(log, &b);
    rec_init(&b, IOSAGE_MOD_APMPI, pid, 1);
    b.rec.x.apmpi.sync_flag = 1;
    b.rec.x.apmpi.node_name = "nid1";
    b.c[0] = -1; /* printed unsigned */
    set_f(&b, "MPI_SEND_TOTAL_TIME", 0.25);
    set_f(&b, "MPI_BARRIER_TOTAL_SYNC_TIME", 0.5);
    set_f(&b, "MPI_TOTAL_COMM_TIME", 3.0);
    set_f(&b, "MPI_TOTAL_COMM_SYNC_TIME", 4.0);
    add(log, &b);

    struct dump_out d;
    run_dump(log, 0, IOSAGE_DUMP_BASE, &d);
    assert_int_equal(d.st, IOSAGE_OK);
    hasf(d.out, "APMPI\t0\t%llu\tMPI_TOTAL_COMM_TIME_VARIANCE\t1.500000\t\t\t\n"
                "APMPI\t0\t%llu\tMPI_TOTAL_COMM_SYNC_TIME_VARIANCE\t2.500000"
                "\t\t\t\n"
                "APMPI\t1\t%llu\tMPI_PROCESSOR_NAME\tnid1\t\t\t\n"
                "APMPI\t1\t%llu\tMPI_SEND_CALL_COUNT\t18446744073709551615"
                "\t\t\t\n",
         (unsigned long long)hid, (unsigned long long)hid,
         (unsigned long long)pid, (unsigned long long)pid);
    has(d.out, "\tMPI_SEND_TOTAL_TIME\t0.250000\t\t\t\n");
    has(d.out, "\tMPI_BARRIER_TOTAL_SYNC_TIME\t0.500000\t\t\t\n");
    has(d.out, "\tMPI_TOTAL_COMM_TIME\t3.000000\t\t\t\n");
    has(d.out, "\tMPI_TOTAL_COMM_SYNC_TIME\t4.000000\t\t\t\n");
    dump_free(&d);
    iosage_log_free(log);
}

/* --- partial modules and empty logs ---------------------------------------- */

static void test_partial(void **state)
{
    (void)state;
    iosage_log *log = new_log(1);
    struct rec_buf b;
    add_name(log, "/home/u/f");
    rec_init(&b, IOSAGE_MOD_POSIX, id_of("/home/u/f"), 0);
    set_c(&b, "POSIX_OPENS", 1);
    add(log, &b);
    iosage_log_set_partial(log, IOSAGE_MOD_POSIX);

    struct dump_out d;
    run_dump(log, 0, IOSAGE_DUMP_BASE, &d);
    assert_int_equal(d.st, IOSAGE_OK);
    assert_int_equal(d.res.partial_stop, 1);
    assert_true(d.res.first_problem[0] != '\0');
    has(d.out, "# POSIX module data\n# *****");
    lacks(d.out, "POSIX_OPENS");
    has(d.diag, "# *ERROR*: The POSIX module contains incomplete data!\n");
    has(d.diag, "# option to darshan-parser.\n");
    dump_free(&d);

    run_dump(log, 0, IOSAGE_DUMP_ALL, &d);
    assert_int_equal(d.res.partial_stop, 0);
    assert_int_equal(d.res.partial_modules, 1);
    has(d.out, "# *WARNING*: The POSIX module contains incomplete data!\n");
    has(d.out, "\tPOSIX_OPENS\t1\t/home/u/f\t/home\text4\n");
    assert_int_equal(d.diag_len, 0);
    dump_free(&d);
    iosage_log_free(log);
}

static void test_empty(void **state)
{
    (void)state;
    iosage_log *log = new_log(1);
    struct dump_out d;
    run_dump(log, 0, IOSAGE_DUMP_ALL, &d);
    assert_int_equal(d.st, IOSAGE_OK);
    const char *tail = "#   <fs type>: type of file system that the file "
                       "resides on.\n\n# no module data available.\n";
    assert_true(d.out_len >= strlen(tail));
    assert_string_equal(d.out + d.out_len - strlen(tail), tail);
    dump_free(&d);
    run_dump(log, 1, 0, &d);
    has(d.out, "\n# no DXT module data available for this Darshan log.\n");
    dump_free(&d);
    iosage_log_free(log);
}

/* A record naming a rank outside the job is printed as stored, and the
 * result says the module is doubtful (the CLI then warns on stderr). */
static void test_doubtful_rank(void **state)
{
    (void)state;
    iosage_log *log = new_log(2);
    struct rec_buf b;
    add_name(log, "/scratch/a.dat");
    rec_init(&b, IOSAGE_MOD_POSIX, id_of("/scratch/a.dat"), 1);
    set_c(&b, "POSIX_WRITES", 3);
    add(log, &b);
    struct dump_out d;
    run_dump(log, 0, IOSAGE_DUMP_BASE, &d);
    assert_int_equal(d.res.doubtful_modules, 0);
    assert_string_equal(d.res.first_doubt, "");
    dump_free(&d);

    rec_init(&b, IOSAGE_MOD_POSIX, id_of("/scratch/a.dat"), 9);
    set_c(&b, "POSIX_WRITES", 5);
    add(log, &b);
    run_dump(log, 0, IOSAGE_DUMP_BASE, &d);
    assert_int_equal(d.st, IOSAGE_OK);
    assert_int_equal(d.res.module_errors, 0);
    assert_int_equal(d.res.doubtful_modules, 1);
    assert_non_null(strstr(d.res.first_doubt, "POSIX module: 1 records name a "
                                              "rank outside the job (e.g. 9, "
                                              "nprocs 2)"));
    has(d.out, "POSIX\t9\t");
    dump_free(&d);
    iosage_log_free(log);
}

/* --- summaries ---------------------------------------------------------------- */

static void add_two_files(iosage_log *log)
{
    struct rec_buf b;
    add_name(log, "/home/a");
    add_name(log, "/scratch/b");
    rec_init(&b, IOSAGE_MOD_POSIX, id_of("/home/a"), 0);
    set_c(&b, "POSIX_FILENOS", -1);
    set_c(&b, "POSIX_BYTES_READ", 100);
    set_c(&b, "POSIX_MAX_BYTE_READ", 99);
    set_c(&b, "POSIX_MAX_READ_TIME_SIZE", 10);
    set_c(&b, "POSIX_ACCESS1_ACCESS", 10);
    set_c(&b, "POSIX_ACCESS1_COUNT", 5);
    set_c(&b, "POSIX_ACCESS2_ACCESS", 20);
    set_c(&b, "POSIX_ACCESS2_COUNT", 1);
    set_f(&b, "POSIX_F_READ_TIME", 1.0);
    set_f(&b, "POSIX_F_META_TIME", 0.5);
    set_f(&b, "POSIX_F_OPEN_START_TIMESTAMP", 2.0);
    set_f(&b, "POSIX_F_OPEN_END_TIMESTAMP", 3.0);
    set_f(&b, "POSIX_F_MAX_READ_TIME", 0.7);
    add(log, &b);
    rec_init(&b, IOSAGE_MOD_POSIX, id_of("/scratch/b"), -1);
    set_c(&b, "POSIX_FILENOS", -1);
    set_c(&b, "POSIX_BYTES_WRITTEN", 1048576);
    set_c(&b, "POSIX_MAX_BYTE_WRITTEN", 1048575);
    set_c(&b, "POSIX_MAX_READ_TIME_SIZE", 99);
    set_c(&b, "POSIX_SLOWEST_RANK", 3);
    set_c(&b, "POSIX_ACCESS1_ACCESS", 20);
    set_c(&b, "POSIX_ACCESS1_COUNT", 4);
    set_c(&b, "POSIX_ACCESS2_ACCESS", 30);
    set_c(&b, "POSIX_ACCESS2_COUNT", 4);
    set_f(&b, "POSIX_F_WRITE_TIME", 4.0);
    set_f(&b, "POSIX_F_SLOWEST_RANK_TIME", 2.0);
    set_f(&b, "POSIX_F_OPEN_START_TIMESTAMP", 1.0);
    set_f(&b, "POSIX_F_MAX_READ_TIME", 0.2);
    add(log, &b);
}

static void test_summaries(void **state)
{
    (void)state;
    iosage_log *log = new_log(4);
    add_two_files(log);
    struct dump_out d;
    run_dump(log, 0, IOSAGE_DUMP_ALL, &d);
    assert_int_equal(d.st, IOSAGE_OK);
    has(d.out, "\n\n# description of POSIX counters:\n");
    has(d.out, "total_POSIX_FILENOS: -1\n"); /* -2 becomes -1 */
    has(d.out, "total_POSIX_BYTES_READ: 100\n");
    has(d.out, "total_POSIX_MAX_BYTE_WRITTEN: 1048575\n");
    has(d.out, "total_POSIX_MAX_READ_TIME_SIZE: 10\n");
    /* top-4 merge: 20 adds up to 5; 30 (count 4) goes after it */
    has(d.out, "total_POSIX_ACCESS1_ACCESS: 10\n"
               "total_POSIX_ACCESS2_ACCESS: 20\n"
               "total_POSIX_ACCESS3_ACCESS: 30\n"
               "total_POSIX_ACCESS4_ACCESS: 0\n"
               "total_POSIX_ACCESS1_COUNT: 5\n"
               "total_POSIX_ACCESS2_COUNT: 5\n"
               "total_POSIX_ACCESS3_COUNT: 4\n"
               "total_POSIX_ACCESS4_COUNT: 0\n"
               "total_POSIX_FASTEST_RANK: -1\n"
               "total_POSIX_FASTEST_RANK_BYTES: -1\n"
               "total_POSIX_SLOWEST_RANK: -1\n"
               "total_POSIX_SLOWEST_RANK_BYTES: -1\n"
               "total_POSIX_F_OPEN_START_TIMESTAMP: 1.000000\n");
    has(d.out, "total_POSIX_F_MAX_READ_TIME: 0.700000\n");
    has(d.out, "total_POSIX_F_SLOWEST_RANK_TIME: 0.000000\n");
    has(d.out, "# total: 2 1048676 1048575\n"
               "# read_only: 1 100 99\n"
               "# write_only: 1 1048576 1048575\n"
               "# read_write: 0 0 0\n"
               "# unique: 1 100 99\n"
               "# shared: 1 1048576 1048575\n");
    has(d.out, "# total_bytes: 1048676\n");
    has(d.out, "# unique files: slowest_rank_io_time: 1.500000\n"
               "# unique files: slowest_rank_meta_only_time: 0.500000\n"
               "# unique files: slowest_rank_rw_only_time: 1.000000\n"
               "# unique files: slowest_rank: 0\n");
    has(d.out, "# shared files: time_by_slowest: 2.000000\n");
    has(d.out, "# agg_time_by_slowest: 3.500000 # seconds\n");
    hasf(d.out, "# agg_perf_by_slowest: %f # MiB/s\n",
         (1048676 / 1048576.0) / 3.5);
    dump_free(&d);
    iosage_log_free(log);

    /* nprocs unusable: the last record stands for the total, zeros else */
    log = new_log(-5);
    add_two_files(log);
    run_dump(log, 0, IOSAGE_DUMP_TOTAL | IOSAGE_DUMP_FILE | IOSAGE_DUMP_PERF,
             &d);
    lacks(d.out, "\tPOSIX_OPENS\t");
    has(d.out, "total_POSIX_BYTES_READ: 0\n");
    has(d.out, "total_POSIX_BYTES_WRITTEN: 1048576\n");
    has(d.out, "total_POSIX_ACCESS1_ACCESS: 20\n");
    has(d.out, "# total: 0 0 0\n");
    has(d.out, "# total_bytes: 0\n");
    dump_free(&d);
    iosage_log_free(log);
}

/* --- DXT ------------------------------------------------------------------------ */

static void test_dxt_lustre(void **state)
{
    (void)state;
    iosage_log *log = new_log(1);
    struct rec_buf b;
    struct iosage_dxt_segment segs[2] = {{0, 6291456, 0.5, 1.25, 0},
                                         {5242880, 10, 2.0, 2.5, 0}};
    add_name(log, "/scratch/f");
    add_lustre(log);
    for (int m = 0; m < 2; m++) {
        rec_init(&b, m ? IOSAGE_MOD_DXT_MPIIO : IOSAGE_MOD_DXT_POSIX,
                 id_of("/scratch/f"), 0);
        b.rec.n_counters = b.rec.n_fcounters = 0;
        b.rec.x.dxt.hostname = "node1";
        b.rec.x.dxt.write_count = 1;
        b.rec.x.dxt.read_count = 1;
        b.rec.x.dxt.segs = segs;
        add(log, &b);
    }
    struct dump_out d;
    run_dump(log, 1, 0, &d);
    assert_int_equal(d.st, IOSAGE_OK);
    hasf(d.out,
         "\n# ***************************************************\n"
         "# DXT_POSIX module data\n"
         "# ***************************************************\n"
         "\n# DXT, file_id: %llu, file_name: /scratch/f\n"
         "# DXT, rank: 0, hostname: node1\n"
         "# DXT, write_count: 1, read_count: 1\n"
         "# DXT, mnt_pt: /scratch, fs_type: lustre\n"
         "# DXT, Lustre stripe components:\n"
         "#\t[Component 1] stripe_ext: 0 - 4194304, stripe_size: 1048576, "
         "stripe_count: 1, OSTs: 7\n"
         "#\t[Component 2] stripe_ext: 4194304 - EOF, stripe_size: 1048576, "
         "stripe_count: 2, OSTs: 8 9\n"
         "# Module    Rank  Wt/Rd  Segment          Offset       Length    "
         "Start(s)      End(s)   [OST]\n"
         " X_POSIX       0  write        0               0         6291456"
         "      0.5000      1.2500    [7] [8]\n"
         " X_POSIX       0   read        0         5242880              10"
         "      2.0000      2.5000    [9]\n",
         (unsigned long long)id_of("/scratch/f"));
    has(d.out, "Start(s)      End(s)\n"
               " X_MPIIO       0  write        0               0         "
               "6291456      0.5000      1.2500\n");
    dump_free(&d);
    iosage_log_free(log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fmt_double),
        cmocka_unit_test(test_fmt_int),
        cmocka_unit_test(test_columns),
        cmocka_unit_test(test_lustre_heatmap),
        cmocka_unit_test(test_apmpi),
        cmocka_unit_test(test_partial),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_doubtful_rank),
        cmocka_unit_test(test_summaries),
        cmocka_unit_test(test_dxt_lustre),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
