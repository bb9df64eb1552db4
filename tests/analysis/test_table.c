/* tests/analysis/test_table.c — aligned text tables (analysis/table.c) sort
 * numbers inside texts as numbers. */
#include "analysis/csv.h"
#include "analysis/plot.h"
#include "analysis/stats.h"
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

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"tables sort numbers in texts as numbers", test_tables_sort_numbers},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("table", tests);
}
