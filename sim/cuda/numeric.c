/* sim/cuda/numeric.c — tiles, real kernels and residuals (see numeric.h).
 *
 * Cholesky (lower, as workloads/cholesky.c builds it), A(m,k) tiles:
 *   potrf(A_kk)            A_kk = L_kk L_kkᵀ
 *   trsm(A_kk, A_mk)       A_mk ← A_mk L_kk⁻ᵀ
 *   syrk(A_mk, A_mm)       A_mm ← A_mm − A_mk A_mkᵀ
 *   gemm(A_mk, A_nk, A_mn) A_mn ← A_mn − A_mk A_nkᵀ
 * GEMM (workloads/gemm.c): gemm(A_il, B_lj, C_ij) C_ij ← C_ij + A_il B_lj.
 * Initial values come from a hash of (matrix, row, column), so they can be
 * regenerated for the residual instead of being kept; the Cholesky matrix is
 * symmetric with n added to its diagonal, hence positive definite. */
#include "sim/cuda/numeric.h"
#include "sim/params.h"
#include "sim/util.h"

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double hashed(unsigned matrix, long r, long c)
{
    unsigned long long z = ((unsigned long long)matrix << 58) ^ ((unsigned long long)r << 29) ^
                           (unsigned long long)c;
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

/* Initial value of element (r, c) of a matrix of the run. */
static double initial(const struct hs_numeric *num, int matrix, long r, long c)
{
    if (num->family == HS_FAMILY_CHOLESKY) {
        long lo = r < c ? r : c, hi = r < c ? c : r;
        return hashed(0, lo, hi) + (r == c ? (double)num->nt * num->nb : 0);
    }
    return hashed((unsigned)matrix + 1, r, c) - 0.5;
}

static bool parse_tile(const char *name, int *matrix, int *row, int *col)
{
    char m;
    if (sscanf(name, "%c(%d,%d)", &m, row, col) != 3 || m < 'A' || m > 'C')
        return false;
    *matrix = m - 'A';
    return true;
}

void hs_numeric_init(struct hs_numeric *num, const struct hs_dag *dag)
{
    memset(num, 0, sizeof *num);
    struct hs_spec spec;
    if (hs_spec_parse(dag->name, &spec))
        return;
    enum hs_family fam = strcmp(spec.name, "cholesky") == 0 ? HS_FAMILY_CHOLESKY
                         : strcmp(spec.name, "gemm") == 0   ? HS_FAMILY_GEMM
                                                            : HS_FAMILY_NONE;
    const char *prec = hs_spec_get(&spec, "precision");
    bool single = prec && prec[0] == 's';
    long n = hs_spec_int(&spec, "n"), nb = hs_spec_int(&spec, "nb");
    bool square = fam != HS_FAMILY_GEMM ||
                  ((hs_spec_int(&spec, "m") == 0 || hs_spec_int(&spec, "m") == n) &&
                   (hs_spec_int(&spec, "k") == 0 || hs_spec_int(&spec, "k") == n));
    hs_spec_free(&spec);
    if (fam == HS_FAMILY_NONE || !square || nb <= 0)
        return;
    num->family = fam;
    num->single = single;
    num->nb = (int)nb;
    num->nt = (int)(n / nb);
    num->tile_row = hs_xmalloc((size_t)dag->nhandles * sizeof(int));
    num->tile_col = hs_xmalloc((size_t)dag->nhandles * sizeof(int));
    num->matrix = hs_xmalloc((size_t)dag->nhandles * sizeof(int));
    for (int h = 0; h < dag->nhandles; h++)
        if (!parse_tile(dag->handles[h].name, &num->matrix[h], &num->tile_row[h], &num->tile_col[h])) {
            hs_numeric_free(num); /* not the layout we know: no numerics */
            return;
        }
}

void hs_numeric_free(struct hs_numeric *num)
{
    free(num->tile_row);
    free(num->tile_col);
    free(num->matrix);
    memset(num, 0, sizeof *num);
}

void hs_numeric_fill(const struct hs_numeric *num, const struct hs_dag *dag, void **host)
{
    if (num->family == HS_FAMILY_NONE)
        return;
    int nb = num->nb;
    for (int h = 0; h < dag->nhandles; h++)
        for (int jj = 0; jj < nb; jj++)
            for (int ii = 0; ii < nb; ii++) {
                double v = initial(num, num->matrix[h], (long)num->tile_row[h] * nb + ii,
                                   (long)num->tile_col[h] * nb + jj);
                if (num->single)
                    ((float *)host[h])[jj * nb + ii] = (float)v;
                else
                    ((double *)host[h])[jj * nb + ii] = v;
            }
}

/* ---- kernels ------------------------------------------------------------------ */

enum op { OP_NONE, OP_POTRF, OP_TRSM, OP_SYRK, OP_GEMM };

static enum op op_of(const struct hs_numeric *num, const struct hs_dag *dag, int t)
{
    const char *k = dag->kernels[dag->tasks[t].kernel];
    if (num->family == HS_FAMILY_NONE || (k[0] != 'd' && k[0] != 's'))
        return OP_NONE;
    k++;
    if (strcmp(k, "potrf") == 0)
        return OP_POTRF;
    if (strcmp(k, "trsm") == 0)
        return OP_TRSM;
    if (strcmp(k, "syrk") == 0)
        return OP_SYRK;
    return strcmp(k, "gemm") == 0 ? OP_GEMM : OP_NONE;
}

bool hs_numeric_cpu(const struct hs_numeric *num, const struct hs_dag *dag, int t, void **b)
{
    int n = num->nb;
    bool chol = num->family == HS_FAMILY_CHOLESKY;
    enum op op = op_of(num, dag, t);
    if (num->single) {
        switch (op) {
        case OP_POTRF: LAPACKE_spotrf(LAPACK_COL_MAJOR, 'L', n, b[0], n); return true;
        case OP_TRSM:
            cblas_strsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, n, n, 1.0f,
                        b[0], n, b[1], n);
            return true;
        case OP_SYRK:
            cblas_ssyrk(CblasColMajor, CblasLower, CblasNoTrans, n, n, -1.0f, b[0], n, 1.0f, b[1], n);
            return true;
        case OP_GEMM:
            cblas_sgemm(CblasColMajor, CblasNoTrans, chol ? CblasTrans : CblasNoTrans, n, n, n,
                        chol ? -1.0f : 1.0f, b[0], n, b[1], n, 1.0f, b[2], n);
            return true;
        default: return false;
        }
    }
    switch (op) {
    case OP_POTRF: LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, b[0], n); return true;
    case OP_TRSM:
        cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, n, n, 1.0,
                    b[0], n, b[1], n);
        return true;
    case OP_SYRK:
        cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, n, n, -1.0, b[0], n, 1.0, b[1], n);
        return true;
    case OP_GEMM:
        cblas_dgemm(CblasColMajor, CblasNoTrans, chol ? CblasTrans : CblasNoTrans, n, n, n,
                    chol ? -1.0 : 1.0, b[0], n, b[1], n, 1.0, b[2], n);
        return true;
    default: return false;
    }
}

int hs_gpu_libs_init(struct hs_gpu_libs *libs, cudaStream_t stream, int nb, bool single)
{
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
        if (st != CUSOLVER_STATUS_SUCCESS || cudaMalloc(&libs->work, (size_t)libs->lwork * elem + elem) != cudaSuccess ||
            cudaMalloc((void **)&libs->info, sizeof(int)) != cudaSuccess)
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
    memset(libs, 0, sizeof *libs);
}

static bool gpu_single(const struct hs_numeric *num, enum op op, void **b, struct hs_gpu_libs *l)
{
    int n = num->nb;
    const float one = 1, minus = -1, plus = 1;
    bool chol = num->family == HS_FAMILY_CHOLESKY;
    switch (op) {
    case OP_POTRF:
        return cusolverDnSpotrf(l->solver, CUBLAS_FILL_MODE_LOWER, n, b[0], n, l->work, l->lwork, l->info) ==
               CUSOLVER_STATUS_SUCCESS;
    case OP_TRSM:
        return cublasStrsm(l->blas, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                           CUBLAS_DIAG_NON_UNIT, n, n, &one, b[0], n, b[1], n) == CUBLAS_STATUS_SUCCESS;
    case OP_SYRK:
        return cublasSsyrk(l->blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, n, n, &minus, b[0], n, &one,
                           b[1], n) == CUBLAS_STATUS_SUCCESS;
    case OP_GEMM:
        return cublasSgemm(l->blas, CUBLAS_OP_N, chol ? CUBLAS_OP_T : CUBLAS_OP_N, n, n, n,
                           chol ? &minus : &plus, b[0], n, b[1], n, &one, b[2], n) == CUBLAS_STATUS_SUCCESS;
    default: return false;
    }
}

static bool gpu_double(const struct hs_numeric *num, enum op op, void **b, struct hs_gpu_libs *l)
{
    int n = num->nb;
    const double one = 1, minus = -1, plus = 1;
    bool chol = num->family == HS_FAMILY_CHOLESKY;
    switch (op) {
    case OP_POTRF:
        return cusolverDnDpotrf(l->solver, CUBLAS_FILL_MODE_LOWER, n, b[0], n, l->work, l->lwork, l->info) ==
               CUSOLVER_STATUS_SUCCESS;
    case OP_TRSM:
        return cublasDtrsm(l->blas, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                           CUBLAS_DIAG_NON_UNIT, n, n, &one, b[0], n, b[1], n) == CUBLAS_STATUS_SUCCESS;
    case OP_SYRK:
        return cublasDsyrk(l->blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, n, n, &minus, b[0], n, &one,
                           b[1], n) == CUBLAS_STATUS_SUCCESS;
    case OP_GEMM:
        return cublasDgemm(l->blas, CUBLAS_OP_N, chol ? CUBLAS_OP_T : CUBLAS_OP_N, n, n, n,
                           chol ? &minus : &plus, b[0], n, b[1], n, &one, b[2], n) == CUBLAS_STATUS_SUCCESS;
    default: return false;
    }
}

bool hs_numeric_has_kernel(const struct hs_numeric *num, const struct hs_dag *dag, int t)
{
    return op_of(num, dag, t) != OP_NONE;
}

bool hs_numeric_gpu(const struct hs_numeric *num, const struct hs_dag *dag, int t, void **bufs,
                    struct hs_gpu_libs *libs)
{
    enum op op = op_of(num, dag, t);
    if (op == OP_NONE)
        return false;
    return num->single ? gpu_single(num, op, bufs, libs) : gpu_double(num, op, bufs, libs);
}

/* ---- residual ------------------------------------------------------------------ */

static double element(const struct hs_numeric *num, void *tile, int ii, int jj)
{
    int nb = num->nb;
    return num->single ? ((float *)tile)[jj * nb + ii] : ((double *)tile)[jj * nb + ii];
}

/* Index of the handle holding tile (matrix, i, j) in its final version. */
static int *tile_index(const struct hs_numeric *num, const struct hs_dag *dag)
{
    int nt = num->nt;
    int *idx = hs_xmalloc((size_t)3 * nt * nt * sizeof(int));
    for (int i = 0; i < 3 * nt * nt; i++)
        idx[i] = -1;
    for (int h = 0; h < dag->nhandles; h++)
        if (dag->handles[h].latest)
            idx[(num->matrix[h] * nt + num->tile_row[h]) * nt + num->tile_col[h]] = h;
    return idx;
}

static double cholesky_residual(const struct hs_numeric *num, const struct hs_dag *dag, void **host)
{
    long n = (long)num->nt * num->nb;
    int nb = num->nb, nt = num->nt;
    int *idx = tile_index(num, dag);
    double *x = hs_xmalloc((size_t)n * sizeof(double)), *z = hs_xcalloc((size_t)n, sizeof(double));
    double *y = hs_xcalloc((size_t)n, sizeof(double)), anorm = 0, xnorm = 0, err = 0;
    for (long i = 0; i < n; i++) {
        x[i] = hashed(7, i, 0) - 0.5;
        xnorm = fmax(xnorm, fabs(x[i]));
    }
    /* z = Lᵀ x, then y = L z, with L the lower triangle of the final tiles */
    for (int j = 0; j < nt; j++)
        for (int i = j; i < nt; i++)
            for (int jj = 0; jj < nb; jj++)
                for (int ii = (i == j ? jj : 0); ii < nb; ii++)
                    z[(long)j * nb + jj] += element(num, host[idx[i * nt + j]], ii, jj) * x[(long)i * nb + ii];
    for (int j = 0; j < nt; j++)
        for (int i = j; i < nt; i++)
            for (int jj = 0; jj < nb; jj++)
                for (int ii = (i == j ? jj : 0); ii < nb; ii++)
                    y[(long)i * nb + ii] += element(num, host[idx[i * nt + j]], ii, jj) * z[(long)j * nb + jj];
    for (long r = 0; r < n; r++) { /* y - A x, row by row from the generator */
        double ax = 0, row = 0;
        for (long c = 0; c < n; c++) {
            double a = initial(num, 0, r, c);
            ax += a * x[c];
            row += fabs(a);
        }
        err = fmax(err, fabs(y[r] - ax));
        anorm = fmax(anorm, row);
    }
    free(x), free(z), free(y), free(idx);
    double eps = num->single ? FLT_EPSILON : DBL_EPSILON;
    return err / (anorm * xnorm * (double)n * eps);
}

static double gemm_residual(const struct hs_numeric *num, const struct hs_dag *dag, void **host)
{
    long n = (long)num->nt * num->nb;
    int nb = num->nb, nt = num->nt;
    int *idx = tile_index(num, dag);
    double *x = hs_xmalloc((size_t)n * sizeof(double)), *bx = hs_xcalloc((size_t)n, sizeof(double));
    double err = 0, norm = 0, xnorm = 0;
    for (long i = 0; i < n; i++) {
        x[i] = hashed(7, i, 0) - 0.5;
        xnorm = fmax(xnorm, fabs(x[i]));
    }
    for (long r = 0; r < n; r++)
        for (long c = 0; c < n; c++)
            bx[r] += initial(num, 1, r, c) * x[c];
    for (long r = 0; r < n; r++) {
        double expect = 0, got = 0, row = 0;
        for (long c = 0; c < n; c++) {
            double a = initial(num, 0, r, c), c0 = initial(num, 2, r, c);
            expect += c0 * x[c] + a * bx[c];
            row += fabs(a) * n + fabs(c0); /* |B| entries are at most 1/2 */
            int h = idx[(2 * nt + (int)(r / nb)) * nt + (int)(c / nb)];
            got += element(num, host[h], (int)(r % nb), (int)(c % nb)) * x[c];
        }
        err = fmax(err, fabs(got - expect));
        norm = fmax(norm, row);
    }
    free(x), free(bx), free(idx);
    double eps = num->single ? FLT_EPSILON : DBL_EPSILON;
    return err / (norm * xnorm * (double)n * eps);
}

double hs_numeric_residual(const struct hs_numeric *num, const struct hs_dag *dag, void **host)
{
    switch (num->family) {
    case HS_FAMILY_CHOLESKY: return cholesky_residual(num, dag, host);
    case HS_FAMILY_GEMM: return gemm_residual(num, dag, host);
    default: return NAN;
    }
}
