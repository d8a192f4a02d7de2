/*
 * pfs_model.h - the cost model of the Lustre-like file system emulator.
 *
 * Everything in this header is a pure function of its arguments: a profile
 * (the machine), the shared server state (when each metadata server and
 * object storage target is next free), the state of one client (one
 * process: its RPCs in flight, its cache) and of one open file, and the
 * time an operation arrives. Each call returns the time the operation
 * completes and updates the states. The preload library (pfs_wrap.c) calls
 * these with the real clock and sleeps; the unit tests call them with a
 * made-up clock and check the numbers. docs/pfs.md describes the model and
 * where every figure of the profiles comes from.
 *
 * Times are seconds (double) on one clock shared by every process of a job
 * (CLOCK_MONOTONIC in the library). Sizes are bytes.
 */
#ifndef IOSAGE_PFS_MODEL_H
#define IOSAGE_PFS_MODEL_H

#include <stddef.h>
#include <stdint.h>

#define PFS_MAX_MDS 16         /* metadata servers */
#define PFS_MAX_OST 1024       /* object storage targets */
#define PFS_RING 256           /* RPCs a client remembers (in flight or done) */
#define PFS_CACHE_RANGES 16    /* cached ranges remembered per open file */
#define PFS_LOCK_SLOTS 65536   /* extent locks remembered job wide */
#define PFS_MAX_STRIPES 1024   /* stripe_count limit */
#define PFS_BUSY 16            /* busy intervals remembered per server */
#define PFS_STREAMS 16         /* sequential streams a target keeps track of */

/* Metadata operations, each with its own service time on a server. */
enum pfs_md_op {
    PFS_MD_CREATE,
    PFS_MD_OPEN,
    PFS_MD_CLOSE,
    PFS_MD_STAT,
    PFS_MD_UNLINK,
    PFS_MD_MKDIR,
    PFS_MD_RMDIR,
    PFS_MD_RENAME,
    PFS_MD_NOPS
};

/* A machine, as read from a profiles/NAME.pfs file (pfs_profile.c). */
struct pfs_profile {
    char name[64];
    /* metadata servers */
    int mds_count;                  /* servers (DNE); ops go to the first free */
    double md_us[PFS_MD_NOPS];      /* service time per operation, microseconds */
    /* network */
    double net_latency_us;          /* client <-> server round trip */
    double client_mibs;             /* a client's link, MiB/s */
    /* object storage targets */
    int ost_count;
    double ost_write_mibs;          /* per target */
    double ost_read_mibs;
    double ost_write_rpc_us;        /* per-RPC service overhead on the target */
    double ost_read_rpc_us;
    double ost_write_seek_us;       /* added to an RPC that continues none of
                                     * its target's streams (0: no seeks) */
    double ost_read_seek_us;
    double ost_commit_us;           /* a commit (fsync) on the target */
    uint64_t rpc_size;              /* largest bulk RPC */
    int rpcs_in_flight;             /* per client */
    double lock_revoke_us;          /* callback + cancel + re-enqueue, beyond flushing */
    /* client cache */
    uint64_t dirty_max;             /* dirty bytes a client may hold */
    uint64_t cache_size;            /* cached bytes a client keeps for re-reads */
    uint64_t readahead_max;         /* largest read-ahead window */
    /* default layout */
    int stripe_count;               /* -1: every target */
    uint64_t stripe_size;
};

/* One server's calendar: the intervals it is busy, sorted by start. A
 * request takes the first gap long enough after it arrives, so a request
 * booked for later (a client waiting for a free RPC slot) does not keep
 * an earlier one from using the idle time before it. When the calendar
 * is full, the shortest gap is given up (counted busy). */
struct pfs_calendar {
    int n;
    double start[PFS_BUSY], end[PFS_BUSY];
};

/* Where a target's recent RPCs ended: an RPC that starts where one of
 * them ended (same file, same object) continues that stream and needs no
 * seek. The oldest stream is forgotten first. */
struct pfs_streams {
    uint64_t file_key[PFS_STREAMS];
    int32_t obj[PFS_STREAMS];
    uint64_t end[PFS_STREAMS];
    uint32_t next;                  /* the slot a new stream takes */
};

/* The servers, shared by every process of a job (in shared memory). */
struct pfs_servers {
    struct pfs_calendar mds[PFS_MAX_MDS];
    struct pfs_calendar ost[PFS_MAX_OST];
    struct pfs_streams ost_streams[PFS_MAX_OST];
    uint32_t next_ost;              /* round-robin start of the next new file */
};

/* One extent lock: the stripe `chunk` of file `file_key`, held by `owner`
 * (a process id; 0 = nobody), which has `dirty` bytes of it not yet sent.
 * `gen` counts revocations, so the owner can tell its dirty data was
 * flushed by someone else. Kept in a table indexed by a hash: a slot taken
 * by another lock is simply reused (the old lock is forgotten). */
struct pfs_lock {
    uint64_t file_key;
    int64_t chunk;
    int32_t owner;
    uint32_t gen;
    uint64_t dirty;
};

/* Job-wide counters (in shared memory too) for the stats line. */
struct pfs_counters {
    uint64_t md_ops[PFS_MD_NOPS];
    uint64_t write_rpcs, read_rpcs, write_bytes, read_bytes;
    uint64_t revocations, commits, cache_hits;
};

/* All job-wide state the model touches. */
struct pfs_shared {
    struct pfs_servers srv;
    struct pfs_counters cnt;
    struct pfs_lock locks[PFS_LOCK_SLOTS];
};

/* One RPC a client sent: when it completes and how many bytes it carries. */
struct pfs_rpc {
    double done;
    uint64_t bytes;
};

/* One client (process). */
struct pfs_client {
    int32_t id;                     /* owner id in the lock table (pid) */
    struct pfs_rpc ring[PFS_RING];  /* the last RPCs sent, oldest first */
    uint64_t nsent;                 /* RPCs sent so far (ring index = nsent % PFS_RING) */
    double link_free;               /* when the client's link is next idle */
};

/* A file's layout: stripe_count objects on consecutive targets from
 * first_ost, stripe_size bytes each in turn. */
struct pfs_layout {
    int stripe_count;
    uint64_t stripe_size;
    int first_ost;
};

/* A range of a file the client holds in its cache, valid from `ready`. */
struct pfs_range {
    uint64_t start, end;
    double ready;
    uint64_t stamp;                 /* last use, for eviction */
};

/* One open file of a client. */
struct pfs_file {
    uint64_t key;                   /* identifies the file job wide (device, inode) */
    struct pfs_layout lay;
    /* the dirty extent being merged: object bytes [obj_start, obj_start+len) */
    int part_obj;
    uint64_t part_start, part_len;
    int64_t part_chunk;             /* lock chunk it belongs to */
    uint32_t part_gen;              /* that lock's gen when it was started */
    int wrote;                      /* writes since the last commit */
    /* cache and read-ahead */
    struct pfs_range cache[PFS_CACHE_RANGES];
    int ncache;
    uint64_t stamp;
    uint64_t last_read_end;
    uint64_t ra_window;
};

/* --- setting up ------------------------------------------------------------ */

/* Defaults for every field (a small HDD Lustre), before a profile is read. */
void pfs_profile_defaults(struct pfs_profile *p);

/* Read profile text (`key = value` lines, `#` comments) into p, over the
 * defaults. On error returns -1 and writes "line N: what is wrong" into
 * err (size errsize). */
int pfs_profile_parse(struct pfs_profile *p, const char *text, char *err,
                      size_t errsize);

/* Read the profile file at path (pfs_profile_parse after reading it). */
int pfs_profile_load(struct pfs_profile *p, const char *path, char *err,
                     size_t errsize);

/* The name of a metadata operation as profiles spell it ("create"...). */
const char *pfs_md_name(enum pfs_md_op op);

/* Fill f for a file with layout lay and key key (nothing cached). */
void pfs_file_init(struct pfs_file *f, uint64_t key,
                   const struct pfs_layout *lay);

/* The layout of a new file: stripe_count (-1 or 0: the profile default, or
 * every target when the default is -1) and stripe_size (0: default), on
 * targets starting at the servers' round-robin position. */
struct pfs_layout pfs_layout_new(const struct pfs_profile *p,
                                 struct pfs_servers *srv, int stripe_count,
                                 uint64_t stripe_size);

/* Book `dur` seconds on calendar cal for a request arriving at `arrive`;
 * returns when the service ends. */
double pfs_calendar_book(struct pfs_calendar *cal, double arrive, double dur);

/* --- the operations: each returns when it completes -------------------- */

/* A metadata operation arriving at time t. */
double pfs_md(const struct pfs_profile *p, struct pfs_shared *sh,
              enum pfs_md_op op, double t);

/* write(off, len) at time t: into the client's cache, sending full RPCs
 * and waiting only when the client holds more than dirty_max. */
double pfs_write(const struct pfs_profile *p, struct pfs_shared *sh,
                 struct pfs_client *c, struct pfs_file *f, uint64_t off,
                 uint64_t len, double t);

/* read(off, len) at time t of a file of file_size bytes: from the cache
 * when it holds the bytes, otherwise RPCs (with read-ahead when the reads
 * are sequential). */
double pfs_read(const struct pfs_profile *p, struct pfs_shared *sh,
                struct pfs_client *c, struct pfs_file *f, uint64_t off,
                uint64_t len, uint64_t file_size, double t);

/* fsync at time t: send the dirty data, wait for every RPC, and one
 * commit on each target of the file when it was written since the last. */
double pfs_fsync(const struct pfs_profile *p, struct pfs_shared *sh,
                 struct pfs_client *c, struct pfs_file *f, double t);

/* close at time t: send the dirty data, wait for it, and a close on the
 * metadata server. */
double pfs_close(const struct pfs_profile *p, struct pfs_shared *sh,
                 struct pfs_client *c, struct pfs_file *f, double t);

#endif
