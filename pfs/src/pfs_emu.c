/*
 * pfs_emu.c - the emulator's process state: the switch, the job's shared
 * memory, the open-file table, layouts, the clock and sleeping.
 *
 * Environment (read once, when the library is loaded):
 *   IOSAGE_PFS_PROFILE   profile file (profiles/NAME.pfs)            required
 *   IOSAGE_PFS_MOUNT     the directory that behaves like the PFS  required
 *   IOSAGE_PFS_JOB       names the shared state of one job; default the
 *                        Open MPI job id, else the process alone
 *   IOSAGE_PFS_STATS     append one line of counters here at the end
 *   IOSAGE_PFS_SLEEP_US  sleep when the time debt passes this (default 100)
 *   IOSAGE_PFS_TMPDIR    when set, TMPDIR is set to the mount before the
 *                        program starts (programs that write under $TMPDIR)
 *   IOSAGE_PFS_VCLOCK    0: do not keep the per-process lateness a tracer
 *                        subtracts from its clock (pfs_query.c; default on)
 *   IOSAGE_PFS_DILATION  D >= 1: the model runs D times slower than the
 *                        clock (every cost x D), for when this machine
 *                        cannot move data as fast as the modelled file
 *                        system; bandwidths measured under it are D times
 *                        low, ratios between runs are kept (default 1)
 *
 * Each variable may also be given as OMPI_IOSAGE_PFS_...: mpirun passes
 * every OMPI_* variable to the ranks, which is how `iosage gen --pfs` and
 * `iosage validate --pfs` reach them (Open MPI refuses -x together with
 * mca_base_env_list, and those commands already use -x).
 *
 * Shared memory: one segment per job (/dev/shm/iosage-pfs-<job>), made by
 * the first process of the job, counted by reference, removed by the last.
 * Its mutex (process shared, robust) guards every use of the model.
 *
 * Sleeping: each emulated call adds what the model says it lasts, less
 * what the real call took, to the calling thread's time debt (which may
 * go negative: a real call slower than the model pays for later ones). When the
 * debt passes the threshold the thread sleeps to an absolute deadline
 * (1 ns timer slack) and carries any oversleep as negative debt, so many
 * microsecond costs add up to the right total without one sleep each.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "pfs_emu.h"

#define SEG_MAGIC 0x50465331u   /* "PFS1" */
#define MAX_FD 65536
#define LAYOUT_ATTR "user.iosage.stripe"

/* The job's shared memory. */
struct segment {
    _Atomic uint32_t ready;         /* SEG_MAGIC once initialized */
    pthread_mutex_t mu;             /* guards everything below but the sums */
    int32_t refs;                   /* processes attached */
    _Atomic uint64_t calls, sleeps; /* emulated calls, sleeps taken */
    _Atomic uint64_t model_ns;      /* what the model said the calls last */
    _Atomic uint64_t actual_ns;     /* what they lasted */
    _Atomic uint64_t excess_ns;     /* real calls' time beyond the model's */
    struct pfs_shared sh;
};

static int g_on;                         /* emulating */
static char g_mount[PATH_MAX];           /* mount path as given (absolute) */
static size_t g_mount_len;
static char g_mount_real[PATH_MAX];      /* the same with symlinks resolved */
static size_t g_mount_real_len;
static struct pfs_profile g_prof;
static struct segment *g_seg;
static char g_seg_name[256];             /* "" when private */
static char g_stats[PATH_MAX];
static double g_sleep_min = 100e-6;
static double g_dilation = 1.0;
static struct pfs_client g_client;
static struct pfs_file *g_files[MAX_FD];
static pthread_mutex_t g_fd_mu = PTHREAD_MUTEX_INITIALIZER;
/* How much longer than the model this process's emulated calls lasted, in
 * nanoseconds (negative while it owes sleep): what the virtual clock the
 * tracer reads leaves out. Kept only when g_vclock is set. */
static _Atomic int64_t g_late_ns;
static int g_vclock = 1;                 /* IOSAGE_PFS_VCLOCK=0: off */

static _Thread_local int tl_busy __attribute__((tls_model("initial-exec")));
static _Thread_local double tl_debt __attribute__((tls_model("initial-exec")));
static _Thread_local int tl_hint_count __attribute__((tls_model("initial-exec")));
static _Thread_local unsigned long long tl_hint_size
    __attribute__((tls_model("initial-exec")));

/* --- small things ------------------------------------------------------------ */

int pfs_active(void)
{
    return g_on && !tl_busy;
}

void pfs_enter(void)
{
    tl_busy++;
}

void pfs_leave(void)
{
    tl_busy--;
}

void *pfs_real(void *_Atomic *slot, const char *name)
{
    void *fn = atomic_load_explicit(slot, memory_order_acquire);
    if (fn)
        return fn;
    int saved = errno;
    fn = dlsym(RTLD_NEXT, name);
    if (fn)
        atomic_store_explicit(slot, fn, memory_order_release);
    errno = saved;
    return fn;
}

double pfs_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *pfs_mount_path(void)
{
    return g_on ? g_mount : NULL;
}

double pfs_late(void)
{
    return g_vclock ? (double)atomic_load(&g_late_ns) * 1e-9 : 0.0;
}

const struct pfs_profile *pfs_profile(void)
{
    return &g_prof;
}

struct pfs_shared *pfs_shared_state(void)
{
    return &g_seg->sh;
}

struct pfs_client *pfs_client_state(void)
{
    return &g_client;
}

void pfs_lock_model(void)
{
    if (pthread_mutex_lock(&g_seg->mu) == EOWNERDEAD)
        pthread_mutex_consistent(&g_seg->mu);  /* a rank died holding it */
}

void pfs_unlock_model(void)
{
    pthread_mutex_unlock(&g_seg->mu);
}

void pfs_set_hints(int stripe_count, unsigned long long stripe_size)
{
    tl_hint_count = stripe_count;
    tl_hint_size = stripe_size;
}

/* One line on stderr, "iosage-pfs: ...". */
static void say(const char *what, const char *detail)
{
    char line[PATH_MAX + 256];
    int n = snprintf(line, sizeof line, "iosage-pfs: %s%s%s\n", what,
                     detail ? ": " : "", detail ? detail : "");
    if (n > 0) {
        ssize_t w = write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
        (void)w;
    }
}

/* --- paths --------------------------------------------------------------- */

/* path made absolute into out (size PATH_MAX). 0 ok, -1 too long. */
static int absolute(const char *path, char *out)
{
    if (path[0] == '/')
        return snprintf(out, PATH_MAX, "%s", path) < PATH_MAX ? 0 : -1;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return -1;
    return snprintf(out, PATH_MAX, "%s/%s", cwd, path) < PATH_MAX ? 0 : -1;
}

/* 1 when absolute path abs is dir or below it. */
static int under(const char *abs, const char *dir, size_t len)
{
    return strncmp(abs, dir, len) == 0 && (abs[len] == '/' || abs[len] == '\0');
}

/* The mount may be a symbolic link to its backing directory (`iosage gen
 * --pfs` makes one, so that the paths programs see are not under /dev/shm,
 * which tracers leave out): paths through either count. */
int pfs_path_in_mount(const char *path)
{
    if (!path)
        return 0;
    if (path[0] == '/')
        return under(path, g_mount, g_mount_len) ||
               under(path, g_mount_real, g_mount_real_len);
    char abs[PATH_MAX];
    pfs_enter();
    int rc = absolute(path, abs);
    pfs_leave();
    return rc == 0 && (under(abs, g_mount, g_mount_len) ||
                       under(abs, g_mount_real, g_mount_real_len));
}

/* --- shared memory ---------------------------------------------------------- */

/* The job's name for the segment, from the environment; "" = private. */
static void job_segment_name(char *out, size_t size)
{
    const char *keys[] = {"IOSAGE_PFS_JOB", "OMPI_MCA_ess_base_jobid",
                          "PMIX_NAMESPACE"};
    const char *job = NULL;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0] && !job; i++) {
        job = getenv(keys[i]);
        if (job && !*job)
            job = NULL;
    }
    out[0] = '\0';
    if (!job)
        return;
    size_t n = (size_t)snprintf(out, size, "/iosage-pfs-%u-", (unsigned)getuid());
    for (const char *s = job; *s && n + 1 < size && n < 200; s++) {
        char ch = *s;
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                 (ch >= '0' && ch <= '9');
        out[n++] = ok ? ch : '_';
    }
    out[n] = '\0';
}

/* Fill a new segment. */
static void segment_init(struct segment *s)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
    pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
    pthread_mutex_init(&s->mu, &a);
    pthread_mutexattr_destroy(&a);
    s->refs = 0;
    atomic_store(&s->ready, SEG_MAGIC);
}

/* Attach to the job's segment, making it when this process is first.
 * Returns NULL (after saying why) on failure. */
static struct segment *segment_attach(void)
{
    size_t size = sizeof(struct segment);
    job_segment_name(g_seg_name, sizeof g_seg_name);
    if (!g_seg_name[0]) {
        struct segment *s = mmap(NULL, size, PROT_READ | PROT_WRITE,
                                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (s == MAP_FAILED)
            return NULL;
        segment_init(s);
        return s;
    }
    int made = 1;
    int fd = shm_open(g_seg_name, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0 && errno == EEXIST) {
        made = 0;
        fd = shm_open(g_seg_name, O_RDWR, 0600);
    }
    if (fd < 0) {
        say("cannot open shared memory", strerror(errno));
        return NULL;
    }
    if (made && ftruncate(fd, (off_t)size) < 0) {
        say("cannot size shared memory", strerror(errno));
        close(fd);
        return NULL;
    }
    /* a process that did not make it waits until it has its size */
    for (int i = 0; !made && i < 10000; i++) {
        struct stat st;
        if (fstat(fd, &st) == 0 && (size_t)st.st_size >= size)
            break;
        usleep(1000);
    }
    struct segment *s = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
                             fd, 0);
    close(fd);
    if (s == MAP_FAILED) {
        say("cannot map shared memory", strerror(errno));
        return NULL;
    }
    if (made)
        segment_init(s);
    for (int i = 0; atomic_load(&s->ready) != SEG_MAGIC && i < 10000; i++)
        usleep(1000);
    if (atomic_load(&s->ready) != SEG_MAGIC) {
        say("shared memory never became ready", g_seg_name);
        munmap(s, size);
        return NULL;
    }
    return s;
}

/* Append the job's counters to g_stats (the last process does this). */
static void write_stats(const struct segment *s)
{
    const struct pfs_counters *c = &s->sh.cnt;
    double model = (double)atomic_load(&s->model_ns) * 1e-9;
    double actual = (double)atomic_load(&s->actual_ns) * 1e-9;
    double excess = (double)atomic_load(&s->excess_ns) * 1e-9;
    char line[1024];
    /* drift: the whole difference; sleep_drift: without the time real
     * calls took beyond the model (the machine slower than the model) */
    int n = snprintf(line, sizeof line,
        "pfs profile=%s dilation=%g calls=%llu sleeps=%llu model_s=%.6f actual_s=%.6f "
        "drift_pct=%.2f excess_s=%.6f sleep_drift_pct=%.2f create=%llu open=%llu close=%llu stat=%llu "
        "unlink=%llu mkdir=%llu write_rpcs=%llu write_bytes=%llu "
        "read_rpcs=%llu read_bytes=%llu revocations=%llu commits=%llu "
        "cache_hits=%llu\n",
        g_prof.name, g_dilation, (unsigned long long)atomic_load(&s->calls),
        (unsigned long long)atomic_load(&s->sleeps), model, actual,
        model > 0 ? 100.0 * (actual - model) / model : 0.0, excess,
        model > 0 ? 100.0 * (actual - excess - model) / model : 0.0,
        (unsigned long long)c->md_ops[PFS_MD_CREATE],
        (unsigned long long)c->md_ops[PFS_MD_OPEN],
        (unsigned long long)c->md_ops[PFS_MD_CLOSE],
        (unsigned long long)c->md_ops[PFS_MD_STAT],
        (unsigned long long)c->md_ops[PFS_MD_UNLINK],
        (unsigned long long)c->md_ops[PFS_MD_MKDIR],
        (unsigned long long)c->write_rpcs, (unsigned long long)c->write_bytes,
        (unsigned long long)c->read_rpcs, (unsigned long long)c->read_bytes,
        (unsigned long long)c->revocations, (unsigned long long)c->commits,
        (unsigned long long)c->cache_hits);
    int fd = open(g_stats, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0 || n <= 0) {
        say("cannot write stats", g_stats);
        if (fd >= 0)
            close(fd);
        return;
    }
    ssize_t w = write(fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    (void)w;
    close(fd);
}

/* --- switching on and off ---------------------------------------------------- */

/* IOSAGE_PFS_<name>, else OMPI_IOSAGE_PFS_<name>, else NULL. */
static const char *setting(const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "IOSAGE_PFS_%s", name);
    const char *v = getenv(key);
    if (v && *v)
        return v;
    snprintf(key, sizeof key, "OMPI_IOSAGE_PFS_%s", name);
    v = getenv(key);
    return v && *v ? v : NULL;
}

/* Switch on from the environment; runs once (the constructor, or the
 * tracer's first question when its constructor runs before ours). */
static void pfs_init_once(void)
{
    const char *prof = setting("PROFILE");
    const char *mount = setting("MOUNT");
    if (!prof || !mount)
        return;
    tl_busy++;
    char err[256];
    if (pfs_profile_load(&g_prof, prof, err, sizeof err) < 0) {
        char what[PATH_MAX + 300];
        snprintf(what, sizeof what, "%s: %s", prof, err);
        say("bad profile", what);
        _exit(2);
    }
    if (!realpath(mount, g_mount_real) || absolute(mount, g_mount) < 0) {
        char what[PATH_MAX + 300];
        snprintf(what, sizeof what, "%s: %s", mount, strerror(errno));
        say("IOSAGE_PFS_MOUNT", what);
        _exit(2);
    }
    g_mount_len = strlen(g_mount);
    while (g_mount_len > 1 && g_mount[g_mount_len - 1] == '/')
        g_mount[--g_mount_len] = '\0';
    g_mount_real_len = strlen(g_mount_real);
    if (setting("TMPDIR"))
        setenv("TMPDIR", g_mount, 1);
    const char *stats = setting("STATS");
    if (stats)
        snprintf(g_stats, sizeof g_stats, "%s", stats);
    const char *slp = setting("SLEEP_US");
    if (slp)
        g_sleep_min = strtod(slp, NULL) * 1e-6;
    const char *dil = setting("DILATION");
    if (dil) {
        char *end;
        g_dilation = strtod(dil, &end);
        if (*end || !(g_dilation >= 1.0 && g_dilation <= 1e6)) {
            say("IOSAGE_PFS_DILATION must be a number from 1 to 1e6", dil);
            _exit(2);
        }
    }
    g_seg = segment_attach();
    if (g_seg) {
        pfs_lock_model();
        g_seg->refs++;
        pfs_unlock_model();
        g_client.id = (int32_t)getpid();
        prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
        const char *vc = setting("VCLOCK");
        g_vclock = !(vc && strcmp(vc, "0") == 0);
        g_on = 1;
    }
    tl_busy--;
}

void pfs_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, pfs_init_once);
}

__attribute__((constructor)) static void pfs_construct(void)
{
    pfs_init();
}

__attribute__((destructor)) static void pfs_fini(void)
{
    if (!g_on || getpid() != g_client.id)
        return;
    g_on = 0;
    tl_busy++;
    pfs_lock_model();
    int last = --g_seg->refs == 0;
    if (last && g_stats[0] && atomic_load(&g_seg->calls) > 0)
        write_stats(g_seg);
    pfs_unlock_model();
    if (last && g_seg_name[0])
        shm_unlink(g_seg_name);
    tl_busy--;
}

/* --- the clock and sleeping ------------------------------------------------- */

double pfs_vnow(double now)
{
    return (now + tl_debt) / g_dilation;
}

void pfs_settle(double t0, double t1, double model_cost)
{
    double cost = model_cost * g_dilation;
    /* The real call's own time counts toward the cost: the debt may go
     * negative (down to -2 ms) and pays for the next calls. */
    double real = t1 - t0;
    tl_debt += cost - real;
    if (tl_debt < -0.002)
        tl_debt = -0.002;
    int slept = 0;
    if (tl_debt > g_sleep_min) {
        double target = pfs_now() + tl_debt;
        struct timespec ts;
        ts.tv_sec = (time_t)target;
        ts.tv_nsec = (long)((target - (double)ts.tv_sec) * 1e9);
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
            ;
        tl_debt = target - pfs_now();   /* <= 0: overslept, carried */
        if (tl_debt < -0.002)
            tl_debt = -0.002;
        slept = 1;
    }
    double t2 = pfs_now();
    if (g_vclock)
        atomic_fetch_add(&g_late_ns, (int64_t)((t2 - t0 - cost) * 1e9));
    atomic_fetch_add(&g_seg->calls, 1);
    atomic_fetch_add(&g_seg->sleeps, (uint64_t)slept);
    atomic_fetch_add(&g_seg->model_ns, (uint64_t)(cost > 0 ? cost * 1e9 : 0));
    atomic_fetch_add(&g_seg->actual_ns, (uint64_t)((t2 - t0) * 1e9));
    if (real > cost)
        atomic_fetch_add(&g_seg->excess_ns, (uint64_t)((real - cost) * 1e9));
}

/* --- layouts ------------------------------------------------------------------ */

/* The directory default on the nearest directory of path (up to the mount)
 * into *count / *size. 0 found, -1 none. */
static int dir_default(const char *path, int *count, unsigned long long *size)
{
    char dir[PATH_MAX];
    if (absolute(path, dir) < 0)
        return -1;
    for (;;) {
        char *slash = strrchr(dir, '/');
        if (!slash || (size_t)(slash - dir) < g_mount_len)
            return -1;
        *slash = '\0';
        char val[64];
        ssize_t n = getxattr(dir, LAYOUT_ATTR, val, sizeof val - 1);
        if (n > 0) {
            val[n] = '\0';
            if (sscanf(val, "%d %llu", count, size) == 2)
                return 0;
        }
    }
}

/* The layout of a file this process just created on fd (path): the MPI
 * hints, else the directory default, else the profile's; stored on the
 * file unless another process stored one first. */
static struct pfs_layout new_layout(int fd, const char *path)
{
    int count = 0;
    unsigned long long size = 0;
    if (tl_hint_count || tl_hint_size) {
        count = tl_hint_count;
        size = tl_hint_size;
    } else if (dir_default(path, &count, &size) < 0) {
        count = 0;
        size = 0;
    }
    if (size && (size < 65536 || size % 65536))
        size = 0;
    pfs_lock_model();
    struct pfs_layout lay = pfs_layout_new(&g_prof, &g_seg->sh.srv, count, size);
    pfs_unlock_model();
    char val[64];
    int n = snprintf(val, sizeof val, "%d %llu %d", lay.stripe_count,
                     (unsigned long long)lay.stripe_size, lay.first_ost);
    if (fsetxattr(fd, LAYOUT_ATTR, val, (size_t)n, XATTR_CREATE) < 0 &&
        errno == EEXIST) {
        /* created by two processes at once: the first layout stands */
        n = (int)fgetxattr(fd, LAYOUT_ATTR, val, sizeof val - 1);
        if (n > 0) {
            val[n] = '\0';
            sscanf(val, "%d %llu %d", &lay.stripe_count, &size, &lay.first_ost);
            lay.stripe_size = size;
        }
    }
    return lay;
}

/* The layout of an existing file: its attribute, else what a new file in
 * its directory would get, on targets chosen by its inode. */
static struct pfs_layout old_layout(int fd, const char *path, uint64_t key)
{
    struct pfs_layout lay = {0, 0, 0};
    char val[64];
    ssize_t n = fgetxattr(fd, LAYOUT_ATTR, val, sizeof val - 1);
    unsigned long long size = 0;
    if (n > 0) {
        val[n] = '\0';
        /* "COUNT SIZE FIRST", or FIRST -1 / missing (set by `iosage pfs
         * setstripe`): the first target is chosen by the inode */
        lay.first_ost = -1;
        if (sscanf(val, "%d %llu %d", &lay.stripe_count, &size,
                   &lay.first_ost) >= 2)
            lay.stripe_size = size;
        if (lay.first_ost < 0)
            lay.first_ost = (int)(key % (uint64_t)g_prof.ost_count);
    }
    if (lay.stripe_size == 0) {
        int count = 0;
        if (dir_default(path, &count, &size) < 0)
            size = 0;
        lay.stripe_count = count ? count : g_prof.stripe_count;
        lay.stripe_size = size ? size : g_prof.stripe_size;
        lay.first_ost = (int)(key % (uint64_t)g_prof.ost_count);
    }
    /* a layout made under another profile: keep it within this one */
    if (lay.stripe_count <= 0 || lay.stripe_count > g_prof.ost_count)
        lay.stripe_count = g_prof.ost_count;
    if (lay.stripe_size < 65536 || lay.stripe_size % 65536)
        lay.stripe_size = g_prof.stripe_size;
    if (lay.first_ost < 0 || lay.first_ost >= g_prof.ost_count)
        lay.first_ost = 0;
    return lay;
}

/* --- open files ---------------------------------------------------------------- */

struct pfs_file *pfs_fd_open(int fd, const char *path, int created)
{
    if (fd < 0 || fd >= MAX_FD)
        return NULL;
    pfs_enter();
    struct stat st;
    struct pfs_file *f = NULL;
    /* the system call: a tracer preloaded first would count a library
     * fstat as the program's */
    if (syscall(SYS_fstat, fd, &st) == 0 && S_ISREG(st.st_mode)) {
        uint64_t key = ((uint64_t)st.st_dev << 40) ^ (uint64_t)st.st_ino;
        struct pfs_layout lay = created ? new_layout(fd, path)
                                        : old_layout(fd, path, key);
        f = malloc(sizeof *f);
        if (f) {
            pfs_file_init(f, key, &lay);
            pthread_mutex_lock(&g_fd_mu);
            free(g_files[fd]);
            g_files[fd] = f;
            pthread_mutex_unlock(&g_fd_mu);
        }
    }
    pfs_leave();
    return f;
}

struct pfs_file *pfs_fd_get(int fd)
{
    if (fd < 0 || fd >= MAX_FD)
        return NULL;
    return g_files[fd];
}

void pfs_fd_forget(int fd)
{
    if (fd < 0 || fd >= MAX_FD)
        return;
    pthread_mutex_lock(&g_fd_mu);
    free(g_files[fd]);
    g_files[fd] = NULL;
    pthread_mutex_unlock(&g_fd_mu);
}
