/* tests/cli/test_cmd_merge.c — `hetsim merge` (cli/cmd_merge.c) end to end:
 * the shards of a sweep (--shard) merged give the rows of the whole sweep. */
#include "tests/support/testing.h"

#include <stdlib.h>
#include <string.h>

#define SMALL "-w cholesky:n=4096,nb=1024"

static void test_shards_merge(void)
{
    char *whole = hs_test_tmp(".csv"), *merged = hs_test_tmp(".csv"), *s[3], cmd[4096], *err;
    const char *args = SMALL " --vary policy=heft,dmda,eager --vary gpus=1..4";
    CU_ASSERT_EQUAL_FATAL(hs_test_sweep(args, whole, NULL), 0);
    for (int i = 0; i < 3; i++) {
        s[i] = hs_test_tmp(".csv");
        snprintf(cmd, sizeof cmd, "%s --shard %d/3", args, i);
        CU_ASSERT_EQUAL(hs_test_sweep(cmd, s[i], NULL), 0);
        CU_ASSERT_EQUAL(hs_test_lines_of(s[i]), 1 + 4); /* 12 runs over 3 shards */
    }
    snprintf(cmd, sizeof cmd, "merge -o %s %s %s %s %s", merged, s[2], s[0], s[1], s[0]);
    CU_ASSERT_EQUAL(hs_test_cli(cmd, NULL, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "12 rows (4 duplicate keys dropped)"));
    free(err);
    hs_test_assert_same_rows(whole, merged, 12);
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
