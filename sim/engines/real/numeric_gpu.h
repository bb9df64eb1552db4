/* sim/engines/real/numeric_gpu.h — the real kernels on a GPU (cuBLAS/cuSOLVER, and
 * two small CUDA kernels in lapack_gpu.cu), for the real engine built with
 * CUDA: every Cholesky and GEMM kernel, LU's GESSM and SSSSM, QR's ORMQR and
 * TSMQR (numeric.h's hs_numeric_has_gpu_kernel says which). */
#ifndef HS_REAL_NUMERIC_GPU_H
#define HS_REAL_NUMERIC_GPU_H

#include "sim/engines/real/numeric.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

/* Per-GPU library state: cuBLAS and cuSOLVER handles bound to the kernel
 * stream, the POTRF workspace, scratch for the QR kernels (nb² + 2·ib·nb
 * elements). */
struct hs_gpu_libs {
    cublasHandle_t blas;
    cusolverDnHandle_t solver;
    void *work;
    int lwork;
    int *info;
    void *scratch;
};

int hs_gpu_libs_init(struct hs_gpu_libs *libs, cudaStream_t stream, const struct hs_numeric *num);
void hs_gpu_libs_free(struct hs_gpu_libs *libs);

/* Enqueue task t's real kernel on a GPU (device buffers in bufs); false if
 * there is none or the library refused the call. */
bool hs_numeric_gpu(const struct hs_numeric *num, const struct hs_dag *dag, int t, void **bufs,
                    struct hs_gpu_libs *libs);

#endif
