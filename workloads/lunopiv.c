/* workloads/lunopiv.c — tiled LU without pivoting, right-looking, as XKaapi's
 * matlu_nopiv example (the LU of Beniamine 2013,
 * Fig. 3.3):
 *
 *   for k:  GETRF(A(k,k):RW)
 *           for j > k:  TRSM(A(k,k):R, A(k,j):RW)      (row of U)
 *           for i > k:  TRSM(A(k,k):R, A(i,k):RW)      (column of L)
 *           for i > k, j > k:  GEMM(A(i,k):R, A(k,j):R, A(i,j):RW)
 *
 * NT = n/nb gives NT GETRF, NT(NT−1) TRSM and (NT−1)NT(2NT−1)/6 GEMM tasks
 * (14 for NT = 3, with 21 dependencies); moves=1 adds XKaapi's move task per
 * tile (23 tasks, 30 dependencies: the thesis' Fig. 3.3). Flops: GETRF 2b³/3,
 * TRSM b³, GEMM 2b³; the whole factorisation counts LAWN 41's
 * 2n³/3 − n²/2 + 5n/6. */
#include "workloads/label.h"
#include "workloads/workload.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>

static const struct hs_param lunopiv_params[] = {
    {.name = "n", .type = HS_P_INT, .defval = "8192", .range = "[1,inf)", .help = "matrix order"},
    {.name = "nb", .type = HS_P_INT, .defval = "512", .range = "[1,inf)",
     .help = "tile size (must divide n)"},
    {.name = "precision", .type = HS_P_CHOICE, .defval = "d", .choices = "d|s",
     .help = "double or single precision"},
    {.name = "moves", .type = HS_P_BOOL, .defval = "0",
     .help = "XKaapi's move task per tile, feeding its first user"},
    {0},
};

static void add_trsm(struct hs_dag *dag, const char *kernel, int diag, int tile, const char *label,
                     double b)
{
    int t = hs_dag_add_task(dag, kernel, label, b * b * b, (int)b);
    hs_dag_access(dag, t, diag, HS_MODE_R);
    hs_dag_access(dag, t, tile, HS_MODE_RW);
}

static int build_lunopiv(const struct hs_spec *spec, struct hs_dag *dag)
{
    int nt = hs_tiles("lunopiv", spec, "n");
    if (nt < 0)
        return -1;
    double b = (double)hs_spec_int(spec, "nb"), n = (double)hs_spec_int(spec, "n");
    int elem = hs_element_bytes(spec);
    char p = elem == 4 ? 's' : 'd', getrf[8], trsm[8], gemm[8], label[64];
    snprintf(getrf, sizeof getrf, "%cgetrf", p);
    snprintf(trsm, sizeof trsm, "%ctrsm", p);
    snprintf(gemm, sizeof gemm, "%cgemm", p);
    int *A = hs_xmalloc((size_t)nt * nt * sizeof(int));
    for (int j = 0; j < nt; j++)
        for (int i = 0; i < nt; i++) {
            hs_label(label, sizeof label, NULL, "A", 2, i, j, 0);
            A[i * nt + j] = hs_dag_add_handle(dag, label, b * b * elem);
        }
    if (hs_spec_bool(spec, "moves"))
        hs_add_move_tasks(dag);
    for (int k = 0; k < nt; k++) {
        hs_label(label, sizeof label, NULL, "getrf", 1, k, 0, 0);
        hs_dag_access(dag, hs_dag_add_task(dag, getrf, label, 2 * b * b * b / 3, (int)b),
                      A[k * nt + k], HS_MODE_RW);
        for (int j = k + 1; j < nt; j++) {
            hs_label(label, sizeof label, NULL, "trsm", 2, k, j, 0);
            add_trsm(dag, trsm, A[k * nt + k], A[k * nt + j], label, b);
        }
        for (int i = k + 1; i < nt; i++) {
            hs_label(label, sizeof label, NULL, "trsm", 2, i, k, 0);
            add_trsm(dag, trsm, A[k * nt + k], A[i * nt + k], label, b);
        }
        for (int i = k + 1; i < nt; i++)
            for (int j = k + 1; j < nt; j++) {
                hs_label(label, sizeof label, NULL, "gemm", 3, i, j, k);
                int t = hs_dag_add_task(dag, gemm, label, 2 * b * b * b, (int)b);
                hs_dag_access(dag, t, A[i * nt + k], HS_MODE_R);
                hs_dag_access(dag, t, A[k * nt + j], HS_MODE_R);
                hs_dag_access(dag, t, A[i * nt + j], HS_MODE_RW);
            }
    }
    free(A);
    dag->total_flops = 2 * n * n * n / 3 - n * n / 2 + 5 * n / 6;
    return 0;
}

const struct hs_workload hs_workload_lunopiv = {
    .name = "lunopiv",
    .summary = "tiled LU without pivoting (GETRF, TRSM, GEMM), XKaapi's matlu_nopiv; moves=1: a move task per tile",
    .params = lunopiv_params,
    .build = build_lunopiv,
};
