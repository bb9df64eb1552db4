/* analysis/metrics.h — figures of merit of a run, computed from the DAG, the
 * cost estimates of the selected workers and the makespan:
 *
 *   GFlop/s    = flops of the whole operation (LAWN 41 for linear algebra,
 *                else the sum of task flops) / makespan / 1e9
 *   SLR        = makespan / CP_min, where CP_min is the longest path of the
 *                DAG when every task weighs its minimum estimated execution
 *                time over the selected workers and communication is free
 *                (Topcuoglu et al. 2002)
 *   SLR_CPIC   = makespan / CPIC, the Critical Path Including Communication
 *                of the HEFT-NC thesis (Shetti 2014, Eq. 5.2): the longest
 *                path when every task weighs its mean estimated time over the
 *                selected workers that can run it and every dependency its
 *                mean communication cost c̄ (hs_sched_mean_comm) — the
 *                upward rank of HEFT's entry task; it can be below 1
 *   speedup    = sequential time / makespan, where the sequential time is the
 *                smallest sum of estimated execution times over the workers
 *                that can run every task (Topcuoglu et al. 2002, §6.1: "all
 *                tasks to a single processor that minimizes the cumulative of
 *                the computation costs"); NAN (null in the record, an empty
 *                CSV cell) when no worker can run every task, rather than a
 *                figure of another meaning in the same column
 *   efficiency = speedup / number of workers (NAN with it)
 *   speedup_split = split time / makespan, the split time being the sum over
 *                tasks of their minimum time (every task on its fastest
 *                worker, without any parallelism): defined for every run */
#ifndef HS_METRICS_H
#define HS_METRICS_H

#include "sim/sched.h"

struct hs_metrics {
    double flops, gflops;
    double cp_min, slr;
    double cpic, slr_cpic;
    double sequential, speedup, efficiency; /* NAN when no worker can run every task */
    int sequential_worker;                  /* the worker of the sequential time; -1: none */
    double split, speedup_split;
};

void hs_metrics_compute(const struct hs_runtime *s, double makespan, struct hs_metrics *m);

#endif
