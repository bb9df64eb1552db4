/* sim/cuda/calibrate.h — `hetsim calibrate --engine cuda`: measure this
 * machine and write what a simulation of it needs. */
#ifndef HS_CALIBRATE_H
#define HS_CALIBRATE_H

#include "sim/dag.h"

#include <stdbool.h>

struct hs_calibrate_opts {
    const char *name;  /* NAME of the files */
    const char *dir;   /* where to write NAME.xml, NAME.machine.json, perf/NAME.json */
    struct hs_dag *const *samples; /* small DAGs whose kernels are timed (tiled Cholesky,
                                      LU, QR for each tile size), by increasing tile size */
    int nsamples;
    int reps;          /* repetitions per measurement (median kept) */
    int cores;         /* cores to declare (0: all online) */
    int cpu_threads;   /* cores working at once while CPU kernels are timed */
    bool verbose;      /* print each measurement */
};

/* Returns 0, or -1 with hs_fail (no GPU, cannot write). */
int hs_calibrate(const struct hs_calibrate_opts *o);

#endif
