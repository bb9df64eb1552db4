/* sim/engines/real/numeric_lu.c — the real kernels of tile LU with incremental
 * pivoting (workloads/lu.c) on a core, and its residual.
 *
 * A step of incremental pivoting eliminates a tile A(m,k) below the upper
 * triangular U = A(k,k) one panel of ib columns at a time. For the panel of
 * columns c..c+kb, the stacked matrix S = [U(c:c+kb, c:c+kb); A(m,k)(:, c:c+kb)]
 * ((kb+nb)×kb, the upper triangle of U on top) is factored with partial
 * pivoting, P S = [L1; L2] U', and the same transformation is applied to the
 * columns on the right of the stacked rows [top rows c..c+kb; every row
 * below]: the row interchanges P, then top := L1⁻¹ top, then
 * bottom := bottom − L2 top. TSTRF stores L1 in L(m,k) (columns c..c+kb, ld
 * ib), L2 in A(m,k), the pivots (1-based, over the kb+nb stacked rows) in
 * IPIV(m,k)[c..c+kb], and U' in U; SSSSM applies every panel of that
 * transformation in turn to [A(k,n); A(m,n)]. GETRF is LAPACK's partial
 * pivoting LU of the diagonal tile and GESSM applies it (interchanges, then
 * the unit lower L⁻¹) to A(k,n). This is the structure of PLASMA's
 * incremental pivoting (Buttari et al. 2009): each kernel's flops are those
 * the workload counts (GETRF 2b³/3, GESSM and TSTRF b³, SSSSM 2b³, plus the
 * inner blocking's lower order terms).
 *
 * The GPU has GESSM and SSSSM (numeric_gpu.c), as the period code had;
 * GETRF and TSTRF run on cores.
 *
 * Residual: the factorisation says L⁻¹P A = U with the transformation applied
 * kernel by kernel; so y = A x (A regenerated), transformed by replaying
 * GESSM and SSSSM on its blocks in the algorithm's order, must equal U x. */
#include "sim/engines/real/blasx.h"
#include "base/util.h"
#include "sim/engines/real/numeric_la.h"

#include <stdlib.h>
#include <string.h>

static int imin(int a, int b)
{
    return a < b ? a : b;
}

/* ---- on a core ---------------------------------------------------------------- */

static void gessm(bool s, int nb, int ncols, const int *ipiv, const void *akk, void *b, int ldb)
{
    hs_x_swap_stacked(s, nb, ncols, ipiv, b, ldb, NULL, 0, 0);
    hs_x_trsm_unit_lower(s, nb, ncols, akk, nb, b, ldb);
}

/* One panel's transformation applied to ncols columns of [top (kb rows); bottom (nb rows)]. */
static void panel(bool s, int nb, int kb, int ncols, const int *piv, const void *l1, int ldl1,
                  const void *l2, void *top, int ldt, void *bottom, int ldb)
{
    hs_x_swap_stacked(s, kb, ncols, piv, top, ldt, bottom, ldb, nb);
    hs_x_trsm_unit_lower(s, kb, ncols, l1, ldl1, top, ldt);
    hs_x_gemm(s, 'N', 'N', nb, ncols, kb, -1, l2, nb, top, ldt, 1, bottom, ldb);
}

/* top holds rows 0..nb-1 of A(k,n) (the panels take rows c..c+kb of it). */
static void ssssm(bool s, int nb, int ib, int ncols, void *top, int ldt, void *bottom, int ldb,
                  const void *l, const void *amk, const int *ipiv)
{
    for (int c = 0; c < nb; c += ib) {
        int kb = imin(ib, nb - c);
        panel(s, nb, kb, ncols, ipiv + c, hs_x_at(l, (long)c * ib, s), ib, hs_x_at(amk, (long)c * nb, s),
              hs_x_at(top, c, s), ldt, bottom, ldb);
    }
}

static void tstrf(bool s, int nb, int ib, void *u, void *amk, void *l, int *ipiv)
{
    size_t es = hs_x_size(s);
    void *S = hs_xmalloc((size_t)(ib + nb) * (size_t)ib * es);
    for (int c = 0; c < nb; c += ib) {
        int kb = imin(ib, nb - c), ld = kb + nb;
        void *ublock = hs_x_at(u, c + (long)c * nb, s);
        memset(S, 0, (size_t)ld * (size_t)kb * es);
        for (int j = 0; j < kb; j++) /* the upper triangle of U's block */
            memcpy(hs_x_at(S, (long)j * ld, s), hs_x_at(ublock, (long)j * nb, s), (size_t)(j + 1) * es);
        hs_x_copy(s, nb, kb, hs_x_at(amk, (long)c * nb, s), nb, hs_x_at(S, kb, s), ld);
        hs_x_getrf(s, ld, kb, S, ld, ipiv + c);
        for (int j = 0; j < kb; j++)
            memcpy(hs_x_at(ublock, (long)j * nb, s), hs_x_at(S, (long)j * ld, s), (size_t)(j + 1) * es);
        hs_x_copy(s, kb, kb, S, ld, hs_x_at(l, (long)c * ib, s), ib);
        hs_x_copy(s, nb, kb, hs_x_at(S, kb, s), ld, hs_x_at(amk, (long)c * nb, s), nb);
        if (c + kb < nb)
            panel(s, nb, kb, nb - c - kb, ipiv + c, hs_x_at(l, (long)c * ib, s), ib,
                  hs_x_at(amk, (long)c * nb, s), hs_x_at(u, c + (long)(c + kb) * nb, s), nb,
                  hs_x_at(amk, (long)(c + kb) * nb, s), nb);
    }
    free(S);
}

bool hs_lu_cpu(const struct hs_numeric *num, enum hs_op op, void **b)
{
    bool s = num->single;
    int nb = num->nb, ib = num->ib;
    switch (op) {
    case HS_OP_GETRF: hs_x_getrf(s, nb, nb, b[0], nb, b[1]); return true;
    case HS_OP_GESSM: gessm(s, nb, nb, b[0], b[1], b[2], nb); return true;
    case HS_OP_TSTRF: tstrf(s, nb, ib, b[0], b[1], b[2], b[3]); return true;
    case HS_OP_SSSSM: ssssm(s, nb, ib, nb, b[0], nb, b[1], nb, b[2], b[3], b[4]); return true;
    default: return false;
    }
}

/* ---- residual ----------------------------------------------------------------- */

static void replay_gessm(const struct hs_replay *r, int k, void *yk)
{
    gessm(r->num->single, r->num->nb, 1, hs_replay_tile(r, HS_TILE_IPIV, k, k), hs_replay_tile(r, HS_TILE_A, k, k),
          yk, r->num->nb);
}

static void replay_ssssm(const struct hs_replay *r, int k, int m, void *yk, void *ym)
{
    int nb = r->num->nb;
    ssssm(r->num->single, nb, r->num->ib, 1, yk, nb, ym, nb, hs_replay_tile(r, HS_TILE_L, m, k),
          hs_replay_tile(r, HS_TILE_A, m, k), hs_replay_tile(r, HS_TILE_IPIV, m, k));
}

double hs_lu_residual(const struct hs_numeric *num, const struct hs_dag *dag, void **host)
{
    return hs_numeric_replay_residual(num, dag, host, replay_gessm, replay_ssssm);
}
