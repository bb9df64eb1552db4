/* tests/cli/test_main.c — the command's dispatch (cli/main.c): `hetsim CMD
 * --help` prints the usage of sweep, merge, summarize, plot, gantt and
 * reproduce. */
#include "analysis/csv.h"
#include "base/util.h"
#include "scenario/scenario.h"
#include "tests/support/testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static void test_help(void)
{
    const char *cmds[] = {"sweep", "merge", "summarize", "plot", "gantt", "reproduce"};
    for (int i = 0; i < 6; i++) {
        char args[64], *out;
        snprintf(args, sizeof args, "%s --help", cmds[i]);
        CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, "usage: hetsim"));
        free(out);
    }
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"help of the commands", test_help},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("main", tests);
}
