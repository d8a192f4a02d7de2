/*
 * buf.c - a growable byte buffer for the writer.
 *
 * Appends never fail loudly: the first allocation failure sets b->oom and
 * every later append does nothing, so a caller can emit a whole structure
 * and check b->oom once at the end. Integers go out little-endian (the host
 * is little-endian; see CMakeLists.txt).
 */
#include <stdlib.h>
#include <string.h>

#include "ios_buf.h"

/* Make room for n more bytes; 0 on success, -1 (and oom set) on failure. */
static int reserve(ios_buf *b, size_t n)
{
    if (b->oom)
        return -1;
    if (n <= b->cap - b->len)
        return 0;
    if (n > SIZE_MAX / 2 - b->len) {
        b->oom = 1;
        return -1;
    }
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < n)
        cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p) {
        b->oom = 1;
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

/* Release the bytes; the buffer is empty (and usable) afterwards. */
void ios_buf_free(ios_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

void ios_buf_append(ios_buf *b, const void *data, size_t n)
{
    if (n == 0 || reserve(b, n) != 0)
        return;
    memcpy(b->p + b->len, data, n);
    b->len += n;
}

void ios_buf_zeros(ios_buf *b, size_t n)
{
    if (n == 0 || reserve(b, n) != 0)
        return;
    memset(b->p + b->len, 0, n);
    b->len += n;
}

void ios_buf_u32(ios_buf *b, uint32_t v)
{
    ios_buf_append(b, &v, 4);
}

void ios_buf_u64(ios_buf *b, uint64_t v)
{
    ios_buf_append(b, &v, 8);
}

void ios_buf_i64(ios_buf *b, int64_t v)
{
    ios_buf_append(b, &v, 8);
}

void ios_buf_f64(ios_buf *b, double v)
{
    ios_buf_append(b, &v, 8);
}
