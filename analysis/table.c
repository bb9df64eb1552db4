/* analysis/table.c — aligned text tables and their CSV form. */
#include "analysis/table.h"
#include "analysis/csv.h"
#include "analysis/stats.h"
#include "base/util.h"
#include "sim/outfile.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
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

/* Characters of a cell (UTF-8: µ and … count one). */
static int chars(const char *s, size_t n)
{
    int c = 0;
    for (size_t i = 0; i < n && s[i]; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* How many bytes of s make its next line of at most `width` characters:
 * up to the last space that fits, else `width` characters cut hard. */
static size_t line_bytes(const char *s, int width)
{
    size_t i = 0, space = 0;
    int c = 0;
    for (; s[i]; i++) {
        bool start = ((unsigned char)s[i] & 0xC0) != 0x80;
        if (start && c == width)
            break;
        c += start;
        if (s[i] == ' ')
            space = i;
    }
    return !s[i] || !space ? i : space;
}

void hs_table_print_fit(const struct hs_table *t, FILE *out, const char *indent, int max_width)
{
    int *width = hs_xcalloc((size_t)t->ncols, sizeof *width);
    bool *text = hs_xcalloc((size_t)t->ncols, sizeof *text);
    for (long i = 0; i < t->ncells; i++) {
        int w = chars(t->cells[i], SIZE_MAX), c = (int)(i % t->ncols);
        width[c] = w > width[c] ? w : width[c];
        text[c] |= i >= t->ncols && t->cells[i][0] && !hs_is_number(t->cells[i], NULL);
    }
    /* too wide: the widest text column loses a character at a time, to no
       less than its header and 12 */
    for (int total = 0;;) {
        total = chars(indent, SIZE_MAX);
        int widest = -1;
        for (int c = 0; c < t->ncols; c++) {
            total += width[c] + (c ? 2 : 0);
            int floor = chars(t->cells[c], SIZE_MAX) > 12 ? chars(t->cells[c], SIZE_MAX) : 12;
            if (text[c] && width[c] > floor && (widest < 0 || width[c] > width[widest]))
                widest = c;
        }
        if (max_width <= 0 || total <= max_width || widest < 0)
            break;
        width[widest]--;
    }
    const char **at = hs_xcalloc((size_t)t->ncols, sizeof *at);
    struct hs_buf line = {0};
    for (long r = 0; r < hs_table_rows(t); r++) {
        for (int c = 0; c < t->ncols; c++)
            at[c] = t->cells[r * t->ncols + c];
        for (bool more = true; more;) { /* a row, on as many lines as its longest cell needs */
            more = false;
            hs_buf_reset(&line);
            hs_buf_add(&line, indent);
            for (int c = 0; c < t->ncols; c++) {
                const char *cell = at[c];
                size_t n = line_bytes(cell, width[c]);
                bool right = r > 0 && hs_is_number(t->cells[r * t->ncols + c], NULL), last = c == t->ncols - 1;
                int pad = width[c] - chars(cell, n);
                hs_buf_printf(&line, "%s%*s%.*s%*s", c ? "  " : "", right ? pad : 0, "", (int)n, cell,
                              right || last ? 0 : pad, "");
                at[c] = cell + n + (cell[n] == ' ');
                more |= *at[c] != '\0';
            }
            size_t len = line.len; /* a wrapped line's empty cells leave no blanks at its end */
            while (len > 0 && hs_buf_str(&line)[len - 1] == ' ')
                len--;
            fprintf(out, "%.*s\n", (int)len, hs_buf_str(&line));
        }
        if (r == 0) {
            fputs(indent, out);
            for (int c = 0; c < t->ncols; c++)
                for (int k = 0; k < width[c] + (c ? 2 : 0); k++)
                    fputc(k < (c ? 2 : 0) ? ' ' : '-', out);
            fputc('\n', out);
        }
    }
    hs_buf_free(&line);
    free(at);
    free(text);
    free(width);
}

void hs_table_print(const struct hs_table *t, FILE *out, const char *indent)
{
    hs_table_print_fit(t, out, indent, 0);
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
