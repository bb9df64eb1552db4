// sim/engines/real/spin.cu — a GPU kernel that busy-waits for a given duration (read
// from the GPU's global timer), standing in for tasks that have no real
// kernel (synthetic DAGs), and its C launcher.
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void hs_spin_kernel(uint64_t nanoseconds)
{
    uint64_t start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < nanoseconds);
}

extern "C" int hs_cuda_spin(double seconds, cudaStream_t stream)
{
    uint64_t ns = seconds > 0 ? (uint64_t)(seconds * 1e9) : 0;
    hs_spin_kernel<<<1, 1, 0, stream>>>(ns);
    return cudaGetLastError() == cudaSuccess ? 0 : -1;
}
