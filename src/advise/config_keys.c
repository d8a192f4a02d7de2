/*
 * src/advise/config_keys.c - what kind of config file a text is, and the
 * settings iosage recognises in it (docs/config-files.md):
 *
 *   mpiio_hints   ROMIO hints file lines "key value" (or key=value) for the
 *                 hints of hint_keys[];
 *   job_script    "lfs setstripe" (-c/--stripe-count, -S/--stripe-size) as
 *                 keys "lfs setstripe -c" / "lfs setstripe -S"; environment
 *                 variables of env_names[] (export NAME=value), with the hints
 *                 inside MPICH_MPIIO_HINTS split out; hint keys anywhere;
 *   wrf_namelist  "key = value," for the keys of wrf_keys[] (and every
 *                 io_form_*), '!' comments removed;
 *   adios2_xml    <engine type="..."> as "engine.type" and every
 *                 <parameter key="K" value="V"/> as K;
 *   hdf5          JSON "key": value and TOML key = value lines with a scalar
 *                 value (openPMD, HDF5 settings), plus environment variables;
 *   darshan_env   environment variables.
 * Every kind also gets the environment variables and lfs setstripe lines.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "config_internal.h"

static const char *const hint_keys[] = {
    "romio_cb_write", "romio_cb_read", "cb_nodes", "cb_buffer_size",
    "cb_config_list", "romio_ds_read", "romio_ds_write", "ind_rd_buffer_size",
    "ind_wr_buffer_size", "romio_no_indep_rw", "striping_factor",
    "striping_unit", NULL};

static const char *const wrf_keys[] = {
    "frames_per_outfile", "nocolons", "history_interval", "restart_interval",
    "nio_tasks_per_group", "nio_groups", NULL};

static const char *const env_names[] = {
    "ROMIO_HINTS", "MPICH_MPIIO_HINTS", "MPICH_MPIIO_HINTS_DISPLAY", NULL};

static const char *const env_prefixes[] = {"OPENPMD_", "DARSHAN_", "HDF5_",
                                           "ADIOS2_", NULL};

/* strstr ignoring ASCII case. */
static const char *find_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return hay;
    return NULL;
}

static int in_list(const char *const *list, const char *s, size_t n)
{
    for (int i = 0; list[i]; i++)
        if (strlen(list[i]) == n && strncasecmp(list[i], s, n) == 0)
            return 1;
    return 0;
}

static int is_env_name(const char *s, size_t n)
{
    if (in_list(env_names, s, n))
        return 1;
    for (int i = 0; env_prefixes[i]; i++) {
        size_t k = strlen(env_prefixes[i]);
        if (n > k && strncmp(s, env_prefixes[i], k) == 0)
            return 1;
    }
    return 0;
}

/* Add a setting (key and value of lengths kn, vn), trimmed of blanks and
 * quotes; ignored when the table is full or the key empty. */
static void add(struct iosage_config *c, const char *key, size_t kn,
                const char *val, size_t vn, int line)
{
    while (vn > 0 && (isspace((unsigned char)*val) || *val == '"' || *val == '\''))
        val++, vn--;
    while (vn > 0 && (isspace((unsigned char)val[vn - 1]) || val[vn - 1] == '"' ||
                      val[vn - 1] == '\'' || val[vn - 1] == ','))
        vn--;
    if (kn == 0 || c->n_settings >= IOSAGE_CONFIG_MAX_SETTINGS)
        return;
    struct iosage_config_setting *s = &c->settings[c->n_settings++];
    snprintf(s->key, sizeof s->key, "%.*s", (int)(kn < 63 ? kn : 63), key);
    snprintf(s->value, sizeof s->value, "%.*s", (int)(vn < 159 ? vn : 159), val);
    s->line = line;
}

/* --- One line of each kind --------------------------------------------------- */

/* Next whitespace-separated token at *p: returns its start, length in *n. */
static const char *token(const char **p, size_t *n)
{
    const char *s = *p;
    while (*s && isspace((unsigned char)*s))
        s++;
    const char *e = s;
    while (*e && !isspace((unsigned char)*e))
        e++;
    *n = (size_t)(e - s);
    *p = e;
    return *n ? s : NULL;
}

/* "lfs setstripe [-c N] [-S SIZE] ... PATH" */
static void lfs_line(struct iosage_config *c, const char *line, int no)
{
    const char *p = strstr(line, "lfs setstripe");
    if (!p)
        return;
    p += strlen("lfs setstripe");
    size_t n, vn;
    const char *t;
    while ((t = token(&p, &n)) != NULL) {
        const char *key = NULL, *v = NULL;
        if ((n == 2 && strncmp(t, "-c", 2) == 0) ||
            (n == 14 && strncmp(t, "--stripe-count", 14) == 0))
            key = "lfs setstripe -c";
        else if ((n == 2 && strncmp(t, "-S", 2) == 0) ||
                 (n == 13 && strncmp(t, "--stripe-size", 13) == 0))
            key = "lfs setstripe -S";
        else if (n > 15 && strncmp(t, "--stripe-count=", 15) == 0)
            key = "lfs setstripe -c", v = t + 15, vn = n - 15;
        else if (n > 14 && strncmp(t, "--stripe-size=", 14) == 0)
            key = "lfs setstripe -S", v = t + 14, vn = n - 14;
        else if (n > 2 && (strncmp(t, "-c", 2) == 0 || strncmp(t, "-S", 2) == 0))
            key = t[1] == 'c' ? "lfs setstripe -c" : "lfs setstripe -S",
            v = t + 2, vn = n - 2;
        if (key && !v)
            v = token(&p, &vn);
        if (key && v)
            add(c, key, strlen(key), v, vn, no);
    }
}

/* Hints inside MPICH_MPIIO_HINTS ("pattern:key=value:key=value,..."). */
static void mpich_hints(struct iosage_config *c, const char *v, size_t vn, int no)
{
    size_t i = 0;
    while (i < vn) {
        size_t j = i;
        while (j < vn && v[j] != ':' && v[j] != ',')
            j++;
        const char *eq = memchr(v + i, '=', j - i);
        if (eq && in_list(hint_keys, v + i, (size_t)(eq - (v + i))))
            add(c, v + i, (size_t)(eq - (v + i)), eq + 1, (size_t)(v + j - eq - 1), no);
        i = j + 1;
    }
}

/* NAME=value tokens of known environment variables and hint=value tokens;
 * "hint value" pairs when hint_pairs is set. */
static void env_line(struct iosage_config *c, const char *line, int no,
                     int hint_pairs)
{
    const char *p = line, *t;
    size_t n;
    while ((t = token(&p, &n)) != NULL) {
        const char *eq = memchr(t, '=', n);
        if (eq) {
            size_t kn = (size_t)(eq - t), vn = n - kn - 1;
            if (is_env_name(t, kn)) {
                add(c, t, kn, eq + 1, vn, no);
                if (kn == 17 && strncmp(t, "MPICH_MPIIO_HINTS", 17) == 0)
                    mpich_hints(c, eq + 1, vn, no);
            } else if (in_list(hint_keys, t, kn)) {
                add(c, t, kn, eq + 1, vn, no);
            }
        } else if (hint_pairs) {
            const char *s = t;
            size_t sn = n;
            while (sn > 0 && (*s == '"' || *s == '\''))
                s++, sn--;
            const char *q = p;
            size_t vn;
            const char *v = token(&q, &vn);
            if (v && in_list(hint_keys, s, sn)) {
                add(c, s, sn, v, vn, no);
                p = q;
            }
        }
    }
}

/* ROMIO hints file: "key value" (or key=value); '#' starts a comment. */
static void hints_line(struct iosage_config *c, const char *line, int no)
{
    const char *p = line;
    size_t n;
    const char *t = token(&p, &n);
    if (!t || *t == '#')
        return;
    const char *eq = memchr(t, '=', n);
    if (eq && in_list(hint_keys, t, (size_t)(eq - t)))
        add(c, t, (size_t)(eq - t), eq + 1, strlen(eq + 1), no);
    else if (in_list(hint_keys, t, n))
        add(c, t, n, p, strlen(p), no);
}

/* WRF namelist: "key = value," with '!' comments. */
static void wrf_line(struct iosage_config *c, const char *line, int no)
{
    const char *eq = strchr(line, '=');
    if (!eq)
        return;
    const char *k = line;
    while (isspace((unsigned char)*k))
        k++;
    size_t kn = (size_t)(eq - k);
    while (kn > 0 && isspace((unsigned char)k[kn - 1]))
        kn--;
    const char *bang = strchr(eq, '!');
    size_t vn = bang ? (size_t)(bang - eq - 1) : strlen(eq + 1);
    if (in_list(wrf_keys, k, kn) || (kn > 8 && strncasecmp(k, "io_form_", 8) == 0))
        add(c, k, kn, eq + 1, vn, no);
}

/* The value of attribute name="..." inside tag text s, or NULL. */
static const char *attr(const char *s, const char *name, size_t *n)
{
    char pat[32];
    snprintf(pat, sizeof pat, "%s=\"", name);
    const char *a = strstr(s, pat);
    if (!a)
        return NULL;
    a += strlen(pat);
    const char *e = strchr(a, '"');
    if (!e)
        return NULL;
    *n = (size_t)(e - a);
    return a;
}

/* ADIOS2 XML: <engine type="BP5"> and <parameter key=".." value=".."/>. */
static void adios2_line(struct iosage_config *c, const char *line, int no)
{
    const char *e = strstr(line, "<engine");
    size_t n, vn;
    const char *v;
    if (e && (v = attr(e, "type", &vn)) != NULL)
        add(c, "engine.type", 11, v, vn, no);
    for (const char *p = strstr(line, "<parameter"); p;
         p = strstr(p + 1, "<parameter")) {
        const char *k = attr(p, "key", &n);
        v = attr(p, "value", &vn);
        if (k && v)
            add(c, k, n, v, vn, no);
    }
}

/* JSON "key": scalar, or TOML key = scalar. */
static void kv_line(struct iosage_config *c, const char *line, int no)
{
    const char *p = line;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '#' || *p == '[' || *p == '{' || *p == '}')
        return;
    const char *sep = strpbrk(p, ":=");
    if (!sep)
        return;
    const char *k = p;
    size_t kn = (size_t)(sep - k);
    while (kn > 0 && (isspace((unsigned char)k[kn - 1]) || k[kn - 1] == '"'))
        kn--;
    while (kn > 0 && *k == '"')
        k++, kn--;
    const char *v = sep + 1;
    while (isspace((unsigned char)*v))
        v++;
    if (*v == '{' || *v == '[' || *v == '\0')
        return;
    for (size_t i = 0; i < kn; i++)
        if (!(isalnum((unsigned char)k[i]) || k[i] == '_' || k[i] == '.' ||
              k[i] == '-'))
            return;
    add(c, k, kn, v, strlen(v), no);
}

/* --- Whole files ---------------------------------------------------------------- */

static void one_line(struct iosage_config *c, const char *line, int no)
{
    switch (c->kind) {
    case IOSAGE_CONFIG_MPIIO_HINTS:
        hints_line(c, line, no);
        return;
    case IOSAGE_CONFIG_WRF_NAMELIST:
        wrf_line(c, line, no);
        return;
    case IOSAGE_CONFIG_ADIOS2_XML:
        adios2_line(c, line, no);
        return;
    case IOSAGE_CONFIG_HDF5:
        if (strstr(line, "OPENPMD_") || strstr(line, "HDF5_"))
            env_line(c, line, no, 0);
        else
            kv_line(c, line, no);
        return;
    default: {
        const char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '#') /* a comment (or #SBATCH line): nothing to change */
            return;
        lfs_line(c, line, no);
        env_line(c, line, no, c->kind == IOSAGE_CONFIG_JOB_SCRIPT);
        return;
    }
    }
}

void ios_config_settings(struct iosage_config *c)
{
    char line[1024];
    const char *p = c->text;
    int no = 0;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1
                                                  ? n : sizeof line - 1), p);
        no++;
        one_line(c, line, no);
        p += n + (e != NULL);
    }
}

/* Lines that start with a known ROMIO hint, and lines that count (not blank,
 * not a comment). */
static void hint_lines(const char *text, int *hints, int *lines)
{
    *hints = *lines = 0;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const char *q = p;
        size_t n;
        const char *t = token(&q, &n);
        if (t && (size_t)(t - p) < len && *t != '#') {
            const char *eq = memchr(t, '=', n);
            (*lines)++;
            *hints += in_list(hint_keys, t, eq ? (size_t)(eq - t) : n);
        }
        p += len + (e != NULL);
    }
}

int ios_config_classify(const char *path, const char *text)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    int hints, lines;
    if (strstr(text, "<adios-config"))
        return IOSAGE_CONFIG_ADIOS2_XML;
    if (strncasecmp(base, "namelist", 8) == 0 || find_ci(text, "&time_control"))
        return IOSAGE_CONFIG_WRF_NAMELIST;
    if (strncmp(text, "#!", 2) == 0 || strstr(text, "#SBATCH") ||
        strstr(text, "#PBS") || strstr(text, "#BSUB") || strstr(text, "#COBALT") ||
        strstr(text, "#FLUX"))
        return IOSAGE_CONFIG_JOB_SCRIPT;
    hint_lines(text, &hints, &lines);
    if (hints > 0 && 2 * hints >= lines)
        return IOSAGE_CONFIG_MPIIO_HINTS;
    if (strstr(text, "\"hdf5\"") || strstr(text, "[hdf5") ||
        find_ci(base, "openpmd") || strstr(text, "OPENPMD_HDF5"))
        return IOSAGE_CONFIG_HDF5;
    if (strstr(text, "DARSHAN_"))
        return IOSAGE_CONFIG_DARSHAN_ENV;
    if (strstr(text, "mpirun") || strstr(text, "srun ") || strstr(text, "mpiexec") ||
        strstr(text, "aprun") || strstr(text, "lfs setstripe"))
        return IOSAGE_CONFIG_JOB_SCRIPT;
    return IOSAGE_CONFIG_TEXT;
}
