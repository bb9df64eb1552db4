/* tests/workloads/test_lu.c — PLASMA's tile LU with incremental pivoting
 * (workloads/lu.c): the 2×2-tile DAG derived by hand from the loop nest,
 * with its WAR edge and the LAWN-41 total. What LU shares with QR (counts,
 * regions, architectures) is tested in test_tiles.c. */
#include "analysis/dagstats.h"
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <math.h>
#include <string.h>

/* nb = 2, ib = 1, double: tiles 32 B, L and T blocks 16 B, IPIV 8 B. */
static void test_lu_2x2(void)
{
    struct hs_dag *dag = hs_workload_build("lu:n=4,nb=2,ib=1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, 5); /* getrf(0) gessm(0,1) tstrf(1,0) ssssm(1,1,0) getrf(1) */
    CU_ASSERT_EQUAL(dag->nedges, 6);
    CU_ASSERT((hs_test_edge_bytes(dag, 0, 1) == 32 + 8)); /* A(0,0) and IPIV(0,0) */
    CU_ASSERT((hs_test_edge_bytes(dag, 0, 2) == 32));     /* A(0,0) updated by TSTRF */
    CU_ASSERT((hs_test_edge_bytes(dag, 1, 2) == 0));      /* WAR: GESSM reads A(0,0) before TSTRF writes it */
    CU_ASSERT((hs_test_edge_bytes(dag, 1, 3) == 32));     /* A(0,1) */
    CU_ASSERT((hs_test_edge_bytes(dag, 2, 3) == 32 + 16 + 8)); /* A(1,0), L(1,0), IPIV(1,0) */
    CU_ASSERT((hs_test_edge_bytes(dag, 3, 4) == 32));     /* A(1,1) */
    /* LAWN 41 at n = 4: 2*64/3 - 16/2 + 5*4/6 = 38 */
    CU_ASSERT_DOUBLE_EQUAL(dag->total_flops, 38.0, 1e-12);
    hs_dag_free(dag);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"LU 2x2 tiles by hand", test_lu_2x2},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("lu", tests);
}
