/* policies/dmda.c — StarPU's "deque model data aware" (dmda; StarPU 1.0's
 * heft is the same policy): a ready task goes to the worker that minimises
 *
 *   fitness(w) = exp_end(w) + beta * penalty(w)        (eft=additive, default)
 *   exp_end(w) = max(now, ready_at(w)) + queued(w) + exec(w)
 *
 * penalty(w) is the estimated transfer time of the task's inputs that are
 * neither valid on w's memory nor already on their way there. This is StarPU
 * 1.0's rule (src/sched_policies/heft.c and deque_modeling_policy_data_aware.c:
 * fitness = alpha (exp_end - best_exp_end) + beta data_penalty, with
 * starpu_data_expected_transfer_time() = 0 for data "present or requested").
 * The chosen worker's queue then grows by exec plus the part of the transfer
 * not hidden behind its queued work (StarPU's predicted_transfer), and, with
 * prefetch=1 (StarPU's STARPU_PREFETCH, on by default), the task's inputs are
 * requested on that memory at once, so later decisions see them as there.
 * StarPU predicts a transfer as latency + bytes/bandwidth * 2 * (CUDA + OpenCL
 * devices in use): _starpu_predict_transfer_time() in 1.0
 * (src/core/perfmodel/perfmodel_bus.c), starpu_transfer_predict() in 1.1, a
 * crude allowance for the bus the GPUs share. bus=gpus (the default) scales
 * the penalty so; bus=plain takes the platform's bandwidth as it is.
 * eft=overlap (hetsim 0.1's rule) hides a GPU's transfers behind its queue:
 * max(avail, now + beta*transfer) + exec, and counts only exec in the queue.
 *
 * Ties go to the lowest worker id. Each worker runs its queue in FIFO order. */
#include "policies/registry.h"
#include "base/util.h"
#include "policies/taskq.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct dmda {
    struct hs_taskq *q;   /* per worker */
    double *queued;       /* estimated time of each queue: executions (and, additive, transfers) */
    double *charge;       /* per task: what its push added to its worker's queued time */
    double *slow;         /* per memory node: the factor on bytes/bandwidth (NULL: 1) */
    double beta;
    bool additive; /* eft=additive: the transfer penalty is added, never hidden */
    bool prefetch; /* request a pushed task's inputs on its worker's memory at once */
};

static const struct hs_param dmda_params[] = {
    {.name = "beta", .type = HS_P_DOUBLE, .defval = "1", .range = "[0,inf)",
     .help = "weight of the estimated transfer time"},
    {.name = "eft", .type = HS_P_CHOICE, .defval = "additive", .choices = "additive|overlap",
     .help = "additive: expected end plus the transfer penalty, as StarPU's dmda and heft; "
             "overlap: transfers hidden behind a GPU's queued work"},
    {.name = "bus", .type = HS_P_CHOICE, .defval = "gpus", .choices = "gpus|plain",
     .help = "gpus: the transfer estimate's bytes/bandwidth times 2 x the GPUs in use, as StarPU "
             "1.0 and 1.1 predict transfers; plain: the platform's bandwidth as it is"},
    {.name = "prefetch", .type = HS_P_BOOL, .defval = "1",
     .help = "request a task's inputs on its worker's memory as soon as it is pushed (StarPU's "
             "STARPU_PREFETCH, on by default); requested data then cost no transfer in estimates"},
    {0},
};

static int dmda_init(struct hs_runtime *s)
{
    int n = hs_sched_nworkers(s);
    struct dmda *d = hs_xcalloc(1, sizeof *d);
    d->q = hs_xcalloc((size_t)n, sizeof *d->q);
    d->queued = hs_xcalloc((size_t)n, sizeof(double));
    d->charge = hs_xcalloc((size_t)hs_sched_dag(s)->ntasks, sizeof(double));
    d->beta = hs_spec_double(hs_sched_params(s), "beta");
    d->prefetch = hs_spec_bool(hs_sched_params(s), "prefetch");
    d->additive = strcmp(hs_spec_get(hs_sched_params(s), "eft"), "additive") == 0;
    if (strcmp(hs_spec_get(hs_sched_params(s), "bus"), "gpus") == 0)
        d->slow = hs_sched_gpu_factors(s, 2);
    hs_sched_set_decision(s, HS_DECIDE_WORKERS); /* an expected end on every worker per task */
    hs_sched_offer_mode(s); /* a worker's pop gives something only once a push named it */
    hs_sched_set_data(s, d);
    return 0;
}

/* What the decision weighs for t on w, kept for the bookkeeping of the chosen one. */
struct estimate {
    double avail;    /* max(now, ready_at) + queued */
    double exec;     /* INFINITY: w cannot run t */
    double transfer; /* estimated time of the missing inputs, unweighted */
    double fitness;
};

static struct estimate estimate(struct hs_runtime *s, struct dmda *d, struct hs_task *t, int w,
                                double now)
{
    struct estimate e = {.exec = hs_sched_exec_estimate(s, t, w), .fitness = INFINITY};
    if (!isfinite(e.exec))
        return e;
    e.avail = fmax(now, hs_sched_worker_ready_at(s, w)) + d->queued[w];
    e.transfer = hs_sched_transfer_estimate_shared(s, t, w, d->slow);
    if (!d->additive && hs_sched_worker(s, w)->window > 1)
        e.fitness = fmax(e.avail, now + d->beta * e.transfer) + e.exec;
    else
        e.fitness = e.avail + d->beta * e.transfer + e.exec;
    return e;
}

static void prefetch_inputs(struct hs_runtime *s, const struct hs_task *t, int w)
{
    for (int i = 0; i < t->naccess; i++)
        if (HS_MODE_READS(t->access[i].mode))
            hs_sched_prefetch(s, t->access[i].handle, hs_sched_worker(s, w)->node);
}

/* The fitness of t on w from its availability, transfer and execution
 * estimates (those of estimate()); non-decreasing in avail. */
struct fit_ctx {
    const struct dmda *d;
    struct hs_runtime *s;
    double now;
};

static double fitness(void *ctx, int w, double avail, double transfer, double exec)
{
    const struct fit_ctx *f = ctx;
    if (!f->d->additive && hs_sched_worker(f->s, w)->window > 1)
        return fmax(avail, f->now + f->d->beta * transfer) + exec;
    return avail + f->d->beta * transfer + exec;
}

static void dmda_push(struct hs_runtime *s, struct hs_task *t)
{
    struct dmda *d = hs_sched_data(s);
    double now = hs_sched_now(s), fit;
    /* the worker of lowest fitness, ties to the lowest id, through the
     * classes of identical workers (sim/sched.h): the scan's choice */
    int best_w = hs_sched_best_worker(s, t, d->queued, d->slow, fitness,
                                      &(struct fit_ctx){.d = d, .s = s, .now = now}, &fit);
    struct estimate best = estimate(s, d, t, best_w, now);
    double charge = best.exec;
    if (d->additive) /* the part of the transfer not hidden behind the queue */
        charge += fmax(0, now + best.transfer - (best.avail + best.exec));
    hs_taskq_push(&d->q[best_w], t, 0);
    hs_sched_offer(s, best_w, true);
    d->queued[best_w] += charge;
    hs_sched_queued_changed(s, best_w);
    d->charge[t->id] = charge;
    if (d->prefetch)
        prefetch_inputs(s, t, best_w);
}

static struct hs_task *dmda_pop(struct hs_runtime *s, int w)
{
    struct dmda *d = hs_sched_data(s);
    if (!d->q[w].len)
        return NULL;
    struct hs_task *t = hs_taskq_take(&d->q[w], 0);
    d->queued[w] -= d->charge[t->id];
    if (d->q[w].len == 0) {
        d->queued[w] = 0; /* no drift from rounding */
        hs_sched_offer(s, w, false);
    }
    hs_sched_queued_changed(s, w);
    return t;
}

static void dmda_fini(struct hs_runtime *s)
{
    struct dmda *d = hs_sched_data(s);
    for (int w = 0; w < hs_sched_nworkers(s); w++)
        hs_taskq_free(&d->q[w]);
    free(d->q);
    free(d->queued);
    free(d->charge);
    free(d->slow);
    free(d);
}

const struct hs_policy hs_policy_dmda = {
    .name = "dmda",
    .summary = "StarPU's dmda: each ready task goes to the worker with the earliest expected "
               "end plus its transfer penalty; inputs prefetched",
    .params = dmda_params,
    .init = dmda_init,
    .push = dmda_push,
    .pop = dmda_pop,
    .fini = dmda_fini,
};
