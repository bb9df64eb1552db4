/* sim/engines/real/blas_threads.c — OpenBLAS called by several threads at once
 * (see blas_threads.h).
 *
 * OpenBLAS's sequential build (Debian's libopenblas0-serial, made without
 * USE_LOCKING) takes its work buffers from a pool it does not lock: two
 * threads inside BLAS at once can be handed the same buffer and each
 * overwrite the other's operands. Level 3 calls on large tiles rarely meet
 * there; DGEMV inside LAPACK's Householder and pivoting steps (GEQRT,
 * TSQRT, ORMQR's blocks, GETRF's panels with ib < nb) does often: two
 * threads running DGEMV(T) 256×64 on their own data gave a wrong result in
 * 7% of 500 calls, and measured QR runs with two CPU workers had residuals
 * of 1e9 to 1e13 (LU, intermittently, 1e13 to 1e30). The threaded builds
 * (pthreads, OpenMP) lock that pool, and with one thread per call they run
 * the call on the caller's thread: the engine's CPU workers then each
 * compute on their own core, as in the model. So the engine asks for one
 * thread per call and refuses a sequential build when two or more threads
 * would call it. */
#include "sim/engines/real/blas_threads.h"
#include "base/util.h"

#include <cblas.h>

const char *hs_blas_flavour(void)
{
    switch (openblas_get_parallel()) {
    case 0: return "sequential";
    case 1: return "pthreads";
    default: return "openmp";
    }
}

int hs_blas_threads_ready(int threads)
{
    openblas_set_num_threads(1);
    if (threads >= 2 && openblas_get_parallel() == 0)
        return hs_fail("the OpenBLAS loaded here is its sequential build, whose buffers %d threads "
                       "calling it at once would share (wrong results): install its pthreads build "
                       "(Debian: libopenblas-pthread-dev, or select it with update-alternatives --config "
                       "libopenblas.so.0-x86_64-linux-gnu), or run one CPU worker (--cpus 1)", threads);
    return 0;
}
