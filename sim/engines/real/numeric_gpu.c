/* sim/engines/real/numeric_gpu.c — the real kernels on a GPU (see numeric_gpu.h):
 * cuBLAS/cuSOLVER library state, Cholesky and GEMM in cuBLAS/cuSOLVER, LU's
 * GESSM and SSSSM (row interchanges in a small CUDA kernel, TRSM and GEMM in
 * cuBLAS, as the period code had), QR's ORMQR and TSMQR as block reflectors
 * in cuBLAS (the larfb/tprfb structure: for each block of kb <= ib
 * reflectors, in order, W = V^T C, W := T^T W, C -= V W, where for TSMQR
 * V = [I; A(m,k)] so that W = A(k,n) rows + A(m,k)^T A(m,n)). The algorithms
 * are described with their CPU versions in numeric_lu.c and numeric_qr.c. */
#include "sim/engines/real/blasx.h"
#include "sim/engines/real/blasx_gpu.h"
#include "sim/engines/real/numeric_gpu.h"
#include "sim/engines/real/numeric_la.h"

#include <string.h>

static int imin(int a, int b)
{
    return a < b ? a : b;
}

/* ---- library state, Cholesky and GEMM ---------------------------------------- */

int hs_gpu_libs_init(struct hs_gpu_libs *libs, cudaStream_t stream, const struct hs_numeric *num)
{
    int nb = num->nb, ib = num->ib;
    bool single = num->single;
    memset(libs, 0, sizeof *libs);
    if (cublasCreate(&libs->blas) != CUBLAS_STATUS_SUCCESS ||
        cublasSetStream(libs->blas, stream) != CUBLAS_STATUS_SUCCESS ||
        cusolverDnCreate(&libs->solver) != CUSOLVER_STATUS_SUCCESS ||
        cusolverDnSetStream(libs->solver, stream) != CUSOLVER_STATUS_SUCCESS)
        return -1;
    if (nb > 0) {
        cusolverStatus_t st =
            single ? cusolverDnSpotrf_bufferSize(libs->solver, CUBLAS_FILL_MODE_LOWER, nb, NULL, nb, &libs->lwork)
                   : cusolverDnDpotrf_bufferSize(libs->solver, CUBLAS_FILL_MODE_LOWER, nb, NULL, nb, &libs->lwork);
        size_t elem = single ? sizeof(float) : sizeof(double);
        size_t scratch = num->family == HS_FAMILY_QR ? ((size_t)nb * nb + 2 * (size_t)ib * nb) * elem : elem;
        if (st != CUSOLVER_STATUS_SUCCESS || cudaMalloc(&libs->work, (size_t)libs->lwork * elem + elem) != cudaSuccess ||
            cudaMalloc((void **)&libs->info, sizeof(int)) != cudaSuccess ||
            cudaMalloc(&libs->scratch, scratch) != cudaSuccess)
            return -1;
    }
    return 0;
}

void hs_gpu_libs_free(struct hs_gpu_libs *libs)
{
    if (libs->blas)
        cublasDestroy(libs->blas);
    if (libs->solver)
        cusolverDnDestroy(libs->solver);
    cudaFree(libs->work);
    cudaFree(libs->info);
    cudaFree(libs->scratch);
    memset(libs, 0, sizeof *libs);
}

static bool gpu_single(const struct hs_numeric *num, enum hs_op op, void **b, struct hs_gpu_libs *l)
{
    int n = num->nb;
    const float one = 1, minus = -1, plus = 1;
    bool chol = num->family == HS_FAMILY_CHOLESKY;
    switch (op) {
    case HS_OP_POTRF:
        return cusolverDnSpotrf(l->solver, CUBLAS_FILL_MODE_LOWER, n, b[0], n, l->work, l->lwork, l->info) ==
               CUSOLVER_STATUS_SUCCESS;
    case HS_OP_TRSM:
        return cublasStrsm(l->blas, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                           CUBLAS_DIAG_NON_UNIT, n, n, &one, b[0], n, b[1], n) == CUBLAS_STATUS_SUCCESS;
    case HS_OP_SYRK:
        return cublasSsyrk(l->blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, n, n, &minus, b[0], n, &one,
                           b[1], n) == CUBLAS_STATUS_SUCCESS;
    case HS_OP_GEMM:
        return cublasSgemm(l->blas, CUBLAS_OP_N, chol ? CUBLAS_OP_T : CUBLAS_OP_N, n, n, n,
                           chol ? &minus : &plus, b[0], n, b[1], n, &one, b[2], n) == CUBLAS_STATUS_SUCCESS;
    default: return false;
    }
}

static bool gpu_double(const struct hs_numeric *num, enum hs_op op, void **b, struct hs_gpu_libs *l)
{
    int n = num->nb;
    const double one = 1, minus = -1, plus = 1;
    bool chol = num->family == HS_FAMILY_CHOLESKY;
    switch (op) {
    case HS_OP_POTRF:
        return cusolverDnDpotrf(l->solver, CUBLAS_FILL_MODE_LOWER, n, b[0], n, l->work, l->lwork, l->info) ==
               CUSOLVER_STATUS_SUCCESS;
    case HS_OP_TRSM:
        return cublasDtrsm(l->blas, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                           CUBLAS_DIAG_NON_UNIT, n, n, &one, b[0], n, b[1], n) == CUBLAS_STATUS_SUCCESS;
    case HS_OP_SYRK:
        return cublasDsyrk(l->blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, n, n, &minus, b[0], n, &one,
                           b[1], n) == CUBLAS_STATUS_SUCCESS;
    case HS_OP_GEMM:
        return cublasDgemm(l->blas, CUBLAS_OP_N, chol ? CUBLAS_OP_T : CUBLAS_OP_N, n, n, n,
                           chol ? &minus : &plus, b[0], n, b[1], n, &one, b[2], n) == CUBLAS_STATUS_SUCCESS;
    default: return false;
    }
}

/* ---- LU ---------------------------------------------------------------------- */

static bool gpu_ssssm(cublasHandle_t h, bool s, int nb, int ib, void **b)
{
    void *akn = b[0], *amn = b[1], *l = b[2], *amk = b[3];
    const int *ipiv = b[4];
    bool ok = true;
    for (int c = 0; ok && c < nb; c += ib) {
        int kb = imin(ib, nb - c);
        void *top = hs_x_at(akn, c, s);
        ok = hs_gx_swap_stacked(h, s, kb, nb, ipiv + c, top, nb, amn, nb, nb) &&
             hs_gx_trsm_unit_lower(h, s, kb, nb, hs_x_at(l, (long)c * ib, s), ib, top, nb) &&
             hs_gx_gemm(h, s, 'N', 'N', nb, nb, kb, -1, hs_x_at(amk, (long)c * nb, s), nb, top, nb, 1, amn, nb);
    }
    return ok;
}

static bool lu_gpu(const struct hs_numeric *num, enum hs_op op, void **b, struct hs_gpu_libs *libs)
{
    bool s = num->single;
    int nb = num->nb;
    switch (op) {
    case HS_OP_GESSM:
        return hs_gx_swap_stacked(libs->blas, s, nb, nb, b[0], b[2], nb, NULL, 0, 0) &&
               hs_gx_trsm_unit_lower(libs->blas, s, nb, nb, b[1], nb, b[2], nb);
    case HS_OP_SSSSM: return gpu_ssssm(libs->blas, s, nb, num->ib, b);
    default: return false; /* GETRF and TSTRF run on cores */
    }
}

/* ---- QR ---------------------------------------------------------------------- */

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

static bool qr_gpu(const struct hs_numeric *num, enum hs_op op, void **b, struct hs_gpu_libs *libs)
{
    switch (op) {
    case HS_OP_ORMQR: return gpu_ormqr(libs, num->single, num->nb, num->ib, b);
    case HS_OP_TSMQR: return gpu_tsmqr(libs, num->single, num->nb, num->ib, b);
    default: return false; /* GEQRT and TSQRT run on cores */
    }
}

/* ---- dispatch ----------------------------------------------------------------- */

bool hs_numeric_gpu(const struct hs_numeric *num, const struct hs_dag *dag, int t, void **bufs,
                    struct hs_gpu_libs *libs)
{
    enum hs_op op = hs_numeric_op(num, dag, t);
    switch (num->family) {
    case HS_FAMILY_LU: return lu_gpu(num, op, bufs, libs);
    case HS_FAMILY_QR: return qr_gpu(num, op, bufs, libs);
    default:
        if (op == HS_OP_NONE)
            return false;
        return num->single ? gpu_single(num, op, bufs, libs) : gpu_double(num, op, bufs, libs);
    }
}
