/* sim/engines/real/blasx_gpu.h — the cuBLAS calls of the LU and QR tile kernels on
 * a GPU in either precision (the GPU side of blasx.h), on the handle's
 * stream; each returns false if cuBLAS refused the call. Built with CUDA
 * only. */
#ifndef HS_REAL_BLASX_GPU_H
#define HS_REAL_BLASX_GPU_H

#include <cublas_v2.h>
#include <stdbool.h>

bool hs_gx_trsm_unit_lower(cublasHandle_t h, bool single, int m, int n, const void *l, int ldl,
                           void *b, int ldb);
bool hs_gx_gemm(cublasHandle_t h, bool single, char ta, char tb, int m, int n, int k, double alpha,
                const void *a, int lda, const void *b, int ldb, double beta, void *c, int ldc);
/* C := Tᵀ B, T m×m upper triangular (out of place) */
bool hs_gx_trmm_upper_trans(cublasHandle_t h, bool single, int m, int n, const void *t, int ldt,
                            const void *b, int ldb, void *c, int ldc);
/* C := alpha A + beta B (m×n; C may be A) */
bool hs_gx_geam(cublasHandle_t h, bool single, int m, int n, double alpha, const void *a, int lda,
                double beta, const void *b, int ldb, void *c, int ldc);
/* blasx.h's stacked row interchanges (hs_x_swap_stacked), on the GPU (lapack_gpu.cu) */
bool hs_gx_swap_stacked(cublasHandle_t h, bool single, int kb, int ncols, const int *piv, void *top,
                        int ldt, void *bottom, int ldb, int nbottom);
/* V := the unit lower trapezoid of A (m×n): ones on the diagonal, zeros above */
bool hs_gx_unit_lower(cublasHandle_t h, bool single, int m, int n, const void *a, int lda, void *v,
                      int ldv);

#endif
