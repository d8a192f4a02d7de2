/*
 * src/rules/rules.c - the threshold-rule baseline: the healthy gate, then
 * every registered pattern's rule, and the result as JSON.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "features/internal.h"
#include "iosage/rules.h"
#include "patterns/internal.h"

static void evaluate(const iosage_log *log, const iosage_file_table *t,
                     struct iosage_rule_result *out)
{
    const struct iosage_job_summary *j = &t->job;
    char p[16], s1[32], s2[32];
    out->nprocs = j->nprocs;
    out->run_time = j->run_time;
    out->io_time = j->io_time;
    out->slowest_rank_io_share = ios_share(j->rank_time_max, j->run_time);
    out->gated = out->slowest_rank_io_share < IOSAGE_RULES_GATE;
    snprintf(out->summary, sizeof out->summary,
             "nprocs %lld, run %s, I/O %s summed over ranks; slowest rank %s of "
             "the run in I/O%s",
             (long long)j->nprocs, ios_fmt_secs(s1, sizeof s1, j->run_time),
             ios_fmt_secs(s2, sizeof s2, j->io_time),
             ios_fmt_pct(p, sizeof p, out->slowest_rank_io_share),
             out->gated ? " (< 5%: healthy whatever the shape of its I/O)" : "");
    out->n_patterns = iosage_pattern_count();
    out->healthy = 1;
    for (int i = 0; i < out->n_patterns; i++) {
        const struct iosage_pattern *pat = iosage_pattern_get(i);
        struct iosage_rule_verdict v;
        memset(&v, 0, sizeof v);
        pat->rule(log, t, &v);
        struct iosage_rule_pattern *rp = &out->patterns[i];
        rp->id = pat->id;
        rp->rule_holds = v.detected;
        rp->detected = v.detected && !out->gated;
        rp->value = v.value;
        memcpy(rp->reason, v.reason, sizeof rp->reason);
        out->healthy &= !rp->detected;
    }
}

iosage_status iosage_rules_eval(const iosage_log *log, const iosage_file_table *t,
                                struct iosage_rule_result *out)
{
    if (!log || !out)
        return IOSAGE_E_USAGE;
    memset(out, 0, sizeof *out);
    iosage_file_table *own = NULL;
    if (!t) {
        iosage_status st = iosage_file_table_build(log, &own, NULL);
        if (st != IOSAGE_OK)
            return st;
        t = own;
    }
    evaluate(log, t, out);
    iosage_file_table_free(own);
    return IOSAGE_OK;
}

/* --- JSON ------------------------------------------------------------------ */

struct sbuf {
    char *p;
    size_t len, cap;
    int oom;
};

static void sb_put(struct sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *g = realloc(b->p, cap);
        if (!g) {
            b->oom = 1;
            return;
        }
        b->p = g;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void sb_fmt(struct sbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void sb_fmt(struct sbuf *b, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        sb_put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* Length of the valid UTF-8 sequence at p and its code point, or 0. */
static int utf8_seq(const unsigned char *p, uint32_t *cp)
{
    int n = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
    if (n == 0 || p[0] > 0xf4)
        return 0;
    uint32_t v = p[0] & (0x7fu >> n);
    for (int k = 1; k < n; k++) {
        if ((p[k] & 0xc0) != 0x80)
            return 0;
        v = (v << 6) | (p[k] & 0x3fu);
    }
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < min[n] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return n;
}

/* A JSON string in ASCII: control characters and every non-ASCII character
 * as \uXXXX escapes (surrogate pairs above U+FFFF); bytes that are not
 * valid UTF-8 (names are bytes from the log) become U+FFFD. */
static void sb_str(struct sbuf *b, const char *s)
{
    sb_put(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        uint32_t cp;
        int n;
        if (*p == '"' || *p == '\\') {
            char e[2] = {'\\', (char)*p};
            sb_put(b, e, 2);
        } else if (*p == '\n' || *p == '\t' || *p == '\r') {
            char e[2] = {'\\', *p == '\n' ? 'n' : *p == '\t' ? 't' : 'r'};
            sb_put(b, e, 2);
        } else if (*p < 0x20 || *p == 0x7f) {
            sb_fmt(b, "\\u%04x", *p);
        } else if (*p < 0x80) {
            sb_put(b, (const char *)p, 1);
        } else if ((n = utf8_seq(p, &cp)) == 0) {
            sb_put(b, "\\ufffd", 6);
        } else {
            if (cp >= 0x10000)
                sb_fmt(b, "\\u%04x\\u%04x", 0xd800 + ((cp - 0x10000) >> 10),
                       0xdc00 + ((cp - 0x10000) & 0x3ff));
            else
                sb_fmt(b, "\\u%04x", cp);
            p += n - 1;
        }
    }
    sb_put(b, "\"", 1);
}

/* A finite number, or 0. */
static void sb_num(struct sbuf *b, double v)
{
    sb_fmt(b, "%.6g", isfinite(v) ? v : 0.0);
}

char *iosage_rules_to_json(const struct iosage_rule_result *r, const char *path)
{
    struct sbuf b = {0};
    if (!r)
        return NULL;
    sb_fmt(&b, "{\"schema\":1,\"log\":");
    sb_str(&b, path);
    sb_fmt(&b, ",\"nprocs\":%lld,\"run_time\":", (long long)r->nprocs);
    sb_num(&b, r->run_time);
    sb_put(&b, ",\"io_time\":", 11);
    sb_num(&b, r->io_time);
    sb_put(&b, ",\"slowest_rank_io_share\":", 25);
    sb_num(&b, r->slowest_rank_io_share);
    sb_fmt(&b, ",\"gated\":%s,\"healthy\":%s,\"summary\":",
           r->gated ? "true" : "false", r->healthy ? "true" : "false");
    sb_str(&b, r->summary);
    sb_put(&b, ",\"patterns\":[", 13);
    for (int i = 0; i < r->n_patterns && i < IOSAGE_MAX_PATTERNS; i++) {
        const struct iosage_rule_pattern *p = &r->patterns[i];
        sb_put(&b, i ? ",{\"id\":" : "{\"id\":", i ? 7 : 6);
        sb_str(&b, p->id);
        sb_fmt(&b, ",\"detected\":%s,\"rule_holds\":%s,\"value\":",
               p->detected ? "true" : "false", p->rule_holds ? "true" : "false");
        sb_num(&b, p->value);
        sb_put(&b, ",\"reason\":", 10);
        sb_str(&b, p->reason);
        sb_put(&b, "}", 1);
    }
    sb_put(&b, "]}", 2);
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}
