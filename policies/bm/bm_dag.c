/* policies/bm/bm_dag.c — recognising Beaumont and Marchal's products among
 * DAGs, and the communication volume of a run of one (bm_dag.h). */
#include "policies/bm/bm_dag.h"
#include "base/util.h"
#include "policies/bm/bm_analysis.h"

#include <math.h>
#include <stdlib.h>

/* n with n^dim = count, or 0. */
static int side(long count, int dim)
{
    long n = lround(pow((double)count, 1.0 / dim));
    for (long m = n > 1 ? n - 1 : 1; m <= n + 1; m++)
        if ((dim == 2 ? m * m : m * m * m) == count)
            return (int)m;
    return 0;
}

/* Block of family f that task t reads (the handle numbering of workloads/products.c). */
static int expected_handle(int dim, int n, long t, int f)
{
    long per = dim == 2 ? n : (long)n * n, k = t % n, rest = t / n;
    long i = dim == 2 ? rest : rest / n, j = dim == 2 ? k : rest % n;
    long block = dim == 2 ? (f == 0 ? i : j) : f == 0 ? i * n + k : f == 1 ? k * n + j : i * n + j;
    return (int)(f * per + block);
}

static int check_task(const struct hs_dag *dag, int dim, int n, int t)
{
    const struct hs_task *task = &dag->tasks[t];
    if (task->naccess != dim)
        return hs_fail("task %s reads %d data, not %d", task->label, task->naccess, dim);
    for (int f = 0; f < dim; f++) {
        int h = expected_handle(dim, n, t, f);
        if (task->access[f].handle != h || task->access[f].mode != HS_MODE_R)
            return hs_fail("task %s does not read %s (as access %d, read-only)", task->label,
                           dag->handles[h].name, f);
    }
    return 0;
}

static int match(const struct hs_dag *dag, int dim, struct hs_bm_shape *shape)
{
    const char *what = dim == 2 ? "an outer product" : "a matrix product";
    int n = side(dag->ntasks, dim);
    if (!n)
        return hs_fail("DAG '%s' is not %s: %d tasks is not a %s", dag->name, what, dag->ntasks,
                       dim == 2 ? "square" : "cube");
    long handles = dim * (dim == 2 ? (long)n : (long)n * n);
    if (dag->nhandles != handles || dag->nedges != 0)
        return hs_fail("DAG '%s' is not %s of %d blocks: it has %d data (not %ld) and %d "
                       "dependencies (not 0)", dag->name, what, n, dag->nhandles, handles, dag->nedges);
    for (int h = 1; h < dag->nhandles; h++)
        if (dag->handles[h].bytes != dag->handles[0].bytes)
            return hs_fail("DAG '%s' is not %s: its blocks differ in size", dag->name, what);
    for (int t = 0; t < dag->ntasks; t++)
        if (check_task(dag, dim, n, t))
            return -1;
    *shape = (struct hs_bm_shape){dim, n, dag->handles[0].bytes};
    return 0;
}

int hs_bm_dag_shape(const struct hs_dag *dag, int dim, struct hs_bm_shape *shape)
{
    if (dim)
        return match(dag, dim, shape);
    if (side(dag->ntasks, 2) && match(dag, 2, shape) == 0)
        return 0;
    return match(dag, 3, shape) == 0 ? 0 : hs_fail("DAG '%s' is neither an outer nor a matrix product",
                                                   dag->name);
}

void hs_bm_worker_speeds(const struct hs_runtime *s, double *speeds)
{
    const struct hs_task *t = &hs_sched_dag(s)->tasks[0];
    for (int w = 0; w < hs_sched_nworkers(s); w++)
        speeds[w] = 1 / hs_sched_exec_estimate(s, t, w);
}

void hs_bm_run_volume(const struct hs_runtime *s, const struct hs_bm_shape *shape, double bytes_moved,
                      struct hs_bm_volume *v)
{
    int p = hs_sched_nworkers(s);
    double *speeds = hs_xmalloc((size_t)p * sizeof *speeds), total = 0, sum = 0;
    hs_bm_worker_speeds(s, speeds);
    for (int w = 0; w < p; w++)
        total += speeds[w];
    for (int w = 0; w < p; w++)
        if (hs_sched_worker(s, w)->node != 0) /* node 0: host memory, where the blocks are */
            sum += pow(speeds[w] / total, shape->dim == 2 ? 0.5 : 2.0 / 3);
    free(speeds);
    v->blocks = shape->block_bytes > 0 ? bytes_moved / shape->block_bytes : 0;
    v->lower_bound = shape->dim * pow(shape->n, shape->dim - 1) * sum;
    v->ratio = v->lower_bound > 0 ? v->blocks / v->lower_bound : NAN;
}
