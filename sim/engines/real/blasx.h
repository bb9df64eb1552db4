/* sim/engines/real/blasx.h — the BLAS/LAPACK calls of the LU and QR tile kernels on
 * a core in either precision. The kernels are written once, on void
 * pointers; these call the single or the double routine, as `single` says,
 * of OpenBLAS and LAPACKE (their cuBLAS counterparts are in blasx_gpu.h).
 * Matrices are column-major; scalars are given as doubles. */
#ifndef HS_REAL_BLASX_H
#define HS_REAL_BLASX_H

#include <stdbool.h>
#include <stddef.h>

size_t hs_x_size(bool single);
/* base + index elements */
void *hs_x_at(const void *base, long index, bool single);

/* ---- on a core ---- */
/* A := L with L Lᵀ = A (lower, n×n), Cholesky's POTRF */
void hs_x_potrf_lower(bool single, int n, void *a, int lda);
/* B := B L⁻ᵀ, L n×n lower triangular (m×n B), Cholesky's TRSM */
void hs_x_trsm_right_lower_trans(bool single, int m, int n, const void *l, int ldl, void *b, int ldb);
/* C := C − A Aᵀ, lower part (n×n C, n×k A), Cholesky's SYRK */
void hs_x_syrk_lower_minus(bool single, int n, int k, const void *a, int lda, void *c, int ldc);
/* B := L⁻¹ B, L m×m unit lower triangular */
void hs_x_trsm_unit_lower(bool single, int m, int n, const void *l, int ldl, void *b, int ldb);
/* C := alpha op(A) op(B) + beta C, op = 'N' or 'T' */
void hs_x_gemm(bool single, char ta, char tb, int m, int n, int k, double alpha, const void *a,
               int lda, const void *b, int ldb, double beta, void *c, int ldc);
/* B := A (m×n) */
void hs_x_copy(bool single, int m, int n, const void *a, int lda, void *b, int ldb);
/* LU with partial pivoting; ipiv 1-based (LAPACK's). A singular matrix is
 * factored all the same. */
void hs_x_getrf(bool single, int m, int n, void *a, int lda, int *ipiv);
/* Row interchanges of a stacked matrix: rows 0..kb-1 are `top`, rows
 * kb..kb+nbottom-1 are `bottom`; for i = 0..kb-1 in turn, stacked row i is
 * swapped with row piv[i]-1 (LAPACK's 1-based pivots), in ncols columns.
 * A pivot outside the stacked rows is ignored: a kernel never writes outside
 * its tiles, whatever its inputs (the engine warms kernels up on zeros). */
void hs_x_swap_stacked(bool single, int kb, int ncols, const int *piv, void *top, int ldt,
                       void *bottom, int ldb, int nbottom);
/* LAPACK 3.4's tile QR kernels, inner blocking ib, T ldt = ib */
void hs_x_geqrt(bool single, int n, int ib, void *a, void *t);
void hs_x_gemqrt(bool single, int n, int ncols, int ib, const void *v, const void *t, void *c, int ldc);
void hs_x_tpqrt(bool single, int n, int ib, void *a, void *b, void *t);
void hs_x_tpmqrt(bool single, int n, int ncols, int ib, const void *v, const void *t, void *a, int lda,
                 void *b, int ldb);

#endif
