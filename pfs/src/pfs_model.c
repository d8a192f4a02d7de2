/*
 * pfs_model.c - the cost model (see pfs_model.h and docs/pfs.md).
 *
 * Every server serves one request at a time: a request arriving at t
 * takes the first idle stretch of the server's calendar after t long
 * enough for its service time (pfs_calendar_book). A client sends at most rpcs_in_flight
 * bulk RPCs at once; each crosses the client's link (client_mibs), half a
 * round trip of network, queues on its target (ost_*_rpc_us plus bytes at
 * the target's bandwidth) and comes back in the other half round trip.
 * On a profile with seeks (HDD targets), an RPC that does not start where
 * one of its target's recent streams ended, and any write smaller than a
 * whole RPC, also pays ost_*_seek_us.
 *
 * Writes go to the client's cache. Bytes that continue the previous write
 * in the same object merge into one RPC up to rpc_size; a full RPC is sent
 * at once and the write does not wait for it unless the client then holds
 * more than dirty_max bytes not yet on a target. fsync and close send
 * what is left and wait for all of it.
 *
 * Extent locks: a write takes the lock of each stripe (`chunk`) it
 * touches. When another client holds it, the holder's dirty bytes of that
 * stripe are flushed first and the lock moves (lock_revoke_us plus the
 * flush). Interleaved small writes of many clients to one stripe thus pay
 * a revocation and a small RPC each; whole stripes per client pay none.
 */
#include <string.h>

#include "pfs_model.h"

#define MIB (1024.0 * 1024.0)

static double max2(double a, double b)
{
    return a > b ? a : b;
}

/* --- setting up ------------------------------------------------------------ */

/* See pfs_model.h. */
void pfs_file_init(struct pfs_file *f, uint64_t key,
                   const struct pfs_layout *lay)
{
    memset(f, 0, sizeof *f);
    f->key = key;
    f->lay = *lay;
    f->part_obj = -1;
}

/* See pfs_model.h. */
struct pfs_layout pfs_layout_new(const struct pfs_profile *p,
                                 struct pfs_servers *srv, int stripe_count,
                                 uint64_t stripe_size)
{
    struct pfs_layout lay;
    if (stripe_count == 0)
        stripe_count = p->stripe_count;
    if (stripe_count < 0 || stripe_count > p->ost_count)
        stripe_count = p->ost_count;
    lay.stripe_count = stripe_count;
    lay.stripe_size = stripe_size ? stripe_size : p->stripe_size;
    lay.first_ost = (int)(srv->next_ost % (uint32_t)p->ost_count);
    /* the next file starts after this one's targets; a file on every
     * target moves the start by one, or every file would begin on the
     * same target */
    srv->next_ost += stripe_count % p->ost_count ? (uint32_t)stripe_count : 1;
    return lay;
}

/* --- servers --------------------------------------------------------------- */

/* Remove interval i of cal. */
static void calendar_drop(struct pfs_calendar *cal, int i)
{
    for (int k = i; k + 1 < cal->n; k++) {
        cal->start[k] = cal->start[k + 1];
        cal->end[k] = cal->end[k + 1];
    }
    cal->n--;
}

/* See pfs_model.h. */
double pfs_calendar_book(struct pfs_calendar *cal, double arrive, double dur)
{
    /* intervals that ended more than a second before are history */
    while (cal->n > 0 && cal->end[0] < arrive - 1.0)
        calendar_drop(cal, 0);
    /* the first gap after `arrive` that holds dur */
    double at = arrive;
    int pos = 0;
    while (pos < cal->n && at + dur > cal->start[pos]) {
        at = max2(at, cal->end[pos]);
        pos++;
    }
    /* insert [at, at+dur) at pos, joined to neighbours it touches */
    double end = at + dur;
    if (pos > 0 && cal->end[pos - 1] >= at - 1e-12) {
        cal->end[pos - 1] = max2(cal->end[pos - 1], end);
        pos--;
    } else {
        for (int k = cal->n; k > pos; k--) {
            cal->start[k] = cal->start[k - 1];
            cal->end[k] = cal->end[k - 1];
        }
        cal->start[pos] = at;
        cal->end[pos] = end;
        cal->n++;
    }
    if (pos + 1 < cal->n && cal->start[pos + 1] <= cal->end[pos] + 1e-12) {
        cal->end[pos] = max2(cal->end[pos], cal->end[pos + 1]);
        calendar_drop(cal, pos + 1);
    }
    /* full: give up the shortest gap */
    if (cal->n == PFS_BUSY) {
        int best = 0;
        for (int k = 1; k + 1 < cal->n; k++)
            if (cal->start[k + 1] - cal->end[k] <
                cal->start[best + 1] - cal->end[best])
                best = k;
        cal->end[best] = cal->end[best + 1];
        calendar_drop(cal, best + 1);
    }
    return end;
}

/* The earliest time a calendar could start a request arriving at t (for
 * choosing among metadata servers). */
static double calendar_free_at(const struct pfs_calendar *cal, double t)
{
    for (int k = 0; k < cal->n; k++)
        if (cal->end[k] > t && cal->start[k] <= t)
            return cal->end[k];
    return t;
}

/* See pfs_model.h. The request goes to the server that is free first. */
double pfs_md(const struct pfs_profile *p, struct pfs_shared *sh,
              enum pfs_md_op op, double t)
{
    double half = p->net_latency_us * 0.5e-6;
    int best = 0;
    for (int i = 1; i < p->mds_count; i++)
        if (calendar_free_at(&sh->srv.mds[i], t + half) <
            calendar_free_at(&sh->srv.mds[best], t + half))
            best = i;
    sh->cnt.md_ops[op]++;
    return pfs_calendar_book(&sh->srv.mds[best], t + half,
                             p->md_us[op] * 1e-6) + half;
}

/* The target holding object `obj` of a file. */
static int obj_ost(const struct pfs_profile *p, const struct pfs_file *f,
                   int obj)
{
    return (f->lay.first_ost + obj) % p->ost_count;
}

/* Whether an RPC of `bytes` at `off` of object `obj` of file `key`
 * starts where one of its target's streams ended; the stream moves on to
 * the RPC's end, or the RPC starts a new one in place of the oldest. */
static int stream_continues(struct pfs_streams *s, uint64_t key, int obj,
                            uint64_t off, uint64_t bytes)
{
    for (int i = 0; i < PFS_STREAMS; i++)
        if (s->file_key[i] == key && s->obj[i] == obj && s->end[i] == off) {
            s->end[i] = off + bytes;
            return 1;
        }
    uint32_t k = s->next++ % PFS_STREAMS;
    s->file_key[k] = key;
    s->obj[k] = obj;
    s->end[k] = off + bytes;
    return 0;
}

/* What one RPC of `bytes` costs target `ost`: the per-RPC overhead, the
 * bytes at the target's bandwidth and, on a profile with seeks, a seek
 * unless the RPC continues one of the target's streams (kept only on such
 * a profile). A write smaller than a whole RPC (rpc.size, or the stripe
 * when it is smaller) always pays the seek: a RAID6 target reads the old
 * data and parity of a partial stripe before writing it. */
static double rpc_service(const struct pfs_profile *p, struct pfs_shared *sh,
                          const struct pfs_file *f, int ost, int obj,
                          uint64_t obj_off, uint64_t bytes, int is_write)
{
    double bw = (is_write ? p->ost_write_mibs : p->ost_read_mibs) * MIB;
    double per_rpc = is_write ? p->ost_write_rpc_us : p->ost_read_rpc_us;
    double seek = is_write ? p->ost_write_seek_us : p->ost_read_seek_us;
    if (p->ost_write_seek_us > 0 || p->ost_read_seek_us > 0) {
        uint64_t whole = f->lay.stripe_size < p->rpc_size ? f->lay.stripe_size
                                                          : p->rpc_size;
        int continues = stream_continues(&sh->srv.ost_streams[ost], f->key,
                                         obj, obj_off, bytes);
        if (continues && !(is_write && bytes < whole))
            seek = 0;
    }
    return (per_rpc + seek) * 1e-6 + (double)bytes / bw;
}

/* Send one bulk RPC of `bytes` at `obj_off` of object `obj` of file f at
 * time t; returns when it completes. The client waits for a free slot
 * (its rpcs_in_flight-th last RPC) and for its link. */
static double send_rpc(const struct pfs_profile *p, struct pfs_shared *sh,
                       struct pfs_client *c, const struct pfs_file *f,
                       int obj, uint64_t obj_off, uint64_t bytes,
                       int is_write, double t)
{
    double half = p->net_latency_us * 0.5e-6;
    uint64_t m = (uint64_t)p->rpcs_in_flight;
    double start = t;
    if (c->nsent >= m)
        start = max2(start, c->ring[(c->nsent - m) % PFS_RING].done);
    start = max2(start, c->link_free);
    c->link_free = start + (double)bytes / (p->client_mibs * MIB);
    double arrive = c->link_free + half;
    int ost = obj_ost(p, f, obj);
    double done = pfs_calendar_book(&sh->srv.ost[ost], arrive,
                                    rpc_service(p, sh, f, ost, obj, obj_off,
                                                bytes, is_write)) + half;
    struct pfs_rpc *r = &c->ring[c->nsent % PFS_RING];
    r->done = done;
    r->bytes = is_write ? bytes : 0;
    c->nsent++;
    if (is_write) {
        sh->cnt.write_rpcs++;
        sh->cnt.write_bytes += bytes;
    } else {
        sh->cnt.read_rpcs++;
        sh->cnt.read_bytes += bytes;
    }
    return done;
}

/* When every RPC the client sent has completed. */
static double all_sent_done(const struct pfs_client *c)
{
    double last = 0;
    uint64_t n = c->nsent < PFS_RING ? c->nsent : PFS_RING;
    for (uint64_t i = 0; i < n; i++)
        last = max2(last, c->ring[(c->nsent - 1 - i) % PFS_RING].done);
    return last;
}

/* When the client holds at most `limit` write bytes not yet on a target,
 * counting `extra` unsent bytes, if it waits from t. The RPCs complete
 * roughly in the order they were sent, so walk them oldest first. */
static double dirty_below(const struct pfs_client *c, uint64_t limit,
                          uint64_t extra, double t)
{
    uint64_t n = c->nsent < PFS_RING ? c->nsent : PFS_RING;
    uint64_t held = extra;
    for (uint64_t i = 0; i < n; i++) {
        const struct pfs_rpc *r = &c->ring[(c->nsent - n + i) % PFS_RING];
        if (r->done > t)
            held += r->bytes;
    }
    for (uint64_t i = 0; i < n && held > limit; i++) {
        const struct pfs_rpc *r = &c->ring[(c->nsent - n + i) % PFS_RING];
        if (r->done > t) {
            held -= r->bytes;
            t = r->done;
        }
    }
    return t;
}

/* --- layout and locks -------------------------------------------------- */

/* The lock slot of stripe `chunk` of file `key` (taken over when another
 * lock had it). */
static struct pfs_lock *lock_slot(struct pfs_shared *sh, uint64_t key,
                                  int64_t chunk)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ull ^ (uint64_t)chunk * 0xff51afd7ed558ccdull;
    h ^= h >> 29;
    struct pfs_lock *l = &sh->locks[h % PFS_LOCK_SLOTS];
    if (l->file_key != key || l->chunk != chunk) {
        l->file_key = key;
        l->chunk = chunk;
        l->owner = 0;
        l->dirty = 0;
    }
    return l;
}

/* Take the lock of stripe `chunk` for client c at time t, revoking it
 * from its holder when needed (the holder's dirty bytes of the stripe
 * are flushed to the stripe's target first). Returns when c holds it. */
static double take_lock(const struct pfs_profile *p, struct pfs_shared *sh,
                        struct pfs_client *c, struct pfs_file *f,
                        int64_t chunk, double t)
{
    struct pfs_lock *l = lock_slot(sh, f->key, chunk);
    if (l->owner == c->id)
        return t;
    if (l->owner != 0) {
        double done = t + p->lock_revoke_us * 1e-6;
        if (l->dirty > 0) {
            int obj = (int)(chunk % f->lay.stripe_count);
            /* the holder sends its bytes; it is not this client, so its
             * RPC does not count against this client's slots */
            double half = p->net_latency_us * 0.5e-6;
            int ost = obj_ost(p, f, obj);
            /* where the holder's dirty bytes lie is not kept: the flush
             * is charged as a partial write (with a seek) */
            double flushed = pfs_calendar_book(
                &sh->srv.ost[ost], t + half,
                (p->ost_write_rpc_us + p->ost_write_seek_us) * 1e-6 +
                    (double)l->dirty / (p->ost_write_mibs * MIB));
            sh->cnt.write_rpcs++;
            sh->cnt.write_bytes += l->dirty;
            done = flushed + half + p->lock_revoke_us * 1e-6;
        }
        sh->cnt.revocations++;
        l->gen++;
        l->dirty = 0;
        t = done;
    }
    l->owner = c->id;
    return t;
}

/* --- writes ---------------------------------------------------------------- */

/* Send the extent being merged, unless a revocation already flushed it. */
static void send_partial(const struct pfs_profile *p, struct pfs_shared *sh,
                         struct pfs_client *c, struct pfs_file *f, double t)
{
    if (f->part_obj < 0)
        return;
    struct pfs_lock *l = lock_slot(sh, f->key, f->part_chunk);
    if (l->owner == c->id && l->gen == f->part_gen) {
        send_rpc(p, sh, c, f, f->part_obj, f->part_start, f->part_len, 1, t);
        l->dirty = 0;
    }
    f->part_obj = -1;
    f->part_len = 0;
}

/* Remember that [start, end) is in the cache from `ready`. */
static void cache_add(const struct pfs_profile *p, struct pfs_file *f,
                      uint64_t start, uint64_t end, double ready);

/* Write one piece that stays inside stripe `chunk`. */
static double write_piece(const struct pfs_profile *p, struct pfs_shared *sh,
                          struct pfs_client *c, struct pfs_file *f,
                          int64_t chunk, uint64_t in_stripe, uint64_t n,
                          double t)
{
    uint64_t ss = f->lay.stripe_size;
    int obj = (int)(chunk % f->lay.stripe_count);
    uint64_t obj_off = (uint64_t)(chunk / f->lay.stripe_count) * ss + in_stripe;
    t = take_lock(p, sh, c, f, chunk, t);
    struct pfs_lock *l = lock_slot(sh, f->key, chunk);
    int merges = f->part_obj == obj && f->part_start + f->part_len == obj_off &&
                 f->part_len + n <= p->rpc_size && f->part_gen == l->gen;
    if (!merges) {
        send_partial(p, sh, c, f, t);
        f->part_obj = obj;
        f->part_start = obj_off;
        f->part_len = 0;
        f->part_gen = l->gen;
    }
    f->part_len += n;
    f->part_chunk = chunk;
    l->dirty += n;
    if (f->part_len >= p->rpc_size)
        send_partial(p, sh, c, f, t);
    return t;
}

/* See pfs_model.h. */
double pfs_write(const struct pfs_profile *p, struct pfs_shared *sh,
                 struct pfs_client *c, struct pfs_file *f, uint64_t off,
                 uint64_t len, double t)
{
    uint64_t ss = f->lay.stripe_size, pos = off, end = off + len;
    while (pos < end) {
        int64_t chunk = (int64_t)(pos / ss);
        uint64_t in_stripe = pos % ss;
        uint64_t n = ss - in_stripe;
        if (n > end - pos)
            n = end - pos;
        t = write_piece(p, sh, c, f, chunk, in_stripe, n, t);
        pos += n;
    }
    if (len > 0) {
        f->wrote = 1;
        cache_add(p, f, off, end, t);
    }
    return dirty_below(c, p->dirty_max, f->part_obj >= 0 ? f->part_len : 0, t);
}

/* --- the cache and reads --------------------------------------------------- */

/* Drop the least recently used bytes until the file's cache is within the
 * client's cache size: whole ranges, the least recently used first, and of
 * the range that crosses the limit its first bytes. A range grows as a
 * stream moves forward (reads, read-ahead and writes that continue it
 * merge into it), so its start is its oldest part: a stream through a file
 * larger than the cache keeps its most recent cache-size bytes, as a page
 * cache does. (Dropping the whole range dropped the bytes just read ahead
 * with it, and every read of the stream fetched the window again.) */
static void cache_trim(const struct pfs_profile *p, struct pfs_file *f)
{
    for (;;) {
        uint64_t total = 0;
        int oldest = -1;
        for (int i = 0; i < f->ncache; i++) {
            total += f->cache[i].end - f->cache[i].start;
            if (oldest < 0 || f->cache[i].stamp < f->cache[oldest].stamp)
                oldest = i;
        }
        if (total <= p->cache_size || oldest < 0)
            return;
        struct pfs_range *r = &f->cache[oldest];
        uint64_t excess = total - p->cache_size;
        if (r->end - r->start > excess) {
            r->start += excess;
            return;
        }
        f->cache[oldest] = f->cache[--f->ncache];
    }
}

static void cache_add(const struct pfs_profile *p, struct pfs_file *f,
                      uint64_t start, uint64_t end, double ready)
{
    /* merge with a range it touches */
    for (int i = 0; i < f->ncache; i++) {
        struct pfs_range *r = &f->cache[i];
        if (start <= r->end && end >= r->start) {
            r->start = start < r->start ? start : r->start;
            r->end = end > r->end ? end : r->end;
            r->ready = max2(r->ready, ready);
            r->stamp = ++f->stamp;
            cache_trim(p, f);
            return;
        }
    }
    if (f->ncache == PFS_CACHE_RANGES) {
        int oldest = 0;
        for (int i = 1; i < f->ncache; i++)
            if (f->cache[i].stamp < f->cache[oldest].stamp)
                oldest = i;
        f->cache[oldest] = f->cache[--f->ncache];
    }
    f->cache[f->ncache++] = (struct pfs_range){start, end, ready, ++f->stamp};
    cache_trim(p, f);
}

/* The cached range holding byte `pos`, or NULL. */
static struct pfs_range *cache_find(struct pfs_file *f, uint64_t pos)
{
    for (int i = 0; i < f->ncache; i++)
        if (pos >= f->cache[i].start && pos < f->cache[i].end)
            return &f->cache[i];
    return NULL;
}

/* Fetch [start, end) into the cache with read RPCs (at most rpc_size,
 * never across a stripe), sent at t. Returns when the bytes up to
 * `need_end` are there. A writer's dirty bytes of a stripe are flushed
 * first (its lock is revoked). */
static double fetch(const struct pfs_profile *p, struct pfs_shared *sh,
                    struct pfs_client *c, struct pfs_file *f, uint64_t start,
                    uint64_t end, uint64_t need_end, double t)
{
    uint64_t ss = f->lay.stripe_size;
    double need_done = t;
    uint64_t pos = start;
    while (pos < end) {
        int64_t chunk = (int64_t)(pos / ss);
        uint64_t n = ss - pos % ss;
        if (n > end - pos)
            n = end - pos;
        if (n > p->rpc_size)
            n = p->rpc_size;
        struct pfs_lock *l = lock_slot(sh, f->key, chunk);
        double ts = t;
        if (l->owner != 0 && l->owner != c->id && l->dirty > 0)
            ts = take_lock(p, sh, c, f, chunk, t);
        int obj = (int)(chunk % f->lay.stripe_count);
        uint64_t obj_off =
            (uint64_t)(chunk / f->lay.stripe_count) * ss + pos % ss;
        double done = send_rpc(p, sh, c, f, obj, obj_off, n, 0, ts);
        cache_add(p, f, pos, pos + n, done);
        if (pos < need_end)
            need_done = max2(need_done, done);
        pos += n;
    }
    return need_done;
}

/* See pfs_model.h. */
double pfs_read(const struct pfs_profile *p, struct pfs_shared *sh,
                struct pfs_client *c, struct pfs_file *f, uint64_t off,
                uint64_t len, uint64_t file_size, double t)
{
    if (off >= file_size || len == 0)
        return t + p->net_latency_us * 1e-6 * (off >= file_size && len > 0);
    uint64_t end = off + len > file_size ? file_size : off + len;
    /* read-ahead: the window doubles while the reads stay sequential */
    if (off == f->last_read_end && off > 0) {
        uint64_t w = f->ra_window ? 2 * f->ra_window : (1u << 20);
        f->ra_window = w > p->readahead_max ? p->readahead_max : w;
    } else {
        f->ra_window = 0;
    }
    f->last_read_end = end;
    uint64_t want_end = end + f->ra_window;
    if (want_end > file_size)
        want_end = file_size;
    double done = t;
    int missed = 0;
    uint64_t pos = off;
    while (pos < want_end) {
        struct pfs_range *r = cache_find(f, pos);
        if (r) {
            if (pos < end)
                done = max2(done, r->ready);
            r->stamp = ++f->stamp;
            pos = r->end;
            continue;
        }
        /* the uncached stretch up to the next cached byte */
        uint64_t stop = want_end;
        for (int i = 0; i < f->ncache; i++)
            if (f->cache[i].start > pos && f->cache[i].start < stop)
                stop = f->cache[i].start;
        done = max2(done, fetch(p, sh, c, f, pos, stop, end, t));
        if (pos < end)
            missed = 1;
        pos = stop;
    }
    if (!missed)
        sh->cnt.cache_hits++;
    return done;
}

/* --- fsync and close ------------------------------------------------------- */

/* See pfs_model.h. */
double pfs_fsync(const struct pfs_profile *p, struct pfs_shared *sh,
                 struct pfs_client *c, struct pfs_file *f, double t)
{
    double half = p->net_latency_us * 0.5e-6;
    send_partial(p, sh, c, f, t);
    t = max2(t, all_sent_done(c));
    if (!f->wrote)
        return t + 2 * half;
    double done = t + 2 * half;
    for (int i = 0; i < f->lay.stripe_count; i++) {
        int ost = obj_ost(p, f, i);
        double end = pfs_calendar_book(&sh->srv.ost[ost], t + half,
                                       p->ost_commit_us * 1e-6);
        done = max2(done, end + half);
        sh->cnt.commits++;
    }
    f->wrote = 0;
    return done;
}

/* See pfs_model.h. */
double pfs_close(const struct pfs_profile *p, struct pfs_shared *sh,
                 struct pfs_client *c, struct pfs_file *f, double t)
{
    send_partial(p, sh, c, f, t);
    t = max2(t, all_sent_done(c));
    return pfs_md(p, sh, PFS_MD_CLOSE, t);
}
