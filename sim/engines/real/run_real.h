/* sim/engines/real/run_real.h — a measured run on this machine's cores, and GPUs
 * when the engine is built with CUDA (hetsim run --engine real). */
#ifndef HS_RUN_REAL_H
#define HS_RUN_REAL_H

#include "sim/run.h"

/* cfg->platform_file names the platform written by `hetsim calibrate`; its
 * machine description (NAME.machine.json) gives the workers and link
 * figures. Same return codes as hs_run_simgrid; run->residual holds the
 * scaled residual of a Cholesky, GEMM, LU or QR result (NAN otherwise). */
int hs_run_real(const struct hs_run_config *cfg, const struct hs_dag *dag,
                const struct hs_policy *policy, const struct hs_spec *policy_spec,
                struct hs_run *run);

/* The DAG's tiles in host memory as a measured run holds them (64-byte
 * aligned, zeroed; pinned for the GPUs' copies when gpus), for the run and
 * the calibration alike; NULL with hs_fail when memory runs out. */
void **hs_real_host_alloc(const struct hs_dag *dag, bool gpus);
void hs_real_host_free(const struct hs_dag *dag, void **host, bool gpus);

#endif
