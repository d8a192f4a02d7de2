/*
 * src/advise/summary.c - the "job", "summary" and "charts" sections of the
 * report document (docs/report.md).
 *
 * MPI-IO hints come from the job's metadata lines: Darshan keeps the hints
 * it was given in the "h" key ("h=romio_no_indep_rw=true;cb_nodes=4"), and
 * some logs hold them as a line of their own ("romio_no_indep_rw=true;
 * cb_nodes=4"); each "key=value" item separated by ';' is one hint.
 * Lustre striping comes from the LUSTRE module's records (widest component
 * of each file). File systems are the mounts that hold the job's files
 * (longest matching mount point).
 */
#include <string.h>

#include "internal.h"

#define MAX_HINTS 32

/* --- job --------------------------------------------------------------------- */

static int log_partial(const iosage_log *log)
{
    if (log->header.partial_flags)
        return 1;
    for (int m = 0; m < IOSAGE_MAX_MODULES; m++)
        if (log->modules[m].status != IOSAGE_OK)
            return 1;
    return 0;
}

static json_t *job_json(const iosage_log *log, const iosage_file_table *t)
{
    const struct iosage_job *j = &log->job;
    json_t *o = json_object();
    int bad = !o;
    bad |= ios_json_set(o, "job_id", json_integer(j->jobid));
    bad |= ios_json_set(o, "uid", json_integer(j->uid));
    bad |= ios_json_set(o, "exe", ios_json_str(j->exe ? j->exe : ""));
    bad |= ios_json_set(o, "nprocs", json_integer(t->job.nprocs));
    bad |= ios_json_set(o, "start_time", json_integer(j->start_time_sec));
    bad |= ios_json_set(o, "end_time", json_integer(j->end_time_sec));
    bad |= ios_json_set(o, "run_time", ios_json_real(t->job.run_time));
    bad |= ios_json_set(o, "darshan_version", ios_json_str(log->header.version));
    bad |= ios_json_set(o, "partial", json_boolean(log_partial(log)));
    bad |= ios_json_set(o, "records_left_out",
                        json_integer(t->job.impossible_records));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* --- summary ------------------------------------------------------------------ */

/* Append the ';'-separated key=value items of s[0 .. n) to arr. */
static int add_hints(json_t *arr, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && json_array_size(arr) < MAX_HINTS) {
        size_t j = i;
        while (j < n && s[j] != ';')
            j++;
        while (i < j && s[i] == ' ')
            i++;
        size_t e = j;
        while (e > i && s[e - 1] == ' ')
            e--;
        if (memchr(s + i, '=', e - i)) {
            char item[200];
            snprintf(item, sizeof item, "%.*s", (int)(e - i), s + i);
            if (json_array_append_new(arr, ios_json_str(item)) != 0)
                return -1;
        }
        i = j + 1;
    }
    return 0;
}

static int hint_key(const char *k)
{
    return strncmp(k, "romio_", 6) == 0 || strncmp(k, "cb_", 3) == 0 ||
           strncmp(k, "striping_", 9) == 0 || strncmp(k, "ind_", 4) == 0;
}

static json_t *mpiio_hints(const iosage_log *log)
{
    json_t *arr = json_array();
    const char *p = log->job.metadata;
    while (arr && *p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        const char *eq = memchr(p, '=', n);
        if (eq) {
            char key[64];
            size_t kn = (size_t)(eq - p);
            snprintf(key, sizeof key, "%.*s", (int)(kn < 63 ? kn : 63), p);
            while (kn > 0 && key[kn - 1] == ' ')
                key[--kn] = '\0';
            int rc = 0;
            if (strcmp(key, "h") == 0)
                rc = add_hints(arr, eq + 1, n - kn - 1);
            else if (hint_key(key))
                rc = add_hints(arr, p, n);
            if (rc != 0) {
                json_decref(arr);
                return NULL;
            }
        }
        p += n + (e != NULL);
    }
    return arr;
}

static json_t *modules_json(const iosage_log *log)
{
    json_t *arr = json_array();
    for (int m = 0; arr && m < IOSAGE_MAX_MODULES; m++)
        if (log->modules[m].n_records > 0 &&
            json_array_append_new(arr, ios_json_str(iosage_module_name(m))) != 0) {
            json_decref(arr);
            return NULL;
        }
    return arr;
}

/* The mount that holds path, or -1. Mounts are sorted longest first. */
static int mount_of(const struct iosage_job *j, const char *path)
{
    for (size_t i = 0; i < j->n_mounts; i++) {
        const char *pt = j->mounts[i].point;
        size_t n = pt ? strlen(pt) : 0;
        if (n == 0 || strncmp(path, pt, n) != 0)
            continue;
        if (path[n] == '/' || path[n] == '\0' || pt[n - 1] == '/')
            return (int)i;
    }
    return -1;
}

static json_t *file_systems(const iosage_log *log, const iosage_file_table *t)
{
    json_t *arr = json_array();
    size_t n = log->job.n_mounts;
    unsigned char seen[256] = {0};
    for (size_t i = 0; arr && i < t->n_rows; i++) {
        const struct iosage_file_row *r = &t->rows[i];
        if (r->flags & IOSAGE_FILE_STREAM)
            continue;
        int m = mount_of(&log->job, r->path);
        if (m < 0 || (size_t)m >= n || m >= 256 || seen[m])
            continue;
        seen[m] = 1;
        const struct iosage_mount *mt = &log->job.mounts[m];
        if (json_array_append_new(arr, json_pack("{s:o,s:o}", "mount",
                                  ios_json_str(mt->point), "type",
                                  ios_json_str(mt->fs_type))) != 0) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

static json_t *lustre_json(const iosage_log *log)
{
    const iosage_module_data *md = &log->modules[IOSAGE_MOD_LUSTRE];
    int64_t files = 0, cmin = 0, cmax = 0, smin = 0, smax = 0;
    for (size_t i = 0; i < md->n_records; i++) {
        const iosage_record *r = &md->records[i];
        if (r->x.lustre.num_comps < 1 || !r->x.lustre.comps)
            continue;
        const struct iosage_lustre_comp *w = &r->x.lustre.comps[0];
        for (int64_t c = 1; c < r->x.lustre.num_comps; c++)
            if (r->x.lustre.comps[c].stripe_count > w->stripe_count)
                w = &r->x.lustre.comps[c];
        if (files == 0 || w->stripe_count < cmin)
            cmin = w->stripe_count;
        if (files == 0 || w->stripe_count > cmax)
            cmax = w->stripe_count;
        if (files == 0 || w->stripe_size < smin)
            smin = w->stripe_size;
        if (files == 0 || w->stripe_size > smax)
            smax = w->stripe_size;
        files++;
    }
    if (files == 0)
        return json_null();
    return json_pack("{s:I,s:I,s:I,s:I,s:I}", "files", (json_int_t)files,
                     "stripe_count_min", (json_int_t)cmin, "stripe_count_max",
                     (json_int_t)cmax, "stripe_size_min", (json_int_t)smin,
                     "stripe_size_max", (json_int_t)smax);
}

static json_t *summary_json(const iosage_log *log, const iosage_file_table *t)
{
    const struct iosage_job_summary *j = &t->job;
    int64_t br = 0, bw = 0;
    for (size_t i = 0; i < t->n_rows; i++)
        if (ios_row_top(&t->rows[i])) {
            br = ios_sadd(br, t->rows[i].bytes_read);
            bw = ios_sadd(bw, t->rows[i].bytes_written);
        }
    json_t *o = json_object();
    int bad = !o;
    bad |= ios_json_set(o, "io_time", ios_json_real(j->io_time));
    bad |= ios_json_set(o, "io_time_share", ios_json_real(ios_share(j->rank_time_max,
                                                          j->run_time)));
    bad |= ios_json_set(o, "read_time", ios_json_real(j->read_time));
    bad |= ios_json_set(o, "write_time", ios_json_real(j->write_time));
    bad |= ios_json_set(o, "meta_time", ios_json_real(j->meta_time));
    bad |= ios_json_set(o, "bytes_read", json_integer(br));
    bad |= ios_json_set(o, "bytes_written", json_integer(bw));
    bad |= ios_json_set(o, "files", json_integer(j->files));
    bad |= ios_json_set(o, "data_files", json_integer(j->data_files));
    bad |= ios_json_set(o, "modules", modules_json(log));
    bad |= ios_json_set(o, "file_systems", file_systems(log, t));
    bad |= ios_json_set(o, "mpiio_hints", mpiio_hints(log));
    bad |= ios_json_set(o, "lustre", lustre_json(log));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* --- charts ------------------------------------------------------------------- */

static json_t *bins_json(const int64_t *v)
{
    json_t *arr = json_array();
    for (int i = 0; arr && i < IOS_N_BINS; i++)
        if (json_array_append_new(arr, json_integer(v[i])) != 0) {
            json_decref(arr);
            return NULL;
        }
    return arr;
}

static json_t *request_sizes(const iosage_file_table *t)
{
    static const char *const names[IOS_N_BINS] = {
        "0-100", "100-1K", "1K-10K", "10K-100K", "100K-1M", "1M-4M",
        "4M-10M", "10M-100M", "100M-1G", "1G+"};
    const struct ios_ft_extra *x = &t->priv->extra;
    int layer = 0; /* POSIX (+DFS), else MPI-IO */
    int64_t any = 0;
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < IOS_N_BINS; i++)
            any |= x->size_bins[0][d][i];
    if (!any)
        layer = 1;
    json_t *bins = json_array();
    for (int i = 0; bins && i < IOS_N_BINS; i++)
        if (json_array_append_new(bins, json_string(names[i])) != 0) {
            json_decref(bins);
            bins = NULL;
        }
    return json_pack("{s:o,s:o,s:o}", "bins", bins, "read",
                     bins_json(x->size_bins[layer][0]), "write",
                     bins_json(x->size_bins[layer][1]));
}

int adv_add_job_summary(json_t *doc, const iosage_log *log,
                        const iosage_file_table *t)
{
    int bad = ios_json_set(doc, "job", job_json(log, t));
    bad |= ios_json_set(doc, "summary", summary_json(log, t));
    bad |= ios_json_set(doc, "charts", json_pack("{s:o,s:o}", "request_sizes",
                                            request_sizes(t), "ranks",
                                            adv_rank_chart(t)));
    return bad ? -1 : 0;
}
