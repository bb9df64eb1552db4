/* tests/workloads/test_dag_json_read.c — the "json" workload
 * (workloads/dag_json_read.c) on bad files through the `hetsim` command:
 * malformed JSON (with the line), a cycle (named), negative costs, sizes and
 * bytes, references to missing tasks and handles, duplicate ids; each gives
 * exit code 2 and one line on stderr that says what is wrong. */
#include "base/util.h"
#include "tests/support/testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TASK(label) "{\"label\":\"" label "\",\"kernel\":\"k\",\"flops\":1}"

static void test_bad_json(void)
{
    hs_test_bad_dag_file(".json", "{\n  \"tasks\": [\n    {\"label\": \"a\",, }\n  ]\n}\n",
             "malformed JSON near line 3");
    hs_test_bad_dag_file(".json", "{\"tasks\": [" TASK("a") "]} trailing", "malformed JSON near line 1");
    hs_test_bad_dag_file(".json", "{\"tasks\": [" TASK("a") "," TASK("b") "," TASK("c") "],\n"
                      " \"edges\": [{\"src\":0,\"dst\":1},{\"src\":1,\"dst\":2},{\"src\":2,\"dst\":0}]}",
             "has a cycle (through a, b, c)");
    hs_test_bad_dag_file(".json", "{\"tasks\": [" TASK("a") "], \"edges\": [{\"src\":0,\"dst\":0}]}",
             "edges[0]: task a depends on itself (a cycle)");
    hs_test_bad_dag_file(".json", "{\"tasks\": [{\"kernel\":\"k\",\"costs\":{\"cpu\":-1}}]}",
             "tasks[0].costs.cpu: -1 is negative");
    hs_test_bad_dag_file(".json", "{\"tasks\": [{\"kernel\":\"k\",\"costs\":[1,\"x\"]}]}",
             "tasks[0].costs[1]: not a number");
    hs_test_bad_dag_file(".json", "{\"tasks\": [" TASK("a") "," TASK("b") "], \"edges\": [{\"src\":0,\"dst\":1.5}]}",
             "edges[0].dst: not an index (an integer >= 0)");
    hs_test_bad_dag_file(".json", "{\"tasks\": [" TASK("a") ",{\"kernel\":\"k\",\"flops\":-2}]}",
             "tasks[1].flops: -2 is negative");
    hs_test_bad_dag_file(".json", "{\"handles\": [{\"name\":\"x\",\"bytes\":-8}], \"tasks\": [" TASK("a") "]}",
             "handles[0].bytes: -8 is negative");
    hs_test_bad_dag_file(".json", "{\"tasks\": [" TASK("a") "," TASK("b") "], \"edges\": [{\"src\":0,\"dst\":1,\"bytes\":-3}]}",
             "edges[0].bytes: -3 is negative");
    hs_test_bad_dag_file(".json", "{\"tasks\": [" TASK("a") "," TASK("b") "], \"edges\": [{\"src\":0,\"dst\":5}]}",
             "edges[0]: task 5 is not a task (the file has 2)");
    hs_test_bad_dag_file(".json", "{\"handles\": [{\"name\":\"x\",\"bytes\":8}],\n \"tasks\": [{\"kernel\":\"k\","
                      "\"accesses\":[{\"handle\":0,\"mode\":\"R\"},{\"handle\":3,\"mode\":\"R\"}]}]}",
             "tasks[0].accesses[1].handle: 3 is not a handle (the file has 1)");
    hs_test_bad_dag_file(".json", "{\"tasks\": [{\"kernel\":\"k\",\"accesses\":[{\"handle\":0,\"mode\":\"X\"}]}]}",
             "tasks[0].accesses[0].mode: not \"R\", \"W\" or \"RW\"");
    hs_test_bad_dag_file(".json", "{\"tasks\": [{\"kernel\":\"k\",\"costs\":[1,2]},{\"kernel\":\"k\",\"costs\":[1,2,3]}]}",
             "tasks[1].costs: 3 per-processor costs, but tasks[0] has 2");
    hs_test_bad_dag_file(".json", "{\"tasks\": [" TASK("a") ",{\"kernel\":\"k\",\"costs\":[1,2]}]}",
             "tasks[0]: no per-processor costs, but tasks[1] has 2");
    hs_test_bad_dag_file(".json", "{\"tasks\": [{\"kernel\":\"k\",\"flop\":1}]}",
             "tasks[0]: unknown key 'flop' (valid: label, kernel, flops, footprint, accesses, costs, archs, attrs)");
    hs_test_bad_dag_file(".json", "{\"tasks\": [{\"kernel\":\"k\",\"archs\":[\"fpga\"]}]}",
             "tasks[0].archs: not a list of \"cpu\" and \"gpu\"");
    hs_test_bad_dag_file(".json", "{\"taks\": []}", "unknown key 'taks' (valid: name, total_flops, handles, tasks");
    hs_test_bad_dag_file(".json", "{\"tasks\": []}", "has no task");
    hs_test_bad_dag_file(".json", "[]", "the top level must be an object");
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"bad hetsim JSON", test_bad_json},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("dag_json_read", tests);
}
