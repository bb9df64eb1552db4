/* analysis/table.c — aligned text tables and their CSV form. */
#include "analysis/table.h"
#include "analysis/csv.h"
#include "analysis/stats.h"
#include "base/util.h"
#include "sim/outfile.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void hs_table_init(struct hs_table *t, int ncols)
{
    memset(t, 0, sizeof *t);
    t->ncols = ncols;
}

void hs_table_add(struct hs_table *t, const char *cell)
{
    HS_GROW_IMPLIED(t->cells, t->ncells, t->ncells + 1); /* doubling: a table has rows x columns cells */
    t->cells[t->ncells++] = hs_xstrdup(cell);
}

void hs_table_addf(struct hs_table *t, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    hs_table_add(t, buf);
}

void hs_table_num(struct hs_table *t, double v, int digits)
{
    if (isnan(v))
        hs_table_add(t, "");
    else
        hs_table_addf(t, "%.*g", digits, v);
}

long hs_table_rows(const struct hs_table *t)
{
    return t->ncells / t->ncols;
}

void hs_table_print(const struct hs_table *t, FILE *out, const char *indent)
{
    int *width = hs_xcalloc((size_t)t->ncols, sizeof *width);
    for (long i = 0; i < t->ncells; i++) {
        int w = (int)strlen(t->cells[i]);
        if (w > width[i % t->ncols])
            width[i % t->ncols] = w;
    }
    for (long r = 0; r < hs_table_rows(t); r++) {
        fputs(indent, out);
        for (int c = 0; c < t->ncols; c++) {
            const char *cell = t->cells[r * t->ncols + c];
            bool right = r > 0 && hs_is_number(cell, NULL), last = c == t->ncols - 1;
            fprintf(out, "%s%*s", c ? "  " : "", right ? width[c] : last ? 0 : -width[c], cell);
        }
        fputc('\n', out);
        if (r == 0) {
            fputs(indent, out);
            for (int c = 0; c < t->ncols; c++)
                for (int k = 0; k < width[c] + (c ? 2 : 0); k++)
                    fputc(k < (c ? 2 : 0) ? ' ' : '-', out);
            fputc('\n', out);
        }
    }
    free(width);
}

void hs_table_csv(const struct hs_table *t, struct hs_buf *b)
{
    for (long r = 0; r < hs_table_rows(t); r++)
        hs_csv_line(b, &t->cells[r * t->ncols], t->ncols);
}

int hs_table_write_csv(const struct hs_table *t, const char *path)
{
    struct hs_buf b = {0};
    hs_table_csv(t, &b);
    int rc = hs_outfile_write(path, hs_buf_str(&b), b.len);
    hs_buf_free(&b);
    return rc;
}

void hs_table_free(struct hs_table *t)
{
    for (long i = 0; i < t->ncells; i++)
        free(t->cells[i]);
    free(t->cells);
    memset(t, 0, sizeof *t);
}
