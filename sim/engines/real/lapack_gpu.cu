// sim/engines/real/lapack_gpu.cu — the two small GPU kernels the LU and QR tile
// kernels need beside cuBLAS (which has no row interchanges and works on a
// triangle in place only): the row interchanges of a stacked pair of tiles
// (hs_x_swap_stacked of blasx.h, one thread per column, the interchanges in
// order), and the unit lower trapezoid of a tile (the Householder vectors V
// of a QR kernel as a plain matrix for GEMMs). Launched on the stream of the
// cuBLAS handle, with C launchers.
#include <cublas_v2.h>
#include <cuda_runtime.h>

template <typename T>
__device__ T *stacked(int kb, int r, int j, T *top, int ldt, T *bottom, int ldb)
{
    return r < kb ? &top[r + (long)j * ldt] : &bottom[r - kb + (long)j * ldb];
}

template <typename T>
__global__ void swap_stacked(int kb, int ncols, const int *piv, T *top, int ldt, T *bottom, int ldb,
                             int nbottom)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= ncols)
        return;
    for (int i = 0; i < kb; i++) {
        int p = piv[i] - 1;
        if (p == i || p < 0 || p >= kb + nbottom) // as on a core: never outside the tiles
            continue;
        T *a = stacked(kb, i, j, top, ldt, bottom, ldb), *b = stacked(kb, p, j, top, ldt, bottom, ldb);
        T x = *a;
        *a = *b;
        *b = x;
    }
}

template <typename T>
__global__ void unit_lower(int m, int n, const T *a, int lda, T *v, int ldv)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y;
    if (i < m && j < n)
        v[i + (long)j * ldv] = i > j ? a[i + (long)j * lda] : (i == j ? T(1) : T(0));
}

static cudaStream_t stream_of(cublasHandle_t h)
{
    cudaStream_t s = 0;
    cublasGetStream(h, &s);
    return s;
}

extern "C" bool hs_gx_swap_stacked(cublasHandle_t h, bool single, int kb, int ncols, const int *piv,
                                   void *top, int ldt, void *bottom, int ldb, int nbottom)
{
    int threads = 128, blocks = (ncols + threads - 1) / threads;
    if (single)
        swap_stacked<float><<<blocks, threads, 0, stream_of(h)>>>(kb, ncols, piv, (float *)top, ldt,
                                                                  (float *)bottom, ldb, nbottom);
    else
        swap_stacked<double><<<blocks, threads, 0, stream_of(h)>>>(kb, ncols, piv, (double *)top, ldt,
                                                                   (double *)bottom, ldb, nbottom);
    return cudaGetLastError() == cudaSuccess;
}

extern "C" bool hs_gx_unit_lower(cublasHandle_t h, bool single, int m, int n, const void *a, int lda,
                                 void *v, int ldv)
{
    dim3 threads(256), blocks((m + 255) / 256, n);
    if (single)
        unit_lower<float><<<blocks, threads, 0, stream_of(h)>>>(m, n, (const float *)a, lda, (float *)v, ldv);
    else
        unit_lower<double><<<blocks, threads, 0, stream_of(h)>>>(m, n, (const double *)a, lda, (double *)v,
                                                                 ldv);
    return cudaGetLastError() == cudaSuccess;
}
