/* sim/engines/real/calibrate_run.h — timing CPU kernels inside a sequential
 * run of a sample DAG, on several pinned cores at once (calibrate_run.c). */
#ifndef HS_REAL_CALIBRATE_RUN_H
#define HS_REAL_CALIBRATE_RUN_H

#include "sim/dag.h"
#include "sim/engines/real/numeric.h"

#include <stddef.h>

/* The largest cache of the cores this process may use, in bytes (hwloc,
 * topology.h; 32 MiB if none is
 * described). A sample DAG whose matrices take twice this exceeds it. */
size_t hs_calibrate_cache_bytes(void);

/* Each of `threads` pinned threads runs every task of dag in order on its
 * own copy of the matrices; returns, per kernel of dag (dag->kernels), the
 * median of its tasks' thread CPU times (NAN for a kernel with no CPU
 * version). The caller frees it. */
double *hs_calibrate_in_run(const struct hs_dag *dag, const struct hs_numeric *num, int threads);

#endif
