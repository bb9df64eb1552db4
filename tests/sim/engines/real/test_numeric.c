/* tests/sim/engines/real/test_numeric.c — the real engine's numerics on a
 * core (sim/engines/real/numeric.c, numeric_check.c, numeric_lu.c): the real
 * kernels factor and multiply correctly run one after the other, the
 * residual catches a missing task, and a right LU of 96 tiles passes its
 * residual (U's growth) while a wrong one does not. */
#include "base/util.h"
#include "sim/engines/real/calibrate.h"
#include "sim/engines/real/machine.h"
#include "sim/engines/real/numeric.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void **host_buffers(const struct hs_dag *dag)
{
    void **host = hs_xcalloc((size_t)dag->nhandles, sizeof(void *));
    for (int h = 0; h < dag->nhandles; h++)
        host[h] = hs_xcalloc(1, (size_t)dag->handles[h].bytes);
    return host;
}

/* Every task in submission order (a valid sequential order) on the core. */
static double run_sequentially(const char *spec, int corrupt_task)
{
    struct hs_dag *dag = hs_workload_build(spec);
    struct hs_numeric num;
    hs_numeric_init(&num, dag);
    CU_ASSERT_NOT_EQUAL_FATAL(num.family, HS_FAMILY_NONE);
    void **host = host_buffers(dag);
    hs_numeric_fill(&num, dag, host);
    for (int t = 0; t < dag->ntasks; t++) {
        if (t == corrupt_task)
            continue; /* a schedule that skips a task must not pass */
        void *bufs[HS_NUMERIC_MAX_BUFS];
        CU_ASSERT_TRUE(hs_numeric_task_bufs(dag, t, host, bufs) && hs_numeric_cpu(&num, dag, t, bufs));
    }
    double r = hs_numeric_residual(&num, dag, host);
    for (int h = 0; h < dag->nhandles; h++)
        free(host[h]);
    free(host);
    hs_numeric_free(&num);
    hs_dag_free(dag);
    return r;
}

static void test_cpu_kernels_and_residual(void)
{
    const char *specs[] = {"cholesky:n=384,nb=64", "cholesky:n=256,nb=64,precision=s",
                           "gemm:n=256,nb=64", "gemm:n=192,nb=64,precision=s",
                           "lu:n=384,nb=64,ib=16", "lu:n=320,nb=64,ib=24,precision=s",
                           "qr:n=384,nb=64,ib=16", "qr:n=320,nb=64,ib=24,precision=s"};
    for (int i = 0; i < 8; i++) {
        double good = run_sequentially(specs[i], -1), bad = run_sequentially(specs[i], 7);
        CU_ASSERT(good < 1);  /* hs_numeric_residual: a right result is well below 1 */
        CU_ASSERT(bad > 5);   /* single precision gives about 10 for one missing task */
    }
    struct hs_dag *dag = hs_workload_build("cholesky:n=64,nb=64");
    struct hs_numeric num;
    hs_numeric_init(&num, dag);
    CU_ASSERT_EQUAL(num.nt, 1);
    hs_numeric_free(&num);
    hs_dag_free(dag);
}

/* LU with incremental pivoting lets U grow with the tile count: a right
 * factorisation of 96 tiles of 32 scaled by |A| alone gave 1.25 (refused as
 * wrong); scaled by the larger of |A| and |U| it is a few eps, and one
 * missing task still shows. */
static void test_lu_growth(void)
{
    CU_ASSERT(run_sequentially("lu:n=3072,nb=32,ib=16", -1) < 0.1);
    CU_ASSERT(run_sequentially("lu:n=3072,nb=32,ib=16", 7) > 5);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"real kernels on a core, residual catches a missing task", test_cpu_kernels_and_residual},
        {"a right LU of 96 tiles passes its residual (U's growth), a wrong one does not", test_lu_growth},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("numeric", tests);
}
