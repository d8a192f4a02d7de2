/*
 * ios_csv.h - a text cell of a CSV view, safe to open in a spreadsheet and
 * to print on a terminal (csv.c). Used by `iosage batch --format csv` and
 * `iosage archive --format csv`; docs/batch.md documents the rules.
 */
#ifndef IOS_COMMON_CSV_H
#define IOS_COMMON_CSV_H

#include <stdio.h>

/*
 * Write the text s (NULL: an empty cell) to out as one CSV cell:
 *   - a cell that starts with =, +, -, @, tab or CR gets a leading ' so
 *     that a spreadsheet shows it as text instead of running it as a
 *     formula (OWASP "CSV injection");
 *   - control characters (tab, CR and LF included), DEL, the C1 controls
 *     U+0080..U+009F and bytes that are not UTF-8 are written as \xHH;
 *   - the cell is quoted (quotes doubled) when it holds a comma or a
 *     quote.
 * Only text cells go through here: numbers (a negative one too) are
 * written as they are. The JSON views keep the exact bytes.
 */
void ios_csv_text(FILE *out, const char *s);

#endif
