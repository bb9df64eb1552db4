/* policies/dmda.c — StarPU-like "deque model data aware": a ready task goes
 * to the worker that minimises its expected completion time, counting the
 * work that worker already holds, the estimated transfers of the task's
 * missing inputs and its estimated execution time there:
 *
 *   avail(w)      = max(now, ready_at(w)) + queued estimates of w's queue
 *   completion(w) = max(avail, now + beta*transfer)  + exec   (GPU, processor:
 *                   inputs move while earlier tasks run)
 *                 = avail + beta*transfer + exec             (core: fetches block)
 *
 * Ties go to the lowest worker id. Each worker runs its queue in FIFO order. */
#include "policies/registry.h"
#include "policies/taskq.h"
#include "sim/util.h"

#include <math.h>
#include <stdlib.h>

struct dmda {
    struct hs_taskq *q;   /* per worker */
    double *queued;       /* estimated execution time of each queue */
    double beta;
};

static const struct hs_param dmda_params[] = {
    {.name = "beta", .type = HS_P_DOUBLE, .defval = "1", .range = "[0,inf)",
     .help = "weight of the estimated transfer time"},
    {0},
};

static int dmda_init(struct hs_sched *s)
{
    int n = hs_sched_nworkers(s);
    struct dmda *d = hs_xcalloc(1, sizeof *d);
    d->q = hs_xcalloc((size_t)n, sizeof *d->q);
    d->queued = hs_xcalloc((size_t)n, sizeof(double));
    d->beta = hs_spec_double(hs_sched_params(s), "beta");
    hs_sched_set_decision(s, HS_DECIDE_WORKERS); /* an expected end on every worker per task */
    hs_sched_set_data(s, d);
    return 0;
}

static double expected_completion(struct hs_sched *s, struct dmda *d, struct hs_task *t, int w,
                                  double now)
{
    double exec = hs_sched_exec_estimate(s, t, w);
    if (!isfinite(exec))
        return INFINITY;
    double avail = fmax(now, hs_sched_worker_ready_at(s, w)) + d->queued[w];
    double transfer = d->beta * hs_sched_transfer_estimate(s, t, w);
    if (hs_sched_worker(s, w)->window > 1)
        return fmax(avail, now + transfer) + exec;
    return avail + transfer + exec;
}

static void dmda_push(struct hs_sched *s, struct hs_task *t)
{
    struct dmda *d = hs_sched_data(s);
    double now = hs_sched_now(s), best = INFINITY;
    int best_w = -1;
    for (int w = 0; w < hs_sched_nworkers(s); w++) {
        double c = expected_completion(s, d, t, w, now);
        if (c < best) {
            best = c;
            best_w = w;
        }
    }
    hs_taskq_push(&d->q[best_w], t, 0);
    d->queued[best_w] += hs_sched_exec_estimate(s, t, best_w);
}

static struct hs_task *dmda_pop(struct hs_sched *s, int w)
{
    struct dmda *d = hs_sched_data(s);
    if (!d->q[w].len)
        return NULL;
    struct hs_task *t = hs_taskq_take(&d->q[w], 0);
    d->queued[w] -= hs_sched_exec_estimate(s, t, w);
    if (d->q[w].len == 0)
        d->queued[w] = 0; /* no drift from rounding */
    return t;
}

static void dmda_fini(struct hs_sched *s)
{
    struct dmda *d = hs_sched_data(s);
    for (int w = 0; w < hs_sched_nworkers(s); w++)
        hs_taskq_free(&d->q[w]);
    free(d->q);
    free(d->queued);
    free(d);
}

const struct hs_policy hs_policy_dmda = {
    .name = "dmda",
    .summary = "each ready task goes to the worker with the earliest expected completion, "
               "estimated transfers included",
    .params = dmda_params,
    .init = dmda_init,
    .push = dmda_push,
    .pop = dmda_pop,
    .fini = dmda_fini,
};
