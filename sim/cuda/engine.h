/* sim/cuda/engine.h — the CUDA engine: the runtime's activities carried out
 * for real, in real time, on this machine. CPU workers are threads running
 * real kernels on host tiles (OpenBLAS/LAPACKE, one thread each); each GPU
 * has three CUDA streams (host-to-device copies, kernels, device-to-host
 * copies) whose operations are followed with CUDA events. The runtime and
 * the policy run in the calling thread only: worker threads and events just
 * report completions, which the main loop hands back in order. */
#ifndef HS_CUDA_ENGINE_H
#define HS_CUDA_ENGINE_H

#include "sim/cuda/numeric.h"
#include "sim/runtime.h"

/* Run the runtime to completion. host[h] is datum h's pinned host buffer;
 * every GPU gets a device copy of every datum. Returns 0, or -1 with
 * hs_fail (a CUDA error, device memory too small). */
int hs_cuda_engine_run(struct hs_sched *rt, const struct hs_platform *pf,
                       const struct hs_numeric *num, void **host);

#endif
