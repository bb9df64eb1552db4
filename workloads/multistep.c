/* workloads/multistep.c — the seven benchmark tasks of Shetti 2014's Chapter 4
 * (§4.3), deployed atomically or split into their steps (the thesis' fine- against
 * coarse-grained comparison, on one CPU and one GPU: Appendix A):
 *
 *   split=0 (atomic, 7 tasks, no dependency), in the thesis' order:
 *     bSearch, matMul, recGauss, mvmAtomic1, mvmAtomic2, FFT, mulFFT
 *   split=1 (non-atomic, 13 tasks, 6 dependencies):
 *     bSearch, matMul, recGauss1 → recGauss2 → recGauss3 → recGauss4,
 *     mvmAtomic1_1 → mvmAtomic1_2, mvmAtomic2_1 → mvmAtomic2_2, FFT,
 *     mulFFT1 → mulFFT2
 *
 * Every task has explicit CPU and GPU seconds for the data set n (256, 512,
 * 1024: square matrices). Measured, from the thesis (ms):
 *   matMul, mvmAtomicX_1        Table 4.1 "matMul"
 *   mvmAtomicX_2                Table 4.1 "vectMul"
 *   mvmAtomicX (atomic)         Table 4.1 "mvm_atomic"
 *   mulFFT1                     Table 4.2 "matMul_cmplx"
 *   mulFFT2                     Table 4.2 "fftAtomic"
 * Not given by the thesis, so ASSUMPTIONS (stated in the study too):
 *   FFT (task 6)                Table 4.2 "fftAtomic": the same 2D FFT on the same data
 *   mulFFT (atomic)             matMul_cmplx + fftAtomic on the same device
 *   bSearch, each recGauss step Table 4.1 "vectMul": the lightest kernel measured
 *                               (one pass over the data; a binary search does less),
 *                               whose GPU time (about 0.4 s) is the OpenCL call itself
 *   recGauss (atomic)           its four steps on the same device
 * gauss=matmul, the alternative for a sensitivity study: each of the two
 * Gaussian steps (recGauss1, recGauss3) costs Table 4.1's matMul, the one
 * measured kernel the GPU runs faster as the data grow, as the thesis says
 * of the Gaussian (§4.2.2); the transposes stay vectMul.
 * The thesis gives the recursive Gaussian and transpose kernels only as plots
 * (Figs. 4.1, 4.2, absent from its text) and bSearch not at all. Data
 * transfers are inside the measured times (§4.3: "data transfer time between
 * the devices are included within the execution time"), so the dependencies
 * carry no bytes. Flops are 0: the thesis gives none. */
#include "workloads/workload.h"

#include <string.h>

static const struct hs_param multistep_params[] = {
    {.name = "n", .type = HS_P_CHOICE, .defval = "512", .choices = "256|512|1024",
     .help = "data set: matrix order (Tables 4.1 and 4.2 give these three)"},
    {.name = "split", .type = HS_P_BOOL, .defval = "0",
     .help = "0: seven atomic tasks; 1: the non-atomic split into 13 tasks (§4.3)"},
    {.name = "gauss", .type = HS_P_CHOICE, .defval = "vectmul", .choices = "vectmul|matmul",
     .help = "assumed time of a Gaussian step of recGauss: Table 4.1's vectMul or matMul row"},
    {0},
};

/* One kernel's times in ms, CPU then GPU, per data set 256, 512, 1024. */
struct times {
    double cpu[3], gpu[3];
};

static const struct times matmul = {{174, 1824, 54528}, {564, 1011, 5396}};       /* Table 4.1 */
static const struct times vectmul = {{1, 2, 8}, {403, 402, 419}};                 /* Table 4.1 */
static const struct times mvm_atomic = {{178, 1436, 54216}, {486, 1025, 5417}};   /* Table 4.1 */
static const struct times matmul_cmplx = {{288, 7030, 81192}, {671, 2360, 8655}}; /* Table 4.2 */
static const struct times fft = {{26, 139, 588}, {616, 957, 2488}};               /* Table 4.2 */

/* Add a task lasting `count` times (k1 plus k2, if any) on each device; its
 * index. */
static int add(struct hs_dag *dag, const char *label, int size, const struct times *k1, double count,
               const struct times *k2)
{
    int t = hs_dag_add_task(dag, label, label, 0, 0);
    double cpu = count * (k1->cpu[size] + (k2 ? k2->cpu[size] : 0));
    double gpu = count * (k1->gpu[size] + (k2 ? k2->gpu[size] : 0));
    dag->tasks[t].arch_cost[HS_ARCH_CPU] = cpu / 1000;
    dag->tasks[t].arch_cost[HS_ARCH_GPU] = gpu / 1000;
    return t;
}

/* Two steps, the second after the first (added in this order). */
static void pair(struct hs_dag *dag, int size, const char *first, const struct times *k1, const char *second,
                 const struct times *k2)
{
    int a = add(dag, first, size, k1, 1, NULL);
    int b = add(dag, second, size, k2, 1, NULL);
    hs_dag_add_edge(dag, a, b, 0);
}

static int build_multistep(const struct hs_spec *spec, struct hs_dag *dag)
{
    const char *n = hs_spec_get(spec, "n");
    int size = strcmp(n, "256") == 0 ? 0 : strcmp(n, "512") == 0 ? 1 : 2;
    const struct times *gaussian = strcmp(hs_spec_get(spec, "gauss"), "matmul") == 0 ? &matmul : &vectmul;
    add(dag, "bSearch", size, &vectmul, 1, NULL);
    add(dag, "matMul", size, &matmul, 1, NULL);
    if (!hs_spec_bool(spec, "split")) {
        add(dag, "recGauss", size, gaussian, 2, &vectmul); /* two Gaussians, two transposes */
        add(dag, "mvmAtomic1", size, &mvm_atomic, 1, NULL);
        add(dag, "mvmAtomic2", size, &mvm_atomic, 1, NULL);
        add(dag, "FFT", size, &fft, 1, NULL);
        add(dag, "mulFFT", size, &matmul_cmplx, 1, &fft);
        return 0;
    }
    static const char *const gauss[] = {"recGauss1", "recGauss2", "recGauss3", "recGauss4"}; /* G, T, G, T */
    int prev = -1;
    for (int i = 0; i < 4; i++) {
        int t = add(dag, gauss[i], size, i % 2 ? &vectmul : gaussian, 1, NULL);
        if (prev >= 0)
            hs_dag_add_edge(dag, prev, t, 0);
        prev = t;
    }
    pair(dag, size, "mvmAtomic1_1", &matmul, "mvmAtomic1_2", &vectmul);
    pair(dag, size, "mvmAtomic2_1", &matmul, "mvmAtomic2_2", &vectmul);
    add(dag, "FFT", size, &fft, 1, NULL);
    pair(dag, size, "mulFFT1", &matmul_cmplx, "mulFFT2", &fft);
    return 0;
}

const struct hs_workload hs_workload_multistep = {
    .name = "multistep",
    .summary = "Shetti 2014 Chapter 4's seven benchmark tasks on one CPU and one GPU, atomic or split "
               "(split=1: 13 tasks), with Tables 4.1 and 4.2's times",
    .params = multistep_params,
    .build = build_multistep,
};
