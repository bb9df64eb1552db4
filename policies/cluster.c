/* policies/cluster.c — convex clustering then offline HEFT on the graph of
 * clusters (Beniamine 2013, §3.1.2, Algorithm 1): the tasks are grouped into
 * convex clusters (clustering.h, on the DAG's transitive closure), the
 * clusters become the tasks of a DAG whose edges carry the data that crosses
 * them (a tile version read by several tasks of one cluster counted once:
 * our choice, volume=sum counts it per task), HEFT maps that DAG on the workers
 * (a cluster costs the sum of its tasks), and the runtime executes the plan:
 * each worker runs its clusters in planned order, the tasks of a cluster in
 * topological order, outputs sent to their consumers at once (order=plan);
 * or, as XKaapi applied the thesis' mapping (§3.1.2: a mapping looked up
 * when a task is pushed; order=ready), each
 * worker takes its tasks as they become ready, in FIFO order. With sync=1 a
 * cluster starts only when every cluster it depends on has finished, which is
 * what the thesis' empty synchronisation tasks enforce in XKaapi; each costs
 * what the runtime charges for any task (sim/costs.h: hs_sched_task_overhead),
 * the entry task on the cluster's worker before its first task, the exit
 * task on that worker after its last (charged to its next task; the clusters
 * waiting for it are released at once). max=0 is plain offline HEFT on the
 * tasks (no clusters, no synchronisation tasks: the thesis' MaxClusterSize = 0,
 * Fig. 3.13b), the
 * plan of heft:insertion=0 except that HEFT's ties go to the cores first
 * (workers_cpus_first): on a platform with GPUs, zero-cost move tasks differ.
 * The run record gets the cluster graph's size (hs_sched_set_clusters:
 * results.clusters and cluster_edges; with max=0 the tasks and the edges). */
#include "policies/cluster.h"
#include "base/util.h"
#include "policies/clustering.h"
#include "policies/listsched.h"
#include "policies/registry.h"
#include "policies/taskq.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct hs_param cluster_params[] = {
    {.name = "max", .type = HS_P_INT, .defval = "10", .range = "[0,inf)",
     .help = "largest cluster (MaxClusterSize); 0: no clustering, offline HEFT on the tasks"},
    {.name = "tries", .type = HS_P_INT, .defval = "0", .range = "[0,inf)",
     .help = "random pivots per split; 0: floor(sqrt(tasks))"},
    {.name = "criterion", .type = HS_P_CHOICE, .defval = "max", .choices = "max|min",
     .help = "best split: largest max(|A|,|A~|) (the thesis) or min (the original)"},
    {.name = "update", .type = HS_P_CHOICE, .defval = "safe", .choices = "safe|single|none",
     .help = "update step: one-sided when the literal one (single) would not be convex; none"},
    {.name = "recursion", .type = HS_P_CHOICE, .defval = "part", .choices = "part|all",
     .help = "split every part above max (the thesis), or all parts or none (the original)"},
    {.name = "threshold", .type = HS_P_INT, .defval = "10", .range = "[0,inf)",
     .help = "recursion=all: split when min(|A|,|A~|) exceeds it"},
    {.name = "closure", .type = HS_P_CHOICE, .defval = "dag", .choices = "dag|warshall|igraph",
     .help = "transitive closure: bit rows in topological order, Warshall, igraph searches"},
    {.name = "insertion", .type = HS_P_BOOL, .defval = "0",
     .help = "HEFT inserts clusters into idle gaps (0: after the worker's last one)"},
    {.name = "volume", .type = HS_P_CHOICE, .defval = "dedup", .choices = "dedup|sum",
     .help = "bytes of a cluster edge: each tile version once, or once per reading task"},
    {.name = "sync", .type = HS_P_BOOL, .defval = "1",
     .help = "a cluster waits for every cluster it depends on (synchronisation tasks)"},
    {.name = "order", .type = HS_P_CHOICE, .defval = "plan", .choices = "plan|ready",
     .help = "a worker runs its tasks in planned order, outputs sent at once (plan), or as they become ready (ready: XKaapi's mapping only)"},
    {.name = "stats", .type = HS_P_BOOL, .defval = "0",
     .help = "print the clusters and the time of each step on stderr"},
    {0},
};

struct cluster_run {
    struct hs_listsched *ls; /* the plan of the tasks, executed as listsched.h says */
    struct hs_dag *graph;    /* the cluster graph */
    int *cluster_of;         /* task -> cluster */
    int *rank;               /* the order of tasks planned at the same times */
    int *left;               /* per cluster: tasks not finished */
    int *waiting;            /* per cluster: clusters it depends on not finished */
    bool sync, sync_tasks; /* the order, and (clustering on) the empty tasks' cost */
    bool *started;         /* per cluster: its entry task was charged */
    double *exit_due;      /* per worker: the exit tasks it still has to run */
    /* order=ready: each worker's FIFO of tasks that may start, and per cluster
     * the ready tasks waiting for the clusters it depends on */
    struct hs_taskq *fifo, *parked;
};

static void read_params(const struct hs_spec *sp, struct hs_cc_params *p)
{
    hs_cc_params_defaults(p);
    p->max_size = (int)hs_spec_int(sp, "max");
    p->tries = (int)hs_spec_int(sp, "tries");
    p->criterion = strcmp(hs_spec_get(sp, "criterion"), "min") == 0 ? HS_CC_MIN : HS_CC_MAX;
    const char *u = hs_spec_get(sp, "update");
    p->update = strcmp(u, "single") == 0 ? HS_CC_SINGLE : strcmp(u, "none") == 0 ? HS_CC_NONE : HS_CC_SAFE;
    p->recursion = strcmp(hs_spec_get(sp, "recursion"), "all") == 0 ? HS_CC_ALL_OR_NONE : HS_CC_PER_PART;
    p->threshold = (int)hs_spec_int(sp, "threshold");
}

/* Cluster the tasks: cluster_of[t], clusters numbered in the topological
 * order of their first task (so that max=0 numbers them as the tasks). Returns
 * the number of clusters, or -1 with hs_fail (update=single not convex). */
static int make_clusters(struct hs_runtime *s, double *t_closure, int *cluster_of)
{
    const struct hs_dag *dag = hs_sched_dag(s);
    const struct hs_spec *sp = hs_sched_params(s);
    int n = dag->ntasks, *pos = hs_xmalloc((size_t)n * sizeof(int));
    int *src = hs_xmalloc((size_t)(dag->nedges + 1) * sizeof(int)), *dst = hs_xmalloc((size_t)(dag->nedges + 1) * sizeof(int));
    for (int i = 0; i < n; i++)
        pos[dag->topo[i]] = i;
    for (int e = 0; e < dag->nedges; e++) {
        src[e] = pos[dag->edges[e].src];
        dst[e] = pos[dag->edges[e].dst];
    }
    double t0 = hs_now();
    struct hs_closure c;
    hs_closure_build(&c, n, dag->nedges, src, dst, hs_closure_method_parse(hs_spec_get(sp, "closure")));
    *t_closure = hs_now() - t0;
    struct hs_cc_params p;
    read_params(sp, &p);
    int *by_pos = hs_xmalloc((size_t)n * sizeof(int)), bad = -1;
    int ncl = hs_cc_cluster(&c, &p, hs_sched_rng(s), by_pos);
    if (p.update == HS_CC_SINGLE && !hs_cc_convex(&c, by_pos, ncl, &bad))
        ncl = hs_fail("update=single made a cluster that is not convex (the thesis' update step as "
                      "written); use update=safe");
    int *renumber = hs_xmalloc((size_t)(ncl > 0 ? ncl : 1) * sizeof(int)), next = 0;
    for (int k = 0; k < ncl; k++)
        renumber[k] = -1;
    for (int i = 0; i < n && ncl > 0; i++) {
        if (renumber[by_pos[i]] < 0)
            renumber[by_pos[i]] = next++;
        cluster_of[dag->topo[i]] = renumber[by_pos[i]];
    }
    hs_closure_free(&c);
    free(pos), free(src), free(dst), free(by_pos), free(renumber);
    return ncl;
}

/* Bytes of each cluster edge. Walking the tasks in topological order, the
 * last writer of a handle is the producer of what a task reads (tasks that
 * access one handle are ordered by dependencies); a read across clusters
 * counts once per (cluster edge, producer, handle) with dedup. */
struct cross_read {
    int pair, producer, handle;
};

static int cmp_cross(const void *a, const void *b)
{
    const struct cross_read *x = a, *y = b;
    if (x->pair != y->pair)
        return x->pair - y->pair;
    if (x->producer != y->producer)
        return x->producer - y->producer;
    return x->handle - y->handle;
}

static int pair_index(const int *pairs, int npairs, int a, int b)
{
    int lo = 0, hi = npairs - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, ma = pairs[2 * mid], mb = pairs[2 * mid + 1];
        if (ma == a && mb == b)
            return mid;
        if (ma < a || (ma == a && mb < b))
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

static double *edge_volumes(const struct hs_dag *dag, const int *cluster_of, const int *pairs,
                            int npairs, bool dedup)
{
    int *lastw = hs_xmalloc((size_t)(dag->nhandles + 1) * sizeof(int));
    for (int h = 0; h < dag->nhandles; h++)
        lastw[h] = -1;
    struct cross_read *reads = NULL;
    size_t n = 0, cap = 0;
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task *t = &dag->tasks[dag->topo[i]];
        for (int k = 0; k < t->naccess; k++) {
            int h = t->access[k].handle, u = lastw[h];
            if (!HS_MODE_READS(t->access[k].mode) || u < 0 || cluster_of[u] == cluster_of[t->id])
                continue;
            HS_GROW(reads, cap, n + 1);
            reads[n++] = (struct cross_read){pair_index(pairs, npairs, cluster_of[u], cluster_of[t->id]), u, h};
        }
        for (int k = 0; k < t->naccess; k++)
            if (HS_MODE_WRITES(t->access[k].mode))
                lastw[t->access[k].handle] = t->id;
    }
    if (n)
        qsort(reads, n, sizeof *reads, cmp_cross);
    double *volume = hs_xcalloc((size_t)(npairs + 1), sizeof(double));
    for (size_t k = 0; k < n; k++)
        if (reads[k].pair >= 0 && (!dedup || k == 0 || cmp_cross(&reads[k], &reads[k - 1]) != 0))
            volume[reads[k].pair] += dag->handles[reads[k].handle].bytes;
    free(reads);
    free(lastw);
    return volume;
}

/* The cluster graph as a DAG (igraph checks it is acyclic), and the cost of
 * each cluster on each worker: the sum of its tasks'. */
static struct hs_dag *cluster_graph(struct hs_runtime *s, const struct hs_listsched *tasks,
                                    const int *cluster_of, int ncl, double **costs)
{
    const struct hs_dag *dag = tasks->dag;
    int P = tasks->nworkers;
    double *w = hs_xcalloc((size_t)ncl * P, sizeof(double));
    for (int t = 0; t < dag->ntasks; t++)
        for (int p = 0; p < P; p++)
            w[(size_t)cluster_of[t] * P + p] += tasks->w[(size_t)t * P + p];
    int *src = hs_xmalloc((size_t)(dag->nedges + 1) * sizeof(int)), *dst = hs_xmalloc((size_t)(dag->nedges + 1) * sizeof(int)), *pairs;
    for (int e = 0; e < dag->nedges; e++) {
        src[e] = dag->edges[e].src;
        dst[e] = dag->edges[e].dst;
    }
    int npairs = hs_cc_quotient(dag->nedges, src, dst, cluster_of, &pairs, NULL);
    bool dedup = strcmp(hs_spec_get(hs_sched_params(s), "volume"), "dedup") == 0;
    double *volume = edge_volumes(dag, cluster_of, pairs, npairs, dedup);
    struct hs_dag *g = hs_dag_new("clusters");
    char label[32];
    for (int k = 0; k < ncl; k++) {
        snprintf(label, sizeof label, "cluster%d", k);
        hs_dag_add_task(g, "cluster", label, 0, 0);
    }
    for (int q = 0; q < npairs; q++)
        hs_dag_add_edge(g, pairs[2 * q], pairs[2 * q + 1], volume[q]);
    free(src), free(dst), free(pairs), free(volume);
    *costs = w;
    if (hs_dag_finalize(g)) {
        hs_dag_free(g);
        return NULL;
    }
    return g;
}

/* The tasks' plan: each cluster's tasks back to back from the cluster's
 * planned start, in topological order, on its worker. Tasks planned at the
 * same times (zero-cost moves at a cluster's edge) keep the order of the
 * clusters in the cluster graph's topological order, then the tasks': a
 * worker never waits for a task ordered after the one it waits on (a move of
 * a cluster before one of the cluster it depends on would stall). Returns
 * that order (the tiebreak ranks). */
static int *plan_tasks(struct hs_listsched *tasks, const struct hs_listsched *clusters, const int *cluster_of)
{
    const struct hs_dag *dag = tasks->dag, *g = clusters->dag;
    int n = dag->ntasks, ncl = g->ntasks;
    double *cursor = hs_xmalloc((size_t)ncl * sizeof(double));
    memcpy(cursor, clusters->ast, (size_t)ncl * sizeof(double));
    int *next = hs_xcalloc((size_t)ncl, sizeof(int)), *rank = hs_xmalloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++) {
        int t = dag->topo[i], k = cluster_of[t];
        hs_ls_place(tasks, t, clusters->proc[k], cursor[k]);
        cursor[k] = tasks->aft[t];
        next[k]++;
    }
    for (int i = 0, at = 0; i < ncl; i++) { /* each cluster's block of ranks */
        int k = g->topo[i], size = next[k];
        next[k] = at;
        at += size;
    }
    for (int i = 0; i < n; i++)
        rank[dag->topo[i]] = next[cluster_of[dag->topo[i]]]++;
    free(cursor);
    free(next);
    return rank;
}

static void print_stats(const struct hs_dag *dag, const struct hs_dag *g, const int *cluster_of,
                        const double *times)
{
    int *size = hs_xcalloc((size_t)g->ntasks, sizeof(int)), largest = 0;
    for (int t = 0; t < dag->ntasks; t++)
        if (++size[cluster_of[t]] > largest)
            largest = size[cluster_of[t]];
    fprintf(stderr, "cluster: %d tasks, %d edges -> %d clusters (largest %d), %d cluster edges; "
                    "closure %.6f s, clustering %.6f s, cluster graph %.6f s, HEFT %.6f s, "
                    "whole plan %.6f s\n",
            dag->ntasks, dag->nedges, g->ntasks, largest, g->nedges, times[0], times[1], times[2],
            times[3], times[4]);
    free(size);
}

static struct cluster_run *run_state(struct hs_listsched *tasks, struct hs_dag *g, int *cluster_of,
                                     int *rank, bool sync, bool by_readiness)
{
    struct cluster_run *run = hs_xcalloc(1, sizeof *run);
    if (by_readiness) {
        run->fifo = hs_xcalloc((size_t)tasks->nworkers, sizeof *run->fifo);
        run->parked = hs_xcalloc((size_t)g->ntasks, sizeof *run->parked);
    }
    run->ls = tasks;
    run->rank = rank;
    run->graph = g;
    run->cluster_of = cluster_of;
    run->sync = sync;
    run->left = hs_xcalloc((size_t)g->ntasks, sizeof(int));
    run->started = hs_xcalloc((size_t)g->ntasks, sizeof(bool));
    run->exit_due = hs_xcalloc((size_t)tasks->nworkers, sizeof(double));
    run->waiting = hs_xmalloc((size_t)g->ntasks * sizeof(int));
    for (int t = 0; t < tasks->ntasks; t++)
        run->left[cluster_of[t]]++;
    for (int k = 0; k < g->ntasks; k++)
        run->waiting[k] = g->tasks[k].npred;
    return run;
}

/* HEFT's ties go to cores first, then GPUs, each by id (our choice: the thesis
 * gives no tie rule): a
 * zero-cost move task on a GPU would fetch its tile there for nothing. */
static int *workers_cpus_first(const struct hs_runtime *s)
{
    int n = hs_sched_nworkers(s), *order = hs_xmalloc((size_t)n * sizeof(int)), k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int w = 0; w < n; w++)
            if ((hs_sched_worker(s, w)->arch == HS_ARCH_CPU) == (pass == 0))
                order[k++] = w;
    return order;
}

static int cluster_init(struct hs_runtime *s)
{
    const struct hs_spec *sp = hs_sched_params(s);
    double times[5], t0 = hs_now(); /* closure, clustering, cluster graph, HEFT, all */
    int *cluster_of = hs_xmalloc((size_t)hs_sched_dag(s)->ntasks * sizeof(int));
    int ncl = make_clusters(s, &times[0], cluster_of);
    times[1] = hs_now() - t0 - times[0];
    struct hs_listsched *tasks = hs_ls_new(s), *clusters = NULL;
    double *costs = NULL, t1 = hs_now();
    struct hs_dag *g = ncl < 0 ? NULL : cluster_graph(s, tasks, cluster_of, ncl, &costs);
    times[2] = hs_now() - t1;
    t1 = hs_now();
    int rc = g ? 0 : -1;
    int *cpus_first = workers_cpus_first(s);
    if (g) {
        clusters = hs_ls_new_costs(s, g, costs);
        clusters->worker_order = cpus_first;
        rc = hs_heft_place_all(clusters, "mean", hs_spec_bool(sp, "insertion"));
        if (rc)
            hs_fail("a cluster holds tasks that no single worker can run (SetArch hints?)");
    }
    times[3] = hs_now() - t1;
    free(costs);
    free(cpus_first);
    if (rc) {
        hs_ls_free(clusters);
        hs_ls_free(tasks);
        hs_dag_free(g);
        free(cluster_of);
        return -1;
    }
    int *rank = plan_tasks(tasks, clusters, cluster_of);
    hs_ls_free(clusters);
    tasks->tiebreak = rank;
    hs_ls_commit(tasks);
    hs_sched_set_clusters(s, g->ntasks, g->nedges);
    times[4] = hs_now() - t0;
    if (hs_spec_bool(sp, "stats"))
        print_stats(tasks->dag, g, cluster_of, times);
    bool by_readiness = strcmp(hs_spec_get(sp, "order"), "ready") == 0;
    if (by_readiness)
        hs_sched_set_in_order(s, false); /* XKaapi's streams: kernels as their inputs arrive */
    struct cluster_run *run = run_state(tasks, g, cluster_of, rank, hs_spec_bool(sp, "sync"), by_readiness);
    run->sync_tasks = run->sync && hs_spec_int(sp, "max") > 0;
    hs_sched_set_data(s, run);
    return 0;
}

static bool gated(const struct cluster_run *run, int t)
{
    return run->sync && run->waiting[run->cluster_of[t]] > 0;
}

static void cluster_push(struct hs_runtime *s, struct hs_task *t)
{
    struct cluster_run *run = hs_sched_data(s);
    run->ls->ready[t->id] = true;
    if (run->fifo)
        hs_taskq_push(gated(run, t->id) ? &run->parked[run->cluster_of[t->id]] : &run->fifo[run->ls->proc[t->id]], t, 0);
}

/* w takes t: it first runs the exit tasks of the clusters it finished and,
 * for the first task of a cluster, the cluster's entry task. */
static struct hs_task *charge_sync(struct hs_runtime *s, struct cluster_run *run, int w, int t)
{
    if (run->sync_tasks) {
        double d = run->exit_due[w];
        run->exit_due[w] = 0;
        if (!run->started[run->cluster_of[t]]) {
            run->started[run->cluster_of[t]] = true;
            d += hs_sched_task_overhead(s, w);
        }
        hs_sched_delay(s, w, d);
    }
    return &hs_sched_dag(s)->tasks[t];
}

static struct hs_task *cluster_pop(struct hs_runtime *s, int w)
{
    struct cluster_run *run = hs_sched_data(s);
    if (run->fifo)
        return run->fifo[w].len ? charge_sync(s, run, w, hs_taskq_take(&run->fifo[w], 0)->id) : NULL;
    int t = hs_ls_next_ready(run->ls, w);
    if (t < 0 || gated(run, t))
        return NULL;
    run->ls->next[w]++;
    return charge_sync(s, run, w, t);
}

/* A cluster finished: the clusters that depend on it may start once they
 * wait for no other; their parked ready tasks join their workers' FIFOs. */
static void cluster_finished(struct cluster_run *run, int k)
{
    const struct hs_task *c = &run->graph->tasks[k];
    for (int i = 0; i < c->nsucc; i++) {
        int d = run->graph->edges[c->succ[i]].dst;
        if (--run->waiting[d] > 0 || !run->fifo)
            continue;
        while (run->parked[d].len) {
            struct hs_task *t = hs_taskq_take(&run->parked[d], 0);
            hs_taskq_push(&run->fifo[run->ls->proc[t->id]], t, 0);
        }
    }
}

static void cluster_done(struct hs_runtime *s, struct hs_task *t, int w)
{
    struct cluster_run *run = hs_sched_data(s);
    if (!run->fifo)
        hs_ls_send_outputs(run->ls, t, w);
    int k = run->cluster_of[t->id];
    if (--run->left[k] == 0) {
        if (run->sync_tasks) /* the exit task, on the worker that ran the cluster's last task */
            run->exit_due[w] += hs_sched_task_overhead(s, w);
        cluster_finished(run, k);
    }
}

int hs_cluster_of(const struct hs_runtime *s, int t)
{
    const struct cluster_run *run = hs_sched_data(s);
    return run ? run->cluster_of[t] : -1;
}

static void cluster_fini(struct hs_runtime *s)
{
    struct cluster_run *run = hs_sched_data(s);
    if (!run)
        return;
    for (int w = 0; run->fifo && w < run->ls->nworkers; w++)
        hs_taskq_free(&run->fifo[w]);
    for (int k = 0; run->parked && k < run->graph->ntasks; k++)
        hs_taskq_free(&run->parked[k]);
    hs_ls_free(run->ls);
    hs_dag_free(run->graph);
    free(run->fifo);
    free(run->parked);
    free(run->cluster_of);
    free(run->rank);
    free(run->left);
    free(run->waiting);
    free(run->started);
    free(run->exit_due);
    free(run);
}

const struct hs_policy hs_policy_cluster = {
    .name = "cluster",
    .summary = "Beniamine 2013: convex clustering (Lepere-Trystram) then offline HEFT on the cluster graph",
    .params = cluster_params,
    .init = cluster_init,
    .push = cluster_push,
    .pop = cluster_pop,
    .done = cluster_done,
    .fini = cluster_fini,
};
