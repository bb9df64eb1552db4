/* sim/cuda/numeric_qr.c — the real kernels of tile QR (workloads/qr.c), on a
 * core and on a GPU, and its residual.
 *
 * On a core they are LAPACK 3.4's tile kernels with inner blocking ib:
 * GEQRT = geqrt (A(k,k) = Q R, Householder vectors V below the diagonal,
 * the ib×ib triangular factors in T(k,k)), ORMQR = gemqrt (A(k,n) := Qᵀ
 * A(k,n)), TSQRT = tpqrt with l = 0 (QR of [R; A(m,k)], V in A(m,k), T in
 * T(m,k)), TSMQR = tpmqrt (Qᵀ applied to [A(k,n); A(m,n)]).
 *
 * The GPU has ORMQR and TSMQR, as the period code had, as block reflectors
 * in cuBLAS (the larfb/tprfb structure): for each block of kb ≤ ib
 * reflectors, in order, W = Vᵀ C, W := Tᵀ W, C -= V W, where for TSMQR
 * V = [I; A(m,k)] so that W = A(k,n) rows + A(m,k)ᵀ A(m,n). GEQRT and TSQRT
 * run on cores.
 *
 * Residual: Qᵀ A = R, so y = A x (A regenerated), transformed by replaying
 * ORMQR and TSMQR on its blocks in the algorithm's order, must equal R x. */
#include "sim/cuda/blasx.h"
#include "sim/cuda/numeric_la.h"


static int imin(int a, int b)
{
    return a < b ? a : b;
}

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

/* ---- on a GPU ----------------------------------------------------------------- */

/* ORMQR(A(k,k), T(k,k), C = A(k,n)): V is A(k,k)'s unit lower trapezoid. */
static bool gpu_ormqr(struct hs_gpu_libs *l, bool s, int nb, int ib, void **b)
{
    cublasHandle_t h = l->blas;
    void *v = l->scratch, *w = hs_x_at(v, (long)nb * nb, s), *w2 = hs_x_at(w, (long)ib * nb, s);
    void *t = b[1], *c = b[2];
    bool ok = hs_gx_unit_lower(h, s, nb, nb, b[0], nb, v, nb);
    for (int j = 0; ok && j < nb; j += ib) {
        int kb = imin(ib, nb - j), rows = nb - j;
        void *vj = hs_x_at(v, j + (long)j * nb, s), *cj = hs_x_at(c, j, s);
        ok = hs_gx_gemm(h, s, 'T', 'N', kb, nb, rows, 1, vj, nb, cj, nb, 0, w, ib) &&
             hs_gx_trmm_upper_trans(h, s, kb, nb, hs_x_at(t, (long)j * ib, s), ib, w, ib, w2, ib) &&
             hs_gx_gemm(h, s, 'N', 'N', rows, nb, kb, -1, vj, nb, w2, ib, 1, cj, nb);
    }
    return ok;
}

/* TSMQR(A(k,n), A(m,n), V = A(m,k), T(m,k)) */
static bool gpu_tsmqr(struct hs_gpu_libs *l, bool s, int nb, int ib, void **b)
{
    cublasHandle_t h = l->blas;
    void *w = hs_x_at(l->scratch, (long)nb * nb, s), *w2 = hs_x_at(w, (long)ib * nb, s);
    void *akn = b[0], *amn = b[1], *v = b[2], *t = b[3];
    bool ok = true;
    for (int j = 0; ok && j < nb; j += ib) {
        int kb = imin(ib, nb - j);
        void *aj = hs_x_at(akn, j, s), *vj = hs_x_at(v, (long)j * nb, s);
        ok = hs_gx_geam(h, s, kb, nb, 1, aj, nb, 0, aj, nb, w, ib) &&
             hs_gx_gemm(h, s, 'T', 'N', kb, nb, nb, 1, vj, nb, amn, nb, 1, w, ib) &&
             hs_gx_trmm_upper_trans(h, s, kb, nb, hs_x_at(t, (long)j * ib, s), ib, w, ib, w2, ib) &&
             hs_gx_geam(h, s, kb, nb, 1, aj, nb, -1, w2, ib, aj, nb) &&
             hs_gx_gemm(h, s, 'N', 'N', nb, nb, kb, -1, vj, nb, w2, ib, 1, amn, nb);
    }
    return ok;
}

bool hs_qr_gpu(const struct hs_numeric *num, enum hs_op op, void **b, struct hs_gpu_libs *libs)
{
    switch (op) {
    case HS_OP_ORMQR: return gpu_ormqr(libs, num->single, num->nb, num->ib, b);
    case HS_OP_TSMQR: return gpu_tsmqr(libs, num->single, num->nb, num->ib, b);
    default: return false; /* GEQRT and TSQRT run on cores */
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
