/* sim/engines/real/calibrate_gpu.h — inside `hetsim calibrate` (calibrate.c): one
 * kernel's real inputs (a sample), and the measurements that need CUDA:
 * the host links of a GPU and the time of a kernel on it, back to back or
 * issued as a run issues it (calibrate_gpu.c, built with CUDA only). */
#ifndef HS_REAL_CALIBRATE_GPU_H
#define HS_REAL_CALIBRATE_GPU_H

#include "sim/engines/real/machine.h"
#include "sim/engines/real/numeric.h"

#include <stddef.h>

/* One kernel's real inputs, in its access order: a sample DAG's data just
 * before that task ran, the DAG run in submission order on a core (so that
 * pivots, reflectors and factors are the ones a run feeds the kernel). */
struct hs_cal_sample {
    const struct hs_dag *dag;
    const struct hs_numeric *num;
    int task, n;
    size_t bytes[HS_NUMERIC_MAX_BUFS];
    void *input[HS_NUMERIC_MAX_BUFS];
};

/* GPUs visible here; their model name (caller frees) and memory. */
int hs_cal_gpus_visible(void);
char *hs_cal_gpu_model(int device, double *memsize);

/* Fit the pinned host<->device copies of `device` as latency +
 * bytes/bandwidth: -1 with hs_fail. */
int hs_cal_links(int device, int reps, struct hs_machine_gpu *g, bool verbose);

/* Kernel timing on GPU 0 for one sample DAG: a stream and the libraries'
 * handles, and the DAG on the real engine's GPU code (engine_gpu.h, every
 * datum on the GPU; host[h], pinned, is datum h's host buffer, which holds
 * the inputs of the task timed next); NULL with hs_fail. */
struct hs_cal_gpu;
struct hs_cal_gpu *hs_cal_gpu_new(const struct hs_dag *dag, const struct hs_numeric *num, void **host);
/* The steady-state time of a sample's kernel: back to back, reps × 4 runs,
 * the restoring of its inputs timed apart and taken off. */
double hs_cal_gpu_time(struct hs_cal_gpu *g, const struct hs_cal_sample *sm, int reps);
/* Task `task` of the DAG as a run issues it, one at a time through the
 * engine's streams and events (its inputs copied in from host and seen
 * there first): the median over reps × 4 of the time from its kernel's
 * launch to this thread seeing it complete; task -1: an empty task (a spin
 * of 0 s). NAN with hs_fail on a CUDA error. */
double hs_cal_gpu_time_run(struct hs_cal_gpu *g, int task, int reps);
void hs_cal_gpu_free(struct hs_cal_gpu *g);

/* A thread on the first core, as a run's GPU driver, keeping GPU 0's copies
 * streaming both ways (pinned buffers of 64 MiB, one stream each way, as a
 * run's copies in and out) until stopped (NULL if it cannot start); stop
 * returns the copies made (-1: they could not be set up). */
struct hs_cal_copies;
struct hs_cal_copies *hs_cal_copies_start(void);
long hs_cal_copies_stop(struct hs_cal_copies *st);

/* hs_calibrate_in_run (calibrate_run.h) on `threads` cores while copies
 * stream: the CPU kernels' medians beside copies, per kernel (caller frees;
 * NULL if no copy ran). */
double *hs_cal_in_run_copying(const struct hs_dag *dag, const struct hs_numeric *num, int threads);

#endif
