/* sim/engines/real/blasx.c — single/double dispatch of the BLAS and LAPACK calls of
 * the LU and QR tile kernels (see blasx.h). */
#include "sim/engines/real/blasx.h"

#include <cblas.h>
#include <lapacke.h>

size_t hs_x_size(bool single)
{
    return single ? sizeof(float) : sizeof(double);
}

void *hs_x_at(const void *base, long index, bool single)
{
    return (char *)base + index * (long)hs_x_size(single);
}

static CBLAS_TRANSPOSE cblas_op(char op)
{
    return op == 'T' ? CblasTrans : CblasNoTrans;
}

void hs_x_potrf_lower(bool s, int n, void *a, int lda)
{
    if (s)
        LAPACKE_spotrf(LAPACK_COL_MAJOR, 'L', n, a, lda);
    else
        LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, a, lda);
}

void hs_x_trsm_right_lower_trans(bool s, int m, int n, const void *l, int ldl, void *b, int ldb)
{
    if (s)
        cblas_strsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, m, n, 1.0f, l, ldl,
                    b, ldb);
    else
        cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, m, n, 1.0, l, ldl, b,
                    ldb);
}

void hs_x_syrk_lower_minus(bool s, int n, int k, const void *a, int lda, void *c, int ldc)
{
    if (s)
        cblas_ssyrk(CblasColMajor, CblasLower, CblasNoTrans, n, k, -1.0f, a, lda, 1.0f, c, ldc);
    else
        cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, n, k, -1.0, a, lda, 1.0, c, ldc);
}

void hs_x_trsm_unit_lower(bool s, int m, int n, const void *l, int ldl, void *b, int ldb)
{
    if (s)
        cblas_strsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, m, n, 1.0f, l, ldl,
                    b, ldb);
    else
        cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, m, n, 1.0, l, ldl, b,
                    ldb);
}

void hs_x_gemm(bool s, char ta, char tb, int m, int n, int k, double alpha, const void *a, int lda,
               const void *b, int ldb, double beta, void *c, int ldc)
{
    if (s)
        cblas_sgemm(CblasColMajor, cblas_op(ta), cblas_op(tb), m, n, k, (float)alpha, a, lda, b, ldb,
                    (float)beta, c, ldc);
    else
        cblas_dgemm(CblasColMajor, cblas_op(ta), cblas_op(tb), m, n, k, alpha, a, lda, b, ldb, beta, c,
                    ldc);
}

void hs_x_copy(bool s, int m, int n, const void *a, int lda, void *b, int ldb)
{
    if (s)
        LAPACKE_slacpy(LAPACK_COL_MAJOR, 'A', m, n, a, lda, b, ldb);
    else
        LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', m, n, a, lda, b, ldb);
}

void hs_x_getrf(bool s, int m, int n, void *a, int lda, int *ipiv)
{
    /* info > 0 (an exact zero pivot) leaves a complete factorisation */
    if (s)
        LAPACKE_sgetrf(LAPACK_COL_MAJOR, m, n, a, lda, ipiv);
    else
        LAPACKE_dgetrf(LAPACK_COL_MAJOR, m, n, a, lda, ipiv);
}

/* Element r of column j of the stacked matrix. */
static char *stacked(bool s, int kb, int r, int j, void *top, int ldt, void *bottom, int ldb)
{
    return r < kb ? hs_x_at(top, r + (long)j * ldt, s) : hs_x_at(bottom, r - kb + (long)j * ldb, s);
}

void hs_x_swap_stacked(bool s, int kb, int ncols, const int *piv, void *top, int ldt, void *bottom,
                       int ldb, int nbottom)
{
    size_t es = hs_x_size(s);
    for (int i = 0; i < kb; i++) {
        int p = piv[i] - 1;
        if (p == i || p < 0 || p >= kb + nbottom)
            continue;
        for (int j = 0; j < ncols; j++) {
            char *a = stacked(s, kb, i, j, top, ldt, bottom, ldb), *b = stacked(s, kb, p, j, top, ldt, bottom, ldb);
            for (size_t c = 0; c < es; c++) {
                char x = a[c];
                a[c] = b[c];
                b[c] = x;
            }
        }
    }
}

void hs_x_geqrt(bool s, int n, int ib, void *a, void *t)
{
    if (s)
        LAPACKE_sgeqrt(LAPACK_COL_MAJOR, n, n, ib, a, n, t, ib);
    else
        LAPACKE_dgeqrt(LAPACK_COL_MAJOR, n, n, ib, a, n, t, ib);
}

void hs_x_gemqrt(bool s, int n, int ncols, int ib, const void *v, const void *t, void *c, int ldc)
{
    if (s)
        LAPACKE_sgemqrt(LAPACK_COL_MAJOR, 'L', 'T', n, ncols, n, ib, v, n, t, ib, c, ldc);
    else
        LAPACKE_dgemqrt(LAPACK_COL_MAJOR, 'L', 'T', n, ncols, n, ib, v, n, t, ib, c, ldc);
}

void hs_x_tpqrt(bool s, int n, int ib, void *a, void *b, void *t)
{
    if (s)
        LAPACKE_stpqrt(LAPACK_COL_MAJOR, n, n, 0, ib, a, n, b, n, t, ib);
    else
        LAPACKE_dtpqrt(LAPACK_COL_MAJOR, n, n, 0, ib, a, n, b, n, t, ib);
}

void hs_x_tpmqrt(bool s, int n, int ncols, int ib, const void *v, const void *t, void *a, int lda,
                 void *b, int ldb)
{
    if (s)
        LAPACKE_stpmqrt(LAPACK_COL_MAJOR, 'L', 'T', n, ncols, n, 0, ib, v, n, t, ib, a, lda, b, ldb);
    else
        LAPACKE_dtpmqrt(LAPACK_COL_MAJOR, 'L', 'T', n, ncols, n, 0, ib, v, n, t, ib, a, lda, b, ldb);
}
