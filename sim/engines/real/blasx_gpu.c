/* sim/engines/real/blasx_gpu.c — single/double dispatch of the cuBLAS calls of the
 * LU and QR tile kernels (see blasx_gpu.h); the two small CUDA kernels
 * cuBLAS lacks are in lapack_gpu.cu. */
#include "sim/engines/real/blasx_gpu.h"

static cublasOperation_t cublas_op(char op)
{
    return op == 'T' ? CUBLAS_OP_T : CUBLAS_OP_N;
}

bool hs_gx_trsm_unit_lower(cublasHandle_t h, bool s, int m, int n, const void *l, int ldl, void *b, int ldb)
{
    const float f = 1;
    const double d = 1;
    return (s ? cublasStrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, m, n,
                            &f, l, ldl, b, ldb)
              : cublasDtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, m, n,
                            &d, l, ldl, b, ldb)) == CUBLAS_STATUS_SUCCESS;
}

bool hs_gx_gemm(cublasHandle_t h, bool s, char ta, char tb, int m, int n, int k, double alpha,
                const void *a, int lda, const void *b, int ldb, double beta, void *c, int ldc)
{
    const float fa = (float)alpha, fb = (float)beta;
    return (s ? cublasSgemm(h, cublas_op(ta), cublas_op(tb), m, n, k, &fa, a, lda, b, ldb, &fb, c, ldc)
              : cublasDgemm(h, cublas_op(ta), cublas_op(tb), m, n, k, &alpha, a, lda, b, ldb, &beta, c,
                            ldc)) == CUBLAS_STATUS_SUCCESS;
}

bool hs_gx_trmm_upper_trans(cublasHandle_t h, bool s, int m, int n, const void *t, int ldt, const void *b,
                            int ldb, void *c, int ldc)
{
    const float f = 1;
    const double d = 1;
    return (s ? cublasStrmm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, m,
                            n, &f, t, ldt, b, ldb, c, ldc)
              : cublasDtrmm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, m,
                            n, &d, t, ldt, b, ldb, c, ldc)) == CUBLAS_STATUS_SUCCESS;
}

bool hs_gx_geam(cublasHandle_t h, bool s, int m, int n, double alpha, const void *a, int lda, double beta,
                const void *b, int ldb, void *c, int ldc)
{
    const float fa = (float)alpha, fb = (float)beta;
    return (s ? cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, &fa, a, lda, &fb, b, ldb, c, ldc)
              : cublasDgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, &alpha, a, lda, &beta, b, ldb, c, ldc)) ==
           CUBLAS_STATUS_SUCCESS;
}
