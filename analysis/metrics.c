/* analysis/metrics.c — GFlop/s, SLR, speedup and efficiency of a run. */
#include "analysis/metrics.h"

#include <math.h>
#include <stdlib.h>

static double min_estimate(const struct hs_sched *s, const struct hs_task *t)
{
    double best = INFINITY;
    for (int w = 0; w < hs_sched_nworkers(s); w++) {
        double e = hs_sched_exec_estimate(s, t, w);
        if (e < best)
            best = e;
    }
    return best;
}

/* Longest path with minimum costs, along the topological order. */
static double critical_path_min(const struct hs_sched *s)
{
    const struct hs_dag *dag = hs_sched_dag(s);
    double *finish = calloc((size_t)dag->ntasks, sizeof(double));
    double cp = 0;
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task *t = &dag->tasks[dag->topo[i]];
        double start = 0;
        for (int p = 0; p < t->npred; p++) {
            double f = finish[dag->edges[t->pred[p]].src];
            if (f > start)
                start = f;
        }
        finish[t->id] = start + min_estimate(s, t);
        if (finish[t->id] > cp)
            cp = finish[t->id];
    }
    free(finish);
    return cp;
}

static double mean_estimate(const struct hs_sched *s, const struct hs_task *t)
{
    double sum = 0;
    int n = 0;
    for (int w = 0; w < hs_sched_nworkers(s); w++) {
        double e = hs_sched_exec_estimate(s, t, w);
        if (isfinite(e))
            sum += e, n++;
    }
    return n ? sum / n : INFINITY;
}

/* Longest path with mean costs and mean communication, along the
 * topological order. */
static double critical_path_mean_comm(const struct hs_sched *s)
{
    const struct hs_dag *dag = hs_sched_dag(s);
    double lat, per_byte, cp = 0;
    hs_sched_mean_comm(s, &lat, &per_byte);
    double *finish = calloc((size_t)dag->ntasks + 1, sizeof(double));
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task *t = &dag->tasks[dag->topo[i]];
        double start = 0;
        for (int p = 0; p < t->npred; p++) {
            const struct hs_edge *e = &dag->edges[t->pred[p]];
            double f = finish[e->src] + (e->bytes > 0 ? lat + per_byte * e->bytes : 0);
            if (f > start)
                start = f;
        }
        finish[t->id] = start + mean_estimate(s, t);
        if (finish[t->id] > cp)
            cp = finish[t->id];
    }
    free(finish);
    return cp;
}

/* The smallest sum of the tasks' times over the workers that can run every
 * task; NAN, *worker -1, when none can. */
static double sequential_time(const struct hs_sched *s, int *worker)
{
    const struct hs_dag *dag = hs_sched_dag(s);
    double best = INFINITY;
    *worker = -1;
    for (int w = 0; w < hs_sched_nworkers(s); w++) {
        double sum = 0;
        for (int i = 0; i < dag->ntasks && isfinite(sum); i++)
            sum += hs_sched_exec_estimate(s, &dag->tasks[i], w);
        if (sum < best)
            best = sum, *worker = w;
    }
    if (isfinite(best))
        return best;
    *worker = -1;
    return NAN;
}

/* Every task on its fastest worker, one after the other. */
static double split_time(const struct hs_sched *s)
{
    const struct hs_dag *dag = hs_sched_dag(s);
    double split = 0;
    for (int i = 0; i < dag->ntasks; i++)
        split += min_estimate(s, &dag->tasks[i]);
    return split;
}

void hs_metrics_compute(const struct hs_sched *s, double makespan, struct hs_metrics *m)
{
    m->flops = hs_dag_flops(hs_sched_dag(s));
    m->gflops = makespan > 0 ? m->flops / makespan / 1e9 : 0;
    m->cp_min = critical_path_min(s);
    m->slr = m->cp_min > 0 ? makespan / m->cp_min : NAN; /* no cost on any path: n/a */
    m->cpic = critical_path_mean_comm(s);
    m->slr_cpic = m->cpic > 0 ? makespan / m->cpic : NAN;
    m->sequential = sequential_time(s, &m->sequential_worker);
    m->speedup = makespan > 0 && m->sequential > 0 ? m->sequential / makespan : NAN; /* n/a without either */
    m->efficiency = m->speedup / hs_sched_nworkers(s);
    m->split = split_time(s);
    m->speedup_split = makespan > 0 && m->split > 0 ? m->split / makespan : NAN;
}
