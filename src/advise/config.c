/*
 * src/advise/config.c - the job's config files (--config): read bounded,
 * cleaned to UTF-8 text, classified, and their recognised settings extracted
 * (config_keys.c). docs/config-files.md lists the kinds and keys.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config_internal.h"

static const char *const kind_names[] = {
    "text", "job_script", "mpiio_hints", "wrf_namelist", "adios2_xml",
    "hdf5", "darshan_env"};

const char *iosage_config_kind_name(int kind)
{
    int n = (int)(sizeof kind_names / sizeof kind_names[0]);
    return kind >= 0 && kind < n ? kind_names[kind] : NULL;
}

/* Copy buf[0 .. len) into a new string, bytes that are not UTF-8 replaced
 * by '?' (counted in *replaced). NULL on no memory. */
static char *clean_text(const unsigned char *buf, size_t len, int *replaced)
{
    char *s = malloc(len + 1);
    if (!s)
        return NULL;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t k = ios_utf8_seq(buf + i, len - i, &cp);
        if (k == 0) {
            s[i++] = '?';
            (*replaced)++;
        } else {
            memcpy(s + i, buf + i, k);
            i += k;
        }
    }
    s[len] = '\0';
    return s;
}

iosage_status iosage_config_parse(const char *path, const void *buf,
                                  size_t len, size_t max,
                                  struct iosage_config **out,
                                  iosage_error *err)
{
    *out = NULL;
    const char *name = path ? path : "(config)";
    if (max == 0)
        max = IOSAGE_CONFIG_MAX_BYTES;
    if (len > 0 && memchr(buf, '\0', len))
        return ios_fail(err, IOSAGE_E_UNSUPPORTED, name, NULL, -1,
                        "binary file (NUL bytes), not a text config file");
    struct iosage_config *c = calloc(1, sizeof *c);
    if (!c)
        return ios_fail(err, IOSAGE_E_NOMEM, name, NULL, -1, "no memory");
    c->bytes = len;
    size_t keep = len;
    if (len > max) { /* cut at the last line end within the bound */
        const char *p = buf;
        keep = max;
        while (keep > 0 && p[keep - 1] != '\n')
            keep--;
        if (keep == 0)
            keep = max;
        c->truncated = 1;
    }
    c->path = strdup(name);
    c->text = clean_text(buf, keep, &c->replaced);
    if (!c->path || !c->text) {
        iosage_config_free(c);
        return ios_fail(err, IOSAGE_E_NOMEM, name, NULL, -1, "no memory");
    }
    c->text_len = keep;
    c->kind = ios_config_classify(name, c->text);
    ios_config_settings(c);
    *out = c;
    return IOSAGE_OK;
}

iosage_status iosage_config_read(const char *path, size_t max,
                                 struct iosage_config **out, iosage_error *err)
{
    *out = NULL;
    if (max == 0)
        max = IOSAGE_CONFIG_MAX_BYTES;
    FILE *f = fopen(path, "rb");
    if (!f) /* ios_fail keeps errno in err->sys_errno */
        return ios_fail(err, IOSAGE_E_IO, path, NULL, -1,
                        "cannot open config file: %s", strerror(errno));
    /* read one byte past the bound to know whether it was cut, then count
     * the rest for "bytes" */
    char *buf = malloc(max + 1);
    size_t n = buf ? fread(buf, 1, max + 1, f) : 0;
    size_t total = n;
    char scratch[4096];
    size_t m;
    while (buf && !ferror(f) && (m = fread(scratch, 1, sizeof scratch, f)) > 0)
        total += m;
    int bad = ferror(f);
    fclose(f);
    iosage_status st;
    if (!buf)
        st = ios_fail(err, IOSAGE_E_NOMEM, path, NULL, -1, "no memory");
    else if (bad)
        st = ios_fail(err, IOSAGE_E_IO, path, NULL, -1,
                      "read error in config file");
    else
        st = iosage_config_parse(path, buf, n, max, out, err);
    if (st == IOSAGE_OK)
        (*out)->bytes = total;
    free(buf);
    return st;
}

void iosage_config_free(struct iosage_config *c)
{
    if (!c)
        return;
    free(c->path);
    free(c->text);
    free(c);
}

const struct iosage_config_setting *
iosage_config_find(const struct iosage_config *c, const char *key)
{
    const struct iosage_config_setting *found = NULL;
    for (size_t i = 0; c && key && i < c->n_settings; i++)
        if (strcasecmp(c->settings[i].key, key) == 0)
            found = &c->settings[i];
    return found;
}
