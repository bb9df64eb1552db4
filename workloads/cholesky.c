/* workloads/cholesky.c — tiled Cholesky factorisation A = L·Lᵀ (lower,
 * right-looking, the loop order of XKaapi's and PLASMA's tile algorithms):
 *
 *   for k:  POTRF(A(k,k):RW)
 *           for m > k:  TRSM(A(k,k):R, A(m,k):RW)
 *           for m > k:  SYRK(A(m,k):R, A(m,m):RW)
 *                       for k < n < m:  GEMM(A(m,k):R, A(n,k):R, A(m,n):RW)
 *
 * NT = n/nb tiles per dimension gives NT POTRF, NT(NT-1)/2 TRSM and SYRK and
 * NT(NT-1)(NT-2)/6 GEMM tasks. Kernel flops and the whole-factorisation count
 * (n³/3 + n²/2 + n/6) follow LAWN 41 as in PLASMA's flops.h. Kernels are named
 * dpotrf, dtrsm, … in double precision and spotrf, … in single. setarch=1
 * adds the hints of the thesis' Kaapi++ code (Lima 2014, Fig. B.2): POTRF on
 * cores only, the other kernels on GPUs only. */
#include "workloads/workload.h"
#include "sim/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct hs_param cholesky_params[] = {
    {.name = "n", .type = HS_P_INT, .defval = "8192", .range = "[1,inf)",
     .help = "matrix order"},
    {.name = "nb", .type = HS_P_INT, .defval = "512", .range = "[1,inf)",
     .help = "tile size (must divide n)"},
    {.name = "precision", .type = HS_P_CHOICE, .defval = "d", .choices = "d|s",
     .help = "double or single precision"},
    {.name = "setarch", .type = HS_P_BOOL, .defval = "0",
     .help = "XKaapi's SetArch hints: POTRF on cores only, TRSM, SYRK, GEMM on GPUs only"},
    {0},
};

static double flops_potrf(double b)
{
    return b * b * b / 3 + b * b / 2 + b / 6;
}

static int build_cholesky(const struct hs_spec *spec, struct hs_dag *dag)
{
    int nt = hs_tiles("cholesky", spec, "n");
    if (nt < 0)
        return -1;
    double b = (double)hs_spec_int(spec, "nb"), n = (double)hs_spec_int(spec, "n");
    int nb = (int)b;
    char p = hs_element_bytes(spec) == 4 ? 's' : 'd';
    char potrf[8], trsm[8], syrk[8], gemm[8], label[64];
    snprintf(potrf, sizeof potrf, "%cpotrf", p);
    snprintf(trsm, sizeof trsm, "%ctrsm", p);
    snprintf(syrk, sizeof syrk, "%csyrk", p);
    snprintf(gemm, sizeof gemm, "%cgemm", p);
    double tile = b * b * hs_element_bytes(spec);
    int *A = hs_xmalloc((size_t)nt * nt * sizeof(int)); /* lower triangle handles */
    for (int j = 0; j < nt; j++)
        for (int i = j; i < nt; i++) {
            snprintf(label, sizeof label, "A(%d,%d)", i, j);
            A[i * nt + j] = hs_dag_add_handle(dag, label, tile);
        }
    for (int k = 0; k < nt; k++) {
        snprintf(label, sizeof label, "potrf(%d)", k);
        int t = hs_dag_add_task(dag, potrf, label, flops_potrf(b), nb);
        hs_dag_access(dag, t, A[k * nt + k], HS_MODE_RW);
        for (int m = k + 1; m < nt; m++) {
            snprintf(label, sizeof label, "trsm(%d,%d)", m, k);
            t = hs_dag_add_task(dag, trsm, label, b * b * (b + 1), nb);
            hs_dag_access(dag, t, A[k * nt + k], HS_MODE_R);
            hs_dag_access(dag, t, A[m * nt + k], HS_MODE_RW);
        }
        for (int m = k + 1; m < nt; m++) {
            snprintf(label, sizeof label, "syrk(%d,%d)", m, k);
            t = hs_dag_add_task(dag, syrk, label, b * b * (b + 1), nb);
            hs_dag_access(dag, t, A[m * nt + k], HS_MODE_R);
            hs_dag_access(dag, t, A[m * nt + m], HS_MODE_RW);
            for (int j = k + 1; j < m; j++) {
                snprintf(label, sizeof label, "gemm(%d,%d,%d)", m, j, k);
                t = hs_dag_add_task(dag, gemm, label, 2 * b * b * b, nb);
                hs_dag_access(dag, t, A[m * nt + k], HS_MODE_R);
                hs_dag_access(dag, t, A[j * nt + k], HS_MODE_R);
                hs_dag_access(dag, t, A[m * nt + j], HS_MODE_RW);
            }
        }
    }
    free(A);
    dag->total_flops = flops_potrf(n);
    if (hs_spec_bool(spec, "setarch"))
        for (int i = 0; i < dag->ntasks; i++)
            dag->tasks[i].arch_mask = HS_ARCH_BIT(strcmp(dag->kernels[dag->tasks[i].kernel] + 1, "potrf") == 0
                                                      ? HS_ARCH_CPU : HS_ARCH_GPU);
    return 0;
}

const struct hs_workload hs_workload_cholesky = {
    .name = "cholesky",
    .summary = "tiled Cholesky factorisation (POTRF, TRSM, SYRK, GEMM)",
    .params = cholesky_params,
    .build = build_cholesky,
};
