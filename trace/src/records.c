/*
 * records.c - where records live: path cleanup and exclusions, the mount
 * table (for the job record and FILE_ALIGNMENT), the per-layer record tables
 * keyed by record id, the descriptor table and the FILE * / MPI_File maps.
 *
 * Everything here except trc_records_init() runs with g_lock held.
 * Allocation happens only when a record, a descriptor chunk or a map entry
 * is created (opens), never on a data call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "iosage/counters.h"
#include "iosage/darshan.h"
#include "trace.h"

#define LUSTRE_SUPER_MAGIC_VALUE 0x0BD00BD0
#define DEFAULT_MAX_RECORDS 16384
#define MAP_BUCKETS 1024

/* --- exclusions ------------------------------------------------------------ */

/* Darshan's default exclusions: system directories whose files are not the
 * application's I/O. IOSAGE_TRACE_EXCLUDE adds colon-separated prefixes. */
static const char *const default_excl[] = {
    "/proc/", "/sys/", "/dev/", "/etc/", "/usr/", "/bin/", "/boot/",
    "/lib/", "/lib64/", "/opt/", "/sbin/", "/var/", NULL};
static char *user_excl;        /* copy of IOSAGE_TRACE_EXCLUDE, ':' -> NUL */
static size_t user_excl_len;   /* bytes in user_excl */

/* See trace.h. */
int trc_excluded(const char *clean)
{
    for (int i = 0; default_excl[i]; i++)
        if (strncmp(clean, default_excl[i], strlen(default_excl[i])) == 0)
            return 1;
    for (size_t i = 0; i < user_excl_len; i += strlen(user_excl + i) + 1) {
        size_t n = strlen(user_excl + i);
        if (n && strncmp(clean, user_excl + i, n) == 0)
            return 1;
    }
    return 0;
}

static void load_user_exclusions(void)
{
    const char *e = getenv("IOSAGE_TRACE_EXCLUDE");
    if (!e || !*e)
        return;
    user_excl_len = strlen(e) + 1;
    user_excl = malloc(user_excl_len);
    if (!user_excl) {
        user_excl_len = 0;
        return;
    }
    memcpy(user_excl, e, user_excl_len);
    for (char *p = user_excl; *p; p++)
        if (*p == ':')
            *p = '\0';
}

/* --- path cleanup ---------------------------------------------------------- */

/* The directory relative paths start from: the working directory, or the
 * directory dirfd refers to. 0 or -1. */
static int base_dir(int dirfd, char *out, size_t size)
{
    if (dirfd == AT_FDCWD)
        return getcwd(out, size) ? 0 : -1;
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
    ssize_t n = readlink(link, out, size - 1);
    if (n <= 0 || out[0] != '/')
        return -1;
    out[n] = '\0';
    return 0;
}

/* Append component comp[0..n) to out (length *len), handling "." and "..".
 * Returns 0, or -1 when out would overflow. */
static int push_component(char *out, size_t *len, const char *comp, size_t n)
{
    if (n == 0 || (n == 1 && comp[0] == '.'))
        return 0;
    if (n == 2 && comp[0] == '.' && comp[1] == '.') {
        while (*len > 0 && out[*len - 1] != '/')
            (*len)--;
        if (*len > 0)
            (*len)--; /* drop the slash too; "/.." stays "/" below */
        return 0;
    }
    if (*len + 1 + n + 1 > TRC_PATH_MAX)
        return -1;
    out[(*len)++] = '/';
    memcpy(out + *len, comp, n);
    *len += n;
    return 0;
}

/* Clean the components of src (absolute or relative) onto out. */
static int push_path(char *out, size_t *len, const char *src)
{
    while (*src) {
        while (*src == '/')
            src++;
        const char *end = strchrnul(src, '/');
        if (push_component(out, len, src, (size_t)(end - src)) != 0)
            return -1;
        src = end;
    }
    return 0;
}

/* See trace.h. Symlinks are not followed (lexical cleanup only). */
int trc_clean_path(int dirfd, const char *path, char *out)
{
    if (!path || !*path)
        return -1;
    size_t len = 0;
    if (path[0] != '/') {
        char base[TRC_PATH_MAX];
        if (base_dir(dirfd, base, sizeof base) != 0 ||
            push_path(out, &len, base) != 0)
            return -1;
    }
    if (push_path(out, &len, path) != 0)
        return -1;
    if (len == 0)
        out[len++] = '/';
    out[len] = '\0';
    return 0;
}

/* --- mount table ----------------------------------------------------------- */

static struct trc_mount *mounts;
static size_t n_mounts;

/* File systems left out of the job's mount table (format spec 6.3). */
static int pseudo_fs(const char *type)
{
    static const char *const skip[] = {
        "tmpfs", "proc", "sysfs", "devpts", "binfmt_misc", "fusectl",
        "debugfs", "securityfs", "nfsd", "none", "rpc_pipefs", "hugetlbfs",
        "cgroup", NULL};
    for (int i = 0; skip[i]; i++)
        if (strcmp(type, skip[i]) == 0)
            return 1;
    return 0;
}

/* Decode the octal escapes of /proc/self/mounts (\040 for a blank) in place. */
static void unescape(char *s)
{
    char *w = s;
    for (char *r = s; *r; r++) {
        if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' &&
            r[2] <= '7' && r[3] >= '0' && r[3] <= '7') {
            *w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
            r += 3;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
}

/* Add one mount; a later mount on the same point replaces the earlier type
 * (it hides it). Points with blanks cannot be stored in a log and are
 * skipped. */
static void add_mount(const char *point, const char *type)
{
    if (strpbrk(point, " \t\n") || strpbrk(type, " \t\n"))
        return;
    for (size_t i = 0; i < n_mounts; i++) {
        if (strcmp(mounts[i].point, point) == 0) {
            char *t = strdup(type);
            if (t) {
                free(mounts[i].type);
                mounts[i].type = t;
            }
            return;
        }
    }
    struct trc_mount *m = realloc(mounts, (n_mounts + 1) * sizeof *m);
    if (!m)
        return;
    mounts = m;
    m[n_mounts].point = strdup(point);
    m[n_mounts].type = strdup(type);
    m[n_mounts].block = 0;
    if (m[n_mounts].point && m[n_mounts].type)
        n_mounts++;
}

/* Read /proc/self/mounts: non-NFS file systems first, then NFS ones, each
 * group in table order (spec 6.3). */
static void load_mounts(void)
{
    for (int pass = 0; pass < 2; pass++) {
        FILE *fp = fopen("/proc/self/mounts", "r");
        if (!fp)
            return;
        char line[4096];
        while (fgets(line, sizeof line, fp)) {
            char dev[1024], point[1024], type[256];
            if (sscanf(line, "%1023s %1023s %255s", dev, point, type) != 3)
                continue;
            unescape(point);
            int is_nfs = strncmp(type, "nfs", 3) == 0;
            if (pseudo_fs(type) || is_nfs != pass)
                continue;
            add_mount(point, type);
        }
        fclose(fp);
    }
}

/* See trace.h. */
size_t trc_mounts(const struct trc_mount **out)
{
    *out = mounts;
    return n_mounts;
}

/* The recorded mount holding clean (longest matching point), or NULL. */
static struct trc_mount *mount_of(const char *clean)
{
    struct trc_mount *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < n_mounts; i++) {
        const char *p = mounts[i].point;
        size_t n = strlen(p);
        int match = strcmp(p, "/") == 0 ||
                    (strncmp(clean, p, n) == 0 &&
                     (clean[n] == '/' || clean[n] == '\0'));
        if (match && (!best || n > best_len)) {
            best = &mounts[i];
            best_len = n;
        }
    }
    return best;
}

/* See trace.h. statfs runs once per mount point. */
int64_t trc_file_alignment(const char *clean)
{
    struct trc_mount *m = mount_of(clean);
    if (!m)
        return -1;
    if (m->block == 0) {
        struct statfs sb;
        if (strcmp(m->type, "lustre") == 0)
            m->block = 1048576;
        else if (statfs(m->point, &sb) != 0)
            m->block = 4096;
        else if (sb.f_type == LUSTRE_SUPER_MAGIC_VALUE)
            m->block = 1048576;
        else
            m->block = sb.f_bsize > 0 ? (int64_t)sb.f_bsize : 4096;
    }
    return m->block;
}

/* --- record tables --------------------------------------------------------- */

struct layer_table {
    struct trc_rec **buckets; /* chains by id */
    size_t n_buckets;         /* power of two, 0 until first record */
    size_t n;                 /* records */
    struct trc_rec *head, *tail; /* creation order */
    int partial;              /* a record was refused at the limit */
};

static struct layer_table tables[TRC_NLAYERS];
static size_t max_records = DEFAULT_MAX_RECORDS;

/* See trace.h. */
int trc_module_id(int layer)
{
    static const int ids[TRC_NLAYERS] = {IOSAGE_MOD_POSIX, IOSAGE_MOD_MPIIO,
                                         IOSAGE_MOD_STDIO, IOSAGE_MOD_H5F,
                                         IOSAGE_MOD_H5D,
                                         IOSAGE_MOD_PNETCDF_FILE,
                                         IOSAGE_MOD_PNETCDF_VAR,
                                         IOSAGE_MOD_LUSTRE};
    return ids[layer];
}

/* See trace.h. */
int trc_layer_partial(int layer)
{
    return tables[layer].partial;
}

/* See trace.h. */
struct trc_rec *trc_rec_first(int layer)
{
    return tables[layer].head;
}

/* Double the bucket array (or create it). 0 or -1 on no memory. */
static int grow(struct layer_table *t)
{
    size_t nb = t->n_buckets ? t->n_buckets * 2 : 256;
    struct trc_rec **b = calloc(nb, sizeof *b);
    if (!b)
        return -1;
    for (struct trc_rec *r = t->head; r; r = r->lnext) {
        size_t k = (size_t)(r->id & (nb - 1));
        r->hnext = b[k];
        b[k] = r;
    }
    free(t->buckets);
    t->buckets = b;
    t->n_buckets = nb;
    return 0;
}

static struct trc_rec *find_id(const struct layer_table *t, uint64_t id)
{
    if (!t->n_buckets)
        return NULL;
    for (struct trc_rec *r = t->buckets[id & (t->n_buckets - 1)]; r;
         r = r->hnext)
        if (r->id == id)
            return r;
    return NULL;
}

/* See trace.h. */
struct trc_rec *trc_rec_find(int layer, const char *name)
{
    return find_id(&tables[layer], iosage_darshan_hash(name, strlen(name)));
}

/* Counters that start at a value other than 0. */
static void init_counters(struct trc_rec *r)
{
    if (r->layer != TRC_POSIX)
        return;
    r->c[IOSAGE_POSIX_MEM_ALIGNMENT] = 8;
    r->c[IOSAGE_POSIX_MMAPS] = -1; /* not counted, as by the runtime */
    r->c[IOSAGE_POSIX_FILE_ALIGNMENT] =
        r->name[0] == '/' ? trc_file_alignment(r->name) : -1;
}

/* See trace.h. */
struct trc_rec *trc_rec_get(int layer, const char *name)
{
    struct layer_table *t = &tables[layer];
    uint64_t id = iosage_darshan_hash(name, strlen(name));
    struct trc_rec *r = find_id(t, id);
    if (r)
        return r;
    if (t->n >= max_records) {
        t->partial = 1;
        return NULL;
    }
    if (t->n >= t->n_buckets && grow(t) != 0)
        return NULL;
    r = calloc(1, sizeof *r);
    if (!r || !(r->name = strdup(name)) ||
        ((layer == TRC_H5D || layer == TRC_PNCV) &&
         !(r->tuples = calloc(TRC_CANDIDATES, sizeof *r->tuples)))) {
        if (r)
            free(r->name);
        free(r);
        return NULL;
    }
    r->id = id;
    r->layer = layer;
    init_counters(r);
    size_t k = (size_t)(id & (t->n_buckets - 1));
    r->hnext = t->buckets[k];
    t->buckets[k] = r;
    if (t->tail)
        t->tail->lnext = r;
    else
        t->head = r;
    t->tail = r;
    t->n++;
    return r;
}

/* The per-record state after init_counters (everything but the links, id,
 * layer, name and the tuple array itself). */
static void clear_record(struct trc_rec *r)
{
    memset(r->c, 0, sizeof r->c);
    memset(r->f, 0, sizeof r->f);
    r->last_read_end = r->last_write_end = 0;
    r->last_op = 0;
    memset(r->busy_end, 0, sizeof r->busy_end);
    r->n_access = r->n_stride = 0;
    memset(r->access, 0, sizeof r->access);
    memset(r->stride, 0, sizeof r->stride);
    if (r->tuples)
        memset(r->tuples, 0, TRC_CANDIDATES * sizeof *r->tuples);
    r->n_tuples = 0;
    init_counters(r);
}

/* See trace.h. */
void trc_records_fork_reset(void)
{
    for (int l = 0; l < TRC_NLAYERS; l++) {
        for (struct trc_rec *r = tables[l].head; r; r = r->lnext)
            clear_record(r);
        tables[l].partial = 0;
    }
}

/* See trace.h. */
int trc_rec_pristine(const struct trc_rec *r)
{
    struct trc_rec fresh;
    memset(&fresh, 0, sizeof fresh);
    fresh.layer = r->layer;
    fresh.name = r->name;
    init_counters(&fresh);
    return memcmp(r->c, fresh.c, sizeof r->c) == 0 &&
           memcmp(r->f, fresh.f, sizeof r->f) == 0;
}

/* See trace.h. */
int trc_any_file_io(void)
{
    for (int l = 0; l < TRC_NLAYERS; l++)
        for (const struct trc_rec *r = tables[l].head; r; r = r->lnext)
            if (r->name[0] != '<' && !trc_rec_pristine(r))
                return 1;
    return 0;
}

/* --- descriptor table ------------------------------------------------------ */

struct trc_fd *_Atomic g_fd_chunks[TRC_FD_CHUNKS];

/* See trace.h. */
struct trc_fd *trc_fd_slot(int fd, int create)
{
    if (fd < 0 || fd >= TRC_FD_CHUNK * TRC_FD_CHUNKS)
        return NULL;
    struct trc_fd *ch = atomic_load_explicit(&g_fd_chunks[fd / TRC_FD_CHUNK],
                                             memory_order_acquire);
    if (!ch && create) {
        ch = calloc(TRC_FD_CHUNK, sizeof *ch);
        if (!ch)
            return NULL;
        atomic_store_explicit(&g_fd_chunks[fd / TRC_FD_CHUNK], ch,
                              memory_order_release);
    }
    return ch ? &ch[fd % TRC_FD_CHUNK] : NULL;
}

/* --- FILE * and MPI_File maps ---------------------------------------------- */

struct map_entry {
    const void *key;
    struct trc_ref ref;
    struct map_entry *next;
};

static struct map_entry *maps[TRC_NLAYERS][MAP_BUCKETS];

static size_t map_bucket(const void *key)
{
    uint64_t k = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ULL;
    return (size_t)(k >> 54) & (MAP_BUCKETS - 1);
}

/* See trace.h. */
struct trc_ref *trc_map_find(int layer, const void *key)
{
    for (struct map_entry *e = maps[layer][map_bucket(key)]; e; e = e->next)
        if (e->key == key)
            return &e->ref;
    return NULL;
}

/* See trace.h. Returns the existing entry when key is already mapped. */
struct trc_ref *trc_map_add(int layer, const void *key)
{
    struct trc_ref *ref = trc_map_find(layer, key);
    if (ref)
        return ref;
    struct map_entry *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    size_t b = map_bucket(key);
    e->key = key;
    e->next = maps[layer][b];
    maps[layer][b] = e;
    return &e->ref;
}

/* See trace.h. */
void trc_map_del(int layer, const void *key)
{
    struct map_entry **pp = &maps[layer][map_bucket(key)];
    while (*pp && (*pp)->key != key)
        pp = &(*pp)->next;
    if (*pp) {
        struct map_entry *e = *pp;
        *pp = e->next;
        free(e);
    }
}

/* --- init ------------------------------------------------------------------ */

/* See trace.h. */
void trc_records_init(void)
{
    const char *m = getenv("IOSAGE_TRACE_MAX_RECORDS");
    if (m && *m) {
        char *end;
        unsigned long long v = strtoull(m, &end, 10);
        if (*end == '\0' && v > 0)
            max_records = (size_t)v;
    }
    load_user_exclusions();
    load_mounts();
    /* the file system emulator's directory is a Lustre mount (lustre.c) */
    static char pfs_mount[TRC_PATH_MAX];
    trc_lustre_init();
    if (trc_lustre_mount(pfs_mount))
        add_mount(pfs_mount, "lustre");
}
