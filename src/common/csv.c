/*
 * csv.c - text cells of the CSV views: no formula a spreadsheet would run,
 * no control character a terminal would act on (ios_csv.h).
 */
#include <string.h>

#include "ios_csv.h"
#include "ios_text.h"

/* See ios_csv.h. */
void ios_csv_text(FILE *out, const char *s)
{
    if (!s || !*s)
        return;
    int quoted = strpbrk(s, ",\"") != NULL;
    if (quoted)
        putc('"', out);
    if (strchr("=+-@\t\r", s[0]))
        putc('\'', out);
    ios_fput_escaped(out, s, quoted);
    if (quoted)
        putc('"', out);
}
