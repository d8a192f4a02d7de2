/*
 * hash.c - the record-id hash of Darshan logs (format spec 7.2): Bob
 * Jenkins' 1997 64-bit hash with initial value 0. Bytes are assembled
 * explicitly, so the result does not depend on the host's byte order.
 */
#include "internal.h"

/* One of the twelve steps of mix(): x -= y; x -= z; x ^= shifted z. */
#define STEP_R(x, y, z, n) do { x -= y; x -= z; x ^= (z >> n); } while (0)
#define STEP_L(x, y, z, n) do { x -= y; x -= z; x ^= (z << n); } while (0)

static void mix(uint64_t *pa, uint64_t *pb, uint64_t *pc)
{
    uint64_t a = *pa, b = *pb, c = *pc;
    STEP_R(a, b, c, 43); STEP_L(b, c, a, 9);  STEP_R(c, a, b, 8);
    STEP_R(a, b, c, 38); STEP_L(b, c, a, 23); STEP_R(c, a, b, 5);
    STEP_R(a, b, c, 35); STEP_L(b, c, a, 49); STEP_R(c, a, b, 11);
    STEP_R(a, b, c, 12); STEP_L(b, c, a, 18); STEP_R(c, a, b, 22);
    *pa = a; *pb = b; *pc = c;
}

/* Bytes p[0..n) as a little-endian number, starting at bit 'shift'. */
static uint64_t le_bytes(const uint8_t *p, size_t n, unsigned shift)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v += (uint64_t)p[i] << (shift + 8 * i);
    return v;
}

/* Darshan's 64-bit record-id hash of name[0..len). */
uint64_t iosage_darshan_hash(const void *name, size_t len)
{
    const uint8_t *k = name;
    uint64_t a = 0, b = 0, c = 0x9e3779b97f4a7c13ULL;
    size_t left = len;

    while (left >= 24) {
        a += le_bytes(k, 8, 0);
        b += le_bytes(k + 8, 8, 0);
        c += le_bytes(k + 16, 8, 0);
        mix(&a, &b, &c);
        k += 24;
        left -= 24;
    }
    /* The tail: bytes 0-7 into a, 8-15 into b, 16-22 into c from bit 8
     * (the low byte of c holds the length). */
    c += (uint64_t)len;
    a += le_bytes(k, left < 8 ? left : 8, 0);
    if (left > 8)
        b += le_bytes(k + 8, left < 16 ? left - 8 : 8, 0);
    if (left > 16)
        c += le_bytes(k + 16, left - 16, 8);
    mix(&a, &b, &c);
    return c;
}
