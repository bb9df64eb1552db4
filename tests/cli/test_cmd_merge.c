/* tests/cli/test_cmd_merge.c — `hetsim merge` (cli/cmd_merge.c) end to end:
 * the shards of a sweep (--shard) merged give the rows of the whole sweep. */
#include "tests/support/testing.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* A shard missing (issue 54: merge of 15 of 16 shards exited 0 and
 * summarize showed n = 4 for some groups): named, exit 1, nothing written;
 * --partial merges what is there with a warning, its rows keeping their
 * shard marks (sweep column HASH:I/N) so that a later merge can tell. A
 * shard with no run (more shards than runs) writes no row: not missing. */
static void test_missing_shard(void)
{
    char *s[3], *merged = hs_test_tmp(".csv"), cmd[4096], *err;
    const char *args = SMALL " --vary policy=heft,dmda,eager --vary gpus=1..2";
    for (int i = 0; i < 3; i++) {
        s[i] = hs_test_tmp(".csv");
        snprintf(cmd, sizeof cmd, "%s --shard %d/3", args, i);
        CU_ASSERT_EQUAL(hs_test_sweep(cmd, s[i], NULL), 0);
    }
    snprintf(cmd, sizeof cmd, "merge -o %s %s %s", merged, s[0], s[2]);
    CU_ASSERT_EQUAL(hs_test_cli(cmd, NULL, &err), 1);
    CU_ASSERT_EQUAL(hs_test_count_lines(err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "1 of the 3 shards of sweep "));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, " have no row in the files given: shard 1 (give their files, or --partial"));
    free(err);
    CU_ASSERT_EQUAL(access(merged, F_OK), -1);
    snprintf(cmd, sizeof cmd, "merge --partial -o %s %s %s", merged, s[0], s[2]);
    CU_ASSERT_EQUAL(hs_test_cli(cmd, NULL, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "warning: merged with --partial: 1 of the 3 shards"));
    free(err);
    CU_ASSERT_EQUAL(hs_test_lines_of(merged), 1 + 4);
    char *text = hs_test_read_file(merged);
    CU_ASSERT(text && strstr(text, ":0/3,"));
    CU_ASSERT(text && strstr(text, ":2/3,"));
    free(text);
    /* the partial file and the missing shard: whole again, marks dropped */
    char *whole = hs_test_tmp(".csv");
    snprintf(cmd, sizeof cmd, "merge -o %s %s %s", whole, merged, s[1]);
    CU_ASSERT_EQUAL(hs_test_cli(cmd, NULL, NULL), 0);
    text = hs_test_read_file(whole);
    CU_ASSERT_EQUAL(hs_test_lines_of(whole), 1 + 6);
    CU_ASSERT_PTR_NULL(text ? strstr(text, "/3,") : "");
    free(text);
    /* two runs over three shards: shard 2 has none */
    const char *two = SMALL " --vary policy=heft,dmda";
    for (int i = 0; i < 3; i++) {
        free(s[i]);
        s[i] = hs_test_tmp(".csv");
        snprintf(cmd, sizeof cmd, "%s --shard %d/3", two, i);
        CU_ASSERT_EQUAL(hs_test_sweep(cmd, s[i], NULL), 0);
    }
    CU_ASSERT_EQUAL(hs_test_lines_of(s[2]), 1);
    snprintf(cmd, sizeof cmd, "merge -o %s %s %s %s", merged, s[0], s[1], s[2]);
    CU_ASSERT_EQUAL(hs_test_cli(cmd, NULL, NULL), 0);
    snprintf(cmd, sizeof cmd, "merge -o %s %s %s", merged, s[1], s[2]);
    CU_ASSERT_EQUAL(hs_test_cli(cmd, NULL, &err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "shard 0 (give"));
    free(err);
    for (int i = 0; i < 3; i++)
        free(s[i]);
    free(merged), free(whole);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"shards merged equal the whole", test_shards_merge},
        {"a missing shard named, exit 1, unless --partial", test_missing_shard},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("cmd_merge", tests);
}
