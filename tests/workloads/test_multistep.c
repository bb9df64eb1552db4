/* tests/workloads/test_multistep.c — the `multistep` workload (Shetti 2014's
 * Chapter 4 task sets) and the c2d-fx580 platform: task and dependency counts
 * counted from the thesis' §4.3 lists (7 atomic tasks; 13 split ones: 2 + 4 +
 * 2 + 2 + 1 + 2, with 3 + 1 + 1 + 1 dependencies), times copied from its
 * Tables 4.1 and 4.2 (and the stated assumptions), bad input, a run under
 * dmda worked by hand, and the per-architecture utilisation of the record. */
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static struct hs_dag *build(const char *spec)
{
    struct hs_dag *dag = hs_workload_build(spec);
    if (!dag)
        fprintf(stderr, "\n%s: %s\n", spec, hs_last_error());
    return dag;
}

/* The CPU and GPU seconds of the task of a label (NAN if none). */
static void times_of(const struct hs_dag *dag, const char *label, double *cpu, double *gpu)
{
    int t = hs_test_task_named(dag, label);
    *cpu = t < 0 ? NAN : dag->tasks[t].arch_cost[HS_ARCH_CPU];
    *gpu = t < 0 ? NAN : dag->tasks[t].arch_cost[HS_ARCH_GPU];
}

static void test_atomic(void)
{
    struct hs_dag *dag = build("multistep:n=512");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, 7);
    CU_ASSERT_EQUAL(dag->nedges, 0);
    static const char *const order[] = {"bSearch", "matMul", "recGauss", "mvmAtomic1", "mvmAtomic2",
                                        "FFT", "mulFFT"};
    for (int i = 0; i < 7; i++)
        CU_ASSERT_EQUAL(hs_test_task_named(dag, order[i]), i);
    double cpu, gpu;
    times_of(dag, "mvmAtomic1", &cpu, &gpu); /* Table 4.1 mvm_atomic, 512 */
    CU_ASSERT_DOUBLE_EQUAL(cpu, 1.436, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(gpu, 1.025, 1e-12);
    times_of(dag, "mulFFT", &cpu, &gpu); /* matMul_cmplx + fftAtomic: 7030 + 139, 2360 + 957 */
    CU_ASSERT_DOUBLE_EQUAL(cpu, 7.169, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(gpu, 3.317, 1e-12);
    times_of(dag, "recGauss", &cpu, &gpu); /* four vectMul steps: 4 x 2, 4 x 402 */
    CU_ASSERT_DOUBLE_EQUAL(cpu, 0.008, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(gpu, 1.608, 1e-12);
    hs_dag_free(dag);
    dag = build("multistep:n=512,gauss=matmul"); /* two matMul, two vectMul: 2 (1824 + 2), 2 (1011 + 402) */
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    times_of(dag, "recGauss", &cpu, &gpu);
    CU_ASSERT_DOUBLE_EQUAL(cpu, 3.652, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(gpu, 2.826, 1e-12);
    hs_dag_free(dag);
    dag = build("multistep:n=256,split=1,gauss=matmul"); /* Gaussian, transpose, Gaussian, transpose */
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    const double want_cpu[] = {0.174, 0.001, 0.174, 0.001}, want_gpu[] = {0.564, 0.403, 0.564, 0.403};
    const char *steps[] = {"recGauss1", "recGauss2", "recGauss3", "recGauss4"};
    for (int i = 0; i < 4; i++) {
        times_of(dag, steps[i], &cpu, &gpu);
        CU_ASSERT_DOUBLE_EQUAL(cpu, want_cpu[i], 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(gpu, want_gpu[i], 1e-12);
    }
    hs_dag_free(dag);
}

static void test_split(void)
{
    struct hs_dag *dag = build("multistep:n=1024,split=1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, 13);
    CU_ASSERT_EQUAL(dag->nedges, 6);
    static const char *const deps[][2] = {{"recGauss1", "recGauss2"},   {"recGauss2", "recGauss3"},
                                          {"recGauss3", "recGauss4"},   {"mvmAtomic1_1", "mvmAtomic1_2"},
                                          {"mvmAtomic2_1", "mvmAtomic2_2"}, {"mulFFT1", "mulFFT2"}};
    for (int i = 0; i < 6; i++)
        CU_ASSERT_DOUBLE_EQUAL(hs_test_dep_bytes(dag, deps[i][0], deps[i][1]), 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_test_dep_bytes(dag, "recGauss1", "recGauss3"), -1, 0);
    CU_ASSERT_EQUAL(hs_test_task_named(dag, "mvmAtomic1"), -1);
    double cpu, gpu;
    times_of(dag, "mvmAtomic1_1", &cpu, &gpu); /* Table 4.1 matMul, 1024 */
    CU_ASSERT_DOUBLE_EQUAL(cpu, 54.528, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(gpu, 5.396, 1e-12);
    times_of(dag, "mvmAtomic2_2", &cpu, &gpu); /* Table 4.1 vectMul, 1024 */
    CU_ASSERT_DOUBLE_EQUAL(cpu, 0.008, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(gpu, 0.419, 1e-12);
    times_of(dag, "mulFFT2", &cpu, &gpu); /* Table 4.2 fftAtomic, 1024 */
    CU_ASSERT_DOUBLE_EQUAL(cpu, 0.588, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(gpu, 2.488, 1e-12);
    hs_dag_free(dag);
}

static void test_bad(void)
{
    hs_test_bad_cli("run -p c2d-fx580 -w multistep:n=300 -s dmda -q", "n");
    hs_test_bad_cli("run -p c2d-fx580 -w multistep:n=256,split=2 -s dmda -q", "split");
}

/* 256, atomic, under dmda (tasks in order to the worker of least expected
 * end; ms, CPU/GPU): bSearch 1/403 → CPU (1), matMul 174/564 → CPU (175),
 * recGauss 4/1612 → CPU (179), mvmAtomic1 178/486 → CPU (357), mvmAtomic2
 * 178/486: 535 against 486 → GPU (486), FFT 26/616 → CPU (383), mulFFT
 * 314/1287: 697 against 1773 → CPU (697). Makespan 0.697 s, the CPU busy
 * throughout, the GPU 486 of 697 ms. */
static void test_run_by_hand(void)
{
    cJSON *rec = hs_test_run_record("-p c2d-fx580 -w multistep:n=256 -s dmda");
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    const cJSON *res = cJSON_GetObjectItem(rec, "results");
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(res, "makespan")->valuedouble, 0.697, 1e-9);
    const cJSON *u = cJSON_GetObjectItem(res, "utilisation_per_arch");
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(u, "cpu")->valuedouble, 1, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(u, "gpu")->valuedouble, 486.0 / 697.0, 1e-9);
    const cJSON *pa = cJSON_GetObjectItem(res, "tasks_per_arch");
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(pa, "cpu")->valueint, 6);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(pa, "gpu")->valueint, 1);
    cJSON_Delete(rec);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"atomic: 7 tasks in §4.3's order, Tables 4.1-4.2's times; gauss=matmul", test_atomic},
        {"split: 13 tasks, 6 dependencies", test_split},
        {"bad n or split: one line naming it", test_bad},
        {"dmda on c2d-fx580, 256 atomic, by hand; utilisation per architecture", test_run_by_hand},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("multistep", tests);
}
