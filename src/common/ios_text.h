/*
 * ios_text.h - UTF-8 checks and a growable string for the text the library
 * writes out (text.c).
 */
#ifndef IOS_COMMON_TEXT_H
#define IOS_COMMON_TEXT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Length of the valid UTF-8 sequence at p (n >= 1 bytes left; 1 for
 * ASCII) with its code point in *cp, or 0 when p does not start one
 * (overlong forms, surrogates and code points above U+10FFFF are not
 * valid). */
size_t ios_utf8_seq(const unsigned char *p, size_t n, uint32_t *cp);

/* A malloc'd, NUL-terminated copy of the n bytes at s in which every byte
 * that is not part of valid UTF-8 is replaced by U+FFFD, so that it can be
 * written as JSON and read back unchanged; its length in *out_len (when
 * not NULL). NULL when out of memory. */
char *ios_utf8_fixn(const char *s, size_t n, size_t *out_len);

/* The same for the string s (NULL gives ""). */
char *ios_utf8_fix(const char *s);

/* Write s (NULL: nothing) to out with every control character (C0, tab
 * and line feed included, DEL, C1) and every byte that is not part of valid
 * UTF-8 as \xHH, so that a string from a log can neither act on a terminal
 * nor break a line or a tab-separated row; with double_quotes, each '"' is
 * written twice (a quoted CSV cell). */
void ios_fput_escaped(FILE *out, const char *s, int double_quotes);

/* Split line in place at its tabs into at most max fields (cols[i] point
 * into line; the last field keeps any further tabs); returns the count. */
int ios_split_tabs(char *line, char **cols, int max);

/* A growable string, NUL-terminated once anything was added. Start from
 * {0}, or {.max = N} to refuse to grow the buffer beyond N bytes. Appends
 * never fail loudly: the first failure sets oom and later appends do
 * nothing, so a caller writes everything and checks oom once. The caller
 * frees p (or calls ios_text_free). */
typedef struct ios_text {
    char *p;
    size_t len, cap;
    size_t max; /* 0: no bound */
    int oom;    /* an allocation failed; the content is incomplete */
} ios_text;
void ios_text_put(ios_text *t, const char *s, size_t n);
void ios_text_printf(ios_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void ios_text_vprintf(ios_text *t, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* Release the bytes; the string is empty (and usable, with the same max)
 * afterwards. */
void ios_text_free(ios_text *t);

#endif
