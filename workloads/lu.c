/* workloads/lu.c — PLASMA tile LU with incremental pivoting
 * (PLASMA_dgetrf_incpiv_Tile, as plasma-kaapi submits it; Lima 2014,
 * §6.4.3; Bleuse et al. 2014, §4.1):
 *
 *   for k:  GETRF(A(k,k):RW, IPIV(k,k):W)
 *           for n > k:  GESSM(IPIV(k,k):R, A(k,k):R [REGION_L], A(k,n):RW)
 *           for m > k:  TSTRF(A(k,k):RW [REGION_D|U], A(m,k):RW, L(m,k):W, IPIV(m,k):W)
 *                       for n > k:  SSSSM(A(k,n):RW, A(m,n):RW, L(m,k):R, A(m,k):R, IPIV(m,k):R)
 *
 * L(m,k) is an IB×NB block of doubles, IPIV an NB-long vector of ints (both
 * moved like tiles); QUARK's region flags on A(k,k) are ignored (whole-tile
 * dependencies, as XKaapi did) unless regions=1 (workloads/tiles.h), and SSSSM's
 * A(m,k) is a full tile (as in plasma-kaapi). NT = n/nb gives NT GETRF, NT(NT−1)/2
 * GESSM and TSTRF, (NT−1)NT(2NT−1)/6 SSSSM. Kernel flops follow Buttari et al.
 * 2009 (GETRF 2b³/3, GESSM and TSTRF b³, SSSSM 2b³;
 * the inner-blocking overhead is left to the timing table); the whole
 * factorisation counts LAWN 41's 2n³/3 − n²/2 + 5n/6. GETRF and TSTRF run on
 * cores only (the period code), TSTRF on GPUs too with gpu_tstrf=1; GESSM and
 * SSSSM wherever the timing table times them, on GPUs only with setarch=1. */
#include "workloads/label.h"
#include "workloads/tiles.h"
#include "workloads/workload.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>

static const struct hs_param lu_params[] = {
    HS_TILES_PARAMS,
    {.name = "gpu_tstrf", .type = HS_P_BOOL, .defval = "0",
     .help = "TSTRF has a GPU version (an earlier XKaapi's; CPU only in the 2013 port)"},
    {.name = "setarch", .type = HS_P_BOOL, .defval = "0",
     .help = "QUARK_ARCH_GPU_ONLY: the kernels with a GPU version run on GPUs only"},
    {.name = "regions", .type = HS_P_BOOL, .defval = "0",
     .help = "QUARK regions: GESSM reads and TSTRF updates separate parts of the diagonal tile"},
    {0},
};

/* Inner blocking checked against the tile size; -1 with hs_fail. */
int hs_inner_blocking(const char *workload, const struct hs_spec *spec)
{
    long ib = hs_spec_int(spec, "ib"), nb = hs_spec_int(spec, "nb");
    if (ib > nb)
        return hs_fail("workload %s: ib=%ld is larger than nb=%ld", workload, ib, nb);
    return (int)ib;
}

static int build_lu(const struct hs_spec *spec, struct hs_dag *dag)
{
    int nt = hs_tiles("lu", spec, "n");
    int ib = nt < 0 ? -1 : hs_inner_blocking("lu", spec);
    if (nt < 0 || ib < 0)
        return -1;
    double b = (double)hs_spec_int(spec, "nb"), n = (double)hs_spec_int(spec, "n");
    int nb = (int)b, elem = hs_element_bytes(spec);
    char p = elem == 4 ? 's' : 'd', getrf[8], gessm[8], tstrf[8], ssssm[8], label[64];
    snprintf(getrf, sizeof getrf, "%cgetrf", p);
    snprintf(gessm, sizeof gessm, "%cgessm", p);
    snprintf(tstrf, sizeof tstrf, "%ctstrf", p);
    snprintf(ssssm, sizeof ssssm, "%cssssm", p);
    bool gpu_tstrf = hs_spec_bool(spec, "gpu_tstrf");
    struct hs_tiles A;
    hs_tiles_init(&A, dag, nt, hs_spec_bool(spec, "regions"), hs_spec_bool(spec, "setarch"));
    int *L = hs_xmalloc((size_t)nt * nt * sizeof(int)), *IP = hs_xmalloc((size_t)nt * nt * sizeof(int));
    for (int j = 0; j < nt; j++)
        for (int i = 0; i < nt; i++) {
            hs_tiles_add(&A, i, j, b, elem);
            hs_label(label, sizeof label, NULL, "L", 2, i, j, 0);
            L[i * nt + j] = i > j ? hs_dag_add_handle(dag, label, (double)ib * b * elem) : -1;
            hs_label(label, sizeof label, NULL, "IPIV", 2, i, j, 0);
            IP[i * nt + j] = i >= j ? hs_dag_add_handle(dag, label, b * 4) : -1;
        }
    for (int k = 0; k < nt; k++) {
        hs_label(label, sizeof label, NULL, "getrf", 1, k, 0, 0);
        int t = hs_tiles_task(&A, getrf, label, 2 * b * b * b / 3, nb, false);
        hs_tiles_access(&A, t, k, k, HS_MODE_RW);
        hs_dag_access(dag, t, IP[k * nt + k], HS_MODE_W);
        for (int j = k + 1; j < nt; j++) {
            hs_label(label, sizeof label, NULL, "gessm", 2, k, j, 0);
            t = hs_tiles_task(&A, gessm, label, b * b * b, nb, true);
            hs_dag_access(dag, t, IP[k * nt + k], HS_MODE_R);
            hs_tiles_access_lower(&A, t, k, HS_MODE_R);
            hs_tiles_access(&A, t, k, j, HS_MODE_RW);
        }
        for (int m = k + 1; m < nt; m++) {
            hs_label(label, sizeof label, NULL, "tstrf", 2, m, k, 0);
            t = hs_tiles_task(&A, tstrf, label, b * b * b, nb, gpu_tstrf);
            hs_tiles_access_upper(&A, t, k, HS_MODE_RW);
            hs_tiles_access(&A, t, m, k, HS_MODE_RW);
            hs_dag_access(dag, t, L[m * nt + k], HS_MODE_W);
            hs_dag_access(dag, t, IP[m * nt + k], HS_MODE_W);
            for (int j = k + 1; j < nt; j++) {
                hs_label(label, sizeof label, NULL, "ssssm", 3, m, j, k);
                t = hs_tiles_task(&A, ssssm, label, 2 * b * b * b, nb, true);
                hs_tiles_access(&A, t, k, j, HS_MODE_RW);
                hs_tiles_access(&A, t, m, j, HS_MODE_RW);
                hs_dag_access(dag, t, L[m * nt + k], HS_MODE_R);
                hs_tiles_access(&A, t, m, k, HS_MODE_R);
                hs_dag_access(dag, t, IP[m * nt + k], HS_MODE_R);
            }
        }
    }
    hs_tiles_free(&A);
    free(L), free(IP);
    dag->total_flops = 2 * n * n * n / 3 - n * n / 2 + 5 * n / 6;
    return 0;
}

const struct hs_workload hs_workload_lu = {
    .name = "lu",
    .summary = "PLASMA tile LU with incremental pivoting (GETRF, GESSM, TSTRF, SSSSM)",
    .params = lu_params,
    .build = build_lu,
};
