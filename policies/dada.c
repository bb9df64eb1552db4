/* policies/dada.c — DADA, Distributed Affinity Dual Approximation (Bleuse,
 * Gautier, Lima, Mounié and Trystram, Euro-Par 2014, §3.2, Algorithm 2). An
 * online policy: each batch of tasks made ready by one completion (or the
 * sources at time 0) is allocated by the dual approximation of
 * policies/dualapprox.c, then pushed onto the workers' FIFO queues in
 * allocation order.
 *
 * What this file adds to the dual approximation is the view of the runtime:
 *   - the cost of a task on a worker, its estimated execution time, plus
 *     (cp=1, "+CP") the estimated time to bring its missing inputs at the
 *     routes' nominal bandwidths (cp=topology, our addition: a GPU sharing
 *     its PCIe switch with n − 1 other selected GPUs sees 1/n of it);
 *   - when each worker is free: what it holds, plus the costs queued here;
 *   - affinity (§3.2): the bytes of the data the task writes (W or RW) that
 *     are valid on a GPU's memory now (affinity=predicted: where the last
 *     scheduled writer of each datum will leave it); the affinity worker is
 *     the GPU with the most, ties to the earliest finish then the lowest id;
 *     host memory counts only with aff_host=1 (for whichever core).
 *
 * Names: dada = DADA(α) with α = 1, dada0 = DADA(0), dada-cp =
 * DADA(α)+CP, dada0-cp = DADA(0)+CP; each takes every parameter. */
#include "policies/batchq.h"
#include "base/util.h"
#include "policies/dualapprox.h"
#include "policies/registry.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DADA_PARAMS(alpha_default, cp_default)                                                        \
    {                                                                                                 \
        {.name = "alpha", .type = HS_P_DOUBLE, .defval = alpha_default, .range = "[0,1]",             \
         .help = "affinity: the affinity phase loads each worker up to alpha*lambda"},                \
        {.name = "cp", .type = HS_P_CHOICE, .defval = cp_default, .choices = "0|1|topology",          \
         .help = "communication prediction: costs include the estimated input transfers (topology: " \
                 "a GPU's PCIe switch bandwidth shared by the selected GPUs behind it)"},            \
        {.name = "rho", .type = HS_P_DOUBLE, .defval = "2", .range = "[1,inf)",                      \
         .help = "approximation ratio: a guess fits when every load is at most (rho+alpha)*lambda"},  \
        {.name = "eps", .type = HS_P_DOUBLE, .defval = "1e-3", .range = "(0,1)",                     \
         .help = "precision of the binary search, relative to the initial upper bound"},              \
        {.name = "eps_abs", .type = HS_P_DOUBLE, .defval = "1e-7", .range = "[0,inf)",               \
         .help = "absolute floor of that precision (seconds)"},                                       \
        {.name = "ref", .type = HS_P_CHOICE, .defval = "batch", .choices = "batch|absolute",          \
         .help = "lambda measures the batch alone, or includes the workers' backlog"},                \
        {.name = "gpu_threshold", .type = HS_P_CHOICE, .defval = "gpu", .choices = "gpu|area",        \
         .help = "fill GPUs while one is below lambda, or while their total is below k*lambda"},      \
        {.name = "cpu_order", .type = HS_P_CHOICE, .defval = "longest", .choices = "longest|activation", \
         .help = "order of the tasks left to the cores (earliest finish time each)"},                 \
        {.name = "affinity", .type = HS_P_CHOICE, .defval = "valid", .choices = "valid|predicted",    \
         .help = "where written data is: valid copies now, or where its last scheduled writer runs"}, \
        {.name = "aff_host", .type = HS_P_BOOL, .defval = "0",                                        \
         .help = "host memory is an affinity target too (for any core)"},                             \
        {.name = "steal", .type = HS_P_BOOL, .defval = "0",                                           \
         .help = "an idle worker steals the oldest task it can run from a random victim"},            \
        {0},                                                                                          \
    }

static const struct hs_param dada_params[] = DADA_PARAMS("1", "0");
static const struct hs_param dada0_params[] = DADA_PARAMS("0", "0");
static const struct hs_param dada_cp_params[] = DADA_PARAMS("1", "1");
static const struct hs_param dada0_cp_params[] = DADA_PARAMS("0", "1");

struct dada {
    struct hs_batchq bq;
    struct hs_da_problem prob; /* options; the arrays are filled per batch */
    bool *is_gpu;
    bool cp, aff_host, predicted, steal;
    double *shared;            /* cp=topology: per memory node, GPUs sharing its switch; else NULL */
    int *writer_node;          /* per handle: node of its last scheduled writer, -1 */
};

/* Per memory node, how many selected GPUs share its PCIe switch (1 for the
 * host and for a GPU alone or of unknown switch). */
static double *switch_sharing(const struct hs_runtime *s)
{
    const struct hs_platform *pf = hs_sched_platform(s);
    double *shared = hs_xmalloc((size_t)pf->nnodes * sizeof *shared);
    for (int n = 0; n < pf->nnodes; n++)
        shared[n] = 1;
    for (int w = 0; w < pf->nworkers; w++) {
        const struct hs_worker *g = &pf->workers[w];
        if (g->arch != HS_ARCH_GPU || g->sw < 0)
            continue;
        int k = 0;
        for (int v = 0; v < pf->nworkers; v++)
            k += pf->workers[v].arch == HS_ARCH_GPU && pf->workers[v].sw == g->sw;
        shared[g->node] = k;
    }
    return shared;
}

static int dada_init(struct hs_runtime *s)
{
    const struct hs_spec *p = hs_sched_params(s);
    int P = hs_sched_nworkers(s);
    struct dada *d = hs_xcalloc(1, sizeof *d);
    hs_batchq_init(&d->bq, s);
    hs_sched_set_decision(s, HS_DECIDE_WORKERS); /* the dual approximation weighs every worker */
    d->is_gpu = hs_xcalloc((size_t)P, sizeof *d->is_gpu);
    for (int w = 0; w < P; w++)
        d->is_gpu[w] = hs_sched_worker(s, w)->arch == HS_ARCH_GPU;
    d->prob = (struct hs_da_problem){
        .nworkers = P,
        .is_gpu = d->is_gpu,
        .alpha = hs_spec_double(p, "alpha"),
        .rho = hs_spec_double(p, "rho"),
        .eps_rel = hs_spec_double(p, "eps"),
        .eps_abs = hs_spec_double(p, "eps_abs"),
        .absolute = strcmp(hs_spec_get(p, "ref"), "absolute") == 0,
        .fill = strcmp(hs_spec_get(p, "gpu_threshold"), "area") == 0 ? HS_DA_FILL_AREA : HS_DA_FILL_EACH,
        .cpu_order = strcmp(hs_spec_get(p, "cpu_order"), "activation") == 0 ? HS_DA_CPU_ACTIVATION
                                                                             : HS_DA_CPU_LONGEST,
    };
    const char *cp = hs_spec_get(p, "cp");
    d->cp = strcmp(cp, "0") != 0;
    d->shared = strcmp(cp, "topology") == 0 ? switch_sharing(s) : NULL;
    d->aff_host = hs_spec_bool(p, "aff_host");
    d->predicted = strcmp(hs_spec_get(p, "affinity"), "predicted") == 0;
    d->steal = hs_spec_bool(p, "steal");
    int nh = hs_sched_dag(s)->nhandles;
    d->writer_node = hs_xmalloc((size_t)(nh + 1) * sizeof *d->writer_node);
    for (int h = 0; h < nh; h++)
        d->writer_node[h] = -1;
    hs_sched_set_data(s, d);
    return 0;
}

/* ---- affinity ------------------------------------------------------------------ */

static bool located(const struct hs_runtime *s, const struct dada *d, int handle, int node)
{
    if (d->predicted && d->writer_node[handle] >= 0)
        return d->writer_node[handle] == node;
    return hs_sched_valid(s, handle, node);
}

/* Bytes of the distinct data t writes that are on memory node `node`. */
static double written_bytes_on(const struct hs_runtime *s, const struct dada *d, const struct hs_task *t,
                               int node)
{
    double sum = 0;
    for (int i = 0; i < t->naccess; i++) {
        const struct hs_access *a = &t->access[i];
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = t->access[j].handle == a->handle && HS_MODE_WRITES(t->access[j].mode);
        if (HS_MODE_WRITES(a->mode) && !seen && located(s, d, a->handle, node))
            sum += hs_sched_dag(s)->handles[a->handle].bytes;
    }
    return sum;
}

/* The affinity worker of t (and its score), given t's cost on each worker and
 * when each is free: the GPU holding most of what t writes (ties: earliest
 * finish, then lowest id), or any core when host memory wins (aff_host). */
static int affinity_worker(const struct hs_runtime *s, const struct dada *d, const struct hs_task *t,
                           const double *cost, const double *ready, double *score)
{
    int best = HS_DA_NO_AFFINITY;
    double best_score = 0, best_finish = INFINITY, core_finish = INFINITY;
    for (int w = 0; w < d->prob.nworkers; w++) {
        double finish = ready[w] + cost[w];
        if (!isfinite(cost[w]))
            continue;
        if (!d->is_gpu[w]) {
            core_finish = fmin(core_finish, finish);
            continue;
        }
        double bytes = written_bytes_on(s, d, t, hs_sched_worker(s, w)->node);
        if (bytes > best_score || (bytes == best_score && bytes > 0 && finish < best_finish)) {
            best = w;
            best_score = bytes;
            best_finish = finish;
        }
    }
    if (d->aff_host && isfinite(core_finish)) {
        double bytes = written_bytes_on(s, d, t, 0);
        if (bytes > best_score || (bytes == best_score && bytes > 0 && core_finish < best_finish)) {
            best = HS_DA_ANY_CPU;
            best_score = bytes;
        }
    }
    *score = best_score;
    return best;
}

/* ---- one batch ------------------------------------------------------------------- */

struct batch {
    double *cost, *ready, *aff_score;
    int *aff_worker;
};

static void describe_batch(struct hs_runtime *s, const struct dada *d, struct hs_task **tasks, int n,
                           struct batch *b)
{
    int P = d->prob.nworkers;
    b->cost = hs_xmalloc((size_t)n * P * sizeof *b->cost);
    b->ready = hs_xmalloc((size_t)P * sizeof *b->ready);
    b->aff_score = hs_xmalloc((size_t)n * sizeof *b->aff_score);
    b->aff_worker = hs_xmalloc((size_t)n * sizeof *b->aff_worker);
    for (int w = 0; w < P; w++)
        b->ready[w] = hs_batchq_ready(&d->bq, s, w);
    for (int i = 0; i < n; i++) {
        double *c = &b->cost[(size_t)i * P];
        for (int w = 0; w < P; w++) {
            c[w] = hs_sched_exec_estimate(s, tasks[i], w);
            if (d->cp && isfinite(c[w]))
                c[w] += hs_sched_transfer_estimate_shared(s, tasks[i], w, d->shared);
        }
        b->aff_worker[i] = HS_DA_NO_AFFINITY;
        b->aff_score[i] = 0;
        if (d->prob.alpha > 0)
            b->aff_worker[i] = affinity_worker(s, d, tasks[i], c, b->ready, &b->aff_score[i]);
    }
}

static void free_batch(struct batch *b)
{
    free(b->cost), free(b->ready), free(b->aff_score), free(b->aff_worker);
}

/* Line 19: push in allocation order (so each worker's queue keeps it),
 * charging each worker the task's cost there. */
static void push_allocation(struct hs_runtime *s, struct dada *d, struct hs_task **tasks, int n,
                            const struct batch *b, const struct hs_da_schedule *alloc)
{
    int *by_rank = hs_xmalloc((size_t)n * sizeof *by_rank);
    for (int i = 0; i < n; i++)
        by_rank[alloc->rank[i]] = i;
    for (int r = 0; r < n; r++) {
        const struct hs_task *t = tasks[by_rank[r]];
        int w = alloc->worker[by_rank[r]];
        hs_batchq_assign(&d->bq, tasks[by_rank[r]], w, b->cost[(size_t)by_rank[r] * d->prob.nworkers + w]);
        for (int k = 0; k < t->naccess; k++)
            if (HS_MODE_WRITES(t->access[k].mode))
                d->writer_node[t->access[k].handle] = hs_sched_worker(s, w)->node;
    }
    free(by_rank);
}

static void schedule_batch(struct hs_runtime *s, struct dada *d)
{
    struct hs_task **tasks;
    int n = hs_batchq_take(&d->bq, &tasks);
    struct batch b;
    describe_batch(s, d, tasks, n, &b);
    struct hs_da_problem prob = d->prob;
    prob.ntasks = n;
    prob.cost = b.cost;
    prob.ready = b.ready;
    prob.now = hs_sched_now(s);
    prob.aff_worker = b.aff_worker;
    prob.aff_score = b.aff_score;
    struct hs_dualapprox *da = hs_da_new(&prob);
    struct hs_da_schedule alloc;
    hs_da_schedule_init(&alloc, n, prob.nworkers);
    hs_da_solve(da, &alloc, NULL);
    push_allocation(s, d, tasks, n, &b, &alloc);
    hs_da_schedule_free(&alloc);
    hs_da_free(da);
    free_batch(&b);
    free(tasks);
}

/* ---- callbacks ------------------------------------------------------------------ */

static void dada_push(struct hs_runtime *s, struct hs_task *t)
{
    struct dada *d = hs_sched_data(s);
    hs_batchq_add(&d->bq, t);
}

/* The runtime asks for work right after a completion's successors were
 * pushed: the batch is complete then. */
static struct hs_task *dada_pop(struct hs_runtime *s, int w)
{
    struct dada *d = hs_sched_data(s);
    if (d->bq.batch.len)
        schedule_batch(s, d);
    struct hs_task *t = hs_batchq_pop(&d->bq, w);
    return t || !d->steal ? t : hs_batchq_steal(&d->bq, s, w);
}

static void dada_fini(struct hs_runtime *s)
{
    struct dada *d = hs_sched_data(s);
    hs_batchq_free(&d->bq);
    free(d->is_gpu);
    free(d->writer_node);
    free(d->shared);
    free(d);
}

#define DADA_POLICY(policy_name, table, text)                                                         \
    {                                                                                                 \
        .name = policy_name, .summary = text, .params = table, .init = dada_init, .push = dada_push, \
        .pop = dada_pop, .fini = dada_fini,                                                           \
    }

const struct hs_policy hs_policy_dada =
    DADA_POLICY("dada", dada_params, "DADA(alpha) (Bleuse et al. 2014): per batch of ready tasks, an affinity "
                                     "phase then a 2-dual approximation, binary search on lambda");
const struct hs_policy hs_policy_dada0 =
    DADA_POLICY("dada0", dada0_params, "DADA(0): dada with alpha=0 (the basic dual approximation)");
const struct hs_policy hs_policy_dada_cp =
    DADA_POLICY("dada-cp", dada_cp_params, "DADA(alpha)+CP: dada with cp=1 (costs include transfers)");
const struct hs_policy hs_policy_dada0_cp =
    DADA_POLICY("dada0-cp", dada0_cp_params, "DADA(0)+CP: dada with alpha=0,cp=1");
