/* tests/workloads/test_products.c — the outer and matrix products
 * (workloads/products.c): tasks, handles and sizes by hand, bad parameters. */
#include "analysis/dagstats.h"
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <math.h>
#include <string.h>

static void test_products(void)
{
    struct hs_dag *dag = hs_workload_build("outer:n=7,l=10");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, 49);
    CU_ASSERT_EQUAL(dag->nedges, 0);
    CU_ASSERT_EQUAL(dag->nhandles, 14);
    CU_ASSERT_DOUBLE_EQUAL(dag->handles[0].bytes, 80, 0);
    hs_dag_free(dag);
    dag = hs_workload_build("matmul:n=5,l=4,precision=s");
    CU_ASSERT_EQUAL(dag->ntasks, 125);
    CU_ASSERT_EQUAL(dag->nedges, 0);
    CU_ASSERT_EQUAL(dag->nhandles, 75);
    CU_ASSERT_DOUBLE_EQUAL(dag->handles[0].bytes, 64, 0);
    CU_ASSERT_EQUAL(dag->tasks[0].naccess, 3);
    hs_dag_free(dag);
}

static void test_bad_parameters(void)
{
    CU_ASSERT_PTR_NULL(hs_workload_build("outer:n=0"));
    CU_ASSERT_PTR_NULL(hs_workload_build("matmul:l=-1"));
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"outer and matrix products", test_products},
        {"bad parameters", test_bad_parameters},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("products", tests);
}
