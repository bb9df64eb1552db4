/* tests/base/test_inputfile.c — safe reading of input files
 * (base/inputfile.c), through the `hetsim` command: files that are not
 * regular (/dev/zero, a directory) are refused before anything is read, with
 * exit code 2 and one line naming the file. */
#include "base/util.h"
#include "tests/support/testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_not_regular(void)
{
    static const char *const readers[] = {"dax", "stg", "daggen-text", "taskrec", "wfformat", NULL};
    char args[256];
    for (int i = 0; readers[i]; i++) {
        snprintf(args, sizeof args, "dag %s:file=/dev/zero", readers[i]);
        hs_test_bad_cli(args, "/dev/zero: not a regular file");
        snprintf(args, sizeof args, "dag %s:file=/tmp", readers[i]);
        hs_test_bad_cli(args, "/tmp: is a folder, not a file");
    }
    hs_test_bad_cli("dag stg:file=/nonexistent/g.stg", "/nonexistent/g.stg: No such file or directory");
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"files that are not regular", test_not_regular},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("inputfile", tests);
}
