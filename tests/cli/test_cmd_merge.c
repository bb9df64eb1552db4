/* tests/cli/test_cmd_merge.c — `hetsim merge` (cli/cmd_merge.c) end to end:
 * the shards of a sweep (--shard) merged give the rows of the whole sweep. */
#define _DEFAULT_SOURCE /* kill, nanosleep */
#include "analysis/csv.h"
#include "analysis/sweep.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SMALL "-w cholesky:n=4096,nb=1024"

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static struct hs_csv load(const char *path)
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
    struct hs_csv csv = load(path);
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
static void assert_same_rows(const char *a, const char *b, long expect)
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

static int lines_of(const char *path);

static int sweep(const char *args, const char *csv, char **err)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "sweep -q %s -o %s", args, csv);
    return hs_test_cli(cmd, NULL, err);
}

/* ---- background sweeps ------------------------------------------------------ */

static int lines_of(const char *path)
{
    char *text = hs_test_read_file(path);
    int n = count_lines(text);
    free(text);
    return n;
}

static void test_shards_merge(void)
{
    char *whole = hs_test_tmp(".csv"), *merged = hs_test_tmp(".csv"), *s[3], cmd[4096], *err;
    const char *args = SMALL " --vary policy=heft,dmda,eager --vary gpus=1..4";
    CU_ASSERT_EQUAL_FATAL(sweep(args, whole, NULL), 0);
    for (int i = 0; i < 3; i++) {
        s[i] = hs_test_tmp(".csv");
        snprintf(cmd, sizeof cmd, "%s --shard %d/3", args, i);
        CU_ASSERT_EQUAL(sweep(cmd, s[i], NULL), 0);
        CU_ASSERT_EQUAL(lines_of(s[i]), 1 + 4); /* 12 runs over 3 shards */
    }
    snprintf(cmd, sizeof cmd, "merge -o %s %s %s %s %s", merged, s[2], s[0], s[1], s[0]);
    CU_ASSERT_EQUAL(hs_test_cli(cmd, NULL, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "12 rows (4 duplicate keys dropped)"));
    free(err);
    assert_same_rows(whole, merged, 12);
    for (int i = 0; i < 3; i++)
        free(s[i]);
    free(whole), free(merged);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"shards merged equal the whole", test_shards_merge},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("cmd_merge", tests);
}
