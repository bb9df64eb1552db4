/* analysis/table.h — a table of text cells printed aligned (numbers to the
 * right) or written as CSV: the output of `summarize` and `reproduce`. */
#ifndef HS_TABLE_H
#define HS_TABLE_H

#include "base/buf.h"

#include <stdio.h>

struct hs_table {
    int ncols;
    long ncells;
    char **cells; /* row-major; the first row is the header */
};

void hs_table_init(struct hs_table *t, int ncols);
void hs_table_add(struct hs_table *t, const char *cell);
void hs_table_addf(struct hs_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A number with `digits` significant digits; empty when NAN. */
void hs_table_num(struct hs_table *t, double v, int digits);
long hs_table_rows(const struct hs_table *t);
void hs_table_print(const struct hs_table *t, FILE *out, const char *indent);
/* The same, no wider than max_width characters (0: no limit) where it can
 * be: the widest text columns are narrowed (to no less than their header or
 * 12 characters) and their cells wrapped at spaces onto more lines. */
void hs_table_print_fit(const struct hs_table *t, FILE *out, const char *indent, int max_width);
void hs_table_csv(const struct hs_table *t, struct hs_buf *b);
/* Write the CSV to a file; -1 with hs_fail. */
int hs_table_write_csv(const struct hs_table *t, const char *path);
void hs_table_free(struct hs_table *t);

#endif
