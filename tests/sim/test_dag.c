/* tests/sim/test_dag.c — dependency inference, renaming, explicit edges,
 * cycle detection, the task counts of the tiled workloads, the SetArch
 * hints every workload takes, the labels of tiles and tasks, and a DAG's
 * kernels found by hashing, not by a scan of them all. */
#include "base/buf.h"
#include "base/inputfile.h"
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/label.h"
#include "workloads/workload.h"

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool has_edge(const struct hs_dag *dag, int src, int dst, double bytes)
{
    for (int e = 0; e < dag->nedges; e++)
        if (dag->edges[e].src == src && dag->edges[e].dst == dst)
            return dag->edges[e].bytes == bytes;
    return false;
}

/* Hand-checked sequence on datum a (100 B) and b (7 B):
 *   t0 W a    first access: no rename, no edge
 *   t1 R a    RAW t0->t1 (100)
 *   t2 R a    RAW t0->t2 (100)
 *   t3 RW a   WAR t1->t3, t2->t3 (0) and RAW t0->t3 (100)
 *   t4 W a    a was accessed: renamed to a#1, no edge
 *   t5 R a    RAW t4->t5 (100), reads a#1
 *   t6 R b    never written: no edge
 *   t7 RW a, R b   RAW/WAW t4->t7 (100) and WAR t5->t7 (0) summed: 100 */
static void test_inference(void)
{
    struct hs_dag *dag = hs_dag_new("seq");
    int a = hs_dag_add_handle(dag, "a", 100), b = hs_dag_add_handle(dag, "b", 7);
    enum hs_mode modes[] = {HS_MODE_W, HS_MODE_R, HS_MODE_R, HS_MODE_RW, HS_MODE_W, HS_MODE_R};
    for (int i = 0; i < 6; i++)
        hs_dag_access(dag, hs_dag_add_task(dag, "k", NULL, 1, 0), a, modes[i]);
    hs_dag_access(dag, hs_dag_add_task(dag, "k", NULL, 1, 0), b, HS_MODE_R);
    int t7 = hs_dag_add_task(dag, "k", NULL, 1, 0);
    hs_dag_access(dag, t7, a, HS_MODE_RW);
    hs_dag_access(dag, t7, b, HS_MODE_R);
    CU_ASSERT_EQUAL_FATAL(hs_dag_finalize(dag), 0);

    CU_ASSERT_EQUAL(dag->nedges, 8);
    CU_ASSERT(has_edge(dag, 0, 1, 100));
    CU_ASSERT(has_edge(dag, 0, 2, 100));
    CU_ASSERT(has_edge(dag, 1, 3, 0));
    CU_ASSERT(has_edge(dag, 2, 3, 0));
    CU_ASSERT(has_edge(dag, 0, 3, 100));
    CU_ASSERT(has_edge(dag, 4, 5, 100));
    CU_ASSERT(has_edge(dag, 4, 7, 100));
    CU_ASSERT(has_edge(dag, 5, 7, 0));
    CU_ASSERT_EQUAL(dag->tasks[6].npred, 0);
    CU_ASSERT_EQUAL(dag->tasks[4].npred, 0);
    /* renaming: t4 writes a new version that t5 and t7 access */
    int v1 = dag->tasks[4].access[0].handle;
    CU_ASSERT_NOT_EQUAL(v1, a);
    CU_ASSERT_EQUAL(dag->handles[v1].origin, a);
    CU_ASSERT_EQUAL(dag->handles[v1].version, 1);
    CU_ASSERT_STRING_EQUAL(dag->handles[v1].name, "a#1");
    CU_ASSERT_EQUAL(dag->tasks[5].access[0].handle, v1);
    CU_ASSERT_FALSE(dag->handles[a].latest);
    CU_ASSERT_TRUE(dag->handles[v1].latest);
    CU_ASSERT_EQUAL(dag->tasks[3].access[0].handle, a);
    CU_ASSERT_EQUAL(dag->tasks[0].nsucc, 3);
    hs_dag_free(dag);
}

static void test_explicit_edges_any_order(void)
{
    struct hs_dag *dag = hs_dag_new("edges");
    for (int i = 0; i < 3; i++)
        hs_dag_add_task(dag, "k", NULL, 1, 0);
    hs_dag_add_edge(dag, 2, 0, 5); /* against submission order */
    hs_dag_add_edge(dag, 0, 1, 6);
    CU_ASSERT_EQUAL_FATAL(hs_dag_finalize(dag), 0);
    CU_ASSERT(has_edge(dag, 2, 0, 5));
    CU_ASSERT(has_edge(dag, 0, 1, 6));
    CU_ASSERT_EQUAL(dag->topo[0], 2);
    CU_ASSERT_EQUAL(dag->topo[1], 0);
    CU_ASSERT_EQUAL(dag->topo[2], 1);
    CU_ASSERT_TRUE(dag->handles[0].temporary);
    hs_dag_free(dag);
}

static void test_cycle_detected(void)
{
    struct hs_dag *dag = hs_dag_new("loop");
    for (int i = 0; i < 4; i++)
        hs_dag_add_task(dag, "k", NULL, 1, 0);
    hs_dag_add_edge(dag, 0, 1, 1);
    hs_dag_add_edge(dag, 1, 2, 1);
    hs_dag_add_edge(dag, 2, 0, 1);
    hs_dag_add_edge(dag, 2, 3, 1);
    CU_ASSERT_EQUAL(hs_dag_finalize(dag), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "cycle"));
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "k"));
    hs_dag_free(dag);
}

static int count_kernel(const struct hs_dag *dag, const char *kernel)
{
    int n = 0;
    for (int i = 0; i < dag->ntasks; i++)
        n += strcmp(dag->kernels[dag->tasks[i].kernel], kernel) == 0;
    return n;
}

static void check_cholesky(const char *spec, int nt, int ntasks)
{
    struct hs_dag *dag = hs_workload_build(spec);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, ntasks);
    CU_ASSERT_EQUAL(count_kernel(dag, "dpotrf"), nt);
    CU_ASSERT_EQUAL(count_kernel(dag, "dtrsm"), nt * (nt - 1) / 2);
    CU_ASSERT_EQUAL(count_kernel(dag, "dsyrk"), nt * (nt - 1) / 2);
    CU_ASSERT_EQUAL(count_kernel(dag, "dgemm"), nt * (nt - 1) * (nt - 2) / 6);
    CU_ASSERT_EQUAL(dag->nhandles, nt * (nt + 1) / 2); /* RW only: no renaming */
    hs_dag_free(dag);
}

static void test_cholesky_counts(void)
{
    check_cholesky("cholesky:n=5,nb=1", 5, 35);
    check_cholesky("cholesky:n=1000,nb=100", 10, 220);
    check_cholesky("cholesky:n=8192,nb=512", 16, 816);
    check_cholesky("cholesky:n=40960,nb=1024", 40, 11480);
}

static void test_cholesky_structure(void)
{
    /* 2x2 tiles: potrf(0) -> trsm(1,0) -> syrk(1,0) -> potrf(1); nb=2, b^2 8-byte tiles */
    struct hs_dag *dag = hs_workload_build("cholesky:n=4,nb=2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, 4);
    CU_ASSERT(has_edge(dag, 0, 1, 32));
    CU_ASSERT(has_edge(dag, 1, 2, 32));
    CU_ASSERT(has_edge(dag, 2, 3, 32));
    CU_ASSERT_EQUAL(dag->nedges, 3);
    /* LAWN 41: n^3/3 + n^2/2 + n/6 = 64/3 + 8 + 2/3 = 30 */
    CU_ASSERT_DOUBLE_EQUAL(dag->total_flops, 30.0, 1e-12);
    /* potrf tile flops b^3/3 + b^2/2 + b/6 = 8/3 + 2 + 1/3 = 5; trsm, syrk b^2(b+1) = 12 */
    CU_ASSERT_DOUBLE_EQUAL(dag->tasks[0].flops, 5.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(dag->tasks[1].flops, 12.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(dag->tasks[2].flops, 12.0, 1e-12);
    hs_dag_free(dag);
    dag = hs_workload_build("cholesky:n=4,nb=2,precision=s");
    CU_ASSERT_STRING_EQUAL(dag->kernels[dag->tasks[0].kernel], "spotrf");
    CU_ASSERT_DOUBLE_EQUAL(dag->handles[0].bytes, 16.0, 0);
    hs_dag_free(dag);
}

/* The parallel diagonal of Lima 2014 (§5.6.4), 2x2 tiles of 4 cut into 2x2
 * views of 2, by hand: per step split, the views' own Cholesky (potrf, trsm,
 * syrk, potrf), merge; then the step's trsm and syrk. */
static void test_cholesky_pardiag(void)
{
    struct hs_dag *dag = hs_workload_build("cholesky:n=8,nb=4,pardiag=2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    const char *labels[14] = {"split(0)", "d0:potrf(0)", "d0:trsm(1,0)", "d0:syrk(1,0)", "d0:potrf(1)",
                              "merge(0)", "trsm(1,0)", "syrk(1,0)", "split(1)", "d1:potrf(0)",
                              "d1:trsm(1,0)", "d1:syrk(1,0)", "d1:potrf(1)", "merge(1)"};
    CU_ASSERT_EQUAL_FATAL(dag->ntasks, 14);
    for (int i = 0; i < 14; i++) {
        CU_ASSERT_STRING_EQUAL(dag->tasks[i].label, labels[i]);
        bool main_step = i == 6 || i == 7; /* only these may run on a GPU */
        CU_ASSERT_EQUAL(dag->tasks[i].arch_mask, main_step ? HS_ARCHMASK_ALL : HS_ARCH_BIT(HS_ARCH_CPU));
    }
    CU_ASSERT_EQUAL(count_kernel(dag, "dpotrf"), 4);
    CU_ASSERT_DOUBLE_EQUAL(dag->tasks[0].arch_cost[HS_ARCH_CPU], 0, 0); /* views cost nothing */
    CU_ASSERT_DOUBLE_EQUAL(dag->tasks[1].flops, 5.0, 1e-12);            /* b = 2: 8/3 + 2 + 1/3 */
    CU_ASSERT(has_edge(dag, 0, 1, 32));   /* a 2x2 view of doubles */
    CU_ASSERT(has_edge(dag, 4, 5, 32));
    CU_ASSERT(has_edge(dag, 5, 6, 128));  /* A(0,0) back whole: 4x4 doubles */
    CU_ASSERT(has_edge(dag, 7, 8, 128));  /* syrk(1,0) updated A(1,1) */
    CU_ASSERT(has_edge(dag, 12, 13, 32));
    /* n^3/3 + n^2/2 + n/6 for n = 8: the whole operation, not the sum of tasks */
    CU_ASSERT_DOUBLE_EQUAL(dag->total_flops, 512.0 / 3 + 32 + 8.0 / 6, 1e-9);
    hs_dag_free(dag);
    CU_ASSERT_PTR_NULL(hs_workload_build("cholesky:n=8,nb=4,pardiag=3"));
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "pardiag=3 does not divide nb=4"));
}

static void test_gemm_counts(void)
{
    struct hs_dag *dag = hs_workload_build("gemm:n=4096,nb=1024");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, 64);
    CU_ASSERT_EQUAL(dag->nedges, 16 * 3); /* one chain of 4 per C tile */
    CU_ASSERT_DOUBLE_EQUAL(dag->total_flops, 2.0 * 4096 * 4096 * 4096, 1);
    hs_dag_free(dag);
    dag = hs_workload_build("gemm:n=2048,m=1024,k=3072,nb=1024");
    CU_ASSERT_EQUAL(dag->ntasks, 1 * 2 * 3);
    hs_dag_free(dag);
}

static unsigned mask_of(const struct hs_dag *dag, const char *kernel)
{
    unsigned mask = 0;
    bool first = true;
    for (int t = 0; t < dag->ntasks; t++)
        if (strcmp(dag->kernels[dag->tasks[t].kernel], kernel) == 0) {
            CU_ASSERT(first || dag->tasks[t].arch_mask == mask); /* one mask per kernel */
            mask = dag->tasks[t].arch_mask;
            first = false;
        }
    return mask;
}

/* cpu-only / gpu-only per kernel, on any workload, after its own setarch. */
static void test_setarch_hints(void)
{
    const unsigned cpu = HS_ARCH_BIT(HS_ARCH_CPU), gpu = HS_ARCH_BIT(HS_ARCH_GPU);
    struct hs_dag *dag = hs_workload_build("cholesky:n=3072,nb=1024,cpu-only=dpotrf,gpu-only=dgemm/dtrsm");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(mask_of(dag, "dpotrf"), cpu);
    CU_ASSERT_EQUAL(mask_of(dag, "dgemm"), gpu);
    CU_ASSERT_EQUAL(mask_of(dag, "dtrsm"), gpu);
    CU_ASSERT_EQUAL(mask_of(dag, "dsyrk"), HS_ARCHMASK_ALL);
    CU_ASSERT_PTR_NOT_NULL(strstr(dag->name, ",cpu-only=dpotrf,gpu-only=dgemm/dtrsm"));
    hs_dag_free(dag);
    dag = hs_workload_build("cholesky:n=3072,nb=1024,setarch=1,cpu-only=dgemm");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(mask_of(dag, "dgemm"), cpu); /* the hint wins over setarch=1 */
    CU_ASSERT_EQUAL(mask_of(dag, "dsyrk"), gpu);
    CU_ASSERT_EQUAL(mask_of(dag, "dpotrf"), cpu);
    hs_dag_free(dag);
    const char *bad[][2] = {
        {"cholesky:n=3072,nb=1024,gpu-only=gemm", "gpu-only names kernel 'gemm', which no task has (kernels: dpotrf, dtrsm, dsyrk, dgemm)"},
        {"cholesky:n=3072,nb=1024,gpu-only=dgemm,cpu-only=dsyrk/dgemm", "kernel 'dgemm' is both cpu-only and gpu-only"},
        {"gemm:gpu-only=dgemm,gpu-only=dgemm", "gpu-only given twice"},
        {"gemm:cpu-only=", "cpu-only names no kernel"},
    };
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_PTR_NULL(hs_workload_build(bad[i][0]));
        CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), bad[i][1]));
    }
}

static void test_workload_errors(void)
{
    CU_ASSERT_PTR_NULL(hs_workload_build("cholesky:n=8192,nb=500"));
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "nb=500 does not divide n=8192"));
    CU_ASSERT_PTR_NULL(hs_workload_build("cholesky:n=-4,nb=2"));
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "outside the allowed range"));
    CU_ASSERT_PTR_NULL(hs_workload_build("cholesky:n=0,nb=2"));
    CU_ASSERT_PTR_NULL(hs_workload_build("cholesky:size=4"));
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "unknown parameter 'size' (valid: n, nb, precision, setarch, pardiag)"));
    CU_ASSERT_PTR_NULL(hs_workload_build("qrx:n=4"));
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "unknown workload 'qrx' (valid: cholesky, gemm"));
    CU_ASSERT_PTR_NULL(hs_workload_build("gemm:n=4096,k=1000,nb=1024"));
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "does not divide k=1000"));
}

/* One task accessing 300,000 distinct data (a workflow step with that many
 * files) against 300,000 tasks of one access each: the same handles, the
 * same number of accesses, so a task's access array growing geometrically
 * keeps the two builds within a small factor of each other (about 0.5).
 * Grown one element per realloc, the wide task's array is copied at every
 * access wherever realloc cannot extend it in place: quadratic, 310 s
 * under ASan against 0.29 s for the reference, a ratio above 1,000 (glibc
 * in Release mostly extends in place and hides it). No absolute time is
 * asserted (machines and sanitizers differ; the ratio does not). Up to
 * three tries, best of each, damp a busy machine; a ratio past 200 is no
 * noise and ends them. */
enum { WIDE = 300000 };

static double build_seconds(bool one_task)
{
    struct hs_dag *dag = hs_dag_new(one_task ? "wide" : "narrow");
    char name[32];
    double t0 = hs_thread_seconds();
    int wide = one_task ? hs_dag_add_task(dag, "k", "wide", 1, 0) : -1;
    for (int i = 0; i < WIDE; i++) {
        snprintf(name, sizeof name, "d%d", i);
        int h = hs_dag_add_handle(dag, name, 8);
        hs_dag_access(dag, one_task ? wide : hs_dag_add_task(dag, "k", NULL, 1, 0), h, HS_MODE_R);
    }
    double seconds = hs_thread_seconds() - t0;
    CU_ASSERT_EQUAL(dag->nhandles, WIDE);
    if (one_task) {
        CU_ASSERT_EQUAL(dag->ntasks, 1);
        CU_ASSERT_EQUAL(dag->tasks[0].naccess, WIDE);
        CU_ASSERT_EQUAL(dag->tasks[0].access[0].handle, 0);
        CU_ASSERT_EQUAL(dag->tasks[0].access[WIDE / 2].handle, WIDE / 2);
        CU_ASSERT_EQUAL(dag->tasks[0].access[WIDE - 1].handle, WIDE - 1);
        CU_ASSERT_EQUAL(dag->tasks[0].access[WIDE - 1].mode, HS_MODE_R);
    } else {
        CU_ASSERT_EQUAL(dag->ntasks, WIDE);
        CU_ASSERT_EQUAL(dag->tasks[WIDE - 1].naccess, 1);
        CU_ASSERT_EQUAL(dag->tasks[WIDE - 1].access[0].handle, WIDE - 1);
    }
    hs_dag_free(dag);
    return seconds;
}

static void test_wide_task_growth(void)
{
    double wide = INFINITY, narrow = INFINITY, ratio = INFINITY;
    for (int try = 0; try < 3; try++) {
        narrow = fmin(narrow, build_seconds(false));
        wide = fmin(wide, build_seconds(true));
        ratio = wide / fmax(narrow, 1e-6);
        if (ratio < 20 || ratio > 200)
            break;
    }
    if (ratio >= 20)
        fprintf(stderr, "one task of %d accesses: %.3f s; %d tasks of one: %.3f s (ratio %.1f)\n", WIDE,
                wide, WIDE, narrow, ratio);
    CU_ASSERT(ratio < 20);
}

/* Labels written without printf read as snprintf would write them. */
static void test_labels(void)
{
    char b[64], want[64];
    CU_ASSERT_STRING_EQUAL(hs_label(b, sizeof b, NULL, "gemm", 3, 12, 3, 0), "gemm(12,3,0)");
    CU_ASSERT_STRING_EQUAL(hs_label(b, sizeof b, "d3:", "potrf", 1, 7, 0, 0), "d3:potrf(7)");
    CU_ASSERT_STRING_EQUAL(hs_label(b, sizeof b, NULL, "A", 2, 0, 10, 0), "A(0,10)");
    CU_ASSERT_STRING_EQUAL(hs_label(b, sizeof b, "", "x", 0, 1, 2, 3), "x");
    snprintf(want, sizeof want, "%.16ssyrk(%d,%d)", "0123456789abcdefXYZ", INT_MIN, INT_MAX);
    CU_ASSERT_STRING_EQUAL(hs_label(b, sizeof b, "0123456789abcdefXYZ", "syrk", 2, INT_MIN, INT_MAX, 0), want);
    CU_ASSERT_STRING_EQUAL(hs_label(b, 6, NULL, "trsm", 2, 10, 2, 0), "trsm("); /* cut as snprintf cuts */
    CU_ASSERT_STRING_EQUAL(hs_label(b, 1, NULL, "trsm", 2, 10, 2, 0), "");
    /* a Cholesky's tasks carry them */
    struct hs_dag *dag = hs_workload_build("cholesky:n=3072,nb=1024");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    bool found = false;
    for (int t = 0; t < dag->ntasks; t++)
        found |= strcmp(dag->tasks[t].label, "gemm(2,1,0)") == 0;
    CU_ASSERT_TRUE(found);
    hs_dag_free(dag);
}

/* CPU seconds to add n tasks whose kernels are all different (distinct) or
 * all the same, the least of three. */
static double kernel_seconds(int n, bool distinct)
{
    double best = INFINITY;
    for (int k = 0; k < 3; k++) {
        struct hs_dag *dag = hs_dag_new("kernels");
        double t0 = hs_thread_seconds();
        for (int i = 0; i < n; i++) {
            char name[32];
            snprintf(name, sizeof name, "kernel%d", distinct ? i : 0);
            hs_dag_add_task(dag, name, name, 1, 0);
        }
        best = fmin(best, hs_thread_seconds() - t0);
        CU_ASSERT_EQUAL(dag->nkernels, distinct ? n : 1);
        CU_ASSERT_EQUAL(hs_dag_find_kernel(dag, distinct ? "kernel17" : "kernel0"), distinct ? 17 : 0);
        CU_ASSERT_EQUAL(hs_dag_find_kernel(dag, "kernel-1"), -1);
        hs_dag_free(dag);
    }
    return best;
}

/* A file whose every task has a kernel of its own (a DAX job's name, a
 * WfFormat category) searched all the kernels before it per task. */
static void test_many_kernels(void)
{
    double t_distinct = kernel_seconds(40000, true), t_same = kernel_seconds(40000, false);
    double ratio = t_distinct / fmax(t_same, 1e-6);
    fprintf(stderr, "  40,000 tasks: distinct kernels %.2f ms, one kernel %.2f ms, ratio %.3f\n",
            1e3 * t_distinct, 1e3 * t_same, ratio);
    CU_ASSERT(ratio < 10); /* a scan of the kernels before: 30 and more */
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"dependency inference on a hand-checked sequence", test_inference},
        {"explicit edges in any order", test_explicit_edges_any_order},
        {"cycle detection", test_cycle_detected},
        {"cholesky task counts 5x5, 10x10, 16x16, 40x40", test_cholesky_counts},
        {"cholesky 2x2 structure and LAWN-41 flops", test_cholesky_structure},
        {"cholesky with a parallel diagonal, by hand", test_cholesky_pardiag},
        {"gemm task counts", test_gemm_counts},
        {"SetArch hints per kernel (cpu-only, gpu-only)", test_setarch_hints},
        {"workload parameter errors", test_workload_errors},
        {"a task of 300,000 accesses builds in linear time", test_wide_task_growth},
        {"labels of tiles and tasks", test_labels},
        {"a kernel is found in constant time, however many there are", test_many_kernels},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("dag", tests);
}
