/* tests/workloads/test_stg.c — Kasahara's STG files (workloads/stg.c):
 * robot.stg against the critical path its comment states, and bad files
 * refused in one line naming the file and the line. */
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/dagio.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_stg(void)
{
    /* robot.stg: 88 tasks and 2 dummies; its comment says "CP Length: 569" */
    char args[1200], *out;
    snprintf(args, sizeof args, "dag %s --stats", hs_test_datafile("stg-robot.stg"));
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "tasks: 90\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "critical_path: 569 s\n"));
    free(out);
    /* with a processor per task and no communication cost, the schedule is
     * the critical path */
    snprintf(args, sizeof args, "-p flat:90,bw=inf -s heft -w %s", hs_test_datafile("stg-robot.stg"));
    CU_ASSERT_DOUBLE_EQUAL(hs_test_run_makespan(args), 569, 1e-9);
    struct hs_dag *dag = hs_test_build_file("stg:file=%s,speed=2G", "stg-robot.stg");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->tasks[hs_test_task_named(dag, "53")].flops, 111 * 2e9); /* line "53 111 1 45" */
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "45", "53"), 0);
    CU_ASSERT_EQUAL(dag->processors, 0); /* robot.stg's header is its task count alone */
    hs_dag_free(dag);

    /* the set's proto*.stg headers add the processor count ("473 4"): read and kept;
       a third field, or a header disagreeing with the task lines, refused in one line */
    char *f = hs_test_tmp(".stg");
    hs_test_write_file(f, "2 4\n0 0 0\n1 5 1 0\n2 3 1 0\n3 0 2 1 2\n# proto-like, by hand\n");
    snprintf(args, sizeof args, "dag stg:file=%s --stats", f);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "tasks: 4\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "critical_path: 5 s\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "processors: 4 (the file's own)\n"));
    free(out);
    hs_test_write_file(f, "2 4 7\n0 0 0\n");
    hs_test_bad_cli(args, ":1: header field '7': a header holds the number of tasks and at most the number of processors");
    hs_test_write_file(f, "2 x\n0 0 0\n");
    hs_test_bad_cli(args, ":1: header field 'x' is not a number of processors");
    hs_test_write_file(f, "2 4\n0 0 0\n1 5 1 0\n3 0 1 1\n");
    hs_test_bad_cli(args, ":4: task id 3 where 2 was expected");
    unlink(f);
    free(f);
}

static void test_bad_stg(void)
{
    hs_test_bad_workload_file("stg", "", "empty (an STG file starts with its number of tasks)");
    hs_test_bad_workload_file("stg", "2\n0 0 0\n1 x 1 0\n", ":3: processing time 'x' is not an integer");
    hs_test_bad_workload_file("stg", "2\n0 0 0\n2 3 1 0\n", ":3: task id 2 where 1 was expected");
    hs_test_bad_workload_file("stg", "2\n0 0 0\n1 3 1 9\n", ":3: predecessor '9' is not an integer in [0, 3]");
    hs_test_bad_workload_file("stg", "3\n0 0 0\n1 3 1 0\n", "2 task lines, but the header says 3 tasks (+2 dummies)");
    hs_test_bad_workload_file("stg", "1\n0 0 0\n1 3 1 1\n2 0 1 1\n", ":3: task 1 is its own predecessor");
    hs_test_bad_workload_file("stg", "1\n0 0 1 2\n1 3 1 0\n2 0 1 1\n", "the dependencies have a cycle");
    hs_test_bad_workload_file("stg", "1\n0 0 0\n1 3 2 0\n", "task 1: the file ends within its line");
    hs_test_bad_workload_file("stg", "0\n", "no task line");
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"Kasahara's STG: robot.stg's critical path", test_stg},
        {"bad STG", test_bad_stg},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("stg", tests);
}
