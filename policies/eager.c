/* policies/eager.c — one central FIFO (StarPU's "eager"): a worker that asks
 * for work gets the oldest ready task it can run. Tasks are kept in one queue
 * per set of architectures that can run them, so the oldest compatible task is
 * found without scanning past tasks the worker cannot run. */
#include "policies/registry.h"
#include "base/util.h"
#include "policies/taskq.h"

#include <stdlib.h>

/* queue index = bitmask of the architectures that can run the task (1..3) */
struct eager {
    struct hs_taskq q[1u << HS_NARCH];
    unsigned long seq;
    int *by_arch[HS_NARCH]; /* the workers of each architecture, in id order */
    int narch[HS_NARCH];
};

static int eager_init(struct hs_runtime *s)
{
    struct eager *e = hs_xcalloc(1, sizeof *e);
    for (unsigned i = 0; i < (1u << HS_NARCH); i++)
        hs_taskq_init(&e->q[i]);
    int P = hs_sched_nworkers(s);
    for (int a = 0; a < HS_NARCH; a++)
        e->by_arch[a] = hs_xmalloc((size_t)P * sizeof(int));
    for (int w = 0; w < P; w++) {
        enum hs_arch a = hs_sched_worker(s, w)->arch;
        e->by_arch[a][e->narch[a]++] = w;
    }
    /* work is offered to the workers of an architecture while a queue they
       can take from holds a task (eager_pop changes nothing otherwise) */
    hs_sched_offer_mode(s);
    hs_sched_set_data(s, e);
    return 0;
}

/* The architectures with a worker that can run t (usually the first of each). */
static unsigned runnable_archs(const struct hs_runtime *s, const struct eager *e, const struct hs_task *t)
{
    unsigned mask = 0;
    for (int a = 0; a < HS_NARCH; a++)
        for (int i = 0; i < e->narch[a] && (t->arch_mask & HS_ARCH_BIT(a)); i++)
            if (hs_sched_can_run(s, t, e->by_arch[a][i])) {
                mask |= HS_ARCH_BIT(a);
                break;
            }
    return mask;
}

/* Name to the runtime the architectures that a queued task is waiting for. */
static void offer(struct hs_runtime *s, const struct eager *e)
{
    for (int a = 0; a < HS_NARCH; a++) {
        bool work = false;
        for (unsigned m = 1; m < (1u << HS_NARCH) && !work; m++)
            work = (m & HS_ARCH_BIT(a)) && e->q[m].len > 0;
        hs_sched_offer_arch(s, a, work);
    }
}

static void eager_push(struct hs_runtime *s, struct hs_task *t)
{
    struct eager *e = hs_sched_data(s);
    hs_taskq_push(&e->q[runnable_archs(s, e, t)], t, e->seq++);
    offer(s, e);
}

static struct hs_task *eager_pop(struct hs_runtime *s, int w)
{
    struct eager *e = hs_sched_data(s);
    unsigned bit = HS_ARCH_BIT(hs_sched_worker(s, w)->arch);
    struct hs_taskq *best = NULL;
    int best_i = -1;
    for (unsigned m = 1; m < (1u << HS_NARCH); m++) {
        if (!(m & bit))
            continue;
        struct hs_taskq *q = &e->q[m];
        /* usually the head; a task with explicit costs may exclude this very worker */
        for (int i = 0; i < q->len; i++) {
            if (best && hs_taskq_seq_at(q, i) > hs_taskq_seq_at(best, best_i))
                break;
            if (hs_sched_can_run(s, hs_taskq_at(q, i), w)) {
                best = q;
                best_i = i;
                break;
            }
        }
    }
    if (!best)
        return NULL;
    struct hs_task *t = hs_taskq_take(best, best_i);
    offer(s, e);
    return t;
}

static void eager_fini(struct hs_runtime *s)
{
    struct eager *e = hs_sched_data(s);
    for (unsigned i = 0; i < (1u << HS_NARCH); i++)
        hs_taskq_free(&e->q[i]);
    for (int a = 0; a < HS_NARCH; a++)
        free(e->by_arch[a]);
    free(e);
}

const struct hs_policy hs_policy_eager = {
    .name = "eager",
    .summary = "one central FIFO; an idle worker takes the oldest ready task it can run",
    .init = eager_init,
    .push = eager_push,
    .pop = eager_pop,
    .fini = eager_fini,
};
