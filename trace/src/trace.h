/*
 * trace/src/trace.h - internals of the iosage LD_PRELOAD tracer.
 *
 * The tracer is a set of wrappers around POSIX, stdio and (in the MPI build)
 * MPI-IO calls. Each wrapper finds the real function, times it, books the
 * call into a per-file record and returns the real result and errno
 * unchanged. At exit (or MPI_Finalize) the records become one Darshan 3.41
 * log written with the iosage library.
 *
 * Files, in the order a reader would follow them:
 *   state.c    process state, clock, re-entry guard, real-symbol lookup,
 *              constructor, destructor and fork handling
 *   records.c  path cleanup, exclusions, the mount table, record ids and the
 *              descriptor / stream / MPI handle maps
 *   book.c     what each intercepted call adds to a record (format spec 10)
 *   posix.c, stdio.c, mpiio.c   the wrappers (mpiio.c only in the MPI build)
 *   hdf5.c     HDF5 wrappers and their H5F / H5D records
 *   pnetcdf.c, pnetcdf_vara.c   PnetCDF wrappers, PNETCDF_FILE / _VAR records
 *              (MPI build, when pnetcdf.h is found)
 *   heatmap.c  bytes per time bin per interface (HEATMAP records)
 *   lustre.c   with the file system emulator (pfs/) preloaded: its mount
 *              as `lustre`, LUSTRE records of its files, its model clock
 *   publish.c  per-process records -> counters as written; the shared-record
 *              reduction over ranks (format spec 11); serialization
 *   output.c   job record, command line, mount lines, log path, the write
 *
 * Invariants:
 *   1. Records, maps and the fd table's offsets are read and written only
 *      with g_lock held. The one exception is trc_fd_traced(), which reads a
 *      slot's record pointer atomically to skip untraced descriptors cheaply.
 *   2. Records are never freed while the process runs, so a record pointer
 *      stays valid for the life of the process.
 *   3. A wrapper books a call only if trc_active() was true before the real
 *      call; it returns the real call's result and leaves errno as the real
 *      call left it.
 *   4. tl_busy is set while the tracer runs its own code on this thread
 *      (bookkeeping, the log write, resolving symbols); any intercepted call
 *      made then passes straight through.
 *   5. Nothing here calls exit() or abort(). When something fails, tracing
 *      is switched off (trc_disable) and every call passes through.
 */
#ifndef IOSAGE_TRACE_H
#define IOSAGE_TRACE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#ifndef IOSAGE_TRACE_VERSION
#define IOSAGE_TRACE_VERSION "0.0.0"
#endif

#define TRC_HIDDEN __attribute__((visibility("hidden")))

/* --- process state (state.c) ------------------------------------------- */

enum trc_state {
    TRC_OFF = 0,      /* not yet initialised, or disabled: pass through */
    TRC_ON = 1,       /* tracing */
    TRC_SUSPENDED = 2 /* inside MPI_Init / MPI_Finalize: pass through */
};

/* Layers we trace; the record's Darshan module id is trc_module_id(). */
enum trc_layer {
    TRC_POSIX = 0,
    TRC_MPIIO = 1,
    TRC_STDIO = 2,
    TRC_H5F = 3,     /* HDF5 files (hdf5.c) */
    TRC_H5D = 4,     /* HDF5 datasets, named "<file>:<dataset path>" */
    TRC_PNCF = 5,    /* PnetCDF files (pnetcdf.c, MPI library only) */
    TRC_PNCV = 6,    /* PnetCDF variables, named "<file>:<variable>" */
    TRC_LUSTRE = 7,  /* layouts of files on the emulated Lustre (lustre.c) */
    TRC_NLAYERS = 8
};
/* The layers that have a heatmap: the first three. */
#define TRC_HEAT_LAYERS 3

enum trc_op { TRC_OP_NONE = 0, TRC_OP_READ = 1, TRC_OP_WRITE = 2 };

/* Which timer a call is booked to. */
enum trc_timer { TRC_T_READ = 0, TRC_T_WRITE = 1, TRC_T_META = 2 };

extern TRC_HIDDEN _Atomic int g_state;
extern TRC_HIDDEN _Thread_local int tl_busy
    __attribute__((tls_model("initial-exec")));
extern TRC_HIDDEN pthread_mutex_t g_lock;
extern TRC_HIDDEN struct timespec g_t0_mono;   /* tracer init, monotonic */
extern TRC_HIDDEN struct timespec g_t0_wall;   /* tracer init, wall clock */
extern TRC_HIDDEN int g_rank, g_nprocs;        /* 0 / 1 without MPI */
extern TRC_HIDDEN int g_mpi_started;           /* MPI_Init returned */
extern TRC_HIDDEN int g_written;               /* the log has been written */
/* Start of the job on the trc_now() scale: 0 (the tracer's start) for a
 * program without MPI, the return of MPI_Init for an MPI program, as the
 * Darshan runtime measures it. Timestamps and the run time count from it. */
extern TRC_HIDDEN double g_origin;

/* 1 when a call entering now should be traced. */
static inline int trc_active(void)
{
    return atomic_load_explicit(&g_state, memory_order_relaxed) == TRC_ON &&
           !tl_busy;
}

/* With the file system emulator preloaded: seconds its calls in this
 * process lasted beyond its model (lustre.c); NULL without it. */
extern TRC_HIDDEN double (*g_pfs_late)(void);

/* Seconds since the tracer initialised (monotonic); with the emulator, on
 * its model clock (the time its calls lasted beyond the model left out). */
static inline double trc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double t = (double)(ts.tv_sec - g_t0_mono.tv_sec) +
               (double)(ts.tv_nsec - g_t0_mono.tv_nsec) * 1e-9;
    return g_pfs_late ? t - g_pfs_late() : t;
}

/* Next definition of name after this library, looked up once and cached in
 * *slot. NULL when the symbol does not exist or when called re-entrantly
 * while dlsym itself runs; errno is preserved. */
TRC_HIDDEN void *trc_real(void *_Atomic *slot, const char *name);

/* 1 once the constructor has set the tracer up (not disabled by the
 * environment, not a launcher). */
TRC_HIDDEN int trc_initialized(void);

/* Switch tracing off for good (why: one line for the optional diagnostic). */
TRC_HIDDEN void trc_disable(const char *why);

/* The job starts now (MPI_Init returned): timestamps written from here on
 * count from this moment, and so does the job's start time. */
TRC_HIDDEN void trc_start_job_clock(void);

/* Suspend / resume tracing for every thread (MPI_Init, MPI_Finalize). */
TRC_HIDDEN void trc_suspend(void);
TRC_HIDDEN void trc_resume(void);

/* Take g_lock and mark this thread busy; returns the previous busy mark to
 * hand back to trc_unlock(). */
TRC_HIDDEN int trc_lock(void);
TRC_HIDDEN void trc_unlock(int old_busy);

/* Print one diagnostic line to stderr unless IOSAGE_TRACE_QUIET is set. */
TRC_HIDDEN void trc_warn(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* --- records (records.c) ------------------------------------------------ */

#define TRC_NC 120         /* largest int64 counter array (PNETCDF_VAR) */
#define TRC_NF 17          /* largest double counter array */
#define TRC_CANDIDATES 32  /* top-4 candidates tracked per record */
#define TRC_PATH_MAX 4096

struct trc_vc {
    int64_t val;   /* access size or stride, never 0 */
    int64_t count; /* how often it was seen */
};

/* One file as one layer saw it in this process. */
struct trc_rec {
    struct trc_rec *hnext;   /* chain in the id table */
    struct trc_rec *lnext;   /* creation-ordered list of the layer */
    uint64_t id;             /* iosage_darshan_hash(name) */
    int layer;               /* enum trc_layer */
    char *name;              /* absolute cleaned path or <STDOUT>... */
    int64_t c[TRC_NC];       /* counters in the module's layout */
    double f[TRC_NF];        /* fcounters in the module's layout */
    int64_t last_read_end;   /* last byte of the previous read (0 at start) */
    int64_t last_write_end;  /* last byte of the previous write */
    int last_op;             /* enum trc_op of the previous data call */
    double busy_end[3];      /* end of time booked per enum trc_timer */
    int n_access, n_stride;  /* used entries below */
    struct trc_vc access[TRC_CANDIDATES];
    struct trc_vc stride[TRC_CANDIDATES];
    /* H5D, PNETCDF_VAR: the access candidates are tuples (size, 5 lengths,
     * 5 strides); allocated with the record, NULL for the other layers */
    struct trc_tuple *tuples;
    int n_tuples;
};

/* One H5D or PnetCDF access: size in bytes, then the selection's count
 * (LENGTH_D1..D5) and stride (STRIDE_D1..D5), and how often it was seen. */
#define TRC_TUPLE_LEN 11
struct trc_tuple {
    int64_t v[TRC_TUPLE_LEN];
    int64_t count;
};

/* What a descriptor, stream or MPI handle refers to. */
struct trc_ref {
    struct trc_rec *rec;
    int64_t offset; /* current position (POSIX fd, stdio stream) */
};

/* Darshan module id of a layer. */
TRC_HIDDEN int trc_module_id(int layer);

/* Read the mount table, exclusions and limits; called once at init. */
TRC_HIDDEN void trc_records_init(void);

/* In a forked child: every record back to its state at creation (counters,
 * access candidates, offsets), so that the child's log holds only its own
 * I/O; records, descriptors and streams stay where they are, so I/O on
 * descriptors the child inherited is still traced. */
TRC_HIDDEN void trc_records_fork_reset(void);

/* 1 when r is as trc_records_fork_reset left it (no I/O since): such
 * records are left out of a forked child's log (trc_serialize_all). */
TRC_HIDDEN int trc_rec_pristine(const struct trc_rec *r);

/* 1 when some record other than the standard streams' (<STDIN>, <STDOUT>,
 * <STDERR>) is not pristine. */
TRC_HIDDEN int trc_any_file_io(void);
extern TRC_HIDDEN int g_forked; /* this process is a forked child */

/* Start a new run in this process (a forked child, or after a failed exec):
 * records and heatmaps reset, clock origin now, tracing on. */
TRC_HIDDEN void trc_restart_child(void);

/* 1 when this process traces and has not written its log (and is not a
 * vfork child sharing our memory: its pid differs). */
TRC_HIDDEN int trc_active_here(void);

/* Absolute, lexically cleaned form of path, relative ones taken against the
 * directory of dirfd (AT_FDCWD: the working directory). Returns 0, or -1 when
 * it does not fit in out[TRC_PATH_MAX] or the base cannot be found. */
TRC_HIDDEN int trc_clean_path(int dirfd, const char *path, char *out);

/* 1 when a cleaned path is excluded from tracing (/proc, /sys, /dev ...). */
TRC_HIDDEN int trc_excluded(const char *clean);

/* The record of name in layer, created when missing. NULL when the record
 * limit was reached (the layer is then marked partial) or on no memory.
 * Lock held. */
TRC_HIDDEN struct trc_rec *trc_rec_get(int layer, const char *name);

/* The record of name in layer, or NULL. Lock held. */
TRC_HIDDEN struct trc_rec *trc_rec_find(int layer, const char *name);

/* First record of a layer in creation order (follow ->lnext). Lock held. */
TRC_HIDDEN struct trc_rec *trc_rec_first(int layer);

/* 1 when layer ran out of record slots. */
TRC_HIDDEN int trc_layer_partial(int layer);

/* File system block size for a cleaned path per spec 10.3 (1 MiB for Lustre,
 * 4096 when statfs fails, -1 when no recorded mount point matches). */
TRC_HIDDEN int64_t trc_file_alignment(const char *clean);

/* The mount table as recorded for the job (spec 6.3 order and filters). */
struct trc_mount {
    char *point;
    char *type;
    int64_t block;   /* cached alignment, 0 = not asked yet */
};
TRC_HIDDEN size_t trc_mounts(const struct trc_mount **out);

/* Descriptor table. Slots are grouped in chunks that are allocated once and
 * never move, so trc_fd_traced() can read them without the lock. */
#define TRC_FD_CHUNK 1024
#define TRC_FD_CHUNKS 1024
struct trc_fd {
    struct trc_rec *_Atomic rec; /* NULL: not traced */
    int64_t offset;              /* lock held */
};
extern TRC_HIDDEN struct trc_fd *_Atomic g_fd_chunks[TRC_FD_CHUNKS];

static inline int trc_fd_traced(int fd)
{
    if (fd < 0 || fd >= TRC_FD_CHUNK * TRC_FD_CHUNKS)
        return 0;
    struct trc_fd *ch = atomic_load_explicit(&g_fd_chunks[fd / TRC_FD_CHUNK],
                                             memory_order_acquire);
    return ch && atomic_load_explicit(&ch[fd % TRC_FD_CHUNK].rec,
                                      memory_order_relaxed) != NULL;
}

/* The slot of fd (allocating its chunk when create is set), or NULL. */
TRC_HIDDEN struct trc_fd *trc_fd_slot(int fd, int create);

/* Pointer-keyed maps for FILE * (TRC_STDIO) and MPI_File (TRC_MPIIO).
 * Entries are allocated at open and freed at close. Lock held. */
TRC_HIDDEN struct trc_ref *trc_map_find(int layer, const void *key);
TRC_HIDDEN struct trc_ref *trc_map_add(int layer, const void *key);
TRC_HIDDEN void trc_map_del(int layer, const void *key);

/* --- bookkeeping (book.c); each takes the lock itself ------------------- */

/* Helpers shared with hdf5.c; lock held. Book [t0, t1] on a timer of r
 * (overlaps counted once) into *acc; widen a start/end stamp pair; the
 * size histogram bin 0..9 of n bytes; 1 when op switches read/write. */
TRC_HIDDEN void trc_add_time(struct trc_rec *r, int timer, double t0,
                             double t1, double *acc);
TRC_HIDDEN void trc_stamp(double *start, double *end, double t0, double t1);
TRC_HIDDEN int trc_size_bin(int64_t n);
TRC_HIDDEN int trc_rw_switch(struct trc_rec *r, int op);
/* Count one occurrence of an access tuple (TRC_TUPLE_LEN values) among the
 * candidates of an H5D or PNETCDF_VAR record. */
TRC_HIDDEN void trc_count_tuple(struct trc_rec *r, const int64_t *v);

TRC_HIDDEN void trc_posix_open(int fd, int dirfd, const char *path, int flags,
                               int mode, double t0, double t1);
TRC_HIDDEN void trc_posix_dup(int oldfd, int newfd, double t0, double t1);
TRC_HIDDEN void trc_posix_io(int fd, int op, int64_t offset, ssize_t ret,
                             const void *buf, double t0, double t1);
TRC_HIDDEN void trc_posix_seek(int fd, int64_t pos, double t0, double t1);
TRC_HIDDEN void trc_posix_sync(int fd, int data_only, double t0, double t1);
TRC_HIDDEN void trc_posix_close(int fd, double t0, double t1);
TRC_HIDDEN void trc_posix_fstat(int fd, double t0, double t1);
TRC_HIDDEN void trc_posix_stat(int dirfd, const char *path, double t0,
                               double t1);
TRC_HIDDEN void trc_posix_mmap(int fd, double t0, double t1);
TRC_HIDDEN void trc_posix_unlink(int dirfd, const char *path, double t0,
                                 double t1);
/* Asynchronous I/O: a request is remembered when submitted and booked when
 * aio_return collects its result (time = submission to collection). At most
 * TRC_AIO_PENDING requests are followed at once; later ones are not booked. */
#define TRC_AIO_PENDING 1024
TRC_HIDDEN void trc_posix_aio_submit(const void *cb, int fd, int op,
                                     int64_t offset, const void *buf,
                                     double t0);
TRC_HIDDEN void trc_posix_aio_done(const void *cb, ssize_t ret, double t1);
TRC_HIDDEN void trc_posix_rename(int olddirfd, const char *oldpath,
                                 int newdirfd, const char *newpath, double t0,
                                 double t1);

TRC_HIDDEN void trc_stdio_open(FILE *fp, const char *path, int fd,
                               const char *mode, double t0, double t1);
TRC_HIDDEN void trc_stdio_io(FILE *fp, int op, int64_t bytes, double t0,
                             double t1);
TRC_HIDDEN void trc_stdio_seek(FILE *fp, int64_t pos, double t0, double t1);
TRC_HIDDEN void trc_stdio_flush(FILE *fp, double t0, double t1);
TRC_HIDDEN void trc_stdio_close(FILE *fp, int fd, double t0, double t1);
TRC_HIDDEN void trc_stdio_fileno(FILE *fp, int fd);

enum trc_mpi_kind { TRC_MPI_INDEP, TRC_MPI_COLL, TRC_MPI_SPLIT, TRC_MPI_NB };
TRC_HIDDEN void trc_mpiio_open(const void *fh, const char *path, int amode,
                               int comm_size, int has_info, double t0,
                               double t1);
TRC_HIDDEN void trc_mpiio_io(const void *fh, int op, int kind, int64_t bytes,
                             double t0, double t1);
TRC_HIDDEN void trc_mpiio_sync(const void *fh, double t0, double t1);
TRC_HIDDEN void trc_mpiio_view(const void *fh, int has_info, double t0,
                               double t1);
TRC_HIDDEN void trc_mpiio_close(const void *fh, double t0, double t1);
/* Time of a split collective's _end call: read or write time, no count. */
TRC_HIDDEN void trc_mpiio_time(const void *fh, int op, double t0, double t1);

/* --- heatmap (heatmap.c); lock held ------------------------------------ */

#define TRC_HEAT_BINS 200     /* bins kept per interface */
#define TRC_HEAT_WIDTH 0.1    /* starting bin width, seconds */

/* Bytes per time bin of one interface in one process. */
struct trc_heat {
    int64_t used;             /* 1 once a read or write was booked */
    double width;             /* bin width, seconds */
    int64_t w[TRC_HEAT_BINS]; /* bytes written per bin */
    int64_t r[TRC_HEAT_BINS]; /* bytes read per bin */
};

/* Book bytes moved by one read or write (op) of layer in [t0, t1]. */
TRC_HIDDEN void trc_heat_add(int layer, int op, int64_t bytes, double t0,
                             double t1);

/* The job starts now: what was booked before goes to the first bin. */
TRC_HIDDEN void trc_heat_rebase(void);

/* Empty every heatmap (a forked child starts its own). */
TRC_HIDDEN void trc_heat_reset(void);

/* This process's heatmap of layer. */
TRC_HIDDEN const struct trc_heat *trc_heat_of(int layer);

/* Merge bins of h until its width is width (a power-of-two multiple). */
TRC_HIDDEN void trc_heat_widen_to(struct trc_heat *h, double width);

/* --- published records (publish.c) ------------------------------------- */

/* A record as it goes into the log: counters final (top-4 published). */
struct trc_pub {
    int layer;
    int64_t rank;      /* -1 after the shared reduction */
    uint64_t id;
    const char *name;  /* not owned */
    int64_t c[TRC_NC];
    double f[TRC_NF];
};

/* Counter array sizes of a layer in the written layout. */
TRC_HIDDEN int trc_layer_nc(int layer);
TRC_HIDDEN int trc_layer_nf(int layer);

/* Fill out from a live record (lock held). */
TRC_HIDDEN void trc_publish(const struct trc_rec *r, int64_t rank,
                            struct trc_pub *out);

/* Reduce n published records of one file (one per rank, n == nprocs) into
 * out, rank -1 (format spec 11). recs are ordered by rank. */
TRC_HIDDEN void trc_reduce(const struct trc_pub *const *recs, int n,
                           struct trc_pub *out);

/* A growable byte buffer for serialized records. */
struct trc_buf {
    unsigned char *p;
    size_t len, cap;
    int oom;
};
TRC_HIDDEN void trc_buf_put(struct trc_buf *b, const void *src, size_t n);

/* Serialize every live record of this process (lock held); the header holds
 * the process's start/end wall times and its partial flags. */
TRC_HIDDEN void trc_serialize_all(struct trc_buf *b, int64_t rank,
                                  const struct timespec *end);

/* --- the file system emulator (lustre.c) ------------------------------- */

/* OST ids a LUSTRE record keeps (its counters hold size, count, ids). */
#define TRC_LUSTRE_MAX_OSTS (TRC_NC - 2)

/* Find the emulator's questions (once, at init; nothing when absent). */
TRC_HIDDEN void trc_lustre_init(void);

/* The emulated mount point, cleaned into out[TRC_PATH_MAX], or NULL. */
TRC_HIDDEN const char *trc_lustre_mount(char *out);

/* A POSIX open of fd for the file of record posix: the first one records
 * its layout when the file is on the emulated file system. Lock held. */
TRC_HIDDEN void trc_lustre_open(const struct trc_rec *posix, int fd);

/* The log record of a published LUSTRE record: one component (comp)
 * pointing into p's counters. */
struct iosage_record;
struct iosage_lustre_comp;
TRC_HIDDEN void trc_lustre_record(const struct trc_pub *p,
                                  struct iosage_record *rec,
                                  struct iosage_lustre_comp *comp);

/* The wall-clock time now on trc_now()'s scale (the model's clock with the
 * emulator, the real one without): the end time a process reports. */
TRC_HIDDEN void trc_wall_now(struct timespec *out);

/* --- output (output.c) ----------------------------------------------------- */

/* Per-process blob as parsed back from trc_serialize_all. */
struct trc_proc {
    int64_t start_sec, start_nsec, end_sec, end_nsec;
    int64_t partial_mask; /* bit per layer */
    int64_t rank;         /* rank the process wrote its records as */
    size_t n;
    struct trc_pub *recs; /* malloc'd; names point into the blob */
    struct trc_heat heat[TRC_HEAT_LAYERS];
};

/* Parse one process blob; 0 or -1 when it is malformed. */
TRC_HIDDEN int trc_parse_proc(const unsigned char *p, size_t len,
                              struct trc_proc *out);

/* Build and write the log from the blobs of n processes (procs[r] is rank
 * r). nprocs: the job's process count for the job record. reduce: combine
 * files every process has into rank -1 records. suffix: appended to
 * IOSAGE_LOG (may be NULL). Returns 0 or -1 (a diagnostic was printed). */
TRC_HIDDEN int trc_write_log(const struct trc_proc *procs, int n, int nprocs,
                             int reduce, const char *suffix);

/* Write this process's records alone (no MPI, or MPI never finalized). */
TRC_HIDDEN void trc_write_local(void);

#endif
