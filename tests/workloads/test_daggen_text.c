/* tests/workloads/test_daggen_text.c — DAGGEN's text output
 * (workloads/daggen_text.c): read as the DOT output of the same graph
 * (tests/data/README.md gives where the files come from), and bad files
 * refused in one line naming the file and the field. */
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/dagio.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_daggen_text(void)
{
    /* one DAGGEN graph, written by DAGGEN as text and as DOT */
    struct hs_dag *t = hs_test_build_file("daggen-text:%s", "daggen-6.txt"), *d = hs_test_build_file("%s", "daggen-6.dot");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(t->ntasks, 6);
    CU_ASSERT_EQUAL(t->ntasks, d->ntasks);
    CU_ASSERT_EQUAL(t->nedges, d->nedges);
    for (int i = 0; i < t->ntasks && i < d->ntasks; i++) {
        CU_ASSERT_STRING_EQUAL(t->tasks[i].label, d->tasks[i].label);
        CU_ASSERT_EQUAL(t->tasks[i].flops, d->tasks[i].flops);
    }
    for (int e = 0; e < t->nedges && e < d->nedges; e++) {
        CU_ASSERT_EQUAL(t->edges[e].src, d->edges[e].src);
        CU_ASSERT_EQUAL(t->edges[e].dst, d->edges[e].dst);
        CU_ASSERT_EQUAL(t->edges[e].bytes, d->edges[e].bytes);
    }
    /* "NODE 4 5,6 COMPUTATION 380623105500 0.07", its transfer 5 to node 7 */
    CU_ASSERT_EQUAL(t->tasks[hs_test_task_named(t, "3")].flops, 380623105500.0);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(t, "3", "5"), 411041792);
    hs_dag_free(t);
    hs_dag_free(d);
}

static void test_bad_daggen_text(void)
{
    hs_test_bad_workload_file("daggen-text", "NODE 0 1 ROOT 0.0 0.0\n", ":1: not DAGGEN's text output (it starts with NODE_COUNT <n>)");
    hs_test_bad_workload_file("daggen-text", "NODE_COUNT 3\nNODE 0 1 ROOT 0.0 0.0\nNODE 1 2 WORK 5 0.1\n",
             ":3: node type (ROOT, COMPUTATION, TRANSFER, END) 'WORK'");
    hs_test_bad_workload_file("daggen-text", "NODE_COUNT 3\nNODE 0 1 ROOT 0.0 0.0\nNODE 1 2 COMPUTATION -5 0.1\n",
             ":3: cost (a number >= 0) '-5'");
    hs_test_bad_workload_file("daggen-text", "NODE_COUNT 3\nNODE 0 1 ROOT 0 0\nNODE 1 7 COMPUTATION 5 0.1\nNODE 2 - END 0 0\n",
             ":3: node 1: child '7' is not a node");
    hs_test_bad_workload_file("daggen-text", "NODE_COUNT 3\nNODE 0 1 ROOT 0 0\nNODE 0 2 COMPUTATION 5 0.1\n",
             ":3: node 0 declared twice (also line 2)");
    hs_test_bad_workload_file("daggen-text", "NODE_COUNT 3\nNODE 0 1 ROOT 0 0\nNODE 1 2 COMPUTATION 5 0.1\n",
             "node 2 is not declared (NODE_COUNT is 3)");
    hs_test_bad_workload_file("daggen-text", "NODE_COUNT 2\nNODE 0 1 ROOT 0 0\nNODE 1 - END 0\n",
             ":3: a NODE line has 5 fields");
    hs_test_bad_workload_file("daggen-text", "NODE_COUNT 900000000\n", ":1: NODE_COUNT 900000000, but the file has 2 lines");
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"DAGGEN's text output is its DOT output", test_daggen_text},
        {"bad DAGGEN text", test_bad_daggen_text},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("daggen_text", tests);
}
