/* sim/engines/real/calibrate_run.c — timing CPU kernels inside a run.
 *
 * A kernel timed alone sees either cached inputs (just copied) or inputs
 * fetched from memory (the caches evicted first); inside a run it sees
 * something in between: the tiles the previous tasks wrote or read are
 * still cached, the others come from memory. So each of T pinned threads
 * runs the whole sample DAG in topological order on its own copy of the
 * matrices, allocated as a measured run allocates them (T cores busy at
 * once, as in a run with T CPU workers), timing every task in its thread's
 * CPU time; a kernel's time is the median over all its tasks on all
 * threads. The caller sizes the sample DAG so that its
 * matrices exceed the caches (hs_calibrate_cache_bytes). */
#include "sim/engines/real/calibrate_run.h"
#include "base/util.h"
#include "sim/engines/real/pin.h"
#include "sim/engines/real/run_real.h"
#include "sim/engines/real/topology.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

size_t hs_calibrate_cache_bytes(void)
{
    struct hs_topology t;
    hs_topology_describe(&t); /* without hwloc: no cache */
    return t.largest_cache_bytes ? t.largest_cache_bytes : (size_t)32 << 20;
}

struct run_job {
    const struct hs_dag *dag;
    const struct hs_numeric *num;
    double *seconds; /* per task; NAN for a task without a CPU kernel */
};

static void *run_thread_main(void *arg)
{
    struct run_job *job = arg;
    const struct hs_dag *dag = job->dag;
    void **host = hs_real_host_alloc(dag, false);
    if (!host)
        hs_die(1, "calibrate: %s", hs_last_error());
    hs_numeric_fill(job->num, dag, host);
    for (int t = 0; t < dag->ntasks; t++) { /* the tasks are numbered in a topological order */
        void *bufs[HS_NUMERIC_MAX_BUFS];
        job->seconds[t] = NAN;
        if (!hs_numeric_has_cpu_kernel(job->num, dag, t) || !hs_numeric_task_bufs(dag, t, host, bufs))
            continue;
        double t0 = hs_thread_seconds();
        hs_numeric_cpu(job->num, dag, t, bufs);
        job->seconds[t] = hs_thread_seconds() - t0;
    }
    hs_real_host_free(dag, host, false);
    return NULL;
}

double *hs_calibrate_in_run(const struct hs_dag *dag, const struct hs_numeric *num, int threads)
{
    threads = threads < 1 ? 1 : threads > 64 ? 64 : threads;
    struct run_job jobs[64];
    pthread_t th[64];
    struct hs_cores *cores = hs_cores_get();
    for (int i = 0; i < threads; i++) {
        jobs[i] = (struct run_job){dag, num, hs_xmalloc((size_t)dag->ntasks * sizeof(double))};
        pthread_create(&th[i], NULL, run_thread_main, &jobs[i]);
        hs_cores_pin(cores, th[i], i + 1); /* as the real engine pins its CPU workers */
    }
    for (int i = 0; i < threads; i++)
        pthread_join(th[i], NULL);
    hs_cores_free(cores);

    double *median = hs_xmalloc((size_t)(dag->nkernels > 0 ? dag->nkernels : 1) * sizeof(double));
    double *all = hs_xmalloc((size_t)dag->ntasks * (size_t)threads * sizeof(double));
    for (int k = 0; k < dag->nkernels; k++) {
        size_t n = 0;
        for (int i = 0; i < threads; i++)
            for (int t = 0; t < dag->ntasks; t++)
                if (dag->tasks[t].kernel == k && !isnan(jobs[i].seconds[t]))
                    all[n++] = jobs[i].seconds[t];
        gsl_sort(all, 1, n);
        median[k] = n ? gsl_stats_median_from_sorted_data(all, 1, n) : NAN;
    }
    free(all);
    for (int i = 0; i < threads; i++)
        free(jobs[i].seconds);
    return median;
}
