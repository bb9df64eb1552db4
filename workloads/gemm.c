/* workloads/gemm.c — tiled matrix product C = A·B + C with m×k, k×n and m×n
 * matrices cut in nb×nb tiles: one GEMM(A(i,l):R, B(l,j):R, C(i,j):RW) per
 * (i, j, l), i.e. one chain of k/nb tasks per C tile. LAWN 41 count: 2mnk.
 * setarch=1: XKaapi's SetArch hint (Lima 2014 §6.4.2), GEMM on GPUs only. */
#include "workloads/label.h"
#include "workloads/workload.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>

static const struct hs_param gemm_params[] = {
    {.name = "n", .type = HS_P_INT, .defval = "8192", .range = "[1,inf)",
     .help = "columns of B and C (and the default for m and k)"},
    {.name = "nb", .type = HS_P_INT, .defval = "1024", .range = "[1,inf)",
     .help = "tile size (must divide m, n and k)"},
    {.name = "m", .type = HS_P_INT, .defval = "0", .range = "[0,inf)",
     .help = "rows of A and C (0: n)"},
    {.name = "k", .type = HS_P_INT, .defval = "0", .range = "[0,inf)",
     .help = "columns of A, rows of B (0: n)"},
    {.name = "precision", .type = HS_P_CHOICE, .defval = "d", .choices = "d|s",
     .help = "double or single precision"},
    {.name = "setarch", .type = HS_P_BOOL, .defval = "0",
     .help = "XKaapi's SetArch hint: every GEMM on GPUs only"},
    {0},
};

static int tiles_of(const struct hs_spec *spec, const char *key, long n)
{
    long v = hs_spec_int(spec, key);
    long nb = hs_spec_int(spec, "nb");
    if (v == 0)
        v = n;
    if (v % nb)
        return hs_fail("workload gemm: nb=%ld does not divide %s=%ld", nb, key, v);
    return (int)(v / nb);
}

static int build_gemm(const struct hs_spec *spec, struct hs_dag *dag)
{
    int nt = hs_tiles("gemm", spec, "n");
    if (nt < 0)
        return -1;
    long n = hs_spec_int(spec, "n");
    int mt = tiles_of(spec, "m", n), kt = tiles_of(spec, "k", n);
    if (mt < 0 || kt < 0)
        return -1;
    double b = (double)hs_spec_int(spec, "nb");
    double tile = b * b * hs_element_bytes(spec);
    const char *kernel = hs_element_bytes(spec) == 4 ? "sgemm" : "dgemm";
    char label[64];
    int *A = hs_xmalloc((size_t)mt * kt * sizeof(int));
    int *B = hs_xmalloc((size_t)kt * nt * sizeof(int));
    int *C = hs_xmalloc((size_t)mt * nt * sizeof(int));
    for (int i = 0; i < mt; i++)
        for (int l = 0; l < kt; l++) {
            hs_label(label, sizeof label, NULL, "A", 2, i, l, 0);
            A[i * kt + l] = hs_dag_add_handle(dag, label, tile);
        }
    for (int l = 0; l < kt; l++)
        for (int j = 0; j < nt; j++) {
            hs_label(label, sizeof label, NULL, "B", 2, l, j, 0);
            B[l * nt + j] = hs_dag_add_handle(dag, label, tile);
        }
    for (int i = 0; i < mt; i++)
        for (int j = 0; j < nt; j++) {
            hs_label(label, sizeof label, NULL, "C", 2, i, j, 0);
            C[i * nt + j] = hs_dag_add_handle(dag, label, tile);
        }
    for (int i = 0; i < mt; i++)
        for (int j = 0; j < nt; j++)
            for (int l = 0; l < kt; l++) {
                hs_label(label, sizeof label, NULL, "gemm", 3, i, j, l);
                int t = hs_dag_add_task(dag, kernel, label, 2 * b * b * b, (int)b);
                if (hs_spec_bool(spec, "setarch"))
                    dag->tasks[t].arch_mask = HS_ARCH_BIT(HS_ARCH_GPU);
                hs_dag_access(dag, t, A[i * kt + l], HS_MODE_R);
                hs_dag_access(dag, t, B[l * nt + j], HS_MODE_R);
                hs_dag_access(dag, t, C[i * nt + j], HS_MODE_RW);
            }
    free(A);
    free(B);
    free(C);
    dag->total_flops = 2.0 * mt * b * nt * b * kt * b;
    return 0;
}

const struct hs_workload hs_workload_gemm = {
    .name = "gemm",
    .summary = "tiled matrix product C = A.B + C (independent chains of GEMM)",
    .params = gemm_params,
    .build = build_gemm,
};
