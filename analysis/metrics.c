/* analysis/metrics.c — GFlop/s, SLR, speedup and efficiency of a run. */
#include "analysis/metrics.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Each task's estimates, asked of the runtime once per task and worker (the
 * metrics below read them several times each): its smallest and the mean of
 * its finite ones, and each worker's sum over the tasks (in task order;
 * INFINITY once a task cannot run there). */
struct estimates {
    double *min, *mean, *sum;
};

/* Through the classes of identical workers (sim/sched.h): a task's estimate
 * is its class's on every member, so each class's sum over the tasks is
 * each member's, and a task's mean is made once per distinct vector of
 * class estimates (the same kernel and size), summed in worker order as a
 * pass over the workers would: the same figures in O(tasks x classes +
 * distinct vectors x workers), not O(tasks x workers) (issue 55). */
static void estimates_compute(const struct hs_runtime *s, struct estimates *e)
{
    const struct hs_dag *dag = hs_sched_dag(s);
    int nw = hs_sched_nworkers(s), nc = hs_sched_nclasses(s);
    e->min = hs_xmalloc(((size_t)dag->ntasks + 1) * sizeof *e->min);
    e->mean = hs_xmalloc(((size_t)dag->ntasks + 1) * sizeof *e->mean);
    e->sum = hs_xcalloc((size_t)nw + 1, sizeof *e->sum);
    int *rep = hs_xmalloc(((size_t)nc + 1) * sizeof *rep), *cls = hs_xmalloc(((size_t)nw + 1) * sizeof *cls);
    for (int c = 0; c < nc; c++) {
        const int *m;
        hs_sched_class_members(s, c, &m);
        rep[c] = m[0];
    }
    for (int w = 0; w < nw; w++)
        cls[w] = hs_sched_class_of(s, w);
    double *csum = hs_xcalloc((size_t)nc + 1, sizeof *csum);
    /* the means of the last MEANS distinct vectors, replaced in turn */
    enum { MEANS = 16 };
    double *x = hs_xmalloc(((size_t)nc + 1) * sizeof *x);
    double *seen = hs_xmalloc(((size_t)nc + 1) * MEANS * sizeof *seen), seen_mean[MEANS];
    int nseen = 0, next = 0;
    for (int i = 0; i < dag->ntasks; i++) {
        double best = INFINITY;
        for (int c = 0; c < nc; c++) {
            x[c] = hs_sched_exec_estimate(s, &dag->tasks[i], rep[c]);
            if (x[c] < best)
                best = x[c];
            csum[c] += x[c];
        }
        e->min[i] = best;
        int k = 0;
        while (k < nseen && memcmp(x, &seen[(size_t)k * nc], (size_t)nc * sizeof *x) != 0)
            k++;
        if (k == nseen) {
            double total = 0;
            int finite = 0;
            for (int w = 0; w < nw; w++)
                if (isfinite(x[cls[w]]))
                    total += x[cls[w]], finite++;
            k = nseen < MEANS ? nseen++ : next++ % MEANS;
            memcpy(&seen[(size_t)k * nc], x, (size_t)nc * sizeof *x);
            seen_mean[k] = finite ? total / finite : INFINITY;
        }
        e->mean[i] = seen_mean[k];
    }
    for (int w = 0; w < nw; w++)
        e->sum[w] = csum[cls[w]];
    free(rep), free(cls), free(csum), free(x), free(seen);
}

static void estimates_free(struct estimates *e)
{
    free(e->min), free(e->mean), free(e->sum);
}

/* Longest path with minimum costs, along the topological order. */
static double critical_path_min(const struct hs_runtime *s, const struct estimates *est)
{
    const struct hs_dag *dag = hs_sched_dag(s);
    double *finish = hs_xcalloc((size_t)dag->ntasks + 1, sizeof(double));
    double cp = 0;
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task *t = &dag->tasks[dag->topo[i]];
        double start = 0;
        for (int p = 0; p < t->npred; p++) {
            double f = finish[dag->edges[t->pred[p]].src];
            if (f > start)
                start = f;
        }
        finish[t->id] = start + est->min[t->id];
        if (finish[t->id] > cp)
            cp = finish[t->id];
    }
    free(finish);
    return cp;
}

/* Longest path with mean costs and mean communication, along the
 * topological order. */
static double critical_path_mean_comm(const struct hs_runtime *s, const struct estimates *est)
{
    const struct hs_dag *dag = hs_sched_dag(s);
    double lat, per_byte, cp = 0;
    hs_sched_mean_comm(s, &lat, &per_byte);
    double *finish = hs_xcalloc((size_t)dag->ntasks + 1, sizeof(double));
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task *t = &dag->tasks[dag->topo[i]];
        double start = 0;
        for (int p = 0; p < t->npred; p++) {
            const struct hs_edge *e = &dag->edges[t->pred[p]];
            double f = finish[e->src] + (e->bytes > 0 ? lat + per_byte * e->bytes : 0);
            if (f > start)
                start = f;
        }
        finish[t->id] = start + est->mean[t->id];
        if (finish[t->id] > cp)
            cp = finish[t->id];
    }
    free(finish);
    return cp;
}

/* The smallest sum of the tasks' times over the workers that can run every
 * task; NAN, *worker -1, when none can. */
static double sequential_time(const struct hs_runtime *s, const struct estimates *est, int *worker)
{
    double best = INFINITY;
    *worker = -1;
    for (int w = 0; w < hs_sched_nworkers(s); w++)
        if (est->sum[w] < best)
            best = est->sum[w], *worker = w;
    if (isfinite(best))
        return best;
    *worker = -1;
    return NAN;
}

/* Every task on its fastest worker, one after the other. */
static double split_time(const struct hs_runtime *s, const struct estimates *est)
{
    const struct hs_dag *dag = hs_sched_dag(s);
    double split = 0;
    for (int i = 0; i < dag->ntasks; i++)
        split += est->min[i];
    return split;
}

void hs_metrics_compute(const struct hs_runtime *s, double makespan, struct hs_metrics *m)
{
    m->flops = hs_dag_flops(hs_sched_dag(s));
    m->gflops = makespan > 0 ? m->flops / makespan / 1e9 : 0;
    struct estimates est;
    estimates_compute(s, &est);
    m->cp_min = critical_path_min(s, &est);
    m->slr = m->cp_min > 0 ? makespan / m->cp_min : NAN; /* no cost on any path: n/a */
    m->cpic = critical_path_mean_comm(s, &est);
    m->slr_cpic = m->cpic > 0 ? makespan / m->cpic : NAN;
    m->sequential = sequential_time(s, &est, &m->sequential_worker);
    m->speedup = makespan > 0 && m->sequential > 0 ? m->sequential / makespan : NAN; /* n/a without either */
    m->efficiency = m->speedup / hs_sched_nworkers(s);
    m->split = split_time(s, &est);
    estimates_free(&est);
    m->speedup_split = makespan > 0 && m->split > 0 ? m->split / makespan : NAN;
}
