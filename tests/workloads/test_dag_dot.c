/* tests/workloads/test_dag_dot.c — writing a DAG as DOT (workloads/dag_dot.c):
 * the Cholesky and GEMM DAGs and a hand-written one through JSON and DOT and
 * back (costs, architectures, footprints, kept attributes), the same text
 * written again. */
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/dagio.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- hetsim JSON ------------------------------------------------------------ */

static void round_trip(const char *spec, bool dot)
{
    struct hs_dag *dag = hs_workload_build(spec);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    struct hs_dag *back = hs_test_dag_reread(dag, dot);
    CU_ASSERT_PTR_NOT_NULL_FATAL(back);
    CU_ASSERT_EQUAL(back->ntasks, dag->ntasks);
    CU_ASSERT_EQUAL(back->nedges, dag->nedges);
    CU_ASSERT_STRING_EQUAL(back->name, dag->name);
    CU_ASSERT_EQUAL(back->total_flops, dag->total_flops);
    int same = 0;
    for (int e = 0; e < dag->nedges; e++) {
        const struct hs_edge *x = &dag->edges[e], *y = &back->edges[e];
        same += x->src == y->src && x->dst == y->dst && x->bytes == y->bytes;
    }
    CU_ASSERT_EQUAL(same, dag->nedges);
    for (int t = 0; t < dag->ntasks; t++) {
        CU_ASSERT_EQUAL(back->tasks[t].flops, dag->tasks[t].flops);
        CU_ASSERT_EQUAL(back->tasks[t].footprint, dag->tasks[t].footprint);
        CU_ASSERT_STRING_EQUAL(back->tasks[t].label, dag->tasks[t].label);
        CU_ASSERT_STRING_EQUAL(back->kernels[back->tasks[t].kernel], dag->kernels[dag->tasks[t].kernel]);
    }
    if (!dot) /* the data-flow is kept: the same handles, renamed versions included */
        CU_ASSERT_EQUAL(back->nhandles, dag->nhandles);
    char *a = hs_test_dag_text(dag, dot), *b = hs_test_dag_text(back, dot);
    CU_ASSERT_STRING_EQUAL(a, b);
    free(a);
    free(b);
    hs_dag_free(back);
    hs_dag_free(dag);
}

static void test_round_trips(void)
{
    /* 4x4 tiles: 4 + 6 + 6 + 4 = 20 tasks */
    round_trip("cholesky:n=2048,nb=512", false);
    round_trip("cholesky:n=2048,nb=512", true);
    round_trip("gemm:n=2048,m=1024,k=3072,nb=1024,precision=s", false);
    /* the hand-made DAG through DOT: costs, archs, footprint, kept attributes */
    struct hs_dag *dag = hs_test_handmade_dag();
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    struct hs_dag *back = hs_test_dag_reread(dag, true);
    CU_ASSERT_PTR_NOT_NULL_FATAL(back);
    hs_test_check_handmade(back, false);
    CU_ASSERT_EQUAL(back->nhandles, 3); /* one private handle per dependency */
    char *a = hs_test_dag_text(dag, true), *b = hs_test_dag_text(back, true);
    CU_ASSERT_STRING_EQUAL(a, b);
    CU_ASSERT_PTR_NOT_NULL(strstr(a, "costs=\"1,2,inf,0.5\""));
    free(a);
    free(b);
    hs_dag_free(back);
    hs_dag_free(dag);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"JSON and DOT round trips", test_round_trips},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("dag_dot", tests);
}
