/* sim/cuda/numeric.h — real data and real kernels for the CUDA engine: the
 * tiles of a workload that has numerics (tiled Cholesky, tiled GEMM, in
 * double or single precision), their deterministic initial values, the
 * kernels on a core (OpenBLAS/LAPACKE, one thread) and on a GPU
 * (cuBLAS/cuSOLVER), and the residual check that proves a run computed the
 * right result whatever the schedule. Tasks of other workloads spin for
 * their duration instead. */
#ifndef HS_CUDA_NUMERIC_H
#define HS_CUDA_NUMERIC_H

#include "sim/dag.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>
#include <stdbool.h>

enum hs_family { HS_FAMILY_NONE, HS_FAMILY_CHOLESKY, HS_FAMILY_GEMM };

struct hs_numeric {
    enum hs_family family;
    bool single;   /* float tiles */
    int nb, nt;    /* tile size, tiles per dimension */
    int *tile_row, *tile_col, *matrix; /* per handle: position and matrix (0 A, 1 B, 2 C) */
};

/* Recognise the workload from the DAG (its name and kernels); family NONE if
 * it has no numerics here. */
void hs_numeric_init(struct hs_numeric *num, const struct hs_dag *dag);
void hs_numeric_free(struct hs_numeric *num);

/* Fill every handle's host buffer with its initial value. */
void hs_numeric_fill(const struct hs_numeric *num, const struct hs_dag *dag, void **host);

/* Per-GPU library state: cuBLAS and cuSOLVER handles bound to the kernel
 * stream, the POTRF workspace. */
struct hs_gpu_libs {
    cublasHandle_t blas;
    cusolverDnHandle_t solver;
    void *work;
    int lwork;
    int *info;
};

int hs_gpu_libs_init(struct hs_gpu_libs *libs, cudaStream_t stream, int nb, bool single);
void hs_gpu_libs_free(struct hs_gpu_libs *libs);

/* Run task t's real kernel on a core, its buffers (in access order) in bufs.
 * Returns false if this family has no such kernel. */
bool hs_numeric_cpu(const struct hs_numeric *num, const struct hs_dag *dag, int t, void **bufs);
/* Does this family have a real kernel for task t? */
bool hs_numeric_has_kernel(const struct hs_numeric *num, const struct hs_dag *dag, int t);
/* Enqueue task t's real kernel on a GPU (device buffers in bufs); false if
 * there is none or the library refused the call. */
bool hs_numeric_gpu(const struct hs_numeric *num, const struct hs_dag *dag, int t, void **bufs,
                    struct hs_gpu_libs *libs);

/* Scaled residual of the final host data: ||Ax - L(L^T x)|| / (||A|| ||x|| n eps)
 * for Cholesky, ||Cx - C0 x - A(Bx)|| / (...) for GEMM, with max norms and a
 * deterministic x. A right result gives well below HS_RESIDUAL_OK (about
 * 1e-2 and less); one missing task gives about 10 in single precision and
 * 1e9 in double. NAN for families without numerics. */
#define HS_RESIDUAL_OK 1.0
double hs_numeric_residual(const struct hs_numeric *num, const struct hs_dag *dag, void **host);

#endif
