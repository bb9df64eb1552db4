/* sim/engines/real/engine_real.h — the real engine: the runtime's activities carried out
 * for real, in real time, on this machine. CPU workers are threads running
 * real kernels on host tiles (OpenBLAS/LAPACKE, one pinned thread each) or,
 * for tasks without one (synthetic DAGs), spinning on their core for the
 * task's duration; GPUs, when the engine is built with CUDA and the
 * platform has some, are engine_gpu.h's. The runtime and the policy run in
 * the calling thread only: worker threads and GPU events just report
 * completions, which the main loop hands back in order. */
#ifndef HS_REAL_ENGINE_H
#define HS_REAL_ENGINE_H

#include "sim/engines/real/numeric.h"
#include "sim/runtime.h"

/* Run the runtime to completion. host[h] is datum h's host buffer (pinned
 * when the platform has GPUs); every GPU gets a device copy of every datum.
 * core_time (NULL, or one per task) receives each CPU task's CPU time: its
 * wall time less what other processes took of its core. Returns 0, or -1
 * with hs_fail (a CUDA error, device memory too small, a platform with GPUs
 * in an engine built without CUDA). */
int hs_real_engine_run(struct hs_runtime *rt, const struct hs_platform *pf,
                       const struct hs_numeric *num, void **host, double *core_time);

#endif
