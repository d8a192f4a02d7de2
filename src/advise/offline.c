/*
 * src/advise/offline.c - one offline change per detected pattern: the text
 * of its change id, the setting to change when a config file holds it
 * ("where": that file and key, with the line in the text), why (the share of
 * I/O time and the evidence), the expected effect and when not to apply it.
 *
 * The settings each change id looks for, in order (docs/config-files.md;
 * the config_keys of the change rows in src/patterns/p_<id>.c):
 *   collective_buffering, collective_io
 *       romio_cb_write / romio_cb_read not "enable"; WRF io_form_history /
 *       io_form_restart 2 (serial netCDF) or 102 (split netCDF) -> 11
 *       (PnetCDF); OPENPMD_HDF5_INDEPENDENT=ON -> OFF
 *   data_sieving   romio_ds_read / romio_ds_write not "enable"
 *   stripe_wide    "lfs setstripe -c" of 1..4; striping_factor of 1..4
 *   shared_file    WRF io_form_* 102 -> 11 or 2; ADIOS2 NumAggregators /
 *                  AggregatorRatio
 *   fewer_files    WRF frames_per_outfile 1; io_form_* 102; ADIOS2
 *                  NumAggregators
 *   balance_io     cb_nodes; ADIOS2 NumAggregators
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

/* First integer of a value ("2, 2, 2" -> 2), or -1. */
static long first_int(const char *v)
{
    char *end;
    long x = strtol(v, &end, 10);
    return end == v ? -1 : x;
}

/* A suggestion for setting s under change id, into buf; 0 when the setting
 * already has the value the change wants. */
static int suggest(const char *id, const struct iosage_config_setting *s,
                   char *buf, size_t n)
{
    const char *k = s->key, *v = s->value;
    long x = first_int(v);
    if (strncasecmp(k, "romio_", 6) == 0) {
        if (strcasecmp(v, "enable") == 0)
            return 0;
        snprintf(buf, n, "set %s=enable (now %s)", k, v);
    } else if (strncasecmp(k, "io_form_", 8) == 0) {
        if (x != 2 && x != 102)
            return 0;
        snprintf(buf, n, "set %s = 11 (parallel netCDF through PnetCDF; now "
                 "%s%s)", k, v, x == 102 ? ", one file per process" : "");
    } else if (strcmp(k, "OPENPMD_HDF5_INDEPENDENT") == 0) {
        if (strcasecmp(v, "OFF") == 0)
            return 0;
        snprintf(buf, n, "set OPENPMD_HDF5_INDEPENDENT=OFF for collective "
                 "HDF5 data I/O (now %s)", v);
    } else if (strcmp(k, "lfs setstripe -c") == 0 ||
               strcmp(k, "striping_factor") == 0) {
        if (x < 1 || x > 4)
            return 0;
        snprintf(buf, n, "%s a stripe count of at least 8, or -1 for every "
                 "OST (now %s)", strcmp(k, "striping_factor") == 0
                 ? "set striping_factor to" : "use lfs setstripe -c with", v);
    } else if (strcmp(k, "frames_per_outfile") == 0) {
        if (x != 1)
            return 0;
        snprintf(buf, n, "raise frames_per_outfile so that one file holds "
                 "many output times (now %s)", v);
    } else if (strcmp(k, "NumAggregators") == 0 || strcmp(k, "AggregatorRatio") == 0) {
        snprintf(buf, n, "%s %s (now %s)", strcmp(id, "balance_io") == 0
                 ? "spread the data over more aggregators with"
                 : "write fewer subfiles: lower", k, v);
    } else if (strcmp(k, "cb_nodes") == 0) {
        snprintf(buf, n, "set cb_nodes to the number of nodes (or more "
                 "aggregators) with collective I/O (now %s)", v);
    } else {
        return 0;
    }
    return 1;
}

/* The first config setting that change ch should change (its config_keys,
 * in order, in each file): *cfg, *set and the suggestion in buf; 0 when
 * none. */
static int find_target(const struct iosage_pattern_change *ch,
                       const struct iosage_config *const *configs,
                       size_t n_configs, const struct iosage_config **cfg,
                       const struct iosage_config_setting **set, char *buf,
                       size_t n)
{
    for (int k = 0; ch->config_keys && ch->config_keys[k]; k++) {
        for (size_t c = 0; c < n_configs; c++) {
            const struct iosage_config_setting *s =
                iosage_config_find(configs[c], ch->config_keys[k]);
            if (s && suggest(ch->id, s, buf, n)) {
                *cfg = configs[c];
                *set = s;
                return 1;
            }
        }
    }
    return 0;
}

static json_t *evidence_json(const struct iosage_evidence *ev)
{
    json_t *arr = json_array();
    for (int i = 0; arr && i < ev->n_lines; i++)
        if (json_array_append_new(arr, ios_json_str(ev->line[i])) != 0) {
            json_decref(arr);
            return NULL;
        }
    return arr;
}

json_t *adv_offline_change(const struct adv_finding *f,
                           const iosage_file_table *t,
                           const struct iosage_config *const *configs,
                           size_t n_configs)
{
    const struct iosage_pattern *p = iosage_pattern_get(f->pattern);
    const struct iosage_pattern_change *ch = adv_change_find(p->id, f->change_id);
    const struct iosage_config *cfg = NULL;
    const struct iosage_config_setting *set = NULL;
    char sug[300], text[1200], why[800], lab[200], pct[16];
    if (!ch)
        return NULL;
    int has = find_target(ch, configs, n_configs, &cfg, &set, sug, sizeof sug);
    int len = snprintf(text, sizeof text, "%s", ch->text);
    if (has && len > 0 && (size_t)len < sizeof text)
        len += snprintf(text + len, sizeof text - (size_t)len,
                        " In %s line %d: %s.", cfg->path, set->line, sug);
    if (f->row >= 0 && (size_t)f->row < t->n_rows && len > 0 &&
        (size_t)len < sizeof text)
        snprintf(text + len, sizeof text - (size_t)len, " Start with %s.",
                 ios_file_label(lab, sizeof lab, &t->rows[f->row]));
    snprintf(why, sizeof why, "%s (model score %.2f): %s of the job's I/O "
             "time is in the operations that show it. %s", p->name, f->score,
             ios_fmt_pct(pct, sizeof pct, f->share),
             f->ev.n_lines > 0 ? f->ev.line[0] : "");
    json_t *where = json_pack("{s:o,s:o}", "file", ios_json_str(has ? cfg->path : NULL),
                              "key", ios_json_str(has ? set->key : NULL));
    return json_pack("{s:i,s:s,s:s,s:o,s:o,s:o,s:o,s:s,s:s}", "rank", 0,
                     "pattern", p->id, "change_id", f->change_id, "change",
                     ios_json_str(text), "where", where, "why", ios_json_str(why),
                     "evidence", evidence_json(&f->ev), "expected_effect",
                     ch->effect, "when_not_to_apply", ch->when_not);
}
