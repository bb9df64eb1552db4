/* sim/engines/real/numeric_qr.c — the real kernels of tile QR (workloads/qr.c) on a
 * core, and its residual.
 *
 * On a core they are LAPACK 3.4's tile kernels with inner blocking ib:
 * GEQRT = geqrt (A(k,k) = Q R, Householder vectors V below the diagonal,
 * the ib×ib triangular factors in T(k,k)), ORMQR = gemqrt (A(k,n) := Qᵀ
 * A(k,n)), TSQRT = tpqrt with l = 0 (QR of [R; A(m,k)], V in A(m,k), T in
 * T(m,k)), TSMQR = tpmqrt (Qᵀ applied to [A(k,n); A(m,n)]).
 *
 * The GPU has ORMQR and TSMQR, as the period code had, as block reflectors
 * in cuBLAS (numeric_gpu.c); GEQRT and TSQRT run on cores.
 *
 * Residual: Qᵀ A = R, so y = A x (A regenerated), transformed by replaying
 * ORMQR and TSMQR on its blocks in the algorithm's order, must equal R x. */
#include "sim/engines/real/blasx.h"
#include "sim/engines/real/numeric_la.h"

bool hs_qr_cpu(const struct hs_numeric *num, enum hs_op op, void **b)
{
    bool s = num->single;
    int nb = num->nb, ib = num->ib;
    switch (op) {
    case HS_OP_GEQRT: hs_x_geqrt(s, nb, ib, b[0], b[1]); return true;
    case HS_OP_ORMQR: hs_x_gemqrt(s, nb, nb, ib, b[0], b[1], b[2], nb); return true;
    case HS_OP_TSQRT: hs_x_tpqrt(s, nb, ib, b[0], b[1], b[2]); return true;
    case HS_OP_TSMQR: hs_x_tpmqrt(s, nb, nb, ib, b[2], b[3], b[0], nb, b[1], nb); return true;
    default: return false;
    }
}

/* ---- residual ----------------------------------------------------------------- */

static void replay_ormqr(const struct hs_replay *r, int k, void *yk)
{
    hs_x_gemqrt(r->num->single, r->num->nb, 1, r->num->ib, hs_replay_tile(r, HS_TILE_A, k, k),
                hs_replay_tile(r, HS_TILE_T, k, k), yk, r->num->nb);
}

static void replay_tsmqr(const struct hs_replay *r, int k, int m, void *yk, void *ym)
{
    int nb = r->num->nb;
    hs_x_tpmqrt(r->num->single, nb, 1, r->num->ib, hs_replay_tile(r, HS_TILE_A, m, k),
                hs_replay_tile(r, HS_TILE_T, m, k), yk, nb, ym, nb);
}

double hs_qr_residual(const struct hs_numeric *num, const struct hs_dag *dag, void **host)
{
    return hs_numeric_replay_residual(num, dag, host, replay_ormqr, replay_tsmqr);
}
