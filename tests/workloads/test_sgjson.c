/* tests/workloads/test_sgjson.c — SimGrid's JSON DAGs (workloads/sgjson.c):
 * SimGrid's example read with SimGrid's meaning (runtimeInSeconds as flops, a
 * transfer task as data; makespan on flat:2 by hand), and bad files refused
 * in one line naming the file and the field. */
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/dagio.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* flat:2 at 1 Gflop/s and 1 GB/s, no write-back: seconds are Gflop and GB. */
#define FLAT2 "-p flat:2,speed=1G,bw=1G -s heft --no-flush"

static void test_simgrid_json(void)
{
    struct hs_dag *dag = hs_test_build_file("%s", "simgrid-dag.json"); /* detected */
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_STRING_EQUAL(dag->name, "simple_json");
    CU_ASSERT_EQUAL(dag->ntasks, 3); /* the transfer t1 is data, not a task */
    CU_ASSERT_EQUAL(dag->tasks[hs_test_task_named(dag, "c2")].flops, 5e9); /* runtimeInSeconds: flops */
    int t1 = hs_test_handle_named(dag, "t1");
    CU_ASSERT_FATAL(t1 >= 0);
    CU_ASSERT_EQUAL(dag->handles[t1].bytes, 5e8); /* the transfer hetsim used to drop */
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "c1", "c3"), 5e8);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "c2", "c3"), 0);
    hs_dag_free(dag);
    /* read as WfFormat: t1 an empty task, no data, runtimes in seconds */
    dag = hs_test_build_file("wfformat:file=%s,semantics=wfformat", "simgrid-dag.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, 4);
    for (int h = 0; h < dag->nhandles; h++) /* only the private handles of 0-byte edges */
        CU_ASSERT_EQUAL(dag->handles[h].bytes, 0);
    hs_dag_free(dag);
    /* c2 then c3: 5 + 2 s; c1 (1 s) and t1 (0.5 GB) elsewhere fit in c2's 5 s */
    char args[1200];
    snprintf(args, sizeof args, FLAT2 " -w %s", hs_test_datafile("simgrid-dag.json"));
    CU_ASSERT_DOUBLE_EQUAL(hs_test_run_makespan(args), 7, 1e-9);
}

#define SGJSON(tasks) "{\"name\": \"w\", \"workflow\": {\"tasks\": [" tasks "]}}"
#define SGT(name, type, extra) "{\"name\": \"" name "\", \"type\": \"" type "\"" extra "}"

static void test_bad_simgrid_json(void)
{
    const char *sg = "wfformat:semantics=simgrid";
    hs_test_bad_workload_file(sg, SGJSON(SGT("a", "auxiliary", "")),
             "workflow.tasks[0].type: 'auxiliary' is not compute or transfer");
    hs_test_bad_workload_file(sg, SGJSON(SGT("a", "compute", ", \"runtimeInSeconds\": -1")),
             "workflow.tasks[0].runtimeInSeconds: negative");
    hs_test_bad_workload_file(sg, SGJSON(SGT("a", "compute", ", \"runtimeInSeconds\": 1") ","
                        SGT("b", "compute", ", \"runtimeInSeconds\": 1") ","
                        SGT("t", "transfer", ", \"writtenBytes\": 1, \"parents\": [\"a\", \"b\"]")),
             "workflow.tasks[2]: a transfer has one parent, a compute task");
    hs_test_bad_workload_file(sg, SGJSON(SGT("a", "compute", ", \"runtimeInSeconds\": 1, \"parents\": [\"zz\"]")),
             "workflow.tasks[0].parents[0]: 'zz' is not a task");
    hs_test_bad_workload_file(sg, SGJSON(SGT("a", "compute", ", \"runtimeInSeconds\": 1") ","
                        SGT("a", "compute", ", \"runtimeInSeconds\": 1")),
             "workflow.tasks[1]: duplicate task name 'a' (also workflow.tasks[0])");
    hs_test_bad_workload_file(sg, SGJSON(SGT("a", "compute", ", \"runtimeInSeconds\": 1, \"parents\": [\"b\"]") ","
                        SGT("b", "compute", ", \"runtimeInSeconds\": 1, \"parents\": [\"a\"]")),
             "workflow.tasks: the parents links have a cycle");
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"SimGrid's JSON DAG: flops and a transfer task", test_simgrid_json},
        {"bad SimGrid JSON DAG", test_bad_simgrid_json},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("sgjson", tests);
}
