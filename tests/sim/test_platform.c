/* tests/sim/test_platform.c — the routes between memory nodes are asked on
 * first use (sim/platform.c, sim/routes.c): a platform of n processors asks
 * for the 2n routes to and from host memory when it is built, a run with k
 * transfers for at most k more, where every pair would be n(n+1) (the check
 * of a platform file before its run: test_platform_simgrid). The counts are
 * the platforms' own: n processors and one RAM host, the transfers counted
 * from the run's events. */
#include "base/util.h"
#include "policies/registry.h"
#include "sim/platform.h"
#include "tests/support/testing.h"

#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NPROCS = 200 };

/* Hosts "P<i>" and "RAM0": every route 1e-5 s and 1 GB/s, except between
 * processors i and j with i + j a multiple of 3, which have none; each query
 * counted in *ctx. */
static bool counted_route(void *ctx, const char *src, const char *dst, double *lat, double *bw)
{
    ++*(long *)ctx;
    int i, j;
    if (sscanf(src, "P%d", &i) == 1 && sscanf(dst, "P%d", &j) == 1 && (i + j) % 3 == 0)
        return false;
    *lat = 1e-5;
    *bw = 1e9;
    return true;
}

static void proc_inventory(struct hs_inventory *inv, int n)
{
    inv->n = 0;
    inv->hosts = hs_xcalloc((size_t)n + 1, sizeof *inv->hosts);
    char name[16];
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "P%d", i);
        inv->hosts[inv->n++] = (struct hs_inv_host){hs_xstrdup(name), HS_HOST_PROC, 1e9, 0, -1, -1, 0, 1, false};
    }
    inv->hosts[inv->n++] = (struct hs_inv_host){hs_xstrdup("RAM0"), HS_HOST_RAM, 1, 0, -1, 0, 0, 1, false};
}

/* Node 1 + i is processor P<i> (the inventory's order). */
static void test_routes_on_first_use(void)
{
    struct hs_inventory inv;
    struct hs_select sel;
    struct hs_platform pf;
    long asked = 0;
    proc_inventory(&inv, NPROCS);
    hs_select_defaults(&sel);
    CU_ASSERT_EQUAL_FATAL(hs_platform_build(&pf, "t", &inv, &sel, counted_route, &asked), 0);
    CU_ASSERT_EQUAL(pf.nnodes, NPROCS + 1);
    CU_ASSERT_EQUAL(asked, 2 * NPROCS); /* to and from host memory, not (n + 1) n */
    CU_ASSERT_EQUAL(hs_platform_routes_asked(&pf), 2 * NPROCS);
    /* k = 50 pairs (P<i>, P<i+1>), each asked once however often it is used */
    for (int rep = 0; rep < 3; rep++)
        for (int i = 0; i < 50; i++) {
            double t = hs_platform_link_time(&pf, 1 + i, 2 + i, 1e9);
            if ((2 * i + 1) % 3 == 0) {
                CU_ASSERT(isinf(t));
            } else {
                CU_ASSERT_DOUBLE_EQUAL(t, 1 + 1e-5, 1e-12);
            }
        }
    CU_ASSERT_EQUAL(asked, 2 * NPROCS + 50);
    CU_ASSERT_FALSE(hs_platform_has_route(&pf, 1 + 1, 1 + 2)); /* P1 -> P2 kept: 1 + 2 = 3, none */
    CU_ASSERT_TRUE(hs_platform_has_route(&pf, 1 + 1, 1 + 3));  /* P1 -> P3 asked now */
    CU_ASSERT_EQUAL(asked, 2 * NPROCS + 51);
    CU_ASSERT_DOUBLE_EQUAL(hs_platform_link_time(&pf, 5, 5, 1e9), 0, 0);
    CU_ASSERT_EQUAL(asked, 2 * NPROCS + 51);
    /* every pair: the table grows from 64 slots to 65,536 and keeps each */
    hs_platform_routes_all(&pf);
    CU_ASSERT_EQUAL(asked, (long)(NPROCS + 1) * NPROCS);
    int none = 0;
    for (int i = 0; i < NPROCS; i++)
        for (int j = 0; j < NPROCS; j++)
            if (i != j)
                none += !hs_platform_has_route(&pf, 1 + i, 1 + j);
    int expect = 0; /* ordered pairs i != j with i + j = 0 mod 3, counted by residue */
    for (int i = 0; i < NPROCS; i++)
        for (int j = 0; j < NPROCS; j++)
            expect += i != j && (i + j) % 3 == 0;
    CU_ASSERT_EQUAL(none, expect);
    CU_ASSERT_EQUAL(asked, (long)(NPROCS + 1) * NPROCS); /* all kept: none asked again */
    hs_platform_free(&pf);
    hs_inventory_free(&inv);
}

/* flat:200 (each of 200 processors with its own memory, built through
 * SimGrid's API: nothing to check in a child, no route table); an eager run
 * of a Cholesky DAG asks, besides the 2n of the build, at most one route per
 * transfer (its source: the first node holding the data with a direct route). */
static void test_flat_run_counts(void)
{
    struct hs_run_config cfg = hs_test_flat_config(NPROCS, NULL);
    struct hs_dag *dag = hs_test_build_seeded("cholesky:n=%d,nb=512", 3072); /* 6 tiles: 56 tasks */
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    cJSON *r = hs_test_simulate(&cfg, dag, hs_policy_find("eager"), "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(r, "error"));
    int k = cJSON_GetArraySize(cJSON_GetObjectItem(r, "xfers"));
    int between = 0; /* transfers between two processors: those whose route is not host memory's */
    for (int i = 0; i < k; i++) {
        const cJSON *x = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "xfers"), i);
        between += hs_test_num(x, "src") > 0 && hs_test_num(x, "dst") > 0;
    }
    long asked = (long)hs_test_num(r, "routes_asked");
    CU_ASSERT(between > 0);
    CU_ASSERT(asked >= 2 * NPROCS);
    CU_ASSERT(asked <= 2 * NPROCS + k);
    CU_ASSERT(asked < (long)(NPROCS + 1) * NPROCS / 10);
    cJSON_Delete(r);
    hs_dag_free(dag);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"routes are asked on first use and kept", test_routes_on_first_use},
        {"flat:200: an eager run asks O(n + k) routes", test_flat_run_counts},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("platform", tests);
}
