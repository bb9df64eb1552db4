/* sim/engines/real/calibrate.h — `hetsim calibrate`: measure this machine (its
 * cores, and its GPUs when the engine is built with CUDA and some are
 * visible) and write what a simulation of it needs. */
#ifndef HS_REAL_CALIBRATE_H
#define HS_REAL_CALIBRATE_H

#include "sim/dag.h"

#include <stdbool.h>

struct hs_calibrate_opts {
    const char *name;  /* NAME of the files */
    const char *dir;   /* where to write NAME.xml, NAME.machine.json, perf/NAME.json */
    struct hs_dag *const *samples; /* small DAGs whose kernels are timed (tiled Cholesky,
                                      LU, QR for each tile size), by increasing tile size */
    int nsamples;
    int reps;          /* repetitions per measurement (median kept) */
    int gpus;          /* GPUs to calibrate; -1: every visible one */
    int cores;         /* cores to declare; 0: every online one, less the runtime's
                          when no GPU is calibrated (its core drives the GPUs otherwise) */
    int cpu_threads;   /* cores working at once while CPU kernels are timed; 0: the CPU
                          workers of a default run on the machine, at most 4 */
    enum hs_cal_timing {
        HS_CAL_IN_RUN, /* CPU kernels timed inside a run of the sample DAGs (the default;
                          the caller makes them larger than the caches), GPU kernels
                          issued one task at a time as a run issues them */
        HS_CAL_COLD,   /* each kernel alone, its inputs evicted from the caches first;
                          GPU kernels back to back */
        HS_CAL_WARM    /* each kernel alone, its inputs just copied (cached); GPU
                          kernels back to back */
    } timing;
    const int *corun;  /* other numbers of cores busy at which CPU kernels are timed too
                          (the table's "corun" curve, with cpu_threads' own point) */
    int ncorun;
    bool verbose;      /* print each measurement */
};

/* GPUs a calibration can use here (0 without CUDA). */
int hs_calibrate_gpus_visible(void);

/* The cores a calibration with `o` declares, and how many of them time CPU
 * kernels at once (each on its own copy of the sample DAG). */
int hs_calibrate_cores(const struct hs_calibrate_opts *o, int ngpus);
int hs_calibrate_cpu_threads(const struct hs_calibrate_opts *o, int ngpus);

/* Returns 0, or -1 with hs_fail (more GPUs asked than visible, cannot write). */
int hs_calibrate(const struct hs_calibrate_opts *o);

#endif
