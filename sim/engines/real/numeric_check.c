/* sim/engines/real/numeric_check.c — the residuals that prove a measured run
 * computed the right result (see numeric.h): initial matrices are
 * regenerated from their hash instead of being kept, and every check is
 * O(n²) with a deterministic vector x. */
#include "sim/engines/real/blasx.h"
#include "base/util.h"
#include "sim/engines/real/numeric_la.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

static double element(const struct hs_numeric *num, const void *tile, int ii, int jj)
{
    int nb = num->nb;
    return num->single ? ((const float *)tile)[jj * nb + ii] : ((const double *)tile)[jj * nb + ii];
}

static double eps_of(const struct hs_numeric *num)
{
    return num->single ? FLT_EPSILON : DBL_EPSILON;
}

int *hs_numeric_tile_index(const struct hs_numeric *num, const struct hs_dag *dag)
{
    int nt = num->nt;
    int *idx = hs_xmalloc((size_t)HS_NTILE_KINDS * nt * nt * sizeof(int));
    for (int i = 0; i < HS_NTILE_KINDS * nt * nt; i++)
        idx[i] = -1;
    for (int h = 0; h < dag->nhandles; h++)
        if (dag->handles[h].latest)
            idx[(num->kind[h] * nt + num->tile_row[h]) * nt + num->tile_col[h]] = h;
    return idx;
}

/* The residual's deterministic x, and its max norm. */
static double *test_vector(long n, double *xnorm)
{
    double *x = hs_xmalloc((size_t)n * sizeof(double));
    *xnorm = 0;
    for (long i = 0; i < n; i++) {
        x[i] = hs_numeric_hashed(7, i, 0) - 0.5;
        *xnorm = fmax(*xnorm, fabs(x[i]));
    }
    return x;
}

static double cholesky_residual(const struct hs_numeric *num, const struct hs_dag *dag, void **host)
{
    long n = (long)num->nt * num->nb;
    int nb = num->nb, nt = num->nt;
    int *idx = hs_numeric_tile_index(num, dag);
    double xnorm, anorm = 0, err = 0, *x = test_vector(n, &xnorm), *z = hs_xcalloc((size_t)n, sizeof(double));
    double *y = hs_xcalloc((size_t)n, sizeof(double));
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
            double a = hs_numeric_initial(num, 0, r, c);
            ax += a * x[c];
            row += fabs(a);
        }
        err = fmax(err, fabs(y[r] - ax));
        anorm = fmax(anorm, row);
    }
    free(x), free(z), free(y), free(idx);
    return err / (anorm * xnorm * (double)n * eps_of(num));
}

static double gemm_residual(const struct hs_numeric *num, const struct hs_dag *dag, void **host)
{
    long n = (long)num->nt * num->nb;
    int nb = num->nb, nt = num->nt;
    int *idx = hs_numeric_tile_index(num, dag);
    double xnorm, err = 0, norm = 0, *x = test_vector(n, &xnorm), *bx = hs_xcalloc((size_t)n, sizeof(double));
    for (long r = 0; r < n; r++)
        for (long c = 0; c < n; c++)
            bx[r] += hs_numeric_initial(num, 1, r, c) * x[c];
    for (long r = 0; r < n; r++) {
        double expect = 0, got = 0, row = 0;
        for (long c = 0; c < n; c++) {
            double a = hs_numeric_initial(num, 0, r, c), c0 = hs_numeric_initial(num, 2, r, c);
            expect += c0 * x[c] + a * bx[c];
            row += fabs(a) * n + fabs(c0); /* |B| entries are at most 1/2 */
            int h = idx[(2 * nt + (int)(r / nb)) * nt + (int)(c / nb)];
            got += element(num, host[h], (int)(r % nb), (int)(c % nb)) * x[c];
        }
        err = fmax(err, fabs(got - expect));
        norm = fmax(norm, row);
    }
    free(x), free(bx), free(idx);
    return err / (norm * xnorm * (double)n * eps_of(num));
}

/* y = A x (A the initial matrix) in the tiles' precision, and x. */
static void *initial_times_x(const struct hs_numeric *num, double **x, double *anorm)
{
    long n = (long)num->nt * num->nb;
    double xnorm;
    *x = test_vector(n, &xnorm);
    *anorm = 0;
    void *y = hs_xmalloc((size_t)n * hs_x_size(num->single));
    for (long r = 0; r < n; r++) {
        double ax = 0, row = 0;
        for (long c = 0; c < n; c++) {
            double a = hs_numeric_initial(num, HS_TILE_A, r, c);
            ax += a * (*x)[c];
            row += fabs(a);
        }
        if (num->single)
            ((float *)y)[r] = (float)ax;
        else
            ((double *)y)[r] = ax;
        *anorm = fmax(*anorm, row);
    }
    return y;
}

/* max |y - U x| / (max(anorm, unorm) ||x|| n eps), unorm the largest row sum
 * of |U|. The transformations replayed on y carry values as large as U's
 * (LU with incremental pivoting lets them grow with the tile count, unlike
 * partial pivoting: a right factorisation run on one core gave 0.11, 0.39
 * and 2.1 at 16, 32 and 64 tiles of 64 when scaled by anorm alone), so the
 * error of a right result is a few eps times |U| |x|, the growth factor
 * times |A| |x| (Wilkinson's bound for LU; for QR |R| is |A|'s size). */
static double upper_residual(const struct hs_replay *rp, const double *x, const void *y, double anorm)
{
    const struct hs_numeric *num = rp->num;
    int nb = num->nb, nt = num->nt;
    long n = (long)nt * nb;
    double *ux = hs_xcalloc((size_t)n, sizeof(double)), *urow = hs_xcalloc((size_t)n, sizeof(double));
    double err = 0, xnorm = 0, unorm = 0;
    for (int k = 0; k < nt; k++)
        for (int j = k; j < nt; j++) {
            const void *tile = hs_replay_tile(rp, HS_TILE_A, k, j);
            for (int jj = 0; jj < nb; jj++)
                for (int ii = 0; ii < (j == k ? jj + 1 : nb); ii++) {
                    double u = element(num, tile, ii, jj);
                    ux[(long)k * nb + ii] += u * x[(long)j * nb + jj];
                    urow[(long)k * nb + ii] += fabs(u);
                }
        }
    for (long i = 0; i < n; i++) {
        double yi = num->single ? ((const float *)y)[i] : ((const double *)y)[i];
        err = fmax(err, fabs(yi - ux[i]));
        xnorm = fmax(xnorm, fabs(x[i]));
        unorm = fmax(unorm, urow[i]);
    }
    free(ux);
    free(urow);
    return err / (fmax(anorm, unorm) * xnorm * (double)n * eps_of(num));
}

void *hs_replay_tile(const struct hs_replay *r, int kind, int i, int j)
{
    int nt = r->num->nt;
    return r->host[r->idx[(kind * nt + i) * nt + j]];
}

double hs_numeric_replay_residual(const struct hs_numeric *num, const struct hs_dag *dag, void **host,
                                  hs_replay_diag diag, hs_replay_pair pair)
{
    int nb = num->nb, nt = num->nt;
    bool s = num->single;
    int *idx = hs_numeric_tile_index(num, dag);
    struct hs_replay rp = {num, host, idx};
    double *x, anorm;
    void *y = initial_times_x(num, &x, &anorm);
    for (int k = 0; k < nt; k++) {
        void *yk = hs_x_at(y, (long)k * nb, s);
        diag(&rp, k, yk);
        for (int m = k + 1; m < nt; m++)
            pair(&rp, k, m, yk, hs_x_at(y, (long)m * nb, s));
    }
    double r = upper_residual(&rp, x, y, anorm);
    free(x), free(y), free(idx);
    return r;
}

double hs_numeric_residual(const struct hs_numeric *num, const struct hs_dag *dag, void **host)
{
    switch (num->family) {
    case HS_FAMILY_CHOLESKY: return cholesky_residual(num, dag, host);
    case HS_FAMILY_GEMM: return gemm_residual(num, dag, host);
    case HS_FAMILY_LU: return hs_lu_residual(num, dag, host);
    case HS_FAMILY_QR: return hs_qr_residual(num, dag, host);
    default: return NAN;
    }
}
