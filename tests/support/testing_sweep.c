/* tests/support/testing_sweep.c — sweeps for the tests: `hetsim sweep` run
 * into a CSV file, the file read, and two sweeps' rows compared whatever
 * their order and wall-clock figures. */
#include "analysis/sweep.h"
#include "base/buf.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hs_csv hs_test_load_csv(const char *path)
{
    struct hs_csv csv;
    if (hs_csv_read(path, &csv)) {
        fprintf(stderr, "\n%s\n", hs_last_error());
        memset(&csv, 0, sizeof csv);
    }
    return csv;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The rows as sorted lines without the wall-clock columns. */
static char **row_set(const char *path, long *n)
{
    struct hs_csv csv = hs_test_load_csv(path);
    char **rows = hs_xcalloc((size_t)csv.nrows + 1, sizeof *rows);
    for (long r = 0; r < csv.nrows; r++) {
        struct hs_buf b = {0};
        for (int c = 0; c < csv.ncols; c++)
            if (!hs_sweep_is_wallclock_column(csv.header[c]))
                hs_csv_field(&b, csv.rows[r][c], c == 0);
        rows[r] = hs_buf_take(&b);
    }
    qsort(rows, (size_t)csv.nrows, sizeof *rows, cmp_str);
    *n = csv.nrows;
    hs_csv_free(&csv);
    return rows;
}

static void free_rows(char **rows, long n)
{
    for (long i = 0; i < n; i++)
        free(rows[i]);
    free(rows);
}

/* Same rows, whatever their order and wall-clock figures. */
void hs_test_assert_same_rows(const char *a, const char *b, long expect)
{
    long na, nb;
    char **ra = row_set(a, &na), **rb = row_set(b, &nb);
    CU_ASSERT_EQUAL(na, expect);
    CU_ASSERT_EQUAL(nb, expect);
    long differ = 0;
    for (long i = 0; i < na && i < nb; i++)
        differ += strcmp(ra[i], rb[i]) != 0;
    for (long i = 1; i < na; i++)
        differ += strcmp(ra[i], ra[i - 1]) == 0; /* no row twice */
    if (differ)
        fprintf(stderr, "\n%s and %s differ in %ld rows\n", a, b, differ);
    CU_ASSERT_EQUAL(differ, 0);
    free_rows(ra, na);
    free_rows(rb, nb);
}

int hs_test_sweep(const char *args, const char *csv, char **err)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "sweep -q %s -o %s", args, csv);
    return hs_test_cli(cmd, NULL, err);
}
