/* tests/workloads/test_qr.c — PLASMA's tile QR (workloads/qr.c): the
 * 2×2-tile DAG derived by hand from the loop nest, with its WAR edge and the
 * LAWN-41 total. What QR shares with LU (counts, regions, architectures) is
 * tested in test_tiles.c. */
#include "analysis/dagstats.h"
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <math.h>
#include <string.h>

static void test_qr_2x2(void)
{
    struct hs_dag *dag = hs_workload_build("qr:n=4,nb=2,ib=1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, 5); /* geqrt(0) ormqr(0,1) tsqrt(1,0) tsmqr(1,1,0) geqrt(1) */
    CU_ASSERT_EQUAL(dag->nedges, 6);
    CU_ASSERT((hs_test_edge_bytes(dag, 0, 1) == 32 + 16)); /* A(0,0) and T(0,0) */
    CU_ASSERT((hs_test_edge_bytes(dag, 0, 2) == 32));
    CU_ASSERT((hs_test_edge_bytes(dag, 1, 2) == 0));
    CU_ASSERT((hs_test_edge_bytes(dag, 1, 3) == 32));
    CU_ASSERT((hs_test_edge_bytes(dag, 2, 3) == 32 + 16)); /* A(1,0) and T(1,0) */
    CU_ASSERT((hs_test_edge_bytes(dag, 3, 4) == 32));
    /* LAWN 41 at n = 4: 4*64/3 + 2*16 + 14*4/3 = 136 */
    CU_ASSERT_DOUBLE_EQUAL(dag->total_flops, 136.0, 1e-12);
    hs_dag_free(dag);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"QR 2x2 tiles by hand", test_qr_2x2},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("qr", tests);
}
