/* tests/workloads/test_daggen.c — the `daggen` workload (DAGGEN's parameters):
 * levels and widths from n, fat and regularity, parents from density and jump
 * (exact bounds, and the mean in-degree against its exact expectation given
 * the widths), data sizes and complexities, the ccr rescaling, byte-identical
 * output for a seed, bad input, and a run on flat:4. Task labels L<level>.<k>
 * give each task's generation level. */
#include "analysis/dagstats.h"
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/dagio.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Level of each task from its label; returns the number of levels and fills
 * width[] (dag->ntasks entries at most). */
static int levels_of(const struct hs_dag *dag, int *level, int *width)
{
    int nl = 0;
    memset(width, 0, (size_t)dag->ntasks * sizeof(int));
    for (int i = 0; i < dag->ntasks; i++) {
        int l, k;
        CU_ASSERT_EQUAL_FATAL(sscanf(dag->tasks[i].label, "L%d.%d", &l, &k), 2);
        CU_ASSERT_EQUAL(k, width[l]); /* numbered level by level */
        level[i] = l;
        width[l]++;
        if (l + 1 > nl)
            nl = l + 1;
    }
    return nl;
}

static char *json_of(const char *spec)
{
    struct hs_dag *dag = hs_workload_build(spec);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    char *text = hs_test_dag_text(dag, false);
    hs_dag_free(dag);
    return text;
}

static void test_same_seed_same_bytes(void)
{
    char *a = json_of("daggen:n=200,fat=0.4,density=0.3,jump=2,seed=5");
    char *b = json_of("daggen:n=200,fat=0.4,density=0.3,jump=2,seed=5");
    char *c = json_of("daggen:n=200,fat=0.4,density=0.3,jump=2,seed=6");
    CU_ASSERT_STRING_EQUAL(a, b);
    CU_ASSERT_STRING_NOT_EQUAL(a, c);
    free(a);
    free(b);
    free(c);
}

/* Perfect width ⌊n^fat⌋; regularity 1 gives it exactly (the last level takes
 * what is left); fat = 1 is one level; a perfect width of 1 is a chain. */
static void test_exact_shapes(void)
{
    int level[100], width[100];
    struct hs_dag *dag = hs_test_build_seeded("daggen:n=64,fat=0.5,regularity=1,seed=%d", 1);
    CU_ASSERT_EQUAL(levels_of(dag, level, width), 8);
    for (int l = 0; l < 8; l++)
        CU_ASSERT_EQUAL(width[l], 8);
    hs_dag_free(dag);
    dag = hs_test_build_seeded("daggen:n=100,fat=0.5,regularity=1,seed=%d", 2); /* 10 levels of 10 */
    CU_ASSERT_EQUAL(levels_of(dag, level, width), 10);
    hs_dag_free(dag);
    dag = hs_test_build_seeded("daggen:n=50,fat=1,regularity=1,seed=%d", 3);
    CU_ASSERT_EQUAL(levels_of(dag, level, width), 1);
    CU_ASSERT_EQUAL(dag->nedges, 0);
    hs_dag_free(dag);
    dag = hs_test_build_seeded("daggen:n=30,fat=0.1,regularity=1,density=1,seed=%d", 4); /* 30^0.1 = 1.4 */
    CU_ASSERT_EQUAL(levels_of(dag, level, width), 30);
    CU_ASSERT_EQUAL(dag->nedges, 29); /* one parent each: 1 + ⌊U·1·1⌋ = 1 */
    for (int i = 1; i < 30; i++)
        CU_ASSERT_EQUAL(dag->edges[dag->tasks[i].pred[0]].src, i - 1);
    hs_dag_free(dag);
}

/* Structure over many DAGs: widths within [max(1, ⌊perfect·reg⌋),
 * perfect·(2-reg)]; every edge goes 1..jump levels down; every task below
 * level 0 has a parent; in-degree <= min(|L(i-1)|, 1 + ⌊density·|L(i-1)|⌋). */
static void check_structure(int n, double fat, double reg, double density, int jump, int *longest)
{
    char fmt[256];
    snprintf(fmt, sizeof fmt, "daggen:n=%d,fat=%g,regularity=%g,density=%g,jump=%d,seed=%%d", n,
             fat, reg, density, jump);
    double perfect = floor(pow(n, fat) + 1e-9);
    int *level = hs_xmalloc((size_t)n * sizeof(int)), *width = hs_xmalloc((size_t)n * sizeof(int));
    for (int seed = 1; seed <= 30; seed++) {
        struct hs_dag *dag = hs_test_build_seeded(fmt, seed);
        CU_ASSERT_EQUAL_FATAL(dag->ntasks, n);
        int nl = levels_of(dag, level, width);
        for (int l = 0; l < nl; l++) {
            CU_ASSERT(width[l] <= perfect * (2 - reg));
            if (l + 1 < nl)
                CU_ASSERT(width[l] >= fmax(1, floor(perfect * reg)));
        }
        for (int e = 0; e < dag->nedges; e++) {
            int span = level[dag->edges[e].dst] - level[dag->edges[e].src];
            CU_ASSERT(span >= 1 && span <= jump);
            if (span > *longest)
                *longest = span;
        }
        for (int i = 0; i < n; i++) {
            int above = level[i] ? width[level[i] - 1] : 0;
            CU_ASSERT_EQUAL(dag->tasks[i].npred == 0, level[i] == 0);
            CU_ASSERT(dag->tasks[i].npred <= above);
            CU_ASSERT(dag->tasks[i].npred <= 1 + floor(density * above));
        }
        hs_dag_free(dag);
    }
    free(level);
    free(width);
}

static void test_structure(void)
{
    int longest = 0;
    check_structure(300, 0.5, 0.9, 0.5, 1, &longest);
    CU_ASSERT_EQUAL(longest, 1);
    longest = 0;
    check_structure(300, 0.4, 0.2, 0.8, 3, &longest);
    CU_ASSERT_EQUAL(longest, 3);
    longest = 0;
    check_structure(200, 0.7, 0.0, 1.0, 2, &longest);
    check_structure(100, 0.3, 0.5, 0.0, 4, &longest);
}

/* Mean in-degree, jump = 1 (no duplicate level draws): a task of level i >= 1
 * has k = 1 + ⌊U·x⌋ parents, x = density·|L(i-1)|, U ~ U[0,1) (k never
 * exceeds |L(i-1)|). With m = ⌊x⌋, f = x - m: E⌊Ux⌋ = (m(m-1)/2 + m f)/x and
 * E⌊Ux⌋² = (Σ_{j<m} j² + m² f)/x. Tasks are independent given the widths:
 * 4 standard deviations of the sum. Density must show as a trend too. */
static double check_density(double density)
{
    char fmt[128];
    snprintf(fmt, sizeof fmt, "daggen:n=300,fat=0.5,density=%g,seed=%%d", density);
    double obs = 0, mean = 0, var = 0, ntask = 0;
    int level[300], width[300];
    for (int seed = 1; seed <= 100; seed++) {
        struct hs_dag *dag = hs_test_build_seeded(fmt, seed);
        levels_of(dag, level, width);
        for (int i = 0; i < dag->ntasks; i++) {
            if (level[i] == 0)
                continue;
            double x = density * width[level[i] - 1], m = floor(x), f = x - m;
            double e1 = x > 0 ? (m * (m - 1) / 2 + m * f) / x : 0;
            double e2 = x > 0 ? ((m - 1) * m * (2 * m - 1) / 6 + m * m * f) / x : 0;
            obs += dag->tasks[i].npred;
            mean += 1 + e1;
            var += e2 - e1 * e1;
            ntask++;
        }
        hs_dag_free(dag);
    }
    CU_ASSERT_DOUBLE_EQUAL(obs, mean, 4 * sqrt(var) + 1e-9);
    return obs / ntask;
}

static void test_density(void)
{
    double d0 = check_density(0), d2 = check_density(0.2), d5 = check_density(0.5),
           d1 = check_density(1);
    CU_ASSERT_DOUBLE_EQUAL(d0, 1, 0); /* one parent each */
    /* widths ≈ 17 (300^0.5): ≈ 1 + (x-1)/2 for x = 0.2·17, 0.5·17, 17 */
    CU_ASSERT(d0 < d2 && d2 < d5 && d5 < d1);
    CU_ASSERT(d1 > 7 && d1 < 10);
}

/* Data sizes and flops (N = d² elements, a ∈ [64, 512)). d is recovered from
 * a task's out-edges, 8·d² bytes each. */
static int data_size(const struct hs_dag *dag, const struct hs_task *t)
{
    if (t->nsucc == 0)
        return 0;
    double bytes = dag->edges[t->succ[0]].bytes;
    for (int k = 1; k < t->nsucc; k++)
        CU_ASSERT_EQUAL(dag->edges[t->succ[k]].bytes, bytes);
    double d = sqrt(bytes / 8);
    CU_ASSERT_EQUAL(d, round(d));
    return (int)d;
}

static void check_flops(const char *spec, int want_kinds)
{
    struct hs_dag *dag = hs_workload_build(spec);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    int seen[4] = {0};
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task *t = &dag->tasks[i];
        int d = data_size(dag, t);
        if (!d)
            continue;
        CU_ASSERT(d >= 100 && d <= 300);
        double N = (double)d * d, a1 = t->flops / N, a2 = t->flops / (N * log2(N));
        int kind = t->flops == N * d ? 3 : a1 >= 64 && a1 < 512 ? 1 : a2 >= 64 && a2 < 512 ? 2 : 0;
        CU_ASSERT(kind != 0);
        seen[kind] = 1;
    }
    CU_ASSERT_EQUAL(seen[1] + 2 * seen[2] + 4 * seen[3], want_kinds);
    hs_dag_free(dag);
}

static void test_costs(void)
{
    /* a·N (< 512·9e4) and N^1.5 (>= 1e6) cannot be confused for d in [100, 300];
     * a·N·log2 N lies in [64·N·13.3, 512·N·16.5): a2 tells it from a·N */
    check_flops("daggen:n=200,mindata=100,maxdata=300,complexity=n", 1);
    check_flops("daggen:n=200,mindata=100,maxdata=300,complexity=nlogn", 2);
    check_flops("daggen:n=200,mindata=100,maxdata=300,complexity=n1.5", 4);
    check_flops("daggen:n=200,mindata=100,maxdata=300", 7);
    struct hs_dag *dag = hs_workload_build("daggen:n=200,complexity=range,mincomp=2G,maxcomp=3G");
    for (int i = 0; i < dag->ntasks; i++)
        CU_ASSERT(dag->tasks[i].flops >= 2e9 && dag->tasks[i].flops <= 3e9);
    hs_dag_free(dag);
}

/* ccr=X rescales the bytes: the DAG's own CCR (with the workload's speed and
 * bw, --stats' definition) is X. */
static void test_ccr(void)
{
    struct hs_dagstats st;
    struct hs_dag *dag = hs_workload_build("daggen:n=300,ccr=2.5,speed=2G,bw=10M");
    hs_dag_stats(dag, 2e9, 1e7, &st, NULL);
    HS_ASSERT_NEAR_REL(st.ccr, 2.5, 1e-12);
    hs_dag_free(dag);
    dag = hs_workload_build("daggen:n=100,ccr=0");
    for (int e = 0; e < dag->nedges; e++)
        CU_ASSERT_EQUAL(dag->edges[e].bytes, 0);
    hs_dag_free(dag);
    /* the same seed with and without ccr: same graph, proportional bytes */
    struct hs_dag *a = hs_workload_build("daggen:n=100"), *b = hs_workload_build("daggen:n=100,ccr=1");
    CU_ASSERT_EQUAL_FATAL(a->nedges, b->nedges);
    double ratio = b->edges[0].bytes / a->edges[0].bytes;
    for (int e = 0; e < a->nedges; e++)
        /* sizes are whole bytes: b's are rounded, and so is the ratio taken from edge 0 */
        CU_ASSERT_DOUBLE_EQUAL(b->edges[e].bytes, ratio * a->edges[e].bytes,
                               0.5 + 0.5 * a->edges[e].bytes / a->edges[0].bytes);
    hs_dag_free(a);
    hs_dag_free(b);
}

static void test_errors(void)
{
    hs_test_bad_workload("daggen:fat=0", "parameter fat: 0 is outside the allowed range (0,1]");
    hs_test_bad_workload("daggen:fat=1.5", "parameter fat");
    hs_test_bad_workload("daggen:density=1.5", "parameter density: 1.5 is outside the allowed range [0,1]");
    hs_test_bad_workload("daggen:density=-0.1", "parameter density");
    hs_test_bad_workload("daggen:regularity=-0.1", "parameter regularity");
    hs_test_bad_workload("daggen:jump=0", "parameter jump");
    hs_test_bad_workload("daggen:n=0", "parameter n");
    hs_test_bad_workload("daggen:mindata=1", "parameter mindata");
    hs_test_bad_workload("daggen:mindata=500,maxdata=400", "mindata=500 is larger than maxdata=400");
    hs_test_bad_workload("daggen:mincomp=5G,maxcomp=1G", "mincomp=5G is larger than maxcomp=1G");
    hs_test_bad_workload("daggen:ccr=-1", "parameter ccr: '-1' is not a number >= 0 or native");
    hs_test_bad_workload("daggen:ccr=lots", "parameter ccr: 'lots'");
    hs_test_bad_workload("daggen:complexity=cubic", "parameter complexity: 'cubic' is not one of");
}

static void test_run_flat(void)
{
    char *err;
    CU_ASSERT_EQUAL(hs_test_cli("run -q -p flat:4 -w daggen:n=60,jump=2 -s dmda", NULL, &err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    free(err);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"same seed, same JSON bytes", test_same_seed_same_bytes},
        {"exact shapes: regular levels, fat=1, chain", test_exact_shapes},
        {"widths, jump spans, parents bounds", test_structure},
        {"mean in-degree against density", test_density},
        {"data sizes and complexities", test_costs},
        {"ccr rescaling", test_ccr},
        {"bad parameters: one line naming the parameter", test_errors},
        {"run on flat:4 under dmda", test_run_flat},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("daggen", tests);
}
