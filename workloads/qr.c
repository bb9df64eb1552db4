/* workloads/qr.c — PLASMA tile QR (PLASMA_dgeqrf_Tile;
 * Lima 2014, §6.4.3; Bleuse et al. 2014, §4.1):
 *
 *   for k:  GEQRT(A(k,k):RW, T(k,k):W)
 *           for n > k:  ORMQR(A(k,k):R, T(k,k):R, A(k,n):RW)
 *           for m > k:  TSQRT(A(k,k):RW, A(m,k):RW, T(m,k):W)
 *                       for n > k:  TSMQR(A(k,n):RW, A(m,n):RW, A(m,k):R, T(m,k):R)
 *
 * T(m,k) is an IB×NB block of doubles; region flags (ORMQR reads A(k,k)'s
 * REGION_L, TSQRT updates its REGION_D|U) are ignored unless
 * regions=1 (workloads/tiles.h). NT GEQRT, NT(NT−1)/2 ORMQR and TSQRT,
 * (NT−1)NT(2NT−1)/6 TSMQR; kernel flops GEQRT 4b³/3, ORMQR and TSQRT 2b³,
 * TSMQR 4b³ (Buttari et al. 2009, inner blocking overhead in the timing
 * table); LAWN 41: 4n³/3 + 2n² + 14n/3. GEQRT and TSQRT run on cores only
 * (the period code); ORMQR and TSMQR wherever the timing table times them,
 * on GPUs only with setarch=1. */
#include "workloads/label.h"
#include "workloads/tiles.h"
#include "workloads/workload.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>

static const struct hs_param qr_params[] = {
    HS_TILES_PARAMS,
    {.name = "setarch", .type = HS_P_BOOL, .defval = "0",
     .help = "QUARK_ARCH_GPU_ONLY: the kernels with a GPU version run on GPUs only"},
    {.name = "regions", .type = HS_P_BOOL, .defval = "0",
     .help = "QUARK regions: ORMQR reads and TSQRT updates separate parts of the diagonal tile"},
    {0},
};

static int build_qr(const struct hs_spec *spec, struct hs_dag *dag)
{
    int nt = hs_tiles("qr", spec, "n");
    int ib = nt < 0 ? -1 : hs_inner_blocking("qr", spec);
    if (nt < 0 || ib < 0)
        return -1;
    double b = (double)hs_spec_int(spec, "nb"), n = (double)hs_spec_int(spec, "n");
    int nb = (int)b, elem = hs_element_bytes(spec);
    char p = elem == 4 ? 's' : 'd', geqrt[8], ormqr[8], tsqrt[8], tsmqr[8], label[64];
    snprintf(geqrt, sizeof geqrt, "%cgeqrt", p);
    snprintf(ormqr, sizeof ormqr, "%cormqr", p);
    snprintf(tsqrt, sizeof tsqrt, "%ctsqrt", p);
    snprintf(tsmqr, sizeof tsmqr, "%ctsmqr", p);
    struct hs_tiles A;
    hs_tiles_init(&A, dag, nt, hs_spec_bool(spec, "regions"), hs_spec_bool(spec, "setarch"));
    int *T = hs_xmalloc((size_t)nt * nt * sizeof(int));
    for (int j = 0; j < nt; j++)
        for (int i = 0; i < nt; i++) {
            hs_tiles_add(&A, i, j, b, elem);
            hs_label(label, sizeof label, NULL, "T", 2, i, j, 0);
            T[i * nt + j] = i >= j ? hs_dag_add_handle(dag, label, (double)ib * b * elem) : -1;
        }
    for (int k = 0; k < nt; k++) {
        hs_label(label, sizeof label, NULL, "geqrt", 1, k, 0, 0);
        int t = hs_tiles_task(&A, geqrt, label, 4 * b * b * b / 3, nb, false);
        hs_tiles_access(&A, t, k, k, HS_MODE_RW);
        hs_dag_access(dag, t, T[k * nt + k], HS_MODE_W);
        for (int j = k + 1; j < nt; j++) {
            hs_label(label, sizeof label, NULL, "ormqr", 2, k, j, 0);
            t = hs_tiles_task(&A, ormqr, label, 2 * b * b * b, nb, true);
            hs_tiles_access_lower(&A, t, k, HS_MODE_R);
            hs_dag_access(dag, t, T[k * nt + k], HS_MODE_R);
            hs_tiles_access(&A, t, k, j, HS_MODE_RW);
        }
        for (int m = k + 1; m < nt; m++) {
            hs_label(label, sizeof label, NULL, "tsqrt", 2, m, k, 0);
            t = hs_tiles_task(&A, tsqrt, label, 2 * b * b * b, nb, false);
            hs_tiles_access_upper(&A, t, k, HS_MODE_RW);
            hs_tiles_access(&A, t, m, k, HS_MODE_RW);
            hs_dag_access(dag, t, T[m * nt + k], HS_MODE_W);
            for (int j = k + 1; j < nt; j++) {
                hs_label(label, sizeof label, NULL, "tsmqr", 3, m, j, k);
                t = hs_tiles_task(&A, tsmqr, label, 4 * b * b * b, nb, true);
                hs_tiles_access(&A, t, k, j, HS_MODE_RW);
                hs_tiles_access(&A, t, m, j, HS_MODE_RW);
                hs_tiles_access(&A, t, m, k, HS_MODE_R);
                hs_dag_access(dag, t, T[m * nt + k], HS_MODE_R);
            }
        }
    }
    hs_tiles_free(&A);
    free(T);
    dag->total_flops = 4 * n * n * n / 3 + 2 * n * n + 14 * n / 3;
    return 0;
}

const struct hs_workload hs_workload_qr = {
    .name = "qr",
    .summary = "PLASMA tile QR (GEQRT, ORMQR, TSQRT, TSMQR)",
    .params = qr_params,
    .build = build_qr,
};
