/* sim/cuda/run_cuda.h — a measured run on this machine's GPUs and cores
 * (hetsim run --engine cuda). */
#ifndef HS_RUN_CUDA_H
#define HS_RUN_CUDA_H

#include "sim/run.h"

/* cfg->platform_file names the platform written by `hetsim calibrate`; its
 * machine description (NAME.machine.json) gives the workers and link
 * figures. Same return codes as hs_run_simgrid; run->residual holds the
 * scaled residual of a Cholesky or GEMM result (NAN otherwise). */
int hs_run_cuda(const struct hs_run_config *cfg, const struct hs_dag *dag,
                const struct hs_policy *policy, const struct hs_spec *policy_spec,
                struct hs_run *run);

#endif
