/* analysis/csv.h — the CSV files of sweeps, merges and summaries (RFC 4180:
 * a field is quoted when it holds a comma, a quote or a line break, and its
 * quotes are doubled). Reading keeps every field as text. */
#ifndef HS_CSV_H
#define HS_CSV_H

#include "base/buf.h"

#include <stdbool.h>
#include <stddef.h>

struct hs_csv {
    int ncols;
    char **header;
    long nrows;
    char ***rows;       /* rows[r][c], c < ncols */
    bool partial;       /* the file ended inside a line (an interrupted write): dropped */
    size_t complete;    /* bytes up to the end of the last complete line */
};

/* Read a whole CSV file with a header line. An incomplete last line (no line
 * break) is dropped and reported in `partial`. A line with another number of
 * fields than the header is an error. Returns 0, or -1 with hs_fail
 * ("FILE: cannot read: …", "FILE:LINE: 3 fields, the header has 40"). */
int hs_csv_read(const char *path, struct hs_csv *csv);
/* The same from text in memory; `name` names it in messages. */
int hs_csv_parse(const char *text, size_t len, const char *name, struct hs_csv *csv);
void hs_csv_free(struct hs_csv *csv);

/* Index of a column, or -1. */
int hs_csv_col(const struct hs_csv *csv, const char *name);
/* Index of a column, or -1 with hs_fail naming the file and listing the
 * columns it has. */
int hs_csv_need_col(const struct hs_csv *csv, const char *name, const char *file);

/* Append one field (quoted if needed; line breaks become spaces), preceded by
 * a comma unless it is the first of its line. */
void hs_csv_field(struct hs_buf *b, const char *field, bool first);
/* Append a whole line: n fields and a line break. */
void hs_csv_line(struct hs_buf *b, char *const *fields, int n);

#endif
