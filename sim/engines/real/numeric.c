/* sim/engines/real/numeric.c — tiles, initial values and real kernels on a core (see
 * numeric.h); the LU and QR kernels are in numeric_lu.c and numeric_qr.c,
 * the residuals in numeric_check.c, the GPU kernels in numeric_gpu.c.
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
#include "sim/engines/real/blasx.h"
#include "sim/engines/real/numeric_la.h"
#include "base/params.h"
#include "base/rng.h"
#include "base/util.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double hs_numeric_hashed(unsigned matrix, long r, long c)
{
    unsigned long long z = ((unsigned long long)matrix << 58) ^ ((unsigned long long)r << 29) ^
                           (unsigned long long)c;
    z = hs_splitmix64_mix(z + HS_SPLITMIX_GAMMA);
    return (double)(z >> 11) * 0x1.0p-53;
}

double hs_numeric_initial(const struct hs_numeric *num, int matrix, long r, long c)
{
    if (num->family == HS_FAMILY_CHOLESKY) {
        long lo = r < c ? r : c, hi = r < c ? c : r;
        return hs_numeric_hashed(0, lo, hi) + (r == c ? (double)num->nt * num->nb : 0);
    }
    return hs_numeric_hashed((unsigned)matrix + 1, r, c) - 0.5;
}

static bool parse_tile(const char *name, int *kind, int *row, int *col)
{
    static const char *const prefix[HS_NTILE_KINDS] = {"A", "B", "C", "L", "IPIV", "T"};
    char what[8];
    int end = 0;
    if (sscanf(name, "%7[A-Z](%d,%d)%n", what, row, col, &end) != 3 || name[end] != '\0')
        return false;
    for (*kind = 0; *kind < HS_NTILE_KINDS; (*kind)++)
        if (strcmp(what, prefix[*kind]) == 0)
            return true;
    return false;
}

static enum hs_family family_of(const char *workload)
{
    static const char *const names[] = {"cholesky", "gemm", "lu", "qr"};
    static const enum hs_family fams[] = {HS_FAMILY_CHOLESKY, HS_FAMILY_GEMM, HS_FAMILY_LU, HS_FAMILY_QR};
    for (int i = 0; i < 4; i++)
        if (strcmp(workload, names[i]) == 0)
            return fams[i];
    return HS_FAMILY_NONE;
}

void hs_numeric_init(struct hs_numeric *num, const struct hs_dag *dag)
{
    memset(num, 0, sizeof *num);
    struct hs_spec spec;
    if (hs_spec_parse(dag->name, &spec))
        return;
    enum hs_family fam = family_of(spec.name);
    const char *prec = hs_spec_get(&spec, "precision");
    bool single = prec && prec[0] == 's';
    long n = hs_spec_int(&spec, "n"), nb = hs_spec_int(&spec, "nb");
    long ib = fam == HS_FAMILY_LU || fam == HS_FAMILY_QR ? hs_spec_int(&spec, "ib") : nb;
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
    num->ib = (int)ib;
    num->tile_row = hs_xmalloc((size_t)dag->nhandles * sizeof(int));
    num->tile_col = hs_xmalloc((size_t)dag->nhandles * sizeof(int));
    num->kind = hs_xmalloc((size_t)dag->nhandles * sizeof(int));
    for (int h = 0; h < dag->nhandles; h++)
        if (!parse_tile(dag->handles[h].name, &num->kind[h], &num->tile_row[h], &num->tile_col[h])) {
            hs_numeric_free(num); /* not the layout we know: no numerics */
            return;
        }
}

void hs_numeric_free(struct hs_numeric *num)
{
    free(num->tile_row);
    free(num->tile_col);
    free(num->kind);
    memset(num, 0, sizeof *num);
}

void hs_numeric_fill(const struct hs_numeric *num, const struct hs_dag *dag, void **host)
{
    if (num->family == HS_FAMILY_NONE)
        return;
    int nb = num->nb;
    for (int h = 0; h < dag->nhandles; h++) /* workspaces (L, IPIV, T) are written before read */
        for (int jj = 0; num->kind[h] <= HS_TILE_C && jj < nb; jj++)
            for (int ii = 0; ii < nb; ii++) {
                double v = hs_numeric_initial(num, num->kind[h], (long)num->tile_row[h] * nb + ii,
                                   (long)num->tile_col[h] * nb + jj);
                if (num->single)
                    ((float *)host[h])[jj * nb + ii] = (float)v;
                else
                    ((double *)host[h])[jj * nb + ii] = v;
            }
}

/* ---- kernels ------------------------------------------------------------------ */

enum hs_op hs_numeric_op(const struct hs_numeric *num, const struct hs_dag *dag, int t)
{
    static const char *const names[] = {"potrf", "trsm",  "syrk",  "gemm",  "getrf", "gessm",
                                        "tstrf", "ssssm", "geqrt", "ormqr", "tsqrt", "tsmqr"};
    static const enum hs_family fams[] = {HS_FAMILY_CHOLESKY, HS_FAMILY_CHOLESKY, HS_FAMILY_CHOLESKY,
                                          HS_FAMILY_GEMM,     HS_FAMILY_LU,       HS_FAMILY_LU,
                                          HS_FAMILY_LU,       HS_FAMILY_LU,       HS_FAMILY_QR,
                                          HS_FAMILY_QR,       HS_FAMILY_QR,       HS_FAMILY_QR};
    const char *k = dag->kernels[dag->tasks[t].kernel];
    if (num->family == HS_FAMILY_NONE || (k[0] != 'd' && k[0] != 's') || (k[0] == 's') != num->single)
        return HS_OP_NONE;
    for (int i = 0; i < 12; i++) /* Cholesky has GEMMs too */
        if (strcmp(k + 1, names[i]) == 0 &&
            (fams[i] == num->family || (i == 3 && num->family == HS_FAMILY_CHOLESKY)))
            return (enum hs_op)(HS_OP_POTRF + i);
    return HS_OP_NONE;
}

/* Cholesky and GEMM on a core */
static bool cpu_blas3(const struct hs_numeric *num, enum hs_op op, void **b)
{
    int n = num->nb;
    bool s = num->single, chol = num->family == HS_FAMILY_CHOLESKY;
    switch (op) {
    case HS_OP_POTRF: hs_x_potrf_lower(s, n, b[0], n); return true;
    case HS_OP_TRSM: hs_x_trsm_right_lower_trans(s, n, n, b[0], n, b[1], n); return true;
    case HS_OP_SYRK: hs_x_syrk_lower_minus(s, n, n, b[0], n, b[1], n); return true;
    case HS_OP_GEMM:
        hs_x_gemm(s, 'N', chol ? 'T' : 'N', n, n, n, chol ? -1.0 : 1.0, b[0], n, b[1], n, 1.0, b[2], n);
        return true;
    default: return false;
    }
}

bool hs_numeric_task_bufs(const struct hs_dag *dag, int t, void *const *host, void **bufs)
{
    const struct hs_task *task = &dag->tasks[t];
    if (task->naccess > HS_NUMERIC_MAX_BUFS)
        return false;
    for (int i = 0; i < task->naccess; i++)
        bufs[i] = host[task->access[i].handle];
    return true;
}

bool hs_numeric_cpu(const struct hs_numeric *num, const struct hs_dag *dag, int t, void **b)
{
    enum hs_op op = hs_numeric_op(num, dag, t);
    switch (num->family) {
    case HS_FAMILY_LU: return hs_lu_cpu(num, op, b);
    case HS_FAMILY_QR: return hs_qr_cpu(num, op, b);
    default: return op != HS_OP_NONE && cpu_blas3(num, op, b);
    }
}

bool hs_numeric_has_cpu_kernel(const struct hs_numeric *num, const struct hs_dag *dag, int t)
{
    return hs_numeric_op(num, dag, t) != HS_OP_NONE;
}

bool hs_numeric_has_gpu_kernel(const struct hs_numeric *num, const struct hs_dag *dag, int t)
{
    enum hs_op op = hs_numeric_op(num, dag, t);
    return op != HS_OP_NONE && op != HS_OP_GETRF && op != HS_OP_TSTRF && op != HS_OP_GEQRT &&
           op != HS_OP_TSQRT;
}
