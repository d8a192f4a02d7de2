/*
 * iosage/darshan.h - read and write Darshan 3.x logs (formats 3.00 .. 3.41).
 *
 * Two ways to read:
 *   - streaming: iosage_reader_open() reads header, job data and name table,
 *     then iosage_reader_next_module() decodes one module region at a time.
 *     Memory is bounded by the largest region, not by the log.
 *   - whole log: iosage_log_load() keeps every module in one iosage_log.
 *
 * Every record comes out in the NEWEST record layout of its module (older
 * record versions are up-converted as the reference reader does), with module
 * ids in the 3.41 numbering (old logs are remapped), so later stages see one
 * layout. Counter names and indices are in iosage/counters.h.
 *
 * Correct and compatible values. By default the reader returns correct values.
 * With IOSAGE_READ_COMPAT it also reproduces the reference reader's defects
 * (darshan-util 3.5.0, see the format spec section 16.2) so that `iosage dump`
 * can match darshan-parser output byte for byte.
 *
 * Ownership: a reader owns everything it hands out; module data returned by
 * iosage_reader_next_module() is valid until the next call on that reader or
 * until iosage_reader_close(). An iosage_log owns all of its records and
 * strings; free it with iosage_log_free() (accepts NULL). Nothing prints.
 */
#ifndef IOSAGE_DARSHAN_H
#define IOSAGE_DARSHAN_H

#include <stddef.h>
#include <stdint.h>

#include "iosage/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Module ids, 3.41 numbering (format spec section 4.1). */
enum iosage_module_id {
    IOSAGE_MOD_NULL = 0,
    IOSAGE_MOD_POSIX = 1,
    IOSAGE_MOD_MPIIO = 2,
    IOSAGE_MOD_H5F = 3,
    IOSAGE_MOD_H5D = 4,
    IOSAGE_MOD_PNETCDF_FILE = 5,
    IOSAGE_MOD_PNETCDF_VAR = 6,
    IOSAGE_MOD_BGQ = 7,
    IOSAGE_MOD_LUSTRE = 8,
    IOSAGE_MOD_STDIO = 9,
    IOSAGE_MOD_DXT_POSIX = 10,
    IOSAGE_MOD_DXT_MPIIO = 11,
    IOSAGE_MOD_MDHIM = 12,
    IOSAGE_MOD_APXC = 13,
    IOSAGE_MOD_APMPI = 14,
    IOSAGE_MOD_HEATMAP = 15,
    IOSAGE_MOD_DFS = 16,
    IOSAGE_MOD_DAOS = 17,
    IOSAGE_MOD_KNOWN = 18, /* ids >= this are unknown to every release */
    IOSAGE_MAX_MODULES = 64
};

enum iosage_compression {
    IOSAGE_COMP_ZLIB = 0,
    IOSAGE_COMP_BZIP2 = 1,
    IOSAGE_COMP_NONE = 2
};

/* Read options (bit flags). */
enum iosage_read_flags {
    IOSAGE_READ_DEFAULT = 0,
    IOSAGE_READ_COMPAT = 1, /* reproduce darshan-util 3.5.0 defects (16.2) */
    IOSAGE_READ_NO_TRACES = 2, /* leave out the trace regions (DXT_POSIX,
                                  DXT_MPIIO, HEATMAP): they are neither
                                  decompressed nor checked, and the log holds
                                  no records for them. The counters that
                                  features and detection use are unaffected;
                                  on logs with large DXT traces this is most
                                  of the reading time. */
    IOSAGE_READ_REGULAR_ONLY = 4, /* iosage_log_load refuses anything but a
                                     regular file ("not a regular file"): a
                                     batch over an archive must not block on
                                     a FIFO or read a device */
    IOSAGE_READ_IO_ONLY = 8 /* leave out, like the traces, the regions that
                               describe no file I/O: APMPI and APXC
                               (AutoPerf's MPI and Cray network counters)
                               and BGQ (machine facts). Features do not use
                               them; an APMPI region of a large job holds
                               a record per rank (2.5 k ranks: 90% of the
                               decoding time of the shared real logs) */
};

/* One region of the file as the header maps it (after slot remapping). */
struct iosage_region {
    uint64_t off;     /* absolute file offset */
    uint64_t len;     /* stored (compressed) bytes; 0 = no data */
    uint32_t version; /* module record version, 0 = slot unused */
};

/* The file header, decoded and remapped to 3.41 numbering. */
struct iosage_header {
    char version[9];     /* version text, e.g. "3.21" */
    int ver_major, ver_minor;
    int big_endian;      /* 1 if the writer was big-endian */
    int compression;     /* enum iosage_compression or another raw value */
    uint32_t header_size;     /* 360 or 1328 */
    uint64_t partial_flags;   /* bit k: module k incomplete (remapped) */
    uint64_t file_size;
    uint64_t job_len;         /* stored length of the job region (inferred) */
    struct iosage_region names;
    struct iosage_region modules[IOSAGE_MAX_MODULES];
};

struct iosage_mount {
    char *point;   /* mount point */
    char *fs_type; /* file system type */
};

/* The job record (up-converted to the 3.41 layout) and the text after it. */
struct iosage_job {
    int64_t uid;
    int64_t start_time_sec, start_time_nsec;
    int64_t end_time_sec, end_time_nsec;
    int64_t nprocs;
    int64_t jobid;
    char metadata[1025]; /* key=value lines, NUL-terminated */
    char *exe;           /* command line; "" when the text had no newline */
    size_t n_mounts;
    struct iosage_mount *mounts; /* sorted longest mount point first */
};

/* --- Records ----------------------------------------------------------- */

struct iosage_lustre_comp {
    int64_t stripe_size, stripe_count, stripe_pattern, flags;
    int64_t ext_start, ext_end, mirror_id;
    char *pool_name; /* NUL-terminated (may be "" ) */
};

struct iosage_dxt_segment {
    int64_t offset;
    int64_t length;
    double start_time; /* seconds since job start */
    double end_time;
    uint64_t pthread_id; /* 0 for record versions without thread ids */
};

/*
 * One record. counters/fcounters hold the module's int64 and double arrays
 * in the newest layout (iosage/counters.h gives names and indices); the union
 * holds what does not fit that shape. For modules without counter arrays
 * (LUSTRE, DXT_*, HEATMAP) n_counters and n_fcounters are 0.
 *
 * APMPI: the first record of the region is the header record
 * (x.apmpi.is_header = 1, no counters); every other record has 396 counters
 * (unsigned values stored in int64) and 240 fcounters: time[222],
 * sync_time[16], then MPI_TOTAL_COMM_TIME, MPI_TOTAL_COMM_SYNC_TIME.
 *
 * APXC (AutoPerf Cray XC routers): the first record is the header record
 * (x.apxc.is_header = 1) with 6 counters as stored: blades, chassis,
 * groups, memory mode, cluster mode (bit 31 of a mode set = not the same on
 * every node), application id. Every other record is one router with 396
 * counters (group, chassis, blade, node, then 392 unsigned port counters;
 * names in iosage/counters.h).
 */
struct iosage_record {
    int module;            /* enum iosage_module_id */
    uint32_t version;      /* record version as stored in the log */
    uint64_t id;           /* record id (usually a hash of the name) */
    int64_t rank;          /* -1 = shared record reduced over all ranks */
    int n_counters;
    int n_fcounters;
    int64_t *counters;
    double *fcounters;
    union {
        struct { /* H5D and PNETCDF_VAR */
            uint64_t file_rec_id;
        } file_ref;
        struct { /* DFS (oid unused) and DAOS */
            uint8_t pool_uuid[16];
            uint8_t cont_uuid[16];
            uint64_t oid_hi, oid_lo;
        } daos;
        struct {
            int64_t num_comps;   /* as reported (kept components, or the
                                    stored value when < 1) */
            int64_t num_stripes; /* OST ids in ost_ids */
            struct iosage_lustre_comp *comps; /* num_comps (if >= 1) */
            int64_t *ost_ids;
        } lustre;
        struct { /* DXT_POSIX, DXT_MPIIO */
            int64_t shared_record;
            const char *hostname; /* at most 64 bytes; NULL reads as "" */
            int64_t write_count, read_count;
            struct iosage_dxt_segment *segs; /* writes, then reads */
        } dxt;
        struct {
            double bin_width;
            int64_t nbins;
            int64_t *write_bins; /* nbins each */
            int64_t *read_bins;
        } heatmap;
        struct {
            int is_header;
            int64_t magic;         /* header only */
            uint32_t sync_flag;    /* header's flag, copied to every record */
            double variance_total_mpitime;     /* header only */
            double variance_total_mpisynctime; /* header only */
            const char *node_name; /* per-process records, at most 128
                                      bytes; NULL reads as "" */
        } apmpi;
        struct {
            int64_t n_servers; /* entries in server_hist */
            int64_t *server_hist;
        } mdhim;
        struct { /* APXC: see the record comment above */
            int is_header;
            int64_t magic;   /* header only: "AUTOPERF" as an int64 */
        } apxc;
    } x;
};
typedef struct iosage_record iosage_record;

/* One module region, decoded. */
struct iosage_module_data {
    int id;                 /* enum iosage_module_id */
    const char *name;       /* "POSIX", "MPI-IO", ... or "<UNKNOWN>" */
    uint32_t version;       /* stored record version */
    int partial;            /* partial bit set in the header */
    uint64_t stored_len;    /* compressed bytes */
    uint64_t data_len;      /* decompressed bytes */
    size_t n_records;
    iosage_record *records;
    /* What could not be read. status is IOSAGE_OK when the whole region
     * decoded; otherwise records[] holds what came before the problem and
     * err says what it was. skipped = 1 when the region was not decoded at
     * all (unknown module id, no decoder, version too new): notice says why. */
    iosage_status status;
    iosage_error err;
    int skipped;
    char notice[200];
    uint64_t trailing_bytes; /* bytes after the last whole record, ignored */
};
typedef struct iosage_module_data iosage_module_data;

/* --- Streaming reader -------------------------------------------------- */

typedef struct iosage_reader iosage_reader;

/* Open a log and read its header, job data and name table. flags is a set
 * of enum iosage_read_flags. On success *out is a reader owned by the caller
 * (iosage_reader_close). On failure *out is NULL and err says why. */
IOSAGE_API iosage_status iosage_reader_open(const char *path, int flags,
                                            iosage_reader **out,
                                            iosage_error *err);

/* The same on a log held in memory; buf must outlive the reader. name is used
 * in error messages. */
IOSAGE_API iosage_status iosage_reader_open_mem(const void *buf, size_t len,
                                                const char *name, int flags,
                                                iosage_reader **out,
                                                iosage_error *err);

IOSAGE_API const struct iosage_header *
iosage_reader_header(const iosage_reader *r);
IOSAGE_API const struct iosage_job *iosage_reader_job(const iosage_reader *r);

/* Name of record id, or NULL when the name table has no entry. */
IOSAGE_API const char *iosage_reader_name(const iosage_reader *r, uint64_t id);

/* Decode the next module region that has data or a partial flag, in
 * ascending id. *out is NULL at the end. The module data stays valid until
 * the next call. A problem inside a module is reported in (*out)->status and
 * is not a failure of this call; this call fails only on I/O or memory
 * errors. */
IOSAGE_API iosage_status iosage_reader_next_module(iosage_reader *r,
                                                   const iosage_module_data **out,
                                                   iosage_error *err);

IOSAGE_API void iosage_reader_close(iosage_reader *r);

/* --- Whole log ---------------------------------------------------------- */

struct iosage_name {
    uint64_t id;
    char *name;
};

typedef struct iosage_log {
    char path[256];
    struct iosage_header header;
    struct iosage_job job;
    size_t n_names;
    struct iosage_name *names;  /* merged table, first-seen order */
    /* modules[k] for k = 0..63; n_records 0 and stored_len 0 when absent */
    iosage_module_data modules[IOSAGE_MAX_MODULES];
    struct ios_log_private *priv; /* internal: arena and name index */
} iosage_log;

IOSAGE_API iosage_status iosage_log_load(const char *path, int flags,
                                         iosage_log **out, iosage_error *err);
IOSAGE_API iosage_status iosage_log_load_mem(const void *buf, size_t len,
                                             const char *name, int flags,
                                             iosage_log **out,
                                             iosage_error *err);
IOSAGE_API void iosage_log_free(iosage_log *log);

/* The stored bytes of the log file at path, for iosage_log_load_mem with
 * the same flags: *out (malloc'd, the caller frees it) holds *len bytes,
 * the file's size, plus a NUL. With IOSAGE_READ_NO_TRACES the trace regions
 * of a regular file are not read (their bytes in *out are undefined; the
 * loader never looks at them with that flag): in logs with DXT they are
 * most of the file. The same for the regions IOSAGE_READ_IO_ONLY leaves
 * out. iosage_log_load reads through this. */
IOSAGE_API iosage_status iosage_log_read_file(const char *path, int flags,
                                              uint8_t **out, size_t *len,
                                              iosage_error *err);

/* Name of record id in a loaded or built log, or NULL. */
IOSAGE_API const char *iosage_log_name(const iosage_log *log, uint64_t id);

/* --- Building and writing ------------------------------------------------ */

/* A new empty log (format 3.41, zlib) to fill and write; NULL on no memory. */
IOSAGE_API iosage_log *iosage_log_create(void);

/* Set the job record; exe and mounts are copied. */
IOSAGE_API iosage_status iosage_log_set_job(iosage_log *log,
                                            const struct iosage_job *job,
                                            iosage_error *err);

/* Add a name (copied). A second name for the same id is ignored. */
IOSAGE_API iosage_status iosage_log_add_name(iosage_log *log, uint64_t id,
                                             const char *name,
                                             iosage_error *err);

/* Append a copy of rec (deep: arrays, strings) to module rec->module. The
 * record must be in the newest layout of its module. */
IOSAGE_API iosage_status iosage_log_add_record(iosage_log *log,
                                               const iosage_record *rec,
                                               iosage_error *err);

/* Mark module id incomplete (sets its partial bit). */
IOSAGE_API void iosage_log_set_partial(iosage_log *log, int module);

/* Write log as a format 3.41 zlib log at path. The file appears atomically
 * (written to a temporary file beside it, then renamed); on failure no file
 * is left behind. Modules that were skipped when read (unknown ids, NULL,
 * versions newer than iosage reads) are not written. A module whose
 * records come rank by rank (shared, rank -1 records with rank 0's) gets
 * a zlib stream for each rank, as the Darshan runtime writes it; in any
 * other order one stream, as darshan-convert writes it. */
IOSAGE_API iosage_status iosage_log_write(const iosage_log *log,
                                          const char *path, iosage_error *err);

/* The same into a malloc'd buffer owned by the caller (free()). */
IOSAGE_API iosage_status iosage_log_write_mem(const iosage_log *log,
                                              uint8_t **out, size_t *out_len,
                                              iosage_error *err);

/* --- Module facts -------------------------------------------------------- */

/* Name as darshan-parser prints it ("POSIX", "MPI-IO", "H5F", ...); for ids
 * >= IOSAGE_MOD_KNOWN returns "<UNKNOWN>". */
IOSAGE_API const char *iosage_module_name(int module);

/* Newest record version iosage reads and writes for module, 0 if none. */
IOSAGE_API uint32_t iosage_module_max_version(int module);

/* Darshan's 64-bit record-id hash of name[0..len) (format spec 7.2). */
IOSAGE_API uint64_t iosage_darshan_hash(const void *name, size_t len);

#ifdef __cplusplus
}
#endif
#endif
