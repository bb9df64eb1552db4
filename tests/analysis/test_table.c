/* tests/analysis/test_table.c — aligned text tables (analysis/table.c) sort
 * numbers inside texts as numbers. */
#include "analysis/csv.h"
#include "analysis/plot.h"
#include "analysis/stats.h"
#include "analysis/table.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "n=600" before "n=1000", "alpha=0.25" before "alpha=0.5", numbers before texts. */
static void test_tables_sort_numbers(void)
{
    CU_ASSERT(hs_cmp_cells("xkcholesky:n=600,nb=60,precision=s", "xkcholesky:n=1000,nb=100,precision=s") < 0);
    CU_ASSERT(hs_cmp_cells("dada:alpha=0.25", "dada:alpha=0.5") < 0);
    CU_ASSERT(hs_cmp_cells("GPU2", "GPU10") < 0);
    CU_ASSERT(hs_cmp_cells("8", "10") < 0);
    CU_ASSERT(hs_cmp_cells("10", "eager") < 0);
    CU_ASSERT(hs_natural_cmp("a01", "a1") != 0); /* equal as numbers, not as texts */
    char *file = hs_test_tmp(".csv"), *out, args[512];
    hs_test_write_file(file, "key,instance,rep,seed,workload,status,makespan\n"
                             "1,1,0,1,\"w:n=1000,nb=100\",ok,2\n"
                             "2,2,0,1,\"w:n=600,nb=60\",ok,1\n");
    snprintf(args, sizeof args, "summarize %s --by workload", file);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
    char *a = strstr(out, "w:n=600"), *b = strstr(out, "w:n=1000");
    CU_ASSERT(a && b && a < b);
    free(out);
    unlink(file), free(file);
}

/* A table too wide for the terminal: its widest text column narrowed to
 * fit (no less than 12), its cells wrapped at spaces, numbers right-aligned
 * on the row's first line; every line within the width. */
static void test_table_fits(void)
{
    struct hs_table t;
    hs_table_init(&t, 3);
    const char *cells[] = {"metric", "where", "ours", "gflops", "policy=dmda gpus=8 vs policy=heft gpus=8", "761.56",
                           "slr", "n=1", "1.5"};
    for (int i = 0; i < 9; i++)
        hs_table_add(&t, cells[i]);
    char *path = hs_test_tmp(".txt");
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    hs_table_print_fit(&t, f, "", 40); /* 6 + 2 + 40 + 2 + 6 = 56 wide: "where" narrowed to 24 */
    fclose(f);
    char *text = hs_test_read_file(path);
    CU_ASSERT_STRING_EQUAL(text, "metric  where                     ours\n"
                                 "------  ------------------------  ------\n"
                                 "gflops  policy=dmda gpus=8 vs     761.56\n"
                                 "        policy=heft gpus=8\n"
                                 "slr     n=1                          1.5\n");
    free(text);
    unlink(path);
    free(path);
    hs_table_free(&t);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"tables sort numbers in texts as numbers", test_tables_sort_numbers},
        {"a table too wide is narrowed and wrapped", test_table_fits},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("table", tests);
}
