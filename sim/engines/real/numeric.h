/* sim/engines/real/numeric.h — real data and real kernels for the real engine: the
 * tiles of a workload that has numerics (tiled Cholesky, GEMM, LU with
 * incremental pivoting and QR, in double or single precision), their
 * deterministic initial values, the kernels on a core (OpenBLAS/LAPACKE, one
 * thread; their GPU versions are in numeric_gpu.h, built with CUDA only),
 * and the residual check that proves a run computed the right result
 * whatever the schedule. Tasks of other workloads spin for their duration
 * instead. */
#ifndef HS_REAL_NUMERIC_H
#define HS_REAL_NUMERIC_H

#include "sim/dag.h"

#include <stdbool.h>

enum hs_family { HS_FAMILY_NONE, HS_FAMILY_CHOLESKY, HS_FAMILY_GEMM, HS_FAMILY_LU, HS_FAMILY_QR };

/* What a datum is, by its name's prefix: a tile of matrix A, B or C, or a
 * workspace of LU (L, IPIV) or QR (T). */
enum hs_tile_kind { HS_TILE_A, HS_TILE_B, HS_TILE_C, HS_TILE_L, HS_TILE_IPIV, HS_TILE_T, HS_NTILE_KINDS };

struct hs_numeric {
    enum hs_family family;
    bool single;   /* float tiles */
    int nb, nt;    /* tile size, tiles per dimension */
    int ib;        /* inner blocking of LU and QR */
    int *tile_row, *tile_col, *kind; /* per handle: position and enum hs_tile_kind */
};

/* Recognise the workload from the DAG (its name and kernels); family NONE if
 * it has no numerics here. */
void hs_numeric_init(struct hs_numeric *num, const struct hs_dag *dag);
void hs_numeric_free(struct hs_numeric *num);

/* Fill every handle's host buffer with its initial value. */
void hs_numeric_fill(const struct hs_numeric *num, const struct hs_dag *dag, void **host);

/* The most buffers a task's kernel takes (its accesses). */
#define HS_NUMERIC_MAX_BUFS 16

/* Task t's buffers in access order, from every handle's buffer in host, into
 * bufs (HS_NUMERIC_MAX_BUFS of them); false when t has more accesses. */
bool hs_numeric_task_bufs(const struct hs_dag *dag, int t, void *const *host, void **bufs);

/* Run task t's real kernel on a core, its buffers (in access order) in bufs.
 * Returns false if this family has no such kernel. */
bool hs_numeric_cpu(const struct hs_numeric *num, const struct hs_dag *dag, int t, void **bufs);
/* Does this family have a real kernel for task t (on a core; on a GPU)? The
 * GPU has every Cholesky and GEMM kernel, LU's GESSM and SSSSM, QR's ORMQR
 * and TSMQR (GETRF, TSTRF, GEQRT, TSQRT run on cores, as in the period code). */
bool hs_numeric_has_cpu_kernel(const struct hs_numeric *num, const struct hs_dag *dag, int t);
bool hs_numeric_has_gpu_kernel(const struct hs_numeric *num, const struct hs_dag *dag, int t);

/* Scaled residual of the final host data: ||Ax - L(L^T x)|| / (||A|| ||x|| n eps)
 * for Cholesky, ||Cx - C0 x - A(Bx)|| / (...) for GEMM, ||T(Ax) - Ux|| / (...)
 * for LU and QR (T: the factorisation's transformations replayed on Ax, see
 * numeric_lu.c and numeric_qr.c), with max norms and a deterministic x. A
 * right result gives well below HS_RESIDUAL_OK (about 1e-2 and less); one
 * missing task gives about 10 in single precision and 1e9 in double. NAN for
 * families without numerics. */
#define HS_RESIDUAL_OK 1.0
double hs_numeric_residual(const struct hs_numeric *num, const struct hs_dag *dag, void **host);

#endif
