/* policies/batchq.c — batches of ready tasks and per-worker queues with
 * predicted loads (policies/batchq.h). */
#include "policies/batchq.h"
#include "base/util.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

void hs_batchq_init(struct hs_batchq *b, const struct hs_runtime *s)
{
    b->nworkers = hs_sched_nworkers(s);
    hs_taskq_init(&b->batch);
    b->q = hs_xcalloc((size_t)b->nworkers, sizeof *b->q);
    b->queued = hs_xcalloc((size_t)b->nworkers, sizeof *b->queued);
    b->charge = hs_xcalloc((size_t)hs_sched_dag(s)->ntasks, sizeof *b->charge);
}

void hs_batchq_free(struct hs_batchq *b)
{
    for (int w = 0; w < b->nworkers; w++)
        hs_taskq_free(&b->q[w]);
    hs_taskq_free(&b->batch);
    free(b->q), free(b->queued), free(b->charge);
}

void hs_batchq_add(struct hs_batchq *b, struct hs_task *t)
{
    hs_taskq_push(&b->batch, t, 0);
}

int hs_batchq_take(struct hs_batchq *b, struct hs_task ***tasks)
{
    int n = b->batch.len;
    *tasks = hs_xmalloc((size_t)(n + 1) * sizeof **tasks);
    for (int i = 0; i < n; i++)
        (*tasks)[i] = hs_taskq_take(&b->batch, 0);
    return n;
}

double hs_batchq_ready(const struct hs_batchq *b, const struct hs_runtime *s, int w)
{
    return fmax(hs_sched_now(s), hs_sched_worker_ready_at(s, w)) + b->queued[w];
}

void hs_batchq_assign(struct hs_batchq *b, struct hs_task *t, int w, double charge)
{
    hs_taskq_push(&b->q[w], t, 0);
    b->charge[t->id] = charge;
    b->queued[w] += charge;
}

static struct hs_task *take(struct hs_batchq *b, int w, int i)
{
    struct hs_task *t = hs_taskq_take(&b->q[w], i);
    b->queued[w] = b->q[w].len ? b->queued[w] - b->charge[t->id] : 0; /* no drift from rounding */
    return t;
}

struct hs_task *hs_batchq_pop(struct hs_batchq *b, int w)
{
    return b->q[w].len ? take(b, w, 0) : NULL;
}

/* Position of the oldest task of v's queue that w can run, or -1. */
static int oldest_runnable(const struct hs_batchq *b, const struct hs_runtime *s, int v, int w)
{
    for (int i = 0; i < b->q[v].len; i++)
        if (hs_sched_can_run(s, hs_taskq_at(&b->q[v], i), w))
            return i;
    return -1;
}

struct hs_task *hs_batchq_steal(struct hs_batchq *b, struct hs_runtime *s, int w)
{
    int *victims = hs_xmalloc((size_t)b->nworkers * sizeof *victims), n = 0;
    for (int v = 0; v < b->nworkers; v++)
        if (v != w && oldest_runnable(b, s, v, w) >= 0)
            victims[n++] = v;
    struct hs_task *t = NULL;
    if (n) {
        int v = victims[gsl_rng_uniform_int(hs_sched_rng(s), (unsigned long)n)];
        t = take(b, v, oldest_runnable(b, s, v, w));
    }
    free(victims);
    return t;
}
