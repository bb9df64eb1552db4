/* analysis/dagstats.c — tasks, edges, depth, maximum width, total work,
 * critical path with mean costs and CCR of a DAG (definitions in
 * dagstats.h): one pass along the topological order for the levels and the
 * weighted longest path. */
#include "analysis/dagstats.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>

/* Mean of the non-negative, non-NaN values; NaN if there is none. */
static double mean_valid(const double *v, int n)
{
    double sum = 0;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (v[i] >= 0) {
            sum += v[i];
            k++;
        }
    return k ? sum / k : NAN;
}

double hs_task_mean_cost(const struct hs_dag *dag, const struct hs_task *t, double speed)
{
    double m = NAN;
    if (t->proc_cost)
        m = mean_valid(t->proc_cost, dag->nproc_costs);
    if (isnan(m))
        m = mean_valid(t->arch_cost, HS_NARCH);
    return isnan(m) ? t->flops / speed : m;
}

/* Levels and weighted longest path along dag->topo. */
static void longest_paths(const struct hs_dag *dag, const double *cost, double bw, int *level,
                          struct hs_dagstats *st)
{
    double *finish = hs_xmalloc((size_t)dag->ntasks * sizeof(double));
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task *t = &dag->tasks[dag->topo[i]];
        double start = 0;
        int lv = 0;
        for (int k = 0; k < t->npred; k++) {
            const struct hs_edge *e = &dag->edges[t->pred[k]];
            double ready = finish[e->src] + e->bytes / bw;
            if (ready > start)
                start = ready;
            if (level[e->src] + 1 > lv)
                lv = level[e->src] + 1;
        }
        level[t->id] = lv;
        finish[t->id] = start + cost[t->id];
        if (finish[t->id] > st->critical_path)
            st->critical_path = finish[t->id];
        if (lv + 1 > st->depth)
            st->depth = lv + 1;
    }
    free(finish);
}

static int widest_level(const int *level, int n, int depth)
{
    int *count = hs_xcalloc((size_t)depth + 1, sizeof(int)), best = 0;
    for (int i = 0; i < n; i++)
        if (++count[level[i]] > best)
            best = count[level[i]];
    free(count);
    return best;
}

void hs_dag_stats(const struct hs_dag *dag, double speed, double bw, struct hs_dagstats *st,
                  int *levels)
{
    *st = (struct hs_dagstats){.tasks = dag->ntasks, .edges = dag->nedges, .processors = dag->processors};
    double *cost = hs_xmalloc((size_t)(dag->ntasks ? dag->ntasks : 1) * sizeof(double));
    int *level = levels ? levels : hs_xmalloc((size_t)(dag->ntasks ? dag->ntasks : 1) * sizeof(int));
    for (int i = 0; i < dag->ntasks; i++)
        st->total_work += cost[i] = hs_task_mean_cost(dag, &dag->tasks[i], speed);
    for (int e = 0; e < dag->nedges; e++)
        st->total_comm += dag->edges[e].bytes / bw;
    longest_paths(dag, cost, bw, level, st);
    st->max_width = widest_level(level, dag->ntasks, st->depth);
    if (st->total_comm > 0)
        st->ccr = (st->total_comm / dag->nedges) / (st->total_work / dag->ntasks);
    free(cost);
    if (level != levels)
        free(level);
}

void hs_dagstats_print(const struct hs_dagstats *st, FILE *out)
{
    fprintf(out, "tasks: %d\nedges: %d\ndepth: %d\nmax_width: %d\n", st->tasks, st->edges,
            st->depth, st->max_width);
    /* seconds (costs, or flops / --speed, bytes / --bw); ccr is a ratio */
    fprintf(out, "total_work: %.12g s\ncritical_path: %.12g s\nccr: %.12g\n", st->total_work,
            st->critical_path, st->ccr);
    if (st->processors > 0)
        fprintf(out, "processors: %d (the file's own)\n", st->processors);
}
