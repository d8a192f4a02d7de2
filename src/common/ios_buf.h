/*
 * ios_buf.h - a growable byte buffer with little-endian appends (buf.c),
 * for the writer and anything else that builds binary data.
 */
#ifndef IOS_COMMON_BUF_H
#define IOS_COMMON_BUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct ios_buf {
    uint8_t *p;
    size_t len, cap;
    int oom; /* set once an append failed; later appends do nothing */
} ios_buf;
void ios_buf_free(ios_buf *b);
void ios_buf_append(ios_buf *b, const void *data, size_t n);
void ios_buf_zeros(ios_buf *b, size_t n);
void ios_buf_u32(ios_buf *b, uint32_t v); /* little-endian */
void ios_buf_u64(ios_buf *b, uint64_t v); /* little-endian */
void ios_buf_i64(ios_buf *b, int64_t v);
void ios_buf_f64(ios_buf *b, double v);

#endif
