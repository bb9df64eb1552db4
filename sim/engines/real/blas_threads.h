/* sim/engines/real/blas_threads.h — calling OpenBLAS from several threads at
 * once: the real engine's CPU workers (and calibrate's timing threads) each
 * call the kernels on their own tiles, one core each. */
#ifndef HS_REAL_BLAS_THREADS_H
#define HS_REAL_BLAS_THREADS_H

/* Make every BLAS/LAPACK call run on its calling thread alone (one core, as
 * the model's worker), and check that the OpenBLAS loaded here may be
 * called by `threads` threads at once. Returns 0, or -1 with hs_fail. */
int hs_blas_threads_ready(int threads);

/* OpenBLAS's build flavour as it reports it: "sequential", "pthreads" or
 * "openmp" (openblas_get_parallel). */
const char *hs_blas_flavour(void);

#endif
