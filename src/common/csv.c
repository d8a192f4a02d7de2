/*
 * csv.c - text cells of the CSV views: no formula a spreadsheet would run,
 * no control character a terminal would act on (ios_csv.h).
 */
#include <stdint.h>
#include <string.h>

#include "ios_csv.h"
#include "ios_text.h"

/* 1 when the UTF-8 sequence of len bytes (cp) is written as it is: not a
 * control character, DEL or C1 control, and valid UTF-8 (len > 0). */
static int plain(size_t len, uint32_t cp)
{
    return len > 0 && cp >= 0x20 && cp != 0x7f && !(cp >= 0x80 && cp <= 0x9f);
}

/* The cell's text with its controls escaped, quotes doubled when quoted. */
static void put_body(FILE *out, const unsigned char *p, size_t n, int quoted)
{
    for (size_t i = 0; i < n;) {
        uint32_t cp = 0;
        size_t len = ios_utf8_seq(p + i, n - i, &cp);
        if (!plain(len, cp)) {
            fprintf(out, "\\x%02x", p[i]);
            i++;
            continue;
        }
        if (quoted && p[i] == '"')
            putc('"', out);
        fwrite(p + i, 1, len, out);
        i += len;
    }
}

/* See ios_csv.h. */
void ios_csv_text(FILE *out, const char *s)
{
    if (!s || !*s)
        return;
    size_t n = strlen(s);
    int quoted = strpbrk(s, ",\"") != NULL;
    if (quoted)
        putc('"', out);
    if (strchr("=+-@\t\r", s[0]))
        putc('\'', out);
    put_body(out, (const unsigned char *)s, n, quoted);
    if (quoted)
        putc('"', out);
}
