/*
 * src/dump/dump_out.c - the output buffer of `iosage dump` and the number
 * formatting it needs.
 *
 * Integers are converted two digits at a time. Doubles are printed exactly
 * as C "%.<p>f" does with round-to-nearest: the decimal result is the exact
 * binary value rounded half to even at p decimals. Finite values whose
 * scaled result fits in 64 bits are converted with 128-bit integer
 * arithmetic; anything else (NaN, infinities, huge values) falls back to
 * snprintf, which gives the same text.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dump_internal.h"
#include "ios_text.h"

__extension__ typedef unsigned __int128 ios_u128;

int ios_out_init(ios_out *o, FILE *f)
{
    o->buf = malloc(IOS_OUT_CAP);
    o->len = 0;
    o->f = f;
    o->err = 0;
    o->escape = 0;
    return o->buf ? 0 : -1;
}

/* fwrite n bytes at p to o->f; the first failure is kept in o->err. */
static void put_raw(ios_out *o, const char *p, size_t n)
{
    if (n > 0 && !o->err && fwrite(p, 1, n, o->f) != n)
        o->err = errno ? errno : EIO;
}

/* 1 when the UTF-8 sequence of len bytes (cp) is safe on a terminal: no
 * control character but tab and newline, no DEL, no C1 control. */
static int printable(size_t len, uint32_t cp)
{
    if (len == 0)
        return 0; /* not UTF-8 */
    if (cp < 0x20)
        return cp == '\t' || cp == '\n';
    return cp != 0x7f && cp != '\\' && !(cp >= 0x80 && cp <= 0x9f);
}

/* Write n bytes at p with what a terminal would act on escaped (see
 * IOSAGE_DUMP_ESCAPE). Returns how many bytes were written: fewer than n
 * when p ends in the first bytes of a UTF-8 sequence (unless final), which
 * wait for the next flush. */
static size_t put_escaped(ios_out *o, const char *p, size_t n, int final)
{
    const unsigned char *u = (const unsigned char *)p;
    size_t run = 0, i = 0;
    while (i < n) {
        uint32_t cp = 0;
        size_t len = ios_utf8_seq(u + i, n - i, &cp);
        if (len == 0 && !final && u[i] >= 0xc2 && n - i < 4 &&
            n - i < (size_t)(u[i] >= 0xf0 ? 4 : u[i] >= 0xe0 ? 3 : 2))
            break; /* a sequence cut by the end of the buffer */
        if (printable(len, cp)) {
            i += len;
            continue;
        }
        put_raw(o, p + run, i - run);
        char esc[8];
        if (u[i] == '\\')
            put_raw(o, "\\\\", 2);
        else
            put_raw(o, esc, (size_t)snprintf(esc, sizeof esc, "\\x%02x", u[i]));
        i++;
        run = i;
    }
    put_raw(o, p + run, i - run);
    return i;
}

/* Write o->buf; with escaping, the first bytes of a cut UTF-8 sequence stay
 * for the next flush unless final. */
static void flush_buffer(ios_out *o, int final)
{
    if (o->len == 0 || !o->f || o->err) {
        o->len = 0;
        return;
    }
    if (!o->escape) {
        put_raw(o, o->buf, o->len);
        o->len = 0;
        return;
    }
    size_t done = put_escaped(o, o->buf, o->len, final);
    memmove(o->buf, o->buf + done, o->len - done);
    o->len -= done;
}

int ios_out_flush(ios_out *o)
{
    flush_buffer(o, 0);
    return o->err ? -1 : 0;
}

void ios_out_flush_all(ios_out *o)
{
    flush_buffer(o, 1);
}

int ios_out_finish(ios_out *o)
{
    int rc = 0;
    if (o->buf) {
        flush_buffer(o, 1);
        rc = o->err ? -1 : 0;
        free(o->buf);
        o->buf = NULL;
    }
    return rc;
}

void ios_out_mem(ios_out *o, const void *p, size_t n)
{
    if (n == 0) /* p may be NULL then */
        return;
    if (n <= IOS_OUT_CAP - o->len) {
        memcpy(o->buf + o->len, p, n);
        o->len += n;
        return;
    }
    ios_out_flush(o);
    if (n <= IOS_OUT_CAP - o->len) {
        memcpy(o->buf + o->len, p, n);
        o->len += n;
        return;
    }
    /* Larger than the whole buffer: write it straight through (escaped
     * whole: a sequence cut here is rare and only shown as \xHH). */
    flush_buffer(o, 1);
    if (!o->f)
        return;
    if (o->escape)
        put_escaped(o, p, n, 1);
    else
        put_raw(o, p, n);
}

static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

size_t ios_fmt_u64(char *p, uint64_t v)
{
    char tmp[24];
    char *e = tmp + sizeof tmp;
    char *s = e;
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100);
        v /= 100;
        s -= 2;
        memcpy(s, digit_pairs + 2 * d, 2);
    }
    if (v >= 10) {
        s -= 2;
        memcpy(s, digit_pairs + 2 * v, 2);
    } else {
        *--s = (char)('0' + v);
    }
    size_t n = (size_t)(e - s);
    memcpy(p, s, n);
    return n;
}

size_t ios_fmt_i64(char *p, int64_t v)
{
    if (v < 0) {
        *p = '-';
        return 1 + ios_fmt_u64(p + 1, (uint64_t)0 - (uint64_t)v);
    }
    return ios_fmt_u64(p, (uint64_t)v);
}

static const uint64_t pow10_u64[10] = {
    1ULL,       10ULL,       100ULL,       1000ULL,       10000ULL,
    100000ULL,  1000000ULL,  10000000ULL,  100000000ULL,  1000000000ULL,
};

/* q / 10^prec "." q % 10^prec (prec digits, zero padded). */
static size_t fmt_fixed(char *p, uint64_t q, int prec)
{
    uint64_t scale = pow10_u64[prec];
    size_t n = ios_fmt_u64(p, q / scale);
    if (prec > 0) {
        uint64_t frac = q % scale;
        p[n++] = '.';
        for (int i = prec - 1; i >= 0; i--) {
            p[n + (size_t)i] = (char)('0' + frac % 10);
            frac /= 10;
        }
        n += (size_t)prec;
    }
    return n;
}

/* |v| * 10^prec rounded half to even into *q; 0 when it does not fit. */
static int scaled_exact(double av, int prec, uint64_t *q)
{
    uint64_t bits;
    memcpy(&bits, &av, sizeof bits);
    int e2 = (int)((bits >> 52) & 0x7ff);
    uint64_t m = bits & ((UINT64_C(1) << 52) - 1);
    int exp;
    if (e2 == 0x7ff)
        return 0; /* inf or nan */
    if (e2 == 0) {
        exp = -1074;
    } else {
        m |= UINT64_C(1) << 52;
        exp = e2 - 1075;
    }
    if (m == 0) {
        *q = 0;
        return 1;
    }
    if (exp >= 0) {
        if (exp > 10)
            return 0;
        ios_u128 n = ((ios_u128)m << exp) * pow10_u64[prec];
        if (n >> 64)
            return 0;
        *q = (uint64_t)n;
        return 1;
    }
    int k = -exp;
    if (k >= 100) { /* m * 10^prec < 2^83 < half of 2^k: rounds to 0 */
        *q = 0;
        return 1;
    }
    ios_u128 n = (ios_u128)m * pow10_u64[prec];
    ios_u128 qq = n >> k;
    ios_u128 r = n - (qq << k);
    ios_u128 half = (ios_u128)1 << (k - 1);
    if (r > half || (r == half && (qq & 1)))
        qq++;
    if (qq >> 64)
        return 0;
    *q = (uint64_t)qq;
    return 1;
}

size_t ios_fmt_double(char *p, double v, int prec)
{
    if (v == 0.0) {
        size_t n = 0;
        if (signbit(v))
            p[n++] = '-';
        return n + fmt_fixed(p + n, 0, prec);
    }
    uint64_t q;
    int neg = signbit(v) != 0;
    if (prec >= 0 && prec <= 9 && scaled_exact(neg ? -v : v, prec, &q)) {
        size_t n = 0;
        if (neg)
            p[n++] = '-';
        return n + fmt_fixed(p + n, q, prec);
    }
    int n = snprintf(p, IOS_DBL_MAX, "%.*f", prec, v);
    if (n < 0)
        return 0;
    return (size_t)n < IOS_DBL_MAX ? (size_t)n : IOS_DBL_MAX - 1;
}

void ios_out_u64(ios_out *o, uint64_t v)
{
    char *p = ios_out_reserve(o, IOS_NUM_MAX);
    o->len += ios_fmt_u64(p, v);
}

void ios_out_i64(ios_out *o, int64_t v)
{
    char *p = ios_out_reserve(o, IOS_NUM_MAX);
    o->len += ios_fmt_i64(p, v);
}

void ios_out_double(ios_out *o, double v, int prec)
{
    char *p = ios_out_reserve(o, IOS_DBL_MAX);
    o->len += ios_fmt_double(p, v, prec);
}

static void out_padded(ios_out *o, const char *s, size_t n, int w)
{
    char *p = ios_out_reserve(o, (size_t)(w > 0 ? w : 0) + n);
    size_t pad = (w > 0 && (size_t)w > n) ? (size_t)w - n : 0;
    memset(p, ' ', pad);
    memcpy(p + pad, s, n);
    o->len += pad + n;
}

void ios_out_i64_w(ios_out *o, int64_t v, int w)
{
    char tmp[IOS_NUM_MAX];
    out_padded(o, tmp, ios_fmt_i64(tmp, v), w);
}

void ios_out_double_w(ios_out *o, double v, int prec, int w)
{
    char tmp[IOS_DBL_MAX];
    out_padded(o, tmp, ios_fmt_double(tmp, v, prec), w);
}
